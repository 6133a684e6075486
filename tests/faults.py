"""Faults injected on purpose, shared by tests/test_faults.py and `python -m bench.hostile`.

kill -9: a worker process (`python -m tests.faults KIND FOLDER`) does one kind of work that saves something
(an upload opened, a store built, a bootstrap, corpus appends) and prints `SAVED <id>` each time it has
reported something saved; `kill_runs` starts it again and again and kills it at a random moment (seeded),
then checks what a restart finds: everything reported saved is there, nothing is there twice, and every cache
entry opens. A last run goes to the end, so the work also finishes after all those kills.

Endpoint faults: `FlakyEndpoint` is a SPARQL endpoint on loopback, backed by an in-memory pyoxigraph store,
that can be switched to stop answering, answer slowly, or answer garbage.
"""

from __future__ import annotations

import http.server
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).parent / "fixtures"
FILMS = FIXTURES / "tiny_films.psv"
SHARED_MODELS = Path.home() / ".cache" / "kgscout" / "models"
TINY_MODEL = "smollm2-135m"
KINDS = ("upload", "store build", "bootstrap", "corpus append")
# Seconds after the worker's start within which each kind is killed: its start-up plus its work.
KILL_WINDOWS = {"upload": (0.5, 4.0), "store build": (0.5, 4.0), "bootstrap": (5.0, 30.0),
                "corpus append": (0.3, 2.5)}
BOOTSTRAP_BUDGET = 10


@dataclass(frozen=True)
class KillReport:
    """What `kill_runs` found after its kills: counts of records, never a sample."""

    kind: str
    kills: int
    saved: int  # things reported saved before a kill
    lost: int  # reported saved, missing after the restart
    duplicated: int
    corrupt: int  # cache entries or records that do not open or parse
    leftovers: int  # scratch files and folders a kill left (removed by the next sweep)
    finished: bool  # the run after the last kill went to the end
    seconds: float


