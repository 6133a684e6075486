"""How each cost grows with the graph: load, schema, labels, linking, exploration and `ask`, from 10^5 triples up.

    python -m bench.scale [--quick] [--with-1e7] [--gzip] [--no-ask] [--no-write] [--endpoint] [--keep DIR [--remeasure]]

Issue 28: users bring graphs of millions of triples, and nothing had measured how any cost grows. For each size a
seeded synthetic KG (bench.scale_kg: typed entities, power-law degree, 34 relations, numbers and dates, shared
labels) is written as N-Triples and measured in a fresh subprocess, so that peak RSS is that size's alone:

* load: the file into the embedded store (kg_adapters.oxigraph_store, today's path), time and peak RSS;
* schema: induction over the store (kg_adapters.schema.read_schema);
* labels: `LabelIndex.build`, the label index written to SQLite in one streaming pass over the store
  (engine.answer.label_db): time, size on disk, RSS it adds, and the time to open it again once written;
* linking: median `LabelIndex.link` over questions that name random labels;
* exploration: programs per second of the explorer's walks, without the LLM;
* ask: the first question of a fresh session (models loaded, reasoner built: cold), then other questions
  (warm), then the same questions again (cached), with a tiny corpus of the explored programs' English readings
  and the tests' small model (SmolLM2-135M) unless `--model` names another; the lexicon is off (one LLM prompt
  per relation, a once-per-KG cost measured elsewhere).

With `--endpoint` each size is also bulk-loaded into a private Virtuoso, linked through it per question, with its
text index and without, and asked the same questions (bench/scale_endpoint.py); a second table.

The table gives each cost per size, the growth exponent between sizes (the slope on log-log axes: 1 is linear)
and an extrapolation to 10^8 and 10^9 triples along the last exponent, stated as such (bench/scale_table.py); its
notes say when each size was measured and the machine's load average then. `--keep DIR` keeps each size's results,
file and caches, so that a long run resumes and `--remeasure` can measure linking, exploration and `ask` again over
a kept size without loading it, inducing its schema and indexing its labels again (bench/scale_again.py).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from bench import scale_kg, scale_table
from bench.scale_table import markdown, size_name

DEFAULT_SIZES = (100_000, 1_000_000)
QUICK_SIZES = (10_000, 100_000)
BIG_SIZE = 10_000_000
MOVIEKG = Path(__file__).resolve().parents[2] / "shared" / "data" / "moviekg" / "kb.txt"
LINK_QUESTIONS = 50
ASK_QUESTIONS = 8  # one cold, seven warm: the median of three (the first runs) moved with one slow question
ENDPOINT_RESULTS: list = []  # --endpoint: one per size, in the driving process
TEMPLATES = ("who directed {}?", "what is {} known for", "when was {} released?", "where is {}?",
             "how many films did {} star in?")


@dataclass(frozen=True)
class SizeResult:
    """One size's costs; a field that was not measured is None."""

    triples: int
    file_mb: float
    load_s: float
    load_peak_rss_mb: float
    schema_s: float
    classes: int
    relations: int
    labels_s: float
    labels_disk_mb: float
    labels_rss_mb: float
    link_median_ms: float
    link_p90_ms: float
    explore_programs_per_s: float
    ask_cold_s: float | None = None
    ask_warm_s: float | None = None
    ask_cached_s: float | None = None
    peak_rss_mb: float = 0.0
    labels_open_ms: float | None = None
    measured_at: str | None = None  # when, and the 1-minute load average before and after (was the machine shared?)
    remeasured_at: str | None = None  # --remeasure: when linking, exploration and `ask` were measured again


# Which costs the table shows: (field, what, unit).
COSTS = (
    ("load_s", "load into the embedded store", "s"),
    ("load_peak_rss_mb", "peak RSS after the load", "MB"),
    ("schema_s", "schema induction", "s"),
    ("labels_s", "label index build", "s"),
    ("labels_disk_mb", "label index on disk (SQLite)", "MB"),
    ("labels_rss_mb", "RSS the label index adds", "MB"),
    ("labels_open_ms", "label index open (written before)", "ms"),
    ("link_median_ms", "linking, median", "ms"),
    ("link_p90_ms", "linking, p90", "ms"),
    ("explore_programs_per_s", "exploration rate (programs/s)", "/s"),
    ("ask_cold_s", "`ask`, cold (fresh session)", "s"),
    ("ask_warm_s", "`ask`, warm (median, other questions)", "s"),
    ("ask_cached_s", "`ask`, cached (median, same questions)", "s"),
    ("peak_rss_mb", "peak RSS of the whole run", "MB"),
)


