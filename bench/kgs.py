"""Accuracy on several KGs at once: F1, Hits@1, latency and why each miss missed, on a tune and a check half.

    python -m bench.kgs [--quick] [--budget N] [--per-kg N] [--seed 0] [--sample-seed 1] [--kgs NAME ...]
                        [--fresh] [--results R.jsonl] [--cache-root DIR] [--with-unsupported] [--no-report]
                        [--only R.tsv]

One number per KG says more about "any KG" than MetaQA alone: the KGs differ in size, labels
(underscored names, numbers, dates) and question style.

1. A corpus per KG. geography-demo answers on the default KG with the shipped
   `assets/geography-corpus`; every other KG, MoviesKG included, is bootstrapped here with the same
   --budget and --seed, by default the app's own default for an upload (`ScoutConfig.budget`), so the
   figure is what a user gets, into `<cache-root>/<kg>-b<budget>-s<seed>/` (resumable; reused once its
   manifest says complete). The time each bootstrap took is printed and reported.
2. A seeded sample per KG (--sample-seed), stratified by the dataset's "set" (MetaQA: hop;
   geography-demo: kind) with an equal share per stratum: 200 per KG (geography-demo and university:
   every supported row), 12 with --quick. Seed 1, not 0: the first 40 of seed 0's sample were read one
   by one in sessions 11-18.
3. Each sampled question falls in the **tune** or the **check** half by a fixed hash of its id
   (`half`). Misses, examples and per-question lines are printed for tune only; of check the run says
   its F1 and nothing else, so a change tuned on what we read is judged on what nobody read. A change
   is adopted only when no KG's check F1 falls.
4. Each question answered cold (its memoized answer forgotten first); one JSON row per question is
   appended to --results as it comes, so an interrupted run resumes (rows are keyed by KG, id and
   corpus; --fresh answers everything again).
5. Every miss (F1 < 1) gets exactly one failure kind from `failure_kind`, a pure function of the
   `Evidence` gathered while answering (see FAILURE_KINDS); the kinds are counted over tune only.
6. One section in BENCHMARKS.md: a row per KG with tune, check and their gap, and a macro average
   (--no-report: stdout only).
7. `--only R.tsv` answers only the sampled questions listed (`kg<TAB>id` lines, as `bench.touched --reached`
   writes them), for a machine too slow for the whole sample: run from two trees, the rows say whether a change
   that reaches those questions moves tune or check. A partial sample never reaches BENCHMARKS.md.

No benchmark question reaches a corpus or a prompt: corpora come from exploring the KG alone.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import TypeVar

from bench.metaqa_data import MOVIEKG, SHARED, gold_program, load_questions
from bench.report import append_section
from engine.answer.metrics import answer_set, executed_labels, labels, score
from engine.answer.reasoner import REASONER_VERSION, QuestionResult
from engine.bootstrap import Progress, bootstrap
from engine.bootstrap.build import LEGACY_PARAMETERS, exploration_parameters
from engine.bootstrap.corpus import Corpus
from engine.config import REASONING_FIELDS, ScoutConfig, add_config_flags, given_settings
from engine.programs.sexpr import entities, parse, to_text
from engine.scout import Scout

BENCH_CACHE = Path.home() / ".cache" / "kgscout" / "bench"
DEFAULT_RESULTS = BENCH_CACHE / f"kgs-results-v{REASONER_VERSION}.jsonl"
DEFAULT_CACHE_ROOT = BENCH_CACHE / "kgs"
# How the bootstraps write questions: another writer's corpora are measured with their own --cache-root.
WRITER_FIELDS = ("qgen_beams", "qgen_context", "qgen_readable")
KGS_DATA = SHARED / "kgs"
OPS_QUESTIONS = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "ops_questions"

FAILURE_KINDS = ("unsupported", "linking", "gold-data", "ranking", "search")
T = TypeVar("T")


# ==================================================================== questions
@dataclass(frozen=True)
class BenchQuestion:
    kg: str
    id: str
    stratum: str
    question: str  # as asked (MetaQA keeps its [brackets] around the topic entity)
    answers: tuple[str, ...]
    gold_program: str | None  # known for geography-demo and MetaQA
    unsupported: bool = False  # a question the program language cannot express (geography-demo)


@dataclass(frozen=True)
class KGSpec:
    """One benchmark KG: where its triples are, how to read its questions, whether it is bootstrapped."""

    name: str
    kg: str | None  # None: the default geography KG
    load: Callable[[], list[BenchQuestion]]
    bootstrapped: bool = True  # False: the shipped corpus is used as is
    take_all: bool = False  # full mode answers every (supported) question instead of a sample
    corpus_of: str | None = None  # another spec whose corpus this one shares (same KG)
    default: bool = True  # run without --kgs; the operator sets (issue 13) are asked for by name


def jsonl_questions(name: str, path: Path | None = None) -> list[BenchQuestion]:
    """`kgs/<name>/questions.jsonl`: strata are "set", else "kind"; "unsupported" rows have no program."""
    out = []
    path = path or KGS_DATA / name / "questions.jsonl"
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            stratum = row.get("set") or row.get("kind") or "all"
            out.append(BenchQuestion(name, row["id"], stratum, row["question"], tuple(map(str, row["answers"])),
                                     row.get("program"), row.get("kind") == "unsupported"))
    return out


def metaqa_questions() -> list[BenchQuestion]:
    """MetaQA dev, all hops; the topic entity in [brackets] as bench.metaqa asks it, the gold program by qtype."""
    out = []
    for hop in (1, 2, 3):
        for i, q in enumerate(load_questions(hop)):
            text = q.question.replace(q.topic, f"[{q.topic}]", 1)
            out.append(BenchQuestion("metaqa", f"metaqa-{hop}h-{i}", f"{hop}-hop", text, q.answers,
                                     gold_program(q.qtype, q.topic)))
    return out


def _tsv(name: str) -> str:
    return str(KGS_DATA / name / "kb.tsv")


SPECS: dict[str, KGSpec] = {
    spec.name: spec
    for spec in (
        KGSpec("worldcup", _tsv("worldcup"), lambda: jsonl_questions("worldcup")),
        KGSpec("pathquestion-large", _tsv("pathquestion-large"), lambda: jsonl_questions("pathquestion-large")),
        KGSpec("pathquestion-large-3h", _tsv("pathquestion-large-3h"),
               lambda: jsonl_questions("pathquestion-large-3h")),
        KGSpec("geography-demo", None, lambda: jsonl_questions("geography-demo"), bootstrapped=False, take_all=True),
        KGSpec("metaqa", str(MOVIEKG), metaqa_questions),
        KGSpec("university", str(KGS_DATA / "university" / "kb.ttl"), lambda: jsonl_questions("university"),
               take_all=True),
        # our own questions for the operators of issue 13 (tests/fixtures/ops_questions), stratified by operator
        KGSpec("geography-ops", None, lambda: jsonl_questions("geography-ops", OPS_QUESTIONS / "geography.jsonl"),
               bootstrapped=False, default=False),
        KGSpec("moviekg-ops", str(MOVIEKG), lambda: jsonl_questions("moviekg-ops", OPS_QUESTIONS / "moviekg.jsonl"),
               corpus_of="metaqa", default=False),
    )
}


def stratified_sample(items: Sequence[T], stratum: Callable[[T], Hashable], n: int | None, seed: int) -> list[T]:
    """n items, an equal share per stratum (shares differ by at most one; a small stratum's shortfall goes to
    the others). Each stratum is shuffled with one random.Random(seed), in sorted stratum order, and the
    strata are then taken round-robin, so the sample of n is a prefix of the sample of n + 1 and an
    interrupted run is still balanced. n=None: every item, in that order."""
    groups: dict[Hashable, list[T]] = defaultdict(list)
    for item in items:
        groups[stratum(item)].append(item)
    rng = random.Random(seed)
    queues = []
    for key in sorted(groups, key=str):
        group = list(groups[key])
        rng.shuffle(group)
        queues.append(group)
    total = sum(map(len, queues)) if n is None else min(n, sum(map(len, queues)))
    out: list[T] = []
    for i in range(max(map(len, queues), default=0)):
        out += [queue[i] for queue in queues if i < len(queue)]
    return out[:total]


TUNE, CHECK = "tune", "check"


def half(question_id: str) -> str:
    """TUNE or CHECK, fixed for ever by the id alone (not by the sample, the seed or the order)."""
    return CHECK if hashlib.sha256(question_id.encode("utf-8")).digest()[0] % 2 else TUNE


# ==================================================================== failure kinds
@dataclass(frozen=True)
class Evidence:
    """What the classifier needs of one answered question; plain data, so the rules are testable as a table."""

    f1: float
    program: str | None = None  # the chosen program
    alternatives: tuple[str, ...] = ()  # the finalists, best first (the chosen one among them)
    alternative_f1: tuple[float | None, ...] = ()  # each finalist's answers' F1 against gold; None: did not run
    searched: bool = True  # the search ran (False: nothing in the question was linked)
    linked_labels: tuple[str, ...] = ()  # labels of every linked mention's candidates
    gold_program: str | None = None
    gold_matches_prediction: bool = False  # the gold program executes to exactly the predicted answers
    unsupported: bool = False


def same_program(a: str | None, b: str | None) -> bool:
    """Equal as programs (canonical text), so spacing and quoting do not matter."""
    if a is None or b is None:
        return False
    try:
        return to_text(parse(a)) == to_text(parse(b))
    except ValueError:  # ProgramError is a ValueError
        return a.strip() == b.strip()


def gold_entities(program: str | None) -> tuple[str, ...]:
    if program is None:
        return ()
    try:
        return tuple(e.ref for e in entities(parse(program)) if not e.is_iri)
    except ValueError:
        return ()


def failure_kind(e: Evidence) -> str | None:
    """The one reason a question missed (None when F1 = 1); the first rule that holds wins:

    unsupported: the dataset marks the question as beyond the program language.
    gold-data:   the system chose the gold program, or its answers are exactly the gold program's on this
                 KG; the dataset's answer list differs from what the KG says.
    linking:     nothing was linked (no program, no finalist, no search), or a gold entity is not among the
                 linked candidates, so the right program could not be built.
    ranking:     a finalist other than the chosen one is the gold program or answers with F1 >= 0.99 (and
                 better than the chosen one): the search found it, the ranking passed it over.
    search:      the right reading never became a finalist.
    """
    if e.f1 >= 1:
        return None
    if e.unsupported:
        return "unsupported"
    if e.gold_program is not None and (same_program(e.program, e.gold_program) or e.gold_matches_prediction):
        return "gold-data"
    if e.program is None and not e.alternatives and not e.searched:
        return "linking"
    linked = {label.casefold() for label in e.linked_labels}
    if any(label.casefold() not in linked for label in gold_entities(e.gold_program)):
        return "linking"
    others = [(p, f) for p, f in zip(e.alternatives, e.alternative_f1 or (None,) * len(e.alternatives))
              if not same_program(p, e.program)]
    if any(f is not None and f >= 0.99 and f > e.f1 for _, f in others):
        return "ranking"
    if any(same_program(p, e.gold_program) for p, _ in others):
        return "ranking"
    return "search"


# ==================================================================== answering
@dataclass(frozen=True)
class Row:
    kg: str
    id: str
    stratum: str
    question: str
    gold: tuple[str, ...]
    predicted: tuple[str, ...]
    program: str | None
    gold_program: str | None
    f1: float
    hits1: float
    latency_s: float
    alternatives: tuple[str, ...]
    alternative_f1: tuple[float | None, ...]
    linked_labels: tuple[str, ...]
    searched: bool
    gold_matches_prediction: bool
    unsupported: bool
    message: str | None
    corpus: str  # the corpus folder's name: rows of another corpus are never resumed
    timings: dict[str, float] = field(default_factory=dict)  # the reasoner's stages, to see where latency goes
    failure: str | None = None
    # each finalist's scores (engine.answer.reasoner.Alternative less its texts), so that a change to how the
    # re-rank weighs them can be replayed on recorded rows without answering again
    alternative_scores: tuple[dict, ...] = ()

    def evidence(self) -> Evidence:
        return Evidence(self.f1, self.program, self.alternatives, self.alternative_f1, self.searched,
                        self.linked_labels, self.gold_program, self.gold_matches_prediction, self.unsupported)

    def classified(self) -> Row:
        return replace(self, failure=failure_kind(self.evidence()))


def gather(executor, q: BenchQuestion, result: QuestionResult, predicted: tuple[str, ...]) -> dict:
    """The Row fields beyond the reply itself: finalists' F1 and the gold program's answers, both executed."""
    alternatives = tuple(a.program for a in result.alternatives)
    alt_f1 = []
    for program in alternatives:
        got = executed_labels(executor, program)
        alt_f1.append(None if got is None else score(list(got), q.answers).f1)
    gold = executed_labels(executor, q.gold_program)
    return {
        "alternatives": alternatives,
        "alternative_f1": tuple(alt_f1),
        "alternative_scores": tuple({k: v for k, v in asdict(a).items() if k not in ("program", "reading")}
                                    for a in result.alternatives),
        "linked_labels": tuple(dict.fromkeys(c.label for m in result.linked for c in m.candidates)),
        "searched": result.steps > 0,
        "gold_matches_prediction": gold is not None and answer_set(gold) == answer_set(predicted),
    }


def answer_row(reasoner, executor, q: BenchQuestion, corpus: str) -> Row:
    reasoner.forget(q.question)
    start = time.perf_counter()
    result = reasoner.answer(q.question)
    latency = time.perf_counter() - start
    predicted = labels(result)
    s = score(list(predicted), q.answers)
    row = Row(q.kg, q.id, q.stratum, q.question, q.answers, predicted, result.program, q.gold_program, s.f1,
              s.hits1, latency, unsupported=q.unsupported, message=result.message, corpus=corpus,
              timings=result.timings.as_dict(), **gather(executor, q, result, predicted))
    return row.classified()


def row_from_json(data: dict) -> Row:
    for name in ("gold", "predicted", "alternatives", "alternative_f1", "linked_labels", "alternative_scores"):
        data.setdefault(name, ())
        data[name] = tuple(data[name])
    return Row(**data).classified()  # reclassified: the rules may have changed since the row was written


def load_rows(path: Path) -> dict[tuple[str, str, str], Row]:
    rows = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                row = row_from_json(json.loads(line))
            except (ValueError, TypeError):
                continue  # a torn last line from an interrupted run, or a row of an older layout
            rows[(row.kg, row.id, row.corpus)] = row
    return rows


def answer_all(reasoner, executor, questions: list[BenchQuestion], corpus: str, path: Path,
               done: dict[tuple[str, str, str], Row]) -> list[Row]:
    """Cold answers for the questions not in `done`, each appended to `path` and flushed as it comes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as out:
        for i, q in enumerate(questions, 1):
            key = (q.kg, q.id, corpus)
            if key in done:
                continue
            row = done[key] = answer_row(reasoner, executor, q, corpus)
            out.write(json.dumps(asdict(row), ensure_ascii=False) + "\n")
            out.flush()
            if half(q.id) == TUNE:
                print(f"[{q.kg} {i}/{len(questions)}] {q.stratum} f1={row.f1:.2f} {row.latency_s:.1f}s "
                      f"{q.question} -> {row.program}" + (f" [{row.failure}]" if row.failure else ""), flush=True)
            else:  # a check row: that it was answered, nothing of what or how well
                print(f"[{q.kg} {i}/{len(questions)}] check {row.latency_s:.1f}s", flush=True)
    return [done[(q.kg, q.id, corpus)] for q in questions]


