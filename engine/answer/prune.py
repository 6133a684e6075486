"""Pruning: keep the `prune_k` new programs most like the question that have answers (method.md step 3).

Each new candidate is read aloud with its anchors anonymised (engine.programs.verbalize; "movies
directed by person"), worded like the anonymised question, and ranked by `rank.relevance`: its cosine
similarity to it, the relations the question names (engine.answer.named) and the usual ties of its
entities (engine.answer.usual).
Candidates are then executed in that order until `prune_k` have a non-empty answer; empty, failing or
timed-out ones are dropped. That is the same set as "execute all, drop empties, keep the top prune_k"
but runs far fewer queries. With `config.prune` off everything is executed.
"""

from __future__ import annotations

import logging
import time

from engine.config import ScoutConfig
from engine.programs.executor import Executor
from engine.programs.sexpr import (
    And,
    Class,
    Entity,
    Literal,
    Node,
    Program,
    ProgramError,
    Superlative,
    is_set,
    to_text,
    transform,
)
from engine.programs.verbalize import verbalize
from kg_adapters.base import KGError
from kg_adapters.schema import Schema

from .asked import asks_operator, fits_asked
from .named import Spelling, share
from .order import among_one_class, chain_steps, misordered, placed_words
from .question import Question
from .rank import relevance
from .retrieve import TextEmbedder
from .search import ProgramCandidate, Search
from .usual import UsualTies

log = logging.getLogger(__name__)

# Candidates fitting every operator cue kept beyond prune_k, per step. Not tuned: small, as each one costs a query
# and a forward score; it came in with reasoner v17, measured as a whole (BENCHMARKS.md, issue 13, session 10).
CUE_FITTING_KEPT = 3


