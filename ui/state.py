"""What the UI keeps: process-wide (`Hub`) and per browser session (`SessionState`).

The `Hub` is shared by every browser session of the process: it holds the one
`Scout` (so the LLM and the embedder are loaded once), the KGs opened so far, and
the bootstrap jobs, which run in background threads so that a closed tab or a chat
in another session never stops or waits for them. A `SessionState` lives in a
`gr.State`: plain data only (Gradio deep-copies the initial value per session),
naming the KGs that session opened and the one it is asking.

Disk: each session is charged for what its uploads added (the file and a store built for it) and may not
pass `session_quota_mb`; the Hub notes when each KG was last used and, every few minutes, closes uploaded KGs
idle past `store_idle_hours` and has their stores removed (kg_adapters.store_cache), with what killed builds
left behind. The KGs opened at start are never removed.
"""

from __future__ import annotations

import logging
import re
import secrets
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

TOUCH_EVERY_S = 60.0  # how often a used store's LAST_USED marker is refreshed
SWEEP_EVERY_S = 600.0  # how often idle stores are looked for (more often when the idle time is short)
BROWSER_TOKEN = re.compile(r"[A-Za-z0-9_-]{22}")  # secrets.token_urlsafe(16)
# Chat messages a session keeps (its greeting and the latest 300: 100 questions with answer and details). The
# history lives in server memory for every browser session Gradio keeps (up to 10,000) and goes to the browser
# whole at each tick of a streamed answer. A program's answer with its picture and details is 3-5 KiB on the
# geography KG (its question and a question's alternatives add more), so a session keeps about a megabyte at most.
KEPT_MESSAGES = 300


@dataclass
class SessionState:
    kg: str  # key of the KG this session asks (Hub key)
    kgs: list[str] = field(default_factory=list)  # KGs this session can switch between, default first
    history: list[dict] = field(default_factory=list)  # chat messages as Gradio shows them
    last_question: str | None = None  # the question the program box answers (for "mark correct")
    last_program: str | None = None
    last_kg: str | None = None  # the KG that question was asked of
    last_turn: object | None = None  # engine.answer.followup.Turn of the last answer: what a follow-up refers to
    answered_program: str | None = None  # the program that answered last_question (the box may hold an edit)
    csv_path: str | None = None
    uploads: dict[str, int] = field(default_factory=dict)  # Hub key -> disk bytes this session's upload added
    marked: list = field(default_factory=list)  # (KG key, CorpusRecord) this session added, for "undo"
    browser: str | None = None  # this browser's private token (gr.BrowserState): the KGs it opened come back

    @property
    def disk_used(self) -> int:
        return sum(self.uploads.values())

    def recent_history(self) -> list[dict]:
        """The history a new turn is added to: the greeting and the latest messages, KEPT_MESSAGES in all, so a
        long session's state stays bounded."""
        if len(self.history) <= KEPT_MESSAGES:
            return list(self.history)
        return self.history[:1] + self.history[-(KEPT_MESSAGES - 1):]


@dataclass
class BootstrapJob:
    """One bootstrap run in a background thread; poll `progress`, set `stop` to cancel."""

    key: str
    budget: int | None
    model: str | None
    stop: threading.Event = field(default_factory=threading.Event)
    progress: Any = None  # the latest engine.bootstrap.Progress
    progress_at: float = 0.0  # when it came (monotonic): the ETA counts down between reports
    result: Any = None  # engine.bootstrap.BootstrapResult when it finished
    error: str | None = None  # user-facing message when it failed
    started: float = field(default_factory=time.monotonic)
    finished: float | None = None
    thread: threading.Thread | None = field(default=None, repr=False)

    @property
    def running(self) -> bool:
        return self.finished is None

    @property
    def cancelled(self) -> bool:
        return self.stop.is_set()


