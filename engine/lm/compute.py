"""Model computations take turns: one forward pass at a time in the process, on all the cores torch uses.

Every chat session reasons in a thread of its own, and torch runs each forward pass on a team of intra-op
threads (torch.get_num_threads(): one per core). Passes from several sessions at once start one team each,
so four questions on two cores put eight spinning compute threads on two cores, each team waiting at every
barrier for members the OS has parked. Taking turns keeps one team on the cores, which is what a session
alone gets; the sessions' other work (linking, SPARQL, enumerating candidates) still runs beside it.
Seen: four Python threads multiplying torch matrices at once made 11 OS threads on 2 cores (one OpenMP team of
2 per calling thread). Not yet timed on the app: `python -m bench.load_memory --sessions 8` with and without
--no-turns compares the answers a minute, and `python -m bench.load` gives the issue's figures.

Held around whole passes (a scoring batch with its vocabulary head, a prefix, a beam-search step, an
embedding batch), never while waiting on anything else, so it cannot deadlock with the LLM's cache lock.
"""

from __future__ import annotations

import threading


class Turns:
    """A lock served first come, first served. threading.Lock lets the thread that releases it take it again
    before a waiter wakes, so a beam search that releases between its decoding steps could keep the cores
    from a chat question for its whole search; here each pass queues once and waits behind the passes that
    asked before it, no more. Not reentrant: a pass never starts another inside itself."""

    def __init__(self) -> None:
        self._changed = threading.Condition(threading.Lock())
        self._issued = 0  # tickets handed out
        self._serving = 0  # the ticket whose pass may run

    def __enter__(self) -> "Turns":
        with self._changed:
            ticket = self._issued
            self._issued += 1
            while ticket != self._serving:
                self._changed.wait()
        return self

    def __exit__(self, *exc) -> None:
        with self._changed:
            self._serving += 1
            self._changed.notify_all()

    @property
    def waiting(self) -> int:
        """Passes queued or running now."""
        with self._changed:
            return self._issued - self._serving


_TURNS = Turns()


def turn() -> Turns:
    """The context manager a forward pass runs in: `with compute.turn(): ...`."""
    return _TURNS