# ==================================================================== corpora
@dataclass(frozen=True)
class CorpusNote:
    folder: Path | None  # None: the shipped default corpus
    note: str  # how it came to be, for the report


def complete(folder: Path) -> bool:
    corpus = Corpus(folder)
    return corpus.exists() and bool(corpus.manifest().counts.get("complete"))


def built_as(folder: Path, config: ScoutConfig) -> bool:
    """Whether the corpus was explored and written with these settings: one written by an older default
    question generator must not stand for the one the app writes now."""
    return {**LEGACY_PARAMETERS, **Corpus(folder).manifest().parameters} == exploration_parameters(config)


def describe(folder: Path) -> str:
    manifest = Corpus(folder).manifest()
    return f"{manifest.counts.get('records', '?')} records, budget {manifest.parameters.get('budget')}"


def ensure_corpus(scout: Scout, spec: KGSpec, root: Path) -> CorpusNote:
    """The KG's corpus folder, bootstrapped (or resumed) here unless a complete one exists."""
    if not spec.bootstrapped:
        return CorpusNote(None, "the shipped assets/geography-corpus")
    config = scout.config
    folder = root / f"{spec.corpus_of or spec.name}-b{config.budget}-s{config.seed}"
    if Corpus(folder).exists() and not built_as(folder, config):
        raise SystemExit(f"{folder} was built with other settings ({Corpus(folder).manifest().parameters}); "
                         "pass another --cache-root to build one with these")
    if complete(folder):
        return CorpusNote(folder, f"reused: {describe(folder)}")
    print(f"bootstrapping {spec.name} (budget {config.budget}, seed {config.seed}) into {folder}", flush=True)
    start = time.perf_counter()
    result = bootstrap(scout.open(spec.kg, folder).kg, folder, config, scout.llm, show_progress(spec.name))
    took = time.perf_counter() - start
    print(f"bootstrapped {spec.name}: {result.records} records in {took:.0f} s", flush=True)
    return CorpusNote(folder, f"built here: {result.records} records, budget {config.budget}, {took:.0f} s")


