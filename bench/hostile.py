"""Hostile inputs and injected faults, counted (issue 30 §6): `python -m bench.hostile [--quick] [--seed S]`.

Generated inputs come from the Hypothesis strategies of tests/test_properties.py and each is checked by that
module's own property (a program parses back or is refused, compiles to SPARQL pyoxigraph parses, a file loads
whole or is refused, a question gets a result or a message), plus endpoint URLs that spell an inside address
(§1). A crash is an input whose property raised; a hang is one that took longer than the query time limit.
Faults come from tests/faults.py and tests/test_faults.py: kill -9 at seeded random moments of an upload, a
store build, a bootstrap (tiny SmolLM2 model) and corpus appends; an endpoint that stops answering, answers
slowly or with garbage mid-question and mid-bootstrap; a full disk during an append. The default run takes
about a quarter of an hour on 2 cores; `--quick` a minute or two.
"""

from __future__ import annotations

import argparse
import functools
import ipaddress
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from bench.report import append_section
from engine.config import ScoutConfig

# Inputs per kind in the full run (--quick divides by QUICK_DIVISOR); kills per fault kind.
COUNTS = {"programs: print and parse back": 2500, "programs: mutated text": 2000, "programs: any text": 2000,
          "programs over a KG: compile to SPARQL": 800, "labels: looked up as themselves": 300,
          "IRIs: one term or refused": 1500, "endpoint URLs inside: refused": 1000,
          "triples files: loaded whole or refused": 600, "questions: read": 300, "questions: asked": 40}
QUICK_DIVISOR = 25
KILLS, QUICK_KILLS = 20, 2


@dataclass
class Row:
    """One line of the table: what was tried and what went wrong."""

    kind: str
    tried: int = 0
    crashes: int = 0
    hangs: int = 0
    answers_lost: int = 0
    data_lost: int = 0
    note: str = ""
    first_crash: str = ""

    def cells(self) -> tuple[str, ...]:
        return (self.kind, f"{self.tried:,}", str(self.crashes), str(self.hangs), str(self.answers_lost),
                str(self.data_lost), self.note)


# ------------------------------------------------------------------ generated inputs
def run_property(kind: str, strategies: tuple, check: Callable, n: int, seed_: int, limit_s: float) -> Row:
    """Feed `n` generated inputs to `check`; count each that raises (a crash) or runs past `limit_s` (a hang)."""
    row = Row(kind)

    def counted(*args) -> None:
        row.tried += 1
        started = time.monotonic()
        try:
            check(*args)
        except Exception as err:  # noqa: BLE001 - counted, never stops the run
            row.crashes += 1
            row.first_crash = row.first_crash or f"{type(err).__name__}: {str(err)[:200]}"
        if time.monotonic() - started > limit_s:
            row.hangs += 1

    fixed = {1: lambda a: counted(a), 2: lambda a, b: counted(a, b)}[len(strategies)]  # @given needs an arity
    runner = settings(max_examples=n, deadline=None, database=None,
                      suppress_health_check=list(HealthCheck))(seed(seed_)(given(*strategies)(fixed)))
    runner()
    return row


def inside_urls() -> st.SearchStrategy[str]:
    """URLs whose host is loopback, private, link-local or metadata, written as decimal, hex, octal or IPv6."""
    networks = [ipaddress.ip_network(n) for n in ("127.0.0.0/8", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16",
                                                  "169.254.0.0/16", "0.0.0.0/8")]
    address = st.sampled_from(networks).flatmap(
        lambda net: st.integers(int(net.network_address), int(net.broadcast_address)))
    spell = st.sampled_from([
        lambda a: str(ipaddress.IPv4Address(a)), lambda a: str(a), lambda a: hex(a),
        lambda a: ".".join(f"0{int(p):o}" for p in str(ipaddress.IPv4Address(a)).split(".")),
        lambda a: f"[::ffff:{ipaddress.IPv4Address(a)}]",
    ])
    scheme = st.sampled_from(["http", "https", "HTTP"])
    port = st.one_of(st.just(""), st.integers(1, 65535).map(lambda p: f":{p}"))
    return st.builds(lambda s, f, a, p: f"{s}://{f(a)}{p}/sparql", scheme, spell, address, port)


