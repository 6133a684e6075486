"""The command line as a user meets it: real subprocesses, real stores."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.metaqa_data import MOVIEKG
from tests.conftest import FIXTURES

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, cache: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args, "--cache-dir", str(cache)],
        cwd=ROOT, capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def test_run_program_json(tmp_path: Path) -> None:
    done = run("run-program", "--kg", str(FIXTURES / "tiny_films.psv"), "--json",
               '(JOIN (R directed_by) "Blade Runner")', cache=tmp_path)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert set(result) == {"sparql", "answers"} and result["sparql"].startswith("SELECT")
    assert [a["label"] for a in result["answers"]] == ["Ridley Scott"] and result["answers"][0]["iri"]
    count = json.loads(run("run-program", "--kg", str(FIXTURES / "tiny_films.psv"), "--json",
                           '(COUNT (JOIN directed_by "Ridley Scott"))', cache=tmp_path).stdout)
    assert count["answers"] == [{"iri": None, "label": "4"}]


@pytest.mark.parametrize(
    "program, message",
    [("(JOIN directed_by", "unbalanced parentheses"), ("(JOIN nope \"Alien\")", "unknown relation 'nope'")],
)
def test_bad_program_is_one_clear_line(tmp_path: Path, program: str, message: str) -> None:
    done = run("run-program", "--kg", str(FIXTURES / "tiny_films.psv"), program, cache=tmp_path)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr


def test_bad_file_is_one_clear_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.psv"
    bad.write_text("a|r|b\nthis line has no separators\n")
    done = run("schema", "--kg", str(bad), cache=tmp_path)
    assert done.returncode == 2 and "line 2" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.skipif(not MOVIEKG.is_file(), reason="../shared/data is not present")
def test_moviekg_schema_is_induced(tmp_path: Path) -> None:
    done = run("schema", "--kg", str(MOVIEKG), cache=tmp_path)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    film = "thing_with_directed_by"  # nothing in the data says "movie": a stand-in until the model names it
    for kind in (film, "person", "genre", "language", "tag", "year"):
        assert f"\n  {kind} " in out
    assert "a stand-in name" in out.split(f"\n  {film} ")[1].splitlines()[0]
    for relation, domain, range_ in [("directed_by", film, "person"), ("written_by", film, "person"),
                                      ("starred_actors", film, "person"), ("release_year", film, "year"),
                                      ("has_genre", film, "genre"), ("in_language", film, "language"),
                                      ("has_tags", film, "tag")]:
        assert f"{domain} -> {relation} -> {range_}" in out


def test_default_kg_is_geography(tmp_path: Path) -> None:
    done = run("run-program", "--json", '(JOIN (R capital) "France")', cache=tmp_path)
    assert done.returncode == 0, done.stderr
    assert [a["label"] for a in json.loads(done.stdout)["answers"]] == ["Paris"]
