"""A program's walk as a typed graph, for the picture under an answer (drawn in ui/picture.py).

A reply's s-expression says which entity and which relation were used, but only to experts; a drawing of the
walk says it to everyone: the linked entities, each relation followed (its arrow in the KG's own direction),
the sets it passes through with their first members, and COUNT, ARGMAX, comparisons, AND, OR, NOT, IN, SUM and
AVG as labelled steps. It is built from the program and its execution alone (no LLM call): for a walk of one or
two relations the sets it passes through are executed too (from the execution cache after the first time), so
the picture shows the real intermediate entities.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from kg_adapters.schema import Schema

from .executor import Execution
from .sexpr import (
    Aggregate,
    And,
    Chain,
    Class,
    Compare,
    Count,
    Degree,
    Entity,
    In,
    Join,
    Literal,
    Node,
    Not,
    Or,
    Relation,
    Reverse,
    Superlative,
    relations,
    to_text,
)

SHOWN = 3  # members named in a set's box; the rest are "+N more"
MAX_INTERMEDIATE_HOPS = 2  # walks this short have their intermediate sets executed
_COMPARE = {"lt": "<", "le": "≤", "gt": ">", "ge": "≥"}


@dataclass(frozen=True)
class WalkNode:
    id: str
    kind: str  # "entity" | "value" | "class" | "set" | "step" | "answers"
    label: str
    members: tuple[str, ...] = ()  # a set's first members
    more: int = 0  # members not named


@dataclass(frozen=True)
class WalkEdge:
    source: str  # edges point the way the KG's triple does: subject -> object
    target: str
    label: str = ""  # the relation followed; "" for a step's input
    against: bool = False  # the walk goes target -> source (it asked for a relation's subjects)


@dataclass(frozen=True)
class Walk:
    nodes: tuple[WalkNode, ...]
    edges: tuple[WalkEdge, ...]
    answers: str  # id of the node that holds the answers


def program_walk(node: Node, schema: Schema, execution: Execution,
                 execute: Callable[[str], Execution] | None = None) -> Walk:
    """The walk of `node`, whose answers are `execution`'s; `execute` runs its intermediate sets (none: they
    are drawn without members)."""
    hops = len(relations(node))
    builder = _Builder(schema, execute if hops <= MAX_INTERMEDIATE_HOPS else None)
    top = builder.add(node, outermost=True)
    if builder.nodes[top].kind in ("set", "answers"):
        answers = top
    else:  # a step (COUNT, ARGMAX, ...) or a lone entity: its answers in a box of their own
        answers = builder.node("answers", "answers")
        builder.edge(top, answers)
    builder.fill(answers, execution, kind="answers")
    return Walk(tuple(builder.nodes.values()), tuple(builder.edges), answers)


class _Builder:
    """One rule per node class (`_RULES`); each returns the id of the graph node that holds its set."""

    def __init__(self, schema: Schema, execute: Callable[[str], Execution] | None):
        self.schema, self.execute = schema, execute
        self.nodes: dict[str, WalkNode] = {}
        self.edges: list[WalkEdge] = []

    def add(self, node: Node, outermost: bool = False) -> str:
        rule = _RULES.get(type(node))
        if rule is None:
            return self.node("step", type(node).__name__.upper())
        at = rule(self, node)
        if not outermost and isinstance(node, (Join, And, Or, Superlative, Compare)):
            self._members(at, node)
        return at

    # ------------------------------------------------------------ graph
    def node(self, kind: str, label: str) -> str:
        key = f"n{len(self.nodes)}"
        self.nodes[key] = WalkNode(key, kind, label)
        return key

    def edge(self, source: str, target: str, label: str = "", against: bool = False) -> None:
        self.edges.append(WalkEdge(source, target, label, against))

    def fill(self, key: str, execution: Execution, kind: str | None = None) -> None:
        """Put an execution's first members into a node's box."""
        if execution.count is not None:
            members, more = (f"{execution.count:,}",), 0
        else:
            members = tuple(a.label for a in execution.answers[:SHOWN])
            more = max(0, len(execution.answers) - SHOWN)
        old = self.nodes[key]
        self.nodes[key] = WalkNode(key, kind or old.kind, old.label, members, more)

    def _members(self, key: str, node: Node) -> None:
        if self.execute is None:
            return
        try:
            self.fill(key, self.execute(to_text(node)))
        except Exception:  # noqa: BLE001 - a set that will not run alone is drawn without its members
            return

    # ------------------------------------------------------------ rules
    def _entity(self, node: Entity) -> str:
        return self.node("entity", node.ref)

    def _literal(self, node: Literal) -> str:
        return self.node("value", node.value)

    def _class(self, node: Class) -> str:
        info = self.schema.class_(node.name)
        return self.node("class", f"every {info.label if info else node.name}")

    def _join(self, node: Join) -> str:
        start = self.add(node.arg)
        reached = self.node("set", self._reached(node))
        rel = node.relation
        if isinstance(rel, Reverse):  # objects of r: start -> r -> reached
            self.edge(start, reached, self.relation_label(rel.relation))
        elif isinstance(rel, Chain):
            self.edge(reached, start, self.path_label(rel), against=True)
        else:  # subjects of r: reached -> r -> start, walked from start
            self.edge(reached, start, self.relation_label(rel), against=True)
        return reached

    def _reached(self, node: Join) -> str:
        """What the set a join reaches holds: the relation's range or domain class, or "things"."""
        rel = node.relation
        if isinstance(rel, Reverse):
            info = self.schema.relation(rel.relation.name)
            names = info.range if info else ()
        else:
            first = rel.first if isinstance(rel, Chain) else rel
            info = self.schema.relation(first.name) if isinstance(first, Relation) else None
            names = info.domain if info else ()
        cls = self.schema.class_(names[0]) if len(names) == 1 else None
        return cls.label if cls else "things"

    def _step(self, label: str, *inputs: Node) -> str:
        step = self.node("step", label)
        for child in inputs:
            self.edge(self.add(child), step)
        return step

    def _and(self, node: And) -> str:
        return self._step("AND: in both", node.left, node.right)

    def _or(self, node: Or) -> str:
        return self._step("OR: in either", node.left, node.right)

    def _not(self, node: Not) -> str:
        return self._step("NOT", node.arg)

    def _count(self, node: Count) -> str:
        return self._step("COUNT", node.arg)

    def _superlative(self, node: Superlative) -> str:
        which = "most" if node.op == "ARGMAX" else "fewest"
        if isinstance(node.path, Degree):
            measure = f"{which} {self.path_label(node.path.relation)}"
            step = self._step(f"{node.op}: {measure}", node.arg)
            if node.path.arg is not None:
                self.edge(self.add(node.path.arg), step)
            return step
        which = "largest" if node.op == "ARGMAX" else "smallest"
        return self._step(f"{node.op}: {which} {self.path_label(node.path)}", node.arg)

    def _compare(self, node: Compare) -> str:
        value = node.value.ref if isinstance(node.value, Entity) else node.value.value
        step = self.node("step", f"{self.path_label(node.relation)} {_COMPARE[node.op]} {value}")
        if isinstance(node.value, Entity):
            self.edge(self.add(node.value), step)
        if isinstance(node.relation, Degree) and node.relation.arg is not None:
            self.edge(self.add(node.relation.arg), step)
        return step

    def _in(self, node: In) -> str:
        return self._step("IN: is it a member?", node.member, node.arg)

    def _aggregate(self, node: Aggregate) -> str:
        what = "total" if node.op == "SUM" else "average"
        return self._step(f"{node.op}: {what} {self.path_label(node.path)}", node.arg)

    # ------------------------------------------------------------ labels
    def relation_label(self, rel: Relation) -> str:
        info = self.schema.relation(rel.name)
        return info.label if info and info.label else rel.name

    def path_label(self, path: Node) -> str:
        if isinstance(path, Chain):
            return f"{self.path_label(path.first)} → {self.path_label(path.second)}"
        if isinstance(path, Reverse):
            return self.relation_label(path.relation)
        if isinstance(path, Relation):
            return self.relation_label(path)
        if isinstance(path, Degree):
            return f"number of {self.path_label(path.relation)}"
        return type(path).__name__


_RULES: dict[type, Callable[[_Builder, Node], str]] = {
    Entity: _Builder._entity,
    Literal: _Builder._literal,
    Class: _Builder._class,
    Join: _Builder._join,
    And: _Builder._and,
    Or: _Builder._or,
    Not: _Builder._not,
    Count: _Builder._count,
    Superlative: _Builder._superlative,
    Compare: _Builder._compare,
    In: _Builder._in,
    Aggregate: _Builder._aggregate,
}


def walk_nodes(walk: Walk, kind: str) -> Sequence[WalkNode]:
    """The nodes of one kind, in order (for tests and captions)."""
    return [n for n in walk.nodes if n.kind == kind]
