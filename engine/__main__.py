"""`python -m engine COMMAND`: the command-line face of the engine.

Each command is a small function over the engine's public API; argument parsing
and error reporting live here and nowhere else. A user error (a bad file, a bad
program, an unreachable endpoint) prints one clear line and exits with status 2,
never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Callable

from engine.bootstrap.corpus import CorpusError
from engine.programs.kg import KnowledgeGraph
from engine.programs.sexpr import ProgramError
from kg_adapters.base import KGError

from .config import APP_ONLY_FIELDS, ScoutConfig, add_config_flags, config_from_args

COMMANDS: dict[str, Callable[[argparse.Namespace, ScoutConfig], int]] = {}


def command(name: str, help_text: str, setup: Callable[[argparse.ArgumentParser], None]):
    def register(fn: Callable[[argparse.Namespace, ScoutConfig], int]):
        COMMANDS[name] = fn
        fn.help_text, fn.setup = help_text, setup
        return fn

    return register


def _kg_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument("--kg", default=None, help="triples file or SPARQL endpoint URL (default: the geography KG)")


def _schema_args(p: argparse.ArgumentParser) -> None:
    _kg_flag(p)
    p.add_argument("--json", action="store_true", help="print the schema as JSON")


@command("schema", "print the KG's schema, read or induced", _schema_args)
def schema_command(args: argparse.Namespace, config: ScoutConfig) -> int:
    kg = KnowledgeGraph.open(args.kg, config)
    print(kg.schema.to_json() if args.json else kg.schema.describe())
    return 0


def _run_program_args(p: argparse.ArgumentParser) -> None:
    _kg_flag(p)
    p.add_argument("program", help='an s-expression, e.g. \'(JOIN (R directed_by) "Blade Runner")\'')
    p.add_argument("--json", action="store_true", help='print {"sparql": ..., "answers": [...]}')


@command("run-program", "compile a program to SPARQL, run it, print the answers", _run_program_args)
def run_program_command(args: argparse.Namespace, config: ScoutConfig) -> int:
    kg = KnowledgeGraph.open(args.kg, config)
    result = kg.executor.execute(args.program)
    if args.json:
        print(json.dumps({"sparql": result.sparql, "answers": result.to_json()["answers"]}, ensure_ascii=False))
        return 0
    print(result.sparql)
    print()
    if result.count is not None:
        print(f"count: {result.count}")
    else:
        print(f"{len(result.answers)} answer(s){' (truncated)' if result.truncated else ''}:")
        for answer in result.answers:
            print(f"  {answer.label}" + (f"  <{answer.iri}>" if answer.iri else ""))
    return 0


def _setup_errors() -> tuple[type[Exception], ...]:
    from engine.lm.embedder import EmbedderError
    from engine.lm.models import ModelError

    return (CorpusError, EmbedderError, ModelError)


def _reasoner(args: argparse.Namespace, config: ScoutConfig, memoize: bool = True):
    """KG, corpus, label index, embedder and LLM, put together (the LLM named by --model)."""
    from engine.answer.reasoner import Reasoner
    from engine.answer.remote_labels import open_label_index
    from engine.bootstrap.build import prepare_schema
    from engine.bootstrap.corpus import Corpus
    from engine.lm.embedder import Embedder
    from engine.lm.llm import LLM
    from engine.scout import default_corpus_dir

    kg = KnowledgeGraph.open(args.kg, config)
    records = []
    if args.corpus:
        corpus = Corpus(args.corpus)
        if not corpus.exists() and not (corpus.folder / "records.jsonl").is_file():
            raise CorpusError(f"{args.corpus} holds no corpus (no manifest.json or records.jsonl)")
        corpus.check_fingerprint(kg.fingerprint)
        records = corpus.records()
    else:  # the corpus the app would use: the shipped one for the default KG, or one the app bootstrapped
        corpus = Corpus(default_corpus_dir(args.kg, kg.fingerprint, config))
        if corpus.exists():
            corpus.check_fingerprint(kg.fingerprint)
            records = corpus.records()
            print(f"using the corpus in {corpus.folder} ({len(records):,} questions)", file=sys.stderr)
        else:
            print("warning: no --corpus; questions are answered without exemplars", file=sys.stderr)
    llm = LLM.load(config.model)
    embedder = Embedder.load(config.embedder)
    # as the app prepares a KG before its first question: class nouns, then the relation lexicon where the KG has
    # none yet (a KG asked without a bootstrap first had answered without its lexicon here)
    prepare_schema(kg, corpus, lambda: llm, lambda: embedder, lambda progress: None, config.lexicon)
    index = open_label_index(kg.store, kg.schema, config.cache_dir, embedder, config)
    return Reasoner(kg, records, llm, embedder, index, config, memoize=memoize)


def _ask_args(p: argparse.ArgumentParser) -> None:
    _kg_flag(p)
    p.add_argument("--corpus", default=None, help="corpus folder written by bootstrap (its exemplars)")
    p.add_argument("question", help='a question, e.g. "who directed Alien?"')


@command("ask", "answer one question; print the result as JSON", _ask_args)
def ask_command(args: argparse.Namespace, config: ScoutConfig) -> int:
    try:
        reasoner = _reasoner(args, config)
    except Exception as err:  # noqa: BLE001 - setup errors become one line; anything else propagates
        if not isinstance(err, _setup_errors()):
            raise
        print(f"error: {err}", file=sys.stderr)
        return 2
    result = reasoner.answer(args.question, on_progress=lambda stage: print(f"{stage}...", file=sys.stderr))
    print(json.dumps(result.to_json(), ensure_ascii=False, indent=1))
    return 0


def _evaluate_args(p: argparse.ArgumentParser) -> None:
    _kg_flag(p)
    p.add_argument("--corpus", default=None, help="corpus folder written by bootstrap (its exemplars)")
    p.add_argument("--questions", required=True, help='JSON lines: {"question": ..., "answers": [labels]}')
    p.add_argument("--limit", type=int, default=None, help="only the first N questions")
    p.add_argument("--out", default=None, help="write one JSON line of results per question here")
    p.add_argument("--fresh", action="store_true", help="ignore answers memoized by earlier runs")


@command("evaluate", "answer a file of questions; last stdout line: F1, Hits@1, EM, latency", _evaluate_args)
def evaluate_command(args: argparse.Namespace, config: ScoutConfig) -> int:
    import time
    from dataclasses import asdict
    from pathlib import Path

    from engine.answer.metrics import executed_labels, score, summary

    try:
        ids, items = _read_questions(args.questions, args.limit)
        reasoner = _reasoner(args, config, memoize=not args.fresh)
    except Exception as err:  # noqa: BLE001 - setup errors become one line; anything else propagates
        if not isinstance(err, (*_setup_errors(), OSError, ValueError)):
            raise
        print(f"error: {err}", file=sys.stderr)
        return 2
    out = open(Path(args.out), "w", encoding="utf-8") if args.out else None
    kg_name = Path(args.kg).stem if args.kg and "://" not in args.kg else (args.kg or "default")
    scores, latencies = [], []
    try:
        for i, (question, gold) in enumerate(items, 1):
            start = time.perf_counter()
            result = reasoner.answer(question)
            latency = time.perf_counter() - start
            labels = [a.label for a in result.answers]
            s = score(labels, gold)
            scores.append(s)
            latencies.append(latency)
            if out:
                # a finalist's F1 too (executed, memoized): with its scores, `python -m bench.replay --whole` replays a
                # change to the re-rank's weights on these rows, as it does on bench.kgs rows
                executed = (executed_labels(reasoner.executor, a.program) for a in result.alternatives)
                alternative_f1 = [None if got is None else score(list(got), gold).f1 for got in executed]
                row = {"kg": kg_name, "id": ids[i - 1], "question": question, "gold": gold, "predicted": labels,
                       "program": result.program,
                       "f1": s.f1, "hits1": s.hits1, "em": s.em, "latency_s": round(latency, 3),
                       "message": result.message, "cached": result.cached,
                       "alternatives": [a.program for a in result.alternatives], "alternative_f1": alternative_f1,
                       "alternative_scores": [{k: v for k, v in asdict(a).items() if k not in ("program", "reading")}
                                              for a in result.alternatives],
                       "timings": result.timings.as_dict()}
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
                out.flush()
            print(f"[{i}/{len(items)}] f1={s.f1:.2f} {latency:.1f}s {question} -> {result.program}", file=sys.stderr)
    finally:
        if out:
            out.close()
        reasoner.close()
    print(json.dumps(summary(scores, latencies)))
    return 0


def _read_questions(path: str, limit: int | None) -> tuple[list[str], list[tuple[str, list[str]]]]:
    """(ids, [(question, answers)]): a row's "id", else its line number."""
    ids, items = [], []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
                question, answers = data["question"], data.get("answers", [])
            except (ValueError, KeyError, TypeError) as err:
                raise ValueError(f"{path} line {number}: expected {{\"question\": ..., \"answers\": [...]}} ({err})")
            ids.append(str(data.get("id", number)))
            items.append((str(question), [str(a) for a in (answers if isinstance(answers, list) else [answers])]))
            if limit is not None and len(items) >= limit:
                break
    return ids, items


