"""Check a program against a schema before it reaches a store.

Names must exist and stand in the right place (a relation where a relation
belongs), superlatives and comparatives need numeric or date values, SUM and AVG
numbers, and joins must fit the relation's domain and range where the schema knows
them. COUNT, IN, SUM and AVG answer with a number or yes/no, so they stand only
outermost; NOT stands only as an operand of AND, which needs a set to take from.
Each problem is a ProgramError that points at the offending token.

The rules live in two tables keyed by node class, like the compiler's:
`_SET_TYPES` (what a set may hold) and `_OUTERMOST` (the programs that are not sets).
"""

from __future__ import annotations

from typing import Callable

from kg_adapters.schema import ClassInfo, RelationInfo, Schema

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
    Program,
    ProgramError,
    Relation,
    Reverse,
    Superlative,
)

NUMERIC_KINDS = frozenset({"year", "integer", "decimal", "date"})  # what superlatives and comparatives order
SUMMABLE_KINDS = frozenset({"year", "integer", "decimal"})  # what SUM and AVG add up: no dates
QUANTITY_KINDS = frozenset({"integer", "decimal"})  # what answers "how many" and "how much"
TIME_KINDS = frozenset({"year", "date"})  # what answers "when" and what "oldest" or "most recent" ranks by
LITERAL_KINDS = NUMERIC_KINDS | {"text"}  # every kind of literal class (kg_adapters.schema names them by kind)
Types = frozenset[str] | None  # class names a set may hold; None when unknown


def validate(program: Program, schema: Schema) -> Types:
    """The classes the program's answers belong to (None when unknown, or not a set: IN, SUM, AVG);
    raises ProgramError on the first problem."""
    outermost = _OUTERMOST.get(type(program))
    return outermost(program, schema) if outermost else _set_types(program, schema)


def relation_info(rel: Relation, schema: Schema) -> RelationInfo:
    info = schema.relation(rel.name)
    if info is not None:
        return info
    if schema.class_(rel.name) is not None:
        raise ProgramError(f"{rel.name!r} is a class; a relation belongs here", rel.pos)
    raise ProgramError(f"unknown relation {rel.name!r}", rel.pos)


def class_info(node: Class, schema: Schema) -> ClassInfo:
    info = schema.class_(node.name)
    if info is not None:
        return info
    if schema.relation(node.name) is not None:
        raise ProgramError(f"{node.name!r} is a relation; a class or entity belongs here", node.pos)
    raise ProgramError(f"unknown class {node.name!r}", node.pos)


def _ends(rel: Node, schema: Schema) -> tuple[Types, Types]:
    """(types at the start, types at the end) of a relation expression."""
    if isinstance(rel, Relation):
        info = relation_info(rel, schema)
        return _known(info.domain), _known(info.range)
    if isinstance(rel, Reverse):
        start, end = _ends(rel.relation, schema)
        return end, start
    if isinstance(rel, Chain):
        start, middle = _ends(rel.first, schema)
        middle2, end = _ends(rel.second, schema)
        _require_overlap(schema, middle, middle2, rel.second)
        return start, end
    if isinstance(rel, Degree):
        raise ProgramError("(COUNT r) measures the members of ARGMAX/ARGMIN; a relation belongs here", rel.pos)
    raise ProgramError("expected a relation", rel.pos)


def _set_types(node: Node, schema: Schema) -> Types:
    rule = _SET_TYPES.get(type(node))
    if rule is None:
        if type(node) in _OUTERMOST:
            raise ProgramError(f"{_name(node)} may only be the outermost operator", node.pos)
        raise ProgramError(f"{type(node).__name__} cannot stand here", node.pos)
    return rule(node, schema)


# ------------------------------------------------------------------ sets
def _class(node: Class, schema: Schema) -> Types:
    """A class listed on its own: only a class of entities (a class of values can only narrow a set, in AND)."""
    info = class_info(node, schema)
    if info.is_literal:
        raise ProgramError(f"{node.name!r} is a class of values; it can only narrow another set, "
                           f"as in (AND {node.name} ...)", node.pos)
    return frozenset({info.name})


def _join(node: Join, schema: Schema) -> Types:
    if isinstance(node.relation, Chain):
        raise ProgramError("a chain of relations belongs in ARGMAX/ARGMIN, not JOIN", node.relation.pos)
    start, end = _ends(node.relation, schema)
    _require_overlap(schema, end, _set_types(node.arg, schema), node.arg)
    return start