def rss_mb() -> float:
    import psutil

    return psutil.Process().memory_info().rss / 2**20


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def stamp(load_before: float) -> str:
    """When a measurement ended, and the 1-minute load average before it and now: above ~1.5 on these two cores,
    another job shared the machine."""
    return f"{time.strftime('%Y-%m-%d %H:%M')} (load {load_before:.1f} -> {os.getloadavg()[0]:.1f})"


# ------------------------------------------------------------------ one size (run in its own process)
def measure(path: Path, cache_dir: Path, ask: bool, model: str, explore_s: float, seed: int = 0) -> SizeResult:
    """Every cost of one file, in the order a user meets them; `cache_dir` starts empty."""
    from kg_adapters.oxigraph_store import OxigraphStore
    from kg_adapters.schema import InductionConfig, cached_schema

    loaded = os.getloadavg()[0]
    config = scale_config(cache_dir, model)
    if ask:
        _share_models(cache_dir)
    started = time.perf_counter()
    store = OxigraphStore.from_file(path, cache_root=cache_dir, max_bytes=config.max_upload_bytes,
                                    max_triples=config.max_triples, timeout_s=config.query_timeout_s)
    load_s, load_rss = time.perf_counter() - started, peak_rss_mb()
    started = time.perf_counter()
    schema = cached_schema(store, cache_dir, InductionConfig(timeout_s=config.query_timeout_s))
    schema_s = time.perf_counter() - started
    labels = _labels(store, schema, cache_dir)
    link = _linking(labels[0], path, seed)
    rate, programs = _exploration(store, config, explore_s, seed)
    store.close()
    asked = _ask(path, config, cache_dir, programs, seed) if ask else (None, None, None)
    return SizeResult(
        triples=store.info.triples, file_mb=path.stat().st_size / 2**20, load_s=load_s, load_peak_rss_mb=load_rss,
        schema_s=schema_s, classes=len(schema.classes), relations=len(schema.relations), labels_s=labels[1],
        labels_disk_mb=labels[2], labels_rss_mb=labels[3], link_median_ms=link[0], link_p90_ms=link[1],
        explore_programs_per_s=rate, ask_cold_s=asked[0], ask_warm_s=asked[1], ask_cached_s=asked[2],
        peak_rss_mb=peak_rss_mb(), labels_open_ms=labels[4], measured_at=stamp(loaded),
    )


def scale_config(cache_dir: Path, model: str):
    """The settings of every size: no file too large, no query cut short, the lexicon off (see the docstring)."""
    from engine.config import ScoutConfig

    return ScoutConfig(cache_dir=str(cache_dir), model=model, lexicon=False, max_upload_mb=1e6,
                       max_triples=10 * BIG_SIZE, query_timeout_s=600.0)


def _share_models(cache_dir: Path) -> None:
    """Models converted once in the default cache are used from there: converting one is no cost of a KG."""
    from engine.config import ScoutConfig

    models = Path(ScoutConfig().cache_dir) / "models"
    if models.is_dir():
        cache_dir.mkdir(parents=True, exist_ok=True)
        (cache_dir / "models").symlink_to(models, target_is_directory=True)


def _labels(store, schema, cache_dir: Path):
    """The label index as the app builds it (no embedder: synonyms are a separate cost), then opened again."""
    import gc

    from engine.answer.linker import LabelIndex

    gc.collect()
    before = rss_mb()
    started = time.perf_counter()
    index = LabelIndex.build(store, schema, cache_dir)
    build_s = time.perf_counter() - started
    gc.collect()
    disk = sum(p.stat().st_size for p in (cache_dir / "labels").glob("*.sqlite")) / 2**20
    grown = rss_mb() - before
    started = time.perf_counter()
    index = LabelIndex.build(store, schema, cache_dir)
    return index, build_s, disk, grown, (time.perf_counter() - started) * 1000


def link_questions(path: Path, n: int = LINK_QUESTIONS, seed: int = 0) -> list[str]:
    """Questions that each name one random label of the file, in a few everyday shapes."""
    return [TEMPLATES[i % len(TEMPLATES)].format(label)
            for i, label in enumerate(scale_kg.label_sample(path, n, seed))]


def _linking(index, path: Path, seed: int) -> tuple[float, float]:
    """Median and p90 of `link` in ms; one question first, untimed, so lazy tables are built."""
    questions = link_questions(path, seed=seed)
    index.link(questions[0])
    times = []
    for question in questions:
        started = time.perf_counter()
        index.link(question)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), _p90(times)


def _exploration(store, config, budget_s: float, seed: int):
    """Programs per second of the explorer over `budget_s` seconds (its start-up included), and the programs."""
    from engine.bootstrap.explorer import ExploreConfig, Explorer
    from engine.programs.kg import KnowledgeGraph

    kg = KnowledgeGraph.from_store(store, config)
    explorer = Explorer(kg, ExploreConfig(sample_above=config.explore_sample_above), seed=seed)
    programs, started = [], time.perf_counter()
    for program in explorer.explore(budget=10_000):
        programs.append(program)
        if time.perf_counter() - started > budget_s:
            break
    return len(programs) / (time.perf_counter() - started), programs


