"""Walks that come back: a program that goes out over a relation and back over it again.

A question that passes through something walks out and back on purpose: "films by the director of X" is
(JOIN directed_by (JOIN (R directed_by) X)). But the 0.5B scorer likes such detours where nobody asked for
them: a one-hop question read as the things that share the topic's answer (the last step walks back), or a
two-hop question lengthened by a round trip in the middle ("who coaches the teams Mia plays for?" read as the
players of the teams coached by the coaches of Mia's teams). The re-rank (`rank.py`) charges each kind
here; a question with a word of sharing ("same", "also", "co-wrote": `Question.asks_same`) pays for neither.

A walk out over one relation and back over its inverse (`RelationInfo.inverse_of`: `child` beside `father`) comes
back too: (JOIN (R child) (JOIN (R father) X)), X's father's children, is a walk back unless the question names each
of the two by a word of its own (`partners`): "the children of X's father" walks so on purpose.
"""

from __future__ import annotations

from collections import Counter
from typing import Mapping

from engine.programs.sexpr import And, Join, Program, Reverse, relation_name, walk

from .named import Spelling, walks

# relation name -> the relations that hold its pairs reversed, as walks back count them (`partners`)
Inverse = Mapping[str, tuple[str, ...]]


def partners(inverse_of: Inverse, named: Mapping[str, Spelling]) -> Inverse:
    """The inverse pairs a walk back counts for one question: all but those whose two relations its words name
    each by a word of its own ("the children of X's father"; "X's sons" names `child` and `father` by one word)."""
    def both(a: str, b: str) -> bool:
        return a in named and b in named and bool(named[a].words - named[b].words and named[b].words - named[a].words)

    return {name: kept for name, others in inverse_of.items() if (kept := tuple(o for o in others if not both(name, o)))}


# A last step that walks straight back where the question asks for no sharing (`walks_back`: a one-hop question
# read as the things that share the topic's answer) costs WALK_BACK_WEIGHT in the final score on top of its repeat:
# at log(0.7) alone such a reading had won by 0.02 (university, a readable corpus). Replayed on the recorded
# finalists of 2,566 bench.kgs rows (python -m bench.replay, BENCHMARKS.md "Replayed: ..."), 0.1-0.5 made no F1 fall
# anywhere: the default corpora at seed 0 (all six dev KGs, v40's figures) did not move at all; at seed 1 worldcup
# check went 97.4 -> 98.4 (0.2); readable corpora PQL check +0.5, PQL-3H +1.0.
WALK_BACK_WEIGHT = 0.2


def repeats(program: Program, walk_back: bool = True, named: Mapping[str, Spelling] | None = None,
            inverse: Inverse | None = None, mutual: frozenset[str] = frozenset()) -> int:
    """What the repeat penalty counts: the most uses of one relation in one direction, minus one, plus one
    when the program's last step walks straight back over the relation it came by (unless `walk_back` is off,
    for questions that ask for things sharing something with the topic: `Question.asks_same`).

    The paper counts repeated relation names. But a question that passes through a person goes out and back
    over one relation ("films by the director of X": (JOIN directed_by (JOIN (R directed_by) X))), and
    counting names held back exactly those programs: MetaQA 3-hop F1 44.4 on the benchmark. A last step that
    walks back lands on X's own kind ("films sharing an actor with X"), a reading the small scorer likes too
    much for one-hop questions, so that one still counts. Replayed on the recorded finalists of 24 MetaQA dev
    questions per hop disjoint from the benchmark, F1 for 1/2/3 hops: names 85.0/86.2/67.2; one direction
    alone 74.2/90.4/82.4; this 85.0/86.2/82.4.

    But "who co-wrote films with X" asks for exactly that walk back, (JOIN (R written_by) (JOIN written_by X)),
    and the term sent such questions to X's actors instead. Replayed on the finalists of 24 dev questions per hop
    disjoint from the benchmark, all with inverse scores (reasoner v9, seeds 3 and 4), F1 for 1/2/3 hops: the
    walk back always counted 93.9/67.6/74.2 and 93.3/75.8/79.3; never 93.9/73.9/58.4 and 85.0/79.1/70.9; not
    after a "same" word 93.9/73.9/74.2 and 93.3/79.1/79.3.

    A relation the question itself writes twice (`named`: "X 's award_nominations 's award_nominations", "X's
    mother's father") is asked to be walked twice: only uses beyond the steps the question writes count, each way
    (`Spelling.written`: "X's sister", a child of a parent, walks `parent` once up and once down). A relation whose
    words name either end (`mutual`: `spouse`, engine.answer.ends.either_end) has no direction to count by: "the
    husbands of Aveline's husband's sisters" writes `spouse` twice, and a reading that walked it three times (on from
    the sisters' husbands to their wives, the sisters again) counted two steps one way and one the other, unpaid (a
    blind lineage probe with a corpus).

    A direction is the walk's, not the spelling's (`named.walks`): a superlative's path `(JOIN r1 r2)` goes from
    each member toward r1's objects, as (JOIN (R r1) S) does, so "the capital of the state with the largest
    population" read as (JOIN (R capital) (ARGMAX State (JOIN capital population))) walks `capital` twice one
    way (a made-up US-geography KG; before, the path's plain `capital` was counted as the other way).
    """
    uses = Counter((name, ahead or name in mutual) for name, ahead in walks(program, values_read=False))
    named = named or {}
    extra = max([0, *(n - (_written(named[name], name in mutual, ahead) if name in named else 1)
                      for (name, ahead), n in uses.items())])
    return extra + (walk_back and walks_back(program, inverse))