def show_progress(name: str) -> Callable[[Progress], None]:
    """A line when a phase starts, and every 8 questions: a slow bootstrap shows it is alive."""
    phases: list[str] = []

    def show(p: Progress) -> None:
        if p.phase not in phases or (p.phase == "questions" and p.done % 8 == 0 < p.done):
            phases.append(p.phase)
            print(f"  {name}: {p.phase} {p.done}/{p.total} in {p.elapsed_s:.0f} s {p.message}".rstrip(), flush=True)

    return show


# ==================================================================== the table
@dataclass(frozen=True)
class KGSummary:
    """One KG's figures: F1 per half, the rest over the whole sample except failure counts (tune only)."""

    name: str
    n_tune: int
    n_check: int
    tune_f1: float  # percent
    check_f1: float  # percent
    hits1: float  # percent, both halves
    median_latency_s: float  # both halves
    failures: dict[str, int]  # tune only

    @property
    def gap(self) -> float:
        """Tune minus check: how much of the tune figure is owed to having read its rows."""
        return self.tune_f1 - self.check_f1


def mean_f1(rows: Sequence[Row]) -> float:
    return 100 * sum(r.f1 for r in rows) / len(rows) if rows else 0.0


def summarise(name: str, rows: Sequence[Row]) -> KGSummary:
    tune = [r for r in rows if half(r.id) == TUNE]
    check = [r for r in rows if half(r.id) == CHECK]
    failures = {kind: sum(r.failure == kind for r in tune) for kind in FAILURE_KINDS}
    return KGSummary(name, len(tune), len(check), mean_f1(tune), mean_f1(check),
                     100 * sum(r.hits1 for r in rows) / len(rows) if rows else 0.0,
                     statistics.median(r.latency_s for r in rows) if rows else 0.0, failures)


