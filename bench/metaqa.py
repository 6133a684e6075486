"""MetaQA dev on MoviesKG: F1, Hits@1 and latency per hop, cold and warm, and two ablations.

    python -m bench.metaqa [--per-hop 300] [--seed 0] [--corpus DIR] [--ablation-n 20]

1. The corpus: `bench.bootstrap`'s MoviesKG corpus (outside the repo); built here with
   `bootstrap` if it is missing or unfinished, and the time recorded.
2. A fixed sample of MetaQA dev (seed 0, --per-hop questions of each hop). Questions keep
   MetaQA's [brackets] around the topic entity, which the linker takes as given, as the
   dataset intends; --no-brackets measures linking too.
3. Cold: every answer computed afresh (the answer memo forgotten first). Rows are appended
   to --results (one file per reasoner version) as they come, so an interrupted run resumes
   where it stopped.
4. Warm: the same questions again, served by the answer memo.
5. Ablations, each a fresh reasoner on the first --ablation-n questions of each hop:
   `inverse_consistency=False` (the finalists' forward scores decide) and `prune=False`
   (every candidate is executed and scored).

"Cold" forgets the answer memo only; SPARQL results memoized by earlier runs still serve.
--fresh-query-cache starts the query memo empty too (stores, models and the corpus embedding
are shared), so every query runs on the store: the latency of a first visit.

No MetaQA question ever reaches the corpus or a prompt; only the KG is explored.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import resource
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench.bootstrap import DEFAULT_OUT
from bench.coverage import template
from bench.metaqa_data import MOVIEKG, MetaQAQuestion, gold_program, load_questions
from bench.report import append_section
from engine.answer.metrics import percentile, score
from engine.answer.reasoner import REASONER_VERSION
from engine.bootstrap.build import bootstrap
from engine.bootstrap.corpus import Corpus
from engine.config import ScoutConfig
from engine.programs.sexpr import parse
from engine.scout import Scout

# one file per reasoner version: a resumed run never mixes answers of two versions
DEFAULT_RESULTS = Path.home() / ".cache" / "kgscout" / "bench" / f"metaqa-results-v{REASONER_VERSION}.jsonl"
TARGET_F1 = {1: 89.12, 2: 79.99, 3: 55.72}


@dataclass(frozen=True)
class Row:
    hop: int
    question: str
    gold: tuple[str, ...]
    predicted: tuple[str, ...]
    f1: float
    hits1: float
    latency_s: float
    program: str | None
    gold_program: str
    alternatives: tuple[tuple[str, float, float | None], ...]  # (program, forward, inverse), re-ranked order
    topic_linked: bool
    message: str | None


def sample(per_hop: int, seed: int, hops: list[int]) -> list[MetaQAQuestion]:
    out = []
    for hop in hops:
        questions = load_questions(hop)
        out += random.Random(seed).sample(questions, min(per_hop, len(questions)))
    return out


def asked(q: MetaQAQuestion, brackets: bool) -> str:
    return q.question.replace(q.topic, f"[{q.topic}]", 1) if brackets else q.question


def ensure_corpus(folder: Path, config: ScoutConfig, scout: Scout) -> str:
    corpus = Corpus(folder)
    manifest = corpus.manifest() if corpus.exists() else None
    if manifest and manifest.counts.get("complete"):
        return f"prebuilt by bench.bootstrap: {manifest.counts['records']} records, budget {manifest.parameters['budget']}"
    session = scout.open(str(MOVIEKG), folder)
    start = time.perf_counter()
    result = bootstrap(session.kg, folder, config, scout.llm)
    return f"built here: {result.records} records, budget {config.budget}, {time.perf_counter() - start:.0f} s"


def answer_row(reasoner, q: MetaQAQuestion, text: str) -> Row:
    start = time.perf_counter()
    result = reasoner.answer(text)
    latency = time.perf_counter() - start
    predicted = tuple(a.label for a in result.answers) if result.count is None else (str(result.count),)
    s = score(list(predicted), q.answers)
    topic = q.topic.casefold()
    linked = any(c.label.casefold() == topic for m in result.linked for c in m.candidates)
    return Row(q.hop, text, q.answers, predicted, s.f1, s.hits1, latency, result.program,
               gold_program(q.qtype, q.topic),
               tuple((a.program, a.forward, a.inverse) for a in result.alternatives), linked, result.message)


def load_rows(path: Path) -> dict[str, Row]:
    rows = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                data = json.loads(line)
            except ValueError:
                continue  # a torn last line from an interrupted run
            data["gold"], data["predicted"] = tuple(data["gold"]), tuple(data["predicted"])
            data["alternatives"] = tuple(tuple(a) for a in data["alternatives"])
            rows[data["question"]] = Row(**data)
    return rows


def cold_pass(reasoner, questions: list[MetaQAQuestion], brackets: bool, path: Path) -> list[Row]:
    done = load_rows(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as out:
        for i, q in enumerate(questions, 1):
            text = asked(q, brackets)
            if text in done:
                continue
            reasoner.forget(text)
            row = answer_row(reasoner, q, text)
            done[text] = row
            out.write(json.dumps(row.__dict__, ensure_ascii=False) + "\n")
            out.flush()
            print(f"[{i}/{len(questions)}] hop {q.hop} f1={row.f1:.2f} {row.latency_s:.1f}s {text} -> {row.program}",
                  flush=True)
    return [done[asked(q, brackets)] for q in questions]


def fresh_query_cache(config: ScoutConfig, root: Path | None = None) -> ScoutConfig:
    """The same cache folder without its memoized SPARQL results and answers (see the module docstring)."""
    root = root or Path(tempfile.mkdtemp(prefix="kgscout-fresh-"))
    for entry in Path(config.cache_dir).iterdir():
        if entry.name not in ("executions", "answers"):
            (root / entry.name).symlink_to(entry.resolve())
    return dataclasses.replace(config, cache_dir=str(root))


ABLATIONS = {"without inverse consistency": {"inverse_consistency": False}, "without pruning": {"prune": False}}


def run_ablations(scout: Scout, corpus: Path, cold: list[Row], by_text: dict, hops: list[int],
                  n: int) -> dict[str, dict[int, list[tuple[Row, Row]]]]:
    """(full system's row, ablated row) for the first n questions of each hop, per ablation."""
    out: dict[str, dict[int, list[tuple[Row, Row]]]] = {}
    for name, changes in ABLATIONS.items():
        reasoner = scout.with_settings(**changes).open(str(MOVIEKG), corpus).reasoner()
        for hop in hops:
            for row in [r for r in cold if r.hop == hop][:n]:
                reasoner.forget(row.question)
                again = answer_row(reasoner, by_text[row.question], row.question)
                out.setdefault(name, {}).setdefault(hop, []).append((row, again))
                print(f"[{name}] hop {hop} f1={again.f1:.2f} {again.latency_s:.1f}s {row.question}", flush=True)
    return out


def failure_kind(row: Row) -> str:
    if not row.topic_linked:
        return "linking"
    gold = template(parse(row.gold_program))
    if row.program is not None and template(parse(row.program)) == gold:
        return "gold answers (the gold program was chosen; MetaQA's answer list differs from the KG's)"
    finalists = [template(parse(p)) for p, _, _ in row.alternatives]
    if gold in finalists:
        return "ranking (gold program among the finalists, not first)"
    return "search (gold program never reached the finalists)"


def mean(values) -> float:
    values = list(values)
    return 100 * sum(values) / len(values) if values else 0.0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--per-hop", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--hops", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--results", type=Path, default=DEFAULT_RESULTS)
    parser.add_argument("--ablation-n", type=int, default=20)
    parser.add_argument("--no-brackets", dest="brackets", action="store_false")
    parser.add_argument("--fresh-query-cache", action="store_true", help="start with no memoized SPARQL results")
    args = parser.parse_args()

    config = ScoutConfig()
    if args.fresh_query_cache:
        config = fresh_query_cache(config)
        if args.results == DEFAULT_RESULTS:  # never resume from, or mix with, rows of a warm query memo
            args.results = DEFAULT_RESULTS.with_name(f"{DEFAULT_RESULTS.stem}-fresh-{Path(config.cache_dir).name}.jsonl")
    scout = Scout(config)
    corpus_note = ensure_corpus(args.corpus, config, scout)
    session = scout.open(str(MOVIEKG), args.corpus)
    reasoner = session.reasoner()
    questions = sample(args.per_hop, args.seed, args.hops)
    by_text = {asked(q, args.brackets): q for q in questions}

    cold = cold_pass(reasoner, questions, args.brackets, args.results)
    warm = []
    for row in cold:
        start = time.perf_counter()
        reasoner.answer(row.question)
        warm.append(time.perf_counter() - start)
    ablated = run_ablations(scout, args.corpus, cold, by_text, args.hops, args.ablation_n)
    peak_gb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20

    rows: list[tuple[str, str, str]] = []
    for hop in args.hops:
        mine = [(r, w) for r, w in zip(cold, warm) if r.hop == hop]
        lat = [r.latency_s for r, _ in mine]
        rows += [
            (f"{hop}-hop F1 (n={len(mine)})", f"{mean(r.f1 for r, _ in mine):.2f}", f"≥ {TARGET_F1[hop]}"),
            (f"{hop}-hop Hits@1", f"{mean(r.hits1 for r, _ in mine):.2f}", ""),
            (f"{hop}-hop latency cold, median / p90", f"{statistics.median(lat):.2f} s / {percentile(lat, 90):.2f} s",
             "median ≤ 3 s"),
            (f"{hop}-hop latency warm (answer memo), median / p90",
             f"{1000 * statistics.median([w for _, w in mine]):.1f} ms / "
             f"{1000 * percentile([w for _, w in mine], 90):.1f} ms", "≤ 50 ms"),
        ]
        for name, by_hop in ablated.items():
            pairs = by_hop.get(hop, [])
            if pairs:
                rows.append((f"{hop}-hop F1 {name} (first {len(pairs)}; the full system on the same)",
                             f"{mean(b.f1 for _, b in pairs):.2f} vs {mean(a.f1 for a, _ in pairs):.2f}; median "
                             f"{statistics.median(b.latency_s for _, b in pairs):.1f} s vs "
                             f"{statistics.median(a.latency_s for a, _ in pairs):.1f} s", "ablation"))
    rows += [
        ("overall F1 (mean of hops)", f"{statistics.mean(mean(r.f1 for r in cold if r.hop == h) for h in args.hops):.2f}",
         "≥ 80"),
        ("peak resident memory of the process (store, LLM, embedder, label index)", f"{peak_gb:.2f} GB", "report"),
        ("corpus", corpus_note, ""),
    ]
    memo = ", empty query memo" if args.fresh_query_cache else ""
    print(append_section(f"MetaQA dev on MoviesKG (seed {args.seed}, {args.per_hop} per hop{memo})", rows,
                         failure_notes(cold, args.brackets, args.results)))


def failure_notes(cold: list[Row], brackets: bool, results: Path) -> str:
    lines = [
        "Questions keep MetaQA's [brackets] around the topic entity (taken as given by the linker)."
        if brackets else "Questions without brackets: the linker finds the topic entity itself.",
        f"Per-question rows: `{results}`. Failures (F1 < 1) by kind:",
        "",
    ]
    kinds: dict[str, list[Row]] = {}
    for row in cold:
        if row.f1 < 1:
            kinds.setdefault(failure_kind(row), []).append(row)
    for kind, rows in sorted(kinds.items(), key=lambda kv: -len(kv[1])):
        by_hop = ", ".join(f"{h}-hop {sum(r.hop == h for r in rows)}" for h in (1, 2, 3))
        lines.append(f"- {kind}: {len(rows)} ({by_hop})")
        for row in rows[:3]:
            lines.append(f"  - \"{row.question}\": chose `{row.program}`, gold `{row.gold_program}`")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
