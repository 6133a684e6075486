"""Question generation for explored programs (BYOKG step 2).

Least-to-most: a program's sub-programs get their questions first, innermost
first, and each prompt carries the earlier (reading, question) pairs as worked
examples, plus one schema line for every relation and class the program uses.
A 0.5B model cannot read s-expressions, so each prompt shows the program's English
reading (engine.programs.verbalize) for the model to rephrase as a question.

The final question is chosen among beam candidates by *inverse consistency*: the
length-normalised log-probability of the program given each candidate question.
The program is scored in its English reading, the same deterministic rendering the
generation prompt shows, because a 0.5B model judges "the number of tags of the
movie X" against "how many movies have the tag X?" far better than it judges
`(R has_tags)` against it: on the judged MoviesKG sample (bench/qgen_sample.md)
scoring the s-expression picked worse questions than the top beam, scoring the
reading picked better ones, at half the cost. Programs are processed in batches, one
decomposition level at a time, so a single batched beam search serves many
programs; a sub-program's question is memoized and reused by every program that
shares it.

With `readable` (ScoutConfig.qgen_readable, off by default) the prompt shows a fluent reading ("the course of the
student X", not "the enrolled of"), and a candidate must say every step of its program (engine.bootstrap.faithful:
each entity, relation walked and operator has words, and it has a main verb) before inverse consistency may choose
it; where none does, the question is the reading put plainly as a question, clumsy but true. By eye it writes far
better questions (bench/qgen_eye_<kg>_fast3.md), but its corpora cost check F1 on 7 of 8 dev KG-and-seed pairs
(BENCHMARKS.md, "Readable questions at v40 ..."), so it is not the default. At reasoner v78 its corpora hold or
gain check F1 on four of the five bootstrapped dev KGs and lose one WorldCup question, and at a second exploration
seed lose university check questions again (BENCHMARKS.md, "Readable questions at reasoner v78 ..."): still off, by
the rule that no KG's check F1 may fall.

The few-shot examples are about a made-up library KG, so nothing about the user's
KG or any benchmark leaks in: generation stays zero-shot.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace
from typing import Callable, Protocol

from engine.lm.clock import StageClock
from engine.programs.sexpr import Class, Program, Relation, parse, relations, walk
from engine.programs.verbalize import verbalize
from kg_adapters.schema import Schema

from .faithful import as_question, says_every_step

SYSTEM = "You rewrite database queries as natural English questions. Answer with the question only."
INVERSE_SYSTEM = "You restate questions as precise database queries in plain English."

# Made-up KGs (books, music): (program, reading, question). Two domains, so the model
# learns the task rather than the topic.
GENERIC_EXAMPLES = (
    ('(JOIN (R written_by) "The Hobbit")', "the writer of the book The Hobbit", "who wrote the hobbit?"),
    ('(JOIN written_by "Ursula K. Le Guin")', "books written by Ursula K. Le Guin", "which books did ursula k. le guin write?"),
    ('(COUNT (JOIN performed_by "Nina Simone"))', "the number of albums performed by Nina Simone", "how many albums did nina simone record?"),
    (
        '(AND (JOIN has_genre "Jazz") (gt release_year 1990))',
        "albums whose genre is Jazz and whose release year is greater than 1990",
        "which jazz albums came out after 1990?",
    ),
    (
        '(ARGMAX (JOIN written_by "Terry Pratchett") page_count)',
        "the books written by Terry Pratchett with the largest page count",
        "what is the longest book by terry pratchett?",
    ),
    (
        '(JOIN (R has_genre) (JOIN performed_by "Miles Davis"))',
        "the genre of albums performed by Miles Davis",
        "what genres are the albums by miles davis?",
    ),
)

# Shown only with `readable` on: shapes the 0.5B model wrote badly (bench/qgen_eye_*.md): a count of a set's
# objects came out with no verb ("how many writers of books ...?"), a shared value lost its middle step.
READABLE_EXAMPLES = GENERIC_EXAMPLES + (
    (
        '(COUNT (JOIN (R written_by) (JOIN has_genre "Fantasy")))',
        "the number of writers of books whose genre is Fantasy",
        "how many writers have written fantasy books?",
    ),
    (
        '(JOIN has_genre (JOIN (R has_genre) "Kind of Blue"))',
        "albums with the same genre as the album Kind of Blue",
        "which albums have the same genre as kind of blue?",
    ),
)


class QuestionModel(Protocol):
    """What question generation needs from an LLM (engine.lm.llm.LLM provides it)."""

    def chat_prompt(self, system: str, user: str, assistant_prefix: str = "") -> str: ...

    def beam_search(self, prefix: str, suffixes: list[str], num_beams: int = 10, max_new_tokens: int = 32,
                    stop_at_newline: bool = True, on_finished: Callable[[int], None] | None = None) -> list[list]: ...

    def score_targets(self, prefix: str, pairs: list[tuple[str, str]]) -> list[float]: ...


@dataclass(frozen=True)
class GeneratedQuestion:
    program: str
    question: str  # chosen by inverse consistency
    top_beam: str  # the beam search's own favourite
    ic_score: float  # of the chosen question
    top_beam_ic_score: float
    beam_score: float  # of the top beam
    subquestions: tuple[tuple[str, str], ...]  # least-to-most (sub-program, question), innermost first
    plain: bool = False  # no candidate said every step (engine.bootstrap.faithful): the reading as a question


def schema_lines(program: Program, schema: Schema) -> list[str]:
    """One line per relation and class in the program: names, domain, range, readings, descriptions."""
    lines, seen = [], set()
    for node in walk(program):
        if isinstance(node, Relation) and node.name not in seen:
            seen.add(node.name)
            info = schema.relation(node.name)
            if info:
                desc = f" - {info.description}" if info.description else ""
                lines.append(
                    f"{info.name}: {'|'.join(info.domain) or 'thing'} -> {'|'.join(info.range) or 'thing'} "
                    f"({info.label}){desc}"
                )
        elif isinstance(node, Class) and node.name not in seen:
            seen.add(node.name)
            info = schema.class_(node.name)
            if info and info.description and not info.induced:
                lines.append(f"{info.name}: {info.description}")
    return lines


class QuestionGenerator:
    """`context`: how many sub-program questions a program's prompt shows (least-to-most); -1 shows all
    (see `chain`, and ScoutConfig.qgen_context for what each costs)."""

    def __init__(self, llm: QuestionModel, schema: Schema, beams: int = 10, max_new_tokens: int = 32,
                 context: int = -1, on_stage: Callable[[str], None] | None = None,
                 on_written: Callable[[str], None] | None = None, readable: bool = False):
        self.llm, self.schema, self.beams, self.max_new_tokens = llm, schema, beams, max_new_tokens
        self.context, self.readable = context, readable
        self.examples = READABLE_EXAMPLES if readable else GENERIC_EXAMPLES
        self.on_stage = on_stage or (lambda stage: None)
        self.on_written = on_written  # each program whose beam search ended, as it ends: progress per program
        self.clock: StageClock = getattr(llm, "clock", None) or StageClock()
        self.memo: dict[str, GeneratedQuestion] = {}

    # ------------------------------------------------------------ prompts
    def reading(self, program: str) -> str:
        return verbalize(parse(program), self.schema, fluent=self.readable)

    def generation_prompt(self, program: str, earlier: list[tuple[str, str]]) -> str:
        """Few-shot as chat turns: the made-up examples, then the sub-programs' own pairs."""
        history = [(f"Query: {r}", q) for _, r, q in self.examples]
        history += [(f"Query: {self.reading(p)}", q) for p, q in earlier]
        terms = "; ".join(schema_lines(parse(program), self.schema))
        return self.llm.chat_prompt(SYSTEM, f"Terms: {terms}\nQuery: {self.reading(program)}", history=history)

    def inverse_prompt(self, question: str) -> str:
        """The "question -> query reading" prompt, up to where the program's reading would start."""
        history = [(f"Question: {q}", r) for _, r, q in self.examples]
        return self.llm.chat_prompt(INVERSE_SYSTEM, f"Question: {question}", history=history)

    # ------------------------------------------------------------ generation
    def generate(self, program: str, subprograms: list[str]) -> GeneratedQuestion:
        return self.generate_batch([(program, subprograms)])[0]

    def generate_batch(self, items: list[tuple[str, list[str]]]) -> list[GeneratedQuestion]:
        """Questions for several programs: level by level through their decompositions."""
        chains = [self.chain(program, subs) for program, subs in items]
        for level in range(max(len(c) for c in chains)):
            todo: dict[str, list[tuple[str, str]]] = {}
            for chain in chains:
                if level < len(chain) and chain[level] not in self.memo:
                    todo.setdefault(chain[level], [(p, self.memo[p].question) for p in chain[:level]])
            self._generate_level(todo)
        return [self.memo[chain[-1]] for chain in chains]

    def chain(self, program: str, subprograms: list[str]) -> list[str]:
        """What gets a question, in order: sub-programs (innermost first), then the program itself, whose
        prompt shows their questions. All of them with `context` -1 (the paper's least-to-most); else the
        last `context`, and none for a program of one or two relations."""
        chain = [s for s in subprograms if s != program]
        if self.context < 0:
            return chain + [program]
        if self.context == 0 or len(relations(parse(program))) <= 2:
            return [program]
        return chain[-self.context:] + [program]

    def _generate_level(self, todo: dict[str, list[tuple[str, str]]]) -> None:
        """One batched beam search and one batched inverse-consistency pass for a level."""
        if not todo:
            return
        programs = list(todo)
        self.on_stage("writing questions")
        with self.clock.stage("prompts"):
            prompts = [self.generation_prompt(p, todo[p]) for p in programs]
            prefix = shared_prefix(prompts)
        written = {} if self.on_written is None else {
            "on_finished": lambda b: self.on_written(programs[b])}
        with self.clock.stage("write"):
            beams = self.llm.beam_search(
                prefix, [p[len(prefix):] for p in prompts], num_beams=self.beams, max_new_tokens=self.max_new_tokens,
                **written,
            )
        questions = [_candidates(program, found) for program, found in zip(programs, beams)]
        self.on_stage("checking them")
        # Inverse consistency chooses among the candidates that say every step; the top beam is scored too, for
        # the record (`top_beam_ic_score`). The rest would never be chosen, so they are not scored.
        said = [[i for i, (q, _) in enumerate(qs) if self.says_every_step(p, q)] for p, qs in zip(programs, questions)]
        scored = [sorted({0, *s}) for s in said]
        with self.clock.stage("check"):
            flat = iter(self.inverse_consistency(
                [(p, qs[i][0]) for p, qs, ks in zip(programs, questions, scored) for i in ks]))
        plain = []
        for program, candidates, ks, passing in zip(programs, questions, scored, said):
            scores = {i: next(flat) for i in ks}
            if not passing:
                plain.append(program)
            best = max(passing or [0], key=lambda i: scores[i])
            self.memo[program] = GeneratedQuestion(
                program=program,
                question=candidates[best][0],
                top_beam=candidates[0][0],
                ic_score=scores[best],
                top_beam_ic_score=scores[0],
                beam_score=candidates[0][1],
                subquestions=tuple(todo[program]),
            )
        self._say_plainly(plain)

    def says_every_step(self, program: str, question: str) -> bool:
        return not self.readable or says_every_step(parse(program), question, self.schema)

    def _say_plainly(self, programs: list[str]) -> None:
        """Where no beam said every step, the reading put as a question (one batched scoring for its IC score)."""
        if not programs:
            return
        questions = [as_question(parse(p), self.reading(p)) for p in programs]
        with self.clock.stage("check"):
            scores = self.inverse_consistency(list(zip(programs, questions)))
        for program, question, score in zip(programs, questions, scores):
            self.memo[program] = replace(self.memo[program], question=question, ic_score=score, plain=True)

    def inverse_consistency(self, pairs: list[tuple[str, str]]) -> list[float]:
        """log P(program's reading | question) for each (program, question) pair, in one batched pass."""
        prompts = [self.inverse_prompt(question) for _, question in pairs]
        prefix = shared_prefix(prompts)
        return self.llm.score_targets(
            prefix, [(prompt[len(prefix):], self.reading(program)) for prompt, (program, _) in zip(prompts, pairs)]
        )


