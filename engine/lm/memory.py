"""Give the memory a finished answer freed back to the operating system.

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


@functools.lru_cache(maxsize=1)
def _trim():
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
    except OSError:
        return None
    trim = getattr(libc, "malloc_trim", None) if libc is not None else None
    if trim is not None:
        trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return trim


def release_freed_memory() -> bool:
    """Return free heap pages to the OS; True when the C library did (glibc's malloc_trim found pages)."""
    trim = _trim()
    return bool(trim(0)) if trim is not None else False
