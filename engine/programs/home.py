"""When a program's own entity may be among its answers: a walk that comes home among one class of things.

engine/programs/to_sparql.py keeps a program's own entities out of its answers and out of every set it walks on
from (MetaQA's reading of "films by the director of X"); this module says where that rule gives way. The README's
"Programs" section states the rule for users.
"""

from __future__ import annotations

from kg_adapters.schema import Schema

from .sexpr import Join, Node, Relation, Reverse, relation_name


def comes_home(node: Node, schema: Schema) -> bool:
    """Whether a set may hold the program's own entity: its last two hops stay among things of one class, over
    two different relations, or over one relation the KG also names the other way (a mirror: `daughter` beside
    `father`). "Tom 's daughters ' father" is Tom. A walk through another class ("films sharing a director with
    X", "who directed the films X starred in") or straight back over a relation with one name ("X 's neighbours '
    neighbours", the other children of X 's parent) keeps X out, as MetaQA's answers read.

    Measured with the gold programs of every MetaQA dev question (tests/test_metaqa_oracle.py) and the programs
    reasoner v37 chose on the bench.kgs sample of every dev KG: no F1 moved. Letting X answer after any two
    different relations cost MetaQA 2-hop's gold programs 0.8 points (94.09 -> 93.33: an actor who directed his
    own film)."""
    if not (isinstance(node, Join) and isinstance(node.arg, Join)):
        return False
    outer, inner = _within_one_class(node.relation, schema), _within_one_class(node.arg.relation, schema)
    if outer is None or outer != inner:
        return False
    same = relation_name(node.relation) == relation_name(node.arg.relation)
    return not same or any(m.mirror_of == relation_name(node.relation) for m in schema.mirrors)


def _within_one_class(rel: Node, schema: Schema) -> frozenset[str] | None:
    """The one class a relation links members of (its domain is its range), else None."""
    base = rel.relation if isinstance(rel, Reverse) else rel
    info = schema.relation(base.name) if isinstance(base, Relation) else None
    if info is None or not info.domain or set(info.domain) != set(info.range):
        return None
    return frozenset(info.domain)
