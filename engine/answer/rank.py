"""Ranking: the LLM's forward score, the best set, and the inverse-consistency re-rank (method.md step 3).

Forward score: the LLM's log-prob of the program after one plain few-shot prompt (instructions +
schema + exemplars + the question), length-normalised as sum / n_tokens ** LENGTH_ALPHA. The prompt is
built once per question and never changes, so the LLM's prefix KV cache serves every candidate of
every step; its question-independent head (instructions and a small schema) is kept across questions.
The best set is the `beam` best by forward score plus `relevance`: SIMILARITY_WEIGHT * similarity to the
question, and NAMED_WEIGHT per question word that the candidate's relations spell (engine.answer.named).

Re-rank of the finalists (the best set plus each step's best new candidate, `finalists`):
ic_alpha * forward + (1 - ic_alpha) * log P(question | program) under a "query -> question" prompt, the program
written as its English reading (again one shared prefix), plus log(repeat_penalty) * repeats (`repeats`), less
WALK_BACK_WEIGHT for a last step back and DETOUR_WEIGHT for each round trip below it that the question does not ask
for (engine.answer.walk_back), less STAND_IN_WEIGHT for a walk through a stand-in for a name the question gives
(engine.answer.stand_in), UNNAMED_WEIGHT per step over a relation no word of the question names, by spelling or
meaning (engine.answer.named, engine.answer.meant), and UNSPENT_WEIGHT per question word that means some finalist's
relation but no step of this one (engine.answer.meant.unspent_words), SHORTFALL_WEIGHT per step a chain of kin nouns
or a gloss writes that it leaves unwalked (engine.answer.walk_back.shortfall), and, with no corpus, LAST_STEP_WEIGHT for
a last step no word names where no class is asked for (`walks_on_unnamed`), plus `relevance` (without inverse
consistency: the forward score and relevance alone).
Where the question asks for a class and some finalist answers with it, those come first, and only they get
an inverse score, as the rest cannot win (and none does when only one can).
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass
from typing import Callable, Protocol

from engine.bootstrap.corpus import CorpusRecord
from engine.config import ScoutConfig
from engine.programs.sexpr import (Entity, Join, Literal, Program, Relation, Reverse, parse, relation_name, relations,
                                   to_text, walk)
from engine.programs.verbalize import verbalize
from kg_adapters.schema import RelationInfo, Schema

from .asked import asks_operator, fits_asked
from .ends import either_end
from .meant import UNSPENT_WEIGHT, Meaning, meant_by_free_words, unmeant_steps, unspent_words
from .named import NAMED_WEIGHT, UNNAMED_WEIGHT, Spelling
from .question import Question
from .search import ProgramCandidate, Search
from .stand_in import STAND_IN_WEIGHT, stands_in
from .usual import UNUSUAL_WEIGHT
from .voice import VOICE_WEIGHT, reads_backwards
from .walk_back import (DETOUR_WEIGHT, SHORTFALL_WEIGHT, WALK_BACK_WEIGHT, Inverse, detours, from_the_shared_end,
                        partners, repeats, shortfall, walks_back)

SCHEMA_LINES_ALL = 40  # schemas up to this many relations are listed whole in the prompt
NARROWED = 2  # finalists' narrowings re-ranked (`Ranker.with_fitting`): each costs one inverse score
# Forward scores are sum log-prob / n_tokens ** LENGTH_ALPHA. 1.0 is the paper's mean log-prob; it lets a
# long program of near-certain tokens (closing brackets, repeated names) outscore the right short one
# (MoviesKG, our own questions, synthetic corpus: the right program ranked first for 4/5 at 1.0 and 5/5 at
# 0.7 and 0.5; the full pipeline on 14 questions scored F1 0.857 at both 0.7 and 0.5, while at 1.0 the
# very first question already went to a 3-hop program). A small sample: re-check with the real corpus.
LENGTH_ALPHA = 0.7
# The best set is ranked by forward score + SIMILARITY_WEIGHT * cosine(reading, question), both anonymised.
# The 0.5B scorer alone keeps one-hop programs in the best set, so the search stops before a three-hop
# question's program is built; the reading's similarity lets the longer program in. Tuned on MetaQA dev
# questions disjoint from bench/metaqa.py's sample (seed 1, 12 per hop), F1 for 1/2/3 hops:
# weight 0: -/78.3/40.9; 0.5: 82.6/78.3/55.9; 1.0: 82.6/82.9/55.9. The final re-rank adds the same term:
# without it the 0.5B scorer, primed by exemplars like "countries whose capital is X", read "what is the
# capital of France?" as the cities of France. Replayed on the recorded finalists of 24 disjoint questions
# per hop (seeds 1 and 2), F1 for 1/2/3 hops: final weight 0: 85.0/86.2/45.9; 0.5: 85.0/86.2/52.0;
# 1.0: 85.0/86.2/67.2; 2.0: 80.9/86.2/69.5.
SIMILARITY_WEIGHT = 1.0
# The final re-rank adds NAMES_WEIGHT per question mention a finalist is built on: a reading that leaves a name
# of the question unused answers a smaller question ("spanish speaking countries in south america" went to
# (JOIN language "Spanish"), 0.14 above the AND with South America). Final only: the search still grows from
# single names. 0.25 in BENCHMARKS.md, "reasoner v21"; 0.25 -> 0.5 in session 17 (reasoner v29): the full suite
# answered every question as before (macro 90.9), moviekg-ops 78.6 -> 79.5 ("What did Kubrick make before Paths of
# Glory?" kept Kubrick), geography-ops unchanged at 85.3.
NAMES_WEIGHT = 0.5
# With no corpus (alpha 0) and no class asked for, a finalist whose last step walks on from a set over a relation no
# word spells or means pays this: the 0.5B model's inverse score likes a step past the answer ("which painters were
# part of X?" read as their paintings, a made-up museum KG). The ten blind probes, zero-shot, alone (python -m
# bench.probes.run, 2026-12-06): at 0.5 museum 80.1 -> 82.6, no other probe's F1 moved; charged where a class is asked
# as well, it had cost three right answers (BENCHMARKS.md, "Tried and not adopted: a price on a last step ...").
LAST_STEP_WEIGHT = 0.5

FORWARD_SYSTEM = "Translate each question into a logical form over the knowledge graph."
# The inverse score reads each finalist as English (engine.programs.verbalize) rather than as an s-expression,
# as question generation does (engine/bootstrap/qgen.py): a 0.5B model relates "the language of movies
# directed by X" to a question far better than it relates the s-expression.
INVERSE_SYSTEM = "Write the natural English question that asks for each database query."
NOTATION = (
    "Notation: (JOIN r X) = things whose r is in X; (JOIN (R r) X) = the r of X; (AND X Y) = both; "
    "(COUNT X) = how many; (ARGMAX X r) / (ARGMIN X r) = the X with the largest / smallest r; "
    "(lt r v), (le r v), (gt r v), (ge r v) = things whose r is below / at most / above / at least v "
    "(v an entity: its own r); (AND X (NOT Y)) = X but not Y; (OR X Y) = either; (IN e X) = whether e is in X; "
    "(ARGMAX X (COUNT r)) = the X with the most r; (SUM X r) / (AVG X r) = the total / mean r of X. "
    'Entities are written in double quotes, e.g. "Paris".'
)


class ScoringModel(Protocol):
    """What ranking needs from an LLM (engine.lm.llm.LLM provides it)."""

    def score(self, prefix: str, continuations: list[str]) -> list[float]: ...

    def score_targets(self, prefix: str, pairs: list[tuple[str, str]]) -> list[float]: ...


@dataclass(frozen=True)
class Alternative:
    program: str
    forward: float  # mean log-prob of the program given the question
    # inverse and final are None where they could not change the winner: without re-ranking (inverse only), for a
    # finalist lacking the asked class that another has, and for a lone contender
    inverse: float | None  # mean log-prob of the question given the program
    final: float | None
    asked_class: bool = False  # answers with the class the question asks for ("which languages"); ranked first
    similarity: float = 0.0  # cosine of its anonymised reading to the anonymised question
    named: int = 0  # question words its relations spell (engine.answer.named)
    mentions: int = 0  # question mentions it is built on (NAMES_WEIGHT each in the final score)
    unusual: float = 0.0  # how seldom its entities take the ties it walks from them (engine.answer.usual)
    stands_in: bool = False  # walks through a stand-in for a name the question gives (STAND_IN_WEIGHT)
    unnamed: int = 0  # steps over relations no word of the question spells or means (UNNAMED_WEIGHT each)
    detours: int = 0  # round trips below the last step that the question does not ask for (DETOUR_WEIGHT each)
    unspent: int = 0  # question verbs that mean a finalist's relation and that no step of it means (UNSPENT_WEIGHT)
    backwards: bool = False  # answers with the other end of the main verb's relation than asked (VOICE_WEIGHT)
    shortfall: int = 0  # steps a gloss or a chain of kin words writes that it does not walk (SHORTFALL_WEIGHT each)


class Ranker:
    """Scores candidates with one LLM over one schema. `incident` gives an entity's (relation, side) pairs,
    which pick the schema lines a large schema's prompt shows."""

    def __init__(self, schema: Schema, llm: ScoringModel, config: ScoutConfig,
                 incident: Callable[[str], tuple[tuple[str, str], ...]]):
        self.schema, self.llm, self.config, self.incident = schema, llm, config, incident
        self.inverse = {r.name: r.inverse_of for r in schema.relations if r.inverse_of}  # walks back over a pair
        self.mutual = frozenset(r.name for r in schema.relations if either_end(r))  # no direction to count steps by

    # ------------------------------------------------------------------ forward score and best set
    def forward_prompt(self, question: Question, exemplars: list[CorpusRecord]) -> str:
        """Instructions + schema + exemplars + the question, as plain few-shot text.

        Plain text rather than the chat template: after a chat template's "assistant" turn the first
        program token costs ~6 nats for every candidate, and a constant cost spread over the tokens
        (length normalisation) favours long programs; measured on MoviesKG, the plain few-shot form also
        ranks the right program first more often.
        """
        examples = "".join(f"Question: {r.question}\nLogical form: {r.program}\n\n" for r in exemplars)
        schema = "Relations (subject class -> object class):\n" + "\n".join(self._schema_lines(question, exemplars))
        schema += "\n\n"
        head = f"{FORWARD_SYSTEM}\n{NOTATION}\n\n"
        if len(self.schema.relations) <= SCHEMA_LINES_ALL:  # the whole schema: the same for every question
            head += schema
            schema = ""
        self._keep(head)
        return head + schema + examples + f"Question: {question.text}\nLogical form:"

    def score(self, search: Search, cands: list[ProgramCandidate]) -> None:
        """Forward-score one step's new candidates; the step's best one becomes a finalist (see `finalists`)."""
        if not cands:
            return
        t0 = time.perf_counter()
        texts = [" " + c.text for c in cands]
        scores = self.llm.score(search.prompt, texts)
        for cand, text, score in zip(cands, texts, scores):
            cand.forward = self._normalised(float(score), text)
            cand.order = len(search.scored)
            search.scored.append(cand)
        search.leaders.append(min(cands, key=best_order))
        search.t_score += time.perf_counter() - t0

    def best(self, search: Search) -> list[ProgramCandidate]:
        return sorted(search.scored, key=best_order)[: max(1, self.config.beam)]

    @staticmethod
    def finalists(leaders: list[ProgramCandidate], best: list[ProgramCandidate]) -> list[ProgramCandidate]:
        """The best set, plus each step's best new candidate where the best set left it out.

        The 0.5B forward scorer gives a three-hop program a lower mean log-prob than the one-hop program
        it extends, so the three-hop one is built and scored in step 3 but never enters the best set, and
        inverse consistency, which tells them apart, never sees it. Replayed on the recorded finalists of
        24 MetaQA dev questions per hop disjoint from the benchmark, F1 for 1/2/3 hops, best set only ->
        with each step's best: seed 3 92.7/63.4/70.0 -> 92.7/63.4/78.4; seed 4 93.3/75.8/62.6 ->
        93.3/75.8/79.7. The benchmark's 3-hop F1 went from 66.44 (v6) to 74.64 (v7, with the walk rule of
        engine/programs/to_sparql.py::_not_own).
        """
        extra = [c for c in dict.fromkeys(leaders) if c not in best and c.execution is not None]
        return best + extra

    def with_fitting(self, question: Question, finalists: list[ProgramCandidate],
                     scored: list[ProgramCandidate]) -> list[ProgramCandidate]:
        """The finalists, plus the best-scored candidates that fit every cue where none of them does, and the
        best `NARROWED` that narrow a finalist to what the question asks for (its AND with the asked class,
        its ranking), where the finalist does not fit.

        A program with an operator the corpus has no exemplar of ((IN ...), (SUM ...), a NOT) scores low with
        the 0.5B scorer and stayed out of the best set, so "do Spain and Portugal share a border" got Spain's
        neighbours: the yes/no reading was built but never re-ranked. "Which cities have over 15 million
        inhabitants?" had the cities and countries of (gt population 15000000) among the finalists, and its
        (AND City ...) only in the pool."""
        fits = {id(c) for c in scored if c.execution is not None and fits_asked(question, c)}
        narrowed = sorted((c for c in scored if id(c) in fits and c not in finalists and c.parent in finalists
                           and id(c.parent) not in fits), key=best_order)[:NARROWED]
        finalists = finalists + narrowed
        fitting = sorted((c for c in scored if id(c) in fits and c not in finalists), key=best_order)
        if any(id(c) in fits for c in finalists):
            # the best-scored reading with the question's operator on the most names meets the finalists: "brad pitt
            # films released after moneyball" had one such finalist, an AND over the years of his films, which
            # won unopposed while (AND (JOIN starred_actors "Brad Pitt") (gt ...)) scored better in the pool
            fullest = sorted(fitting, key=lambda c: (-len(c.anchors), best_order(c)))  # on the most names first
            extra = fullest[:1] if asks_operator(question) else []
            # and the shortest fitting reading, where every fitting finalist walks further: a lone contender
            # wins unscored ("which department is X in" went four hops, (JOIN (R works_in) X) never re-ranked)
            fitting_finalists = [c for c in finalists if id(c) in fits]
            return finalists + extra + _shortest_below(fitting_finalists, [c for c in fitting if c not in extra])
        kept = fitting[: self.config.beam]
        # and, as above, the shortest fitting reading where each kept one walks further: the forward score rises
        # with length, so "who is Chen's manager?" (a made-up company KG) kept four longer walks, not (JOIN (R
        # reports_to) X)
        return finalists + kept + _shortest_below(kept, fitting[self.config.beam:])

    @staticmethod
    def with_fuller(question: Question, finalists: list[ProgramCandidate], scored: list[ProgramCandidate],
                    inverse_of: Inverse | None = None) -> list[ProgramCandidate]:
        """The finalists, plus the best-scored candidate built on more of the question's names than any of them,
        and the best-scored one that walks more of the relations the question's words name (each fitting the
        question's cues where a finalist does).

        "who plays at position Defender for country Italy ?": the 0.5B scorer put the players of either name,
        and their clubs and countries, in the best set, so (AND (JOIN plays_for_country "Italy") (JOIN
        plays_position "Defender")), built in step 2, never met inverse consistency, which prefers it. The
        same for words: "population of the capital of nigeria?" had (JOIN (R population) (JOIN (R capital)
        "Nigeria")) built, but the best set held only one-hop readings of one of its two words."""
        fitting = any(fits_asked(question, c) for c in finalists)
        out = list(finalists)
        # more than any finalist that fits and walks straight: "spanish speaking countries in south america" had
        # on both names only the languages of South America's countries and a walk back from them, the finalists
        # that answer with countries straight on one name (a walk back pays the repeat penalty at the re-rank)
        # -- and where every such finalist walks back, all of them count (when the only fitting finalists walked
        # back through the continent of one name, a reading on the other name alone came in for the one on both)
        # -- and a round trip below the last step is no rival either: "X's grandchildren" had as its only rival
        # a walk to X's gender and back, which kept the reading of both named steps out of the re-rank
        named, inverse = question.named_relations, partners(inverse_of or {}, question.named_relations)

        def repeating(c: ProgramCandidate) -> bool:
            return bool(repeats(c.program, not question.asks_same, named, inverse)
                        or (not question.asks_same and detours(c.program, named, inverse)))

        rivals = [c for c in finalists if (fits_asked(question, c) or not fitting) and not repeating(c)] or finalists
        # one that walks straight first, as for the rivals; and of the readings on more names, the one over the
        # fewest relations: an AND of two names brought in, over (AND (JOIN r X) (JOIN s Y)), first its variant
        # that walks back through s, then one that detours through another relation, both scored higher.
        # (Not for named words: more of them may take more relations, and the one-hop reading of one word
        # came in for the two-hop reading of both.)
        shortest = lambda c: len(relations(c.program))  # noqa: E731
        # (a word's relation counts less each step the reading walks on from a set that no word spells: "X's paternal
        # grandfather" had as its rival on both named steps a walk on to X's grandfather's spouse; a step from a name
        # needs no word of its own, "players from Italy")
        # (and less each step a gloss writes that it leaves unwalked: "how many grandchildren" had only X's children);
        # the one that spells the most: "Lena's siblings" took her siblings' spouses, a step past them, the better scored
        spelt = lambda c: c.named - unnamed_on(c.program, named) - shortfall(c.program, named)  # noqa: E731
        for measure, order in ((lambda c: len(c.anchors), shortest), (spelt, lambda c: -spelt(c))):
            most = max(map(measure, rivals), default=0)
            fuller = [c for c in scored if c.execution is not None and c not in out and measure(c) > most
                      and (fits_asked(question, c) or not fitting)]
            out += sorted(fuller, key=lambda c: (repeating(c), order(c), best_order(c)))[:1]
        return out

    # ------------------------------------------------------------------ re-rank
    def rerank(self, question: Question, exemplars: list[CorpusRecord], finalists: list[ProgramCandidate],
               meaning: Meaning = Meaning()) -> list[tuple[ProgramCandidate, Alternative]]:
        """The finalists best first, with their scores; `meaning`: what the question's words mean among the
        finalists' relations (engine.answer.meant.RelationMeanings.of)."""
        asked = [fits_asked(question, c) for c in finalists]
        inverse: list[float | None] = [None] * len(finalists)
        if self.config.inverse_consistency:
            # finalists without the asked class rank after every one with it, whatever they score: skip them;
            # and a lone contender wins whatever it scores, so then nothing is scored
            contenders = [i for i, a in enumerate(asked) if a] if any(asked) else list(range(len(finalists)))
            if len(contenders) > 1:
                prompt = self._inverse_prompt(exemplars)
                pairs = [(f"Query: {self.plain_reading(finalists[i].program)}\nQuestion:", " " + question.text)
                         for i in contenders]
                for i, score in zip(contenders, self.llm.score_targets(prompt, pairs)):
                    inverse[i] = float(score)
        # with no exemplars (a KG without a corpus yet) the forward score, the 0.5B model's guess at a language it
        # has seen no example of, rises with a program's length; the English inverse score decides alone
        alpha = self.config.ic_alpha if exemplars else 0.0
        ranked = [(cand, self._alternative(question, cand, inv, fits, alpha, meaning))
                  for cand, inv, fits in zip(finalists, inverse, asked)]
        # where some finalist answers with the asked class, those come first; the scores order the rest (the
        # unscored ones, all outside the asked class, keep the best set's order)
        ranked.sort(key=lambda ca: (not ca[1].asked_class, -(ca[1].final or 0.0), best_order(ca[0])))
        return ranked

    def _alternative(self, question: Question, cand: ProgramCandidate, inv: float | None, fits: bool,
                     alpha: float, meaning: Meaning) -> Alternative:
        penalty = math.log(self.config.repeat_penalty) if self.config.repeat_penalty > 0 else 0.0
        stand = stands_in(question, cand.program, self.schema)
        meant = meant_by_free_words(cand.program, question.named_relations, meaning)
        unnamed = unmeant_steps(cand.program, question.named_relations, meaning)
        unspent = unspent_words(cand.program, question.named_relations, meaning)
        inverse = partners(self.inverse, question.named_relations)
        detour = 0 if question.asks_same else detours(cand.program, question.named_relations, inverse)
        backwards = reads_backwards(cand.program, question.voice)
        short = shortfall(cand.program, question.named_relations)
        # with no corpus and no class asked for, nothing else tells an extra last step from the answer's own
        last = (alpha == 0.0 and not question.asked_types
                and walks_on_unnamed(cand.program, question.named_relations, meant))
        if not self.config.inverse_consistency:
            final = cand.forward + relevance(cand)
        elif inv is None:  # skipped: it could not change the winner, so no final score to show
            final = None
        else:
            same = question.asks_same and not from_the_shared_end(cand.program, question.shared, question.named_relations)
            repeat_count = repeats(cand.program, not same, question.named_relations, inverse, self.mutual)
            back = 0.0 if same else WALK_BACK_WEIGHT * walks_back(cand.program, inverse)
            final = (alpha * cand.forward + (1 - alpha) * inv + penalty * repeat_count - back + relevance(cand)
                     + NAMES_WEIGHT * len(cand.anchors) - STAND_IN_WEIGHT * stand - UNNAMED_WEIGHT * unnamed
                     - DETOUR_WEIGHT * detour - UNSPENT_WEIGHT * unspent - LAST_STEP_WEIGHT * last
                     - VOICE_WEIGHT * backwards - SHORTFALL_WEIGHT * short)
        return Alternative(cand.text, round(cand.forward, 6), None if inv is None else round(inv, 6),
                           None if final is None else round(final, 6), fits, round(cand.similarity, 6), cand.named,
                           len(cand.anchors), round(cand.unusual, 6), stand, unnamed, detour, unspent, backwards, short)

    def _inverse_prompt(self, exemplars: list[CorpusRecord]) -> str:
        examples = "".join(f"Query: {self.plain_reading(r.program)}\nQuestion: {r.question}\n\n" for r in exemplars)
        head = f"{INVERSE_SYSTEM}\n\n"
        self._keep(head)
        return head + examples

    def plain_reading(self, program: Program | str) -> str:
        try:
            return verbalize(parse(program) if isinstance(program, str) else program, self.schema)
        except Exception:  # noqa: BLE001 - a program the reader cannot voice is shown as written
            return program if isinstance(program, str) else to_text(program)

    # ------------------------------------------------------------------ helpers
    def _schema_lines(self, question: Question, exemplars: list[CorpusRecord]) -> list[str]:
        rels = list(self.schema.relations)
        if len(rels) > SCHEMA_LINES_ALL:
            wanted: set[str] = set()
            for record in exemplars:
                wanted |= set(re.findall(r"[\w.:/#-]+", record.program))
            for anchor in question.anchors:
                if isinstance(anchor.node, Entity):
                    wanted |= {name for name, _ in self.incident(anchor.node.iri)}
            rels = [r for r in rels if r.name in wanted]
        return [_schema_line(r) for r in rels]

    def _keep(self, head: str) -> None:
        """Let the LLM encode the question-independent start of a prompt once (engine.lm.llm.keep_prefix)."""
        keep = getattr(self.llm, "keep_prefix", None)
        if keep is not None:
            keep(head)

    def _normalised(self, mean: float, text: str) -> float:
        """Mean log-prob -> sum / n ** LENGTH_ALPHA (1.0 keeps the mean; see LENGTH_ALPHA)."""
        if LENGTH_ALPHA == 1.0:
            return mean
        encode = getattr(self.llm, "encode_continuation", None)
        n = len(encode(text)) if encode is not None else max(1, len(text) // 3)
        return mean * n ** (1.0 - LENGTH_ALPHA)


def _shortest_below(kept: list[ProgramCandidate], others: list[ProgramCandidate]) -> list[ProgramCandidate]:
    """The shortest of `others` (the best-scored among equals) where it walks fewer steps than every one of `kept`."""
    shortest = min((len(relations(c.program)) for c in kept), default=0)
    shorter = [c for c in others if len(relations(c.program)) < shortest]
    return sorted(shorter, key=lambda c: (len(relations(c.program)), best_order(c)))[:1]


def walks_on_unnamed(program: Program, named: dict[str, Spelling], meant: frozenset[str]) -> bool:
    """Whether the program's outermost step walks on from a set (not from a name) over a relation that no word of
    the question spells (`named`) or means (`meant`)."""
    if not isinstance(program, Join) or not isinstance(program.relation, (Relation, Reverse)):
        return False
    name = relation_name(program.relation)
    return not isinstance(program.arg, Entity) and name not in named and name not in meant


def best_order(cand: ProgramCandidate) -> tuple[float, int]:
    """The best set's order: forward score plus `relevance`, ties to the earlier."""
    return -(cand.forward + relevance(cand)), cand.order


def unnamed_on(program: Program, named: dict[str, Spelling]) -> int:
    """The steps that walk on from a set (not from a name or value) over a relation no word of the question spells."""
    return sum(1 for node in walk(program) if isinstance(node, Join) and not isinstance(node.arg, (Entity, Literal))
               and relation_name(node.relation) not in named)


def relevance(cand: ProgramCandidate) -> float:
    """What the question's own words and the KG say of a candidate: its reading's similarity, how fully the
    question names its relations (engine.answer.named), and how seldom its entities take the ties it walks
    from them where the question names none (engine.answer.usual)."""
    return SIMILARITY_WEIGHT * cand.similarity + NAMED_WEIGHT * cand.named - UNUSUAL_WEIGHT * cand.unusual


def _schema_line(info: RelationInfo) -> str:
    return f"{info.name}: {'|'.join(info.domain) or 'thing'} -> {'|'.join(info.range) or 'thing'}"
