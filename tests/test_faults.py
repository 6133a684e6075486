"""Faults injected on purpose and survived (issue 30 §5), and the disk a public app lets each session take.

kill -9 at random moments (seeded) of an upload, a store build, a bootstrap and corpus appends: nothing reported
saved is lost, nothing is duplicated, no cache entry is corrupt (tests/faults.py runs the workers; `python -m
bench.hostile` runs 20 kills of each). An endpoint that stops answering, answers slowly or answers garbage, in
the middle of a question or a bootstrap: a message, and the work goes on when it is back. A full disk during a
corpus append: a message, and the corpus stays readable.
"""

from __future__ import annotations

import contextlib
import errno
import os
import subprocess
import time
from pathlib import Path

import pytest

from engine.bootstrap.build import StoreStopped, bootstrap
from engine.bootstrap.corpus import RECORDS, Corpus, CorpusError
from engine.config import ScoutConfig
from engine.scout import Scout
from kg_adapters import store_cache
from tests import faults
from tests.conftest import FILM_NAMES

SEED = 30


# ------------------------------------------------------------------ kill -9
@pytest.mark.parametrize("kind, kills", [("corpus append", 6), ("store build", 3), ("upload", 3), ("bootstrap", 2)])
def test_kill_9_loses_duplicates_and_corrupts_nothing(tmp_path: Path, kind: str, kills: int) -> None:
    report = faults.kill_runs(kind, kills, SEED, tmp_path / "work")
    assert (report.lost, report.duplicated, report.corrupt) == (0, 0, 0), report
    assert report.finished and report.saved > 0, report


def test_a_torn_last_line_never_glues_to_the_next_record(tmp_path: Path) -> None:
    corpus = Corpus(tmp_path)
    corpus.append(faults._record("(JOIN a \"x\")", ""))
    with open(tmp_path / RECORDS, "ab") as handle:
        handle.write(b'{"program": "(JOIN b')  # a kill in the middle of a write
    assert [r.program for r in corpus.records()] == ['(JOIN a "x")']  # readers skip the torn line
    corpus.append(faults._record("(JOIN c \"y\")", ""))
    assert [r.program for r in corpus.records()] == ['(JOIN a "x")', '(JOIN c "y")']


# ------------------------------------------------------------------ a full disk
@contextlib.contextmanager
def small_disk(folder: Path, monkeypatch):
    """A 256 KB tmpfs where mounting is allowed (root); else every write past 256 KB fails with ENOSPC."""
    folder.mkdir(parents=True)
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(folder)],
                             capture_output=True).returncode == 0 if os.geteuid() == 0 else False
    if not mounted:
        real, written = os.write, [0]

        def write(fd: int, data) -> int:
            if written[0] + len(data) > 256 * 1024:
                raise OSError(errno.ENOSPC, "No space left on device")
            written[0] += len(data)
            return real(fd, data)

        monkeypatch.setattr(os, "write", write)
    try:
        yield "tmpfs" if mounted else "injected ENOSPC"
    finally:
        if mounted:
            subprocess.run(["umount", "-l", str(folder)], check=False)


def test_a_full_disk_during_an_append_gives_a_message_and_keeps_the_corpus(tmp_path: Path, monkeypatch) -> None:
    with small_disk(tmp_path / "disk", monkeypatch) as how:
        corpus = Corpus(tmp_path / "disk" / "corpus")
        saved = 0
        with pytest.raises(CorpusError, match="disk .* is full") as full:
            for n in range(100_000):
                corpus.append(faults._record(f"(JOIN r{n} \"e\")", "y" * 500))
                saved += 1
        assert "keeps every record saved before" in str(full.value)
        records = corpus.records()  # readable, every saved record whole, the failed one absent
        assert len(records) == saved and saved > 50, how
        assert (tmp_path / "disk" / "corpus" / RECORDS).read_bytes().endswith(b"\n")


# ------------------------------------------------------------------ a misbehaving endpoint
@pytest.fixture
def endpoint():
    server = faults.FlakyEndpoint(slow_s=2.5)
    yield server
    server.close()


@pytest.fixture
def endpoint_scout(tmp_path: Path):
    (tmp_path / "cache").mkdir()
    if faults.SHARED_MODELS.is_dir():
        (tmp_path / "cache" / "models").symlink_to(faults.SHARED_MODELS, target_is_directory=True)
    config = ScoutConfig(cache_dir=str(tmp_path / "cache"), model=faults.TINY_MODEL, query_timeout_s=1.0,
                         endpoint_retries=0, lexicon=False, allow_private_endpoints=True, max_relations=2,
                         budget=6, qgen_beams=1, qgen_batch=2)
    return Scout(config)


