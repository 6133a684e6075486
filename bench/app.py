"""The app as a user meets it: start-up time, and chat latency while another session bootstraps.

    python -m bench.app [--starts 3] [--budget 40]

1. Start-up: `python app.py` is launched --starts times on the warm cache (~/.cache/kgscout: models
   converted, the default KG's store, schema and label index built). Reported: seconds until the page is
   served (a user can type) and until the models and the default KG's reasoner are loaded in the
   background (the app's own log line), both from the launch.
2. Concurrency, in one process as the app runs it (one Scout, so one LLM for every session): six questions
   about the default KG are answered alone, then again while another session bootstraps the tiny film KG
   (tests/fixtures) into a scratch corpus. Each question's answer memo is forgotten first. A bootstrap
   that held the model for a whole beam search would show up as multi-second stalls; sharing two cores
   should cost at most about 2x.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from bench.report import append_section
from engine.config import ScoutConfig
from engine.scout import Scout

ROOT = Path(__file__).resolve().parents[1]
TINY_KG = ROOT / "tests" / "fixtures" / "tiny_films.psv"
QUESTIONS = [
    "what is the capital of France?",
    "what is the population of Berlin?",
    "how many countries are in Europe?",
    "which country is Tokyo the capital of?",
    "what language is spoken in Brazil?",
    "what is the capital of Japan?",
]
READY_LINE = re.compile(r"models and the default KG ready")


def _served(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def start_once(port: int, timeout_s: float = 300) -> tuple[float, float]:
    """(seconds until the page is served, seconds until the models are loaded) for one launch."""
    with tempfile.NamedTemporaryFile("w+", suffix=".log") as log:
        started = time.monotonic()
        process = subprocess.Popen([sys.executable, "app.py", "--port", str(port)], cwd=ROOT,
                                   stdout=log, stderr=subprocess.STDOUT,
                                   env={**os.environ, "HF_HUB_OFFLINE": "1", "GRADIO_ANALYTICS_ENABLED": "False"})
        page = models = None
        try:
            while models is None or page is None:
                if process.poll() is not None or time.monotonic() - started > timeout_s:
                    raise RuntimeError(f"the app did not come up:\n{Path(log.name).read_text()[-2000:]}")
                if page is None and _served(f"http://127.0.0.1:{port}/"):
                    page = time.monotonic() - started
                if models is None and READY_LINE.search(Path(log.name).read_text()):
                    models = time.monotonic() - started
                time.sleep(0.2)
        finally:
            process.terminate()
            process.wait(timeout=30)
        return page, models


def timed_answers(session, questions: list[str]) -> list[float]:
    reasoner = session.reasoner()
    latencies = []
    for question in questions:
        reasoner.forget(question)
        start = time.perf_counter()
        result = session.ask(question)
        latencies.append(time.perf_counter() - start)
        print(f"  {latencies[-1]:5.1f} s  {question} -> {result.program}", flush=True)
    return latencies


def concurrency(budget: int) -> dict:
    scout = Scout(ScoutConfig())
    chat = scout.open()
    timed_answers(chat, QUESTIONS[:1])  # loads the models and the reasoner
    alone = timed_answers(chat, QUESTIONS)
    with tempfile.TemporaryDirectory() as scratch:
        other = scout.open(str(TINY_KG), Path(scratch) / "corpus")
        progress: list = []
        worker = threading.Thread(target=lambda: progress.append(other.bootstrap(budget=budget)))
        worker.start()
        time.sleep(5)  # the bootstrap is exploring or generating questions by now
        during = timed_answers(chat, QUESTIONS)
        still_running = worker.is_alive()
        worker.join()
    return {"alone": alone, "during": during, "still_running": still_running,
            "records": progress[0].records if progress else 0, "one_llm": other.scout.llm() is chat.scout.llm()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--starts", type=int, default=3)
    parser.add_argument("--port", type=int, default=7871)
    parser.add_argument("--budget", type=int, default=40, help="programs the concurrent bootstrap explores")
    args = parser.parse_args()

    starts = [start_once(args.port) for _ in range(args.starts)]
    for page, models in starts:
        print(f"page served after {page:.1f} s, models loaded after {models:.1f} s")
    conc = concurrency(args.budget)
    med = statistics.median
    rows = [
        (f"start-up, warm cache: page served (median of {len(starts)})", f"{med(p for p, _ in starts):.1f} s", "≤ 30 s"),
        ("start-up, warm cache: models and default KG loaded", f"{med(m for _, m in starts):.1f} s", ""),
        ("chat latency alone (median / max of 6)", f"{med(conc['alone']):.1f} / {max(conc['alone']):.1f} s", ""),
        ("chat latency while another session bootstraps (median / max)",
         f"{med(conc['during']):.1f} / {max(conc['during']):.1f} s", "≈ 2x at most (2 cores shared)"),
        ("bootstrap still running when the last question was answered", str(conc["still_running"]), "True"),
        ("one LLM shared by both sessions", str(conc["one_llm"]), "True"),
    ]
    append_section("App start-up and concurrency (default geography KG)", rows,
                   notes=f"The concurrent bootstrap explored the tiny film KG with budget {args.budget} "
                         f"and wrote {conc['records']} records.")


if __name__ == "__main__":
    main()