TABLE_HEADER = ("KG", "n tune / check", "tune F1", "check F1", "gap", "Hits@1", "median latency (s)",
                *(f"{kind} (tune)" for kind in FAILURE_KINDS))


def table_rows(summaries: Sequence[KGSummary]) -> list[tuple[str, ...]]:
    """One row per KG, then the macro average over the KGs (every KG counts once, whatever its n), with the
    total n and failure counts."""
    rows = [(s.name, f"{s.n_tune} / {s.n_check}", f"{s.tune_f1:.1f}", f"{s.check_f1:.1f}", f"{s.gap:+.1f}",
             f"{s.hits1:.1f}", f"{s.median_latency_s:.2f}", *(str(s.failures.get(k, 0)) for k in FAILURE_KINDS))
            for s in summaries]
    if summaries:
        k = len(summaries)
        tune, check = sum(s.tune_f1 for s in summaries) / k, sum(s.check_f1 for s in summaries) / k
        rows.append(("macro average", f"{sum(s.n_tune for s in summaries)} / {sum(s.n_check for s in summaries)}",
                     f"{tune:.1f}", f"{check:.1f}", f"{tune - check:+.1f}",
                     f"{sum(s.hits1 for s in summaries) / k:.1f}",
                     "", *(str(sum(s.failures.get(kind, 0) for s in summaries)) for kind in FAILURE_KINDS)))
    return rows


