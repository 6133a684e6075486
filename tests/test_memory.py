"""engine.lm.memory: the heap pages a finished answer freed go back to the OS, and big blocks never stay."""

from __future__ import annotations

import ctypes
import ctypes.util
import os

import psutil
import pytest

from engine.lm.memory import MMAP_THRESHOLD, PRIMITIVE_CACHE_CAPACITY, bound_native_memory, release_freed_memory

MIB = 1 << 20


def _libc():
    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    if not hasattr(libc, "malloc_trim"):
        pytest.skip("the C library is not glibc: nothing to hand back")
    libc.malloc.argtypes, libc.malloc.restype = [ctypes.c_size_t], ctypes.c_void_p
    libc.free.argtypes = [ctypes.c_void_p]
    return libc


def _touched(libc, size: int, n: int) -> list[int]:
    blocks = [libc.malloc(size) for _ in range(n)]
    for block in blocks:
        ctypes.memset(block, 1, size)  # touched: resident
    return blocks


def test_freed_heap_memory_goes_back_to_the_os():
    """As torch's freed small tensors do: blocks under the mmap threshold, freed below one still in use, stay in
    the process' RSS until they are released."""
    libc, process = _libc(), psutil.Process()
    blocks = _touched(libc, 256 * 1024, 800)  # 200 MiB in blocks the heap holds
    for block in blocks[:-1]:  # the last stays in use above them, so free() cannot shrink the heap
        libc.free(block)
    kept = process.memory_info().rss
    assert release_freed_memory()
    released = kept - process.memory_info().rss
    libc.free(blocks[-1])
    assert released > 150 * MIB


def test_big_blocks_go_back_when_freed():
    """Once bounded (engine.lm does it on import), a block of MMAP_THRESHOLD or more is unmapped as it is freed,
    even after a 16 MB free that would have raised glibc's threshold, and oneDNN's cache size is set."""
    libc, process = _libc(), psutil.Process()
    if "MALLOC_MMAP_THRESHOLD_" not in os.environ:
        assert bound_native_memory()
    assert os.environ["ONEDNN_PRIMITIVE_CACHE_CAPACITY"] == str(PRIMITIVE_CACHE_CAPACITY)
    libc.free(libc.malloc(16 * MIB))
    blocks = _touched(libc, 2 * MMAP_THRESHOLD, 100)
    before = process.memory_info().rss
    for block in blocks[:-1]:
        libc.free(block)
    returned = before - process.memory_info().rss
    libc.free(blocks[-1])
    assert returned > 150 * MIB
