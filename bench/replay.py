"""Replay a change to the final re-rank on recorded bench.kgs rows, without answering again.

    python -m bench.replay ROWS.jsonl [ROWS.jsonl ...] [--walk-back 0 0.1 0.2 0.5]

bench.kgs keeps each finalist's scores and F1 (`Row.alternative_scores`, `Row.alternative_f1`), so a change to
how the final score weighs them picks another winner among the same finalists, and its F1 is known. Only the
finalists that were scored can win, as in `Ranker.rerank` (those with the asked class first); a question whose
finalists went unscored (a lone contender) keeps its answer. With no change the replay gives back the recorded
F1 exactly, which the tests check.

The change replayed here: `--walk-back`, an extra penalty on a finalist whose last step walks straight back
(`rank._walks_back`) where the question has no word of sharing (`question._SAME`; the schema's own co-verbs are
not read here, so "co-wrote" counts only by its prefix). It adds to what the rows' final scores already hold:
rows written at reasoner v41 or later include `rank.WALK_BACK_WEIGHT` (0.2, chosen with this replay on rows of
v40). Prints tune and check F1 per KG: a figure, never a check row.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Sequence

from bench.kgs import half
from engine.answer.question import _SAME
from engine.answer.rank import _walks_back
from engine.programs.sexpr import parse


def replayed_f1(row: dict, walk_back: float) -> float:
    """The F1 of the finalist that wins once `walk_back` is taken off each unasked walk back's final score."""
    scored = [(p, f, s) for p, f, s in zip(row["alternatives"], row["alternative_f1"], row["alternative_scores"])
              if s.get("final") is not None]
    if not scored:
        return row["f1"]
    shares = bool(_SAME.search(row["question"]))

    def rank(item: tuple[str, float | None, dict]) -> tuple[bool, float]:
        program, _, scores = item
        penalty = walk_back if walk_back and not shares and _walks_back(parse(program)) else 0.0
        return not scores["asked_class"], -(scores["final"] - penalty)

    best = min(scored, key=rank)
    return best[1] or 0.0


def table(rows: Sequence[dict], walk_back: float) -> list[str]:
    """ "<kg> tune F1 / check F1" per KG, in percent."""
    out = []
    for kg in sorted({r["kg"] for r in rows}):
        halves = {h: [r for r in rows if r["kg"] == kg and half(r["id"]) == h] for h in ("tune", "check")}
        f1 = {h: 100 * sum(replayed_f1(r, walk_back) for r in rs) / len(rs) if rs else float("nan")
              for h, rs in halves.items()}
        out.append(f"{kg} {f1['tune']:.1f} / {f1['check']:.1f}")
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("rows", nargs="+", type=Path, help="bench.kgs --results files")
    parser.add_argument("--walk-back", nargs="+", type=float, default=[0.0, 0.1, 0.2, 0.5])
    args = parser.parse_args(argv)
    for path in args.rows:
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        for extra in args.walk_back:
            print(f"{path.name} walk-back {extra}: " + " | ".join(table(rows, extra)), flush=True)


if __name__ == "__main__":
    main()
