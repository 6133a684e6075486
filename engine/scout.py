"""The engine's public face for applications: one `Scout` per process.

`Scout` holds what is expensive and shared (the LLM, the embedder) and opens KGs;
each open KG is a `KGSession` with its label index, corpus and reasoner. The UI
and the CLI call only these two classes, so neither needs to know how reasoning
is wired. Loading is lazy and guarded by a lock, so concurrent chat sessions share
one LLM instead of loading it twice.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

from kg_adapters import store_cache

from engine.answer import followup
from engine.answer.reasoner import MAX_QUESTION_CHARS
from engine.bootstrap.build import BootstrapResult, Progress, bootstrap, prepare_schema
from engine.bootstrap.corpus import Corpus, CorpusError, CorpusRecord
from engine.programs.executor import Execution
from engine.programs.kg import KnowledgeGraph
from engine.programs.sentence import lead_sentence
from engine.programs.sexpr import (
    ProgramError,
    anonymise,
    entities,
    parse,
    pattern,
    subprograms,
    to_text,
)
from engine.programs.verbalize import verbalize
from engine.programs.walk import Walk, program_walk

from .config import ScoutConfig
from .lm.memory import release_freed_memory

ASSETS = Path(__file__).resolve().parents[1] / "assets"
DEFAULT_CORPUS = ASSETS / "geography-corpus"


def default_corpus_dir(spec: str | None, fingerprint: str, config: ScoutConfig) -> Path:
    """Where a KG's corpus lives unless one is named: the shipped corpus for the default KG, else the folder
    the app bootstraps into (keyed by the KG's fingerprint). The CLI and the app look in the same place."""
    if spec is None:
        return DEFAULT_CORPUS
    return Path(config.cache_dir) / "corpora" / _slug(fingerprint)


def is_shipped(corpus_dir: str | Path) -> bool:
    """Whether a corpus folder ships with the app (under assets/): it is read-only, because it is a tracked
    file and every visitor of a public Space shares it; what users mark goes to an overlay instead."""
    return Path(corpus_dir).resolve().is_relative_to(ASSETS)


def overlay_corpus_dir(fingerprint: str, config: ScoutConfig) -> Path:
    """Where the pairs users mark as correct go when the KG's corpus is shipped: a corpus of their own in the
    cache folder, per KG, read together with the shipped one."""
    return Path(config.cache_dir) / "corpora" / (_slug(fingerprint) + "-marked")


class Scout:
    def __init__(self, config: ScoutConfig = ScoutConfig()):
        self.config = config
        self._lock = threading.Lock()
        self._llm = None
        self._embedder = None
        self._shared: Scout | None = None  # with_settings: the Scout whose models this one uses

    def with_settings(self, **changes) -> "Scout":
        """A Scout with some settings changed that shares this one's loaded models (ablations, tests)."""
        other = Scout(self.config.replace(**changes))
        other._shared = self
        return other

    # ------------------------------------------------------------ shared models
    def llm(self):
        if self._shared is not None and self._shared.config.model == self.config.model:
            return self._shared.llm()
        with self._lock:
            if self._llm is None:
                from engine.lm.llm import LLM

                self._llm = LLM.load(self.config.model, cache_dir=str(Path(self.config.cache_dir) / "models"))
            return self._llm

    def embedder(self):
        if self._shared is not None and self._shared.config.embedder == self.config.embedder:
            return self._shared.embedder()
        with self._lock:
            if self._embedder is None:
                from engine.lm.embedder import Embedder

                self._embedder = Embedder.load(self.config.embedder)
            return self._embedder

    # ------------------------------------------------------------ KGs
    def open(self, spec: str | None = None, corpus_dir: str | Path | None = None) -> "KGSession":
        """A file, an endpoint URL or None (the default geography KG with its prebuilt corpus)."""
        kg = KnowledgeGraph.open(spec, self.config)
        if corpus_dir is None:
            corpus_dir = default_corpus_dir(spec, kg.fingerprint, self.config)
        overlay = Corpus(overlay_corpus_dir(kg.fingerprint, self.config)) if is_shipped(corpus_dir) else None
        return KGSession(self, kg, Corpus(corpus_dir), name=Path(spec).name if spec else "World geography (default)",
                         overlay=overlay)

    def sweep_stores(self, keep: list[str]) -> store_cache.Sweep:
        """Remove the stores no open KG uses (`keep`: their folders) that sat idle past `store_idle_hours`, and
        what killed builds left behind."""
        return store_cache.sweep(self.config.cache_dir, self.config.store_idle_hours * 3600, keep)

    @staticmethod
    def remove_store(folder: str) -> int:
        """Delete a store now (a closed KG's); the bytes freed."""
        return store_cache.remove(folder)


@dataclass
class KGSession:
    scout: Scout
    kg: KnowledgeGraph
    corpus: Corpus
    name: str
    overlay: Corpus | None = None  # the users' marked pairs where `corpus` is shipped (read-only)
    _reasoner: object | None = field(default=None, repr=False)
    _labels: object | None = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _read_to: int = field(default=0, repr=False)  # bytes of the corpus' records the reasoner has taken in
    _has_readings: bool = field(default=False, repr=False)  # stand-ins for explored programs added
    _overlay_read_to: int = field(default=0, repr=False)  # the same for the overlay's records

    @property
    def writable_corpus(self) -> Corpus:
        """Where marked pairs go: the overlay where the corpus is shipped, else the corpus itself."""
        return self.overlay if self.overlay is not None else self.corpus

    def records(self) -> list[CorpusRecord]:
        """Every exemplar: the corpus' records, then the overlay's."""
        return self.corpus.records() + (self.overlay.records() if self.overlay is not None else [])

    @property
    def schema(self):
        return self.kg.schema

    @property
    def has_corpus(self) -> bool:
        return bool(self.corpus.exists() and self.corpus.records()) or bool(self.overlay and self.overlay.records())

    def label_index(self):
        with self._lock:
            if self._labels is None:
                from engine.answer.remote_labels import open_label_index

                self._labels = open_label_index(self.kg.store, self.kg.schema, self.scout.config.cache_dir,
                                                self.scout.embedder(), self.scout.config)
            return self._labels

    def reasoner(self):
        """The KG's reasoner, up to date with its corpus: records a running bootstrap has written since the
        last question are taken in without a restart (only they are embedded), and until a program has its
        question, its English reading stands in for it (engine.bootstrap.readings)."""
        if self._reasoner is None:
            self._prepare_schema()
        labels = self.label_index()
        with self._lock:
            fresh = self._reasoner is None
            records, self._read_to = self.corpus.records_from(0 if fresh else self._read_to)
            if self.overlay is not None:
                marked, self._overlay_read_to = self.overlay.records_from(0 if fresh else self._overlay_read_to)
                records = records + marked
            if self._reasoner is None:
                from engine.answer.reasoner import Reasoner

                self._reasoner = Reasoner(self.kg, records, self.scout.llm(), self.scout.embedder(), labels,
                                          self.scout.config)
                self._has_readings = False
            elif records:
                self._reasoner.add_records(records)
            if not self._has_readings and self.corpus.has_programs():
                self._has_readings = True
                self._add_readings()
            return self._reasoner

    def _prepare_schema(self, load_llm: Callable | None = None,
                        report: Callable[[Progress], None] = lambda p: None) -> None:
        """Before the first reasoner or a bootstrap: nouns for the classes the data leaves unnamed and the
        relation lexicon (engine.bootstrap.build.prepare_schema). A changed schema drops what was built on the
        old one."""
        with self._lock:
            if prepare_schema(self.kg, self.corpus, load_llm or self.scout.llm, self.scout.embedder, report,
                              self.scout.config.lexicon):
                self._reasoner = self._labels = None

    def _add_readings(self) -> None:
        from engine.bootstrap.readings import reading_records

        written = {r.program for r in self._reasoner.records}
        todo = [p for p in self.corpus.programs() if p.program not in written]
        self._reasoner.add_records(reading_records(todo, self.kg.schema))

    # ------------------------------------------------------------ disk
    @property
    def store_folder(self) -> str | None:
        """The folder of the KG's embedded store; None for an endpoint."""
        return self.kg.store.info.extra.get("folder")

    def disk_bytes(self) -> int:
        """What the KG's store takes on disk (0 for an endpoint)."""
        return store_cache.folder_bytes(self.store_folder) if self.store_folder else 0

    def touch(self) -> None:
        """Mark the store as used now, so a sweep leaves it (kg_adapters.store_cache)."""
        if self.store_folder:
            store_cache.touch(self.store_folder)

    def close(self) -> None:
        with self._lock:
            if self._reasoner is not None:
                self._reasoner.close()
            self._reasoner = self._labels = None
        self.kg.close()

    def update_schema(self, edits: list) -> None:
        """The user's labels and descriptions (kg_adapters.schema.SchemaEdit); they shape the questions the
        next bootstrap writes and the prompts of the next question. Raises SchemaEditError for a bad edit."""
        self.kg.edit_schema(edits)
        with self._lock:
            self._reasoner = None  # prompts and readings change with the labels
            self._labels = None  # class words come from the labels

    # ------------------------------------------------------------ asking
    def ask(self, question: str, on_progress: Callable[[str], None] | None = None, previous: followup.Turn | None = None):
        """A QuestionResult (engine.answer.reasoner); never raises for bad questions.

        `previous`: the last turn of the conversation (`turn(result)`), so a follow-up such as
        "what else did he direct?" is answered as "what else did [Ridley Scott] direct?"; the
        result's `question` then holds that reading."""
        if previous is not None and len(question) <= MAX_QUESTION_CHARS:  # a longer one is refused unread
            index = self.label_index()
            names_an_entity = lambda text: bool(index.link(text).entity_mentions())  # noqa: E731
            question = followup.rewrite(question, previous, names_an_entity, index.class_words) or question
        result = self.reasoner().answer(question, on_progress=on_progress)
        if not result.cached:  # reasoning freed tensors that malloc would keep (engine.lm.memory)
            release_freed_memory()
        return result

    @staticmethod
    def turn(result) -> followup.Turn:
        """What a follow-up to this QuestionResult may refer to."""
        answers = () if result.count is not None else tuple(a.label for a in result.answers if a.iri)
        topics = tuple(dict.fromkeys(
            m.top.label for m in result.linked if m.top is not None and m.top.kind == "entity"
        ))
        return followup.Turn(result.question, answers, topics)

    def run_program(self, program: str) -> Execution:
        return self.kg.executor.execute(program)

    def walk(self, execution: Execution) -> Walk | None:
        """The executed program's walk as a graph (engine.programs.walk), its short walks' intermediate sets
        executed too; None when the program does not parse."""
        try:
            node = self.kg.executor.resolve(parse(execution.program))
        except (ProgramError, RecursionError):
            return None
        return program_walk(node, self.kg.schema, execution, self.kg.executor.execute)

    def reading(self, program: str) -> str:
        """The program in plain English ("the capital of the country Germany"), for naming what it answers
        (a CSV file); empty when it does not parse."""
        try:
            return verbalize(parse(program), self.kg.schema, sure=True)
        except (ProgramError, TypeError, RecursionError):
            return ""

    def lead_sentence(self, program: str, answers: Sequence[str], total: int | None = None) -> str:
        """The sentence a reply leads with (engine.programs.sentence): the reading said with the answers,
        given as display texts. Empty when there is none to say."""
        try:
            return lead_sentence(parse(program), self.kg.schema, answers, total)
        except (ProgramError, TypeError, RecursionError):
            return ""

    # ------------------------------------------------------------ corpus
    def bootstrap(
        self,
        budget: int | None = None,
        model: str | None = None,
        on_progress: Callable[[Progress], None] | None = None,
        should_stop: Callable[[], bool] = lambda: False,
    ) -> BootstrapResult:
        config = self.scout.config.replace(
            **{k: v for k, v in {"budget": budget, "model": model}.items() if v is not None}
        )
        if self.overlay is not None:
            raise CorpusError(f"{self.name} comes with its corpus, which is read-only; bootstrap a copy of the KG "
                              "opened from a file to build another")
        load = self.scout.llm if config.model == self.scout.config.model else lambda: _load_llm(config)
        self._prepare_schema(load, on_progress or (lambda p: None))  # here too: it drops the old schema's reasoner
        return bootstrap(self.kg, self.corpus.folder, config, load, on_progress, should_stop, self.scout.embedder)

    def mark_correct(self, question: str, program: str) -> CorpusRecord:
        """Learning from use: the user confirmed this program answers this question."""
        parsed = self.kg.executor.resolve(parse(program))  # entities get their IRIs
        self.kg.executor.execute(parsed)  # refuse programs that do not run
        labels = self.label_index()
        classes = {e.ref: _class_of(labels.lookup(e.ref)) for e in entities(parsed)}
        anonymous = anonymise(parsed, lambda e: classes.get(e.ref, "thing"))
        linking = labels.link(question)
        record = CorpusRecord(
            program=to_text(parsed),
            subprograms=tuple(to_text(p) for p in subprograms(parsed)),
            question=question,
            anonymised_question=linking.anonymised(),
            top_beam_question=question,
            ic_score=0.0,
            top_beam_ic_score=0.0,
            beam_score=0.0,
            subquestions=(),
            anonymised=to_text(anonymous),
            pattern=pattern(parsed),
            answers=0,
            entities=tuple((e.ref, e.iri or "", classes.get(e.ref, "thing")) for e in entities(parsed)),
            source="user",
        )
        self.writable_corpus.append(record)  # the next question takes it in (see `reasoner`)
        return record

    def unmark_correct(self, record: CorpusRecord) -> bool:
        """Undo `mark_correct`: the record leaves the corpus file and the reasoner's exemplars. False when it
        is no longer there (undone already)."""
        with self._lock:
            removed = self.writable_corpus.remove(record)
            if removed is None:
                return False
            read_to = self._overlay_read_to if self.overlay is not None else self._read_to
            if removed.offset < read_to:  # the reasoner had taken it in: later records moved up
                if self.overlay is not None:
                    self._overlay_read_to -= removed.length
                else:
                    self._read_to -= removed.length
                if self._reasoner is not None:
                    self._reasoner.remove_record(record)
            return True

    def search_corpus(self, text: str, limit: int = 50) -> list[CorpusRecord]:
        needle = text.lower().strip()
        records = self.records()  # empty when nothing has been generated yet
        hits = [r for r in records if not needle or needle in r.question.lower() or needle in r.program.lower()]
        return hits[:limit]


def _class_of(candidates: list) -> str:
    """The first class of the best label match, for anonymising a user's program."""
    return candidates[0].classes[0] if candidates and candidates[0].classes else "thing"


def _load_llm(config: ScoutConfig):
    from engine.lm.llm import LLM

    return LLM.load(config.model, cache_dir=str(Path(config.cache_dir) / "models"))


def _slug(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode()).hexdigest()[:16]
