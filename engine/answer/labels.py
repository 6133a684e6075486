"""Reading a KG's labels once: every entity's labels, classes and degree, for the label index on disk.

`read_labels` yields each labelled entity once, in IRI order, with its classes, its degree (the triples it is
part of, a tie-breaker) and its labels; `engine.answer.label_db` writes them into the index. Two readers give
the same entities:

* an embedded store (`OxigraphStore.scan`) is read in ONE streaming pass over its triples, grouped by subject as
  the store keeps them; what each entity is the object of is tallied in a scratch SQLite file, flushed every
  `FLUSH_ROWS` rows, and the two are merged in IRI order at the end. Memory stays bounded whatever the size.
* any other store (`KGStore.select`) is read by a few queries, paging where an endpoint caps its results; a
  large endpoint is not read at all (engine.answer.remote_labels asks it per question instead).

Entities without a label are named by their IRI's local name; English or untagged labels come first, others
serve only entities without one. Labels of schema classes and relations count only where they also fill a role.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import sqlite3
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from kg_adapters.base import (
    RDF_TYPE,
    RDFS_LABEL,
    SKOS_PREF_LABEL,
    KGError,
    KGStore,
    Term,
    is_vocabulary,
)
from kg_adapters.naming import local_name
from kg_adapters.oxigraph_store import SCAN_IRI, SCAN_LITERAL
from kg_adapters.schema import OBJECT, SUBJECT, ClassInfo, Role, Schema
from kg_adapters.text_values import names_a_thing, text_value, text_value_iri
from kg_adapters.unions import without_unions

from .mentions import Candidate

if TYPE_CHECKING:
    from .label_db import LabelDB

log = logging.getLogger(__name__)

INDEX_VERSION = 9  # part of the cache key: bump when what is read or written changes (4-6: SQLite; 7: described; 8: no
# node typed by RDF's own vocabulary alone; 9: short strings of relations to text, kg_adapters.text_values)
_QUERY_TIMEOUT_S = 120.0
_MAX_ROWS_TOTAL = 5_000_000  # labels/roles read from one KG by queries, a guard for huge endpoints
FLUSH_ROWS = 200_000  # (object, relation) tallies held in memory before they go to the scratch file
_LABEL_PREDICATES = (RDFS_LABEL, SKOS_PREF_LABEL)  # in this order: rdfs:label first
_NOT_A_ROLE = -1  # a triple pointing at an entity through no relation of the schema: degree only

# entity -> (its best score, the label record that got it), as the linker's lookups gather them
Scored = dict[int, tuple[float, int]]


@dataclass(frozen=True)
class Entity:
    """One entity as the index keeps it."""

    iri: str
    classes: tuple[str, ...]
    degree: int  # triples it is part of (a tie-breaker)
    labels: tuple[str, ...]  # non-empty
    # the subject of a schema relation: a thing with facts of its own, not only a value others point at (a tag, a
    # category). A plural names the value itself, but only the class of such a thing (engine.answer.kind_words)
    described: bool = False


def keep_better(scored: Scored, entity: int, score: float, record: int) -> None:
    """Records `score` for `entity` where it beats the one it has."""
    if entity not in scored or score > scored[entity][0]:
        scored[entity] = (score, record)


def ranked(data: LabelDB, scored: Scored, top_k: int, text: str | None = None) -> list[Candidate]:
    """The `top_k` best of `scored` as candidates, best score first; ties: the label written exactly as `text`, then
    the better-connected entity."""
    data.prefetch((r for _, r in scored.values()), scored)
    order = sorted(scored.items(), key=lambda kv: (-kv[1][0], data.record(kv[1][1]).label != text,
                                                   -data.entity(kv[0]).degree, data.record(kv[1][1]).label))
    return [Candidate("entity", data.record(r).label, data.entity(e).iri, score, data.entity(e).classes)
            for e, (score, r) in order[:top_k]]


def cache_name(store: KGStore, schema: Schema) -> str:
    fingerprint, schema = store.info.fingerprint, without_unions(schema)  # a union has no triples to index
    schema_key = "|".join(
        [f"{c.iri}={c.name}:{','.join(f'{r.relation}/{r.side}' for r in c.roles)}" for c in schema.classes]
        + [f"{r.iri}:{','.join(r.domain)}>{','.join(r.range)}" for r in schema.relations]
    )
    digest = hashlib.sha256(f"{fingerprint}\n{schema_key}\nv{INDEX_VERSION}".encode()).hexdigest()[:20]
    readable = re.sub(r"[^A-Za-z0-9]+", "_", fingerprint)[-40:].strip("_")
    return f"{readable}-{digest}"


def read_labels(store: KGStore, schema: Schema, scratch: Path) -> Iterator[Entity]:
    """Every labelled entity of the KG, in IRI order; `scratch` is a file the streaming reader may use."""
    schema = without_unions(schema)  # a union has no triples: no entity fills a role of it
    if hasattr(store, "scan"):
        return _scanned(store, schema, scratch)
    return _selected(store, schema)


class EntityClasses:
    """An entity's classes: declared ones first, then those its roles vote for (most votes, biggest class)."""

    def __init__(self, schema: Schema):
        self.schema = schema
        self.by_name = {c.name: c for c in schema.classes}
        self.role_class: dict[Role, list[ClassInfo]] = defaultdict(list)
        for info in schema.classes:
            for role in info.roles:
                self.role_class[role].append(info)
        self.interned: dict[tuple[str, ...], tuple[str, ...]] = {}

    def of(self, declared: list[str], roles: set[Role]) -> tuple[str, ...]:
        names = list(dict.fromkeys(declared))
        votes: dict[str, int] = defaultdict(int)
        for role in roles:
            for info in self.role_class.get(role, ()):
                votes[info.name] += 1
        if not names and not votes:  # declared schema, untyped entity: domain/range of its relations
            for role in roles:
                rel = self.schema.relation(role.relation)
                if rel is not None:
                    for name in rel.domain if role.side == SUBJECT else rel.range:
                        if name in self.by_name and not self.by_name[name].is_literal:
                            votes[name] += 1
        ranked = sorted(votes, key=lambda name: (-votes[name], -self.by_name[name].size, name))
        found = tuple(dict.fromkeys([*names, *ranked]))
        return self.interned.setdefault(found, found)


