"""Linking in front of a large SPARQL endpoint, without ever reading all of its labels.

A KG behind an endpoint may hold hundreds of millions of labels; reading them all over HTTP (what the label index
of engine.answer.labels does for a small endpoint) would take hours. `RemoteLabelIndex` asks the endpoint instead,
for each question:

1. for every word of the question that is no stop word (and the stems of an adjective of place: "japanese",
   `japan*`), the labels that hold it, the shortest `per_word` first (a label the question names whole is among
   the shortest that hold its words);
2. for the entities those labels name, their other labels, declared types, relations (for their classes) and
   degree, a few queries over a VALUES list;
3. the linker of engine.answer.linker, unchanged, over those entities alone (an in-memory label index).

The words are looked up with the endpoint's text search where it has one: Virtuoso's `bif:contains` over its
free-text index, detected when the index is first needed (`SparqlEndpointStore.text_search`). Elsewhere they are
looked up with `FILTER(CONTAINS(LCASE(STR(?l)), "word"))`, which the endpoint answers by reading its labels: much
slower on a large graph, so each such query has its own time limit (`timeout_s`) and a word whose query runs past
it is left out of that question's linking. `slower` says which.

What the full index does and this cannot: a typo ("Gladiater") finds only labels that share another word with the
question; an abbreviation ("US" for United States) finds nothing, since no label holds it. Words already looked
up are kept (`CACHED_WORDS` of them), so a question asked again costs no query.
"""

from __future__ import annotations

import logging
import re
import sqlite3
import threading
import time
from collections import OrderedDict, defaultdict

from kg_adapters.base import RDF_TYPE, RDFS_LABEL, SKOS_PREF_LABEL, KGError, KGStore
from kg_adapters.schema import OBJECT, SUBJECT, Role, Schema

from .derive import MIN_STEM, is_place_adjective, stems
from .label_db import LabelDB, fill
from .labels import Entity, EntityClasses, make_entity
from .linker import LabelIndex
from .mentions import Linking
from .retrieve import TextEmbedder
from .words import fold, tokens

log = logging.getLogger(__name__)

CACHED_WORDS = 2_000
_VALUES_CHUNK = 200  # IRIs per VALUES list
_WORD = re.compile(r"[^\W_]+")  # what a text search is sent: letters and digits, nothing to escape
_IRI_OK = re.compile(r'[^\s<>"{}|^`\\]+')  # IRIs written into a VALUES list as they are
_VIRTUOSO_PREFIX_MIN = 4  # bif:contains wants 4 characters before a '*'


