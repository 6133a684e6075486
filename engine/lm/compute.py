"""Model computations take turns: one forward pass at a time in the process, on all the cores torch uses.

Every chat session reasons in a thread of its own, and torch runs each forward pass on a team of intra-op
threads (torch.get_num_threads(): one per core). Passes from several sessions at once start one team each,
so four questions on two cores put eight spinning compute threads on two cores, each team waiting at every
barrier for members the OS has parked. Taking turns keeps one team on the cores, which is what a session
alone gets; the sessions' other work (linking, SPARQL, enumerating candidates) still runs beside it.
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

T = TypeVar("T")

_local = threading.local()

# How long the model must have run no chat pass before a background pass starts. A question's passes follow
# each other closely: all its work outside the model (linking, retrieving, enumerating) is a median 0.14 s of
# its 3.5 s on geography-demo (`python -m bench.kgs --kgs geography-demo --fresh`, session 24), so 2 s of quiet
# means nobody is waiting for an answer.
CHAT_QUIET_S = 2.0


class Turns:
    """A lock served first come, first served, chat before background work. threading.Lock lets the thread that
    releases it take it again before a waiter wakes, so a beam search that releases between its decoding steps
    could keep the cores from a chat question for its whole search; here each pass queues once and waits behind
    the passes that asked before it, no more.

    A pass started inside `background()` (a bootstrap) starts only when no chat pass waits and none has run for
    `quiet_s`: while people chat, a bootstrap pauses. Waiting only for queued chat passes was not enough: the
    bootstrap's passes filled the gaps between a question's passes (linking, SPARQL, a session's next request),
    a chat pass then found one running and waited for it, and 8 chat sessions beside a bootstrap answered
    0.79x the questions a minute of one session alone (`python -m bench.load`, session 24). The quiet time also
    keeps a bootstrap from ever waiting for good on a chat thread that waits for it (a lock the bootstrap holds):
    such a thread runs no pass, so the model falls quiet and the bootstrap goes on. Not reentrant: a pass never
    starts another inside itself."""

    def __init__(self, quiet_s: float = CHAT_QUIET_S) -> None:
        self.quiet_s = quiet_s
        self._changed = threading.Condition(threading.Lock())
        self._chat: deque[object] = deque()  # passes waiting, in the order they asked
        self._background: deque[object] = deque()
        self._running: bool | None = None  # None: free; True: a chat pass runs; False: a background pass
        self._last_chat = float("-inf")  # time.monotonic() when the last chat pass ended
        self._held = False  # a background pass is next but waits for chat to fall quiet
        self._began = 0.0  # time.monotonic() when the running pass took its turn
        self.passes = 0  # passes run so far, and the seconds they held the turn: what the benchmarks divide
        self.busy_s = 0.0

    def __enter__(self) -> "Turns":
        me, chat = object(), not getattr(_local, "background", False)
        queue = self._chat if chat else self._background
        with self._changed:
            queue.append(me)
            while True:
                if self._running is None and queue[0] is me:
                    if chat:
                        break
                    quiet_for = self._last_chat + self.quiet_s - time.monotonic()
                    if not self._chat and quiet_for <= 0:
                        break
                    self._held = True
                    self._changed.wait(quiet_for if not self._chat else None)
                    continue
                self._changed.wait()
            queue.popleft()
            self._held = False
            self._running = chat
            self._began = time.monotonic()
        return self

    def __exit__(self, *exc) -> None:
        with self._changed:
            now = time.monotonic()
            self.passes += 1
            self.busy_s += now - self._began
            if self._running:
                self._last_chat = now
            self._running = None
            self._changed.notify_all()

    @property
    def waiting(self) -> int:
        """Passes queued or running now."""
        with self._changed:
            return len(self._chat) + len(self._background) + (self._running is not None)

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
    """(passes run, seconds they held the turn) since the process started: under load, the model's busy share
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
