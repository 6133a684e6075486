"""A kind word narrows its step: "Anna's mother" is the parent of Anna who is female.

The lexicon names a relation's end by its kinds (engine.bootstrap.kinds): "mother" and "father" both read `parent`,
so "who is Anna's mother?" would answer both parents. Where the step's answers hold, over a relation of their own,
a value that WordNet's gloss of the word names ("mother": "a woman who has given birth to a child", and a woman is
a female), the chosen program keeps the members that hold it: (AND (JOIN gender "female") (JOIN (R parent) "Anna"))
in a KG that has such a relation. Which value and which relation is the KG's: nothing here names them, and a KG that
stores `mother` as a relation of its own is left as it is (its step holds no value that narrows it further).

Applied to the re-rank's winner, so that the search and its scores stay as they are: a narrowing is taken only
where exactly one value of the step's answers is named, and it keeps some but not all of the answers.
"""

from __future__ import annotations

import logging
from dataclasses import fields, replace
from itertools import accumulate

from engine.bootstrap.kinds import gloss_words
from engine.programs.executor import Execution, Executor
from engine.programs.sexpr import And, Entity, Join, Node, Program, ProgramError, Relation, Reverse, walk
from kg_adapters.base import KGError
from kg_adapters.readable import object_noun, singular
from kg_adapters.schema import Schema

from . import glossed
from .ends import GENERATION_PREFIX, either_end, one_step, subject_words
from .usual import incident

log = logging.getLogger(__name__)

MAX_VALUES = 50  # values of one relation read per step: a relation that tells kinds apart has few


def narrowed(program: Program, question: str, schema: Schema, executor: Executor) -> tuple[Program, Execution] | None:
    """The program with each step that a kind word of the question (anonymised: no name holds one) names
    narrowed to that kind, and its execution; None where nothing narrows."""
    kinds = _kind_words(question, schema)
    if not kinds:
        return None
    steps = [(node, words) for node in walk(program) if (words := _end_words(node, schema))]
    narrowing: dict[int, Node] = {}
    taken: set[int] = set()
    for word, base, read in _in_walk_order(kinds, question):
        # the outermost step this word names and no other word took yet; a word of "grand" names the outer step of
        # its pair ("grandfather": the father of a parent). A word read as the KG's word takes its step whether its
        # kind narrows it or not ("the kids of X's daughter": the kids' step is not the daughter's).
        step = next((s for s, words in reversed(steps) if id(s) not in taken and {word, base} & words), None)
        if step is None:
            continue
        value = _named_value(step, base, schema, executor)
        if value is not None or read:
            taken.add(id(step))
        if value is not None:
            narrowing[id(step)] = value
    if not narrowing:
        return None
    return narrower(program, rebuilt(program, narrowing), executor)


def narrower(program: Program, out: Program, executor: Executor) -> tuple[Program, Execution] | None:
    """`out` with its execution where it keeps some but not all of the program's answers, or counts fewer."""
    try:
        before, after = executor.execute(program), executor.execute(out)
    except (KGError, ProgramError) as err:
        log.info("narrowing %s: %s", program, err)
        return None
    return (out, after) if 0 < size(after) < size(before) else None


def size(execution: Execution) -> int:
    """How many things it answers with, or counts: "how many grandsons" narrows what it counts."""
    return execution.count if execution.count is not None else len(execution.answers)


def _kind_words(question: str, schema: Schema) -> list[tuple[str, str, int, bool]]:
    """(word, the kind it names, where it stands, whether it reads a question word as the KG's word: "kids" as
    "child") for each noun of the question, in order: "grandfather" names a "father". A word read through its gloss
    (engine.answer.glossed) names one kind per step it walks: a "mother-in-law" a mother (then a spouse, of no kind),
    a "granddaughter" a child that is a granddaughter (then a child of no kind)."""
    out = []
    for part in glossed.read(question, _words(schema)):
        if part.kind is None:
            continue
        word, kind = singular(part.word), singular(part.kind)
        if kind == word and word.startswith(GENERATION_PREFIX):
            kind = word[len(GENERATION_PREFIX):] or word
        out.append((word, kind, part.at, part.word != part.said))
    return out


