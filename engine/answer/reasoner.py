"""Answer one question: bottom-up program synthesis over the KG (BYOKG step 3, method.md "Reasoning").

    question --read--> anchors and cues --retrieve--> exemplars
             --enumerate / prune / score, step by step--> best set
             --inverse-consistency re-rank--> winner --execute--> answers

This module is the driver; each stage is a module of its own (see engine/answer/__init__.py):
1. `question`: link the question (entities, top 2 per mention; literals; class words) and read what it
   asks for: a count, a class ("which languages", "when", "who"), things sharing something.
2. `retrieve`: the `config.exemplars` nearest corpus questions, at most one per program pattern.
3. `candidates`: step 1 builds programs from the anchors; each later step extends the members of the
   best set not extended yet, one rule per operator (JOIN, AND with a class or another mention's
   program, COUNT, ARGMAX/ARGMIN), up to the explorer's `max_relations`.
4. `prune`: execute the new programs most similar to the question until `prune_k` have answers.
5. `rank`: forward-score them with the LLM; keep the best `beam`; stop when no new candidate enters the
   best set, or after `max_steps`. Then re-rank the finalists (the best set plus each step's best new
   candidate) with inverse consistency, the repeat penalty, the similarity and the relations the question's words
   spell (`named`) or mean (`meant`).
6. The winner's execution, narrowed (`narrow`, `others`), is the answer. Readings passed over on the way
   (self-correction: one that executed to nothing or failed, or of the wrong kind) are listed with the reason.
7. `memo`: whole results are kept on disk, so a repeated question is answered in about a millisecond.

Bad input never raises: it comes back as a QuestionResult with a `message`.
"""

from __future__ import annotations

import hashlib
import logging
import re
import time
import unicodedata
from dataclasses import asdict, dataclass, replace
from typing import Callable, Sequence

from kg_adapters.base import StoreFault

from engine.bootstrap.corpus import CorpusRecord
from engine.bootstrap.readings import SOURCE as READING
from engine.config import ScoutConfig
from engine.programs.executor import Answer
from engine.programs.kg import KnowledgeGraph
from engine.programs.sexpr import Count, In, relations, to_text

from .asked import what_is_asked
from .candidates import Enumerator
from .extend import reached, to_extend
from .linker import LabelIndex, Linking, Mention
from .meant import RelationMeanings
from .memo import AnswerMemo, memo_key
from .narrow import narrowed
from .others import others
from .prune import Pruner
from .question import Question, QuestionReader
from .rank import Alternative, Ranker, ScoringModel, best_order, relevance
from .retrieve import ExemplarIndex, TextEmbedder
from .search import ProgramCandidate, Search, SkippedReading
from .titled import ties_between

log = logging.getLogger(__name__)

# Part of the answer-cache key: bump when reasoning changes (git log -S REASONER_VERSION: each version's history).
# 117: kin chains (order: words in front; extend.fuller), steps each way (named.share), others.py. Before: git log.
REASONER_VERSION = 117
MAX_QUESTION_CHARS = 500
MAX_SKIPPED = 5  # readings passed over that a result lists

__all__ = ["Alternative", "QuestionResult", "REASONER_VERSION", "Reasoner", "SkippedReading", "Timings"]


# ==================================================================== results
@dataclass(frozen=True)
class Timings:
    link: float = 0.0
    retrieve: float = 0.0
    enumerate: float = 0.0  # building, executing and pruning candidates
    score: float = 0.0  # LLM forward scoring
    rerank: float = 0.0
    total: float = 0.0

    def as_dict(self) -> dict[str, float]:
        return {k: round(v, 4) for k, v in asdict(self).items()}


