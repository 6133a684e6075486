"""The label index on disk: one SQLite file per KG and schema, written in one pass, opened in milliseconds.

`write_index` takes the entities `labels.read_labels` yields (in IRI order) and writes, with a bounded amount
in memory whatever the KG's size:

    entity(id, iri, classes, degree, described)   classes: an id into classset (a JSON list of class names)
    record(id, entity, label)             one row per label; its normalised key and surface are derived
    keyrec(key, kind, record)             normalised key -> records (kind 0), and the variants: the key with
                                          its spaces removed (1), its leading "the" dropped (2), a "<head> of
                                          <noun>" turned about (3: "minister of health" -> "health minister")
    keys(pos, key, len, is_key)           every key and variant once, in the order the linker compares them
                                          (turned-about variants are for exact lookups only: not here)
    pool(len, keys)                       the keys and variants of each length, in that order (typos)
    sorted(id, keys)                      the keys in sorted order, a chunk a row ("did you mean")
    posting(word, pos)                    word -> the multi-word keys holding it (fuzzy blocking, name parts;
                                          the linker leaves out its stop words, which depend on the lexicon)
    vocab(word), acronym(initials, record), meta(name, value)

`LabelDB` reads it. Every lookup is an index seek; nothing is read whole at open. Records and entities read
are kept in small caches. The file is written to a scratch name and renamed into place when complete.

Plain B-tree tables rather than an FTS5 index: the linker asks for exact normalised keys, variants, a word's
multi-word keys and key prefixes, all of which are one index seek each; FTS5 would tokenise the keys again by
its own rules and give the same rows slower (measured in BENCHMARKS.md, "Scale").
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import uuid
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import NamedTuple

from rapidfuzz import fuzz, process

from .labels import Entity
from .name_forms import initials
from .words import normalise, surface

_BATCH = 20_000  # rows written per executemany
_CACHE = 200_000  # records / entities kept in memory after a read
_POOLS = 8  # lengths whose keys are kept after a typo was compared with them
_CHUNK = 50_000  # sorted keys a row
MAX_TOKENS = 12  # the longest label (in words) the linker tries to match as one span


class Record(NamedTuple):
    entity: int
    label: str
    surface: str


class Ent(NamedTuple):
    iri: str
    classes: tuple[str, ...]
    degree: int
    described: bool  # labels.Entity.described


TURNED_ABOUT = 3  # the keyrec kind of a turned-about variant (`turned_about`)
# The prepositions of an English "<head> of <noun>" name that people turn about into a compound: "Minister of
# Health" is "the health minister", "University of Leeds" "Leeds University", "Minister for the Environment" "the
# environment minister". English grammar, no domain.
_TURNING = frozenset({"of", "for"})


def turned_about(key: str) -> str | None:
    """The compound a normalised "<head> of|for [the] <noun>" label is said as ("health minister"), for heads and
    nouns of one or two words; None for any other label."""
    words = key.split()
    at = [i for i, w in enumerate(words) if w in _TURNING]
    if len(at) != 1 or not 1 <= at[0] <= 2:
        return None
    head, noun = words[:at[0]], words[at[0] + 1:]
    noun = noun[1:] if noun[:1] == ["the"] else noun
    if not 1 <= len(noun) <= 2 or "the" in head + noun:
        return None
    return " ".join(noun + head)


def write_index(path: Path, entities: Iterable[Entity]) -> None:
    """Write the index of `entities` (in IRI order) to `path`, atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.tmp{os.getpid()}-{uuid.uuid4().hex[:8]}")
    db = sqlite3.connect(tmp)
    try:
        fill(db, entities)
        db.close()
        os.replace(tmp, path)
    except BaseException:
        db.close()
        tmp.unlink(missing_ok=True)
        raise