# ------------------------------------------------------------------ the worker (a child process)
def _say(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def _config(folder: Path, **changes):
    from engine.config import ScoutConfig

    cache = folder / "cache"
    cache.mkdir(parents=True, exist_ok=True)
    if SHARED_MODELS.is_dir() and not (cache / "models").exists():
        (cache / "models").symlink_to(SHARED_MODELS, target_is_directory=True)
    return ScoutConfig(cache_dir=str(cache), lexicon=False, **changes)


def triples_file(folder: Path, n: int, triples: int) -> Path:
    """The n-th upload: N-Triples of `triples` lines, its content unique to n (a store of its own)."""
    path = folder / "files" / f"upload-{n}.nt"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        rng = random.Random(n)
        lines = [f"<http://e/{n}/s{rng.randrange(triples)}> <http://e/p{i % 7}> <http://e/{n}/o{i}> ."
                 for i in range(triples)]
        tmp = path.with_suffix(".tmp")
        tmp.write_text("\n".join(lines) + "\n")
        os.replace(tmp, path)
    return path


def _next(folder: Path) -> int:
    """The first upload number not yet reported saved (the parent writes what it saw)."""
    done = folder / "done.txt"
    return len(done.read_text().split()) if done.exists() else 0


def work_upload(folder: Path) -> None:
    """Uploads arrive (written in chunks, as a server receives them) and are opened: store, schema, labels."""
    from engine.scout import Scout

    scout = Scout(_config(folder))
    n = _next(folder)
    while True:
        source = triples_file(folder, n, 4000)
        received = folder / "uploads" / source.name
        received.parent.mkdir(parents=True, exist_ok=True)
        with open(received, "wb") as out, open(source, "rb") as src:
            for chunk in iter(lambda: src.read(16384), b""):
                out.write(chunk)
        session = scout.open(str(received))
        session.kg.close()
        _say(f"SAVED {n}")
        n += 1


def work_store_build(folder: Path) -> None:
    from kg_adapters.oxigraph_store import OxigraphStore

    cache = folder / "cache"
    n = _next(folder)
    while True:
        store = OxigraphStore.from_file(triples_file(folder, n, 30000), cache_root=cache)
        store.close()
        _say(f"SAVED {n}")
        n += 1


def work_bootstrap(folder: Path) -> None:
    from engine.bootstrap.build import bootstrap
    from engine.lm.llm import LLM
    from engine.programs.kg import KnowledgeGraph

    config = _config(folder, model=TINY_MODEL, budget=BOOTSTRAP_BUDGET, qgen_beams=1, qgen_batch=2,
                     max_relations=2)
    kg = KnowledgeGraph.open(str(FILMS), config)
    kg.adopt_names({"thing_with_directed_by": "movie"})
    corpus = _unfinished_corpus(folder)

    def report(progress) -> None:
        if progress.phase in ("questions", "done"):
            from engine.bootstrap.corpus import Corpus

            for record in Corpus(corpus).records():
                _say(f"SAVED {record.program}")

    load = lambda: LLM.load(config.model, cache_dir=str(Path(config.cache_dir) / "models"))  # noqa: E731
    result = bootstrap(kg, corpus, config, load, report)
    _say(f"DONE {result.records}")


def _unfinished_corpus(folder: Path) -> Path:
    """The first corpus not complete yet: once one is, the next kills land in a new bootstrap."""
    from engine.bootstrap.corpus import Corpus

    k = 0
    while Corpus(folder / f"corpus-{k}").exists() and \
            Corpus(folder / f"corpus-{k}").manifest().counts.get("complete"):
        k += 1
    return folder / f"corpus-{k}"


def work_corpus_append(folder: Path) -> None:
    from engine.bootstrap.corpus import Corpus

    corpus = Corpus(folder / "corpus")
    n = len(corpus.records())  # a restart continues after the last whole record
    while True:
        corpus.append(_record(f"(JOIN r{n} \"e{n}\")", "x" * (n % 977)))
        _say(f"SAVED (JOIN r{n} \"e{n}\")")
        n += 1


def _record(program: str, padding: str):
    from engine.bootstrap.corpus import CorpusRecord

    return CorpusRecord(program=program, subprograms=(program,), question=f"what is {program}? {padding}",
                        anonymised_question="q", top_beam_question="q", ic_score=0.0, top_beam_ic_score=0.0,
                        beam_score=0.0, subquestions=(), anonymised=program, pattern="p", answers=1, entities=())


WORKERS = {"upload": work_upload, "store build": work_store_build, "bootstrap": work_bootstrap,
           "corpus append": work_corpus_append}


# ------------------------------------------------------------------ the parent: kill, restart, check
def kill_runs(kind: str, kills: int, seed: int, folder: Path, finish: bool = True) -> KillReport:
    """Start the worker `kills` times and kill -9 it at a random moment each time; then check."""
    rng = random.Random(f"{seed}-{kind}")
    folder.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    saved: set[str] = set()
    low, high = KILL_WINDOWS[kind]
    for _ in range(kills):
        saved |= _run_worker(kind, folder, rng.uniform(low, high))
        _note_done(folder, kind, saved)
    leftovers = _leftovers(folder)
    done = True
    if finish:
        tail = _run_worker(kind, folder, None)
        saved |= tail
        done = kind != "bootstrap" or any(s.startswith("DONE") for s in tail)
    from kg_adapters.store_cache import sweep

    sweep(folder / "cache", idle_s=0)  # what a restarted app does first
    lost, duplicated, corrupt = check(kind, folder, {s for s in saved if not s.startswith("DONE")})
    corrupt += _leftovers(folder) if kind in ("upload", "store build") else 0  # a sweep left some: count them
    return KillReport(kind, kills, len(saved), lost, duplicated, corrupt, leftovers, done,
                      time.monotonic() - started)


def _run_worker(kind: str, folder: Path, kill_after: float | None) -> set[str]:
    """Run the worker; kill -9 it after `kill_after` s (None: let a bootstrap end, stop the others after 3 s)."""
    env = {**os.environ, "OMP_NUM_THREADS": "1", "HF_HUB_OFFLINE": "1", "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen([sys.executable, "-m", "tests.faults", kind, str(folder)], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(process.stdout), daemon=True)
    reader.start()
    limit = kill_after if kill_after is not None else (600 if kind == "bootstrap" else 3.0)
    try:
        process.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
    reader.join(timeout=10)
    out = set()
    for line in lines:
        if line.startswith("SAVED "):
            out.add(line[6:].rstrip("\n"))
        elif line.startswith("DONE"):
            out.add(line.rstrip("\n"))
    return out


def _note_done(folder: Path, kind: str, saved: set[str]) -> None:
    """The uploads and builds reported saved, so the next worker starts with a new one."""
    if kind in ("upload", "store build"):
        (folder / "done.txt").write_text(" ".join(sorted(saved, key=int)))


def _leftovers(folder: Path) -> int:
    """Scratch folders and temporary files a kill left behind (a sweep or the next write removes them)."""
    cache = folder / "cache"
    count = 0
    stores = cache / "stores"
    if stores.is_dir():
        count += sum(1 for p in stores.iterdir() if p.name.startswith("."))
    for corpus in folder.glob("corpus*"):
        count += sum(1 for p in corpus.iterdir() if ".tmp-" in p.name)
    return count


def check(kind: str, folder: Path, saved: set[str]) -> tuple[int, int, int]:
    """(lost, duplicated, corrupt) as a fresh process finds them."""
    if kind == "corpus append":
        return _check_corpus([folder / "corpus"], saved)
    if kind == "bootstrap":
        return _check_corpus(sorted(folder.glob("corpus-*")), saved)
    return _check_stores(kind, folder, saved)


def _check_corpus(folders: list[Path], saved: set[str]) -> tuple[int, int, int]:
    """Saved programs missing from every corpus; programs twice in one corpus; records that do not parse or
    are of no explored program."""
    from engine.bootstrap.corpus import Corpus, CorpusError

    found: set[str] = set()
    duplicated = corrupt = 0
    for folder in folders:
        corpus = Corpus(folder)
        try:
            programs = [r.program for r in corpus.records()]
            if corpus.exists():
                corpus.manifest()
        except CorpusError:
            corrupt += 1
            continue
        if corpus.has_programs():
            explored = {p.program for p in corpus.programs()}
            corrupt += sum(1 for p in programs if p not in explored)
        duplicated += len(programs) - len(set(programs))
        found |= set(programs)
    return len(saved - found), duplicated, corrupt


def _check_stores(kind: str, folder: Path, saved: set[str]) -> tuple[int, int, int]:
    from kg_adapters.base import KGError
    from kg_adapters.oxigraph_store import OxigraphStore

    stores = folder / "cache" / "stores"
    corrupt = 0
    found = set()
    for store_dir in sorted(stores.iterdir()) if stores.is_dir() else []:
        if store_dir.name.startswith(".") or not (store_dir / "READY").is_file():
            continue
        try:
            store = OxigraphStore.open(store_dir)
            meta = json.loads((store_dir / "READY").read_text())
            n = int(Path(meta["source"]).stem.split("-")[-1])
            size = 4000 if kind == "upload" else 30000
            rows = store.select("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }").rows
            if int(rows[0][0].value) != size:
                corrupt += 1
            found.add(str(n))
            store.close()
        except (KGError, OSError, ValueError, KeyError):
            corrupt += 1
    if kind == "upload":
        corrupt += _check_schemas(folder / "cache")
    return len(saved - found), 0, corrupt


def _check_schemas(cache: Path) -> int:
    """Schema caches that do not parse."""
    bad = 0
    for path in (cache / "schemas").glob("*.json") if (cache / "schemas").is_dir() else []:
        try:
            json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            bad += 1
    return bad


# ------------------------------------------------------------------ a misbehaving endpoint
class FlakyEndpoint:
    """A SPARQL endpoint on 127.0.0.1 over an in-memory store; `mode`: ok, down, slow, garbage.

    down answers 503 (a proxy whose backend went away), slow sleeps `slow_s` before answering, garbage answers
    200 with bytes that are no SPARQL results."""

    def __init__(self, path: Path = FILMS, slow_s: float = 3.0):
        import pyoxigraph as ox

        from kg_adapters.loader import parse_file

        parsed = parse_file(path)
        self.store = ox.Store()
        self.store.bulk_extend(ox.Quad(t.subject, t.predicate, t.object) for t in parsed.triples)
        self.mode = "ok"
        self.slow_s = slow_s
        self.requests = 0
        endpoint = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                endpoint.requests += 1
                endpoint._respond(self)

            do_POST = do_GET

            def log_message(self, *args) -> None:
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/sparql"

    def _respond(self, handler: http.server.BaseHTTPRequestHandler) -> None:
        mode = self.mode
        if mode == "down":
            return _send(handler, 503, b"backend gone", "text/plain")
        if mode == "garbage":
            return _send(handler, 200, b"\x00\xffnot json at all {{{", "application/sparql-results+json")
        if mode == "slow":
            time.sleep(self.slow_s)
        query = _query_of(handler)
        try:
            import pyoxigraph as ox

            body = self.store.query(query).serialize(format=ox.QueryResultsFormat.JSON)
        except (SyntaxError, ValueError, OSError) as err:
            return _send(handler, 400, str(err).encode(), "text/plain")
        try:
            _send(handler, 200, body, "application/sparql-results+json")
        except OSError:  # the client gave up (slow mode)
            pass

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _query_of(handler: http.server.BaseHTTPRequestHandler) -> str:
    if handler.command == "POST":
        data = handler.rfile.read(int(handler.headers.get("Content-Length", 0))).decode()
        if "x-www-form-urlencoded" in handler.headers.get("Content-Type", ""):
            return urllib.parse.parse_qs(data)["query"][0]
        return data
    return urllib.parse.parse_qs(urllib.parse.urlparse(handler.path).query)["query"][0]


def _send(handler, code: int, body: bytes, kind: str) -> None:
    handler.send_response(code)
    handler.send_header("Content-Type", kind)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


def clean(folder: Path) -> None:
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    WORKERS[sys.argv[1]](Path(sys.argv[2]))
