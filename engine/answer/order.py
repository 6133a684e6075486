"""The order a question says a chain's steps in: "the wife of X's son" walks to X's son first, then to his wife.

English builds a chain two ways around a name. A possessive reads outward from it: "X's son's wife" is a son, then
his wife. "Of" and a participle read inward toward it: in "the wife of the son of X" or "things made by X" the
word nearest the name is the first step. So the words after the name's possessive come first, in reading order, then
the words in front of the name, nearest first. A chain that spells a step with a word the question puts elsewhere
spends that word against the grammar: "the dad of Queen Maud's husband" is her husband's dad, not her mother's
father's husband. The embedder and the 0.5B scorer read both orders alike, and on a lineage probe written blind
(Wikidata-style kin) such chains won by hundredths.

Grammar only, no words of any domain. Words after the possessive noun phrase are left out: a question's own verb
("when was ... born") and a relative clause's ("the things X took part in") both stand there, and they go opposite ways.
A step none of whose words the question places is no evidence either way. Only steps between members of one class
are judged (`among_one_class`): only they can come in either order (a spouse's father, a father's spouse), where the
classes fix the place of a step to another class; on PathQuestion, whose questions split a relation's name into words
and name one relation by words of several, judging every step cost check F1 (session 64).
"""

from __future__ import annotations

import re
from itertools import groupby
from typing import Sequence

from lemminflect import getAllLemmas

from engine.programs.sexpr import Count, Entity, Join, Program, Relation, Reverse
from kg_adapters.schema import Schema

from .ends import GENERATION_PREFIX
from .glossed import Part
from .named import Spelling
from .words import STOP, fold

# A word (hyphens kept: "mother-in-law"), or a possessive ending: "'s", and the bare apostrophe of "Charles' son".
_TOKEN = re.compile(r"['’`]s\b|(?<=s)['’`](?!\w)|[^\W_]+(?:-[^\W_]+)*")
_APOSTROPHE_S = re.compile(r"['’`]s?")
# A name's own possessive: "Ansel's", "Peyre 's" (as some datasets write it), "Charles'".
_OWNED = re.compile(r"(?<=[^\W_])\s?['’`]s$|(?<=s)['’`]$")
# Words in front of the name are placed after every word of its possessive: "the wife of X's son" (a son's wife).
_IN_FRONT = 1000


def placed_words(text: str, start: int, end: int, parts: Sequence[Part] = ()) -> dict[str, list[float]]:
    """Folded word -> its places outward from the name at text[start:end]: the possessive's words 1, 2, ... in
    reading order, the words in front of the name _IN_FRONT and up, nearest first. A "grand" word is placed as its
    rest too ("grandson": son), a hyphenated word as its pieces, and a word read as steps (`parts`, engine.answer
    .glossed) as the words of its steps, innermost first, between its own place and the next: "the brothers of"
    places `sibling` where "brothers" stands, "X's mother-in-law" places `spouse` before `mother`."""
    places: dict[str, list[float]] = {}
    steps: dict[str, list[str]] = {}
    for (_, said), run in groupby(parts, key=lambda part: (part.at, part.said)):  # a word written twice: its first
        steps.setdefault(said, [part.word for part in run])
    owned = _OWNED.search(text[start:end])  # the linker's span may hold the possessive: "Prince Ansel's"
    if owned:
        end = start + owned.start()

    def place(word: str, at: int) -> None:
        word = fold(word)
        pieces = word.split("-")
        read = steps.get(word, pieces)
        forms = {word, word[len(GENERATION_PREFIX):] if word.startswith(GENERATION_PREFIX) else word}
        if read == pieces:  # read as written: a hyphenated word's pieces stand where it does
            forms.update(pieces)
        for form in forms:
            places.setdefault(form, []).append(at)
        if read != pieces:  # read as steps: innermost first, between its place and the next word's
            for i, step in enumerate(read[::-1]):
                places.setdefault(step, []).append(at + i / len(read))

    in_front = [m.group() for m in _TOKEN.finditer(text, 0, start) if not _APOSTROPHE_S.fullmatch(m.group())]
    for distance, word in enumerate(reversed(in_front)):
        place(word, _IN_FRONT + distance)
    for at, word in enumerate(_possessive_words(text, end), start=1):
        place(word, at)
    return places


def _possessive_words(text: str, end: int) -> list[str]:
    """The words of the noun phrases a name's "'s" opens: "'s mom's mom from" -> mom, mom. It ends at a function word
    or a verb that is no noun ("born")."""
    tokens = [m.group() for m in _TOKEN.finditer(text, end)]
    if not tokens or not _APOSTROPHE_S.fullmatch(tokens[0]):
        return []
    out = []
    for token in tokens[1:]:
        if _APOSTROPHE_S.fullmatch(token):
            continue
        lemmas = getAllLemmas(token.lower())
        if fold(token) in STOP or ("VERB" in lemmas and "NOUN" not in lemmas):
            break
        out.append(token)
    return out


def chain_steps(program: Program) -> tuple[Entity | None, list[tuple[str, bool]]]:
    """(the name a chain starts at, its steps outward as (relation, walked toward its objects)); (None, []) for a
    program that is no chain of relations from one name (a count of one is read as the chain)."""
    node, steps = program.arg if isinstance(program, Count) else program, []
    while isinstance(node, Join) and isinstance(node.relation, (Relation, Reverse)):
        rel = node.relation
        steps.append((rel.relation.name if isinstance(rel, Reverse) else rel.name, isinstance(rel, Reverse)))
        node = node.arg
    return (node, steps[::-1]) if isinstance(node, Entity) else (None, [])


def among_one_class(schema: Schema, named: dict[str, Spelling]) -> dict[str, Spelling]:
    """The named relations that link one class to itself: the steps whose order the question's grammar decides."""
    return {name: spelling for name, spelling in named.items()
            if (info := schema.relation(name)) is not None and info.links_one_class}


def misordered(steps: list[tuple[str, bool]], named: dict[str, Spelling], places: dict[str, list[float]]) -> int:
    """The steps read against the question's order: those whose every placed word comes before the word an earlier
    step was read by, and those read by a word past a word that spells a relation no step took, in the possessive
    ("the dad of Maud's husband" read as Maud's dad passes over "husband") or in front of the name ("the dad of the
    missus of X's son" read as the son's dad passes over "missus": a blind lineage probe, with a corpus). A step may
    share its word with the step before ("grandson": two steps of one word); a step no placed word spells is skipped.
    A word an earlier step was read by is no word passed over: "X 's netflix_genres 's recording" places "netflix" and
    "genres" apart, and its genres' recordings had passed over "genres" (PathQuestion, reasoner v106)."""
    spelling_words = frozenset().union(*(s.words for s in named.values()))
    placed = sorted(at for word, ats in places.items() if word in spelling_words for at in ats)
    reached, count, spent = -1, 0, set()
    for name, toward_objects in steps:
        spelling = named.get(name)
        if spelling is None:
            continue
        words = spelling.by_verb | (spelling.by_noun if toward_objects else spelling.by_back_noun)
        found = [at for word in words for at in places.get(word, ())]
        later = [at for at in found if at >= reached]
        if not found:
            continue
        if not later:
            count += 1
            continue
        count += any(reached < at < min(later) and at not in spent for at in placed)
        spent.update(found)
        reached = min(later)
    return count