def _refused(url: str) -> None:
    from kg_adapters.base import EndpointRefused
    from kg_adapters.url_guard import check_url

    try:
        check_url(url)
    except EndpointRefused:
        return
    raise AssertionError(f"{url} was not refused")


def generated_rows(counts: dict[str, int], seed_: int, work: Path) -> list[Row]:
    from engine.programs.kg import KnowledgeGraph
    from engine.scout import Scout
    from tests import test_properties as tp

    limit = ScoutConfig().query_timeout_s
    geo = KnowledgeGraph.open(str(tp.FIXTURES / "tiny_geo.ttl"), ScoutConfig(cache_dir=str(work / "geo")))
    scout = Scout(ScoutConfig(cache_dir=str(_with_models(work / "ask")), model="smollm2-135m"))
    films = scout.open(str(tp.FIXTURES / "tiny_films.psv"))
    films.kg.adopt_names(tp.FILM_NAMES)
    films.ask("who directed Alien?")  # loading the models and the label index is no input's time
    inner = lambda test: test.hypothesis.inner_test  # noqa: E731 - the property's own body
    plan = [
        ("programs: print and parse back", (tp.PROGRAMS,), inner(tp.test_every_program_prints_and_parses_back_to_itself)),
        ("programs: mutated text", (tp.PROGRAMS, st.data()),
         inner(tp.test_a_mutated_program_parses_back_or_is_refused_with_a_message)),
        ("programs: any text", (st.text(max_size=60),),
         inner(tp.test_any_text_parses_back_or_is_refused_with_a_message)),
        ("programs over a KG: compile to SPARQL", (st.data(),),
         functools.partial(inner(tp.test_every_valid_program_compiles_to_sparql_that_pyoxigraph_parses), geo)),
        ("labels: looked up as themselves", (st.lists(tp.LABEL.filter(bool), min_size=1, max_size=4, unique=True),),
         inner(tp.test_labels_from_a_kg_are_looked_up_as_themselves)),
        ("IRIs: one term or refused", (st.text(max_size=40),), inner(tp.test_any_text_is_one_iri_term_or_refused)),
        ("endpoint URLs inside: refused", (inside_urls(),), _refused),
        ("triples files: loaded whole or refused", (tp.triples_files(),),
         inner(tp.test_any_file_loads_whole_or_is_refused)),
        ("questions: read", (tp.QUESTIONS,), functools.partial(inner(tp.test_any_text_is_read_as_a_question), films)),
        ("questions: asked", (tp.QUESTIONS, st.booleans()),
         functools.partial(inner(tp.test_any_question_gets_a_result_or_a_message), films)),
    ]
    rows = []
    for kind, strategies, check in plan:
        started = time.monotonic()
        rows.append(run_property(kind, strategies, check, counts[kind], seed_, limit))
        rows[-1].note = f"{time.monotonic() - started:.0f} s" + (f"; first: {rows[-1].first_crash}"
                                                                  if rows[-1].first_crash else "")
        print(rows[-1].cells(), flush=True)
    geo.close()
    films.kg.close()
    return rows


def _with_models(cache: Path) -> Path:
    from tests.faults import SHARED_MODELS

    cache.mkdir(parents=True, exist_ok=True)
    if SHARED_MODELS.is_dir() and not (cache / "models").exists():
        (cache / "models").symlink_to(SHARED_MODELS, target_is_directory=True)
    return cache


# ------------------------------------------------------------------ faults
def kill_rows(kills: int, seed_: int, work: Path) -> list[Row]:
    from tests.faults import KINDS, kill_runs

    rows = []
    for kind in KINDS:
        report = kill_runs(kind, kills if kind != "bootstrap" else kills, seed_, work / kind.replace(" ", "-"))
        rows.append(Row(f"kill -9 during {kind}", report.kills, crashes=0 if report.finished else 1,
                        data_lost=report.lost + report.duplicated + report.corrupt,
                        note=f"{report.saved:,} saved; lost {report.lost}, duplicated {report.duplicated}, "
                             f"corrupt {report.corrupt}; {report.leftovers} leftovers swept; "
                             f"{report.seconds:.0f} s"))
        print(rows[-1].cells(), flush=True)
    return rows


