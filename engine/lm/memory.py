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


@functools.lru_cache(maxsize=1)
def _trim():
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
    except OSError:
        return None
    trim = getattr(libc, "malloc_trim", None)
    if trim is not None:
        trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return trim


def bound_native_memory() -> None:
    """Bound oneDNN's primitive cache to PRIMITIVE_CACHE_CAPACITY, unless the environment already says how big.
    oneDNN reads the setting when torch first runs a bf16 matmul: call this before (engine.lm does on import)."""
    os.environ.setdefault("ONEDNN_PRIMITIVE_CACHE_CAPACITY", str(PRIMITIVE_CACHE_CAPACITY))


def release_freed_memory() -> bool:
    """Return free heap pages to the OS; True when the C library did (glibc's malloc_trim found pages)."""
    trim = _trim()
    return bool(trim(0)) if trim is not None else False
