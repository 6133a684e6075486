"""Replay a change to the final re-rank on recorded bench.kgs rows, without answering again.

    python -m bench.replay ROWS.jsonl [ROWS.jsonl ...] [--walk-back 0 0.1 0.2 0.5] [--stand-in 0 0.5] [--unnamed 0 0.1]
                           [--detour 0 0.2] [--unspent 0 0.1] [--voice 0 0.5] [--alpha 0.5 0.4] [--merge] [--whole]

bench.kgs keeps each finalist's scores and F1 (`Row.alternative_scores`, `Row.alternative_f1`), so a change to
how the final score weighs them picks another winner among the same finalists, and its F1 is known. Only the
finalists that were scored can win, as in `Ranker.rerank` (those with the asked class first); a question whose
finalists went unscored (a lone contender) keeps its answer. With no change the replay gives back the recorded
F1 exactly, which the tests check.

The changes replayed here, each adding to what the rows' final scores already hold. `--walk-back`: an extra penalty
on a finalist whose last step walks straight back (`walk_back.walks_back`) where the question has no word of sharing
(`question._SAME`; the schema's own co-verbs are not read here, so "co-wrote" counts only by its prefix); rows
written at reasoner v41 or later include `rank.WALK_BACK_WEIGHT` (0.2, chosen with this replay on rows of v40).
`--stand-in`: an extra penalty on a finalist that walks through a stand-in for a name of the question
(engine.answer.stand_in); rows of v42 or later record it and include its weight (0.5, chosen here on rows of v40;
from v46 a side of an AND may stand in too, and the weight is 1.0, chosen on rows of v40-v43).
`--unnamed`: an extra penalty per step over a relation no word of the question names (engine.answer.named); rows
of v43 or later record the count, and v43's include a weight (0.1; off in v44-v47). From v48 a word may name a
relation by meaning too (engine.answer.meant): such rows count only the steps named neither way, and include the
weight 0.1. For rows older than what they record, `mark` links each KG's questions again (its store and label
index, no language model; it counts by spelling alone, as rows of v43-v47 do). `--detour`: an extra penalty per
round trip below the last step (engine.answer.walk_back.detours); rows of v51 or later record the count and include
its weight (0.2, chosen on rows of v50 with a one-off script); older rows count as none. `--unspent`: an extra penalty
per question word that means a relation of some finalist (engine.answer.meant, by the sentence embedder) and spells
none, where no step of this finalist means it (engine.answer.meant.unspent_words); rows of v77 or later record the
count and include `meant.UNSPENT_WEIGHT`; `mark` counts it for older rows. `--voice`: an extra penalty on a finalist
that answers with the other end of the main verb's relation than the verb's voice asks for
(engine.answer.voice.reads_backwards); rows of v88 or later include `voice.VOICE_WEIGHT`; `mark` marks older rows.
`--alpha`: the forward score's weight beside the inverse score (`ScoutConfig.ic_alpha`) for rows answered with a corpus
at `RECORDED_ALPHA`; which finalists are scored does not depend on it, so the replay is exact (v115's 0.4 was chosen
with it). Prints tune and check F1 per KG: a figure, never a check row. `python -m engine evaluate --out` rows (a probe's, which
carry the same fields) are read alike, and `--whole` gives each KG's F1 over all its rows; `--merge` reads a full run
and the questions later trees answered again (`bench.kgs --only`) as one run, the last file's row of a question winning.
"""

from __future__ import annotations

import argparse
import itertools
import json
from pathlib import Path
from typing import Sequence

from bench.kgs import SPECS, half
from engine.answer.meant import RelationMeanings, unspent_words
from engine.answer.named import unnamed_steps
from engine.answer.question import _SAME, QuestionReader
from engine.answer.walk_back import walks_back
from engine.answer.stand_in import stands_in
from engine.answer.voice import reads_backwards
from engine.config import ScoutConfig
from engine.lm.embedder import Embedder
from engine.programs.sexpr import parse, relations
from engine.scout import Scout


# The forward score's weight the rows were answered with (ScoutConfig.ic_alpha up to v114, the paper's 0.5); a row
# answered with no corpus weighed it 0 (engine.answer.rank), and `--alpha` does not apply to it.
RECORDED_ALPHA = 0.5


def replayed_f1(row: dict, walk_back: float, stand_in: float = 0.0, unnamed: float = 0.0,
                detour: float = 0.0, unspent: float = 0.0, voice: float = 0.0, alpha: float | None = None) -> float:
    """The F1 of the finalist that wins once `walk_back` is taken off each unasked walk back's final score,
    `stand_in` off each that stands in for a name, `unnamed` per step no question word names and `unspent` per
    question word that means a finalist's relation and no step of this one (the last three need `mark`); and, with
    `alpha`, the forward score weighed so against the inverse one (rows answered with a corpus at RECORDED_ALPHA)."""
    scored = [(p, f, s) for p, f, s in zip(row["alternatives"], row["alternative_f1"], row["alternative_scores"])
              if s.get("final") is not None]
    if not scored:
        return row["f1"]
    shares = bool(_SAME.search(row["question"]))

    def rank(item: tuple[str, float | None, dict]) -> tuple[bool, float]:
        program, _, scores = item
        penalty = walk_back if walk_back and not shares and walks_back(parse(program)) else 0.0
        penalty += stand_in * scores["stands_in"] if stand_in else 0.0
        penalty += unnamed * scores["unnamed"] if unnamed else 0.0
        penalty += detour * scores.get("detours", 0)
        penalty += unspent * scores["unspent"] if unspent else 0.0
        penalty += voice * scores["backwards"] if voice else 0.0
        if alpha is not None and scores.get("inverse") is not None:
            penalty -= (alpha - RECORDED_ALPHA) * (scores["forward"] - scores["inverse"])
        return not scores["asked_class"], -(scores["final"] - penalty)

    best = min(scored, key=rank)
    return best[1] or 0.0


