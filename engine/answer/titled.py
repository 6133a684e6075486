"""A name narrowed by the name written just before it: "Queen Maud" is the Maud who holds the title Queen of Valdmar.

People put a title, a rank or a place before a name they share with others ("Queen Maud", "Duke Aldric III",
"Prince Bertram"), and the title's own label is another entity of the KG. Read as two names, the question anchors a
search on the title as well, and a first name held by four people links two of them at random (the linker keeps
`top_k`). Read together, the first name means those of its people that the entity before it is tied to by some
relation, in one query, and the word before it names nothing more. Where no candidate is tied to it, both stay as
linked: two names side by side that the KG does not join are two names. (The blind lineage probe,
bench/probes/lineage.py: four Mauds, three Bertrams, their titles as entities.)
"""

from __future__ import annotations

import logging
from typing import Callable, Sequence

from engine.programs.terms import entity
from engine.programs.executor import Executor
from kg_adapters.base import KGError

from .mentions import Candidate, Linking, Mention
from .named import words_of

log = logging.getLogger(__name__)

# every entity a folded one-word name may stand for (engine.answer.name_forms.NameForms.holders)
NameParts = Callable[[str], Sequence[Candidate]]
# of the second IRIs, those the first tie to by some relation either way; None when the store could not answer
Tied = Callable[[Sequence[str], Sequence[str]], frozenset[str] | None]


class Together:
    """Reads names together over one KG's names (`parts`) and ties (`tied`; None: never), keeping `top_k`."""

    def __init__(self, parts: NameParts, tied: Tied | None, top_k: int):
        self.parts, self.tied, self.top_k = parts, tied, top_k

    def __call__(self, linking: Linking) -> Linking:
        return linking if self.tied is None else read_together(linking, self.parts, self.tied, self.top_k)


def read_together(linking: Linking, parts: NameParts, tied: Tied, top_k: int) -> Linking:
    """The linking with each entity mention written right after another ("Queen Maud") narrowed to the candidates
    the one before is tied to, keeping `top_k`, and spanning both; the one before dropped."""
    mentions, out, skip = linking.mentions, [], False
    for before, name in zip(mentions, [*mentions[1:], None]):
        if skip:
            skip = False
            continue
        together = _together(linking.question, before, name, parts, tied, top_k) if name is not None else None
        out.append(together or before)
        skip = together is not None
    return Linking(linking.question, tuple(out), linking.classes) if len(out) < len(mentions) else linking


def _together(text: str, before: Mention, name: Mention, parts: NameParts, tied: Tied, top_k: int) -> Mention | None:
    """`name` read with `before` as its title, or None where they are no such pair."""
    if text[before.end:name.start].strip() or not _entities(before) or not _entities(name):
        return None
    words = words_of(name.text)
    everyone = list(parts(words[0])) if len(words) == 1 else []  # a first name: all its holders, not top_k of them
    candidates = everyone or _entities(name)
    kept = tied([c.iri for c in _entities(before)], [c.iri for c in candidates])
    if not kept:
        return None
    return Mention(text[before.start:name.end], before.start, name.end,
                   tuple(c for c in candidates if c.iri in kept)[:top_k], name.bracketed)


def _entities(mention: Mention) -> list[Candidate]:
    return [c for c in mention.candidates if c.kind == "entity" and c.iri]


def ties_between(executor: Executor) -> Tied:
    """`Tied` over one store: one query per pair of mentions."""
    def tied(first: Sequence[str], second: Sequence[str]) -> frozenset[str] | None:
        a, b = " ".join(map(entity, first)), " ".join(map(entity, second))
        sparql = (f"SELECT DISTINCT ?b WHERE {{ VALUES ?a {{ {a} }} VALUES ?b {{ {b} }} "
                  f"{{ ?a ?p ?b }} UNION {{ ?b ?p ?a }} }}")
        try:
            rows = executor.select(sparql)[0].rows
        except KGError as err:
            log.info("ties between names: %s", err)
            return None
        return frozenset(row[0].value for row in rows if row[0] is not None)
    return tied
