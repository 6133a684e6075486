"""Run programs against a KG, memoizing every SPARQL execution on disk.

The memo key is the store's fingerprint plus the query text, so a changed KG (a new
fingerprint) can never be served another graph's answers; the cache has a size cap
and evicts the least recently used entries.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, replace
from pathlib import Path

import diskcache

from kg_adapters.base import Bindings, KGStore, Term
from kg_adapters.naming import local_name
from kg_adapters.schema import Schema

from .sexpr import (
    Count,
    Entity,
    Program,
    ProgramError,
    entities,
    parse,
    to_text,
    transform,
)
from .to_sparql import COUNT_VAR, label_lookup_sparql, to_sparql
from .validate import validate


@dataclass(frozen=True)
class Answer:
    label: str
    iri: str | None = None  # None for literal values and counts
    datatype: str | None = None


@dataclass(frozen=True)
class Execution:
    program: str
    sparql: str
    answers: tuple[Answer, ...]
    count: int | None  # set for COUNT programs
    truncated: bool
    elapsed_ms: float
    cached: bool

    def to_json(self) -> dict:
        return {
            "program": self.program,
            "sparql": self.sparql,
            "answers": [{"iri": a.iri, "label": a.label} for a in self.answers],
            "count": self.count,
            "truncated": self.truncated,
        }


class Executor:
    """Compiles and runs programs on one store with one schema."""

    def __init__(
        self,
        store: KGStore,
        schema: Schema,
        cache_dir: str | Path,
        cache_bytes: int = 512 * 1024 * 1024,
        timeout_s: float | None = 20.0,
    ):
        self.store = store
        self.schema = schema
        self.timeout_s = timeout_s
        self._fingerprint = store.info.fingerprint
        self._cache = diskcache.Cache(
            str(Path(cache_dir) / "executions"), size_limit=cache_bytes, eviction_policy="least-recently-used"
        )

    # ------------------------------------------------------------- SPARQL
    def select(self, sparql: str) -> tuple[Bindings, bool]:
        """(result, served from cache). Failures and timeouts are never cached."""
        key = hashlib.sha256(f"{self._fingerprint}\x00{sparql}".encode()).hexdigest()
        hit = self._cache.get(key)
        if hit is not None:
            return hit, True
        result = self.store.select(sparql, timeout_s=self.timeout_s)
        self._cache.set(key, result)
        return result, False

    # ------------------------------------------------------------- programs
    def resolve(self, program: Program) -> Program:
        """Give every entity written by label its IRI; an unknown label is a ProgramError."""
        labels = sorted({e.ref for e in entities(program) if not e.is_iri and e.iri is None})
        if not labels:
            return program
        found: dict[str, str] = {}
        for row in self.select(label_lookup_sparql(labels))[0].rows:
            entity, label = row
            if entity is not None and label is not None and entity.is_iri:
                current = found.get(label.value)
                found[label.value] = min(current, entity.value) if current else entity.value
        missing = [e for e in entities(program) if not e.is_iri and e.iri is None and e.ref not in found]
        if missing:
            raise ProgramError(f"no entity is labelled {missing[0].ref!r}", missing[0].pos)
        return transform(
            program,
            lambda n: replace(n, iri=found[n.ref]) if isinstance(n, Entity) and not n.is_iri and n.iri is None else n,
        )

    def compile(self, program: Program | str) -> tuple[Program, str]:
        parsed = parse(program) if isinstance(program, str) else program
        try:
            validate(parsed, self.schema)
            resolved = self.resolve(parsed)
            return resolved, to_sparql(resolved, self.schema)
        except ProgramError as err:
            raise err.with_text(program if isinstance(program, str) else to_text(parsed)) from None

    def execute(self, program: Program | str) -> Execution:
        start = time.perf_counter()
        resolved, sparql = self.compile(program)
        bindings, cached = self.select(sparql)
        answers, count = _answers(bindings, isinstance(resolved, Count))
        return Execution(
            program=to_text(resolved),
            sparql=sparql,
            answers=answers,
            count=count,
            truncated=bindings.truncated,
            elapsed_ms=(time.perf_counter() - start) * 1000,
            cached=cached,
        )

    def close(self) -> None:
        self._cache.close()


def _answers(bindings: Bindings, is_count: bool) -> tuple[tuple[Answer, ...], int | None]:
    if is_count:
        value = bindings.column(COUNT_VAR)[0] if bindings.rows else None
        count = int(float(value.value)) if value is not None else 0
        return (Answer(str(count)),), count
    answers = []
    for term, label in bindings.rows:
        if term is not None:
            answers.append(_answer(term, label))
    answers.sort(key=lambda a: (a.label.lower(), a.iri or ""))
    return tuple(answers), None


def _answer(term: Term, label: Term | None) -> Answer:
    if term.is_literal:
        return Answer(_canonical_number(term), None, term.datatype)
    return Answer(label.value if label is not None else local_name(term.value), term.value)


def _canonical_number(term: Term) -> str:
    """Numbers in one written form ("+05" -> "5", "2.50" -> "2.5"), whatever the store kept."""
    datatype = term.datatype or ""
    try:
        if datatype.endswith("#integer"):
            return str(int(term.value))
        if datatype.endswith("#decimal") and "." in term.value:
            return term.value.strip().lstrip("+").rstrip("0").rstrip(".") or "0"
    except ValueError:
        pass
    return term.value
