"""The embedded KG: a pyoxigraph (RocksDB) store persisted on disk.

A file is parsed once. Its store lives under `<cache_root>/stores/<content hash>/`,
so a restart opens it in milliseconds, and a changed file gets a new store (and a
new fingerprint) instead of stale answers. A store is built in a scratch folder and
renamed into place only when complete: a failed load never leaves a half-built
store where a good one is looked for.

Every query has a time limit (`timeout_s` unless the call names another) and a row
limit (`max_rows`, `truncated` beyond it). pyoxigraph cannot cancel a query, so one
that overruns is abandoned to a worker thread: it stops at its next row, but an
aggregate or a sort that is still computing its first row runs to its end (at most
`MAX_RUNAWAY_QUERIES` at a time).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pyoxigraph as ox

from .base import Bindings, KGError, LoadError, QueryError, QueryTimeout, StoreInfo, Term
from .loader import (DEFAULT_MAX_BYTES, DEFAULT_MAX_PREDICATES, DEFAULT_MAX_TRIPLES, CheckedFile, ParsedGraph, bulk_load,
                     load_file, sniff_format)

# Bump when the loader's output for the same file changes, so old stores are not reused; a change that only one
# format's reading makes bumps that format alone in FORMAT_VERSIONS, so the stores (and the fingerprints, which
# corpora are bound to) of the other formats stay as they were.
STORE_FORMAT_VERSION = "1"
FORMAT_VERSIONS = {"delimited": "2"}  # 2: yes/no flags are xsd:boolean
DEFAULT_CACHE_ROOT = Path.home() / ".cache" / "kgscout"
DEFAULT_MAX_ROWS = 100_000
USE_AN_ENDPOINT = ("For a graph this large, load it into a SPARQL endpoint (Virtuoso, QLever, or any SPARQL 1.1 "
                   "server) and connect KG Scout to its URL.")
DEFAULT_TIMEOUT_S = 20.0
MAX_RUNAWAY_QUERIES = 2  # abandoned queries allowed to run on before new ones must wait
SCAN_IRI, SCAN_LITERAL, SCAN_BNODE = 0, 1, 2  # object kinds of `OxigraphStore.scan`


def file_sha256(path: str | os.PathLike) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


class OxigraphStore:
    """A read-only view of one loaded graph; see the module docstring for the life cycle."""

    def __init__(self, store: ox.Store, info: StoreInfo, max_rows: int = DEFAULT_MAX_ROWS,
                 timeout_s: float = DEFAULT_TIMEOUT_S):
        self._store = store
        self._info = info
        self.max_rows = max_rows
        self.timeout_s = timeout_s
        self._runaways: list[threading.Thread] = []  # queries abandoned at their deadline, still running

    # ----------------------------------------------------------------- opening
    @classmethod
    def from_file(
        cls,
        path: str | os.PathLike,
        cache_root: str | os.PathLike | None = None,
        max_bytes: int = DEFAULT_MAX_BYTES,
        max_predicates: int = DEFAULT_MAX_PREDICATES,
        max_triples: int = DEFAULT_MAX_TRIPLES,
        on_progress: Callable[[int, int], None] | None = None,
        **limits: float,
    ) -> "OxigraphStore":
        """Open the store for this file, building it on first use; `limits`: `timeout_s`, `max_rows`.
        `on_progress(bytes read, bytes in all)` follows a bulk load (N-Triples, Turtle, RDF/XML)."""
        path = Path(path)
        if not path.is_file():
            raise LoadError(f"no such file: {path}", path=str(path))
        size = path.stat().st_size
        if size > max_bytes:
            raise LoadError(f"file is {size / 1e6:.1f} MB; the limit is {max_bytes / 1e6:.0f} MB. {USE_AN_ENDPOINT}",
                            path=str(path))
        sha = file_sha256(path)
        root = Path(cache_root or DEFAULT_CACHE_ROOT) / "stores"
        target = root / f"{sha[:24]}-v{format_version(sniff_format(path))}"
        if not (target / "READY").is_file():
            source = load_file(path, max_bytes=max_bytes, max_predicates=max_predicates)
            _build(source, target, Limits(max_predicates, max_triples), on_progress)
        return cls.open(target, **limits)

    @classmethod
    def from_parsed(cls, parsed: ParsedGraph, cache_root: str | os.PathLike | None = None) -> "OxigraphStore":
        root = Path(cache_root or DEFAULT_CACHE_ROOT) / "stores"
        target = root / f"{parsed.sha256[:24]}-v{format_version(parsed.format)}"
        if not (target / "READY").is_file():
            _build(parsed, target)
        return cls.open(target)

    @classmethod
    def open(cls, folder: str | os.PathLike, **limits: float) -> "OxigraphStore":
        folder = Path(folder)
        meta = json.loads((folder / "READY").read_text())
        store = ox.Store.read_only(str(folder / "db"))
        info = StoreInfo(
            name=meta["name"],
            kind="embedded",
            location=meta["source"],
            fingerprint=meta["fingerprint"],
            triples=meta["triples"],
            extra={"format": meta["format"], "folder": str(folder)},
        )
        return cls(store, info, **limits)

    @classmethod
    def in_memory(cls, parsed: ParsedGraph) -> "OxigraphStore":
        """A throwaway store, for tests and tiny uploads that need no persistence."""
        store = ox.Store()
        store.bulk_extend(ox.Quad(t.subject, t.predicate, t.object) for t in parsed.triples)
        return cls(store, _info_for(parsed, location=parsed.source))

    # ----------------------------------------------------------------- querying
    @property
    def info(self) -> StoreInfo:
        return self._info

    def select(self, sparql: str, timeout_s: float | None = None) -> Bindings:
        """Run a SELECT within `timeout_s` (None: the store's own `timeout_s`; never without a limit).

        pyoxigraph has no cancel, but it releases the GIL while it evaluates, so the
        query runs in a worker thread and the caller stops waiting at the deadline.
        An abandoned query stops at its next row (`_select` reads the deadline); one
        still computing its first row finishes in the background, its result dropped.
        """
        timeout_s = self.timeout_s if timeout_s is None else timeout_s
        self._wait_for_runaways(timeout_s)
        outcome: dict[str, object] = {}
        deadline = time.monotonic() + timeout_s

        def work() -> None:
            try:
                outcome["result"] = self._select(sparql, deadline)
            except BaseException as err:  # handed to the caller below
                outcome["error"] = err

        worker = threading.Thread(target=work, name="oxigraph-query", daemon=True)
        worker.start()
        worker.join(timeout_s)
        if worker.is_alive():
            self._runaways.append(worker)
        if worker.is_alive() or isinstance(outcome.get("error"), _PastDeadline):
            raise QueryTimeout(f"query ran past {timeout_s:g} s")
        if "error" in outcome:
            raise outcome["error"]
        return outcome["result"]

    def _wait_for_runaways(self, timeout_s: float) -> None:
        """Abandoned queries still use CPU and memory; never let more than a few pile up."""
        self._runaways = [t for t in self._runaways if t.is_alive()]
        while len(self._runaways) >= MAX_RUNAWAY_QUERIES:
            oldest = self._runaways[0]
            oldest.join(timeout_s)
            if oldest.is_alive():
                raise QueryTimeout("the store is still busy with earlier queries that ran past their deadline")
            self._runaways = [t for t in self._runaways if t.is_alive()]

    def _select(self, sparql: str, deadline: float) -> Bindings:
        start = time.perf_counter()
        try:
            solutions = self._store.query(sparql)
        except (SyntaxError, ValueError, OSError) as err:
            raise QueryError(f"query failed: {err}") from err
        if not isinstance(solutions, ox.QuerySolutions):
            raise QueryError("only SELECT queries are supported here")
        names = tuple(v.value for v in solutions.variables)
        rows: list[tuple[Term | None, ...]] = []
        truncated = False
        solution = None
        try:
            for solution in solutions:
                if len(rows) >= self.max_rows:
                    truncated = True
                    break
                if time.monotonic() > deadline:  # abandoned by `select`: stop reading
                    raise _PastDeadline()
                rows.append(tuple(_term(solution[i]) for i in range(len(names))))
        except (OSError, ValueError) as err:
            raise QueryError(f"query failed: {err}") from err
        finally:
            # pyoxigraph's result objects may be dropped only on the thread that made them, and an error's
            # traceback would carry this frame, with them, to the caller's thread ("PyQuerySolutions is
            # unsendable, but is being dropped on another thread", seen under chat load)
            solutions = solution = None
        return Bindings(names, tuple(rows), truncated, (time.perf_counter() - start) * 1000)

    def scan(self) -> Iterator[tuple[str | None, str, str, int, str | None]]:
        """Every triple of the default graph, grouped by subject, as plain values: (subject IRI or None for a
        blank node, predicate IRI, object value, object kind: SCAN_IRI / SCAN_LITERAL / SCAN_BNODE, object
        language or None). A stream read off the store's index with no row limit and no time limit, for
        one pass over a large graph (engine.answer.labels reads the label index so)."""
        iri, literal = ox.NamedNode, ox.Literal
        for s, p, o, _ in self._store.quads_for_pattern(None, None, None, ox.DefaultGraph()):
            kind = SCAN_IRI if type(o) is iri else SCAN_LITERAL if type(o) is literal else SCAN_BNODE
            yield (s.value if type(s) is iri else None, p.value, o.value, kind,
                   o.language if kind == SCAN_LITERAL else None)

    def close(self) -> None:
        self._store = None  # RocksDB closes when the last reference goes


class _PastDeadline(Exception):
    """A query's worker stops at its deadline; `select` reports it as QueryTimeout."""


def _term(node: object) -> Term | None:
    if node is None:
        return None
    if isinstance(node, ox.NamedNode):
        return Term("iri", node.value)
    if isinstance(node, ox.Literal):
        return Term("literal", node.value, node.datatype.value, node.language)
    if isinstance(node, ox.BlankNode):
        return Term("bnode", node.value)
    raise KGError(f"unexpected term in result: {node!r}")


def format_version(fmt: str | None) -> str:
    """The version of what the loader makes of a file of this format (None: not known before reading)."""
    return FORMAT_VERSIONS.get(fmt or "", STORE_FORMAT_VERSION)


def _info_for(parsed: ParsedGraph | CheckedFile, location: str) -> StoreInfo:
    return StoreInfo(
        name=Path(parsed.source).name,
        kind="embedded",
        location=location,
        fingerprint=f"oxigraph:{parsed.sha256}:v{format_version(parsed.format)}",
        triples=len(parsed.triples) if isinstance(parsed, ParsedGraph) else 0,  # a built store counts its own
        extra={"format": parsed.format},
    )


@dataclass(frozen=True)
class Limits:
    """What a built store may hold; checked before the store is renamed into place."""

    max_predicates: int = DEFAULT_MAX_PREDICATES
    max_triples: int = DEFAULT_MAX_TRIPLES


def _fill(store: ox.Store, source: ParsedGraph | CheckedFile, limits: Limits,
          on_progress: Callable[[int, int], None] | None) -> None:
    """Bulk-load checked bytes where the format allows, else insert the parsed triples; refuse past the limit."""
    if isinstance(source, CheckedFile):
        bulk_load(source, store, limits.max_predicates, on_progress)
    else:
        store.bulk_extend(ox.Quad(t.subject, t.predicate, t.object) for t in source.triples)
    if len(store) > limits.max_triples:
        raise LoadError(f"the file has {len(store):,} triples; the limit is {limits.max_triples:,} (the setting "
                        f"max_triples). {USE_AN_ENDPOINT}", path=source.source)


def _build(parsed: ParsedGraph | CheckedFile, target: Path, limits: Limits = Limits(),
           on_progress: Callable[[int, int], None] | None = None) -> None:
    """Write the store into a scratch folder, then rename it into place in one step."""
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.exists() and not (target / "READY").is_file():
        shutil.rmtree(target, ignore_errors=True)  # a folder without its marker is not trusted
    scratch = target.parent / f".{target.name}.tmp-{os.getpid()}-{time.time_ns()}"
    try:
        scratch.mkdir()
        store = ox.Store(str(scratch / "db"))
        _fill(store, parsed, limits, on_progress)
        store.flush()
        triples = len(store)
        del store
        info = _info_for(parsed, location=parsed.source)
        meta = {
            "name": info.name,
            "source": str(parsed.source),
            "fingerprint": info.fingerprint,
            "triples": triples,
            "format": parsed.format,
        }
        (scratch / "READY").write_text(json.dumps(meta))
        try:
            os.replace(scratch, target)
        except OSError:
            if not (target / "READY").is_file():  # not a lost race with another process
                raise
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