def shared_prefix(texts: list[str]) -> str:
    """The longest common start of all texts, cut after a newline so tokens split cleanly there."""
    common = os.path.commonprefix(texts)
    if len(texts) == 1:
        common = common[: common.rfind("\n", 0, len(common) - 1) + 1]
    return common[: common.rfind("\n") + 1]


def _candidates(program: str, beams: list) -> list[tuple[str, float]]:
    """(question, beam score), best beam first; questions only where the model wrote some."""
    kept = [b for b in beams if _is_question(b.text)] or list(beams)
    if not kept:
        raise ValueError(f"the model wrote no question for {program}")
    out: dict[str, float] = {}
    for b in kept:
        out.setdefault(_clean(b.text), b.logprob)
    return list(out.items())


def _is_question(text: str) -> bool:
    return 2 <= len(text.split()) <= 40 and not text.lstrip().startswith("(")


def _clean(text: str) -> str:
    return re.sub(r"^(question\s*:\s*)", "", text.strip(), flags=re.I).strip().strip('"')


def anonymise_question(question: str, entities: list[tuple[str, str]]) -> str:
    """Replace each entity label (case-insensitive) by its class name."""
    out = question
    for label, cls in sorted(entities, key=lambda e: -len(e[0])):
        out = re.sub(re.escape(label), cls.replace("_", " "), out, flags=re.I)
    return out
