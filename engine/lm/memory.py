"""Give the memory a finished answer freed back to the operating system, and keep native caches from holding it.

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
# Blocks of 1 MiB and more are mapped on their own and unmapped when freed, instead of glibc's threshold rising to
# 32 MB after the first big free and every tensor under it staying in the arenas: `python -m bench.load_memory
# --bootstrap --questions 32` saw RSS +35% with the rising threshold (1,902 -> 2,562 MiB) and +21% with 1 MiB
# (1,889 -> 2,290), 10.77 and 10.81 answers a minute (session 24, alone).
MMAP_THRESHOLD = 1 << 20
_M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter


@functools.lru_cache(maxsize=1)
def _libc():
    name = ctypes.util.find_library("c")
    try:
        return ctypes.CDLL(name) if name else None
    except OSError:
        return None


@functools.lru_cache(maxsize=1)
def _trim():
    trim = getattr(_libc(), "malloc_trim", None)
    if trim is not None:
        trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return trim


def bound_native_memory() -> bool:
    """Keep the native allocators from holding on to memory: oneDNN's primitive cache bounded to
    PRIMITIVE_CACHE_CAPACITY (unless the environment says otherwise; read when torch first runs a bf16 matmul, so
    call this before) and big blocks unmapped when freed. True where glibc took the setting."""
    os.environ.setdefault("ONEDNN_PRIMITIVE_CACHE_CAPACITY", str(PRIMITIVE_CACHE_CAPACITY))
    mallopt = getattr(_libc(), "mallopt", None)
    if mallopt is None or "MALLOC_MMAP_THRESHOLD_" in os.environ:
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD))


def release_freed_memory() -> bool:
    """Return free heap pages to the OS; True when the C library did (glibc's malloc_trim found pages)."""
    trim = _trim()
    return bool(trim(0)) if trim is not None else False
