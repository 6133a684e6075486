"""Append a dated, attributed section to BENCHMARKS.md; every bench script uses this."""

from __future__ import annotations

import datetime as dt
import os
import platform
import sys
from collections.abc import Sequence
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[1] / "BENCHMARKS.md"


def machine() -> str:
    import psutil

    cpu = platform.processor() or platform.machine()
    return f"{os.cpu_count()} CPU cores ({cpu}), {psutil.virtual_memory().total / 2**30:.0f} GiB RAM, Python {platform.python_version()}"


def append_section(title: str, rows: Sequence[tuple[str, ...]], notes: str = "",
                   header: Sequence[str] = ("what", "measured", "target")) -> str:
    """rows: (what, measured, target), or one cell per `header` column. Returns the markdown written."""
    command = " ".join(["python", *sys.orig_argv[1:]])
    lines = [
        f"## {title}",
        "",
        f"- date: {dt.datetime.now().strftime('%Y-%m-%d %H:%M')}",
        f"- machine: {machine()}",
        f"- command: `{command}`",
        "",
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
        *["| " + " | ".join(row) + " |" for row in rows],
        "",
    ]
    if notes:
        lines += [notes, ""]
    text = "\n".join(lines) + "\n"
    if not BENCHMARKS.exists():
        BENCHMARKS.write_text("# Benchmarks\n\nEach section is written by a script in `bench/`; newest last.\n\n")
    with BENCHMARKS.open("a", encoding="utf-8") as handle:
        handle.write(text)
    return text
