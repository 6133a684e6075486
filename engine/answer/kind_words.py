"""Words that name a kind of thing where a KG labels one thing with the same noun.

A KG may label one member of a class with the common noun of its kind: a thing labelled "<Noun>" of class C, while
"<noun>s" are members of C and "the largest <noun> of X" is one of them. English grammar says where such a noun
names the kind: in the plural, and after a superlative adjective, which ranks the members of a kind (not after an
ordinal: "the first <noun> <other noun>" may be the thing's own). There the word names the thing's class, as a
class word would.

A value labelled so is the kind itself: a tag or a category that things point at, with no facts of its own, is
what "<noun>s" and "the best <noun>" name. What tells the two apart is whether the entity has facts of its own
(`labels.Entity.described`): a value is only pointed at.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from .degree import ORDINAL_SUPERLATIVES, QUANTITY_SUPERLATIVES, is_superlative
from .mentions import Candidate
from .words import QuestionTokens

# "the most <adjective> <noun>": a superlative of two words stands this far before the noun
_TWO_WORD_SUPERLATIVES = ("most", "least")


def after_superlative(ctx: QuestionTokens, i: int) -> bool:
    """Whether the word at token `i` follows a superlative adjective: "the largest <noun>", "the most distant
    <noun>". Ordinals ("first", "last") and quantities ("most <noun>" counts it) are not: they stand before a
    thing's name as well."""
    before = ctx.folded[max(0, i - 2):i]
    graded = bool(before) and is_superlative(before[-1]) and before[-1] not in (
        *ORDINAL_SUPERLATIVES, *QUANTITY_SUPERLATIVES)
    return graded or (len(before) == 2 and before[0] in _TWO_WORD_SUPERLATIVES)


def as_kinds(found: list[Candidate], described: Callable[[str | None], bool],
             score: float) -> tuple[list[Candidate], list[Candidate]]:
    """(values, classes): the entities of `found` that have no facts of their own, and the first class of each
    one that has, as class candidates with `score`."""
    things = {c.iri for c in found if described(c.iri)}
    classes = dict.fromkeys(c.classes[0] for c in found if c.classes and c.iri in things)
    return [c for c in found if c.iri not in things], [Candidate("class", name, None, score) for name in classes]


def at_most(found: list[Candidate], score: float) -> list[Candidate]:
    """`found` scored no surer than `score`."""
    return [replace(c, score=min(c.score, score)) for c in found]
