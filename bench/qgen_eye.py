"""The by-eye sample of the questions a benchmark corpus holds (issue 27 §2.8): 40 per dev KG.

    python -m bench.qgen_eye draw [--kgs worldcup ...] [--n 40] [--seed 27] [--cache-root DIR] [--tag T]
    python -m bench.qgen_eye count [--kgs ...] [--tag T] [--report]
    python -m bench.qgen_eye rewrite --tag T [--kgs ...]      # the same records' questions written again, here
    python -m bench.qgen_eye trip --tag T [--kgs ...] [--trip 16]

`draw` reads the corpus `python -m bench.kgs` answers with (the bootstrapped `<kg>-b<budget>-s<seed>` under
its cache root, the shipped `assets/geography-corpus` for geography-demo), draws n records with
random.Random(seed) and writes `bench/qgen_eye_<kg>.md`: the program, its English reading (what the prompt
showed the model) and the question, with empty columns G (grammatical English, y/n) and F (asks what the
program asks, y/n) for a person to fill. Unlike bench.qgen_sample it writes no question: it measures the
questions the benchmark is scored with. `count` reads the filled tables: a record passes when both are y (--report: a BENCHMARKS.md section).
Drawing again overwrites the judgments, so it refuses a table that has any unless --force.

`rewrite` writes the drawn records' questions again with this checkout's question generator (the app's settings:
beams, least-to-most context, batches) into `bench/qgen_eye_<kg>_<tag>.md`, and carries a judgment over from the
untagged table where the question is the same, so only changed questions need reading: a before/after on the same
programs, with no corpus written. On a machine that no longer has the drawn corpus, and with no least-to-most
context (which needs the sub-programs), it takes the programs the untagged table lists.
`trip` is the round trip (bench.roundtrip) of the first --trip drawn records:
the reasoner, steered by the rest of the corpus, answers each question of the tagged table (or the corpus' own
without --tag); a copy of the corpus under /tmp holds the rewritten questions.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
import re
from dataclasses import replace
from pathlib import Path

from bench.kgs import DEFAULT_CACHE_ROOT, SPECS
from bench.report import append_section
from engine.bootstrap.corpus import Corpus, CorpusRecord
from engine.config import ScoutConfig
from engine.programs.kg import KnowledgeGraph
from engine.programs.sexpr import parse
from engine.programs.verbalize import verbalize

HERE = Path(__file__).parent
SHIPPED = HERE.parent / "assets" / "geography-corpus"
DEV_KGS = tuple(name for name, spec in SPECS.items() if spec.default)
WORK = Path("/tmp/kgscout-qgen-eye")  # rewritten questions and the corpus copies a round trip reads
ROW = re.compile(r"^\| (\d+) \|.*\| ([yn]?) \| ([yn]?) \| ([^|]*) \|$")


def corpus_folder(kg: str, cache_root: Path, budget: int, seed: int) -> Path:
    """bench.kgs' corpus; a bootstrapped one of that name under another --cache-root wins over the shipped one
    (a fresh corpus of geography-demo, to compare two ways of writing questions)."""
    spec = SPECS[kg]
    folder = cache_root / f"{spec.corpus_of or spec.name}-b{budget}-s{seed}"
    if not spec.bootstrapped and not (cache_root != DEFAULT_CACHE_ROOT and folder.is_dir()):
        return SHIPPED
    return folder


def table_path(kg: str, tag: str = "") -> Path:
    return HERE / f"qgen_eye_{kg}{'_' + tag if tag else ''}.md"


def draw(records: list[CorpusRecord], n: int, seed: int) -> list[CorpusRecord]:
    """n records in corpus order, drawn with random.Random(seed) among those the bootstrap wrote."""
    explored = [r for r in records if r.source == "explored"]
    chosen = sorted(random.Random(seed).sample(range(len(explored)), min(n, len(explored))))
    return [explored[i] for i in chosen]


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def sample_from_table(kg: str) -> list[CorpusRecord]:
    """The drawn records' programs as the untagged table lists them, for a machine that no longer has the corpus
    they were drawn from. Without sub-programs: enough to write questions again with no least-to-most context."""
    lines = table_path(kg).read_text(encoding="utf-8").splitlines()
    programs = [cells[1].strip("`").replace("\\|", "|") for line in lines
                if ROW.match(line) and len(cells := [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]) == 7]
    return [CorpusRecord(p, (), "", "", "", 0.0, 0.0, 0.0, (), "", "", 0, ()) for p in programs]


def drawn_from(folder: Path, kg: str) -> str:
    """What the sample was drawn from: the corpus' manifest, or the untagged table's own words without it."""
    if not folder.is_dir():
        line = table_path(kg).read_text(encoding="utf-8").splitlines()[2]
        return line.split(" Command:")[0].removesuffix(".") + " (as its table lists them)."
    manifest = Corpus(folder).manifest()
    return (f"records drawn from `{folder.name}` ({manifest.counts.get('records')} records; model "
            f"{manifest.model}, {manifest.parameters.get('qgen_beams')} beams, least-to-most context "
            f"{manifest.parameters.get('qgen_context', -1)}).")


def write_table(kg: str, folder: Path, sample: list[CorpusRecord], readings: list[str], command: str,
                path: Path) -> None:
    drawn = drawn_from(folder, kg)
    lines = [
        f"# By-eye sample of generated questions: {kg}",
        "",
        (drawn if not folder.is_dir() else f"{len(sample)} {drawn}") + f" Command: `{command}`.",
        "G: grammatical English (y/n). F: asks what the program asks, nothing more or less (y/n). Judged by eye; "
        "the note names what went wrong.",
        "",
        "| # | program | reading shown to the model | question | G | F | note |",
        "|---|---|---|---|---|---|---|",
    ]
    for i, (record, reading) in enumerate(zip(sample, readings), 1):
        lines.append(f"| {i} | `{_cell(record.program)}` | {_cell(reading)} | {_cell(record.question)} |  |  |  |")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


# What went wrong, by the start of a row's note (the judge writes these words first); anything else is "wording".
FAILURES = ("step dropped", "no verb", "label read", "roles or direction", "garbled", "reading wrong")


def judged(path: Path) -> list[tuple[str, str]]:
    """(G, F) per table row; blank where not judged yet."""
    return [(g, f) for g, f, _ in rows(path)]


def rows(path: Path) -> list[tuple[str, str, str]]:
    return [(m.group(2), m.group(3), m.group(4).strip()) for line in path.read_text(encoding="utf-8").splitlines()
            if (m := ROW.match(line))]


def judgments(kg: str) -> dict[tuple[str, str], tuple[str, str, str]]:
    """(G, F, note) of every judged (program, question) in any table of the KG, tagged or not."""
    found = {}
    for path in [table_path(kg), *sorted(HERE.glob(f"qgen_eye_{kg}_*.md"))]:
        for line in path.read_text(encoding="utf-8").splitlines():
            cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line)[1:-1]]
            if ROW.match(line) and len(cells) == 7 and cells[4]:
                found.setdefault((cells[1].strip("`"), cells[3]), (cells[4], cells[5], cells[6]))
    return found


def failure_kinds(path: Path) -> Counter:
    """Failed rows by the kind their note starts with."""
    return Counter(next((k for k in FAILURES if note.startswith(k)), "wording") for g, f, note in rows(path)
                   if not g == f == "y")


def report(kgs: list[str], tag: str) -> None:
    """One BENCHMARKS.md section: a row per KG's filled table."""
    rows = []
    for kg in kgs:
        path = table_path(kg, tag)
        marks = judged(path)
        source = re.search(r"drawn from `([^`]+)`", path.read_text(encoding="utf-8"))
        kinds = ", ".join(f"{kind} {n}" for kind, n in failure_kinds(path).most_common())
        rows.append((kg, f"`{source.group(1) if source else '?'}`",
                     f"**{sum(a == b == 'y' for a, b in marks)}** / {len(marks)}",
                     str(sum(a == "y" for a, _ in marks)), str(sum(b == "y" for _, b in marks)), kinds))
    append_section(f"By-eye sample of generated questions{' (' + tag + ')' if tag else ''}", rows,
                   f"Tables: `bench/qgen_eye_<kg>{'_' + tag if tag else ''}.md`, one row per record with the judge's "
                   "note. Goal (issue 27): at least 34 of 40 grammatical and faithful per dev KG.",
                   header=("KG", "corpus", "grammatical and faithful", "grammatical", "faithful", "failed, by kind"))