def _and(node: And, schema: Schema) -> Types:
    if isinstance(node.left, Not) and isinstance(node.right, Not):
        raise ProgramError("AND of two NOTs has no set to take members from; make one operand a set", node.pos)
    left, right = (_operand_types(side, other, schema) for side, other in ((node.left, node.right),
                                                                           (node.right, node.left)))
    _require_overlap(schema, left, right, node.right)
    if isinstance(node.right, Not):
        return left
    if isinstance(node.left, Not):
        return right
    if left is None or right is None:
        return left or right
    return left & right or left | right  # classes that share members: each member is of both


def _operand_types(node: Node, other: Node, schema: Schema) -> Types:
    """An AND operand: a set, or NOT of a set (the one place NOT may stand), or a class that narrows the
    other operand, a set (the one place a class of values may stand)."""
    if isinstance(node, Class) and not isinstance(other, (Class, Not)):
        return frozenset({class_info(node, schema).name})
    return _set_types(node.arg if isinstance(node, Not) else node, schema)


def _not_alone(node: Not, schema: Schema) -> Types:
    raise ProgramError(
        "NOT may only be an operand of AND: (AND X (NOT Y)) is the members of X that are not in Y", node.pos
    )


def _or(node: Or, schema: Schema) -> Types:
    left, right = _set_types(node.left, schema), _set_types(node.right, schema)
    return left | right if left is not None and right is not None else None


def _superlative(node: Superlative, schema: Schema) -> Types:
    types = _set_types(node.arg, schema)
    if isinstance(node.path, Degree):
        _require_overlap(schema, _degree(node.path, schema), types, node.path)
        return types
    start, end = _ends(node.path, schema)
    _require_overlap(schema, start, types, node.path)
    _require_numeric(end, node.path, schema)
    return types


def _degree(degree: Degree, schema: Schema) -> Types:
    """The classes whose members `(COUNT r S)` counts the r-neighbours of."""
    start, end = _ends(degree.relation, schema)
    if degree.arg is not None:
        _require_overlap(schema, end, _set_types(degree.arg, schema), degree.arg)
    return start


def _compare(node: Compare, schema: Schema) -> Types:
    if isinstance(node.relation, Degree):  # "more than 2 projects": a count, compared with a whole number
        if not (isinstance(node.value, Literal) and node.value.kind == "integer"):
            raise ProgramError("a count of neighbours compares with a whole number: (gt (COUNT r) 2)", node.value.pos)
        return _degree(node.relation, schema)
    start, end = _ends(node.relation, schema)
    _require_numeric(end, node.relation, schema)
    return start


_SET_TYPES: dict[type, Callable[[Node, Schema], Types]] = {
    Entity: lambda node, schema: None,
    Literal: lambda node, schema: None,
    Class: _class,
    Join: _join,
    And: _and,
    Or: _or,
    Not: _not_alone,
    Superlative: _superlative,
    Compare: _compare,
}


# ------------------------------------------------------------------ outermost programs
def _in(node: In, schema: Schema) -> Types:
    if not isinstance(node.member, (Entity, Literal)):
        raise ProgramError('IN asks about one entity, such as "Austria"', node.member.pos)
    _set_types(node.arg, schema)
    return None


def _aggregate(node: Aggregate, schema: Schema) -> Types:
    types = _set_types(node.arg, schema)
    start, end = _ends(node.path, schema)
    _require_overlap(schema, start, types, node.path)
    _require_numeric(end, node.path, schema, SUMMABLE_KINDS, f"{node.op} adds up numbers")
    return end  # a number of the relation's kind: "the total population" answers what "population" does


_OUTERMOST: dict[type, Callable[[Node, Schema], Types]] = {
    Count: lambda node, schema: _set_types(node.arg, schema),
    In: _in,
    Aggregate: _aggregate,
}


# ------------------------------------------------------------------ checks
def _name(node: Node) -> str:
    return getattr(node, "op", None) or type(node).__name__.upper()


def _known(names: tuple[str, ...]) -> Types:
    return frozenset(names) if names else None


def _require_overlap(schema: Schema, expected: Types, actual: Types, where: Node) -> None:
    if not schema.meets(expected, actual):
        raise ProgramError(
            f"type mismatch: expected {' or '.join(sorted(expected))}, found {' or '.join(sorted(actual))}", where.pos
        )


def _require_numeric(
    types: Types, where: Node, schema: Schema, allowed: frozenset[str] = NUMERIC_KINDS, why: str = ""
) -> None:
    if types is None:
        return
    kinds = {schema.class_(t).kind for t in types if schema.class_(t)}
    if kinds and not kinds & allowed:
        holds = "dates" if kinds <= {"date"} else "entities" if kinds <= {"entity"} else " and ".join(sorted(kinds))
        wanted = "numbers" if allowed == SUMMABLE_KINDS else "numbers or dates"
        raise ProgramError(f"{why + ': ' if why else ''}this relation holds {holds}, not {wanted}", where.pos)
