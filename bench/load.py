"""The app under load, as browsers meet it: chat sessions over HTTP while another session bootstraps.

    python -m bench.load [--sessions 8] [--minutes 10] [--quick]

`python app.py --no-answer-memo` is started on loopback (the warm cache, ~/.cache/kgscout; the memo is off so
that a repeated question is reasoned again, not read back in a millisecond). Every session is a real
`gradio_client.Client`, with a browser session of its own on the server:

1. one session alone asks the question list once (after one warm-up question): the reference programs,
   its latencies and its answers a minute;
2. a bootstrap session uploads a copy of tests/fixtures/tiny_films.psv (one triple added, so that its store
   and corpus are new and the bootstrap has work) and starts bootstrapping it;
3. N chat sessions ask the list at once, each from its own offset, round and round, until the time is up
   (a question in flight then is finished and counted); every answer's program is checked against the
   reference. The server's RSS is sampled every 5 s.

Reported: errors, programs that differ, p50/p95 latency and answers a minute against the session alone,
RSS over time and its growth: from the first reading to the last; from --warmup-s on (by then the bootstrap
session's KG is open and its first batch of beams allocated, and every session has answered; a least-squares trend
over that stretch tells a climb from a plateau's bumps, a batch of beams being a few hundred MB up and down); and
between the medians of the first and the last minute of readings. Questions are our own
(tests/fixtures/ops_questions/geography.jsonl).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import psutil

from bench.app import READY_LINE, _served
from bench.report import append_section

ROOT = Path(__file__).resolve().parents[1]
QUESTIONS = ROOT / "tests" / "fixtures" / "ops_questions" / "geography.jsonl"
TINY_KG = ROOT / "tests" / "fixtures" / "tiny_films.psv"
CALL_TIMEOUT_S = 300  # one answer; a longer wait is counted as an error
ERROR_MARKS = ("**Error:**", "Something went wrong")


@dataclass
class Asked:
    """One question answered by one session."""

    session: int
    question: str
    program: str
    seconds: float
    error: str = ""


@dataclass
class Run:
    asked: list[Asked] = field(default_factory=list)
    seconds: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, item: Asked) -> None:
        with self.lock:
            self.asked.append(item)

    def per_minute(self) -> float:
        done = [a for a in self.asked if not a.error]
        return 60 * len(done) / self.seconds if self.seconds else 0.0


def questions(n: int, seed: int = 29) -> list[str]:
    """n of our own geography questions, a fixed sample."""
    rows = [json.loads(line)["question"] for line in QUESTIONS.read_text().splitlines() if line.strip()]
    return random.Random(seed).sample(rows, min(n, len(rows)))


def start_app(port: int, log_path: Path, timeout_s: float = 600) -> subprocess.Popen:
    """The app on loopback, returned once its page is served and its models are loaded."""
    log = log_path.open("w")
    process = subprocess.Popen([sys.executable, "app.py", "--port", str(port), "--no-answer-memo"], cwd=ROOT,
                               stdout=log, stderr=subprocess.STDOUT,
                               env={**os.environ, "HF_HUB_OFFLINE": "1", "GRADIO_ANALYTICS_ENABLED": "False"})
    started = time.monotonic()
    while not (_served(f"http://127.0.0.1:{port}/") and READY_LINE.search(log_path.read_text())):
        if process.poll() is not None or time.monotonic() - started > timeout_s:
            process.kill()
            raise SystemExit(f"the app did not come up:\n{log_path.read_text()[-2000:]}")
        time.sleep(0.5)
    return process


def ask(client, session: int, question: str) -> Asked:
    """One question through the app's /ask endpoint; the program box holds the answering program."""
    start = time.perf_counter()
    try:
        job = client.submit(question, api_name="/ask")
        chat, _, program, _, status = job.result(timeout=CALL_TIMEOUT_S)
    except Exception as err:  # noqa: BLE001 - a failed call is what this benchmark counts
        return Asked(session, question, "", time.perf_counter() - start, f"{type(err).__name__}: {err}"[:200])
    seconds = time.perf_counter() - start
    reply = str(chat[-1].get("content", "")) if chat else ""
    error = next((m for m in ERROR_MARKS if m in reply or m in str(status)), "")
    return Asked(session, question, str(program or "").strip(), seconds, error)


def alone(url: str, asked: list[str]) -> Run:
    from gradio_client import Client

    client = Client(url, verbose=False)
    ask(client, -1, asked[0])  # warm-up: the first question of a session
    run, start = Run(), time.perf_counter()
    for q in asked:
        run.add(ask(client, 0, q))
    run.seconds = time.perf_counter() - start
    return run