def fault_rows(work: Path) -> list[Row]:
    """The endpoint and full-disk scenarios of tests/test_faults.py, each run as it is there."""
    from tests import faults
    from tests import test_faults as tf

    rows = []
    for mode in ("down", "slow", "garbage"):
        rows.append(_scenario(f"endpoint {mode} mid-question", work / f"q-{mode}", lambda folder, m=mode: (
            tf.test_an_endpoint_failing_mid_question_gives_a_message_then_answers_again(
                *_endpoint_fixtures(folder), m)), answers=True))
    for mode in ("down", "garbage"):
        rows.append(_scenario(f"endpoint {mode} mid-bootstrap, then back", work / f"b-{mode}", lambda folder, m=mode: (
            tf.test_a_bootstrap_stopped_by_the_endpoint_says_so_and_resumes_when_it_is_back(
                *_endpoint_fixtures(folder), folder, m))))

    def full_disk(folder: Path) -> str:
        patch = pytest.MonkeyPatch()
        try:
            with tf.small_disk(folder / "probe", patch) as how:
                pass
            tf.test_a_full_disk_during_an_append_gives_a_message_and_keeps_the_corpus(folder, patch)
        finally:
            patch.undo()
        return how

    rows.append(_scenario("full disk during a corpus append", work / "disk", full_disk))
    return rows


def _endpoint_fixtures(folder: Path):
    from tests import faults

    folder.mkdir(parents=True, exist_ok=True)
    server = faults.FlakyEndpoint(slow_s=2.5)
    from engine.scout import Scout

    config = ScoutConfig(cache_dir=str(_with_models(folder / "cache")), model=faults.TINY_MODEL, query_timeout_s=1.0,
                         endpoint_retries=0, lexicon=False, allow_private_endpoints=True, max_relations=2,
                         budget=6, qgen_beams=1, qgen_batch=2)
    return server, Scout(config)


def _scenario(kind: str, folder: Path, run: Callable[[Path], object], answers: bool = False) -> Row:
    row = Row(kind, tried=1)
    started = time.monotonic()
    try:
        how = run(folder)
        row.note = f"message given, then recovered; {time.monotonic() - started:.0f} s" + (
            f"; {how}" if isinstance(how, str) else "")
    except AssertionError as err:
        row.answers_lost, row.data_lost = (1, 0) if answers else (0, 1)
        row.note = f"failed: {str(err)[:200]}"
    except Exception as err:  # noqa: BLE001
        row.crashes = 1
        row.note = f"{type(err).__name__}: {str(err)[:200]}"
    print(row.cells(), flush=True)
    return row


# ------------------------------------------------------------------ the table
def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a small run: inputs / 25, 2 kills of each kind")
    parser.add_argument("--seed", type=int, default=30)
    args = parser.parse_args(argv)
    counts = {k: max(4, v // QUICK_DIVISOR) if args.quick else v for k, v in COUNTS.items()}
    kills = QUICK_KILLS if args.quick else KILLS
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="kgscout-hostile-") as tmp:
        work = Path(tmp)
        rows = generated_rows(counts, args.seed, work) + kill_rows(kills, args.seed, work) + fault_rows(work)
    total = Row("**all**", sum(r.tried for r in rows), sum(r.crashes for r in rows), sum(r.hangs for r in rows),
                sum(r.answers_lost for r in rows), sum(r.data_lost for r in rows),
                f"{sum(r.tried for r in rows[:len(counts)]):,} generated inputs, "
                f"{sum(r.tried for r in rows if r.kind.startswith('kill')):,} kill -9 faults; "
                f"{time.monotonic() - started:.0f} s")
    append_section(f"Hostile inputs and faults (seed {args.seed}{', quick' if args.quick else ''})",
                   [r.cells() for r in rows + [total]],
                   header=("kind", "inputs tried", "crashes", "hangs", "answers lost", "data lost", "notes"),
                   notes=f"A hang is an input that took longer than the query limit ({ScoutConfig().query_timeout_s:g} s). "
                         "Data lost counts records reported saved and then missing, duplicated records and corrupt "
                         "cache entries, after restarting from each kill -9.")
    print(total.cells())


if __name__ == "__main__":
    main()