def table(rows: Sequence[dict], walk_back: float, stand_in: float = 0.0, unnamed: float = 0.0,
          detour: float = 0.0, unspent: float = 0.0, voice: float = 0.0, alpha: float | None = None,
          whole: bool = False) -> list[str]:
    """ "<kg> tune F1 / check F1" per KG, in percent; with `whole`, "<kg> F1" over all its rows (a probe's rows, which
    have no check half)."""
    out = []
    for kg in sorted({r["kg"] for r in rows}):
        parts = ({"all": [r for r in rows if r["kg"] == kg]} if whole else
                 {h: [r for r in rows if r["kg"] == kg and half(r["id"]) == h] for h in ("tune", "check")})
        f1 = {h: 100 * sum(replayed_f1(r, walk_back, stand_in, unnamed, detour, unspent, voice, alpha) for r in rs)
                 / len(rs)
              if rs else float("nan") for h, rs in parts.items()}
        out.append(f"{kg} " + " / ".join(f"{v:.1f}" for v in f1.values()))
    return out


def mark(rows: Sequence[dict]) -> None:
    """Set "stands_in" (engine.answer.stand_in), "unnamed" (engine.answer.named.unnamed_steps), "unspent"
    (engine.answer.meant.unspent_words) and "backwards" (engine.answer.voice.reads_backwards) on each scored finalist
    of rows written before the reasoner recorded them (v43; "unspent" v77, "backwards" v88): each KG's questions are
    read again against its labels, and their words against the finalists' relations by the sentence embedder (no
    corpus and no language model)."""
    todo = [r for r in rows if any(s.get("final") is not None and "backwards" not in s for s in r["alternative_scores"])]
    scout = Scout(ScoutConfig())
    embedder = Embedder.load(scout.config.embedder) if todo else None
    for kg in sorted({r["kg"] for r in todo}):
        session = scout.open(SPECS[kg].kg)
        try:
            reader = QuestionReader(session.schema, session.label_index())
            meanings = RelationMeanings(session.schema, embedder)
            for row in (r for r in todo if r["kg"] == kg):
                question = reader.read(row["question"])
                programs = [parse(p) for p in row["alternatives"]]
                meaning = meanings.of(question, (r.name for node in programs for r in relations(node)))
                for node, scores in zip(programs, row["alternative_scores"]):
                    scores.setdefault("stands_in", stands_in(question, node, session.schema))
                    scores.setdefault("unnamed", unnamed_steps(node, question.named_relations))
                    scores["unspent"] = unspent_words(node, question.named_relations, meaning)
                    scores["backwards"] = reads_backwards(node, question.voice)
        finally:
            session.close()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("rows", nargs="+", type=Path, help="bench.kgs --results files")
    parser.add_argument("--walk-back", nargs="+", type=float, default=[0.0, 0.1, 0.2, 0.5])
    parser.add_argument("--stand-in", nargs="+", type=float, default=[0.0],
                        help="extra penalties on a finalist that stands in for a name (reads each KG's labels)")
    parser.add_argument("--unnamed", nargs="+", type=float, default=[0.0],
                        help="extra penalties per step over a relation no question word names (the same)")
    parser.add_argument("--detour", nargs="+", type=float, default=[0.0],
                        help="extra penalties per round trip below the last step (rows of v51 or later)")
    parser.add_argument("--voice", nargs="+", type=float, default=[0.0],
                        help="extra penalties on a finalist answering with the other end of the main verb's relation "
                             "than its voice asks (engine.answer.voice; reads each KG's labels)")
    parser.add_argument("--unspent", nargs="+", type=float, default=[0.0],
                        help="extra penalties per question word that means a finalist's relation and no step of this "
                             "one (reads each KG's labels and loads the sentence embedder)")
    parser.add_argument("--alpha", nargs="+", type=float, default=[None],
                        help=f"the forward score's weight beside the inverse score (ScoutConfig.ic_alpha), for rows "
                             f"answered with a corpus at {RECORDED_ALPHA}")
    parser.add_argument("--merge", action="store_true",
                        help="read the files as one run, a later file's row replacing an earlier one's of the same "
                             "question (a full run, then the questions a later tree answered again with --only)")
    parser.add_argument("--whole", action="store_true", help="F1 over each KG's rows, not per half (probe rows)")
    args = parser.parse_args(argv)
    for name, rows in _row_sets(args.rows, args.merge):
        if any(args.stand_in) or any(args.unnamed) or any(args.unspent) or any(args.voice):
            mark(rows)
        for weights in itertools.product(args.walk_back, args.stand_in, args.unnamed, args.detour, args.unspent,
                                         args.voice, args.alpha):
            named = " ".join(f"{flag} {w}" for flag, w in zip(("walk-back", "stand-in", "unnamed", "detour", "unspent",
                                                               "voice", "alpha"), weights) if w is not None)
            print(f"{name} {named}: " + " | ".join(table(rows, *weights, whole=args.whole)), flush=True)


def _row_sets(paths: Sequence[Path], merge: bool) -> list[tuple[str, list[dict]]]:
    """(name, rows) per file, or one set of them all where `merge`, keyed by (kg, id): the last file's row wins."""
    sets = [(path.name, [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()])
            for path in paths]
    if not merge:
        return sets
    merged = {(row["kg"], row["id"]): row for _, rows in sets for row in rows}
    return [("+".join(name for name, _ in sets), list(merged.values()))]


if __name__ == "__main__":
    main()