class RemoteLabelIndex(LabelIndex):
    """The linker over labels read per question from an endpoint; see the module docstring."""

    def __init__(self, store: KGStore, schema: Schema, embedder: TextEmbedder | None = None, per_word: int = 100,
                 timeout_s: float = 10.0):
        empty = sqlite3.connect(":memory:", check_same_thread=False)
        fill(empty, [])
        super().__init__(LabelDB(empty), schema, embedder)
        self.store, self.schema = store, schema
        self.per_word, self.timeout_s = per_word, timeout_s
        probe = getattr(store, "text_search", None)
        self.search = probe() if probe is not None else None
        self.slower = self.search is None
        self._words: OrderedDict[tuple[str, bool], tuple[str, ...]] = OrderedDict()  # word -> IRIs holding it
        self._lock = threading.Lock()
        if self.slower:
            log.warning("%s has no text search: labels are looked up with FILTER(CONTAINS(...)), a scan of its "
                        "labels per word, so linking is slower", store.info.location)

    # ------------------------------------------------------------ the linker's entry points
    def link(self, question: str, top_k: int = 2) -> Linking:
        return self._over(question).link(question, top_k)

    def lookup(self, label: str, top_k: int = 2) -> list:
        return self._over(label).lookup(label, top_k)

    def closest(self, text: str, n: int = 5) -> list[str]:
        return self._over(text).closest(text, n)

    def classes_of(self, iri: str) -> tuple[str, ...]:
        found = self._entities([iri]) if _IRI_OK.fullmatch(iri) else []
        return found[0].classes if found else ()

    def label_of(self, iri: str) -> str | None:
        found = self._entities([iri]) if _IRI_OK.fullmatch(iri) else []
        return found[0].labels[0] if found else None

    def __len__(self) -> int:
        return 0  # not known without reading them all

    # ------------------------------------------------------------ reading
    def _over(self, text: str) -> LabelIndex:
        started = time.perf_counter()
        iris: dict[str, None] = {}
        for word, prefix in self._search_words(text):
            iris.update(dict.fromkeys(self._holding(word, prefix)))
        entities = self._entities(list(iris))
        db = sqlite3.connect(":memory:", check_same_thread=False)
        fill(db, entities)
        log.debug("remote labels: %d entities for %r in %.0f ms", len(entities), text,
                  (time.perf_counter() - started) * 1000)
        return self.over(LabelDB(db))

    def _search_words(self, text: str) -> list[tuple[str, bool]]:
        """(word, is a prefix) to look up: the text's words, folded and as written, less stop words; the stems
        of its adjectives of place as prefixes."""
        found: dict[tuple[str, bool], None] = {}
        for token in tokens(text):
            written, folded = token.group().casefold(), fold(token.group())
            if folded in self.stop or not _WORD.fullmatch(folded):
                continue
            for word in (folded, written):
                if _WORD.fullmatch(word):
                    found[(word, False)] = None
            if is_place_adjective(folded):
                shortest = _VIRTUOSO_PREFIX_MIN if self.search else MIN_STEM
                found.update({(stem, True): None for stem in stems(folded) if len(stem) >= shortest})
        return list(found)

    def _holding(self, word: str, prefix: bool) -> tuple[str, ...]:
        """The entities with the `per_word` shortest labels holding `word` (beginning with it, for a prefix)."""
        with self._lock:
            if (word, prefix) in self._words:
                self._words.move_to_end((word, prefix))
                return self._words[(word, prefix)]
        if self.search:
            match = f"?l bif:contains '\"{word}{'*' if prefix else ''}\"'"
        else:
            test = f'STRSTARTS(LCASE(STR(?l)), "{word}")' if prefix else f'CONTAINS(LCASE(STR(?l)), "{word}")'
            match = f"FILTER(isLiteral(?l) && {test})"
        sparql = (f"SELECT ?x ?l WHERE {{ VALUES ?p {{ <{RDFS_LABEL}> <{SKOS_PREF_LABEL}> }} ?x ?p ?l . {match} "
                  f"FILTER(isIRI(?x)) }} ORDER BY STRLEN(STR(?l)) LIMIT {self.per_word}")
        try:
            rows = self.store.select(sparql, timeout_s=self.timeout_s).rows
        except KGError as err:  # a word the server will not search (a noise word), or past the time limit
            log.info("remote labels: %r not looked up (%s)", word, err)
            rows = ()
        found = tuple(dict.fromkeys(x.value for x, _ in rows if x is not None and _IRI_OK.fullmatch(x.value)))
        with self._lock:
            self._words[(word, prefix)] = found
            while len(self._words) > CACHED_WORDS:
                self._words.popitem(last=False)
        return found

    def _entities(self, iris: list[str]) -> list[Entity]:
        """These entities as the full index would hold them (labels, classes, degree), in IRI order."""
        english: dict[str, list[str]] = defaultdict(list)
        foreign: dict[str, list[str]] = defaultdict(list)
        declared: dict[str, list[str]] = defaultdict(list)
        roles: dict[str, set[Role]] = defaultdict(set)
        degree: dict[str, int] = defaultdict(int)
        relations = {r.iri: r for r in self.schema.relations}
        entity_objects = " ".join(f"<{r.iri}>" for r in self.schema.relations
                                  if self.schema.literal_kind(r) == "entity")
        for chunk in (iris[i:i + _VALUES_CHUNK] for i in range(0, len(iris), _VALUES_CHUNK)):
            values = "VALUES ?x { " + " ".join(f"<{iri}>" for iri in chunk) + " }"
            for pred in (RDFS_LABEL, SKOS_PREF_LABEL):
                for x, text in self._rows(f"SELECT ?x ?l WHERE {{ {values} ?x <{pred}> ?l }}"):
                    if x is not None and text is not None and text.value.strip():
                        target = english if (text.lang or "en").startswith("en") else foreign
                        if text.value not in target[x.value]:
                            target[x.value].append(text.value)
            for x, c in self._rows(f"SELECT ?x ?c WHERE {{ {values} ?x <{RDF_TYPE}> ?c }}"):
                info = self.schema.class_(c.value) if c is not None else None
                if x is not None and info is not None and not info.is_literal:
                    declared[x.value].append(info.name)
            for x, p in self._rows(f"SELECT DISTINCT ?x ?p WHERE {{ {values} ?x ?p ?o }}"):
                if x is not None and p is not None and p.value in relations:
                    roles[x.value].add(Role(p.value, SUBJECT))
            if entity_objects:
                for x, p in self._rows(f"SELECT ?x ?p WHERE {{ {values} VALUES ?p {{ {entity_objects} }} "
                                       f"FILTER EXISTS {{ ?s ?p ?x }} }}"):
                    if x is not None and p is not None:
                        roles[x.value].add(Role(p.value, OBJECT))
            for query in (f"SELECT ?x (COUNT(*) AS ?n) WHERE {{ {values} ?x ?p ?o }} GROUP BY ?x",
                          f"SELECT ?x (COUNT(*) AS ?n) WHERE {{ {values} ?s ?p ?x }} GROUP BY ?x"):
                for x, n in self._rows(query):
                    if x is not None and n is not None:
                        degree[x.value] += int(float(n.value))
        schema_iris = {c.iri for c in self.schema.classes} | set(relations)
        classes = EntityClasses(self.schema)
        found = (make_entity(iri, english.get(iri, []), foreign.get(iri, []), declared.get(iri, []),
                             roles.get(iri, set()), degree.get(iri, 0), schema_iris, classes) for iri in sorted(set(iris)))
        return [e for e in found if e is not None]

    def _rows(self, sparql: str) -> tuple:
        try:
            return self.store.select(sparql, timeout_s=self.timeout_s).rows
        except KGError as err:  # one missing fact (a degree, a type) weakens the linking, it does not stop it
            log.info("remote labels: a query failed (%s)", err)
            return ()