def _written(spelling: Spelling, mutual: bool, ahead: bool) -> int:
    return max(spelling.written(True), spelling.written(False)) if mutual else spelling.written(ahead)


# What each step of `shortfall` costs in the final score: as much as an extra repeat (-log 0.7). Replayed on the
# finalists of the v99 bench.kgs rows (all 879 sampled dev questions; a one-off script, BENCHMARKS.md "Session 61"):
# from 0.18 to 0.54 no dev F1 moved (28 questions have a chain of kin nouns); on four blind family probe runs (lineage,
# royals; zero-shot and with a budget-150 corpus) 0.36 against 0.18 took royals with a corpus 56.6 -> 58.1, the rest the
# same. Before a verb was left out of chains ("a player who plays": one step), 0.36 cost WorldCup a check question.
SHORTFALL_WEIGHT = 0.36


def shortfall(program: Program, named: Mapping[str, Spelling]) -> int:
    """The steps the question writes of a relation the program walks that it does not walk, `repeats`' other side: the
    most, over the program's named relations, of the steps a chain of the question's nouns writes of one (`_chained`)
    less the program's steps over it and over the other relations those words spell. "How many grandsons did X have?"
    writes `parent` twice (a gloss: a son of a son or daughter), and (COUNT (JOIN parent X)), X's sons, walks it once;
    "X's grandchildren" walked (JOIN mother (JOIN father X)) spell `father` and `mother` by one word, two steps of
    them."""
    uses = Counter(name for name, _ in walks(program, values_read=False))
    return max([0, *(_chained(named[name]) - sum(n for other, n in uses.items() if other in named
                                                 and named[other].words & named[name].words)
                     for name in uses if name in named)])


def writes_chain(named: Mapping[str, Spelling]) -> bool:
    """Whether the question's nouns write some relation as a chain of steps (`_chained`): a gloss ("grandson"), a
    word of "grand", kin nouns in a row."""
    return any(_chained(spelling) > 1 for spelling in named.values())


def walks_chains(program: Program, named: Mapping[str, Spelling]) -> bool:
    """Whether the program walks each chain the question writes as many steps as it writes, over that relation and
    the others its words spell, each step the way their words spell it ("grandchildren" walks toward the subjects of
    `parent` twice; X's children's parents are no chain). `shortfall` counts only the relations a program walks, so a
    count over another relation falls short of nothing."""
    uses = Counter(walks(program, values_read=False))

    def walked(spelling: Spelling) -> int:
        return sum(n for (name, ahead), n in uses.items() if name in named and named[name].words & spelling.words
                   and (named[name].by_verb or (named[name].by_noun if ahead else named[name].by_back_noun)))

    return all(walked(spelling) >= _chained(spelling) for spelling in named.values() if _chained(spelling) > 1)


def _chained(spelling: Spelling) -> int:
    """The steps a relation's nouns write as a chain, a gloss or kin nouns in a row ("grandson": two, "mother's father":
    two); one where they are only one word written again ("the tracks of tracks of X's tracks", PathQuestion's names of
    three relations that share a word) or where a verb spells it too ("a player who plays for X": one step)."""
    return spelling.steps if spelling.steps > spelling.times and not spelling.by_verb else 1


