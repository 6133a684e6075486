"""`python -m bench.scale --endpoint`: the same synthetic KG behind a SPARQL endpoint, linked per question.

For each size, after the embedded store's measurements, the same N-Triples file is bulk-loaded into a private
Virtuoso on loopback (tests/virtuoso.py: its own database and ports, the Debian package as in the tests) and:

* load: Virtuoso's bulk loader (`ld_dir`, `rdf_loader_run`), then its free-text index over the literals
  (`RDF_OBJ_FT_RULE_ADD`, off by default in Virtuoso);
* linking with the text index: engine.answer.remote_labels over `bif:contains`, the same 50 questions as the
  embedded store's linking, median and p90 (the words looked up are forgotten before each question, so each is
  timed as if first asked);
* linking without it (`FILTER(CONTAINS(LCASE(STR(?l)), ...))`, what any SPARQL 1.1 endpoint answers), on the
  first `CONTAINS_QUESTIONS` questions;
* how many label rows the largest label query returned: the proof that no step reads all labels. It is bounded
  whatever the size, by `endpoint_labels_per_word` for a word's lookup and by the labels of 200 entities for the
  lookup of the entities found, so its extrapolation means nothing.

The schema is the one induced over the embedded store from the same triples (inducing it again over HTTP is not
what is measured here). `ask` through the endpoint is not measured.
"""

from __future__ import annotations

import re
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

GRAPH = "http://scale.kgscout.example/graph"
CONTAINS_QUESTIONS = 10
_LABEL_QUERY = re.compile(r"rdf-schema#label|skos/core#prefLabel")


@dataclass(frozen=True)
class EndpointResult:
    triples: int
    load_s: float
    text_index_s: float
    link_median_ms: float
    link_p90_ms: float
    contains_median_ms: float
    contains_p90_ms: float
    label_rows_max: int  # the most label rows one query returned
    label_queries: float  # label queries per question, mean


COSTS = (
    ("load_s", "bulk load into Virtuoso", "s"),
    ("text_index_s", "Virtuoso's free-text index over literals", "s"),
    ("link_median_ms", "linking with `bif:contains`, median", "ms"),
    ("link_p90_ms", "linking with `bif:contains`, p90", "ms"),
    ("contains_median_ms", "linking with `FILTER(CONTAINS(...))`, median", "ms"),
    ("contains_p90_ms", "linking with `FILTER(CONTAINS(...))`, p90", "ms"),
    ("label_rows_max", "label rows the largest label query returned", "rows"),
    ("label_queries", "label queries per question (mean)", ""),
)


class _Counting:
    """A store that counts the label queries it is sent and the rows they return."""

    def __init__(self, store):
        self.store, self.info = store, store.info
        self.text_search = store.text_search
        self.queries = 0
        self.rows_max = 0

    def select(self, sparql: str, timeout_s: float | None = None):
        result = self.store.select(sparql, timeout_s)
        if _LABEL_QUERY.search(sparql):
            self.queries += 1
            self.rows_max = max(self.rows_max, len(result.rows))
        return result


def measure(path: Path, cache_dir: Path, workdir: Path, questions: list[str], buffers: int) -> EndpointResult:
    from engine.answer.remote_labels import RemoteLabelIndex
    from kg_adapters.oxigraph_store import OxigraphStore
    from kg_adapters.schema import InductionConfig, cached_schema
    from kg_adapters.sparql_endpoint import SparqlEndpointStore
    from tests.virtuoso import VirtuosoServer

    embedded = OxigraphStore.from_file(path, cache_root=cache_dir, max_bytes=10**12, max_triples=10**10)
    schema = cached_schema(embedded, cache_dir, InductionConfig(timeout_s=3600))
    server = VirtuosoServer(workdir / "virtuoso", buffers=buffers).start()
    try:
        started = time.perf_counter()
        server.bulk_load(path, GRAPH)
        load_s = time.perf_counter() - started
        started = time.perf_counter()
        server.isql("DB.DBA.RDF_OBJ_FT_RULE_ADD(null, null, 'kgscout'); DB.DBA.VT_INC_INDEX_DB_DBA_RDF_OBJ();",
                    timeout_s=7200)
        index_s = time.perf_counter() - started
        store = _Counting(SparqlEndpointStore(server.sparql_url, default_graph=GRAPH, timeout_s=120.0))
        triples = store.info.triples or 0
        searched = RemoteLabelIndex(store, schema, None, timeout_s=60.0)
        if searched.slower:
            raise RuntimeError("Virtuoso's text index was not found by the probe")
        link = _timed(searched, store, questions)
        store.text_search = lambda: None  # as an endpoint without text search
        scanned = RemoteLabelIndex(store, schema, None, timeout_s=60.0)
        contains = _timed(scanned, store, questions[:CONTAINS_QUESTIONS])
        return EndpointResult(triples, load_s, index_s, link[0], link[1], contains[0], contains[1], store.rows_max,
                              link[2])
    finally:
        server.stop()


def _timed(index, store: _Counting, questions: list[str]) -> tuple[float, float, float]:
    """(median ms, p90 ms, label queries per question), each question as if first asked (no word kept)."""
    index.link(questions[0])  # untimed: lazy tables
    times, before = [], store.queries
    for question in questions:
        index._words.clear()
        started = time.perf_counter()
        index.link(question)
        times.append((time.perf_counter() - started) * 1000)
    p90 = sorted(times)[int(0.9 * (len(times) - 1))]
    return statistics.median(times), p90, (store.queries - before) / len(questions)
