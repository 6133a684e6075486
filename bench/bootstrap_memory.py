"""Where a bootstrap's memory goes, without chat: a diagnostic for engine.lm.memory's settings.

    python -m bench.bootstrap_memory [--seconds 200]     # the tiny film KG bootstrapped alone, sampled every 5 s
    python -m bench.bootstrap_memory --batch [--programs 32] [--out beams.json]   # one batch of WorldCup programs

The first samples RSS and glibc's bytes in use while the tiny film KG (tests/fixtures/tiny_films.psv, one triple
added so its corpus is new) bootstraps at budget 150: bytes in use that climb with every program are memory a
native cache keeps (oneDNN's primitives were); after the job, the trimmed RSS. The second writes the questions of
one batch of programs from bench.kgs' WorldCup corpus and prints its time and peak RSS; --out keeps the beams,
to compare two settings (ONEDNN_PRIMITIVE_CACHE_CAPACITY=... before the command) for the same beams. Run alone:
the times are the point. Prints; writes nothing to BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable, TypeVar

import psutil

from bench.load import fresh_tiny_kg
from bench.load_memory import heap, kept_states
from engine.config import ScoutConfig
from engine.lm.memory import release_freed_memory
from engine.scout import Scout

T = TypeVar("T")


def timed_peak(fn: Callable[[], T], every_s: float = 0.01) -> tuple[T, float, float, float]:
    """fn's result, its seconds, the RSS (MiB) it started from and the most RSS (MiB) while it ran, sampled every
    `every_s`; freed memory is handed back first, so the peak is fn's own."""
    proc = psutil.Process()
    release_freed_memory()
    base = proc.memory_info().rss
    peak, stop = [base], threading.Event()

    def watch() -> None:
        while not stop.is_set():
            peak[0] = max(peak[0], proc.memory_info().rss)
            time.sleep(every_s)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    start = time.perf_counter()
    try:
        out = fn()
    finally:
        stop.set()
        watcher.join()
    return out, time.perf_counter() - start, base / 2**20, peak[0] / 2**20


def alone(seconds: float) -> None:
    from ui.state import Hub

    hub = Hub(Scout(ScoutConfig(answer_memo=False)))
    with tempfile.TemporaryDirectory(prefix="kgscout-bootstrap-memory-") as scratch:
        job, _ = hub.start_bootstrap(hub.open(str(fresh_tiny_kg(Path(scratch), "probe"))), 150, None)
        proc, start = psutil.Process(), time.monotonic()
        while job.thread.is_alive() and time.monotonic() - start < seconds:
            time.sleep(5)
            used, free, mapped = heap()
            p = job.progress
            print(f"{time.monotonic() - start:5.0f} s  RSS {proc.memory_info().rss / 2**20:7,.0f}  in use {used:6,.0f}  "
                  f"kept free {free:6,.0f}  mmapped {mapped:5,.0f}  {p.done if p else 0}/{p.total if p else 0} "
                  f"{p.phase if p else ''}", flush=True)
        job.stop.set()
        job.thread.join()
    release_freed_memory()
    print(f"after the job, trimmed: RSS {proc.memory_info().rss / 2**20:,.0f} MiB, in use {heap()[0]:,.0f} MiB")
    print(kept_states(hub.scout.llm()))


def batch(programs: int, out: str | None) -> None:
    from bench.kgs import BENCH_CACHE, SPECS
    from engine.bootstrap.qgen import QuestionGenerator

    config = ScoutConfig()
    scout = Scout(config)
    session = scout.open(SPECS["worldcup"].kg)
    rows = [json.loads(line) for line in open(BENCH_CACHE / "kgs" / "worldcup-b150-s0" / "programs.jsonl")]
    items = [(r["program"], r["subprograms"]) for r in rows[:programs]]
    generator = QuestionGenerator(scout.llm(), session.schema, beams=config.qgen_beams, context=config.qgen_context)
    generator.generate_batch(items[:1])  # warm-up: the weights paged in
    generator.memo.clear()
    written, seconds, base, peak = timed_peak(lambda: generator.generate_batch(items))
    print(f"{len(items)} programs in {seconds:.1f} s; RSS before {base:,.0f} MiB, peak {peak:,.0f} MiB "
          f"(+{peak - base:,.0f}); ONEDNN_PRIMITIVE_CACHE_CAPACITY={os.environ.get('ONEDNN_PRIMITIVE_CACHE_CAPACITY')}")
    if out:
        json.dump([[q.program, q.question, q.top_beam, q.ic_score, q.beam_score] for q in written], open(out, "w"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=200.0, help="longest the lone bootstrap is sampled")
    parser.add_argument("--batch", action="store_true", help="one batch of WorldCup programs instead")
    parser.add_argument("--programs", type=int, default=32)
    parser.add_argument("--out", default=None, help="with --batch: where the beams go, to compare settings")
    args = parser.parse_args()
    if args.batch:
        batch(args.programs, args.out)
    else:
        alone(args.seconds)


if __name__ == "__main__":
    main()