def _ask(path: Path, config, cache_dir: Path, programs: list, seed: int):
    """(cold, warm median, cached median) seconds of `Scout.ask`, with the explored programs as the corpus."""
    from engine.bootstrap.corpus import Corpus
    from engine.scout import Scout

    corpus = Corpus(cache_dir / "corpus")
    corpus.write_programs(programs[:20])
    session = Scout(config).open(str(path), corpus_dir=corpus.folder)
    try:
        return ask_times(session, ask_questions(path, seed))
    finally:
        session.close()


def ask_questions(path: Path, seed: int) -> list[str]:
    """The questions `ask` is timed on, in the embedded store and through the endpoint alike."""
    return link_questions(path, n=ASK_QUESTIONS, seed=seed + 1)


def ask_times(session, questions: list[str]) -> tuple[float, float, float]:
    """(cold, warm median, cached median) seconds: the first question, the others, then all of them again."""
    cold = _timed_ask(session, questions[0])
    warm = [_timed_ask(session, q) for q in questions[1:]]
    cached = [_timed_ask(session, q) for q in questions]
    return cold, statistics.median(warm), statistics.median(cached)


def _timed_ask(session, question: str) -> float:
    started = time.perf_counter()
    session.ask(question)
    return time.perf_counter() - started


def _p90(values: list[float]) -> float:
    return sorted(values)[int(0.9 * (len(values) - 1))]


def table(results: list, costs: tuple = COSTS) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """The embedded store's table (bench.scale_table.table) unless other costs are named."""
    return scale_table.table(results, costs)


# ------------------------------------------------------------------ driving
def run_size(triples: int, workdir: Path, args: argparse.Namespace, vocabulary: list[str] | None) -> SizeResult:
    """Generate the file, then measure it in a fresh Python so its peak RSS is its own. With --keep, a size whose
    results that folder holds already is not measured again (a long run resumes), and new results go there with
    the file and its caches; with --remeasure too, a kept size has what follows its label index measured again
    (bench.scale_again), and its endpoint part in full."""
    kept = Path(args.keep) if args.keep else workdir
    kept.mkdir(parents=True, exist_ok=True)
    out, endpoint_out = kept / f"result-{triples}.json", kept / f"endpoint-{triples}.json"
    folder = kept if args.keep else workdir
    path, cache = folder / f"scale-{triples}.nt{'.gz' if args.gzip else ''}", folder / f"cache-{triples}"
    again = bool(args.remeasure and out.is_file() and not json.loads(out.read_text()).get("remeasured_at"))
    if again and not (path.is_file() and cache.is_dir()):
        raise SystemExit(f"--remeasure: {kept} holds no file and cache for {size_name(triples)}; measure it in full")
    endpoint = args.endpoint and (again or not endpoint_out.is_file())
    if not out.is_file() or again or endpoint:
        if not path.is_file():
            started = time.perf_counter()
            made = scale_kg.generate(path, triples, seed=args.seed, vocabulary=vocabulary)
            print(f"{size_name(triples)}: {made.triples:,} triples, {made.entities:,} entities written in "
                  f"{time.perf_counter() - started:.1f} s", file=sys.stderr)
        common = ["--cache", str(cache), "--model", args.model, "--seed", str(args.seed),
                  *(["--no-ask"] if args.no_ask else [])]
        if not out.is_file() or again:
            subprocess.run([sys.executable, "-m", "bench.scale", "--again" if again else "--measure", str(path),
                            "--result", str(out), "--explore-s", str(args.explore_s), *common], check=True)
        if endpoint:
            subprocess.run([sys.executable, "-m", "bench.scale", "--measure-endpoint", str(path), "--result",
                            str(endpoint_out), "--virtuoso-buffers", str(args.virtuoso_buffers), *common], check=True)
        if not args.keep:
            path.unlink()
            shutil.rmtree(cache, ignore_errors=True)
    if args.endpoint:
        from bench.scale_endpoint import EndpointResult

        ENDPOINT_RESULTS.append(EndpointResult(**json.loads(endpoint_out.read_text())))
    return SizeResult(**json.loads(out.read_text()))