def _bootstrap_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--kg", default=None, help="triples file or SPARQL endpoint URL (default: the geography KG)")
    p.add_argument("--out", required=True, help="corpus folder; rerun the same command to resume")


@command("bootstrap", "explore the KG and generate its question corpus (resumable)", _bootstrap_args)
def bootstrap_command(args: argparse.Namespace, config: ScoutConfig) -> int:
    from tqdm import tqdm

    from engine.bootstrap.build import Progress, bootstrap
    from engine.lm.llm import LLM

    kg = KnowledgeGraph.open(args.kg, config)
    bars: dict[str, tqdm] = {}

    def show(progress: Progress) -> None:
        bar = bars.get(progress.phase)
        if bar is None and progress.phase in ("explore", "questions"):
            label = "exploring" if progress.phase == "explore" else "questions"
            bar = bars[progress.phase] = tqdm(total=progress.total, desc=label, unit="prog", dynamic_ncols=True)
        if bar is not None:
            bar.update(progress.done - bar.n)
        if progress.message:
            tqdm.write(progress.message)

    result = bootstrap(
        kg, args.out, config, lambda: LLM.load(config.model, cache_dir=str(Path(config.cache_dir) / "models")), show
    )
    for bar in bars.values():
        bar.close()
    print(json.dumps({"corpus": str(result.folder), "programs": result.programs, "records": result.records,
                      "complete": result.complete}))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description="KG Scout engine")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, fn in COMMANDS.items():
        p = sub.add_parser(name, help=fn.help_text, description=fn.help_text)
        fn.setup(p)
        add_config_flags(p.add_argument_group("settings"), skip=APP_ONLY_FIELDS)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    # The command line runs as its user, who may reach any endpoint the machine can (the app may not).
    config = config_from_args(args).replace(allow_private_endpoints=True)
    try:
        return COMMANDS[args.command](args, config)
    except (KGError, ProgramError, CorpusError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
