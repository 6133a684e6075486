"""Model computations take turns: a pass alone on every core torch uses, or two side by side on a core each.

Every chat session reasons in a thread of its own, and torch runs each forward pass on a team of intra-op
threads (torch.get_num_threads(): one per core). Passes from several sessions at once start one team each,
so four questions on two cores put eight spinning compute threads on two cores, each team waiting at every
barrier for members the OS has parked. Taking turns keeps no more compute threads than cores: one team on all
of them, which is what a session alone gets, or, when passes queue, two passes of one thread each (`Turns`); the
sessions' other work (linking, SPARQL, enumerating candidates) still runs beside them.
Seen: four Python threads multiplying torch matrices at once made 11 OS threads on 2 cores (one OpenMP team of
2 per calling thread). `python -m bench.load_memory --sessions 8` with and without --no-turns compares the
answers a minute, and `python -m bench.load` gives the issue's figures. A bootstrap's passes are background work
(`background`, `in_background`): they run when chat has been quiet for a moment (`CHAT_QUIET_S`).

Held around whole passes (a scoring batch with its vocabulary head, a prefix, a beam-search step, an
embedding batch), never while waiting on anything else; the LLM's and the embedder's caches are never locked
while a pass waits for its turn, so a chat thread never waits on a lock a paused bootstrap holds.
"""

from __future__ import annotations

import contextlib
import functools
import threading
import time
from collections import deque
from typing import Callable, Iterator, TypeVar

import torch

T = TypeVar("T")

_local = threading.local()

# How long the model must have run no chat pass before a background pass starts. A question's passes follow
# each other closely: all its work outside the model (linking, retrieving, enumerating) is a median 0.14 s of
# its 3.5 s on geography-demo (`python -m bench.kgs --kgs geography-demo --fresh`, session 24), so 2 s of quiet
# means nobody is waiting for an answer.
CHAT_QUIET_S = 2.0


# How many chat passes may run at once when several wait, each on its share of the cores. 8 sessions in process
# answered 28.2 and 28.0 questions a minute with two side by side against 23.6 and 24.3 with one pass at a time,
# the same program for every question (model time 2.13 against 2.50 s an answer; `python -m bench.load_memory
# --sessions 8 --questions 32`, alternated, session 26). A 0.5B model's matmuls on a CPU gain less than 2x from a
# second core: two scoring passes (a fresh 600-word prefix, 12 programs) on a thread each took 1.60-1.67 s a pass
# side by side against 1.97 s alone on both threads and 3.32 s alone on one, with the same scores to the bit, the
# embedder's vectors too (a probe script, session 26). A pass with nobody waiting still gets every core.
CHAT_PASSES_AT_ONCE = 2


