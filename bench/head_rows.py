"""How many rows of the vocabulary head to compute at once when scoring (engine.lm.llm.HEAD_ROWS).

    python -m bench.head_rows [ROWS ...]      # default: 16 32 64 128

One process, the default model: 16 continuations scored after a prompt of some 500 tokens (its cache warm, as
in chat), each chunk size in turn for three rounds. Prints the median time of a pass, the median peak RSS a pass
adds (sampled every 2 ms) and whether the scores are the same to the bit as the first size's. A diagnostic: it
writes nothing to BENCHMARKS.md.
"""

from __future__ import annotations

import statistics
import sys
import threading
import time

import psutil

import engine.lm.llm as llm_module
from engine.lm.llm import LLM
from engine.lm.memory import release_freed_memory

RELATIONS = ["capital", "population", "area", "currency", "language", "continent"]
PREFIX = ("Answer questions about a knowledge graph.\n"
          + "\n".join(f'question: what is the {w} of country number {i}? program: (JOIN (R {w}) "C{i}")'
                      for i, w in enumerate(RELATIONS * 6))
          + "\nquestion: which cities lie in France?\nprogram:")
CONTINUATIONS = [f' (JOIN (R relation_{i}) (JOIN country "France number {i} with some more words here"))'
                 for i in range(16)]


def timed_peak(fn) -> tuple[list[float], float, float]:
    """fn's result, its seconds and the most RSS (MiB) it added over its start, freed memory handed back first."""
    proc = psutil.Process()
    release_freed_memory()
    base = proc.memory_info().rss
    peak, stop = [base], threading.Event()

    def watch() -> None:
        while not stop.is_set():
            peak[0] = max(peak[0], proc.memory_info().rss)
            time.sleep(0.002)

    watcher = threading.Thread(target=watch)
    watcher.start()
    start = time.perf_counter()
    out = fn()
    seconds = time.perf_counter() - start
    stop.set()
    watcher.join()
    return out, seconds, (peak[0] - base) / 2**20


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [16, 32, 64, 128]
    llm = LLM.load()
    llm.score(PREFIX, CONTINUATIONS)  # the prompt's cache warm, as at a question's later steps
    runs: dict[int, list[tuple[float, float]]] = {n: [] for n in sizes}
    scores: dict[int, list[float]] = {}
    for _ in range(3):
        for n in sizes:
            llm_module.HEAD_ROWS = n
            scores[n], seconds, added = timed_peak(lambda: llm.score(PREFIX, CONTINUATIONS))
            runs[n].append((seconds, added))
    for n in sizes:
        print(f"{n:4d} rows: {statistics.median(s for s, _ in runs[n]):.3f} s a pass, "
              f"+{statistics.median(a for _, a in runs[n]):.0f} MiB peak, same bits as {sizes[0]}: "
              f"{scores[n] == scores[sizes[0]]}")


if __name__ == "__main__":
    main()
