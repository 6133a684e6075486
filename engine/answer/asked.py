"""What a question asks for, and whether a reading answers with it: a count, a number, a ranking, a yes or no.

The cues come from `question.py` (English grammar); the nodes that answer them from the program. The ranker
puts the readings that fit every cue first (`rank.py`), the pruner keeps a few of them whatever they read like
(`prune.py`), and a reply whose readings all miss them says what was asked (`what_is_asked`).
"""

from __future__ import annotations


from engine.programs.sexpr import (BOOLEANS, Aggregate, Compare, Count, In, Join, Literal, Not, Or, Superlative,
                                  relations, walk)
from engine.programs.validate import LITERAL_KINDS, QUANTITY_KINDS, TIME_KINDS
from kg_adapters.schema import Schema

from .counted import counted_words
from .question import Question
from .search import ProgramCandidate


def fits_asked(question: Question, cand: ProgramCandidate) -> bool:
    """Whether the candidate answers with what the question asks for: a count; else the asked class and a
    ranking, each where the question asks for one (False where it asks for neither)."""
    if isinstance(cand.program, Count):
        if not (question.asks_count and counts_the_named_class(question, cand) and not counts_amounts(question, cand)):
            return False
        return counts_named(question) or counts_unnamed(question, cand)
    if question.asks_count and one_amount(cand):
        if counts_named(question) or measures(question, cand):
            return not counts_another(question, cand)
        # what the KG holds a number of but does not list ("how many beds does X have": its `capacity`), but no
        # fraction: a restaurant's rating 4.6 had answered "how many dishes does X have on the menu"
        return not question.measured and cand.types <= {"integer"}
    if question.asks_count and counts_named(question):
        return False  # "how many <noun> have fewer than ..." is answered by a count, not by the things
    found = list(walk(cand.program))
    nodes = {type(node) for node in found}
    if any(map(_denial, found)):  # "which doctors are not on call?": (JOIN on_call false)
        nodes.add(Not)
    if question.asks_yes_no and In not in nodes:  # a yes/no question: IN only, whatever else it asks
        return False
    cues = [node in nodes for cue, node in _CUE_NODES if getattr(question, cue)]
    if question.asked_types and not question.asks_yes_no:
        # within the asked classes, not merely overlapping them: "which cities have over 15 million
        # inhabitants" is (AND City (gt population ...)), not the cities and countries of (gt population ...)
        cues.append(bool(cand.types and cand.types <= question.asked_types))
        if question.asks_superlative and question.asked_types - LITERAL_KINDS and not question.ranks_another:
            # "which country has the most neighbours" ranks the things it asks for: the ranking is the answer,
            # not a walk from it ((JOIN (R neighbour) (ARGMAX Country (COUNT neighbour))) answers with countries
            # too). Every ranking among the 79 of geography-demo and tests/fixtures/ops_questions is outermost.
            cues.append(isinstance(cand.program, Superlative))
    elif question.asks_superlative and not (question.asks_yes_no or question.ranks_another or question.ranks_in_phrase):
        # nothing the KG names is asked for ("which airline has the biggest fleet" of a KG whose airlines are its
        # `operator`s), yet the ranking still answers: no walk on from it, as (JOIN (R alliance) (ARGMAX ...)) was
        cues.append(isinstance(cand.program, Superlative))
    return bool(cues) and all(cues)


def _denial(node) -> bool:
    """A yes/no relation's "no" ((JOIN active false)), which says a negation itself: the candidates build it only
    where the question denies that relation's word (`candidates._value`), so it answers an exclusion as NOT does.
    A made-up hospital KG's "which doctors are not on call?" passed over (JOIN on_call false) for a NOT of another
    relation."""
    value = node.arg if isinstance(node, Join) else None
    return isinstance(value, Literal) and value.kind == "boolean" and value.value == BOOLEANS[1]


def counts_named(question: Question) -> bool:
    """Whether what "how many" counts is something the KG names, a class ("how many japanese cities") or a
    relation ("how many neighbours"). "How many people live in Canada" names neither: it asks for an amount the
    KG holds (Canada's population), not for a count of Canada's cities."""
    counted = counted_words(question.text)
    if counted is None:
        return True
    named = {w for words in question.class_words.values() for w in words}
    named |= {w for spelling in question.named_relations.values() for w in spelling.words}
    return bool(counted & named)