def fill(db: sqlite3.Connection, entities: Iterable[Entity]) -> None:
    """Write the tables of the index of `entities` (in IRI order) into an empty database."""
    db.executescript("""
        PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA cache_size=-65536;
        CREATE TABLE meta(name TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
        CREATE TABLE classset(id INTEGER PRIMARY KEY, names TEXT);
        CREATE TABLE entity(id INTEGER PRIMARY KEY, iri TEXT NOT NULL, classes INTEGER, degree INTEGER,
                             described INTEGER);
        CREATE TABLE record(id INTEGER PRIMARY KEY, entity INTEGER, label TEXT);
        CREATE TABLE keyrec(key TEXT, kind INTEGER, record INTEGER, PRIMARY KEY(key, kind, record)) WITHOUT ROWID;
        CREATE TABLE vocab(word TEXT PRIMARY KEY) WITHOUT ROWID;
        CREATE TABLE acronym(initials TEXT, record INTEGER, PRIMARY KEY(initials, record)) WITHOUT ROWID;
        CREATE TABLE keys(pos INTEGER PRIMARY KEY, key TEXT NOT NULL, len INTEGER, is_key INTEGER);
        CREATE TABLE posting(word TEXT, pos INTEGER, PRIMARY KEY(word, pos)) WITHOUT ROWID;
        CREATE TABLE pool(len INTEGER PRIMARY KEY, keys TEXT);
        CREATE TABLE sorted(id INTEGER PRIMARY KEY, keys TEXT);
    """)
    classsets: dict[tuple[str, ...], int] = {}
    rows: dict[str, list[tuple]] = {name: [] for name in ("entity", "record", "keyrec", "vocab", "acronym")}
    inserts = {
        "entity": "INSERT INTO entity VALUES (?, ?, ?, ?, ?)",
        "record": "INSERT INTO record VALUES (?, ?, ?)",
        "keyrec": "INSERT OR IGNORE INTO keyrec VALUES (?, ?, ?)",
        "vocab": "INSERT OR IGNORE INTO vocab VALUES (?)",
        "acronym": "INSERT OR IGNORE INTO acronym VALUES (?, ?)",
    }

    def flush() -> None:
        for name, batch in rows.items():
            db.executemany(inserts[name], batch)
            batch.clear()

    e = r = 0
    max_tokens = 1
    for entity in entities:
        cls = classsets.setdefault(entity.classes, len(classsets))
        rows["entity"].append((e, entity.iri, cls, entity.degree, int(entity.described)))
        for label in entity.labels:
            key = normalise(label)
            if not key:
                continue
            rows["record"].append((r, e, label))
            rows["keyrec"].append((key, 0, r))
            words = key.split()
            rows["vocab"].extend((w,) for w in words)
            max_tokens = max(max_tokens, len(words))
            compact = key.replace(" ", "")
            if compact != key and len(compact) >= 4:
                rows["keyrec"].append((compact, 1, r))
            if key.startswith("the ") and len(key) > 6:
                rows["keyrec"].append((key[4:], 2, r))
            turned = turned_about(key)
            if turned:
                rows["keyrec"].append((turned, TURNED_ABOUT, r))
            letters = initials(surface(label))
            if letters:
                rows["acronym"].append((letters, r))
            r += 1
        e += 1
        if len(rows["keyrec"]) >= _BATCH:
            flush()
    flush()
    db.executemany("INSERT INTO classset VALUES (?, ?)", [(i, json.dumps(c)) for c, i in classsets.items()])
    # every key once, keys first in the order of their first record, then variants (as dict.fromkeys did)
    db.execute(f"""
        INSERT INTO keys(key, len, is_key)
        SELECT key, length(key), MIN(kind) = 0 FROM keyrec WHERE kind != {TURNED_ABOUT} GROUP BY key
        ORDER BY MIN(CASE WHEN kind = 0 THEN record END) IS NULL, MIN(CASE WHEN kind = 0 THEN record END),
                 MIN(CASE WHEN kind > 0 THEN 2 * record + kind - 1 END)""")
    postings: list[tuple[str, int]] = []
    for pos, key in db.execute("SELECT pos, key FROM keys WHERE key LIKE '% %' ORDER BY pos"):
        postings.extend((word, pos) for word in set(key.split()))
        if len(postings) >= _BATCH:
            db.executemany("INSERT INTO posting VALUES (?, ?)", postings)
            postings.clear()
    db.executemany("INSERT INTO posting VALUES (?, ?)", postings)
    # the keys of each length in one row, in key order: a typo is compared with every key of a near length
    db.execute("CREATE INDEX keys_len ON keys(len, pos)")
    length, pool = None, []
    for n, key in db.execute("SELECT len, key FROM keys ORDER BY len, pos"):
        if n != length and pool:
            db.execute("INSERT INTO pool VALUES (?, ?)", (length, "\n".join(pool)))
            pool = []
        length = n
        pool.append(key)
    if pool:
        db.execute("INSERT INTO pool VALUES (?, ?)", (length, "\n".join(pool)))
    db.execute("DROP INDEX keys_len")
    # the keys (not variants) in sorted order, a chunk a row: "did you mean" compares a text with them all
    chunk: list[str] = []
    for (key,) in db.execute("SELECT key FROM keys WHERE is_key = 1 ORDER BY key"):
        chunk.append(key)
        if len(chunk) == _CHUNK:
            db.execute("INSERT INTO sorted(keys) VALUES (?)", ("\n".join(chunk),))
            chunk = []
    if chunk:
        db.execute("INSERT INTO sorted(keys) VALUES (?)", ("\n".join(chunk),))
    db.executemany("INSERT INTO meta VALUES (?, ?)", [("labels", str(r)), ("entities", str(e)),
                                                      ("max_tokens", str(min(max_tokens, MAX_TOKENS)))])
    db.executescript("""
        CREATE UNIQUE INDEX entity_iri ON entity(iri);
        CREATE INDEX record_entity ON record(entity, id);
        CREATE UNIQUE INDEX keys_key ON keys(key, is_key);
    """)
    db.commit()


