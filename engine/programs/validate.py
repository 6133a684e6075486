"""Check a program against a schema before it reaches a store.

Names must exist and stand in the right place (a relation where a relation
belongs), superlatives and comparatives need numeric or date values, and joins
must fit the relation's domain and range where the schema knows them. Each
problem is a ProgramError that points at the offending token.
"""

from __future__ import annotations

from kg_adapters.schema import ClassInfo, RelationInfo, Schema

from .sexpr import (
    And,
    Chain,
    Class,
    Compare,
    Count,
    Entity,
    Join,
    Literal,
    Node,
    Program,
    ProgramError,
    Relation,
    Reverse,
    Superlative,
)

NUMERIC_KINDS = frozenset({"year", "integer", "decimal", "date"})
Types = frozenset[str] | None  # class names a set may hold; None when unknown


def validate(program: Program, schema: Schema) -> Types:
    """The classes the program's answers belong to; raises ProgramError on the first problem."""
    return _set_types(program.arg if isinstance(program, Count) else program, schema)


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
        _require_overlap(middle, middle2, rel.second)
        return start, end
    raise ProgramError("expected a relation", rel.pos)


def _set_types(node: Node, schema: Schema) -> Types:
    if isinstance(node, (Entity, Literal)):
        return None
    if isinstance(node, Class):
        return frozenset({class_info(node, schema).name})
    if isinstance(node, Join):
        if isinstance(node.relation, Chain):
            raise ProgramError("a chain of relations belongs in ARGMAX/ARGMIN, not JOIN", node.relation.pos)
        start, end = _ends(node.relation, schema)
        _require_overlap(end, _set_types(node.arg, schema), node.arg)
        return start
    if isinstance(node, And):
        left, right = _set_types(node.left, schema), _set_types(node.right, schema)
        _require_overlap(left, right, node.right)
        return left & right if left is not None and right is not None else left or right
    if isinstance(node, Superlative):
        types = _set_types(node.arg, schema)
        start, end = _ends(node.path, schema)
        _require_overlap(start, types, node.path)
        _require_numeric(end, node.path, schema)
        return types
    if isinstance(node, Compare):
        start, end = _ends(node.relation, schema)
        _require_numeric(end, node.relation, schema)
        return start
    raise ProgramError(f"{type(node).__name__} cannot stand here", node.pos)


def _known(names: tuple[str, ...]) -> Types:
    return frozenset(names) if names else None


def _require_overlap(expected: Types, actual: Types, where: Node) -> None:
    if expected is not None and actual is not None and not expected & actual:
        raise ProgramError(
            f"type mismatch: expected {' or '.join(sorted(expected))}, found {' or '.join(sorted(actual))}", where.pos
        )


def _require_numeric(types: Types, where: Node, schema: Schema) -> None:
    if types is None:
        return
    kinds = {schema.class_(t).kind for t in types if schema.class_(t)}
    if kinds and not kinds & NUMERIC_KINDS:
        raise ProgramError("this relation holds entities, not numbers or dates", where.pos)