@dataclass(frozen=True)
class QuestionResult:
    question: str
    program: str | None
    sparql: str | None
    answers: tuple[Answer, ...]
    count: int | None
    alternatives: tuple[Alternative, ...]  # the re-ranked best set, best first
    linked: tuple[Mention, ...]  # what the linker found (engine.answer.linker types)
    timings: Timings
    message: str | None  # a helpful reply when there is no answer
    exemplars: tuple[str, ...] = ()  # the corpus questions shown to the LLM
    steps: int = 0  # search steps run
    candidates: int = 0  # programs executed and scored
    cached: bool = False  # served from the answer cache
    corpus_questions: int = 0  # corpus records the exemplars were drawn from
    corpus_readings: int = 0  # stand-in readings among them (engine.bootstrap.readings), while a corpus grows
    skipped: tuple[SkippedReading, ...] = ()  # readings that read the question better but were passed over
    store_faults: int = 0  # queries the store failed (down, garbage, too slow): such a result is never memoized

    @property
    def answered(self) -> bool:
        return self.program is not None and (bool(self.answers) or self.count is not None)

    def to_json(self) -> dict:
        return {
            "question": self.question,
            "program": self.program,
            "sparql": self.sparql,
            "answers": [{"label": a.label, "iri": a.iri} for a in self.answers],
            "count": self.count,
            "message": self.message,
            "alternatives": [asdict(a) for a in self.alternatives],
            "linked": [{"text": m.text, "start": m.start, "end": m.end, "candidates": [
                {"kind": c.kind, "label": c.label, "iri": c.iri, "score": c.score, "classes": list(c.classes)}
                for c in m.candidates]} for m in self.linked],
            "exemplars": list(self.exemplars),
            "steps": self.steps,
            "candidates": self.candidates,
            "timings": self.timings.as_dict(),
            "cached": self.cached,
            "corpus_questions": self.corpus_questions,
            "corpus_readings": self.corpus_readings,
            "skipped": [asdict(s) for s in self.skipped],
        }