class Hub:
    """The process-wide part of the UI: one Scout, the opened KGs, the bootstrap jobs."""

    def __init__(self, scout, default_spec: str | None = None, default_corpus: str | None = None):
        self.scout = scout
        self._lock = threading.Lock()
        self._sessions: dict[str, Any] = {}  # key -> engine.scout.KGSession
        self._keys_by_fingerprint: dict[str, str] = {}
        self._jobs: dict[str, BootstrapJob] = {}
        self._used: dict[str, float] = {}  # key -> time.monotonic() of its last use
        self._touched: dict[str, float] = {}  # key -> when its store's LAST_USED marker was last refreshed
        self._browsers: dict[str, list[str]] = {}  # browser token -> the KGs that browser opened, in order
        self.default_spec = default_spec  # None: the embedded geography KG
        self.default_key = self.open(default_spec, default_corpus)
        self._pinned = {self.default_key}  # opened at start: never swept

    # ------------------------------------------------------------ KGs
    def open(self, spec: str | None, corpus_dir: str | None = None, name: str | None = None) -> str:
        """Open a file, an endpoint URL or (None) the default KG; returns its key.

        Raises the engine's errors (kg_adapters.base.KGError and friends) unchanged:
        their messages are written for users. Opening the same graph twice gives
        the key it already has, so its reasoner and corpus are shared.
        """
        session = self.scout.open(spec, corpus_dir)
        fingerprint = session.kg.fingerprint
        with self._lock:
            key = self._keys_by_fingerprint.get(fingerprint)
            if key is not None:
                duplicate = session
            else:
                duplicate = None
                base = name or _display_name(spec, session)
                key, n = base, 1
                while key in self._sessions:
                    n += 1
                    key = f"{base} ({n})"
                self._sessions[key] = session
                self._keys_by_fingerprint[fingerprint] = key
        if duplicate is not None:
            try:
                duplicate.kg.close()
            except Exception:  # noqa: BLE001 - a second handle on a store we already hold
                log.debug("closing a duplicate KG handle failed", exc_info=True)
        return key

    def session(self, key: str):
        with self._lock:
            found = self._sessions.get(key)
            self._used[key] = now = time.monotonic()
            stale = now - self._touched.get(key, -TOUCH_EVERY_S) >= TOUCH_EVERY_S
            if stale:
                self._touched[key] = now
        if found is None:
            raise KeyError(f"no open KG called {key!r}")
        if stale:
            found.touch()
        return found

    def drop(self, key: str) -> None:
        """Close a KG and forget it (its store folder stays until a sweep; `remove_store` deletes it now)."""
        with self._lock:
            session = self._sessions.pop(key, None)
            if session is not None:
                self._keys_by_fingerprint.pop(session.kg.fingerprint, None)
            self._used.pop(key, None)
            self._touched.pop(key, None)
        if session is not None:
            session.close()

    def remove_store(self, key: str) -> None:
        """Drop a KG whose store this process built, and delete the store now (an upload over quota)."""
        session = self.session(key)
        folder = session.store_folder
        self.drop(key)
        if folder:
            self.scout.remove_store(folder)

    def sweep(self, now: float | None = None):
        """Close uploaded KGs idle past `store_idle_hours` (no bootstrap running) and remove unused stores."""
        idle_s = self.scout.config.store_idle_hours * 3600
        now = time.monotonic() if now is None else now
        with self._lock:
            idle = [k for k in self._sessions if k not in self._pinned and idle_s > 0
                    and now - self._used.get(k, now) > idle_s and not (k in self._jobs and self._jobs[k].running)]
        for key in idle:
            log.info("closing %s: unused for %.1f h", key, idle_s / 3600)
            self.drop(key)
        with self._lock:
            keep = [s.store_folder for s in self._sessions.values() if s.store_folder]
        swept = self.scout.sweep_stores(keep)
        if swept.stores or swept.leftovers:
            log.info("removed %d idle stores and %d leftovers (%.1f MB)", len(swept.stores), swept.leftovers,
                     swept.freed_bytes / 1e6)
        return swept

    def start_sweeping(self) -> threading.Thread:
        """Sweep now and then every few minutes, in the background, for as long as the process runs."""
        every = max(1.0, min(SWEEP_EVERY_S, self.scout.config.store_idle_hours * 3600 / 4))

        def work():
            while True:
                try:
                    self.sweep()
                except Exception:  # noqa: BLE001 - a failed sweep is retried at the next one
                    log.warning("sweeping idle stores failed", exc_info=True)
                time.sleep(every)

        thread = threading.Thread(target=work, name="kgscout-sweep", daemon=True)
        thread.start()
        return thread

    def keys(self) -> list[str]:
        with self._lock:
            return list(self._sessions)

    def new_state(self, browser: str | None = None) -> SessionState:
        """A session's state; a returning browser (its token) gets back the KGs it opened before."""
        return SessionState(kg=self.default_key, kgs=[self.default_key, *self.kgs_of(browser)], browser=browser)

    # ------------------------------------------------------------ browsers
    @staticmethod
    def browser_token(token: object) -> str:
        """The browser's token when it is one this app makes, else a new one: a random 128-bit secret, so no
        browser can guess another's and see the KGs it opened."""
        if isinstance(token, str) and BROWSER_TOKEN.fullmatch(token):
            return token
        return secrets.token_urlsafe(16)

    def remember(self, browser: str | None, key: str) -> None:
        """This browser opened this KG: list it for the browser after a page reload."""
        if not browser or key == self.default_key:
            return
        with self._lock:
            keys = self._browsers.setdefault(browser, [])
            if key not in keys:
                keys.append(key)

    def kgs_of(self, browser: str | None) -> list[str]:
        """The KGs this browser opened that are still open in this process."""
        with self._lock:
            return [k for k in self._browsers.get(browser or "", []) if k in self._sessions]

    def warm_up(self) -> threading.Thread:
        """Load the LLM, the embedder and the default KG's reasoner in the background."""

        def work():
            started = time.monotonic()
            try:
                self.session(self.default_key).reasoner()
                log.info("models and the default KG ready after %.1f s", time.monotonic() - started)
            except Exception:  # noqa: BLE001 - the first question will report the problem
                log.warning("warm-up failed; the first question will load the models", exc_info=True)

        thread = threading.Thread(target=work, name="kgscout-warmup", daemon=True)
        thread.start()
        return thread

    # ------------------------------------------------------------ bootstrap jobs
    def job(self, key: str) -> BootstrapJob | None:
        with self._lock:
            return self._jobs.get(key)

    def start_bootstrap(self, key: str, budget: int | None, model: str | None) -> tuple[BootstrapJob, bool]:
        """(job, started): a running job for this KG is returned as it is, never started twice."""
        session = self.session(key)
        with self._lock:
            current = self._jobs.get(key)
            if current is not None and current.running:
                return current, False
            job = BootstrapJob(key, budget, model)
            self._jobs[key] = job

        def on_progress(progress):
            job.progress, job.progress_at = progress, time.monotonic()

        def work():  # noqa: D401 - runs in the job's thread
            try:
                job.result = session.bootstrap(budget=budget, model=model, on_progress=on_progress,
                                               should_stop=job.stop.is_set)
            except Exception as err:  # noqa: BLE001 - shown to the user, logged with its trace
                from .render import error_text

                log.warning("bootstrap of %s failed", key, exc_info=True)
                job.error = error_text(err)
            finally:
                job.finished = time.monotonic()

        job.thread = threading.Thread(target=work, name=f"kgscout-bootstrap-{key}", daemon=True)
        job.thread.start()
        return job, True

    def cancel_bootstrap(self, key: str) -> bool:
        job = self.job(key)
        if job is None or not job.running:
            return False
        job.stop.set()
        return True


def _display_name(spec: str | None, session) -> str:
    if spec and spec.startswith(("http://", "https://")):
        return spec
    return getattr(session, "name", None) or (Path(spec).name if spec else "KG")