class Pruner:
    def __init__(self, schema: Schema, executor: Executor, embedder: TextEmbedder, config: ScoutConfig,
                 usual: UsualTies | None = None):
        self.schema, self.executor, self.embedder, self.config = schema, executor, embedder, config
        self.usual = usual or UsualTies(schema, executor)

    def keep(self, search: Search, question: Question, cands: list[ProgramCandidate]) -> list[ProgramCandidate]:
        """New candidates ranked by relevance, executed in that order until prune_k are non-empty."""
        t0 = time.perf_counter()
        fresh: list[ProgramCandidate] = []
        for cand in cands:
            if cand.program in search.seen:
                continue
            search.seen.add(cand.program)
            fresh.append(cand)
        if fresh:
            readings = [self.reading(question, c.program) for c in fresh]
            vectors = self.embedder.encode([question.anonymised, *readings])
            order = _said_order(question, self.schema)
            search.kin_chain = order is not None
            for cand, sim in zip(fresh, vectors[1:] @ vectors[0]):
                cand.similarity = float(sim)
                own = frozenset().union(*(question.class_words.get(t, frozenset()) for t in cand.types or ()))
                spelt = share(question.named_relations, cand.program, own)
                cand.named = max(0, spelt - _against_order(order, cand))
                cand.unusual = self.usual.unusual(cand.program, question.named_relations.keys())
        if self.config.prune:
            fresh.sort(key=lambda c: -relevance(c))  # stable: equals keep build order
        limit = self.config.prune_k if self.config.prune else len(fresh)
        tried: set[int] = set()
        kept = self._first_with_answers(search, fresh, limit, tried)
        operator = asks_operator(question)
        if self.config.prune and (operator or question.asked_types):
            # readings the question's operator cues ask for ((SUM (OR "Spain" "Portugal") population) for "the
            # combined population of Spain and Portugal") read unlike the question to the embedder, and fell
            # below prune_k; the best few of them are kept as well. So are the narrowings of a set to the class
            # asked for: "countries with more than 100 million people" lost (AND Country (gt population ...)).
            fitting = [c for c in fresh if id(c) not in tried and fits_asked(question, c)
                       and (operator or _narrows(question, c))]
            kept += self._first_with_answers(search, fitting, CUE_FITTING_KEPT, tried)
        search.pool = search.pool + [c for c in kept if is_set(c.program)]
        search.t_enum += time.perf_counter() - t0
        return kept

    def _first_with_answers(self, search: Search, cands: list[ProgramCandidate], limit: int,
                            tried: set[int]) -> list[ProgramCandidate]:
        """Executes candidates in order until `limit` have answers; `tried` records every one executed."""
        kept: list[ProgramCandidate] = []
        for cand in cands:
            if len(kept) >= limit:
                break
            tried.add(id(cand))
            if self._execute(search, cand):
                kept.append(cand)
        return kept

    def reading(self, question: Question, program: Program) -> str:
        """The anonymised candidate read aloud, worded like Linking.anonymised()."""

        def anonymise(node: Node) -> Node:
            word = question.words.get(node) if isinstance(node, (Entity, Literal)) else None
            if word is None:
                return node
            return Entity(word) if isinstance(node, Entity) else Literal(word, node.kind)  # Compare needs a Literal

        try:
            return verbalize(transform(program, anonymise), self.schema)
        except Exception:  # noqa: BLE001 - an unreadable program is still a candidate
            return to_text(program)

    def _execute(self, search: Search, cand: ProgramCandidate) -> bool:
        try:
            execution = self.executor.execute(cand.program)
        except (KGError, ProgramError, ValueError) as err:  # QueryTimeout drops just this candidate
            log.debug("dropped %s: %s", cand.text, err)
            search.dropped.append((cand, f"failed: {err}"))
            return False
        search.executed += 1
        size = execution.count if execution.count is not None else len(execution.answers)
        if size == 0:
            search.dropped.append((cand, "no answers"))
            return False
        cand.execution = execution
        cand.keys = frozenset(a.iri or a.label for a in execution.answers) if execution.count is None else frozenset()
        if self._ranks_nothing(cand):
            search.dropped.append((cand, "a ranking that keeps most of its set"))
            return False
        parent = cand.parent
        if parent is not None and parent.execution is not None and cand.keys == parent.keys:
            if isinstance(cand.program, And) and isinstance(cand.program.left, Class):
                # every member is of the class: "countries with more than 100 million people" is (gt population
                # 100000000) itself, as no city has as many, and it answers with the class asked for
                parent.types = cand.types
            return False  # an AND or superlative that changes nothing
        return True

    def _ranks_nothing(self, cand: ProgramCandidate) -> bool:
        """Whether a superlative ties more than half the set it ranks: "the European country with the most
        capitals" is nearly every European country (each has one), and read like "the most cities" to the
        scorer. A ranking answers with its top few."""
        program = cand.program
        if not isinstance(program, Superlative) or len(cand.keys) < 2:
            return False
        if cand.parent is not None and cand.parent.execution is not None:
            ranked = len(cand.parent.keys)
        elif isinstance(program.arg, Class) and self.schema.class_(program.arg.name) is not None:
            ranked = self.schema.class_(program.arg.name).size
        else:
            return False
        return 2 * len(cand.keys) > ranked


def _narrows(question: Question, cand: ProgramCandidate) -> bool:
    """Whether the candidate fits what the question asks for where the set it was built from does not."""
    return cand.parent is not None and not fits_asked(question, cand.parent)


def _said_order(question: Question, schema: Schema) -> tuple[dict[str, Spelling], dict[str, list[float]]] | None:
    """(the named relations within one class, the question's words placed outward from its one name), read once
    per pruning (engine.answer.order); None where the question has no one name: the words in front of one name may
    be another name's."""
    names = [m for m in question.linking.mentions if m.kind == "entity"]
    if len(names) != 1:
        return None
    kin = among_one_class(schema, question.named_relations)
    if not kin:
        return None
    return kin, placed_words(question.linking.question, names[0].start, names[0].end, question.parts)


def _against_order(order: tuple[dict[str, Spelling], dict[str, list[float]]] | None, cand: ProgramCandidate) -> int:
    """The steps of a chain from the question's one name that spell a word where the question's grammar does not
    put it: each is a word it does not spell."""
    entity, steps = chain_steps(cand.program)
    if order is None or entity is None:
        return 0
    kin, places = order
    return misordered([step for step in steps if step[0] in kin], kin, places)