class Reasoner:
    """Answers questions over one KG with one corpus, LLM and embedder. Thread-safe for concurrent callers."""

    def __init__(
        self,
        kg: KnowledgeGraph,
        corpus_records: Sequence[CorpusRecord],
        llm: ScoringModel,
        embedder: TextEmbedder,
        label_index: LabelIndex,
        config: ScoutConfig = ScoutConfig(),
        memoize: bool | None = None,  # None: config.answer_memo
    ):
        self.kg, self.schema, self.executor = kg, kg.schema, kg.executor
        self.llm, self.embedder, self.index, self.config = llm, embedder, label_index, config
        self.reader = QuestionReader(self.schema, label_index, ties_between(self.executor))
        self.exemplars = ExemplarIndex(corpus_records, embedder, config.cache_dir)
        self.enumerator = Enumerator(kg, config)
        self.pruner = Pruner(self.schema, self.executor, embedder, config, self.enumerator.ties)
        self.ranker = Ranker(self.schema, llm, config, self.enumerator.incident_relations)
        self.meanings = RelationMeanings(self.schema, embedder)
        self.memo = AnswerMemo(config.cache_dir, enabled=config.answer_memo if memoize is None else memoize)
        # The schema's names and wording shape prompts and programs: an edited label or a named class is
        # another KG to the memo.
        self._schema_digest = hashlib.sha256(self.schema.to_json().encode()).hexdigest()[:16]

    @property
    def records(self) -> list[CorpusRecord]:
        return self.exemplars.records

    # ------------------------------------------------------------------ public
    def answer(self, question: str, on_progress: Callable[[str], None] | None = None) -> QuestionResult:
        """The answer to one question, with its program, alternatives and timings; never raises."""
        started = time.perf_counter()
        report = on_progress or (lambda stage: None)
        question = question if isinstance(question, str) else str(question or "")
        text = " ".join(question.split())
        if not text:
            return _message_result(question, "Please type a question, e.g. \"who directed Alien?\".", started)
        if len(text) > MAX_QUESTION_CHARS:
            return _message_result(
                question[:MAX_QUESTION_CHARS],
                f"The question is {len(text):,} characters long; please ask in at most {MAX_QUESTION_CHARS} "
                "characters (one question about the graph, e.g. \"who directed Alien?\").",
                started,
            )
        key = self._memo_key(text)
        hit = self.memo.get(key)
        if isinstance(hit, QuestionResult):
            return replace(hit, cached=True, timings=Timings(total=time.perf_counter() - started))
        try:
            result = self._answer(text, report, started)
        except StoreFault as err:
            log.warning("the KG did not answer %r: %s", text, err)
            return _message_result(text, _fault_message(str(err), answered=False), started, store_faults=1)
        except Exception as err:  # noqa: BLE001 - the UI must get a reply, never a traceback
            log.exception("reasoning failed for %r", text)
            return _message_result(text, f"Something went wrong while answering: {err}", started)
        if result.store_faults:  # an outage's answer is not the graph's: the next ask reasons again
            return result
        self.memo.set(key, result)
        return result

    def add_records(self, records: Sequence[CorpusRecord]) -> None:
        """Records appended to the corpus (written by a running bootstrap, answers a user marked correct)
        become exemplars for the next question; a stand-in reading of the same program leaves. Answers
        memoized before are keyed by the old corpus and not reused."""
        self.exemplars.add(records)
        self.exemplars.drop(READING, {r.program for r in records if r.source != READING})

    def remove_record(self, record: CorpusRecord) -> bool:
        """A record taken back from the corpus (an undone "mark as correct") stops being an exemplar."""
        return self.exemplars.remove(record)

    @property
    def corpus_size(self) -> tuple[int, int]:
        """(corpus questions, stand-in readings) among the exemplars."""
        readings = sum(1 for r in self.records if r.source == READING)
        return len(self.records) - readings, readings

    def read(self, question: str) -> Question:
        """What the question asks, as the search reads it; for tests and debugging."""
        return self.reader.read(" ".join(question.split()))

    def forward_prompt(self, question: str) -> str:
        """The scoring prompt for a question (as `answer` builds it); for tests and debugging."""
        q = self.read(question)
        return self.ranker.forward_prompt(q, self.exemplars.nearest(q.anonymised, self.config.exemplars))

    def forget(self, question: str) -> None:
        """Drop the memoized answer to a question, so the next `answer` reasons afresh (a cold measurement)."""
        self.memo.delete(self._memo_key(" ".join(str(question).split())))

    def close(self) -> None:
        self.memo.close()

    # ------------------------------------------------------------------ the pipeline
    def _answer(self, text: str, report: Callable[[str], None], started: float) -> QuestionResult:
        executor = self.kg.executor
        before = executor.faults + executor.timeouts  # queries that fail silently below still count here
        result = self._reason(text, report, started)
        failed = executor.faults + executor.timeouts - before
        if not failed:
            return result
        message = _fault_message(executor.last_fault or "", answered=result.answered)
        return replace(result, store_faults=failed,
                       message=message if not result.answered else " ".join(filter(None, [message, result.message])))

    def _reason(self, text: str, report: Callable[[str], None], started: float) -> QuestionResult:
        report("linking")
        t0 = time.perf_counter()
        question = self.reader.read(text)
        t_link = time.perf_counter() - t0
        if question.unlinked and not self.enumerator.flags(question):  # a yes/no word starts a search too
            return _message_result(text, self._not_found_message(text, question.linking), started,
                                   linked=question.linking.mentions, timings=Timings(link=t_link))

        t0 = time.perf_counter()
        search = Search(exemplars=self.exemplars.nearest(question.anonymised, self.config.exemplars))
        t_retrieve = time.perf_counter() - t0

        report("step 1")
        steps, best = self._search(question, search, report)
        timings = Timings(link=t_link, retrieve=t_retrieve, enumerate=search.t_enum, score=search.t_score)
        written, readings = self.corpus_size
        common = dict(linked=question.linking.mentions, exemplars=tuple(r.question for r in search.exemplars),
                      steps=steps, candidates=len(search.scored), corpus_questions=written, corpus_readings=readings)
        if not best:
            return _message_result(text, self._nothing_executes_message(question), started, timings=timings,
                                   **common)

        report("re-ranking")
        t0 = time.perf_counter()
        finalists = self.ranker.with_fitting(question, self.ranker.finalists(search.leaders, best), search.scored)
        finalists = self.ranker.with_fuller(question, finalists, search.scored, self.ranker.inverse)
        meaning = self.meanings.of(question, (r.name for c in finalists for r in relations(c.program)))
        ranked = self.ranker.rerank(question, search.exemplars, finalists, meaning)
        timings = replace(timings, rerank=time.perf_counter() - t0, total=time.perf_counter() - started)
        winner = next((c for c, _ in ranked if c.execution is not None and c.size > 0), None)
        common.update(question=text, alternatives=tuple(alt for _, alt in ranked), timings=timings)
        if winner is None:
            return QuestionResult(program=None, sparql=None, answers=(), count=None,
                                  message="No candidate program gave an answer.", **common)
        program, ex = winner.text, winner.execution
        kind = narrowed(winner.program, question.anonymised, self.schema, self.executor)  # "X's mother": a female parent
        kind = others(kind[0] if kind else winner.program, question, self.executor) or kind  # "X's brothers", less X
        if kind is not None:
            program, ex = to_text(kind[0]), kind[1]
            common["alternatives"] = tuple(replace(alt, program=program) if cand is winner else alt
                                           for cand, alt in ranked)
        return QuestionResult(program=program, sparql=ex.sparql, answers=ex.answers, count=ex.count,
                              message=self._missed_message(question, ranked, winner),
                              skipped=self._skipped(question, search, ranked, winner), **common)

    def _skipped(self, question: Question, search: Search, ranked: list[tuple[ProgramCandidate, Alternative]],
                 winner: ProgramCandidate) -> tuple[SkippedReading, ...]:
        """The readings passed over for the winner though they read the question at least as well: finalists
        the scores put first but whose answers are not what the question asks for, then programs that read
        closer to the question than the winner but executed to nothing or failed. Best first."""
        out = []
        asked = what_is_asked(question, self.schema)
        fits = next(alt.asked_class for cand, alt in ranked if cand is winner)
        for cand, alt in ranked:
            if fits and not alt.asked_class and best_order(cand) < best_order(winner):
                out.append(SkippedReading(cand.text, f"answers with {self._kind(cand)}; the question asks for {asked}"))
        dropped = sorted((c for c, _ in search.dropped if relevance(c) >= relevance(winner)), key=relevance,
                         reverse=True)
        reasons = {id(c): why for c, why in search.dropped}
        out += [SkippedReading(c.text, reasons[id(c)]) for c in dropped]
        return tuple(out[:MAX_SKIPPED])

    def _kind(self, cand: ProgramCandidate) -> str:
        """What a reading answers with, in words: "a count of <what it counts>", "yes or no", or its classes' labels."""
        if isinstance(cand.program, In):
            return "yes or no"
        labels = sorted(self.schema.class_(t).label for t in (cand.counted if isinstance(cand.program, Count)
                                                               else cand.types) or () if self.schema.class_(t))
        named = " or ".join(labels[:3]) or "things of no known class"
        return f"a count of {named} ({cand.size})" if isinstance(cand.program, Count) else named

    def _missed_message(self, question: Question, ranked: list[tuple[ProgramCandidate, Alternative]],
                        winner: ProgramCandidate) -> str | None:
        """Said with the answers when no finalist gives what the question asks for: 507 cities are no population."""
        asked = what_is_asked(question, self.kg.schema)
        if not asked or next(alt.asked_class for cand, alt in ranked if cand is winner):
            return None
        return f"None of the readings I found gives what the question asks for ({asked}); this is the closest."

    def _search(self, question: Question, search: Search,
                report: Callable[[str], None]) -> tuple[int, list[ProgramCandidate]]:
        """Steps of enumerate -> prune -> score until the best set stops changing and some candidate answers
        with what the question asks for; (steps run, best set)."""
        self.enumerator.prefetch(question)
        search.prompt = self.ranker.forward_prompt(question, search.exemplars)
        fresh = self.pruner.keep(search, question, self.enumerator.first(question))
        self.ranker.score(search, fresh)
        steps = 1
        best = self.ranker.best(search)
        while steps < self.config.max_steps and best:
            todo = to_extend(question, search, best, fresh, self.config.beam)
            if not todo:
                break
            steps += 1
            report(f"step {steps}")
            search.expanded.update(c.program for c in todo)
            fresh = self.pruner.keep(search, question, self.enumerator.expand(question, todo, search.pool))
            if not fresh:
                break
            self.ranker.score(search, fresh)
            new_best = self.ranker.best(search)
            unchanged = {c.program for c in new_best} == {c.program for c in best}
            best = new_best
            if unchanged and reached(question, search):  # no new candidate entered the best set
                break
        return steps, best

    def _memo_key(self, text: str) -> str:
        model = getattr(getattr(self.llm, "config", None), "name", type(self.llm).__name__)
        kg = f"{self.kg.fingerprint}#{self._schema_digest}"
        return memo_key(REASONER_VERSION, kg, self.exemplars.corpus_id, model, getattr(self.embedder, "name", ""),
                        self.config, text)

    # ------------------------------------------------------------------ replies without an answer
    def _not_found_message(self, question: str, linking: Linking) -> str:
        unresolved = linking.unresolved()
        content = [w for w in re.findall(r"\w+", question) if w.casefold() not in self.index.stop]
        probe = unresolved[0].text if unresolved else " ".join(content)
        closest = self.index.closest(probe, 5) if probe else []
        if unresolved:
            head = f"Nothing in the graph is labelled \"{unresolved[0].text}\"."
        else:
            head = "I could not find any entity, value or class of this graph in the question."
        if _mostly_non_latin(question):
            head += " Questions are read in English; the graph's labels are matched as written."
        if closest:
            head += " Closest labels: " + ", ".join(f"\"{c}\"" for c in closest) + "."
        return head + " Try naming an entity as it is labelled, e.g. in [square brackets]."

    @staticmethod
    def _nothing_executes_message(question: Question) -> str:
        names = ", ".join(dict.fromkeys(f"\"{a.candidate.label}\"" for a in question.anchors)) or "the classes named"
        return (
            f"I found {names} in the graph, but no program built from it gave an answer. "
            "Try rephrasing, or ask about one relation at a time."
        )


def _fault_message(fault: str, answered: bool) -> str:
    """What the user reads when the KG stopped answering mid-question: what happened, and that asking again
    later is worth it (nothing of the outage is remembered)."""
    head = f"The knowledge graph did not answer every query ({fault})."
    if answered:
        return head + " This answer may miss what those queries would have found; ask again in a moment."
    return head + " Please ask again in a moment."


def _message_result(question: str, message: str, started: float, linked: tuple[Mention, ...] = (),
                    timings: Timings | None = None, **extra) -> QuestionResult:
    timings = replace(timings or Timings(), total=time.perf_counter() - started)
    return QuestionResult(question=question, program=None, sparql=None, answers=(), count=None, alternatives=(),
                          linked=linked, timings=timings, message=message, **extra)


def _mostly_non_latin(text: str) -> bool:
    letters = [ch for ch in text if ch.isalpha()]
    if not letters:
        return False
    latin = sum(1 for ch in letters if "LATIN" in unicodedata.name(ch, ""))
    return latin < 0.5 * len(letters)