def fresh_tiny_kg(folder: Path, name: str) -> Path:
    """A copy of the tiny film KG with one triple added, so that its store and corpus are new and a bootstrap of it
    has work to do."""
    copy = folder / f"{name}-{os.getpid()}-{int(time.time())}.psv"
    copy.write_text(TINY_KG.read_text() + f"\n{name} run|noted at|{time.time():.0f}\n")
    return copy


def bootstrap_session(url: str, scratch: Path, budget: int):
    """Upload a fresh copy of the tiny film KG and start its bootstrap; the job that follows it."""
    from gradio_client import Client, handle_file

    copy = fresh_tiny_kg(scratch, "load-films")
    client = Client(url, verbose=False)
    client.predict(handle_file(str(copy)), api_name="/run")
    job = client.submit(budget, "", api_name="/bootstrap")  # streams the progress while the server works
    time.sleep(3)
    return job


def bootstrap_note(job) -> str:
    """Whether the bootstrap still ran when the load ended, and its last progress line."""
    import re

    outputs = job.outputs()
    last = outputs[-1] if outputs else ("", "")
    text = re.sub(r"<[^>]+>", " ", f"{last[0]} {last[1]}")
    text = " ".join(text.split()).replace("|", "/")[:200]
    paused = sum("Paused while questions are answered" in str(out[0]) for out in outputs)
    return (f"{'still running' if not job.done() else 'ended'} at the end of the load: {text or 'no progress seen'}"
            f" ({paused} of {len(outputs)} progress updates said it was paused for chat)")


