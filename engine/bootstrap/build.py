"""Bootstrap a KG: explore it, generate questions, write the corpus (BYOKG steps 1-2).

One function, `bootstrap`, used by the CLI and the UI alike. It reports progress
through a callback and checks a stop flag between programs, so a caller can show a
progress bar and cancel; rerunning it resumes where it stopped (see corpus.py).
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from kg_adapters.base import StoreFault

from engine.config import ScoutConfig
from engine.lm.compute import in_background
from engine.lm.memory import release_freed_memory
from engine.programs.kg import KnowledgeGraph

from .corpus import Corpus, CorpusError, CorpusRecord, Manifest
from .explorer import ExploreConfig, ExploredProgram, Explorer
from .lexicon import ensure_lexicon
from .namer import ensure_named
from .qgen import (
    GeneratedQuestion,
    QuestionGenerator,
    QuestionModel,
    anonymise_question,
)


class NothingToExplore(CorpusError):
    """The KG offers no walk that yields a program."""


class StoreStopped(StoreFault):
    """The KG stopped answering (or answered garbage) during exploration."""


@dataclass(frozen=True)
class Progress:
    phase: str  # "explore" | "naming" | "loading" | "questions" | "done" | "stopped"
    done: int  # programs with a question, those written by earlier runs included ("128 / 150" on resume)
    total: int
    elapsed_s: float  # of this phase in this run
    message: str = ""
    already: int = 0  # of `done`, those written before this run: rate and ETA count only this run's work

    @property
    def rate_per_hour(self) -> float:
        return 3600 * (self.done - self.already) / self.elapsed_s if self.elapsed_s > 0 else 0.0

    @property
    def eta_s(self) -> float | None:
        if self.done <= self.already:
            return None
        return (self.total - self.done) * self.elapsed_s / (self.done - self.already)


@dataclass(frozen=True)
class BootstrapResult:
    folder: Path
    programs: int
    records: int
    complete: bool


def exploration_parameters(config: ScoutConfig) -> dict:
    return {
        "budget": config.budget,
        "seed": config.seed,
        "max_relations": config.max_relations,
        "per_pattern": config.per_pattern,
        "join_back_p": config.join_back_p,
        "qgen_beams": config.qgen_beams,
        "qgen_context": config.qgen_context,
        "qgen_readable": config.qgen_readable,
    }


# Settings added after corpora were built with them fixed: the value that reproduces how such a corpus was
# built, so that it can still be resumed with the same settings.
LEGACY_PARAMETERS = {"qgen_context": -1, "qgen_readable": False}


def prepare_schema(kg: KnowledgeGraph, corpus: Corpus, load_llm: Callable[[], QuestionModel],
                   load_embedder: Callable[[], object], report: Callable[[Progress], None],
                   lexicon: bool = False) -> bool:
    """Before exploring or answering, once per KG: nouns for the classes the data leaves unnamed
    (engine.bootstrap.namer), so that the corpus names them, then the words people use for each relation
    (engine.bootstrap.lexicon). Whether the schema changed."""
    changed = False
    if kg.unnamed_classes():
        report(Progress("naming", 0, 0, 0.0, "asking the language model what the unnamed classes are"))
        changed = bool(ensure_named(kg, load_llm, corpus))
    if lexicon and not kg.has_lexicon():
        report(Progress("naming", 0, 0, 0.0, "asking the language model for everyday words for each relation"))
        changed = ensure_lexicon(kg, load_llm, load_embedder) or changed
    return changed


def _embedder(config: ScoutConfig):
    from engine.lm.embedder import Embedder

    return Embedder.load(config.embedder)


@in_background  # beside chat, a bootstrap's model passes wait for the questions' (engine.lm.compute)
def bootstrap(
    kg: KnowledgeGraph,
    out: str | Path,
    config: ScoutConfig,
    load_llm: Callable[[], QuestionModel],
    on_progress: Callable[[Progress], None] | None = None,
    should_stop: Callable[[], bool] = lambda: False,
    load_embedder: Callable[[], object] | None = None,
) -> BootstrapResult:
    corpus = Corpus(out)
    corpus.check_fingerprint(kg.fingerprint)
    params = exploration_parameters(config)
    if corpus.exists():
        old = corpus.manifest()
        if {**LEGACY_PARAMETERS, **old.parameters} != params or old.model != config.model:
            raise CorpusError(
                f"{corpus.folder} was started with other settings (model {old.model}, {old.parameters}); "
                "rerun with the same settings to resume, or choose another --out folder"
            )
    else:
        corpus.write_manifest(Manifest(kg.fingerprint, kg.store.info.location, config.model, params))
    report = on_progress or (lambda p: None)
    load_llm = functools.cache(load_llm)  # naming and question writing share one load
    prepare_schema(kg, corpus, load_llm, load_embedder or (lambda: _embedder(config)), report, config.lexicon)

    programs = _explored(kg, corpus, config, report)
    corpus.repair()
    written = {r.program for r in corpus.records()}
    todo = [p for p in programs if p.program not in written]
    already, total = len(programs) - len(todo), len(programs)
    report(Progress("loading", already, total, 0.0, "loading the language model", already))
    llm = load_llm()
    start = time.perf_counter()  # the rate and ETA count question writing only, never the model load
    done = already  # programs whose question is written, this batch's finished beam searches included
    batch_programs: set[str] = set()

    def progress(phase: str, message: str = "") -> Progress:
        return Progress(phase, done, total, time.perf_counter() - start, message, already)

    def stage(name: str) -> None:  # the generator says what it is doing: "writing questions", "checking them"
        report(progress("questions", name))

    def one_written(program: str) -> None:  # a batch's programs finish one by one: the bar moves per program
        nonlocal done
        if program in batch_programs:
            batch_programs.discard(program)
            done += 1
            report(progress("questions"))

    generator = QuestionGenerator(llm, kg.schema, beams=config.qgen_beams, context=config.qgen_context,
                                  readable=config.qgen_readable, on_stage=stage, on_written=one_written)
    step = max(1, config.qgen_batch)
    for i in range(0, len(todo), step):
        done = already + i
        if should_stop():
            report(progress("stopped", "stopped; rerun to resume"))
            return _finish(corpus, programs, complete=False)
        batch = todo[i : i + step]
        batch_programs = {p.program for p in batch}
        generated = generator.generate_batch([(p.program, list(p.subprograms)) for p in batch])
        for explored, question in zip(batch, generated):
            corpus.append(_record(explored, question))
        release_freed_memory()  # a batch's beams held hundreds of MB that malloc would keep (engine.lm.memory)
        done = already + i + len(batch)
        report(progress("questions"))
    report(progress("done"))
    return _finish(corpus, programs, complete=True)


def _explored(kg: KnowledgeGraph, corpus: Corpus, config: ScoutConfig, report) -> list[ExploredProgram]:
    if corpus.has_programs():
        return corpus.programs()
    explorer = Explorer(
        kg,
        ExploreConfig(max_relations=config.max_relations, per_pattern=config.per_pattern, join_back_p=config.join_back_p,
                      new_ops_share=config.new_ops_share, sample_above=config.explore_sample_above),
        seed=config.seed,
    )
    if not explorer.start_classes:
        raise NothingToExplore(
            "nothing can be explored: the KG has no class with members that a relation leads from "
            "(it needs at least one relation between entities or from entities to values)"
        )
    start = time.perf_counter()
    programs: list[ExploredProgram] = []
    faults = kg.executor.faults
    for explored in explorer.explore(config.budget):
        programs.append(explored)
        report(Progress("explore", len(programs), config.budget, time.perf_counter() - start))
        _check_store(kg, faults)
    _check_store(kg, faults)
    if not programs:
        raise NothingToExplore("nothing can be explored: every walk over this KG came back empty")
    corpus.write_programs(programs)
    return programs


def _check_store(kg: KnowledgeGraph, faults_before: int) -> None:
    """A walk spoilt by a store that stopped answering would shrink the corpus for good (its programs are fixed
    once written), so exploration stops instead, keeps nothing, and a rerun explores again with the same seed."""
    if kg.executor.faults > faults_before:
        raise StoreStopped(
            f"the KG stopped answering while it was explored ({kg.executor.last_fault}); nothing explored was "
            "kept. Start again when it answers: the bootstrap resumes from what was saved"
        )


def _record(explored: ExploredProgram, generated: GeneratedQuestion) -> CorpusRecord:
    entities = [(label, cls) for label, _, cls in explored.entities]
    return CorpusRecord(
        program=explored.program,
        subprograms=explored.subprograms,
        question=generated.question,
        anonymised_question=anonymise_question(generated.question, entities),
        top_beam_question=generated.top_beam,
        ic_score=generated.ic_score,
        top_beam_ic_score=generated.top_beam_ic_score,
        beam_score=generated.beam_score,
        subquestions=generated.subquestions,
        anonymised=explored.anonymised,
        pattern=explored.pattern,
        answers=explored.answers,
        entities=explored.entities,
    )


def _finish(corpus: Corpus, programs: list[ExploredProgram], complete: bool) -> BootstrapResult:
    records = len(corpus.records())
    manifest = corpus.manifest()
    manifest.counts = {"programs": len(programs), "records": records, "complete": complete}
    corpus.write_manifest(manifest)
    return BootstrapResult(corpus.folder, len(programs), records, complete)
