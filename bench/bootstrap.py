"""Bootstrap throughput on MoviesKG: exploration alone, then the full bootstrap, and peak memory.

    python -m bench.bootstrap [--budget 1000] [--out ~/.cache/kgscout/bench/moviekg-corpus]

Runs `engine.bootstrap.bootstrap` exactly as the CLI does, timing its two phases from
the progress callback, and leaves the corpus in --out (outside the repo) for
bench/metaqa.py. Rerunning resumes an unfinished corpus; a resumed run reports only
the programs it generated itself, and exploration only when it explored.
"""

from __future__ import annotations

import argparse
import resource
import time
from pathlib import Path

from bench.metaqa_data import MOVIEKG
from bench.report import append_section
from engine.bootstrap.build import Progress, bootstrap
from engine.config import ScoutConfig
from engine.lm.llm import LLM
from engine.programs.kg import KnowledgeGraph

DEFAULT_OUT = Path.home() / ".cache" / "kgscout" / "bench" / "moviekg-corpus"


def peak_rss_gb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20  # Linux reports KiB


class PhaseClock:
    """Records when each bootstrap phase last reported, and how far it got."""

    def __init__(self) -> None:
        self.last: dict[str, Progress] = {}
        self.peak_after_explore: float | None = None

    def __call__(self, progress: Progress) -> None:
        if progress.phase == "questions" and "explore" in self.last and self.peak_after_explore is None:
            self.peak_after_explore = peak_rss_gb()
        self.last[progress.phase] = progress
        if progress.phase == "questions" and progress.done and progress.done % 40 == 0:
            print(f"{progress.done}/{progress.total} questions, {progress.rate_per_hour:.0f} per hour", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--budget", type=int, default=ScoutConfig().budget)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    config = ScoutConfig(budget=args.budget)
    clock = PhaseClock()
    start = time.perf_counter()
    kg = KnowledgeGraph.open(str(MOVIEKG), config)
    result = bootstrap(kg, args.out, config, lambda: LLM.load(config.model), clock)
    total_s = time.perf_counter() - start
    explored = clock.last.get("explore")
    questions = clock.last.get("done") or clock.last.get("questions")
    generated = questions.done if questions else 0
    rows = []
    if explored:
        rows.append(("exploration alone", f"{explored.done} programs in {explored.elapsed_s:.0f} s = "
                     f"{explored.rate_per_hour:.0f} per hour", "report"))
        rows.append(("peak resident memory after exploration", f"{clock.peak_after_explore or peak_rss_gb():.2f} GB",
                     "report"))
    if generated:
        rows.append(("question generation (least-to-most + 10 beams + inverse consistency)",
                     f"{generated} programs in {questions.elapsed_s:.0f} s = {questions.rate_per_hour:.0f} per hour",
                     ""))
    if explored and generated:
        rows.append(("full bootstrap (exploration + questions, incl. model load)",
                     f"{generated} programs in {total_s:.0f} s = {3600 * generated / total_s:.0f} per hour",
                     "≥ 600 per hour"))
    rows.append(("peak resident memory of the whole run", f"{peak_rss_gb():.2f} GB", "report"))
    rows.append(("corpus", f"{result.records} records for {result.programs} programs in `{args.out}`"
                 + ("" if result.complete else " (unfinished: rerun to resume)"), ""))
    notes = f"Model {config.model} (bf16 on CPU), {config.qgen_beams} beams, batches of {config.qgen_batch} programs."
    if not explored:
        notes += " This run resumed a corpus whose programs were already explored, so exploration is not measured."
    print(append_section(f"Bootstrap throughput (MoviesKG, budget {args.budget})", rows, notes))


if __name__ == "__main__":
    main()
