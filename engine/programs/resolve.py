"""Entities written by label get their IRIs; a shared label goes to the entity that fits its place.

Programs name entities by label, and labels are shared: in the default geography KG 24
countries and the continent Asia share theirs with a city. Taking the lowest IRI ran
`(JOIN (R capital) "Mexico")` on the city Mexico and answered nothing. The place an
entity stands in says what it must be: in `(JOIN (R capital) E)` E is the subject of a
`capital` triple, in `(JOIN continent E)` the object of a `continent` triple, in
`(gt area E)` the subject of an `area` triple. Among entities sharing a label, one that
has such a triple wins; among those, the one with the most facts of its own (a popularity
prior), then the lowest IRI, so a resolution is always the same.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from kg_adapters.base import RDFS_LABEL, SKOS_PREF_LABEL, XSD, Bindings
from kg_adapters.schema import Schema
from kg_adapters.text_values import names_a_thing, text_value_iri

from .sexpr import Compare, Entity, Join, Node, Program, ProgramError, Relation, Reverse, entities, transform, walk
from .terms import entity, iri, string

Select = Callable[[str], Bindings]
Place = tuple[str, str]  # (relation IRI, "subject" | "object"): a triple the entity must be in


def resolve(program: Program, select: Select, schema: Schema) -> Program:
    """Every entity written by label, with its IRI; an unknown label is a ProgramError."""
    wanted = [e for e in entities(program) if not e.is_iri and e.iri is None]
    if not wanted:
        return program
    holders = _holders(sorted({e.ref for e in wanted}), select)
    holders |= _text_holders(sorted({e.ref for e in wanted} - set(holders)), select)
    missing = [e for e in wanted if e.ref not in holders]
    if missing:
        raise ProgramError(f"no entity is labelled {missing[0].ref!r}", missing[0].pos)
    places = _places(program, schema)
    chosen = {
        id(e): _choose(holders[e.ref], places.get(id(e)), select) for e in wanted
    }
    return transform(program, lambda n: replace(n, iri=chosen[id(n)]) if id(n) in chosen else n)


def _holders(labels: list[str], select: Select) -> dict[str, list[str]]:
    """label -> the IRIs that carry it, sorted."""
    found: dict[str, set[str]] = {}
    for entity, label in select(label_lookup_sparql(labels)).rows:
        if entity is not None and label is not None and entity.is_iri:
            found.setdefault(label.value, set()).add(entity.value)
    return {label: sorted(iris) for label, iris in found.items()}


def _text_holders(labels: list[str], select: Select) -> dict[str, list[str]]:
    """label -> the text value it names, for labels no entity carries: a status "On hold" held as a string stands
    for a thing as an entity does (kg_adapters.text_values)."""
    labels = [label for label in labels if names_a_thing(label)]
    if not labels:
        return {}
    named = f"FILTER(?p NOT IN ({iri(RDFS_LABEL)}, {iri(SKOS_PREF_LABEL)}))"
    found: dict[str, set[str]] = {}
    for (value,) in select(f"SELECT DISTINCT ?v WHERE {{ VALUES ?v {{ {_forms(labels)} }} ?s ?p ?v {named} }}").rows:
        if value is not None and value.is_literal:
            found.setdefault(value.value, set()).add(text_value_iri(value.value, value.lang))
    return {label: sorted(iris) for label, iris in found.items()}


def _places(program: Program, schema: Schema) -> dict[int, Place]:
    """For entities standing right under a JOIN or as a comparison's value: the triple they must be in."""
    places: dict[int, Place] = {}
    for node in walk(program):
        if isinstance(node, Join) and isinstance(node.arg, Entity):
            place = _place(node.relation, schema, reverse_side="subject", forward_side="object")
        elif isinstance(node, Compare) and isinstance(node.value, Entity):
            place = _place(node.relation, schema, reverse_side="object", forward_side="subject")
        else:
            continue
        if place is not None:
            places[id(node.arg if isinstance(node, Join) else node.value)] = place
    return places


def _place(rel: Node, schema: Schema, reverse_side: str, forward_side: str) -> Place | None:
    if isinstance(rel, Reverse):
        info = schema.relation(rel.relation.name)
        return (info.iri, reverse_side) if info and not info.either else None
    if isinstance(rel, Relation):
        info = schema.relation(rel.name)
        return (info.iri, forward_side) if info and not info.either else None
    return None  # a chain, or a union (kg_adapters.unions): no single triple to check


def _choose(iris: list[str], place: Place | None, select: Select) -> str:
    if len(iris) == 1:
        return iris[0]
    if place is not None:
        relation, side = place
        values = " ".join(entity(i) for i in iris)
        triple = f"?e {iri(relation)} ?o" if side == "subject" else f"?s {iri(relation)} ?e"
        rows = select(f"SELECT DISTINCT ?e WHERE {{ VALUES ?e {{ {values} }} {triple} }}").rows
        iris = sorted(row[0].value for row in rows if row[0] is not None) or iris
    return _most_described(iris, select)


def _most_described(iris: list[str], select: Select) -> str:
    """The entity with the most facts of its own: the country Mexico (capital, currency, neighbours ...), not
    the town, when both have a population. The lowest IRI breaks ties."""
    if len(iris) == 1:
        return iris[0]
    values = " ".join(entity(i) for i in iris)
    rows = select(f"SELECT ?e (COUNT(*) AS ?n) WHERE {{ VALUES ?e {{ {values} }} ?e ?p ?o }} GROUP BY ?e").rows
    facts = {row[0].value: int(row[1].value) for row in rows if row[0] is not None and row[1] is not None}
    return min(iris, key=lambda i: (-facts.get(i, 0), i))


def label_lookup_sparql(labels: list[str]) -> str:
    """Entities carrying any of these labels: plain, typed xsd:string (distinct in Virtuoso) or English-tagged."""
    return f"SELECT ?e ?l WHERE {{ VALUES ?l {{ {_forms(labels)} }} ?e {iri(RDFS_LABEL)} ?l }}"


def _forms(labels: list[str]) -> str:
    """Each label as a plain, an xsd:string-typed (distinct in Virtuoso) and an English-tagged literal."""
    return " ".join(f"{string(l)} {string(l, XSD + 'string')} {string(l, lang='en')}" for l in labels)
