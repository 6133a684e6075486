"""The state of one question's search: the candidate programs, and what each step did with them.

A `ProgramCandidate` is born in `candidates` (program, anchors, answer classes), executed in `prune`
(answers, similarity to the question) and scored in `rank` (forward score). A `Search` holds them for
one question, so the stages share no state between questions and a reasoner serves threads at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.bootstrap.corpus import CorpusRecord
from engine.programs.executor import Execution
from engine.programs.sexpr import Program


@dataclass(eq=False)
class ProgramCandidate:
    program: Program
    text: str
    anchors: frozenset[int]  # indices of the mentions it is built on
    types: frozenset[str] | None  # its answers' classes, where the schema knows them
    execution: Execution | None = None
    keys: frozenset[str] = frozenset()  # answer identities, for AND intersections
    forward: float | None = None
    order: int = 0  # arrival order: ties keep the earlier (better-linked, more similar) candidate
    parent: ProgramCandidate | None = None  # for ANDs with a class and superlatives: idle when answers are the parent's
    similarity: float = 0.0  # cosine of its anonymised reading to the anonymised question
    named: int = 0  # question words its relations spell (engine.answer.named)
    unusual: float = 0.0  # how seldom its linked entities take the ties it walks from them (engine.answer.usual)
    counted: frozenset[str] | None = None  # a COUNT's: the classes of what it counts, where the schema knows them

    @property
    def size(self) -> int:
        if self.execution is None:
            return 0
        return self.execution.count if self.execution.count is not None else len(self.execution.answers)


@dataclass(frozen=True)
class SkippedReading:
    """A reading the search tried and passed over, and why: shown with the answer (self-correction)."""

    program: str
    reason: str


@dataclass
class Search:
    """One question's search, step by step."""

    exemplars: list[CorpusRecord] = field(default_factory=list)
    prompt: str = ""  # the forward-scoring prompt, fixed for the whole search
    seen: set = field(default_factory=set)  # programs built so far (executed or not)
    scored: list[ProgramCandidate] = field(default_factory=list)
    pool: list[ProgramCandidate] = field(default_factory=list)  # kept candidates, for ANDs
    expanded: set = field(default_factory=set)  # programs already extended
    leaders: list[ProgramCandidate] = field(default_factory=list)  # each step's best new candidate
    dropped: list[tuple[ProgramCandidate, str]] = field(default_factory=list)  # executed to nothing or failed
    executed: int = 0
    kin_chain: bool = False  # the words name steps between members of one class from one name (`prune`)
    t_enum: float = 0.0  # building, executing and pruning
    t_score: float = 0.0  # LLM forward scoring