def walks_back(program: Program, inverse: Inverse | None = None) -> bool:
    """(JOIN r (JOIN (R r) X)) or (JOIN (R r) (JOIN r X)): the last step undoes the one before it, also where that
    one is narrowed first: (JOIN plays_in_club (AND (JOIN (R plays_in_club) X) Y)), the players of the clubs of
    X's players that are in Y, read "a Forward from Spain" as the forwards' clubs in Spain, walked back. Each side
    of an AND ends a reading too: (AND (JOIN r X) (JOIN s (JOIN (R s) Y))), the members of X whose s is that of
    some member of Y, had won unpenalised over (AND (JOIN r X) (JOIN s Y)) (BENCHMARKS.md, reasoner v31)."""
    return any(isinstance(step, Join) and _undoes(step, inverse or {}) for step in _last_steps(program))


def from_the_shared_end(program: Program, shared: frozenset[str], named: Mapping[str, Spelling]) -> bool:
    """Whether the last step walks back over a relation whose noun a gloss says is shared (`Question.shared`), having
    walked first toward its subjects: a brother shares his parents, (JOIN parent (JOIN (R parent) X)); (JOIN (R parent)
    (JOIN parent X)) shares X's children (a blind royal probe's "Lady Vivienne's brother": her husband)."""
    for step in _last_steps(program):
        if not (isinstance(step, Join) and _undoes(step, {})):
            continue
        name = relation_name(step.relation)
        inner = [step.arg.left, step.arg.right] if isinstance(step.arg, And) else [step.arg]
        toward_subjects = any(isinstance(s, Join) and relation_name(s.relation) == name
                              and not isinstance(s.relation, Reverse) for s in inner)
        if toward_subjects and name in named and shared & named[name].by_noun:
            return True
    return False


# A walk back below the last step that the question does not spell twice (`detours`) costs DETOUR_WEIGHT in the
# final score. Replayed on the finalists of v50's rows (seed-0 corpora, every dev KG, and university's seed-1 and
# readable corpora; a one-off script, BENCHMARKS.md "Reasoner v51"): 0.1 moved nothing; 0.2-0.35 took PQL and
# PQL-3H tune up a question each and university's seed-1 tune 94.4 -> 100.0, no check F1 falling once compounds
# spell their head (without, MetaQA check fell 88.7 -> 88.0: a compound named the walked-back relation); 0.5
# cost MetaQA 0.3 tune and 1.1 check. The v51 run (`python -m bench.kgs --fresh`) agreed: no check F1 fell.
DETOUR_WEIGHT = 0.2


def detours(program: Program, named: Mapping[str, Spelling] | None = None, inverse: Inverse | None = None) -> int:
    """The walks back below the last step (that one is `walks_back`'s) over a relation the question names by
    fewer than two words: "the works written by the writer of X" spells `written_by` twice, "who coaches the teams Mia
    plays for?" spells `coaches` once, so the teams coached by the coaches of Mia's teams are a detour."""
    last = {id(node) for node in _last_steps(program)}
    spelt = {name: len(spelling.words) for name, spelling in (named or {}).items()}
    return sum(1 for node in walk(program) if isinstance(node, Join) and id(node) not in last
               and _undoes(node, inverse or {}) and spelt.get(relation_name(node.relation), 0) < 2)


def _last_steps(program: Program) -> list[Program]:
    """The steps `walks_back` looks at: the program's own, or each side's of an AND."""
    if isinstance(program, And):
        return _last_steps(program.left) + _last_steps(program.right)
    return [program]


def _undoes(step: Join, inverse: Inverse) -> bool:
    """Whether the step walks back over the relation of a step just under it (through an AND too): the same
    relation the other way, or its inverse the same way."""
    inner = [step.arg.left, step.arg.right] if isinstance(step.arg, And) else [step.arg]
    name, ahead = relation_name(step.relation), isinstance(step.relation, Reverse)
    return any(isinstance(s, Join) and (
        relation_name(s.relation) == name and isinstance(s.relation, Reverse) != ahead
        or relation_name(s.relation) in inverse.get(name, ()) and isinstance(s.relation, Reverse) == ahead)
        for s in inner)
