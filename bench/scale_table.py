"""bench.scale's tables: each cost against size, its growth exponent, and extrapolations said as such.

A cost measured at 10^5, 10^6 and 10^7 triples says little until its growth is stated: the slope on log-log axes
between two sizes (1 is linear, 0 flat) is what the issue asks of every cost, and the values at 10^8 and 10^9
along the last slope are written with a `~` and a column title that says they are extrapolated, not measured.
"""

from __future__ import annotations

import math

EXTRAPOLATE_TO = (100_000_000, 1_000_000_000)


def exponent(a: float | None, b: float | None, size_a: int, size_b: int) -> float | None:
    """The slope of cost against size on log-log axes (1: linear, 0: flat); None where a cost is missing."""
    if not a or not b or a <= 0 or b <= 0 or size_a == size_b:
        return None
    return math.log(b / a) / math.log(size_b / size_a)


def extrapolate(value: float | None, slope: float | None, size: int, to: int) -> float | None:
    if value is None or slope is None:
        return None
    return value * (to / size) ** slope


def table(results: list, costs: tuple) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """(header, rows): one row per cost, one column per size, the exponent between each pair of sizes, and the
    values the last exponent gives at 10^8 and 10^9."""
    sizes = [r.triples for r in results]
    header = ("cost", *[f"{size_name(s)} triples" for s in sizes],
              *[f"exponent {size_name(a)}→{size_name(b)}" for a, b in zip(sizes, sizes[1:])],
              *[f"extrapolated to {size_name(t)}" for t in EXTRAPOLATE_TO])
    rows = []
    for name, what, unit in costs:
        values = [getattr(r, name) for r in results]
        slopes = [exponent(a, b, sa, sb) for a, b, sa, sb in zip(values, values[1:], sizes, sizes[1:])]
        last = slopes[-1] if slopes else None
        guesses = [extrapolate(values[-1], last, sizes[-1], t) for t in EXTRAPOLATE_TO]
        rows.append((what, *[_value(v, unit) for v in values], *[_slope(s) for s in slopes],
                     *[_value(g, unit, guess=True) for g in guesses]))
    return header, rows


def size_name(n: int) -> str:
    exp = math.log10(n) if n > 0 else 0
    return f"10^{round(exp)}" if abs(exp - round(exp)) < 0.05 else f"{n:,}"


def _value(v: float | None, unit: str, guess: bool = False) -> str:
    if v is None:
        return "—"
    text = f"{v:,.0f}" if abs(v) >= 100 else f"{v:.3g}"
    return f"~{text} {unit}" if guess else f"{text} {unit}"


def _slope(s: float | None) -> str:
    return "—" if s is None else f"{s:.2f}"


def markdown(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows])
