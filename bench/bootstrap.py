"""Bootstrap throughput, where its time goes, and how good its questions are (the round trip).

    python -m bench.bootstrap [--kg metaqa] [--budget 1000] [--out DIR] [--round-trip 24] [--qgen-beams 4 ...]

Runs `engine.bootstrap.bootstrap` exactly as the CLI does, timing its phases from the progress
callback and its stages from the LLM's clock (engine.lm.clock), and leaves the corpus in --out
(outside the repo; MoviesKG's default is the one bench/metaqa.py reads). Rerunning resumes an
unfinished corpus; a resumed run reports only the programs it generated itself, and exploration
only when it explored. `--round-trip N` then scores the questions (bench.roundtrip).
"""

from __future__ import annotations

import argparse
import resource
import time
from pathlib import Path

from bench.kgs import SPECS
from bench.report import append_section
from bench.roundtrip import round_trip
from engine.bootstrap.build import Progress, bootstrap
from engine.config import ScoutConfig, add_config_flags, config_from_args
from engine.lm.clock import StageClock
from engine.scout import Scout

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
        if progress.phase == "questions" and not progress.message and progress.done and progress.done % 40 == 0:
            print(f"{progress.done}/{progress.total} questions, {progress.rate_per_hour:.0f} per hour", flush=True)


# (clock stage, what it is, the clock's token count for it)
STAGES = (("prompts", "building prompts", ""), ("prefill", "running prompts through the model (prefill)", "prefill"),
          ("decode", "decoding beams", "decode"), ("check", "inverse consistency", "score"))


def stage_rows(clock: StageClock, programs: int) -> list[tuple[str, str, str]]:
    """Seconds per stage, per program, and the share of the question phase; tokens where counted."""
    total = sum(clock.seconds[name] for name in ("prompts", "write", "check")) or 1.0
    rows = []
    for name, what, counted in STAGES:
        seconds = clock.seconds[name]
        tokens = f", {clock.tokens[counted]:,} token positions" if clock.tokens[counted] else ""
        rows.append((f"stage: {what}", f"{seconds:.0f} s = {seconds / max(programs, 1):.2f} s per program "
                     f"({100 * seconds / total:.0f}%){tokens}", "report"))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--kg", default="metaqa", help=f"one of {', '.join(s for s in SPECS if SPECS[s].kg)}")
    parser.add_argument("--out", type=Path, default=None, help="corpus folder (default: per KG, in ~/.cache)")
    parser.add_argument("--round-trip", type=int, default=0, help="held-out questions to score (0: none)")
    add_config_flags(parser)
    args = parser.parse_args()
    config = config_from_args(args)
    spec = SPECS[args.kg]
    out = args.out or (DEFAULT_OUT if args.kg == "metaqa" else DEFAULT_OUT.parent / f"{args.kg}-corpus")
    clock = PhaseClock()
    start = time.perf_counter()
    scout = Scout(config)
    session = scout.open(spec.kg, out)
    result = bootstrap(session.kg, out, config, scout.llm, clock)
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
        rows += stage_rows(scout.llm().clock, generated)
        rows.append((f"question generation (context {config.qgen_context}, {config.qgen_beams} beams, "
                     "inverse consistency)",
                     f"{generated} programs in {questions.elapsed_s:.0f} s = {questions.rate_per_hour:.0f} per hour",
                     ""))
    if explored and generated:
        rows.append(("full bootstrap (exploration + questions, incl. model load)",
                     f"{generated} programs in {total_s:.0f} s = {3600 * generated / total_s:.0f} per hour",
                     "≥ 3,000 per hour"))
    rows.append(("peak resident memory of the whole run", f"{peak_rss_gb():.2f} GB", "report"))
    if args.round_trip:
        trip = round_trip(session, args.round_trip, config.seed)
        rows.append(("round trip: held-out questions answered with the same answers / the same program",
                     f"{100 * trip.same_answers:.1f}% / {100 * trip.same_program:.1f}% of {len(trip.rows)} "
                     f"(median {trip.median_s:.1f} s per question)", "higher is better"))
    rows.append(("corpus", f"{result.records} records for {result.programs} programs in `{out}`"
                 + ("" if result.complete else " (unfinished: rerun to resume)"), ""))
    notes = (f"KG {args.kg}. Model {config.model}, {config.qgen_beams} beams, least-to-most context "
             f"{config.qgen_context}, batches of {config.qgen_batch} programs.")
    if not explored:
        notes += " This run resumed a corpus whose programs were already explored, so exploration is not measured."
    print(append_section(f"Bootstrap throughput ({args.kg}, budget {config.budget})", rows, notes))


if __name__ == "__main__":
    main()
