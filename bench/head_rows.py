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

import engine.lm.llm as llm_module
from bench.bootstrap_memory import timed_peak
from engine.lm.llm import LLM

RELATIONS = ["capital", "population", "area", "currency", "language", "continent"]
PREFIX = ("Answer questions about a knowledge graph.\n"
          + "\n".join(f'question: what is the {w} of country number {i}? program: (JOIN (R {w}) "C{i}")'
                      for i, w in enumerate(RELATIONS * 6))
          + "\nquestion: which cities lie in France?\nprogram:")
CONTINUATIONS = [f' (JOIN (R relation_{i}) (JOIN country "France number {i} with some more words here"))'
                 for i in range(16)]


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [16, 32, 64, 128]
    llm = LLM.load()
    llm.score(PREFIX, CONTINUATIONS)  # the prompt's cache warm, as at a question's later steps
    runs: dict[int, list[tuple[float, float]]] = {n: [] for n in sizes}
    scores: dict[int, list[float]] = {}
    for _ in range(3):
        for n in sizes:
            llm_module.HEAD_ROWS = n
            scores[n], seconds, base, peak = timed_peak(lambda: llm.score(PREFIX, CONTINUATIONS), every_s=0.002)
            runs[n].append((seconds, peak - base))
    for n in sizes:
        print(f"{n:4d} rows: {statistics.median(s for s, _ in runs[n]):.3f} s a pass, "
              f"+{statistics.median(a for _, a in runs[n]):.0f} MiB peak, same bits as {sizes[0]}: "
              f"{scores[n] == scores[sizes[0]]}")


if __name__ == "__main__":
    main()
