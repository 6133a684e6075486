"""Generation quality sample: 40 random MoviesKG programs, top beam vs inverse consistency.

    python -m bench.qgen_sample [--n 40] [--seed 0] [--model qwen2.5-coder-0.5b]

Writes bench/qgen_sample.md with both questions side by side and empty judgement
columns; a person reads each against its program and fills them in.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from bench.metaqa_data import MOVIEKG
from engine.bootstrap.explorer import Explorer
from engine.bootstrap.qgen import QuestionGenerator
from engine.config import ScoutConfig
from engine.lm.llm import LLM
from engine.programs.kg import KnowledgeGraph

OUT = Path(__file__).with_name("qgen_sample.md")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--model", default=ScoutConfig().model)
    parser.add_argument("--batch", type=int, default=ScoutConfig().qgen_batch)
    args = parser.parse_args()

    kg = KnowledgeGraph.open(str(MOVIEKG), ScoutConfig())
    pool = list(Explorer(kg, seed=args.seed).explore(5 * args.n))
    sample = random.Random(args.seed).sample(pool, min(args.n, len(pool)))
    generator = QuestionGenerator(LLM.load(args.model), kg.schema, beams=ScoutConfig().qgen_beams)
    start = time.perf_counter()
    results = []
    for i in range(0, len(sample), args.batch):
        batch = sample[i : i + args.batch]
        results += generator.generate_batch([(p.program, list(p.subprograms)) for p in batch])
        print(f"{len(results)}/{len(sample)} in {time.perf_counter() - start:.0f} s", flush=True)
    lines = [
        "# Question generation sample (MoviesKG)",
        "",
        f"{len(sample)} programs drawn at random (seed {args.seed}) from {len(pool)} explored; model {args.model}, "
        f"{ScoutConfig().qgen_beams} beams. Command: `python -m bench.qgen_sample --n {args.n} --seed {args.seed}`.",
        "Columns TB ok / IC ok: does the question mean what the program means (y/n), judged by eye.",
        "",
        "| # | program | top-beam question | TB ok | inverse-consistency question | IC ok |",
        "|---|---|---|---|---|---|",
    ]
    for i, (explored, generated) in enumerate(zip(sample, results), 1):
        program = explored.program.replace("|", "\\|")
        lines.append(f"| {i} | `{program}` | {generated.top_beam} |  | {generated.question} |  |")
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
