"""What "how many" counts: the words after it, and the numbers the KG holds that may say how many there are.

"How many people live in Canada" asks for a number the KG holds (Canada's `population`); "how many dishes does
Villa Ferro serve" asks for a count of its dishes, though the restaurant has a `rating`. Where the counted words
name a class or a relation, `asked.counts_named` decides; where they name neither, a number answers only where it
measures them (`measured`), and otherwise the count does.
"""

from __future__ import annotations

import re

from engine.programs.validate import QUANTITY_KINDS
from kg_adapters.person_nouns import names_people
from kg_adapters.schema import Schema

from .named import Spelling, words_of
from .synonyms import kin
from .words import FUNCTION_WORDS

# "how many" and the two words after it: what is counted ("how many japanese cities")
HOW_MANY = re.compile(r"\bhow many\s+(\w+(?:\s+\w+)?)", re.IGNORECASE)
# WordNet senses of a counted word and of a number's label that may relate them (`synonyms.kin`). With the first
# sense only, "people" and "inhabitants" are kin to `population` and "visitors" to `annual visitors`, and none of
# "dishes", "flights", "pieces", "cubs", "recipes" to any number of the made-up probe KGs (bench/probes); with three,
# "people" was kin to `latitude`, "flights" to `elevation`, "pieces" to `area`.
MEASURE_SENSES = 1


def counted_words(text: str) -> set[str] | None:
    """The words after "how many" (what it counts), or None where the question has no "how many"."""
    match = HOW_MANY.search(text)
    return None if match is None else set(words_of(match.group(1)))


def measured(text: str, schema: Schema, named: dict[str, Spelling]) -> frozenset[str]:
    """The numeric relations that may say how many of what "how many" counts there are: those the question names;
    those whose label WordNet relates to a counted word; and, where it counts people ("citizens", "people"), the
    whole numbers, as a head count is one (`population`, `annual visitors`). The relation lexicon gives an
    attribute few words (`population`: "number"), and the embedder puts "flights" as near `runways` (0.45) as
    "residents" is to `population` (0.45), so neither tells them apart."""
    counted = [word for word in counted_words(text) or () if word not in FUNCTION_WORDS]
    if not counted:
        return frozenset()
    people = any(map(names_people, counted))
    return frozenset(r.name for r in schema.relations if (kind := schema.literal_kind(r)) in QUANTITY_KINDS and (
        r.name in named or (people and kind == "integer")
        or any(kin(word, r.label, MEASURE_SENSES) for word in counted)))