def markdown_table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows])


def examples(rows: Sequence[Row], per_kind: int = 2) -> str:
    """Up to `per_kind` tune misses of each kind, from different KGs where there are several (never a check row)."""
    lines = []
    for kind in FAILURE_KINDS:
        misses = [r for r in rows if r.failure == kind and half(r.id) == TUNE]
        if not misses:
            continue
        firsts = [r for i, r in enumerate(misses) if r.kg not in {m.kg for m in misses[:i]}]  # each KG's first
        chosen = (firsts + [r for r in misses if all(r is not f for f in firsts)])[:per_kind]
        lines.append(f"- {kind}: {len(misses)}")
        for r in chosen:
            gold = f"gold `{r.gold_program}`" if r.gold_program else f"gold {list(r.gold[:3])}"
            lines.append(f"  - {r.kg}: \"{r.question}\": chose `{r.program}` -> {list(r.predicted[:3])}; {gold}")
    return "\n".join(lines)


def notes(corpora: dict[str, CorpusNote], rows: Sequence[Row], results: Path) -> str:
    return "\n".join([
        "Corpora: " + "; ".join(f"{name}: {c.note}" for name, c in corpora.items()) + ".",
        f"Per-question rows: `{results}` (check rows are kept there to resume a run; nobody reads them). F1 and "
        "Hits@1 in percent; tune and check are the halves of the sample by a hash of the question id, gap is "
        "tune minus check; Hits@1 and latency (cold: answer memo forgotten) over both halves.",
        ("Failure kinds (F1 < 1, first rule that holds): unsupported (beyond the program language); gold-data "
        "(the gold program, or its exact answers, was chosen); linking (nothing linked, or a gold entity not "
        "among the candidates); ranking (a finalist had the gold program or F1 ≥ 0.99); search (otherwise); "
        "counted over tune only."),
        "",
        examples(rows),
    ])


