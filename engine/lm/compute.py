"""Model computations take turns: one forward pass at a time in the process, on all the cores torch uses.

Every chat session reasons in a thread of its own, and torch runs each forward pass on a team of intra-op
threads (torch.get_num_threads(): one per core). Passes from several sessions at once start one team each,
so four questions on two cores put eight spinning compute threads on two cores, each team waiting at every
barrier for members the OS has parked. Taking turns keeps one team on the cores, which is what a session
alone gets; the sessions' other work (linking, SPARQL, enumerating candidates) still runs beside it.
Seen: four Python threads multiplying torch matrices at once made 11 OS threads on 2 cores (one OpenMP team of
2 per calling thread). `python -m bench.load_memory --sessions 8` with and without --no-turns compares the
answers a minute, and `python -m bench.load` gives the issue's figures. A bootstrap's passes are background work
(`background`, `in_background`): they run when no chat pass waits.

Held around whole passes (a scoring batch with its vocabulary head, a prefix, a beam-search step, an
embedding batch), never while waiting on anything else, so it cannot deadlock with the LLM's cache lock.
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections import deque
from typing import Callable, Iterator, TypeVar

T = TypeVar("T")

_local = threading.local()


class Turns:
    """A lock served first come, first served, chat before background work. threading.Lock lets the thread that
    releases it take it again before a waiter wakes, so a beam search that releases between its decoding steps
    could keep the cores from a chat question for its whole search; here each pass queues once and waits behind
    the passes that asked before it, no more. A pass started inside `background()` (a bootstrap) waits while any
    other pass does: taking turns first come, first served, a bootstrap's beam search took a fifth of the passes,
    and 8 chat sessions beside it answered 0.78x the questions a minute of one session alone (`python -m
    bench.load`, session 24). Not reentrant: a pass never starts another inside itself."""

    def __init__(self) -> None:
        self._changed = threading.Condition(threading.Lock())
        self._chat: deque[object] = deque()  # passes waiting, in the order they asked
        self._background: deque[object] = deque()
        self._running = False

    def __enter__(self) -> "Turns":
        me, queue = object(), self._background if getattr(_local, "background", False) else self._chat
        with self._changed:
            queue.append(me)
            while self._running or queue[0] is not me or (queue is self._background and self._chat):
                self._changed.wait()
            queue.popleft()
            self._running = True
        return self

    def __exit__(self, *exc) -> None:
        with self._changed:
            self._running = False
            self._changed.notify_all()

    @property
    def waiting(self) -> int:
        """Passes queued or running now."""
        with self._changed:
            return len(self._chat) + len(self._background) + self._running


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


def in_background(fn: Callable[..., T]) -> Callable[..., T]:
    """`fn` runs inside `background()`: its passes wait for chat."""
    @functools.wraps(fn)
    def run(*args, **kwargs) -> T:
        with background():
            return fn(*args, **kwargs)
    return run
