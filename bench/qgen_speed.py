"""Question-generation speed of several settings on the same explored programs, stage by stage.

    python -m bench.qgen_speed --kg metaqa --programs 16 --settings 10,-1 4,1 3,1

Each setting is `beams,context` (ScoutConfig.qgen_beams, qgen_context). The programs are explored once
(seed --seed) and every setting writes questions for all of them with one loaded model and a fresh
question memo, so the settings differ in nothing else. Model load and exploration are not timed: this is
the part of `bench.bootstrap` that the settings change. Run it alone (or pinned to a free core, with
OMP_NUM_THREADS=1): timings taken beside another heavy job are not comparable.
"""

from __future__ import annotations

import argparse
import os
import time

from bench.kgs import SPECS
from bench.report import append_section
from engine.bootstrap.explorer import ExploreConfig, Explorer
from engine.bootstrap.qgen import QuestionGenerator
from engine.config import ScoutConfig
from engine.lm.llm import LLM
from engine.programs.kg import KnowledgeGraph


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kg", default="metaqa")
    parser.add_argument("--programs", type=int, default=16)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--batch", type=int, default=ScoutConfig().qgen_batch)
    parser.add_argument("--settings", nargs="+", default=["10,-1", "3,1"], help="beams,context pairs")
    args = parser.parse_args()
    config = ScoutConfig()
    kg = KnowledgeGraph.open(SPECS[args.kg].kg, config)
    programs = list(Explorer(kg, ExploreConfig(), seed=args.seed).explore(args.programs))
    llm = LLM.load(config.model)
    rows = []
    for setting in args.settings:
        beams, context = (int(x) for x in setting.split(","))
        generator = QuestionGenerator(llm, kg.schema, beams=beams, context=context)
        before, started = llm.clock.snapshot(), time.perf_counter()
        for i in range(0, len(programs), args.batch):
            generator.generate_batch([(p.program, list(p.subprograms)) for p in programs[i : i + args.batch]])
        seconds = time.perf_counter() - started
        clock = llm.clock.since(before)
        n = len(programs)
        rows.append((f"{beams} beams, context {context}", f"{seconds / n:.2f} s", f"{3600 * n / seconds:,.0f}",
                     str(len(generator.memo)),
                     *(f"{clock.seconds[s]:.0f} s" for s in ("prefill", "decode", "check")),
                     f"{clock.tokens['prefill']:,} / {clock.tokens['decode']:,} / {clock.tokens['score']:,}"))
        print(" | ".join(rows[-1]), flush=True)
    threads = os.environ.get("OMP_NUM_THREADS", "all cores")
    print(append_section(
        f"Question generation speed by setting ({args.kg}, {len(programs)} programs)", rows,
        f"Model {config.model}, batches of {args.batch} programs, torch threads: {threads}. Programs explored with "
        f"seed {args.seed}; 'questions' counts sub-program questions too (least-to-most).",
        header=("setting", "per program", "per hour", "questions written", "prefill", "decode",
                "inverse consistency", "token positions prefill / decode / IC")))


if __name__ == "__main__":
    main()