def counts_unnamed(question: Question, cand: ProgramCandidate) -> bool:
    """Whether a COUNT may answer "how many" of something the KG neither names nor measures ("how many dishes
    does X have on the menu"): where it counts more than one thing, and things, not values. Counting what X has one
    of (its city, or the clubs whose ground it is) answers 1 to any "how many" over it, and "how many fans can X
    hold" is its `capacity`, which `fits_asked` lets answer as a whole number; a count of populations answers no
    "how many"."""
    things = not (cand.counted and cand.counted <= LITERAL_KINDS)
    return not question.measured and things and (cand.execution is None or cand.size > 1)


def measures(question: Question, cand: ProgramCandidate) -> bool:
    """Whether the candidate reads a number that measures what "how many" counts, where the KG names no such
    thing: "how many people live in X" is X's `population`, but "how many dishes does X serve" no `rating` of X.
    Where nothing measures it (`Question.measured`), the count answers: a made-up recipes KG had answered "how many
    dishes" with a restaurant's rating, a zoo's "how many cubs has X had" with X's weight."""
    return any(r.name in question.measured for r in relations(cand.program))


def counts_another(question: Question, cand: ProgramCandidate) -> bool:
    """Whether "how many" names what it counts, a class or a relation, that a number the KG holds is not:
    "how many people live in Canada" asks for Canada's population (its words name no class, or the population
    itself), but X's area is no count of the states next to X, and a planet's mass no count of its moons (made-up
    US-geography and science KGs had answered so)."""
    counted = counted_words(question.text)
    if not counted:
        return False
    if any(counted & words for words in question.class_words.values()):
        return True
    own = {r.name for r in relations(cand.program)}
    return any(counted & spelling.words for name, spelling in question.named_relations.items() if name not in own)


def counts_the_named_class(question: Question, cand: ProgramCandidate) -> bool:
    """Whether a COUNT counts only the class "how many" names, where it names one: "how many people are in X"
    counts X's people, not the places X is in, and "how many <noun> have fewer than ..." the <noun> among the
    things that do."""
    named = counted_classes(question)
    if not named or cand.counted is None:
        return True
    return bool(cand.counted) and cand.counted <= named


def counted_classes(question: Question) -> frozenset[str]:
    """The classes the words after "how many" name ("how many japanese cities": city); empty where it names none."""
    counted = counted_words(question.text)
    if counted is None:
        return frozenset()
    return frozenset(name for name, words in question.class_words.items() if counted & words)


def counts_amounts(question: Question, cand: ProgramCandidate) -> bool:
    """Whether a COUNT counts numbers where the question asks for a total or an average: "how many calories did X
    eat in total?" adds up the calories of X's meals; counting their different values answers nothing asked.
    ("how many meals were there in total?" counts meals, which are no numbers.)"""
    return bool(question.aggregate and cand.counted and cand.counted <= QUANTITY_KINDS)


def one_amount(cand: ProgramCandidate) -> bool:
    """Whether the candidate answers with one number (or, not executed yet, with numbers): "how many people
    live in Canada" asks for Canada's population, which the KG holds, not for a count of anything."""
    return bool(cand.types) and cand.types <= QUANTITY_KINDS and (cand.execution is None or cand.size == 1)


def asks_operator(question: Question) -> bool:
    """Whether the question has a cue for an operator beyond JOIN and AND (a count, a ranking, a negation ...)."""
    return question.asks_count or any(getattr(question, cue) for cue, _ in _CUE_NODES)


def what_is_asked(question: Question, schema: Schema) -> str:
    """The cues of `fits_asked` in words, for a reply whose readings all miss them ("" where none)."""
    parts = [words for cue, words in _CUE_WORDS if getattr(question, cue)]
    kinds = {schema.class_(name).kind if schema.class_(name) else "entity" for name in question.asked_types}
    labels = sorted(schema.class_(n).label for n in question.asked_types
                    if schema.class_(n) and not schema.class_(n).is_literal)
    if kinds & QUANTITY_KINDS:
        parts.append("a number")
    if kinds & TIME_KINDS:
        parts.append("a date or year")
    if labels:
        parts.append(" or ".join(labels[:3]))
    return ", ".join(parts)


_CUE_WORDS = (("asks_count", "a count"), ("asks_yes_no", "a yes or no"), ("asks_superlative", "a ranking"),
              ("asks_negation", "an exclusion"), ("aggregate", "a total or an average"),
              ("compared", "a comparison"), ("choice", "a choice between the names"))


# A question's cue, and the node a program needs to answer it.
_CUE_NODES = (("asks_superlative", Superlative), ("asks_negation", Not), ("asks_yes_no", In),
              ("aggregate", Aggregate), ("compared", Compare), ("choice", Or))
