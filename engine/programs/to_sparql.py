"""Compile a program to one SPARQL 1.1 SELECT.

Each set-valued node becomes graph patterns that bind one variable to the members of its set; the rules live in one
table, `RULES`, keyed by node class. Every IRI and literal goes through `iri()` / `string()`
(engine/programs/terms.py) so that no label can inject SPARQL.

Semantics follow GrailQA's compiler: set semantics (DISTINCT), ties kept in superlatives, and the program's own
entities never among its answers. A walk also never passes back through them (it may stay on one over a self-loop): in
"actors in films by the director of X", the films are the director's other films, not X again (MetaQA's answers read
multi-hop questions this way; see `_not_own`). Entities written as members rather than anchors (the operands of OR,
the entity IN asks about) are exempt: "which is bigger, Brazil or Argentina" must be able to answer Brazil.

Programs that are not sets (COUNT, IN, SUM, AVG) get their SELECT from `QUERIES`. The SPARQL runs unchanged on
pyoxigraph and on Virtuoso 7.2, whose quirks shape a few rules (le/ge spelled out, no VALUES in a UNION branch or
pinning NOT EXISTS' variable).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Callable

from kg_adapters.base import RDF_TYPE, RDFS_LABEL, XSD
from kg_adapters.schema import SUBJECT, ClassInfo, Schema
from kg_adapters.unions import stored_ways

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
    calendar_year,
    entities,
    members,
)
from .home import comes_home
from .terms import entity, iri, keyword, string
from .validate import class_info, relation_info

ANSWER_VAR = "x"
LABEL_VAR = "label"
COUNT_VAR = "count"  # COUNT's answer; for SUM and AVG, how many values went into the number
NUMBER_VAR = "number"  # the answer of SUM and AVG
_DATATYPE = {"integer": XSD + "integer", "decimal": XSD + "decimal", "date": XSD + "date", "boolean": XSD + "boolean"}
_YEAR = "IF(isNumeric({0}), {0}, YEAR({0}))"  # years typed gYear or integer in one class; YEAR(integer) fails
_COMPARE = {"lt": "<", "le": "<=", "gt": ">", "ge": ">="}
_BEST = {"ARGMAX": "MAX", "ARGMIN": "MIN"}
_AGGREGATE = {"SUM": "SUM", "AVG": "AVG"}


@dataclass
class _Context:
    schema: Schema
    own: tuple[str, ...] = ()  # the program's own entities, as terms: never answers, never passed through
    counter: itertools.count = field(default_factory=itertools.count)
    # the term or variable each variable was walked to from, by a JOIN; None where several walks bind it
    walked_from: dict[str, str | None] = field(default_factory=dict)

    def walked(self, var: str, source: str) -> None:
        self.walked_from[var] = source if self.walked_from.get(var, source) == source else None

    def var(self, stem: str = "v") -> str:
        return f"?{stem}{next(self.counter)}"

    def class_info(self, node: Class) -> ClassInfo:
        return class_info(node, self.schema)


Patterns = list[str]


def _term(node: Node, ctx: _Context) -> str | None:
    """A constant term for an entity or literal; None for anything that needs patterns."""
    if isinstance(node, Entity):
        if node.iri is None and not node.is_iri:
            raise ProgramError(f"entity {node.ref!r} has not been resolved to an IRI", node.pos)
        return entity(node.iri or node.ref)
    if isinstance(node, Literal):
        return string(node.value, keyword(_DATATYPE, node.kind, node, "kind of value"))
    return None


def _path(rel: Node, start: str, end: str, ctx: _Context) -> Patterns:
    """Triple patterns that lead from `start` to `end` along a relation expression."""
    if isinstance(rel, (Relation, Reverse)):
        forward = rel.relation if isinstance(rel, Reverse) else rel
        stored = stored_ways(relation_info(forward, ctx.schema), ctx.schema)
        ways = [f"^{iri(r.iri)}" if back else iri(r.iri) for r, back in stored]
        if len(ways) > 1:  # stored once per pair, in no order (kg_adapters.both_ways), partly reversed, or a union
            return [f"{start} ({'|'.join(ways)}) {end} ." if rel is forward else f"{end} ({'|'.join(ways)}) {start} ."]
        return [f"{start} {ways[0]} {end} ." if rel is forward else f"{end} {ways[0]} {start} ."]
    if isinstance(rel, Chain):
        middle = ctx.var("m")
        return _path(rel.first, start, middle, ctx) + _path(rel.second, middle, end, ctx)
    raise ProgramError("expected a relation", rel.pos)


def _membership(info: ClassInfo, var: str) -> str:
    """A group pattern that holds when `var` is a member of the class."""
    if info.is_literal:
        return f"FILTER(isLiteral({var}) && datatype({var}) = {iri(info.datatype or XSD + 'string')})"
    if not info.induced:
        return f"{var} {iri(RDF_TYPE)} {iri(info.iri)} ."
    branches = [
        f"{{ {var} {iri(r.relation)} [] }}" if r.side == SUBJECT else f"{{ [] {iri(r.relation)} {var} }}"
        for r in info.roles
    ]
    return " UNION ".join(branches)


def class_sample(info: ClassInfo, limit: int) -> str:
    """A query for the first `limit` members of an entity class the store lists (?x), without listing, labelling
    or sorting the rest: a bounded sample of a class too large to list (bootstrap.explorer)."""
    return f"SELECT DISTINCT ?x WHERE {{ {_membership(info, '?x')} FILTER(isIRI(?x)) }} LIMIT {int(limit)}"


def _constant(node: Entity | Literal, var: str, ctx: _Context) -> Patterns:
    return [f"VALUES {var} {{ {_term(node, ctx)} }}"]


def _class(node: Class, var: str, ctx: _Context) -> Patterns:
    info = ctx.class_info(node)
    if info.is_literal:
        raise ProgramError(f"{node.name!r} is a class of values; it cannot be listed on its own", node.pos)
    if not info.induced:
        return [_membership(info, var)]
    return [f"{{ SELECT DISTINCT {var} WHERE {{ {_membership(info, var)} }} }}"]


def _join(node: Join, var: str, ctx: _Context) -> Patterns:
    if isinstance(node.relation, Chain):
        raise ProgramError("a chain of relations belongs in ARGMAX/ARGMIN, not JOIN", node.relation.pos)
    if (year := _year_of_a_date(node.relation, node.arg, ctx)) is not None:  # "in 2019": the date's year
        value = ctx.var("val")
        return _path(node.relation, var, value, ctx) + [f"FILTER({_YEAR.format(value)} = {year})"]
    target = _term(node.arg, ctx)
    if target is not None:
        ctx.walked(var, target)
        return _path(node.relation, var, target, ctx)
    inner = ctx.var()
    patterns = _patterns(node.arg, inner, ctx)  # first: it records where `inner` was walked from
    if not comes_home(node.arg, ctx.schema):
        patterns += _not_own(inner, ctx, {_term(e, ctx) for e in entities(node.arg)})
    patterns += _path(node.relation, var, inner, ctx)
    ctx.walked(var, inner)
    if isinstance(node.arg, Superlative):
        return [_distinct(patterns, var, ctx)]  # see _superlative
    return patterns


def _not_own(var: str, ctx: _Context, walked_from: set[str] | None = None) -> Patterns:
    """Keep the program's own entities out of a set a JOIN walks on from, and out of the answers,
    unless the walk never left them.

    Without it, "films by the director of X" includes X, and a third hop
    answers from X itself (X's own actors among "actors in films by X's
    director"). On all 14,274 MetaQA 3-hop dev questions the gold programs
    reach F1 87.86 against the gold answers with plain sets and 92.96 with
    this rule (tests/test_metaqa_oracle.py); 1- and 2-hop are unchanged.

    A KG may state that X is its own neighbour over a relation (Freebase's release and album of one name, merged
    by label: `Bewitched album Bewitched`). Reached over such self-loops alone, X stays: without this, 30% of
    PathQuestion-2H and 38% of -3H questions, answered by their own entity so reached, had no program (session 11).

    A walked set keeps out only the entities it was walked from (`walked_from`), not an AND's other side's."""
    source = ctx.walked_from.get(var)
    terms = tuple(t for t in ctx.own if t != source and (walked_from is None or t in walked_from))
    if not terms:
        return []
    if source is None or not source.startswith("?"):
        return [_excluding(var, terms)]
    return [f"FILTER({' && '.join(f'({var} != {t} || {source} = {t})' for t in terms)})"]


def _excluding(var: str, terms: tuple[str, ...]) -> str:
    """`var` is none of the terms. Spelled `!=` ... `&&` as SPARQL defines NOT IN: inside NOT EXISTS,
    with an OPTIONAL and GROUP BY around it, NOT IN overflows Virtuoso 7.2's cost model (SQ200)."""
    return f"FILTER({' && '.join(f'{var} != {term}' for term in terms)})"


def _and(node: And, var: str, ctx: _Context) -> Patterns:
    left, right = node.left, node.right
    if isinstance(left, Not):  # the set first, then what its members must lack
        left, right = right, left
    if isinstance(right, Not):
        return _patterns(left, var, ctx) + [_lacking(right.arg, var, ctx)]
    if isinstance(left, Class) and not isinstance(right, Class):
        left, right = right, left
    if isinstance(right, Class):  # restrict, rather than enumerate, the class
        info = ctx.class_info(right)
        test = _membership(info, var)
        check = test if info.is_literal or not info.induced else f"FILTER EXISTS {{ {test} }}"
        return _patterns(left, var, ctx) + [check]
    return _patterns(left, var, ctx) + _patterns(right, var, ctx)


def _lacking(node: Node, var: str, ctx: _Context) -> str:
    """`(NOT S)` inside AND: FILTER NOT EXISTS over the same variable.

    Virtuoso 7.2 ignores a VALUES or a constant FILTER that pins the outer variable inside
    NOT EXISTS (and a UNION of such), so it would drop every member. A set pinned that way
    is compared through a fresh variable instead; `=`, since Virtuoso also gets sameTerm
    wrong there. Other sets keep the plain form, which lets the store look the member up.
    """
    if not _pinned(node):
        return f"FILTER NOT EXISTS {{ {' '.join(_patterns(node, var, ctx))} }}"
    other = ctx.var("n")
    inner = " ".join(_patterns(node, other, ctx))
    return f"FILTER NOT EXISTS {{ {{ SELECT DISTINCT {other} WHERE {{ {inner} }} }} FILTER({other} = {var}) }}"


def _pinned(node: Node) -> bool:
    """Whether a set's patterns bind its variable to constants (VALUES) rather than by triples."""
    if isinstance(node, (Entity, Literal)):
        return True
    if isinstance(node, (And, Or)):
        return _pinned(node.left) or _pinned(node.right)
    if isinstance(node, Superlative):
        return _pinned(node.arg)
    return False


def _not_alone(node: Not, var: str, ctx: _Context) -> Patterns:
    raise ProgramError("NOT may only be an operand of AND", node.pos)


def _or(node: Or, var: str, ctx: _Context) -> Patterns:
    """A UNION of the two sets, each a sub-select: Virtuoso 7.2 answers nothing from a UNION branch
    that opens with VALUES (an entity operand), and a sub-select keeps each branch's variables apart."""
    branches = [
        f"{{ SELECT DISTINCT {var} WHERE {{ {' '.join(_patterns(side, var, ctx))} }} }}"
        for side in (node.left, node.right)
    ]
    return [" UNION ".join(branches)]


def _superlative(node: Superlative, var: str, ctx: _Context) -> Patterns:
    """The best members in a sub-select, as is a step from them (`_join`): else pyoxigraph joined `(JOIN country
    (JOIN (R country) (ARGMAX City population)))`'s walk first (24,000 x 1,000 rows), past the 20 s deadline."""
    value, best, inner_var, inner_value = ctx.var("val"), ctx.var("best"), ctx.var(), ctx.var("val")
    inner = " ".join(_measured(node, inner_var, inner_value, ctx, own=False))
    best_of = f"{{ SELECT ({keyword(_BEST, node.op, node)}({inner_value}) AS {best}) WHERE {{ {inner} }} }}"
    return [_distinct(_measured(node, var, value, ctx) + [best_of, f"FILTER({value} = {best})"], var, ctx)]


def _measured(node: Superlative, member: str, value: str, ctx: _Context, own: bool = True) -> Patterns:
    """Each member of the set once (the cities in Brazil's time zones were measured once per Brazilian city) with its
    value; the same members, less the program's own entities, for the best value as for the answers."""
    if isinstance(node.path, Degree):
        return [_degree(node.arg, node.path, member, value, ctx)]
    members = _patterns(node.arg, member, ctx) + _not_own(member, ctx)
    return [_distinct(members, member, ctx, own)] + _path(node.path, member, value, ctx)


def _distinct(patterns: Patterns, var: str, ctx: _Context, own: bool = True) -> str:
    """`var`'s distinct bindings, with the variable it was walked from where `own` (`_not_own` reads it)."""
    source = ctx.walked_from.get(var)
    kept = [var] + ([source] if own and source is not None and source.startswith("?") else [])
    return f"{{ SELECT DISTINCT {' '.join(kept)} WHERE {{ {' '.join(patterns)} }} }}"


def _degree(arg: Node | None, degree: Degree, member: str, value: str, ctx: _Context) -> str:
    """Each member of `arg` (else each thing with one) with its number of r-neighbours (in S if given)."""
    neighbour = ctx.var("y")
    reach = _path(degree.relation, member, neighbour, ctx)
    if degree.arg is not None:
        reach += _patterns(degree.arg, neighbour, ctx)
    members = " ".join(_patterns(arg, member, ctx)) if arg is not None else ""
    where = f"{members} OPTIONAL {{ {' '.join(reach)} }}" if members else " ".join(reach)  # OPTIONAL: none counts 0
    return f"{{ SELECT {member} (COUNT(DISTINCT {neighbour}) AS {value}) WHERE {{ {where} }} GROUP BY {member} }}"


def _compare(node: Compare, var: str, ctx: _Context) -> Patterns:
    keyword(_COMPARE, node.op, node)
    value = ctx.var("val")
    year = _year_of_a_date(node.relation, node.value, ctx)
    if year is not None:  # "after 2020": the date's year is after 2020
        return _path(node.relation, var, value, ctx) + [f"FILTER({_test(node.op, _YEAR.format(value), str(year))})"]
    if isinstance(node.value, Entity):  # the entity's own value; the entity itself is never an answer
        reference, other = _term(node.value, ctx), ctx.var("ref")
        own = _path(node.relation, reference, other, ctx)
        return own + _path(node.relation, var, value, ctx) + [
            f"FILTER({_test(node.op, value, other)})",
            _excluding(var, (reference,)),
        ]
    counted = isinstance(node.relation, Degree)  # "more than 2 projects"; "fewer than 3" never lists what has none
    measured = [_degree(None, node.relation, var, value, ctx)] if counted else _path(node.relation, var, value, ctx)
    return measured + [f"FILTER({_test(node.op, value, _term(node.value, ctx))})"]


def _year_of_a_date(rel: Node, value: Node, ctx: _Context) -> int | None:
    """The year a whole number names against dates or xsd:gYear values: "after 2020", "found before 1700"."""
    dated = isinstance(rel, Relation) and ctx.schema.holds_points_in_time(relation_info(rel, ctx.schema))
    return calendar_year(value) if dated else None


def _test(op: str, value: str, bound: str) -> str:
    if op in ("le", "ge"):  # spelled out: Virtuoso 7.2 gets <= and >= on xsd:date wrong
        strict = "<" if op == "le" else ">"
        return f"{value} {strict} {bound} || {value} = {bound}"
    return f"{value} {_COMPARE[op]} {bound}"


RULES: dict[type, Callable[[Node, str, _Context], Patterns]] = {
    Entity: _constant,
    Literal: _constant,
    Class: _class,
    Join: _join,
    And: _and,
    Or: _or,
    Not: _not_alone,
    Superlative: _superlative,
    Compare: _compare,
}


def _patterns(node: Node, var: str, ctx: _Context) -> Patterns:
    rule = RULES.get(type(node))
    if rule is None:
        raise ProgramError(f"{type(node).__name__} cannot stand here", node.pos)
    return rule(node, var, ctx)


# ------------------------------------------------------------------ whole programs
def _members(node: Node, ctx: _Context, *more: str, indent: str = "  ") -> str:
    """Lines that bind the answer variable to the set's members, less the program's own entities, then `more`.
    A pattern repeated (an entity excluded by its comparison and as the program's own) is written once."""
    answer = f"?{ANSWER_VAR}"
    patterns = _patterns(node, answer, ctx)  # first: it records where the answers were walked from
    own = [] if comes_home(node, ctx.schema) else _not_own(answer, ctx)
    patterns = dict.fromkeys(patterns + own + list(more))
    return "\n".join(indent + p for p in patterns)


def _set_query(program: Node, ctx: _Context) -> str:
    answer = f"?{ANSWER_VAR}"
    return (
        f"SELECT {answer} (SAMPLE(?l) AS ?{LABEL_VAR}) WHERE {{\n{_members(program, ctx)}\n"
        f"  OPTIONAL {{ {answer} {iri(RDFS_LABEL)} ?l }}\n}} GROUP BY {answer}"
    )


def _count_query(program: Count, ctx: _Context) -> str:
    return f"SELECT (COUNT(DISTINCT ?{ANSWER_VAR}) AS ?{COUNT_VAR}) WHERE {{\n{_members(program.arg, ctx)}\n}}"


def _in_query(program: In, ctx: _Context) -> str:
    """A row when the entity is a member, none when it is not (the executor reads yes/no)."""
    answer = f"?{ANSWER_VAR}"
    return (
        f"SELECT {answer} WHERE {{\n  VALUES {answer} {{ {_term(program.member, ctx)} }}\n"
        f"{_members(program.arg, ctx)}\n}} LIMIT 1"
    )


def _aggregate_query(program: Aggregate, ctx: _Context) -> str:
    """One value per member-value pair (DISTINCT pairs, so equal values of two members both count);
    members without a numeric value are skipped, and the count of values lets the executor tell
    "no values" (no answer) from a total of 0."""
    answer, value = f"?{ANSWER_VAR}", ctx.var("val")
    pairs = _path(program.path, answer, value, ctx) + [f"FILTER(isNumeric({value}))"]
    total = keyword(_AGGREGATE, program.op, program)
    return (
        f"SELECT ({total}({value}) AS ?{NUMBER_VAR}) (COUNT({value}) AS ?{COUNT_VAR}) WHERE {{\n"
        f"  {{ SELECT DISTINCT {answer} {value} WHERE {{\n{_members(program.arg, ctx, *pairs, indent='    ')}\n"
        f"  }} }}\n}}"
    )


QUERIES: dict[type, Callable[[Node, _Context], str]] = {
    Count: _count_query,
    In: _in_query,
    Aggregate: _aggregate_query,
}


def to_sparql(program: Program, schema: Schema) -> str:
    """One SELECT: `?x ?label` rows for a set; for COUNT a single `?count`; for IN one row or none;
    for SUM and AVG a single `?number` with the `?count` of values behind it."""
    ctx = _Context(schema)
    answerable = {_term(e, ctx) for e in members(program)}
    ctx.own = tuple(sorted({_term(e, ctx) for e in entities(program)} - answerable))
    return QUERIES.get(type(program), _set_query)(program, ctx)