def _words(schema: Schema) -> glossed.Words:
    """The words that name a relation's end, as `_end_words` reads them, and its labels; and for a noun of a
    relation between members of one class, a word for its subjects ("parent": "child")."""
    owners: dict[str, set[str]] = {}
    other_end, labelled = {}, set()
    for info in schema.relations:
        backs = sorted(singular(w.lower()) for w in one_step(info, subject_words(info)))
        nouns = {singular(w.lower()) for w in (*one_step(info, info.words), info.label, object_noun(info.name))}
        for word in nouns | set(backs):
            owners.setdefault(word, set()).add(info.name)
        labelled |= {singular(info.label.lower()), object_noun(info.name)}
        if backs and set(info.domain) == set(info.range):
            other_end.update({noun: backs[0] for noun in nouns})
    one_class = {info.name for info in schema.relations if set(info.domain) == set(info.range)}
    return glossed.Words.owned(owners.__contains__, other_end.get, labelled.__contains__, owners, one_class,
                               glossed.unions(schema))


def _in_walk_order(kinds: list[tuple[str, str, int, bool]], question: str) -> list[tuple[str, str, bool]]:
    """The kind words from the outermost step in: "the father of the mother of X" writes the outer step first,
    "X's mother's father" last, and "the sons of X's daughter's husband" its "of" first, then its possessives from
    the last (a blind lineage probe had put the daughter's sex on the sons); the steps one word's gloss walks stay
    outermost first ("X's grandmother on his father's side" is the mother of his father)."""
    words = glossed.words_at(question)  # the words `_kind_words` placed its kinds among
    phrase_of = list(accumulate((word == "of" for word in words), initial=0))  # "of"s before each word
    possessive = {phrase for phrase, flag in zip(phrase_of, glossed.possessed(question)) if flag}

    def place(at: int) -> tuple[int, int]:  # outer phrases first; in one with a possessive, its last word first
        return phrase_of[at], -at if phrase_of[at] in possessive else at

    at = sorted({kind[2] for kind in kinds}, key=place)
    return [(word, kind, read) for spot in at for word, kind, word_at, read in kinds if word_at == spot]


def _end_words(node: Node, schema: Schema) -> set[str]:
    """The lexicon's words for what one step answers with: a relation's objects, or walked back its subjects; and
    the relation's own noun where the step answers with what it names ("the siblings of X")."""
    if not isinstance(node, Join):
        return set()
    back = isinstance(node.relation, Reverse)
    rel = node.relation.relation if back else node.relation
    info = schema.relation(rel.name) if isinstance(rel, Relation) else None
    if info is None:
        return set()
    own = {singular(info.label.lower()), object_noun(info.name)} if back or either_end(info) else set()
    return own | {singular(w) for w in one_step(info, info.words if back else subject_words(info))}


def _named_value(step: Join, kind: str, schema: Schema, executor: Executor) -> Node | None:
    """(JOIN g value) for the one value of the step's answers, over one of their relations g, that the gloss of
    the kind ("father" for "grandfather") names; None where none or several are."""
    gloss = gloss_words(kind)
    if not gloss:
        return None
    try:
        members = [a.iri for a in executor.execute(step).answers if a.iri]
        ties = incident(executor, schema, members) if members else None
        found = []
        for name, side in sorted(ties or {}):
            if side != "subject":
                continue
            values = executor.execute(Join(Reverse(Relation(name)), step)).answers[:MAX_VALUES]
            found += [(name, v.label) for v in values if v.iri and v.label.lower() in gloss]
    except (KGError, ProgramError) as err:
        log.info("values of %s: %s", step, err)
        return None
    if len(found) != 1:
        return None
    name, label = found[0]
    return Join(Relation(name), Entity(label))


def rebuilt(node: Node, narrowing: dict[int, Node], first: bool = True) -> Node:
    """The tree with each step in `narrowing` (by identity) ANDed with its value, written first or after the step."""
    children = {f.name: rebuilt(getattr(node, f.name), narrowing, first) for f in fields(node)
                if isinstance(getattr(node, f.name), Node)}
    out = replace(node, **children) if children else node
    value = narrowing.get(id(node))
    return out if value is None else And(value, out) if first else And(out, value)
