"""Reading a KG's labels once: every entity's labels, classes and degree, kept on disk.

`LabelData` is read through `KGStore.select` alone (so any store or endpoint works, paging where an
endpoint caps its results) and pickled under cache_dir/labels, keyed on the store fingerprint, the
schema and INDEX_VERSION. Entities without a label are named by their IRI's local name; English or
untagged labels come first, others serve only entities without one.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections import defaultdict
from dataclasses import dataclass

from kg_adapters.base import (
    RDF_TYPE,
    RDFS_LABEL,
    SKOS_PREF_LABEL,
    KGError,
    KGStore,
    Term,
)
from kg_adapters.naming import local_name
from kg_adapters.schema import OBJECT, SUBJECT, ClassInfo, Role, Schema

from .words import normalise, surface

log = logging.getLogger(__name__)

INDEX_VERSION = 3  # part of the cache key: bump when what is read changes (3: LabelData moved to this module)
_QUERY_TIMEOUT_S = 120.0
_MAX_ROWS_TOTAL = 5_000_000  # labels/roles read from one KG, a guard for huge endpoints


@dataclass
class LabelData:
    """What is persisted: plain lists and dicts, so pickle is quick."""

    iris: list[str]
    classes: list[tuple[str, ...]]  # per entity
    degree: list[int]  # per entity: triples it is part of (tie-breaker)
    labels: list[str]  # per label record
    label_entity: list[int]
    label_surface: list[str]
    keys: dict[str, list[int]]  # normalised key -> label records
    variants: dict[str, list[int]]  # "the"-less and space-less keys -> label records
    vocab: frozenset[str]  # every token of every label
    max_tokens: int


# entity -> (its best score, the label record that got it), as the linker's lookups gather them
Scored = dict[int, tuple[float, int]]


def keep_better(scored: Scored, entity: int, score: float, record: int) -> None:
    """Records `score` for `entity` where it beats the one it has."""
    if entity not in scored or score > scored[entity][0]:
        scored[entity] = (score, record)


def cache_name(store: KGStore, schema: Schema) -> str:
    fingerprint = store.info.fingerprint
    schema_key = "|".join(
        [f"{c.iri}={c.name}:{','.join(f'{r.relation}/{r.side}' for r in c.roles)}" for c in schema.classes]
        + [f"{r.iri}:{','.join(r.domain)}>{','.join(r.range)}" for r in schema.relations]
    )
    digest = hashlib.sha256(f"{fingerprint}\n{schema_key}\nv{INDEX_VERSION}".encode()).hexdigest()[:20]
    readable = re.sub(r"[^A-Za-z0-9]+", "_", fingerprint)[-40:].strip("_")
    return f"{readable}-{digest}"


def _select_all(store: KGStore, sparql: str) -> list[tuple[Term | None, ...]]:
    """All rows of a query, paging with LIMIT/OFFSET where the store caps its results."""
    first = store.select(sparql, timeout_s=_QUERY_TIMEOUT_S)
    if not first.truncated:
        return list(first.rows)
    page = len(first.rows)
    if page == 0:
        return []
    rows: list[tuple[Term | None, ...]] = []
    offset = 0
    ordered = f"{sparql} ORDER BY {' '.join('?' + v for v in first.vars)}"
    while offset < _MAX_ROWS_TOTAL:
        result = store.select(f"{ordered} LIMIT {page} OFFSET {offset}", timeout_s=_QUERY_TIMEOUT_S)
        rows.extend(result.rows)
        if len(result.rows) < page:
            break
        offset += page
    return rows


def read_labels(store: KGStore, schema: Schema) -> LabelData:
    schema_iris = {c.iri for c in schema.classes} | {r.iri for r in schema.relations}
    literal_relations = {r.iri for r in schema.relations if schema.literal_kind(r) != "entity"}

    # --- which roles each entity fills
    roles_of: dict[str, set[Role]] = defaultdict(set)
    for rel in schema.relations:
        for side in (SUBJECT, OBJECT):
            if side == OBJECT and rel.iri in literal_relations:
                continue
            var = "?s" if side == SUBJECT else "?o"
            rows = _select_all(store, f"SELECT DISTINCT {var} WHERE {{ ?s <{rel.iri}> ?o FILTER(isIRI({var})) }}")
            role = Role(rel.iri, side)
            for (term,) in rows:
                if term is not None:
                    roles_of[term.value].add(role)

    # --- declared types
    declared: dict[str, list[str]] = defaultdict(list)
    for x, c in _select_all(store, f"SELECT ?x ?c WHERE {{ ?x <{RDF_TYPE}> ?c FILTER(isIRI(?x)) }}"):
        if x is None or c is None:
            continue
        info = schema.class_(c.value)
        if info is not None and not info.is_literal:
            declared[x.value].append(info.name)

    # --- labels: English or untagged first; others only for entities without one
    found: dict[str, list[str]] = defaultdict(list)
    foreign: dict[str, list[str]] = defaultdict(list)
    for pred in (RDFS_LABEL, SKOS_PREF_LABEL):
        for x, text in _select_all(store, f"SELECT ?x ?l WHERE {{ ?x <{pred}> ?l FILTER(isIRI(?x)) }}"):
            if x is None or text is None or not text.value.strip():
                continue
            if x.value in schema_iris and x.value not in roles_of:
                continue
            target = found if (text.lang or "en").startswith("en") else foreign
            if text.value not in target[x.value]:
                target[x.value].append(text.value)
    for iri, labels in foreign.items():
        if iri not in found:
            found[iri] = labels
    for iri in list(roles_of) + list(declared):
        if iri not in found:
            name = local_name(iri)
            if name:
                found[iri] = [name]

    # --- popularity: triples each entity is part of (a tie-breaker; skipped if too costly)
    degree_of: dict[str, int] = defaultdict(int)
    for query in (
        "SELECT ?x (COUNT(*) AS ?n) WHERE { ?x ?p ?o } GROUP BY ?x",
        "SELECT ?x (COUNT(*) AS ?n) WHERE { ?s ?p ?x FILTER(isIRI(?x)) } GROUP BY ?x",
    ):
        try:
            for x, count in _select_all(store, query):
                if x is not None and count is not None:
                    degree_of[x.value] += int(count.value)
        except (KGError, ValueError) as err:
            log.info("label index: no degrees (%s)", err)
            break

    # --- classes of each entity
    role_class: dict[Role, list[ClassInfo]] = defaultdict(list)
    for info in schema.classes:
        for role in info.roles:
            role_class[role].append(info)
    by_name = {c.name: c for c in schema.classes}

    def classes_for(iri: str) -> tuple[str, ...]:
        names = list(dict.fromkeys(declared.get(iri, ())))
        roles = roles_of.get(iri, set())
        votes: dict[str, int] = defaultdict(int)
        for role in roles:
            for info in role_class.get(role, ()):
                votes[info.name] += 1
        if not names and not votes:  # declared schema, untyped entity: domain/range of its relations
            for role in roles:
                rel = schema.relation(role.relation)
                if rel is not None:
                    for name in rel.domain if role.side == SUBJECT else rel.range:
                        if name in by_name and not by_name[name].is_literal:
                            votes[name] += 1
        ranked = sorted(votes, key=lambda name: (-votes[name], -by_name[name].size, name))
        return tuple(dict.fromkeys([*names, *ranked]))

    iris: list[str] = []
    classes: list[tuple[str, ...]] = []
    degree: list[int] = []
    labels: list[str] = []
    label_entity: list[int] = []
    label_surface: list[str] = []
    keys: dict[str, list[int]] = defaultdict(list)
    variants: dict[str, list[int]] = defaultdict(list)
    vocab: set[str] = set()
    interned: dict[tuple[str, ...], tuple[str, ...]] = {}
    max_tokens = 1
    for iri in sorted(found):
        e = len(iris)
        iris.append(iri)
        cls_tuple = classes_for(iri)
        classes.append(interned.setdefault(cls_tuple, cls_tuple))
        degree.append(degree_of.get(iri, 0))
        for label in found[iri]:
            key = normalise(label)
            if not key:
                continue
            r = len(labels)
            labels.append(label)
            label_entity.append(e)
            label_surface.append(surface(label))
            keys[key].append(r)
            words = key.split()
            vocab.update(words)
            max_tokens = max(max_tokens, len(words))
            compact = key.replace(" ", "")
            if compact != key and len(compact) >= 4:
                variants[compact].append(r)
            if key.startswith("the ") and len(key) > 6:
                variants[key[4:]].append(r)

    return LabelData(
        iris=iris,
        classes=classes,
        degree=degree,
        labels=labels,
        label_entity=label_entity,
        label_surface=label_surface,
        keys=dict(keys),
        variants=dict(variants),
        vocab=frozenset(vocab),
        max_tokens=min(max_tokens, 12),
    )
