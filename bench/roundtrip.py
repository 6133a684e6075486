"""Round trip: how well a corpus' questions say what their programs mean, with no gold data.

Hold out a seeded sample of the corpus, answer each held-out question with the reasoner steered by the
rest of the corpus, and count how often the reasoner comes back to the record's program, or at least
to its answers. A question that names the wrong relation, or drops a step, sends the reasoner
elsewhere; so the score falls when question generation gets worse, whatever the KG, and needs
nothing but the corpus itself.

    python -m bench.roundtrip --kg metaqa --corpus ~/.cache/kgscout/bench/kgs-v12/metaqa-b24-s0 --sample 24
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from engine.answer.reasoner import Reasoner
from engine.bootstrap.corpus import Corpus, CorpusRecord
from engine.config import ScoutConfig
from engine.programs.executor import Execution
from engine.scout import KGSession, Scout


@dataclass(frozen=True)
class RoundTripRow:
    program: str
    question: str
    answered: str | None  # the reasoner's program
    same_program: bool
    same_answers: bool
    seconds: float


@dataclass(frozen=True)
class RoundTrip:
    rows: tuple[RoundTripRow, ...]

    @property
    def same_program(self) -> float:
        return _share(r.same_program for r in self.rows)

    @property
    def same_answers(self) -> float:
        return _share(r.same_answers for r in self.rows)

    @property
    def median_s(self) -> float:
        return statistics.median(r.seconds for r in self.rows) if self.rows else 0.0

    def summary(self) -> str:
        return (f"{100 * self.same_answers:.1f}% same answers, {100 * self.same_program:.1f}% same program "
                f"({len(self.rows)} held-out questions, median {self.median_s:.1f} s each)")


def held_out(records: Sequence[CorpusRecord], n: int, seed: int,
             held: Sequence[str] | None = None) -> tuple[list[CorpusRecord], list[CorpusRecord]]:
    """(held out, the rest): n explored records drawn with random.Random(seed), or those of the programs `held`
    (bench.qgen_eye's drawn records); user records stay in the rest."""
    explored = [i for i, r in enumerate(records) if r.source == "explored"]
    if held is not None:
        chosen = {i for i in explored if records[i].program in set(held)}
    else:
        chosen = set(random.Random(seed).sample(explored, min(n, len(explored))))
    return [records[i] for i in sorted(chosen)], [r for i, r in enumerate(records) if i not in chosen]


def round_trip(session: KGSession, n: int, seed: int = 0, held: Sequence[str] | None = None) -> RoundTrip:
    """Answer n held-out corpus questions (or those of the programs `held`) with a reasoner built on the rest."""
    test, rest = held_out(session.corpus.records(), n, seed, held)
    scout = session.scout
    reasoner = Reasoner(session.kg, rest, scout.llm(), scout.embedder(), session.label_index(), scout.config,
                        memoize=False)
    rows = []
    for record in test:
        started = time.perf_counter()
        result = reasoner.answer(record.question)
        seconds = time.perf_counter() - started
        gold = session.kg.executor.execute(record.program)
        same_answers = result.program is not None and _same(gold, result.count, {a.iri or a.label for a in result.answers})
        rows.append(RoundTripRow(record.program, record.question, result.program,
                                 result.program == record.program, same_answers, seconds))
    return RoundTrip(tuple(rows))


def _same(gold: Execution, count: int | None, answers: set[str]) -> bool:
    if gold.count is not None or count is not None:
        return gold.count == count
    return {a.iri or a.label for a in gold.answers} == answers


def _share(flags) -> float:
    flags = list(flags)
    return sum(flags) / len(flags) if flags else 0.0


def main() -> None:
    from bench.kgs import SPECS

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kg", default="metaqa", help=f"one of {', '.join(SPECS)}")
    parser.add_argument("--corpus", type=Path, required=True, help="a corpus folder built for that KG")
    parser.add_argument("--sample", type=int, default=24)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    scout = Scout(ScoutConfig())
    session = scout.open(SPECS[args.kg].kg, args.corpus)
    if not Corpus(args.corpus).records():
        raise SystemExit(f"{args.corpus} has no records")
    result = round_trip(session, args.sample, args.seed)
    for row in result.rows:
        mark = "=" if row.same_program else ("~" if row.same_answers else "x")
        print(f"{mark} {row.question}\n    gold {row.program}\n    got  {row.answered}")
    print(result.summary())


if __name__ == "__main__":
    main()