class Turns:
    """Who runs a forward pass now, on how many of torch's threads: first come, first served, chat before
    background work. threading.Lock lets the thread that releases it take it again before a waiter wakes, so a
    beam search that releases between its decoding steps could keep the cores from a chat question for its whole
    search; here each pass queues once and waits behind the passes that asked before it, no more.

    A chat pass that finds nobody waiting behind it runs alone on all `cores` threads (a session alone loses
    nothing). When chat passes queue, up to `slots` of them run side by side on `cores // slots` threads each:
    together they finish more passes a second than one after the other. A pass never joins one that runs on all
    the cores; it waits for it, so the threads never outnumber the cores.

    A pass started inside `background()` (a bootstrap) runs alone, and only when no chat pass waits and none has
    run for `quiet_s`: while people chat, a bootstrap pauses. Waiting only for queued chat passes was not enough:
    the bootstrap's passes filled the gaps between a question's passes (linking, SPARQL, a session's next
    request), a chat pass then found one running and waited for it, and 8 chat sessions beside a bootstrap
    answered 0.79x the questions a minute of one session alone (`python -m bench.load`, session 24). The quiet
    time also keeps a bootstrap from ever waiting for good on a chat thread that waits for it (a lock the
    bootstrap holds): such a thread runs no pass, so the model falls quiet and the bootstrap goes on. Not
    reentrant: a pass never starts another inside itself."""

    def __init__(self, quiet_s: float = CHAT_QUIET_S, slots: int = CHAT_PASSES_AT_ONCE,
                 cores: int | None = None) -> None:
        self.quiet_s = quiet_s
        self.slots = slots
        self.cores = cores or max(1, torch.get_num_threads())  # torch's threads when nobody set any for a pass
        self._changed = threading.Condition(threading.Lock())
        self._chat: deque[object] = deque()  # passes waiting, in the order they asked
        self._background: deque[object] = deque()
        self._chat_threads = 0  # threads of the chat passes running now
        self._chat_running = 0
        self._background_running = False
        self._last_chat = float("-inf")  # time.monotonic() when the last chat pass ended
        self._held = False  # the next background pass waits for chat (running, queued, or too recent)
        self._busy_since = 0.0  # time.monotonic() when the model last went from idle to running a pass
        self.passes = 0  # passes run so far, and the seconds some pass ran: what the benchmarks divide
        self.busy_s = 0.0

    def _chat_threads_for_next(self) -> int:
        """Threads for the chat pass at the head of the queue, 0 while it must wait. Called under the lock."""
        share = max(1, self.cores // self.slots)
        if self._background_running:
            return 0
        if not self._chat_running:
            return self.cores if len(self._chat) == 1 else share
        return share if self._chat_running < self.slots and self._chat_threads + share <= self.cores else 0

    def __enter__(self) -> "Turns":
        me, chat = object(), not getattr(_local, "background", False)
        queue = self._chat if chat else self._background
        with self._changed:
            queue.append(me)
            while True:
                if queue[0] is me:
                    if chat:
                        threads = self._chat_threads_for_next()
                        if threads:
                            break
                    elif not self._background_running:
                        self._held = True  # chat runs, waits or ran a moment ago: the bootstrap is paused for it
                        if not self._chat_running:
                            quiet_for = self._last_chat + self.quiet_s - time.monotonic()
                            if not self._chat and quiet_for <= 0:
                                threads = self.cores
                                break
                            self._changed.wait(quiet_for if not self._chat else None)
                            continue
                self._changed.wait()
            queue.popleft()
            if not self._chat_running and not self._background_running:
                self._busy_since = time.monotonic()
            if chat:
                self._chat_running += 1
                self._chat_threads += threads
            else:
                self._held = False
                self._background_running = True
            _local.threads = threads
            self._changed.notify_all()  # the next chat pass may start beside this one
        if torch.get_num_threads() != threads:
            torch.set_num_threads(threads)  # this thread's team (OpenMP's thread count is the calling thread's)
        return self

    def __exit__(self, *exc) -> None:
        with self._changed:
            now = time.monotonic()
            self.passes += 1
            if getattr(_local, "background", False):
                self._background_running = False
            else:
                self._chat_running -= 1
                self._chat_threads -= _local.threads
                self._last_chat = now
            if not self._chat_running and not self._background_running:
                self.busy_s += now - self._busy_since
            self._changed.notify_all()

    @property
    def waiting(self) -> int:
        """Passes queued or running now."""
        with self._changed:
            return len(self._chat) + len(self._background) + self._chat_running + self._background_running

    @property
    def background_held(self) -> bool:
        """A background pass is waiting for chat to fall quiet (a bootstrap paused while people chat)."""
        with self._changed:
            return self._held and bool(self._background)


_TURNS = Turns()


def turn() -> Turns:
    """The context manager a forward pass runs in: `with compute.turn(): ...`."""
    return _TURNS


@contextlib.contextmanager
def background() -> Iterator[None]:
    """The passes this thread starts inside wait for every chat pass (see `Turns`)."""
    before = getattr(_local, "background", False)
    _local.background = True
    try:
        yield
    finally:
        _local.background = before


def busy() -> tuple[int, float]:
    """(passes run, seconds some pass ran) since the process started: under load, the model's busy share
    of the wall time, and its seconds per answer against a session alone's, tell a queue with gaps from passes
    that run slower beside other work."""
    with _TURNS._changed:
        return _TURNS.passes, _TURNS.busy_s


def background_held() -> bool:
    """Whether a bootstrap's pass waits for chat to fall quiet now (the app shows the bootstrap as paused)."""
    return _TURNS.background_held


def in_background(fn: Callable[..., T]) -> Callable[..., T]:
    """`fn` runs inside `background()`: its passes wait for chat."""
    @functools.wraps(fn)
    def run(*args, **kwargs) -> T:
        with background():
            return fn(*args, **kwargs)
    return run