def notes(args: argparse.Namespace, vocabulary: list[str] | None, results: list[SizeResult]) -> str:
    ask = "not measured (--no-ask)" if args.no_ask else (
        f"model {args.model}, lexicon off, corpus: the English readings of up to 20 explored programs")
    return "\n".join([
        f"Synthetic KGs from `bench/scale_kg.py` (seed {args.seed}, vocabulary: "
        f"{'MoviesKG names' if vocabulary else 'made-up syllables'}), N-Triples{' gzipped' if args.gzip else ''}; "
        "each size measured in a fresh process. The label index is a SQLite file written in one streaming pass over "
        f"the store (engine.answer.label_db). Exploration: {args.explore_s:g} s of walks per size. `ask`: {ask}.",
        "Exponent: the log-log slope between two sizes (1 = linear). The last two columns are **extrapolations** "
        "along the last measured exponent, not measurements; they assume the same shape and one machine.",
        "Measured (date, 1-minute load average before and after; the machine has 2 cores): " + "; ".join(
            f"{size_name(r.triples)} {r.measured_at or 'not recorded'}"
            + (f", linking, exploration and `ask` again {r.remeasured_at}" if r.remeasured_at else "")
            for r in results) + ".",
    ])


def main(argv: list[str] | None = None) -> None:
    args = _parser().parse_args(argv)
    if args.measure:
        result = measure(Path(args.measure), Path(args.cache), not args.no_ask, args.model, args.explore_s, args.seed)
        Path(args.result).write_text(json.dumps(asdict(result)))
        return
    if args.again:
        from bench.scale_again import remeasure

        result = remeasure(Path(args.again), Path(args.cache), Path(args.result), not args.no_ask, args.model,
                           args.explore_s, args.seed)
        Path(args.result).write_text(json.dumps(asdict(result)))
        return
    if args.measure_endpoint:
        from bench import scale_endpoint

        path = Path(args.measure_endpoint)
        work = Path(tempfile.mkdtemp(prefix="kgscout-virtuoso-", dir=Path(args.cache).parent))
        try:
            result = scale_endpoint.measure(path, Path(args.cache), work, link_questions(path, seed=args.seed),
                                            args.virtuoso_buffers,
                                            None if args.no_ask else ask_questions(path, args.seed), args.model)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        Path(args.result).write_text(json.dumps(asdict(result)))
        return
    sizes = QUICK_SIZES if args.quick else DEFAULT_SIZES + ((BIG_SIZE,) if args.with_1e7 else ())
    vocabulary = scale_kg.vocabulary_from(args.vocabulary)
    with tempfile.TemporaryDirectory(prefix="kgscout-scale-") as tmp:
        results = [run_size(n, Path(tmp), args, vocabulary) for n in sizes]
    header, rows = table(results)
    text = markdown(header, rows)
    if not args.no_write:
        from bench.report import append_section

        text = append_section("Scale: cost against KG size (synthetic, embedded store)", rows,
                              notes=notes(args, vocabulary, results), header=header)
    print(text)
    if ENDPOINT_RESULTS:
        from bench import scale_endpoint

        header, rows = table(ENDPOINT_RESULTS, scale_endpoint.COSTS)
        text = markdown(header, rows)
        if not args.no_write:
            from bench.report import append_section

            text = append_section("Scale: linking and `ask` through a SPARQL endpoint (synthetic, Virtuoso)", rows,
                                  notes=scale_endpoint.__doc__.split("\n\n", 1)[1].strip(), header=header)
        print(text)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="10^4 and 10^5 triples only (for tests)")
    parser.add_argument("--with-1e7", action="store_true", help="also 10^7 triples (long; not run by default)")
    parser.add_argument("--gzip", action="store_true", help="write and load gzipped N-Triples")
    parser.add_argument("--no-ask", action="store_true", help="skip `ask` (no models loaded)")
    parser.add_argument("--no-write", action="store_true", help="print the table, leave BENCHMARKS.md alone")
    parser.add_argument("--model", default="smollm2-135m", help="the language model of `ask`")
    parser.add_argument("--explore-s", type=float, default=20.0, help="seconds of exploration per size")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--vocabulary", default=str(MOVIEKG), help="a delimited KG whose names seed the vocabulary")
    parser.add_argument("--endpoint", action="store_true",
                        help="also load each size into a private Virtuoso and measure linking through it")
    parser.add_argument("--virtuoso-buffers", type=int, default=250_000, help="Virtuoso's page cache, 8 KB pages")
    parser.add_argument("--keep", help="a folder for each size's results, file and caches: sizes it holds are not "
                        "measured again")
    parser.add_argument("--remeasure", action="store_true", help="with --keep: measure linking, exploration and "
                        "`ask` again over each kept size's store, schema and label index (and its endpoint part)")
    parser.add_argument("--again", help=argparse.SUPPRESS)  # the child: this kept file, from its label index on
    parser.add_argument("--measure", help=argparse.SUPPRESS)  # the child: measure this file
    parser.add_argument("--measure-endpoint", help=argparse.SUPPRESS)  # the child: this file through Virtuoso
    parser.add_argument("--cache", help=argparse.SUPPRESS)
    parser.add_argument("--result", help=argparse.SUPPRESS)
    return parser


if __name__ == "__main__":
    main()