def make_entity(iri: str, english: list[str], foreign: list[str], declared: list[str], roles: set[Role], degree: int,
            schema_iris: set[str], classes: EntityClasses) -> Entity | None:
    """The entity an IRI is, from what was read of it; None where it has no label and fills no role."""
    if iri in schema_iris and not roles:
        english, foreign = [], []
    labels = english or foreign
    if not labels and (roles or declared):
        text = text_value(iri)  # a string that names a thing (kg_adapters.text_values): the string is its label
        name = text[0] if text else local_name(iri)
        labels = [name] if name else []
    if not labels:
        return None
    return Entity(iri, classes.of(declared, roles), degree, tuple(labels),
                  any(role.side == SUBJECT for role in roles))


# ------------------------------------------------------------------ the embedded store: one streaming pass
def _scanned(store, schema: Schema, scratch: Path) -> Iterator[Entity]:
    relations = {r.iri: i for i, r in reversed(list(enumerate(schema.relations)))}
    role_of = [(Role(r.iri, SUBJECT), Role(r.iri, OBJECT)) for r in schema.relations]
    entity_objects = [schema.literal_kind(r) == "entity" for r in schema.relations]
    text_objects = [schema.literal_kind(r) == "text" for r in schema.relations]
    schema_iris = {c.iri for c in schema.classes} | {r.iri for r in schema.relations}
    class_names: dict[str, str | None] = {}  # rdf:type object -> the schema class it names (entity classes)

    def class_named(value: str) -> str | None:
        if value not in class_names:
            info = schema.class_(value)
            class_names[value] = info.name if info is not None and not info.is_literal else None
        return class_names[value]

    scratch.unlink(missing_ok=True)
    db = sqlite3.connect(scratch)
    try:
        db.executescript("""
            PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA cache_size=-65536;
            CREATE TABLE subj(iri TEXT PRIMARY KEY, n INTEGER, roles TEXT, types TEXT, labels TEXT) WITHOUT ROWID;
            CREATE TABLE obj(iri TEXT, rel INTEGER, n INTEGER, PRIMARY KEY(iri, rel)) WITHOUT ROWID;
        """)
        objects: dict[tuple[str, int], int] = defaultdict(int)
        subjects: list[tuple] = []

        def flush() -> None:
            db.executemany("INSERT INTO obj VALUES (?, ?, ?) ON CONFLICT(iri, rel) DO UPDATE SET n = n + excluded.n",
                           [(iri, rel, n) for (iri, rel), n in objects.items()])
            objects.clear()
            for row in subjects:
                try:
                    db.execute("INSERT INTO subj VALUES (?, ?, ?, ?, ?)", row)
                except sqlite3.IntegrityError:  # a subject seen twice (not grouped): merge its rows
                    (n, roles, types, labels), = db.execute("SELECT n, roles, types, labels FROM subj WHERE iri = ?",
                                                            (row[0],))
                    db.execute("UPDATE subj SET n = ?, roles = ?, types = ?, labels = ? WHERE iri = ?",
                               (n + row[1], f"{roles},{row[2]}", json.dumps(json.loads(types) + json.loads(row[3])),
                                json.dumps(json.loads(labels) + json.loads(row[4])), row[0]))
            subjects.clear()

        current, count, roles, types, labels, vocabulary = None, 0, set(), [], ([], []), False

        def close_subject() -> None:
            if current is not None and vocabulary and not types:  # typed by RDF's own terms alone: the schema's
                schema_iris.add(current)
            if current is not None:  # a blank node is no entity
                subjects.append((current, count, ",".join(map(str, roles)), json.dumps(types),
                                 json.dumps([[p, t, lang] for p, items in enumerate(labels) for t, lang in items])))

        for s, p, o, kind, lang in store.scan():
            if s != current:
                close_subject()
                current, count, roles, types, labels, vocabulary = s, 0, set(), [], ([], []), False
                if len(subjects) + len(objects) >= FLUSH_ROWS:
                    flush()
            count += 1
            rel = relations.get(p)
            if kind == SCAN_IRI:  # the object is an IRI: its degree, and its role where the relation is the schema's
                role = 2 * rel + 1 if rel is not None and entity_objects[rel] else _NOT_A_ROLE
                objects[(o, role)] += 1
            elif kind == SCAN_LITERAL and rel is not None and text_objects[rel] and names_a_thing(o):
                objects[(text_value_iri(o, lang), 2 * rel + 1)] += 1  # a string that names a thing: an entity
            if s is None:
                continue
            if rel is not None:
                roles.add(2 * rel)
            if p == RDF_TYPE:
                name = class_named(o)
                if name is not None:
                    types.append(name)
                vocabulary = vocabulary or is_vocabulary(o)
            elif p in _LABEL_PREDICATES and o.strip():
                labels[_LABEL_PREDICATES.index(p)].append((o, lang))
        close_subject()
        flush()
        subjects_rows = db.execute("SELECT iri, n, roles, types, labels FROM subj ORDER BY iri")
        object_rows = db.cursor().execute("SELECT iri, rel, n FROM obj ORDER BY iri, rel")
        classes = EntityClasses(schema)
        for iri, out_degree, role_text, type_text, label_text, in_roles in _merged(subjects_rows, object_rows):
            if iri is None:
                continue
            role_ids = {int(x) for x in role_text.split(",") if x} | in_roles
            english: list[str] = []
            foreign: list[str] = []
            for _, text, lang in sorted(json.loads(label_text), key=lambda item: item[0]):  # rdfs:label first
                target = english if (lang or "en").startswith("en") else foreign
                if text not in target:
                    target.append(text)
            found = make_entity(iri, english, foreign, json.loads(type_text),
                            {role_of[r // 2][r % 2] for r in role_ids if r >= 0}, out_degree + in_roles.degree,
                            schema_iris, classes)
            if found is not None:
                yield found
    finally:
        db.close()
        scratch.unlink(missing_ok=True)


class _InRoles(set):
    """The roles an entity fills as an object, with the number of triples pointing at it."""

    degree = 0


def _merged(subjects, objects) -> Iterator[tuple]:
    """The subject rows and object tallies of each IRI, in IRI order: (iri, out-degree, roles, types, labels,
    roles and degree as an object)."""
    subject = next(subjects, None)
    obj = next(objects, None)
    while subject is not None or obj is not None:
        iri = min(x[0] for x in (subject, obj) if x is not None)
        row = (iri, 0, "", "[]", "[]")
        if subject is not None and subject[0] == iri:
            row, subject = subject, next(subjects, None)
        tally = _InRoles()
        while obj is not None and obj[0] == iri:
            if obj[1] >= 0:
                tally.add(obj[1])
            tally.degree += obj[2]
            obj = next(objects, None)
        yield (*row, tally)


# ------------------------------------------------------------------ any store: queries
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


def _selected(store: KGStore, schema: Schema) -> Iterator[Entity]:
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

    # --- the strings of relations to text that name a thing, each an entity (kg_adapters.text_values)
    degree_of: dict[str, int] = defaultdict(int)
    for rel in schema.relations:
        if schema.literal_kind(rel) == "text":
            query = f"SELECT ?o (COUNT(*) AS ?n) WHERE {{ ?s <{rel.iri}> ?o FILTER(isLiteral(?o)) }} GROUP BY ?o"
            for value, count in _select_all(store, query):
                if value is not None and count is not None and names_a_thing(value.value):
                    text = text_value_iri(value.value, value.lang)
                    roles_of[text].add(Role(rel.iri, OBJECT))
                    degree_of[text] += int(count.value)

    # --- declared types
    declared: dict[str, list[str]] = defaultdict(list)
    vocabulary_typed: set[str] = set()
    for x, c in _select_all(store, f"SELECT ?x ?c WHERE {{ ?x <{RDF_TYPE}> ?c FILTER(isIRI(?x)) }}"):
        if x is None or c is None:
            continue
        info = schema.class_(c.value)
        if info is not None and not info.is_literal:
            declared[x.value].append(info.name)
        elif is_vocabulary(c.value):
            vocabulary_typed.add(x.value)
    schema_iris |= vocabulary_typed - set(declared)  # typed by RDF's own terms alone: the schema's, as in `_scanned`

    # --- labels: English or untagged first; others only for entities without one
    found: dict[str, list[str]] = defaultdict(list)
    foreign: dict[str, list[str]] = defaultdict(list)
    for pred in _LABEL_PREDICATES:
        for x, text in _select_all(store, f"SELECT ?x ?l WHERE {{ ?x <{pred}> ?l FILTER(isIRI(?x)) }}"):
            if x is None or text is None or not text.value.strip():
                continue
            target = found if (text.lang or "en").startswith("en") else foreign
            if text.value not in target[x.value]:
                target[x.value].append(text.value)

    # --- popularity: triples each entity is part of (a tie-breaker; skipped if too costly)
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

    classes = EntityClasses(schema)
    for iri in sorted(set(found) | set(foreign) | set(roles_of) | set(declared)):
        entity = make_entity(iri, found.get(iri, []), foreign.get(iri, []), declared.get(iri, []),
                         roles_of.get(iri, set()), degree_of.get(iri, 0), schema_iris, classes)
        if entity is not None:
            yield entity
