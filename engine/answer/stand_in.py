"""A walk that stands in for a name the question gives: a reading that reaches, from one of the question's
names, something of the class of another name it leaves unused.

"Who are the England players at club Everton?" names a country and a club. Read as "the players whose country
is the country of Everton", the program walks from the club to *a* country and never uses the one named; it
answers another question, yet its one-name reading scores as well as the right one with a 0.5B scorer
(STAND_IN_WEIGHT makes it pay). Only the sets a walk passes through count, not what the program answers
with: "which country is Everton in" may well be asked in a question that names another country.

Each side of an AND is held to the same rule with the names it uses itself: "the players whose country is
Everton's and whose club is in England" uses both names, each through a stand-in for the other.
"""

from __future__ import annotations

from engine.programs.sexpr import And, Entity, Join, Literal, Program, ProgramError, entities, walk
from engine.programs.validate import validate
from kg_adapters.schema import Schema

from .question import Anchor, Question

# What a finalist that walks through a stand-in pays in the final re-rank (engine.answer.rank). Replayed on 2,566
# bench.kgs rows (python -m bench.replay ROWS --walk-back 0.2 --stand-in 0 0.1 0.2 0.3 0.5 1.0; BENCHMARKS.md
# "Replayed: ..."): finalists that stand in come up only on WorldCup and geography-demo; no F1 fell at any weight
# and the default corpora did not move; readable corpora on WorldCup went 97.7 -> 98.4 check at seed 0 (from 0.3)
# and 95.8 -> 97.7 at seed 1 (v42, 0.5). Held to each side of an AND too (v46), replayed on six row sets (default
# and readable corpora, seeds 0 and 1; BENCHMARKS.md "Reasoner v46 ..."): WorldCup check 97.7-98.4 -> 100.0 on
# all six from 0.75 to 1.5, no F1 of any KG fell; 1.0 is inside that.
STAND_IN_WEIGHT = 1.0


def unused_classes(question: Question, program: Program) -> frozenset[str]:
    """The classes of the entities linked to each question mention that the program uses none of."""
    used = {e.ref for e in entities(program)}
    by_mention: dict[int, list[Anchor]] = {}
    for anchor in question.anchors:
        if isinstance(anchor.node, Entity):
            by_mention.setdefault(anchor.mention, []).append(anchor)
    return frozenset(c for anchors in by_mention.values() if not any(a.node.ref in used for a in anchors)
                     for a in anchors for c in a.candidate.classes)


def stands_in(question: Question, program: Program, schema: Schema) -> bool:
    """Whether the program, or a side of one of its ANDs, walks through a set (a JOIN's argument) that holds the
    class of a name the question gives and that part leaves unused."""
    parts = [program, *(side for node in walk(program) if isinstance(node, And) for side in (node.left, node.right))]
    return any(_walks_through_unused(question, part, schema) for part in parts)


def _walks_through_unused(question: Question, program: Program, schema: Schema) -> bool:
    unused = unused_classes(question, program)
    if not unused:
        return False
    for node in walk(program):
        if isinstance(node, Join) and not isinstance(node.arg, (Entity, Literal)):
            try:
                types = validate(node.arg, schema)
            except ProgramError:
                continue
            if types and types & unused:
                return True
    return False