def open_label_index(store: KGStore, schema: Schema, cache_dir: str, embedder: TextEmbedder | None = None,
                     config=None) -> LabelIndex:
    """The KG's linker: its label index on disk (`LabelIndex.build`: read whole once), or for an endpoint of more
    than `config.endpoint_read_labels_max_triples` triples (or one that cannot count them), labels read per
    question (`RemoteLabelIndex`)."""
    from engine.config import ScoutConfig

    config = config or ScoutConfig()
    if not hasattr(store, "scan") and store.info.kind == "endpoint":
        triples = store.info.triples
        if triples is None or triples > config.endpoint_read_labels_max_triples:
            return RemoteLabelIndex(store, schema, embedder, config.endpoint_labels_per_word,
                                    config.endpoint_label_timeout_s)
    return LabelIndex.build(store, schema, cache_dir, embedder)


def linking_note(store: KGStore, config=None) -> str:
    """What a user should know about linking on this KG, said when it is opened: for a large endpoint, that it is
    linked per question, and whether through its text search or by slower scans of its labels ("" otherwise)."""
    from engine.config import ScoutConfig

    config = config or ScoutConfig()
    if hasattr(store, "scan") or store.info.kind != "endpoint":
        return ""
    triples = store.info.triples
    if triples is not None and triples <= config.endpoint_read_labels_max_triples:
        return ""
    size = "too many triples to count in time" if triples is None else f"{triples:,} triples"
    probe = getattr(store, "text_search", None)
    if probe is not None and probe():
        return (f"It holds {size}: names in questions are looked up with its text search ({probe()}), "
                "never by reading all its labels.")
    return (f"It holds {size} and has no text search that KG Scout can use, so names in questions are looked up "
            "by scanning its labels for each word: linking is slower (seconds a question on millions of labels).")