def count_line(kg: str, path: Path) -> str:
    marks = judged(path)
    g = sum(a == "y" for a, _ in marks)
    f = sum(b == "y" for _, b in marks)
    both = sum(a == b == "y" for a, b in marks)
    blank = sum(not a or not b for a, b in marks)
    kinds = ", ".join(f"{kind} {n}" for kind, n in failure_kinds(path).most_common())
    return (f"{kg}: {both}/{len(marks)} grammatical and faithful (grammatical {g}, faithful {f})"
            + (f"; {blank} not judged yet" if blank else f"; failed: {kinds}"))


def rewrite(kg: str, folder: Path, sample: list[CorpusRecord], tag: str) -> list[str]:
    """The sample's questions written again here; judgments carried over from any table of the KG where the same."""
    from engine.bootstrap.qgen import QuestionGenerator
    from engine.lm.llm import LLM

    config = ScoutConfig()
    kg_obj = KnowledgeGraph.open(SPECS[kg].kg, config)
    llm = LLM.load(config.model, cache_dir=str(Path(config.cache_dir) / "models"))
    generator = QuestionGenerator(llm, kg_obj.schema, beams=config.qgen_beams, context=config.qgen_context,
                                  readable=config.qgen_readable)
    readings = [generator.reading(r.program) for r in sample]  # what this checkout's prompt shows
    questions: list[str] = []
    for i in range(0, len(sample), config.qgen_batch):
        batch = sample[i : i + config.qgen_batch]
        questions += [g.question for g in generator.generate_batch([(r.program, list(r.subprograms)) for r in batch])]
    before = judgments(kg)
    path = table_path(kg, tag)
    rewritten = [replace(r, question=q) for r, q in zip(sample, questions)]
    write_table(kg, folder, rewritten, readings, f"python -m bench.qgen_eye rewrite --kgs {kg} --tag {tag}" + (f" --first {len(sample)}" if len(sample) < 40 else ""), path)
    lines = path.read_text(encoding="utf-8").splitlines()
    at = {int(m.group(1)): i for i, line in enumerate(lines) if (m := ROW.match(line))}
    for n, record in enumerate(rewritten, 1):
        g, f, note = before.get((record.program, record.question), ("", "", ""))
        if g:
            lines[at[n]] = lines[at[n]][: -len("|  |  |  |")] + f"| {g} | {f} | {note} |"
    lines[2] += (f" Questions written again by this checkout (model {config.model}, {config.qgen_beams} beams, context "
                 f"{config.qgen_context}); a judgment is carried over from `{table_path(kg).name}` or another table of "
                 "this KG where the program's question is the same.")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    written = WORK / f"{kg}-{tag}.json"
    written.parent.mkdir(parents=True, exist_ok=True)
    written.write_text(json.dumps({r.program: r.question for r in rewritten}, indent=1), encoding="utf-8")
    return questions


