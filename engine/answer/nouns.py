"""The nouns of a KG's relations that a question asks for: "what is the population of X" asks for a number,
"which capital ..." for a city, "what is X's largest town" for a town.

`question.py` adds the classes these nouns ask for to the question's asked classes; the ranker puts the readings
that answer with them first (`asked.fits_asked`).
"""

from __future__ import annotations

import re

from kg_adapters.readable import object_noun
from kg_adapters.schema import Schema

from .linker import Linking
from .words import word_forms

POSSESSED = re.compile(r"['’]s?\s*$")  # "Brazil's currency", "the Beatles' album"


def relation_nouns(schema: Schema) -> tuple[re.Pattern, dict[str, tuple[frozenset[str], bool]]]:
    """ "what is the <noun>", "which <noun>": the nouns of relations (population, release year, highest point),
    each with the classes of their objects, which the question asks for, and whether they are values. Without it,
    "what is the population of Canada" got Canada's cities: a set of entities scored above the one number asked
    for; and "what is the highest point of X" got the elevation of X's highest point, a reading the 0.5B scorer
    liked better than the point itself. A question that opens with the noun asks for it too where it is a value
    ("population of the capital of nigeria?"), not an entity: "the actor in X also appears in which movies"."""
    asks: dict[str, set[str]] = {}
    values: set[str] = set()
    for rel in schema.relations:
        value = schema.literal_kind(rel) != "entity"
        if not value and not (rel.range and all(schema.class_(c) for c in rel.range)):
            continue  # entities of no known class
        for noun in {object_noun(rel.name), rel.label.lower()}:
            for form in word_forms(noun) if " " not in noun else {noun}:
                asks.setdefault(form, set()).update(rel.range)
                if value:
                    values.add(form)
    alternatives = "|".join(sorted(map(re.escape, asks), key=len, reverse=True)) or "(?!)"
    pattern = re.compile(rf"(\b(?P<wh>what|which)('s\s+|\s+(is|are|was|were)\s+|\s+)|^\s*)(the\s+)?(?P<noun>{alternatives})\b(?!\s*['’]s?\s)",
                         re.IGNORECASE)
    return pattern, {form: (frozenset(classes), form in values) for form, classes in asks.items()}


def without_possessors(text: str, linking: Linking) -> str:
    """The text less each name that owns what follows it ("what is Bresk's largest town" -> "what is largest
    town"), so that the noun after the wh-phrase is read as the one asked for."""
    for mention in sorted(linking.mentions, key=lambda m: m.start, reverse=True):
        owner = _POSSESSOR.match(text, mention.end)
        if mention.kind == "entity" and owner and (owner.group(1) or POSSESSED.search(mention.text)):
            text = text[: mention.start] + text[owner.end() :]
    return text


_POSSESSOR = re.compile(r"(\s*['’]s?)?\s+")
