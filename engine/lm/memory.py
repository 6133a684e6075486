"""Give the memory a finished answer freed back to the operating system, and keep oneDNN's cache from holding it.

Each answer allocates a few hundred MB of tensors (copies of a prefix's KV cache, packed continuations, the
vocabulary head's rows) and frees them at the end. glibc's malloc keeps freed blocks below its mmap threshold
(which rises to 32 MB after the first large free) inside the arena of the thread that freed them, for reuse,
and each chat and query thread may get an arena of its own (up to 8 per core). So under concurrent chat the
process' RSS climbs with every answer although the bytes in use stay flat: `python -m bench.load_memory`
(SmolLM2-135M, 8 sessions, 12 answers, 2 shared cores) saw RSS go from 1,370 to 2,302 MiB while glibc's bytes
in use stayed between 399 and 514 MiB and the freed-but-kept bytes rose from 175 to 998 MiB; Python objects
traced by tracemalloc grew by under 2 MiB. `malloc_trim(0)` hands the free pages of every arena back (it
madvises the middle of a heap too, not only its top); called after each answer it kept RSS between 1,195 and
1,446 MiB over the same run; a call took 89 ms median (a run with MALLOC_ARENA_MAX=2, same load). Where the C library has no
`malloc_trim` (not glibc) this does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import os

# What else kept the RSS of the app climbing while a bootstrap wrote questions (python -m bench.bootstrap_memory, the
# tiny film KG alone, budget 150, session 24): glibc's bytes in use rose from 318 to 511 MiB over 126 programs and fell
# back only when the job ended. They were oneDNN's primitive cache: torch's bf16 matmuls compile a primitive per
# shape and keep up to 1,024, and a batched beam search meets new shapes at every step (rows leave the batch,
# prompts differ in length). With the cache off, bytes in use stayed 299-391 MiB, but a batch of 32 programs took
# 80.1 s instead of 39.7 s and wrote other beams (every primitive made again, the weights reordered for it). 64
# kept the same beams in 41.1 s (python -m bench.bootstrap_memory --batch, 32 WorldCup programs, session 24).
PRIMITIVE_CACHE_CAPACITY = 64
# Not done: a fixed mmap threshold of 1 MiB (big blocks unmapped as they are freed) cut RSS growth under chat load
# with a bootstrap from +35% to +21% before the bound above; with the bound and chat first (engine.lm.compute) it
# was +14.7% against +15.7% for a fixed 32 MiB (`python -m bench.load_memory --bootstrap --questions 32`, session
# 24), and it made scoring slower (page faults on every big tensor): scoring 48 programs after a 12-exemplar
# prompt, in one process, took a median 4.9-5.5 s over four runs against 4.4-5.1 s over three (session 24).


# At most this many glibc malloc arenas. Each thread that meets a locked arena gets one of its own (up to 8 per core),
# and an arena keeps what its threads freed, in pieces malloc_trim cannot hand back: 8 sessions beside a bootstrap
# left 361-438 MiB freed but kept after a dozen answers. With two arenas, 48 answers in process beside a bootstrap
# peaked at 2,194 and 2,242 MiB against 2,450 and 2,441 and ended at 2,040 and 2,052 against 2,219 and 2,209 (from
# 1,928 and 1,985 against 1,923 and 1,870 at the first answer), at 29.1 and 29.1 against 28.5 and 27.9 answers a
# minute (`MALLOC_ARENA_MAX=2 python -m bench.load_memory --sessions 8 --questions 48 --bootstrap` against the
# same without, alternated, session 26). glibc reads that variable once at start; mallopt sets the same cap from
# here, before the chat threads allocate.
MALLOC_ARENAS = 2
_M_ARENA_MAX = -8  # glibc's mallopt parameter number


@functools.lru_cache(maxsize=1)
def _libc():
    name = ctypes.util.find_library("c")
    try:
        return ctypes.CDLL(name) if name else None
    except OSError:
        return None


def _trim():
    trim = getattr(_libc(), "malloc_trim", None)
    if trim is not None:
        trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return trim


def bound_native_memory() -> None:
    """Bound oneDNN's primitive cache to PRIMITIVE_CACHE_CAPACITY and glibc to MALLOC_ARENAS arenas, unless the
    environment already says how many. oneDNN reads its setting when torch first runs a bf16 matmul, and arenas are
    made as threads allocate: call this before either (engine.lm does on import)."""
    os.environ.setdefault("ONEDNN_PRIMITIVE_CACHE_CAPACITY", str(PRIMITIVE_CACHE_CAPACITY))
    mallopt = getattr(_libc(), "mallopt", None)
    if mallopt is not None and "MALLOC_ARENA_MAX" not in os.environ:
        mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
        mallopt(_M_ARENA_MAX, MALLOC_ARENAS)


def release_freed_memory() -> bool:
    """Return free heap pages to the OS; True when the C library did (glibc's malloc_trim found pages)."""
    trim = _trim()
    return bool(trim(0)) if trim is not None else False