def together(url: str, asked: list[str], sessions: int, seconds: float) -> Run:
    from gradio_client import Client

    run, deadline = Run(), time.monotonic() + seconds

    def session(i: int) -> None:
        client = Client(url, verbose=False)
        k = i * len(asked) // sessions
        while time.monotonic() < deadline:
            run.add(ask(client, i, asked[k % len(asked)]))
            k += 1

    start = time.perf_counter()
    threads = [threading.Thread(target=session, args=(i,), daemon=True) for i in range(sessions)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(seconds + 2 * CALL_TIMEOUT_S)
    run.seconds = time.perf_counter() - start
    return run


def sample_rss(pid: int, stop: threading.Event, out: list[tuple[float, float]], every_s: float = 5.0) -> None:
    """(seconds since start, MiB) of the app process and its children, until `stop`."""
    start, proc = time.monotonic(), psutil.Process(pid)
    while not stop.is_set():
        try:
            rss = proc.memory_info().rss + sum(c.memory_info().rss for c in proc.children(recursive=True))
        except psutil.Error:
            return
        out.append((time.monotonic() - start, rss / 2**20))
        stop.wait(every_s)


def _slope(points: list[tuple[float, float]]) -> float:
    """Least-squares MiB per minute through (seconds, MiB): a leak climbs, a plateau's bumps cancel out."""
    if len(points) < 2:
        return 0.0
    ts, ms = [t / 60 for t, _ in points], [m for _, m in points]
    mt, mm = statistics.fmean(ts), statistics.fmean(ms)
    spread = sum((t - mt) ** 2 for t in ts)
    return sum((t - mt) * (m - mm) for t, m in zip(ts, ms)) / spread if spread else 0.0


def _window_growth(rss: list[tuple[float, float]], window_s: float = 60.0) -> str:
    """Growth between the medians of the first and the last `window_s` of readings. A single reading lands wherever
    passes happen to be in flight (two chat passes and a paused bootstrap batch swing it by hundreds of MiB), so two
    single readings compare moments more than they show growth; a minute's median is what the app holds there."""
    end = rss[-1][0]
    first = statistics.median(m for t, m in rss if t <= window_s)
    last = statistics.median(m for t, m in rss if t >= end - window_s)
    return f"{first:,.0f} / {last:,.0f} ({100 * (last - first) / first:+.1f}%)"


def _pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else values[0]


def report(args, base: Run, load: Run, rss: list[tuple[float, float]], boot_note: str) -> list[tuple[str, ...]]:
    reference = {a.question: a.program for a in base.asked if not a.error}
    ok = [a for a in load.asked if not a.error]
    errors = [a for a in base.asked + load.asked if a.error]
    differ = [a for a in ok if a.question in reference and a.program != reference[a.question]]
    b_lat, l_lat = [a.seconds for a in base.asked if not a.error], [a.seconds for a in ok]
    b50 = statistics.median(b_lat) if b_lat else float("nan")
    l50, l95 = (statistics.median(l_lat), _pct(l_lat, 95)) if l_lat else (float("nan"),) * 2
    ratio = load.per_minute() / base.per_minute() if base.per_minute() else float("nan")
    first, peak, last = rss[0][1], max(m for _, m in rss), rss[-1][1]
    over_time = ", ".join(f"{t / 60:.1f} min {m:,.0f}" for t, m in rss[:: max(1, len(rss) // 10)])
    warm = [(t, m) for t, m in rss if t >= args.warmup_s] or rss[-1:]
    slope = _slope(warm)
    for a in differ[:5]:
        print(f"  differs: {a.question!r}: {a.program} (alone: {reference[a.question]})")
    for a in errors[:5]:
        print(f"  error: {a.question!r}: {a.error}")
    return [
        ("errors", f"{len(errors)} of {len(base.asked) + len(load.asked)} answers", "0"),
        ("answers whose program differs from the session alone", f"{len(differ)} of {len(ok)}", "0"),
        ("one session alone: p50 latency, answers a minute",
         f"{b50:.1f} s, {base.per_minute():.1f} ({len(base.asked)} questions)", ""),
        (f"{args.sessions} sessions at once, beside a bootstrap: p50 / p95 latency",
         f"{l50:.1f} / {l95:.1f} s", f"p95 ≤ 1.5 × {args.sessions} × {b50:.1f} = {1.5 * args.sessions * b50:.1f} s"),
        (f"{args.sessions} sessions: answers a minute (vs alone)",
         f"{load.per_minute():.1f} ({ratio:.2f}x; {len(ok)} in {load.seconds:.0f} s)", "≥ 1.00x"),
        ("app RSS: start / peak / end of the load (MiB)",
         f"{first:,.0f} / {peak:,.0f} / {last:,.0f} ({100 * (last - first) / first:+.1f}%)", "growth ≤ 10%"),
        (f"app RSS after the warm-up (from {args.warmup_s / 60:g} min): first / lowest / highest / end (MiB)",
         f"{warm[0][1]:,.0f} / {min(m for _, m in warm):,.0f} / {max(m for _, m in warm):,.0f} / {warm[-1][1]:,.0f} "
         f"({100 * (warm[-1][1] - warm[0][1]) / warm[0][1]:+.1f}%); trend {slope:+.1f} MiB a minute", "growth ≤ 10%"),
        ("app RSS, median of the first minute's readings against the last minute's (MiB)", _window_growth(rss),
         "growth ≤ 10%"),
        ("app RSS over time (MiB)", over_time, ""),
        ("bootstrap beside the load", boot_note, "running throughout"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", type=int, default=8)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--questions", type=int, default=20, help="questions in the list (and the alone run)")
    parser.add_argument("--budget", type=int, default=150, help="programs the bootstrap session explores")
    parser.add_argument("--warmup-s", type=float, default=60.0,
                        help="RSS is also compared from this far into the load: the bootstrap session's KG opened "
                             "and its first batch begun, every session answered once")
    parser.add_argument("--port", type=int, default=7873)
    parser.add_argument("--quick", action="store_true", help="2 sessions for 1 minute, 6 questions")
    args = parser.parse_args()
    if args.quick:
        args.sessions, args.minutes, args.questions, args.warmup_s = 2, 1.0, 6, 20.0
    asked = questions(args.questions)
    url = f"http://127.0.0.1:{args.port}/"
    with tempfile.TemporaryDirectory(prefix="kgscout-load-") as scratch:
        app = start_app(args.port, Path(scratch) / "app.log")
        rss: list[tuple[float, float]] = []
        stop = threading.Event()
        try:
            print(f"alone: {len(asked)} questions", flush=True)
            base = alone(url, asked)
            print(f"alone: p50 {statistics.median(a.seconds for a in base.asked):.1f} s; starting the bootstrap and "
                  f"{args.sessions} sessions for {args.minutes:g} min", flush=True)
            sampler = threading.Thread(target=sample_rss, args=(app.pid, stop, rss), daemon=True)
            sampler.start()
            boot = bootstrap_session(url, Path(scratch), args.budget)
            load = together(url, asked, args.sessions, args.minutes * 60)
            boot_note = bootstrap_note(boot)
        finally:
            stop.set()
            app.terminate()
            try:
                app.wait(timeout=30)
            except subprocess.TimeoutExpired:
                app.kill()
    rows = report(args, base, load, rss, boot_note)
    for row in rows:
        print(" | ".join(row))
    append_section(f"Chat under load over HTTP ({args.sessions} gradio_client sessions, {args.minutes:g} min, "
                   "beside a bootstrap)", rows,
                   notes="Questions: a fixed sample of tests/fixtures/ops_questions/geography.jsonl; the answer "
                         "memo off (--no-answer-memo); programs compared with one session's alone.")


if __name__ == "__main__":
    main()