# ==================================================================== main
FULL_SAMPLE = 200  # questions per KG (issue 27): a check half of 100 moves 1 point per question, not 5
QUICK_SAMPLE = 12


@dataclass(frozen=True)
class BenchConfig:
    kgs: tuple[str, ...]
    quick: bool
    budget: int
    per_kg: int | None  # None: FULL_SAMPLE (QUICK_SAMPLE with --quick); take_all KGs every row in full mode
    seed: int  # of exploration (the corpora)
    sample_seed: int  # of the question sample
    results: Path
    cache_root: Path
    fresh: bool
    with_unsupported: bool
    report: bool
    settings: dict = field(default_factory=dict)  # settings changed from the defaults (--prune-k 7, --qgen-readable)
    only: frozenset[tuple[str, str]] | None = None  # (kg, id) of the questions to answer; None: the whole sample

    def sample_size(self, spec: KGSpec) -> int | None:
        if self.per_kg is not None:
            return self.per_kg
        if self.quick:
            return QUICK_SAMPLE
        return None if spec.take_all else FULL_SAMPLE

    def size_label(self) -> str:
        if self.per_kg is not None:
            return str(self.per_kg)
        return str(QUICK_SAMPLE) if self.quick else f"{FULL_SAMPLE} (geography-demo, university: all)"


def parse_args(argv: Sequence[str] | None = None) -> BenchConfig:
    p = argparse.ArgumentParser(prog="python -m bench.kgs", description=__doc__.split("\n\n")[0])
    default_budget = ScoutConfig().budget
    p.add_argument("--quick", action="store_true", help="budget 24 and 12 questions per KG (about 10 minutes)")
    p.add_argument("--budget", type=int, default=None,
                   help=f"programs to explore per KG (the app's default, {default_budget}; 24 with --quick)")
    p.add_argument("--per-kg", type=int, default=None, help=f"questions per KG ({FULL_SAMPLE}; 12 with --quick)")
    p.add_argument("--seed", type=int, default=0, help="seed of exploration")
    p.add_argument("--sample-seed", type=int, default=1, help="seed of the question sample")
    p.add_argument("--kgs", nargs="+", choices=list(SPECS), default=[n for n, s in SPECS.items() if s.default],
                   help="KGs to run (default: all but the operator sets geography-ops and moviekg-ops)")
    p.add_argument("--fresh", action="store_true", help="answer every question again instead of resuming")
    p.add_argument("--results", type=Path, default=DEFAULT_RESULTS)
    p.add_argument("--cache-root", type=Path, default=DEFAULT_CACHE_ROOT, help="where bootstrapped corpora live")
    p.add_argument("--with-unsupported", action="store_true", help="also ask geography-demo's unsupported rows")
    p.add_argument("--no-report", dest="report", action="store_false", help="print the table; leave BENCHMARKS.md")
    p.add_argument("--only", type=Path, help="answer only the sampled questions listed (kg<TAB>id lines); no report")
    add_config_flags(p.add_argument_group("reasoning settings (the corpora stay as built)"), only=REASONING_FIELDS)
    add_config_flags(p.add_argument_group("question writer settings (corpora built with them need a --cache-root "
                                          "of their own)"), only=WRITER_FIELDS)
    a = p.parse_args(argv)
    budget = a.budget if a.budget is not None else (24 if a.quick else default_budget)
    only = read_only(p, a.only) if a.only else None
    return BenchConfig(tuple(a.kgs), a.quick, budget, a.per_kg, a.seed, a.sample_seed, a.results, a.cache_root,
                       a.fresh, a.with_unsupported, a.report and only is None,
                       given_settings(a, REASONING_FIELDS + WRITER_FIELDS),
                       only)


