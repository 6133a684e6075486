"""Foundation benchmark on MoviesKG: load + schema induction, program execution, cache.

    python -m bench.foundation [--kg ../shared/data/moviekg/kb.txt]

Loads into a fresh cache folder (so nothing is reused), then runs uncached 3-hop
gold programs over distinct topic entities, then the same programs again from the
execution cache.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import tempfile
import time

from bench.metaqa_data import MOVIEKG, gold_program, load_questions
from bench.report import append_section
from engine.config import ScoutConfig
from engine.programs.kg import KnowledgeGraph


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--kg", default=str(MOVIEKG))
    parser.add_argument("--programs", type=int, default=500)
    args = parser.parse_args()

    rss_before = peak_rss_mb()
    with tempfile.TemporaryDirectory() as cache:
        config = ScoutConfig(cache_dir=cache)
        start = time.perf_counter()
        kg = KnowledgeGraph.open(args.kg, config)
        load_s = time.perf_counter() - start
        rss_load = peak_rss_mb()

        seen, programs = set(), []
        for q in load_questions(3):
            key = (q.qtype, q.topic)
            if key not in seen:
                seen.add(key)
                programs.append(gold_program(q.qtype, q.topic))
        programs = programs[: args.programs]
        cold = [_timed(kg, p) for p in programs]
        warm = [_timed(kg, p) for p in programs]
        kg.close()

    rows = [
        ("load + schema induction (fresh cache)", f"{load_s:.2f} s", "≤ 15 s"),
        (f"median time to execute a 3-hop program (uncached, n={len(cold)})", f"{statistics.median(cold):.2f} ms", "≤ 50 ms"),
        ("p90 time to execute a 3-hop program (uncached)", f"{_p90(cold):.2f} ms", ""),
        ("median cached re-execution (parse + compile + cache hit)", f"{statistics.median(warm):.3f} ms", "≤ 1 ms"),
        ("peak RSS of the process after the load", f"{rss_load:.0f} MB (before: {rss_before:.0f} MB)", "report"),
    ]
    print(append_section("Foundation on MoviesKG", rows))


def _timed(kg: KnowledgeGraph, program: str) -> float:
    start = time.perf_counter()
    kg.executor.execute(program)
    return (time.perf_counter() - start) * 1000


def _p90(values: list[float]) -> float:
    return sorted(values)[int(0.9 * (len(values) - 1))]


if __name__ == "__main__":
    main()