def trip(kg: str, folder: Path, sample: list[CorpusRecord], tag: str, n: int) -> str:
    """Round trip of the first n drawn records, their questions from the tagged table (the corpus' without tag)."""
    import shutil

    from bench.roundtrip import round_trip
    from engine.scout import Scout

    questions = json.loads((WORK / f"{kg}-{tag}.json").read_text(encoding="utf-8")) if tag else {}
    copy = WORK / f"{kg}-{tag or 'corpus'}"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(folder, copy)
    records = [replace(r, question=questions.get(r.program, r.question)) for r in Corpus(copy).records()]
    (copy / "records.jsonl").unlink()
    corpus = Corpus(copy)
    for record in records:
        corpus.append(record)
    scout = Scout(ScoutConfig())
    result = round_trip(scout.open(SPECS[kg].kg, copy), n, held=[r.program for r in sample[:n]])
    return f"{kg} {tag or 'corpus'}: {result.summary()}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("action", choices=("draw", "count", "rewrite", "trip"))
    parser.add_argument("--trip", type=int, default=16, help="trip: how many drawn records to answer")
    parser.add_argument("--first", type=int, default=None, help="rewrite: only the first N drawn records")
    parser.add_argument("--kgs", nargs="+", default=list(DEV_KGS), choices=sorted(SPECS))
    parser.add_argument("--n", type=int, default=40)
    parser.add_argument("--seed", type=int, default=27, help="of the draw")
    parser.add_argument("--cache-root", type=Path, default=DEFAULT_CACHE_ROOT)
    parser.add_argument("--budget", type=int, default=ScoutConfig().budget, help="of the corpora (bench.kgs)")
    parser.add_argument("--corpus-seed", type=int, default=0, help="of the corpora (bench.kgs --seed)")
    parser.add_argument("--tag", default="", help="suffix of the table's name, for a corpus other than bench.kgs'")
    parser.add_argument("--force", action="store_true", help="overwrite a table that holds judgments")
    parser.add_argument("--report", action="store_true", help="count: also append a section to BENCHMARKS.md")
    args = parser.parse_args()
    if args.action == "count" and args.report:
        report(args.kgs, args.tag)
    for kg in args.kgs:
        path = table_path(kg, args.tag)
        if args.action == "count":
            print(count_line(kg, path))
            continue
        if args.action in ("rewrite", "trip"):
            folder = corpus_folder(kg, args.cache_root, args.budget, args.corpus_seed)
            if args.action == "rewrite" and not folder.is_dir() and ScoutConfig().qgen_context == 0:
                sample = sample_from_table(kg)  # the corpus is gone; no context needs no sub-programs
            else:
                sample = draw(Corpus(folder).records(), args.n, args.seed)
            if args.action == "trip":
                print(trip(kg, folder, sample, args.tag, args.trip), flush=True)
                continue
            if not args.tag:
                raise SystemExit("rewrite needs --tag: the untagged table holds the corpus' own questions")
            sample = sample[: args.first]
            rewrite(kg, folder, sample, args.tag)
            print(count_line(kg, table_path(kg, args.tag)), flush=True)
            continue
        if path.exists() and any(a or b for a, b in judged(path)) and not args.force:
            raise SystemExit(f"{path} holds judgments; --force overwrites them")
        folder = corpus_folder(kg, args.cache_root, args.budget, args.corpus_seed)
        sample = draw(Corpus(folder).records(), args.n, args.seed)
        kg_obj = KnowledgeGraph.open(SPECS[kg].kg, ScoutConfig())
        fluent = Corpus(folder).manifest().parameters.get("qgen_readable", False)  # what its prompts showed
        readings = [verbalize(parse(r.program), kg_obj.schema, fluent=fluent) for r in sample]
        command = (f"python -m bench.qgen_eye draw --kgs {kg} --n {args.n} --seed {args.seed}"
                   + (f" --cache-root {args.cache_root} --budget {args.budget}" if args.cache_root != DEFAULT_CACHE_ROOT else "")
                   + (f" --tag {args.tag}" if args.tag else ""))
        write_table(kg, folder, sample, readings, command, path)
        print(f"wrote {path} ({len(sample)} of {len(Corpus(folder).records())} records)")


if __name__ == "__main__":
    main()
