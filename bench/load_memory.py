"""Where the app's memory goes under chat load, without HTTP: the app's own Hub and Handlers in one process.

    python -m bench.load_memory [--sessions 8] [--questions 40] [--model NAME] [--tracemalloc] [--bootstrap]
                                [--no-turns]

Sessions are threads that call `Handlers.ask` (as Gradio would, at most `ui.app.CHAT_CONCURRENCY` at once) on the
default KG with the answer memo off. --no-turns lets forward passes of different sessions run at once (they take
turns, engine.lm.compute), to measure what the turns change; --sessions 1 is a session alone. At the end: answers
a minute, p50 latency and each question's program. After every answer it records the process RSS, glibc's own view of its heap
(`mallinfo2`: bytes in use, bytes free but kept, bytes in mmapped blocks) and, with --tracemalloc, the Python heap
traced since the first answer. RSS that rises while glibc's in-use bytes stay flat is allocator high water (freed
memory kept for reuse), not objects kept alive; Python bytes that rise with every answer are kept objects, and the
top allocation sites say whose. Prints a table; writes nothing to BENCHMARKS.md (a diagnostic, not a benchmark).
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import json
import statistics
import tempfile
import threading
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path

import psutil
import torch

from bench.load import questions


class _Mallinfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
                 "keepcost")]


def heap() -> tuple[float, float, float]:
    """(MiB in use from the malloc heaps, MiB free but kept by them, MiB in mmapped blocks), glibc's count."""
    libc = ctypes.CDLL("libc.so.6")
    libc.mallinfo2.restype = _Mallinfo2
    info = libc.mallinfo2()
    return info.uordblks / 2**20, info.fordblks / 2**20, info.hblkhd / 2**20


@dataclass
class Sample:
    n: int  # answers so far
    seconds: float
    rss: float
    used: float
    free: float
    mapped: float
    python: float  # MiB traced by tracemalloc (0 without it)
    threads: int


def kept_states(llm) -> str:
    """What the LLM keeps between answers: encoded prompt prefixes (an LRU) and kept heads, with their KV bytes."""
    def mib(states) -> float:
        return sum(layer.keys.nbytes + layer.values.nbytes for _, cache, _ in states for layer in cache.layers) / 2**20
    prefixes, heads = list(llm._prefixes.values()), list(llm._heads.values())
    return (f"LLM keeps {len(prefixes)} prefixes ({mib(prefixes):,.0f} MiB of KV, {sum(p for p, _, _ in prefixes):,} "
            f"tokens) and {len(heads)} heads ({mib(heads):,.0f} MiB)")


