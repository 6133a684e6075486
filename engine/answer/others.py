"""The others that share: "the brothers of X's husband" are the children of his parents, less himself.

A gloss reads "brother" as "a male with the same parents" (engine.answer.glossed, `Question.shared`): up to the
parents and back down to their children, who include the one the walk starts from. From a name that is no answer
(a program's own entities never are: engine.programs.to_sparql), but from a set walked to first it is: "the
brothers of Queen Cecily's husband" answered the husband too, and "Gisela's uncle", a brother of a parent, the
father with his brothers (a blind lineage probe, 0.67 each). So a walk back over the relation the gloss says is
shared leaves out the set it started from: (AND <walk> (NOT <start>)).

Applied to the re-rank's winner, as `narrow` is, so the search and its scores stay as they are; taken only where it
keeps some but not all of the answers.
"""

from __future__ import annotations

from engine.programs.executor import Execution, Executor
from engine.programs.sexpr import Entity, Join, Literal, Node, Not, Program, Reverse, relation_name, walk

from .narrow import narrower, rebuilt
from .question import Question


def others(program: Program, question: Question, executor: Executor) -> tuple[Program, Execution] | None:
    """The program with each walk back over a shared relation from a set leaving that set out, and its execution;
    None where there is none, or leaving it out keeps all of the answers or none."""
    if not question.shared:
        return None
    apart = {id(node): Not(node.arg.arg) for node in walk(program) if _shared_walk_back(node, question)}
    if not apart:
        return None
    return narrower(program, rebuilt(program, apart, first=False), executor)


def _shared_walk_back(node: Node, question: Question) -> bool:
    """(JOIN r (JOIN (R r) S)) or (JOIN (R r) (JOIN r S)), first toward the end of r a shared word names ("parent":
    `parent`'s objects), from a set S that is no name or value."""
    if not (isinstance(node, Join) and isinstance(node.arg, Join) and not isinstance(node.arg.arg, (Entity, Literal))):
        return False
    name, up = relation_name(node.arg.relation), isinstance(node.arg.relation, Reverse)
    spelling = question.named_relations.get(name)
    if spelling is None or relation_name(node.relation) != name or isinstance(node.relation, Reverse) == up:
        return False
    return bool(question.shared & (spelling.by_noun if up else spelling.by_back_noun))
