"""Generation quality sample: 40 random MoviesKG programs, top beam vs inverse consistency.

    python -m bench.qgen_sample [--n 40] [--seed 0] [--model qwen2.5-coder-0.5b]
    python -m bench.qgen_sample --kg default --new-ops --n 20 --out bench/qgen_sample_ops.md

Writes bench/qgen_sample.md with both questions side by side and empty judgement
columns; a person reads each against its program and fills them in. `--new-ops` samples
only programs with the operators of issue 13 (NOT, IN, SUM/AVG, OR, (COUNT r), an entity
compared), explored with the whole function share given to them.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from bench.metaqa_data import MOVIEKG
from engine.bootstrap.explorer import ExploreConfig, Explorer
from engine.bootstrap.qgen import QuestionGenerator
from engine.config import ScoutConfig
from engine.lm.llm import LLM
from engine.programs.kg import KnowledgeGraph
from engine.programs.sexpr import Aggregate, Compare, Degree, Entity, In, Not, Or, parse, walk

OUT = Path(__file__).with_name("qgen_sample.md")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--model", default=ScoutConfig().model)
    parser.add_argument("--batch", type=int, default=ScoutConfig().qgen_batch)
    parser.add_argument("--kg", default=str(MOVIEKG), help='a KG file, or "default" for the geography KG')
    parser.add_argument("--new-ops", action="store_true", help="only programs with the operators of issue 13")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()

    kg = KnowledgeGraph.open(None if args.kg == "default" else args.kg, ScoutConfig())
    explore = ExploreConfig(function_p=1.0, new_ops_share=1.0) if args.new_ops else ExploreConfig()
    pool = [p for p in Explorer(kg, explore, seed=args.seed).explore(5 * args.n)
            if not args.new_ops or _has_new_operator(p.program)]
    sample = random.Random(args.seed).sample(pool, min(args.n, len(pool)))
    generator = QuestionGenerator(LLM.load(args.model), kg.schema, beams=ScoutConfig().qgen_beams)
    start = time.perf_counter()
    results = []
    for i in range(0, len(sample), args.batch):
        batch = sample[i : i + args.batch]
        results += generator.generate_batch([(p.program, list(p.subprograms)) for p in batch])
        print(f"{len(results)}/{len(sample)} in {time.perf_counter() - start:.0f} s", flush=True)
    lines = [
        f"# Question generation sample ({'MoviesKG' if args.kg == str(MOVIEKG) else args.kg})"
        + (", new operators only" if args.new_ops else ""),
        "",
        f"{len(sample)} programs drawn at random (seed {args.seed}) from {len(pool)} explored; model {args.model}, "
        f"{ScoutConfig().qgen_beams} beams. Command: `python -m bench.qgen_sample {' '.join(_flags(args))}`.",
        "Columns TB ok / IC ok: does the question mean what the program means (y/n), judged by eye.",
        "",
        "| # | program | top-beam question | TB ok | inverse-consistency question | IC ok |",
        "|---|---|---|---|---|---|",
    ]
    for i, (explored, generated) in enumerate(zip(sample, results), 1):
        program = explored.program.replace("|", "\\|")
        lines.append(f"| {i} | `{program}` | {generated.top_beam} |  | {generated.question} |  |")
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


def _has_new_operator(program: str) -> bool:
    return any(isinstance(n, (Not, In, Aggregate, Or, Degree)) or (isinstance(n, Compare) and isinstance(n.value, Entity))
               for n in walk(parse(program)))


def _flags(args: argparse.Namespace) -> list[str]:
    flags = [f"--n {args.n}", f"--seed {args.seed}"]
    if args.kg != str(MOVIEKG):
        flags.append(f"--kg {args.kg}")
    if args.new_ops:
        flags += ["--new-ops", f"--out {args.out}"]
    return flags


if __name__ == "__main__":
    main()
