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
* `ask` through the endpoint: a session (engine.scout) over the endpoint's store, linking per question with its
  text index (`endpoint_read_labels_max_triples` 0, so at every size, as past 2 million triples by default), the
  same model, corpus and questions as the embedded store's `ask`: cold (the first question of the session: models
  loaded, the reasoner built), warm (median of the other questions) and cached (median, the same questions again);
* the proof that no step reads all labels: how many label rows the largest label query of linking returned
  (bounded whatever the size, by `endpoint_labels_per_word` for a word's lookup and by the labels of 200 entities
  for the lookup of the entities found, so its extrapolation means nothing); during `ask`, the rows of the largest
  query that carries labels and of the largest query of any kind (a program's answers come with their labels, as
  many as the answer has members, up to `max_answers`), against the labels the KG holds.

The schema is the one induced over the embedded store from the same triples, put in the endpoint's schema cache
(inducing it again over HTTP is not what is measured here).
"""

from __future__ import annotations

import re
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

from kg_adapters.base import RDFS_LABEL

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
    label_rows_max: int  # the most label rows one query of linking returned
    label_queries: float  # label queries per question, mean
    ask_cold_s: float | None = None  # None: not measured (--no-ask, or a result kept from before it was)
    ask_warm_s: float | None = None
    ask_cached_s: float | None = None
    ask_label_rows_max: int | None = None  # during `ask`: the most rows of a query that carries labels
    ask_rows_max: int | None = None  # during `ask`: the most rows of any query
    labels_total: int | None = None  # rdfs:label triples in the KG: what "all labels" would be


COSTS = (
    ("load_s", "bulk load into Virtuoso", "s"),
    ("text_index_s", "Virtuoso's free-text index over literals", "s"),
    ("link_median_ms", "linking with `bif:contains`, median", "ms"),
    ("link_p90_ms", "linking with `bif:contains`, p90", "ms"),
    ("contains_median_ms", "linking with `FILTER(CONTAINS(...))`, median", "ms"),
    ("contains_p90_ms", "linking with `FILTER(CONTAINS(...))`, p90", "ms"),
    ("label_rows_max", "label rows the largest label query of linking returned", "rows"),
    ("label_queries", "label queries per question (mean)", ""),
    ("ask_cold_s", "`ask` through the endpoint, cold (fresh session)", "s"),
    ("ask_warm_s", "`ask` through the endpoint, warm (median, other questions)", "s"),
    ("ask_cached_s", "`ask` through the endpoint, cached (median, same questions)", "s"),
    ("ask_label_rows_max", "`ask`: rows of the largest query that carries labels", "rows"),
    ("ask_rows_max", "`ask`: rows of the largest query", "rows"),
    ("labels_total", "labels in the KG (all labels, for comparison)", "rows"),
)


class _Counting:
    """A store that counts the label queries it is sent and the rows they return; the rest is the store's."""

    def __init__(self, store):
        self.store, self.info = store, store.info
        self.text_search = store.text_search
        self.queries = 0
        self.rows_max = 0  # label queries
        self.any_max = 0  # every query

    def __getattr__(self, name: str):
        return getattr(self.store, name)

    def select(self, sparql: str, timeout_s: float | None = None):
        result = self.store.select(sparql, timeout_s)
        self.any_max = max(self.any_max, len(result.rows))
        if _LABEL_QUERY.search(sparql):
            self.queries += 1
            self.rows_max = max(self.rows_max, len(result.rows))
        return result


def measure(path: Path, cache_dir: Path, workdir: Path, questions: list[str], buffers: int,
            ask_questions: list[str] | None = None, model: str = "smollm2-135m") -> EndpointResult:
    """Every cost of one file behind Virtuoso; `ask_questions` None: no `ask`. The embedded child has run in
    `cache_dir` before: its store, schema and corpus (`corpus/`) are used from there."""
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
        store.text_search, linking_rows = store.store.text_search, store.rows_max
        store.rows_max = store.any_max = 0
        asked = _ask(store, schema, cache_dir, ask_questions, model) if ask_questions else (None, None, None)
        rows = (store.rows_max, store.any_max) if ask_questions else (None, None)
        total = store.store.select(f"SELECT (COUNT(*) AS ?n) WHERE {{ ?x <{RDFS_LABEL}> ?l }}").rows[0][0]
        return EndpointResult(triples, load_s, index_s, link[0], link[1], contains[0], contains[1], linking_rows,
                              link[2], *asked, *rows, int(total.value))
    finally:
        server.stop()


def _ask(store: _Counting, schema, cache_dir: Path, questions: list[str], model: str):
    """(cold, warm median, cached median) seconds of `ask` in a session over the endpoint, with the embedded
    child's corpus (copied: a corpus belongs to one KG) and its schema (written where the endpoint's is looked
    for, so it is not induced again)."""
    from bench.scale import ask_times, scale_config
    from engine.bootstrap.corpus import Corpus
    from engine.programs.kg import KnowledgeGraph
    from engine.scout import KGSession, Scout
    from kg_adapters.schema import SCHEMA_VERSION, schema_file

    config = scale_config(cache_dir, model).replace(endpoint_read_labels_max_triples=0)
    cached = schema_file(cache_dir, store.info.fingerprint, f"v{SCHEMA_VERSION}")
    cached.parent.mkdir(parents=True, exist_ok=True)
    cached.write_text(schema.to_json())
    corpus = Corpus(cache_dir / "corpus-endpoint")
    corpus.write_programs(Corpus(cache_dir / "corpus").programs())
    kg = KnowledgeGraph.from_store(store, config)
    session = KGSession(Scout(config), kg, corpus, name=store.info.location)
    try:
        return ask_times(session, questions)
    finally:
        session.close()


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