class LabelDB:
    """Read access to one index; safe to share between threads (one connection, one lock)."""

    def __init__(self, path: Path | sqlite3.Connection):
        """Open an index file read-only, or read a database `fill` has written (in memory, say)."""
        self._db = path if isinstance(path, sqlite3.Connection) else sqlite3.connect(
            f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True, check_same_thread=False)
        self._lock = threading.Lock()
        meta = dict(self._db.execute("SELECT name, value FROM meta"))
        self.labels, self.entities = int(meta["labels"]), int(meta["entities"])
        self.max_tokens = int(meta["max_tokens"])
        self._classsets = {i: tuple(json.loads(names))
                           for i, names in self._db.execute("SELECT id, names FROM classset")}
        self._records: dict[int, Record] = {}
        self._ents: dict[int, Ent] = {}
        self._pools: dict[int, list[str]] = {}

    def _all(self, sql: str, args: tuple = ()) -> list[tuple]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    # ------------------------------------------------------------ records and entities
    def record(self, r: int) -> Record:
        found = self._records.get(r)
        if found is None:
            ((e, label),) = self._all("SELECT entity, label FROM record WHERE id = ?", (r,))
            found = Record(e, label, surface(label))
            self._keep(self._records, r, found)
        return found

    def entity(self, e: int) -> Ent:
        found = self._ents.get(e)
        if found is None:
            ((iri, cls, degree, described),) = self._all(
                "SELECT iri, classes, degree, described FROM entity WHERE id = ?", (e,))
            found = Ent(iri, self._classsets[cls], degree, bool(described))
            self._keep(self._ents, e, found)
        return found

    def described(self, iri: str | None) -> bool:
        """Whether the entity has facts of its own (`labels.Entity.described`)."""
        e = self.entity_of(iri) if iri else None
        return e is not None and self.entity(e).described

    def entity_of(self, iri: str) -> int | None:
        found = self._all("SELECT id FROM entity WHERE iri = ?", (iri,))
        return found[0][0] if found else None

    def first_label(self, e: int) -> str | None:
        found = self._all("SELECT label FROM record WHERE entity = ? ORDER BY id LIMIT 1", (e,))
        return found[0][0] if found else None

    # ------------------------------------------------------------ keys
    def records(self, key: str) -> list[int]:
        """The records whose normalised label is `key`, in record order."""
        return [r for (r,) in self._all("SELECT record FROM keyrec WHERE key = ? AND kind = 0 ORDER BY record", (key,))]

    def variant_records(self, key: str) -> list[int]:
        """The records with `key` as a variant (spaces removed, "the" dropped), in record order."""
        return [r for (r,) in self._all("SELECT record FROM keyrec WHERE key = ? AND kind > 0 ORDER BY record",
                                        (key,))]

    def in_vocab(self, word: str) -> bool:
        return bool(self._all("SELECT 1 FROM vocab WHERE word = ?", (word,)))

    def postings(self, word: str) -> list[str] | None:
        """The multi-word keys (and variants) holding this content word, in key order; None: no such word."""
        found = self._all("SELECT k.key FROM posting p JOIN keys k ON k.pos = p.pos WHERE p.word = ? ORDER BY p.pos",
                          (word,))
        return [k for (k,) in found] or None

    def keys_of_length(self, n: int) -> list[str]:
        """Keys and variants of `n` characters, in key order (the last few lengths read are kept)."""
        found = self._pools.get(n)
        if found is None:
            rows = self._all("SELECT keys FROM pool WHERE len = ?", (n,))
            found = rows[0][0].split("\n") if rows else []
            with self._lock:
                self._pools[n] = found
                while len(self._pools) > _POOLS:
                    self._pools.pop(next(iter(self._pools)))
        return found

    def records_of_keys(self, keys: list[str]) -> list[list[int]]:
        """The records of each of `keys` (as `records` gives them), read at once."""
        found: dict[str, list[int]] = {}
        rows = self._all("SELECT kr.key, r.id, r.entity, r.label FROM json_each(?) j JOIN keyrec kr "
                         "ON kr.key = j.value AND kr.kind = 0 JOIN record r ON r.id = kr.record ORDER BY kr.key, r.id",
                         (json.dumps(keys),))
        for key, r, e, label in rows:
            found.setdefault(key, []).append(r)
            self._keep(self._records, r, Record(e, label, surface(label)))
        return [found.get(key, []) for key in keys]

    def prefetch(self, records: Iterable[int] = (), entities: Iterable[int] = ()) -> None:
        """Read these records and entities at once, where not read yet."""
        wanted = [r for r in records if r not in self._records]
        if wanted:
            for r, e, label in self._all("SELECT r.id, r.entity, r.label FROM json_each(?) j JOIN record r "
                                         "ON r.id = j.value", (json.dumps(wanted),)):
                self._keep(self._records, r, Record(e, label, surface(label)))
        wanted = [e for e in entities if e not in self._ents]
        if wanted:
            for e, iri, cls, degree, described in self._all(
                    "SELECT x.id, x.iri, x.classes, x.degree, x.described FROM json_each(?) j "
                    "JOIN entity x ON x.id = j.value", (json.dumps(wanted),)):
                self._keep(self._ents, e, Ent(iri, self._classsets[cls], degree, bool(described)))

    @staticmethod
    def _keep(cache: dict, key: int, value) -> None:
        if len(cache) >= _CACHE:
            cache.clear()
        cache[key] = value

    def keys_starting(self, prefix: str, longer_by: int) -> list[str]:
        """Keys (not variants) that begin with `prefix` and are at most `longer_by` characters longer, sorted."""
        if not prefix:
            return []
        upper = prefix[:-1] + chr(ord(prefix[-1]) + 1) if ord(prefix[-1]) < 0x10FFFF else None
        sql = "SELECT key FROM keys WHERE key >= ? AND is_key = 1 AND length(key) <= ?"
        args: tuple = (prefix, len(prefix) + longer_by)
        if upper is not None:
            sql, args = sql + " AND key < ?", (*args, upper)
        return [k for (k,) in self._all(sql + " ORDER BY key", args) if k.startswith(prefix)]

    def sorted_keys(self) -> Iterator[list[str]]:
        """Every key (not variants) in sorted order, a chunk at a time."""
        for (chunk,) in self._all("SELECT id FROM sorted ORDER BY id"):
            yield self._all("SELECT keys FROM sorted WHERE id = ?", (chunk,))[0][0].split("\n")

    def closest(self, key: str, n: int) -> list[str]:
        """The labels whose keys lie nearest a normalised `key`. Every key is compared, a chunk at a time, keeping
        what one `process.extract` over them all would."""
        if not key:
            return []
        hits: list[tuple[str, float, int]] = []
        offset = 0
        for keys in self.sorted_keys():
            hits += [(k, score, offset + i) for k, score, i in process.extract(key, keys, scorer=fuzz.ratio,
                                                                              limit=n * 3)]
            hits = sorted(hits, key=lambda h: (-h[1], h[2]))[: n * 3]
            offset += len(keys)
        ranked = [k for k, _, _ in sorted(hits, key=lambda h: (-h[1], abs(len(h[0]) - len(key)), h[0]))]
        out: list[str] = []
        for k in ranked:
            for r in self.records(k):
                label = self.record(r).label
                if label not in out:
                    out.append(label)
        return out[:n]

    def acronym(self, letters: str) -> list[int]:
        return [r for (r,) in self._all("SELECT record FROM acronym WHERE initials = ? ORDER BY record", (letters,))]

    def close(self) -> None:
        with self._lock:
            self._db.close()
