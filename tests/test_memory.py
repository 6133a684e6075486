"""engine.lm.memory: the heap pages a finished answer freed go back to the OS."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
from pathlib import Path

import psutil
import pytest

from engine.lm.memory import PRIMITIVE_CACHE_CAPACITY, bound_native_memory, release_freed_memory

MIB = 1 << 20


def _libc():
    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    if not hasattr(libc, "malloc_trim"):
        pytest.skip("the C library is not glibc: nothing to hand back")
    libc.malloc.argtypes, libc.malloc.restype = [ctypes.c_size_t], ctypes.c_void_p
    libc.free.argtypes = [ctypes.c_void_p]
    return libc


def test_freed_heap_memory_goes_back_to_the_os():
    """As torch's freed tensors do: blocks under the (risen) mmap threshold, freed below one still in use,
    stay in the process' RSS until they are released."""
    libc, process = _libc(), psutil.Process()
    libc.free(libc.malloc(16 * MIB))  # freeing a 16 MB mmapped block raises the mmap threshold past 1 MB
    blocks = [libc.malloc(MIB) for _ in range(200)]
    for block in blocks:
        ctypes.memset(block, 1, MIB)  # touched: resident
    for block in blocks[:-1]:  # the last stays in use above them, so free() cannot shrink the heap
        libc.free(block)
    kept = process.memory_info().rss
    assert release_freed_memory()
    released = kept - process.memory_info().rss
    libc.free(blocks[-1])
    assert released > 150 * MIB


def test_onednn_keeps_a_bounded_cache_unless_told(monkeypatch):
    """engine.lm bounds oneDNN's primitive cache on import; a size the environment gives is kept."""
    import engine.lm  # noqa: F401 - its import sets the bound

    assert os.environ["ONEDNN_PRIMITIVE_CACHE_CAPACITY"]
    monkeypatch.delenv("ONEDNN_PRIMITIVE_CACHE_CAPACITY")
    bound_native_memory()
    assert os.environ["ONEDNN_PRIMITIVE_CACHE_CAPACITY"] == str(PRIMITIVE_CACHE_CAPACITY)
    monkeypatch.setenv("ONEDNN_PRIMITIVE_CACHE_CAPACITY", "512")
    bound_native_memory()
    assert os.environ["ONEDNN_PRIMITIVE_CACHE_CAPACITY"] == "512"


def _heaps(libc) -> int:
    """glibc's malloc arenas now: malloc_info's XML has one <heap> per arena."""
    import tempfile

    libc.fopen.argtypes, libc.fopen.restype = [ctypes.c_char_p, ctypes.c_char_p], ctypes.c_void_p
    libc.fclose.argtypes, libc.malloc_info.argtypes = [ctypes.c_void_p], [ctypes.c_int, ctypes.c_void_p]
    with tempfile.NamedTemporaryFile(suffix=".xml") as out:
        stream = libc.fopen(out.name.encode(), b"w")
        libc.malloc_info(0, stream)
        libc.fclose(stream)
        return Path(out.name).read_text().count("<heap nr=")


def test_threads_allocating_at_once_share_a_bounded_number_of_arenas():
    """Each thread that finds its arena locked would get a new one (up to 8 per core), each keeping what its
    threads freed; engine.lm caps them at MALLOC_ARENAS on import unless the environment sets a cap."""
    import threading

    from engine.lm.memory import MALLOC_ARENAS

    if "MALLOC_ARENA_MAX" in os.environ:
        pytest.skip("the environment sets glibc's arena cap")
    libc = _libc()
    before, start = _heaps(libc), threading.Barrier(16)

    def churn() -> None:  # ctypes calls drop the GIL: the threads do allocate at the same moment
        start.wait()
        for _ in range(20_000):
            libc.free(libc.malloc(4096))

    threads = [threading.Thread(target=churn) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert _heaps(libc) <= max(before, MALLOC_ARENAS)