def write(args, samples: list[Sample], latencies: list[float], p95: float, config) -> None:
    from bench.report import append_section
    from ui.app import CHAT_CONCURRENCY

    first, last = samples[0], samples[-1]
    rows = [
        ("answers (after one warm-up answer)", f"{last.n} in {last.seconds:.0f} s by {args.sessions} sessions", ""),
        ("RSS: first answer / highest / end (MiB)",
         f"{samples[1].rss:,.0f} / {max(s.rss for s in samples):,.0f} / {last.rss:,.0f}", ""),
        ("glibc bytes in use: lowest / highest (MiB)",
         f"{min(s.used for s in samples[1:]):,.0f} / {max(s.used for s in samples[1:]):,.0f}", ""),
        ("glibc bytes freed but kept: first answer / end (MiB)", f"{samples[1].free:,.0f} / {last.free:,.0f}", ""),
        ("Python bytes traced since the first answer: end (MiB)",
         f"{last.python:.1f}" if args.tracemalloc else "not traced", ""),
        ("answers a minute; p50 / p95 latency", f"{60 * len(latencies) / last.seconds:.2f}; "
         f"{statistics.median(latencies):.1f} / {p95:.1f} s", ""),
    ]
    at_once = args.concurrency or CHAT_CONCURRENCY
    settings = (f"model {config.model}, {args.sessions} sessions, {at_once} at once, turns "
                f"{'on' if args.turns else 'off'}, freed memory {'released' if args.release else 'kept'} after each answer")
    append_section(f"Where memory goes under chat load, in process ({settings})", rows,
                   notes=f"Before the load: RSS {first.rss:,.0f} MiB. RSS climbing while glibc's bytes in use stay flat "
                         "is freed memory malloc keeps, not objects kept alive.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", type=int, default=8)
    parser.add_argument("--questions", type=int, default=40, help="answers in all, after one warm-up answer")
    parser.add_argument("--model", default=None)
    parser.add_argument("--tracemalloc", action="store_true")
    parser.add_argument("--bootstrap", action="store_true", help="bootstrap the tiny film KG beside the chat")
    parser.add_argument("--concurrency", type=int, default=None, help="questions reasoned at once (ui.app's)")
    parser.add_argument("--no-turns", dest="turns", action="store_false", help="forward passes run at once")
    parser.add_argument("--keep-freed", dest="release", action="store_false",
                        help="leave freed memory to malloc after each answer (engine.lm.memory off), to compare")
    parser.add_argument("--write", action="store_true", help="append the summary to BENCHMARKS.md")
    parser.add_argument("--top", type=int, default=12, help="allocation sites shown")
    args = parser.parse_args()

    from engine.config import ScoutConfig
    from engine.lm import compute
    from engine.scout import Scout
    from ui.app import CHAT_CONCURRENCY
    from ui.handlers import Handlers
    from ui.state import Hub

    config = ScoutConfig(answer_memo=False, **({"model": args.model} if args.model else {}))
    hub = Hub(Scout(config))
    h = Handlers(hub)
    asked = questions(20)
    proc = psutil.Process()
    answered, claimed, samples, lock = [0], [0], [], threading.Lock()
    gate = threading.Semaphore(args.concurrency or CHAT_CONCURRENCY)
    latencies: list[float] = []
    programs: dict[str, set[str]] = {}
    if not args.turns:
        import contextlib

        compute._TURNS = contextlib.nullcontext()
    if not args.release:
        import engine.scout

        engine.scout.release_freed_memory = lambda: False

    def ask(state, q):
        with gate:
            for _ in h.ask(q, state):
                pass

    t_load = time.perf_counter()
    ask(h.new_state(), asked[0])  # warm-up: models, label index, prefix heads
    print(f"warm-up answer after {time.perf_counter() - t_load:.1f} s", flush=True)
    scratch = tempfile.TemporaryDirectory(prefix="kgscout-load-memory-")  # removed when the probe ends
    if args.bootstrap:
        from bench.load import fresh_tiny_kg

        key = hub.open(str(fresh_tiny_kg(Path(scratch.name), "probe")))
        hub.start_bootstrap(key, 150, None)
    gc.collect()
    if args.tracemalloc:
        tracemalloc.start(8)
        first = tracemalloc.take_snapshot()
    start = time.perf_counter()

    def record():
        used, free, mapped = heap()
        python = tracemalloc.get_traced_memory()[0] / 2**20 if args.tracemalloc else 0.0
        samples.append(Sample(answered[0], time.perf_counter() - start, proc.memory_info().rss / 2**20,
                              used, free, mapped, python, threading.active_count()))

    record()
    busy_before = compute.busy() if args.turns else None  # --no-turns: nothing takes turns, nothing counts

    def session(i: int) -> None:
        state = h.new_state()
        k = i * len(asked) // args.sessions
        while True:
            with lock:
                if claimed[0] >= args.questions:
                    return
                claimed[0] += 1
            t0 = time.perf_counter()
            ask(state, asked[k % len(asked)])
            with lock:
                latencies.append(time.perf_counter() - t0)
                programs.setdefault(asked[k % len(asked)], set()).add(state.answered_program or "")
            k += 1
            with lock:
                answered[0] += 1
                record()
                s = samples[-1]
                print(f"{s.n:3d} {s.seconds:6.0f} s  RSS {s.rss:7,.0f}  in use {s.used:6,.0f}  kept free "
                      f"{s.free:6,.0f}  mmapped {s.mapped:6,.0f}  python {s.python:6.1f}  threads {s.threads}"
                      f"  history {len(state.history)} messages, {len(json.dumps(state.history)) / 1024:.0f} KiB", flush=True)

    threads = [threading.Thread(target=session, args=(i,)) for i in range(args.sessions)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if args.tracemalloc:
        gc.collect()
        last = tracemalloc.take_snapshot()
        print("\nPython allocations grown since the first answer (top sites):")
        for stat in last.compare_to(first, "traceback")[: args.top]:
            print(f"{stat.size_diff / 2**20:+8.2f} MiB {stat.count_diff:+7d} blocks")
            for line in stat.traceback.format()[-8:]:
                print("      " + line)
    print(kept_states(hub.scout.llm()))
    if busy_before is not None:
        passes, busy_s = (now - before for now, before in zip(compute.busy(), busy_before))
        wall = samples[-1].seconds
        print(f"model busy {busy_s:.0f} s of {wall:.0f} s ({100 * busy_s / wall:.0f}%): {passes} passes, "
              f"{1000 * busy_s / max(passes, 1):.0f} ms a pass, {busy_s / max(len(latencies), 1):.2f} s an answer")
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(f"CPU {usage.ru_utime + usage.ru_stime:.0f} s; {len(samples) - 1} answers in {samples[-1].seconds:.0f} s")
    p95 = statistics.quantiles(latencies, n=20, method="inclusive")[-1] if len(latencies) > 1 else latencies[0]
    print(f"{60 * len(latencies) / samples[-1].seconds:.2f} answers a minute; p50 / p95 latency "
          f"{statistics.median(latencies):.1f} / {p95:.1f} s; at once {args.concurrency or CHAT_CONCURRENCY}; turns {'on' if args.turns else 'off'}; "
          f"{args.sessions} sessions; torch threads {torch.get_num_threads()}")
    for q, found in sorted(programs.items()):
        print(f"  {q!r}: {' | '.join(sorted(found))}")
    if args.write:
        write(args, samples, latencies, p95, config)
    for job in list(hub._jobs.values()):
        job.stop.set()
        job.thread.join()
    scratch.cleanup()


if __name__ == "__main__":
    main()