def read_only(p: argparse.ArgumentParser, path: Path) -> frozenset[tuple[str, str]]:
    """The (kg, id) pairs of an --only file; a line that is not `kg<TAB>id` is an error, not a silent skip."""
    try:
        lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    except OSError as e:
        p.error(f"--only: cannot read {path}: {e.strerror}")
    pairs = [tuple(line.split("\t")) for line in lines]
    bad = [line for line, pair in zip(lines, pairs) if len(pair) != 2 or pair[0] not in SPECS]
    if bad:
        p.error(f"--only: {len(bad)} line(s) are not 'kg<TAB>id' with a known kg, the first: {bad[0]!r}")
    return frozenset(pairs)


def sampled(spec: KGSpec, bench: BenchConfig) -> list[BenchQuestion]:
    """The questions a run answers on one KG: the seeded, stratified sample (bench.touched reads the same)."""
    pool = [q for q in spec.load() if bench.with_unsupported or not q.unsupported]
    sample = stratified_sample(pool, lambda q: q.stratum, bench.sample_size(spec), bench.sample_seed)
    return sample if bench.only is None else [q for q in sample if (q.kg, q.id) in bench.only]


def run_kg(scout: Scout, spec: KGSpec, bench: BenchConfig, done: dict) -> tuple[CorpusNote, list[Row]]:
    corpus = ensure_corpus(scout, spec, bench.cache_root)
    questions = sampled(spec, bench)
    name = corpus.folder.name if corpus.folder else "geography-corpus"
    if all((q.kg, q.id, name) in done for q in questions):  # a finished run: no models to load
        return corpus, [done[(q.kg, q.id, name)] for q in questions]
    session = scout.open(spec.kg, corpus.folder)
    started = time.perf_counter()
    reasoner = session.reasoner()  # names classes and builds the relation lexicon where the KG has none yet
    print(f"{spec.name}: reasoner ready in {time.perf_counter() - started:.0f} s", flush=True)
    try:
        return corpus, answer_all(reasoner, session.kg.executor, questions, name, bench.results, done)
    finally:
        reasoner.close()


def main(argv: Sequence[str] | None = None) -> None:
    bench = parse_args(argv)
    scout = Scout(ScoutConfig(budget=bench.budget, seed=bench.seed, **bench.settings))
    done = {} if bench.fresh else load_rows(bench.results)
    corpora, rows, summaries = {}, [], []
    for name in bench.kgs:
        if bench.only is not None and all(kg != name for kg, _ in bench.only):
            continue  # none of its questions listed: no corpus to build
        corpora[name], kg_rows = run_kg(scout, SPECS[name], bench, done)
        rows += kg_rows
        summaries.append(summarise(name, kg_rows))
    body = table_rows(summaries)
    text = notes(corpora, rows, bench.results)
    print("\n" + markdown_table(TABLE_HEADER, body) + "\n\n" + text)
    if bench.report:
        label = "quick, " if bench.quick else ""
        label += "".join(f"{name} {value}, " for name, value in bench.settings.items())
        append_section(f"Accuracy across KGs, tune and check ({label}budget {bench.budget}, seed {bench.seed}, "
                       f"sample seed {bench.sample_seed}, {bench.size_label()} per KG)",
                       body, text, header=TABLE_HEADER)


if __name__ == "__main__":
    main()
