"""Exploration and corpus building on real stores with a real (tiny) LLM."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from engine.bootstrap.build import NothingToExplore, bootstrap
from engine.config import ScoutConfig
from engine.bootstrap.corpus import Corpus, CorpusError
from engine.bootstrap.explorer import ExploreConfig, Explorer
from engine.programs.kg import KnowledgeGraph
from engine.programs.sexpr import Count, Degree, Superlative, parse
from engine.lm.llm import LLM
from engine.lm.models import default_cache_dir
from tests.conftest import FIXTURES

ROOT = Path(__file__).resolve().parents[1]
TINY_MODEL = "smollm2-135m"


@pytest.fixture(scope="module")
def tiny_llm() -> LLM:
    return LLM.load(TINY_MODEL)


def test_exploration_is_seeded_diverse_and_executable(films: KnowledgeGraph) -> None:
    first = list(Explorer(films, seed=3).explore(25))
    again = list(Explorer(films, seed=3).explore(25))
    assert [p.program for p in first] == [p.program for p in again]
    assert len({p.program for p in first}) == len(first) > 10
    assert max(Counter(p.anonymised for p in first).values()) <= ExploreConfig().per_pattern
    for explored in first:
        result = films.executor.execute(explored.program)
        size = result.count if result.count is not None else len(result.answers)
        assert size == explored.answers > 0
        assert explored.subprograms[-1] == explored.program
    operators = " ".join(p.program for p in first)
    assert "(JOIN" in operators and ("(COUNT" in operators or "(ARG" in operators or "(AND" in operators)


def test_exploration_draws_every_new_operator(geo: KnowledgeGraph) -> None:
    """With the whole function share given to them, walks yield NOT, IN, (COUNT r), entity comparisons,
    choices and aggregates, and each reads as its own anonymised form with classes, not "thing"."""
    explored = list(Explorer(geo, ExploreConfig(function_p=1.0, new_ops_share=1.0), seed=0).explore(60))
    text = " ".join(p.program for p in explored)
    for operator in ("(NOT ", "(IN ", "(COUNT ", "(OR ", "(SUM " if "(SUM " in text else "(AVG "):
        assert operator in text, operator
    assert any(op in text for op in ("(gt ", "(lt ")) and '"' in text
    for p in explored:
        result = geo.executor.execute(p.program)
        assert (result.count if result.count is not None else len(result.answers)) == p.answers > 0
        assert "thing" not in p.anonymised, p.anonymised
    degrees = [parse(p.program) for p in explored if "(COUNT " in p.program and "(ARGM" in p.program]
    assert degrees and all(isinstance(d, Superlative) and isinstance(d.path, Degree) for d in degrees)
    for program in degrees:  # "the most neighbours" where every member ties is no question
        assert len(geo.executor.execute(program).answers) < geo.executor.execute(Count(program.arg)).count


def test_exploration_through_a_sparql_endpoint(virtuoso, tmp_path, config) -> None:
    from kg_adapters.loader import parse_file
    from kg_adapters.sparql_endpoint import SparqlEndpointStore

    nt = tmp_path / "films.nt"
    nt.write_text("".join(f"{t} .\n" for t in parse_file(FIXTURES / "tiny_films.psv").triples), encoding="utf-8")
    graph = "http://kgscout.local/test/explore"
    virtuoso.load(nt, graph)
    kg = KnowledgeGraph.from_store(SparqlEndpointStore(virtuoso.sparql_url, default_graph=graph), config)
    programs = list(Explorer(kg, seed=1).explore(10))
    assert len(programs) >= 5
    for explored in programs:
        assert kg.executor.execute(explored.program).answers or kg.executor.execute(explored.program).count


def _records(folder: Path) -> list[dict]:
    path = folder / "records.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def test_bootstrap_writes_a_complete_corpus(films: KnowledgeGraph, config: ScoutConfig, tmp_path, tiny_llm) -> None:
    config = config.replace(budget=6, qgen_beams=3, qgen_batch=3, model=TINY_MODEL)
    seen = []
    result = bootstrap(films, tmp_path / "corpus", config, lambda: tiny_llm, seen.append)
    assert result.complete and result.records == result.programs == 6
    manifest = Corpus(tmp_path / "corpus").manifest()
    assert manifest.fingerprint == films.fingerprint and manifest.model == TINY_MODEL
    assert manifest.parameters["budget"] == 6 and manifest.counts["records"] == 6
    for record in Corpus(tmp_path / "corpus").records():
        assert record.question and record.top_beam_question and record.pattern
        assert record.subprograms[-1] == record.program
    assert seen[-1].phase == "done" and any(p.phase == "explore" for p in seen)


def test_progress_moves_per_program_and_a_resume_counts_what_is_written(films: KnowledgeGraph, config: ScoutConfig,
                                                                        tmp_path, tiny_llm) -> None:
    """Within a batch the count moves as each program's beam search ends; a resumed run starts from the
    questions already in the corpus ("4 / 6", not "0 / 2"), and its rate counts only its own work."""
    config = config.replace(budget=6, qgen_beams=2, qgen_batch=4, model=TINY_MODEL)
    stops = iter([False, True])  # the first batch of 4, then cancel
    first: list = []
    result = bootstrap(films, tmp_path / "corpus", config, lambda: tiny_llm, first.append, lambda: next(stops, True))
    assert not result.complete and result.records == 4
    counts = [p.done for p in first if p.phase == "questions"]
    assert [c for c in range(1, 5) if c in counts] == [1, 2, 3, 4]  # per program, not 0 then 4
    assert first[-1].phase == "stopped" and first[-1].done == 4 and first[-1].total == 6
    again: list = []
    result = bootstrap(films, tmp_path / "corpus", config, lambda: tiny_llm, again.append)
    assert result.complete and result.records == 6
    loading = next(p for p in again if p.phase == "loading")
    assert (loading.done, loading.total, loading.already) == (4, 6, 4)
    assert again[-1].done == 6 and again[-1].total == 6 and again[-1].already == 4
    assert again[-1].rate_per_hour == 3600 * 2 / again[-1].elapsed_s


def test_a_corpus_of_another_kg_is_refused(films: KnowledgeGraph, config, tmp_path, tiny_llm) -> None:
    other = tmp_path / "other.psv"
    other.write_text("a|knows|b\nb|knows|c\n")
    config = config.replace(budget=2, qgen_beams=2, model=TINY_MODEL)
    bootstrap(films, tmp_path / "corpus", config, lambda: tiny_llm)
    other_kg = KnowledgeGraph.open(str(other), config)
    with pytest.raises(CorpusError, match="another KG"):
        bootstrap(other_kg, tmp_path / "corpus", config, lambda: tiny_llm)


def test_kill_minus_nine_then_resume_loses_and_duplicates_nothing(tmp_path) -> None:
    out = tmp_path / "corpus"
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "models").symlink_to(default_cache_dir(), target_is_directory=True)  # converted once, for all tests
    command = [
        sys.executable, "-m", "engine", "bootstrap", "--kg", str(FIXTURES / "tiny_films.psv"), "--out", str(out),
        "--budget", "6", "--model", TINY_MODEL, "--qgen-beams", "3", "--qgen-batch", "1", "--cache-dir", str(cache),
    ]  # a cache of its own: what this KG's bootstrap keeps (its schema, class names) stays out of the user's
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 240
    while len(_records(out)) < 2 and proc.poll() is None and time.time() < deadline:
        time.sleep(0.2)
    assert proc.poll() is None, "the first run finished before it could be killed"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    with (out / "records.jsonl").open("a") as handle:
        handle.write('{"program": "(JOIN torn')  # what a kill in the middle of a write would leave
    killed_at = len((out / "records.jsonl").read_text().splitlines()) - 1
    assert killed_at >= 2
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    records = _records(out)
    programs = [json.loads(line)["program"] for line in (out / "programs.jsonl").read_text().splitlines()]
    assert sorted(r["program"] for r in records) == sorted(programs)  # none lost, none twice
    assert json.loads(done.stdout.strip().splitlines()[-1])["complete"] is True


ROBUSTNESS = {
    "one class, one relation": ("one.psv", "alice|knows|bob\nbob|knows|carol\ncarol|knows|alice\ndave|knows|alice\n"),
    "no literals": (
        "noliterals.ttl",
        "@prefix : <http://example.org/> .\n:a :partOf :b . :b :partOf :c . :d :partOf :c . :a :near :d . :e :near :a .\n",
    ),
    "missing and non-English labels": (
        "labels.ttl",
        "@prefix : <http://example.org/> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
        ':tokyo :inCountry :japan . :osaka :inCountry :japan . :kyoto :inCountry :japan .\n'
        ':tokyo rdfs:label "東京"@ja . :japan rdfs:label "日本"@ja . :osaka :population 2700000 .\n',
    ),
}


@pytest.mark.parametrize("name", list(ROBUSTNESS))
def test_odd_kgs_bootstrap_without_crashing(name: str, tmp_path, config, tiny_llm) -> None:
    filename, text = ROBUSTNESS[name]
    path = tmp_path / filename
    path.write_text(text, encoding="utf-8")
    kg = KnowledgeGraph.open(str(path), config)
    result = bootstrap(kg, tmp_path / "corpus", config.replace(budget=3, qgen_beams=2, model=TINY_MODEL), lambda: tiny_llm)
    assert result.complete and result.records == result.programs >= 1


def test_nothing_to_explore_is_said_plainly(tmp_path, config) -> None:
    path = tmp_path / "labels-only.ttl"
    path.write_text('<http://example.org/a> <http://www.w3.org/2000/01/rdf-schema#label> "A" .\n')
    kg = KnowledgeGraph.open(str(path), config)
    with pytest.raises(NothingToExplore, match="nothing can be explored"):
        bootstrap(kg, tmp_path / "corpus", config.replace(budget=3), lambda: None)
    cli = subprocess.run(
        [sys.executable, "-m", "engine", "bootstrap", "--kg", str(path), "--out", str(tmp_path / "c2"),
         "--cache-dir", str(tmp_path / "cache")],
        cwd=ROOT, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert cli.returncode == 2 and "nothing can be explored" in cli.stderr and "Traceback" not in cli.stderr


def test_a_reader_following_a_growing_corpus_reads_only_whole_new_records(films, tmp_path) -> None:
    from engine.bootstrap.readings import reading_records

    corpus = Corpus(tmp_path / "corpus")
    first, second = reading_records(list(Explorer(films, seed=0).explore(2)), films.schema)
    corpus.append(first)
    records, offset = corpus.records_from(0)
    assert records == [first]
    line = (second.to_json() + "\n").encode()
    with (tmp_path / "corpus" / "records.jsonl").open("ab") as handle:
        handle.write(line[:10])  # a bootstrap mid-append
    assert corpus.records_from(offset) == ([], offset)
    with (tmp_path / "corpus" / "records.jsonl").open("ab") as handle:
        handle.write(line[10:])
    assert corpus.records_from(offset) == ([second], offset + len(line))


def test_a_growing_corpus_is_taken_in_without_a_restart(films: KnowledgeGraph, config, tmp_path, tiny_llm) -> None:
    """Right after exploration the programs' readings stand in as exemplars; each question a running
    bootstrap writes replaces its program's reading in the same reasoner, embedded alone."""
    from dataclasses import replace

    from engine.bootstrap.readings import reading_records
    from engine.lm.embedder import Embedder
    from engine.scout import KGSession, Scout

    scout = Scout(config.replace(model=TINY_MODEL))
    scout._llm, scout._embedder = tiny_llm, Embedder.load(config.embedder)  # the models this module loaded
    session = KGSession(scout, films, Corpus(tmp_path / "corpus"), "films")
    reasoner = session.reasoner()
    assert reasoner.corpus_size == (0, 0)  # nothing explored yet: schema-only prompts

    programs = list(Explorer(films, seed=0).explore(6))
    session.corpus.write_programs(programs)
    assert session.reasoner() is reasoner and reasoner.corpus_size == (0, len(programs))
    assert {r.question for r in reasoner.records} == {r.question for r in reading_records(programs, films.schema)}

    written = replace(reading_records(programs[:1], films.schema)[0], question="a real question?",
                      anonymised_question="a real question?", source="explored")
    session.corpus.append(written)
    assert session.reasoner() is reasoner and reasoner.corpus_size == (1, len(programs) - 1)
    assert [r.question for r in reasoner.records if r.program == programs[0].program] == ["a real question?"]
    assert reasoner.exemplars.nearest("a real question?", 1)[0].question == "a real question?"
