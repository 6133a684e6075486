"""Run programs against a KG, memoizing every SPARQL execution on disk.

The memo key is the store's fingerprint plus the query text, so a changed KG (a new
fingerprint) can never be served another graph's answers; the cache has a size cap
and evicts the least recently used entries.

Every program answers with a tuple of `Answer`s, so that a UI lists any result the
same way. A set lists its members. The others answer with exactly one typed literal,
plus the value in a field of its own: COUNT `count` (xsd:integer), IN `boolean`
("yes"/"no", xsd:boolean), SUM and AVG `number` (xsd:decimal, rounded to
`SIGNIFICANT_DIGITS`). SUM and AVG over no values have no answer at all (an empty
tuple, `number` None): the average of nothing is not 0.
"""

from __future__ import annotations

import decimal
import hashlib
import time
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Callable

import diskcache

from kg_adapters.base import XSD, Bindings, KGStore, QueryError, QueryTimeout, StoreFault, Term
from kg_adapters.naming import local_name
from kg_adapters.schema import Schema

from .sexpr import (
    Aggregate,
    Count,
    In,
    Program,
    ProgramError,
    parse,
    to_text,
)
from .resolve import resolve
from .to_sparql import COUNT_VAR, NUMBER_VAR, to_sparql
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
    boolean: bool | None = None  # set for IN programs
    number: Decimal | None = None  # set for SUM and AVG programs that have an answer

    def to_json(self) -> dict:
        return {
            "program": self.program,
            "sparql": self.sparql,
            "answers": [{"iri": a.iri, "label": a.label} for a in self.answers],
            "count": self.count,
            "boolean": self.boolean,
            "number": None if self.number is None else _decimal_text(self.number),
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
        # Queries the store failed for reasons not their own (StoreFault), and timeouts: callers that swallow
        # query errors (exploration, the search) tell an outage or a slow store from "no answer" by these.
        self.faults = self.timeouts = 0
        self.last_fault: str | None = None
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
        try:
            result = self.store.select(sparql, timeout_s=self.timeout_s)
        except StoreFault as err:
            self.faults += 1
            self.last_fault = str(err)
            raise
        except QueryTimeout as err:
            self.timeouts += 1
            self.last_fault = str(err)
            raise
        self._cache.set(key, result)
        return result, False

    # ------------------------------------------------------------- programs
    def resolve(self, program: Program) -> Program:
        """Every entity written by label, with its IRI (`resolve`: a shared label goes to the entity that fits)."""
        return resolve(program, lambda sparql: self.select(sparql)[0], self.schema)

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
        reading = READINGS.get(type(resolved), _set_members)(bindings)
        return Execution(
            program=to_text(resolved),
            sparql=sparql,
            answers=reading.answers,
            count=reading.count,
            truncated=bindings.truncated,
            elapsed_ms=(time.perf_counter() - start) * 1000,
            cached=cached,
            boolean=reading.boolean,
            number=reading.number,
        )

    def close(self) -> None:
        self._cache.close()


# ------------------------------------------------------------------ reading the rows
SIGNIFICANT_DIGITS = 12  # of a SUM or AVG; past about 15 the stores' decimal arithmetic differs


@dataclass(frozen=True)
class _Reading:
    answers: tuple[Answer, ...]
    count: int | None = None
    boolean: bool | None = None
    number: Decimal | None = None


def _set_members(bindings: Bindings) -> _Reading:
    answers = [_answer(term, label) for term, label in bindings.rows if term is not None]
    answers.sort(key=lambda a: (a.label.lower(), a.iri or ""))
    return _Reading(tuple(answers))


def _count(bindings: Bindings) -> _Reading:
    value = bindings.column(COUNT_VAR)[0] if bindings.rows else None
    count = int(float(value.value)) if value is not None else 0
    return _Reading((Answer(str(count), None, XSD + "integer"),), count=count)


def _boolean(bindings: Bindings) -> _Reading:
    """IN: a row means the entity is a member."""
    member = bool(bindings.rows)
    return _Reading((Answer("yes" if member else "no", None, XSD + "boolean"),), boolean=member)


def _number(bindings: Bindings) -> _Reading:
    """SUM and AVG: no values, no answer (SPARQL would say 0, or Virtuoso nothing at all)."""
    row = dict(zip(bindings.vars, bindings.rows[0])) if bindings.rows else {}
    values, number = row.get(COUNT_VAR), row.get(NUMBER_VAR)
    if number is None or values is None or int(float(values.value)) == 0:
        return _Reading(())
    try:
        value = _rounded(Decimal(number.value))
    except decimal.InvalidOperation:
        raise QueryError(f"the store answered {number.value!r} for {NUMBER_VAR}, which is not a number") from None
    return _Reading((Answer(_decimal_text(value), None, XSD + "decimal"),), number=value)


READINGS: dict[type, Callable[[Bindings], _Reading]] = {Count: _count, In: _boolean, Aggregate: _number}


def _rounded(value: Decimal) -> Decimal:
    """Whole numbers stay exact; a fraction is cut to SIGNIFICANT_DIGITS, so both stores read alike."""
    if not value.is_finite() or value == value.to_integral_value():
        return value
    places = max(0, SIGNIFICANT_DIGITS - value.adjusted() - 1)
    return value.quantize(Decimal(1).scaleb(-places), context=decimal.Context(prec=80))


def _decimal_text(value: Decimal) -> str:
    """Plain notation with no trailing zeros: "273811.833333", "1642871", never "1.6E+6"."""
    return format(value.normalize(decimal.Context(prec=80)), "f") if value.is_finite() else str(value)


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