@pytest.mark.parametrize("mode", ["down", "slow", "garbage"])
def test_an_endpoint_failing_mid_question_gives_a_message_then_answers_again(endpoint, endpoint_scout,
                                                                             mode: str) -> None:
    session = endpoint_scout.open(endpoint.url)
    session.kg.adopt_names(FILM_NAMES)
    assert "Ridley Scott" in [a.label for a in session.ask("who directed Alien?").answers]
    endpoint.mode = mode
    failed = session.ask("who directed Gladiator?")
    assert failed.message and not failed.answers
    assert "did not answer" in failed.message or "ran past" in failed.message, failed.message
    endpoint.mode = "ok"
    again = session.ask("who directed Gladiator?")  # nothing of the outage was memoized
    assert "Ridley Scott" in [a.label for a in again.answers], again.message


@pytest.mark.parametrize("mode", ["down", "garbage"])
def test_a_bootstrap_stopped_by_the_endpoint_says_so_and_resumes_when_it_is_back(endpoint, endpoint_scout,
                                                                                  tmp_path: Path, mode: str) -> None:
    session = endpoint_scout.open(endpoint.url)
    session.kg.adopt_names(FILM_NAMES)
    config, out = endpoint_scout.config, tmp_path / "corpus"

    def break_midway(progress) -> None:
        if progress.phase == "explore" and progress.done == 2:
            endpoint.mode = mode

    with pytest.raises(StoreStopped, match="stopped answering") as stopped:
        bootstrap(session.kg, out, config, endpoint_scout.llm, break_midway)
    assert "Start again" in str(stopped.value)
    assert not Corpus(out).has_programs()  # nothing partial was fixed as the exploration
    endpoint.mode = "ok"
    result = bootstrap(session.kg, out, config, endpoint_scout.llm)
    assert result.complete and result.records == result.programs > 2


# ------------------------------------------------------------------ disk per session, idle stores
def _handlers(tmp_path: Path, **settings):
    from ui.handlers import Handlers
    from ui.state import Hub

    scout = Scout(ScoutConfig(cache_dir=str(tmp_path / "cache"), **settings))
    return Handlers(Hub(scout, default_spec=str(faults.FILMS)), csv_dir=tmp_path / "csv")


def _upload(handlers, state, path: Path) -> str:
    return list(handlers.open_file(str(path), state))[-1][1]


def test_a_session_past_its_disk_quota_is_refused_and_its_new_store_removed(tmp_path: Path) -> None:
    handlers = _handlers(tmp_path, session_quota_mb=1.5)
    state = handlers.new_state()
    first = faults.triples_file(tmp_path, 1, 2000)
    assert "Loaded" in _upload(handlers, state, first)
    assert 0 < state.disk_used < 1.5 * 2**20
    stores = {p.name for p in (tmp_path / "cache" / "stores").iterdir()}
    message = _upload(handlers, state, faults.triples_file(tmp_path, 2, 8000))
    assert "disk quota of 2 MB" in message and "--session-quota-mb" in message, message
    assert {p.name for p in (tmp_path / "cache" / "stores").iterdir() if not p.name.startswith(".")} == stores
    assert "Loaded" in _upload(handlers, handlers.new_state(), first)  # another session has its own quota


def test_stores_no_session_used_for_the_idle_time_are_removed(tmp_path: Path) -> None:
    handlers = _handlers(tmp_path, store_idle_hours=1.0)
    hub, state = handlers.hub, handlers.new_state()
    _upload(handlers, state, faults.triples_file(tmp_path, 1, 500))
    uploaded = state.kg
    folder = Path(hub.session(uploaded).store_folder)
    default_folder = Path(hub.session(hub.default_key).store_folder)
    scratch = folder.parent / f".{folder.name}.tmp-999999999-1"  # what a killed build leaves
    scratch.mkdir()
    hour_ago = time.time() - 7200
    for store in (folder, default_folder):
        os.utime(store / store_cache.LAST_USED if (store / store_cache.LAST_USED).exists() else store / "READY",
                 (hour_ago, hour_ago))
    swept = hub.sweep(now=time.monotonic() + 7200)
    assert swept.stores == (folder.name,) and swept.leftovers == 1
    assert not folder.exists() and not scratch.exists() and default_folder.exists()  # the KG opened at start stays
    assert uploaded not in hub.keys()
    handlers.kg_view(state)  # the session asking it falls back to the default KG
    assert state.kg == hub.default_key
