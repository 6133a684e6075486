"""The one interface every knowledge graph sits behind.

The engine talks to a KG only through `KGStore.select`, so the embedded pyoxigraph
store and a remote SPARQL endpoint are interchangeable; neither leaks its client
library past this layer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
RDFS_COMMENT = "http://www.w3.org/2000/01/rdf-schema#comment"
RDFS_DOMAIN = "http://www.w3.org/2000/01/rdf-schema#domain"
RDFS_RANGE = "http://www.w3.org/2000/01/rdf-schema#range"
RDFS_CLASS = "http://www.w3.org/2000/01/rdf-schema#Class"
RDF_PROPERTY = "http://www.w3.org/1999/02/22-rdf-syntax-ns#Property"
OWL_CLASS = "http://www.w3.org/2002/07/owl#Class"
OWL_OBJECT_PROPERTY = "http://www.w3.org/2002/07/owl#ObjectProperty"
OWL_DATATYPE_PROPERTY = "http://www.w3.org/2002/07/owl#DatatypeProperty"
SKOS_PREF_LABEL = "http://www.w3.org/2004/02/skos/core#prefLabel"
SKOS_DEFINITION = "http://www.w3.org/2004/02/skos/core#definition"
XSD = "http://www.w3.org/2001/XMLSchema#"
# Characters an IRIREF of the SPARQL grammar may not hold, and lone surrogates, which no store or HTTP request can
# encode: an IRI with one could end the term and start SPARQL, so such an IRI is never written into a query.
IRI_FORBIDDEN = re.compile(r'[\x00-\x20<>"{}|^`\\\ud800-\udfff]')

# Predicates that describe the graph rather than relate its entities, beyond RDF's own vocabulary (`is_vocabulary`).
ANNOTATION_PREDICATES = frozenset({SKOS_PREF_LABEL, SKOS_DEFINITION})


# The namespaces of RDF's own vocabulary. An OWL tool's export (Protégé) types its header `owl:Ontology`, every
# individual `owl:NamedIndividual` too, and states `owl:versionInfo`, `owl:disjointWith`, `rdfs:seeAlso`: none of it is
# the user's data, so no type of these namespaces is a class, no predicate of them a relation, and a node typed by them
# alone (the ontology's header, labelled with the KG's own name) is no entity a question can name.
VOCABULARY_NAMESPACES = (
    "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "http://www.w3.org/2000/01/rdf-schema#",
    "http://www.w3.org/2002/07/owl#",
)


def is_vocabulary(iri: str) -> bool:
    """Whether an IRI is a term of RDF, RDFS or OWL themselves (`VOCABULARY_NAMESPACES`)."""
    return iri.startswith(VOCABULARY_NAMESPACES)


class KGError(Exception):
    """Base of every error a KG adapter raises; its message is meant for the user."""


class LoadError(KGError):
    """A file could not be loaded. `line` is 1-based where the problem has one."""

    def __init__(self, message: str, line: int | None = None, path: str | None = None):
        self.line = line
        self.path = path
        where = f"line {line}: " if line is not None else ""
        super().__init__(f"{where}{message}")


class QueryError(KGError):
    """The store rejected a query (syntax, unsupported feature, server error)."""


class QueryTimeout(KGError):
    """A query ran past its time limit."""


class StoreFault(KGError):
    """The store gave nothing usable for a reason that is not the query's: it could not be reached, or it
    answered with garbage. Unlike a refused query or a timeout, asking again later may work, so nothing
    learnt during the fault is kept as if it were the graph's answer (no memo, no shrunken exploration)."""


class EndpointUnreachable(StoreFault):
    """A remote endpoint could not be reached after the configured retries."""


class BadAnswer(QueryError, StoreFault):
    """An endpoint answered, but not with SPARQL results (an error page, garbage, a malformed row)."""


class EndpointRefused(KGError):
    """An endpoint URL the app will not open for a user: not http(s), or an address inside (kg_adapters.url_guard)."""


@dataclass(frozen=True)
class Term:
    """One RDF term in a result row, independent of any client library."""

    kind: str  # "iri" | "literal" | "bnode"
    value: str
    datatype: str | None = None
    lang: str | None = None

    @property
    def is_iri(self) -> bool:
        return self.kind == "iri"

    @property
    def is_literal(self) -> bool:
        return self.kind == "literal"


@dataclass(frozen=True)
class Bindings:
    """A SELECT result: rows of terms (None where a variable is unbound)."""

    vars: tuple[str, ...]
    rows: tuple[tuple[Term | None, ...], ...]
    truncated: bool = False
    elapsed_ms: float = 0.0

    def column(self, var: str) -> list[Term | None]:
        i = self.vars.index(var)
        return [row[i] for row in self.rows]


@dataclass(frozen=True)
class StoreInfo:
    """What a store says about itself, for fingerprints and the UI."""

    name: str
    kind: str  # "embedded" | "endpoint"
    location: str
    fingerprint: str
    triples: int | None = None
    extra: dict = field(default_factory=dict)


@runtime_checkable
class KGStore(Protocol):
    """A knowledge graph that answers SPARQL 1.1 SELECT queries.

    `fingerprint` identifies the graph's content: two stores with the same
    fingerprint must give the same answers, and any change to the data must change
    it, because execution caches are keyed on it.
    """

    @property
    def info(self) -> StoreInfo: ...

    def select(self, sparql: str, timeout_s: float | None = None) -> Bindings: ...

    def close(self) -> None: ...
