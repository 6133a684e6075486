"""Does anything the app keeps grow under chat load? The app served over HTTP and its sessions in one process,
with Python's heap traced.

    python -m bench.load_heap [--minutes 6] [--sessions 8] [--port 7876]

Like `bench.load` (one session alone first, then --sessions gradio_client sessions asking at once, the answer memo
off), but the app is launched in this process so that tracemalloc sees the server's side: Gradio's sessions,
queues and histories as well as the engine's caches. Every 30 s it prints the process RSS, its anonymous memory
(what the model's file-backed weights leave out), the Python bytes traced and the thread count; at the end, the
allocation sites whose traced bytes grew most between 90 s into the load (caches warm, every session begun) and
its end. Bytes in flight come and go with the passes; bytes that grow site by site are kept. The client sessions
run in this process too, so their own sites (gradio_client, httpx) show in the list; read past them. A
diagnostic: it writes nothing to BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import gc
import os
import threading
import time
import tracemalloc

import psutil

from bench.load import alone, questions, together

SETTLED_S = 90.0  # the first snapshot: every session has asked, the LLM's prompt cache is full


def anonymous_mib(pid: int) -> float:
    """Anonymous memory of a process (Linux; 0 elsewhere): the heaps and tensors, not the mapped weights."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as rollup:
            return next(int(line.split()[1]) for line in rollup if line.startswith("Anonymous:")) / 1024
    except (OSError, StopIteration):
        return 0.0


def watch(stop: threading.Event, every_s: float = 30.0) -> None:
    proc, start = psutil.Process(), time.monotonic()
    while not stop.is_set():
        traced, _ = tracemalloc.get_traced_memory()
        print(f"{time.monotonic() - start:5.0f} s  RSS {proc.memory_info().rss / 2**20:7,.0f}  anonymous "
              f"{anonymous_mib(proc.pid):7,.0f}  Python traced {traced / 2**20:6.1f} MiB  threads {proc.num_threads()}",
              flush=True)
        stop.wait(every_s)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=6.0)
    parser.add_argument("--sessions", type=int, default=8)
    parser.add_argument("--port", type=int, default=7876)
    args = parser.parse_args()
    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
    import ui
    from engine.config import ScoutConfig
    from engine.scout import Scout

    scout = Scout(ScoutConfig(answer_memo=False))
    demo = ui.build(scout, kg=None, corpus=None, preload=True)
    demo.launch(server_name="127.0.0.1", server_port=args.port, prevent_thread_lock=True, **ui.launch_options(scout))
    url, asked = f"http://127.0.0.1:{args.port}/", questions(20)
    try:
        alone(url, asked)
        tracemalloc.start(12)
        stop, settled = threading.Event(), []
        threading.Thread(target=watch, args=(stop,), daemon=True).start()
        timer = threading.Timer(SETTLED_S, lambda: (gc.collect(), settled.append(tracemalloc.take_snapshot())))
        timer.start()
        together(url, asked, args.sessions, args.minutes * 60)
        stop.set()
        gc.collect()
        end = tracemalloc.take_snapshot()
    finally:
        demo.close()
    if not settled:
        raise SystemExit(f"the load ended before {SETTLED_S:.0f} s: nothing to compare")
    ours = [tracemalloc.Filter(False, tracemalloc.__file__)]
    print(f"\nPython allocations grown from {SETTLED_S:.0f} s into the load to its end (top sites):")
    for stat in end.filter_traces(ours).compare_to(settled[0].filter_traces(ours), "traceback")[:12]:
        print(f"{stat.size_diff / 2**20:+8.2f} MiB {stat.count_diff:+7d} blocks")
        for line in stat.traceback.format()[-6:]:
            print("      " + line)


if __name__ == "__main__":
    main()
