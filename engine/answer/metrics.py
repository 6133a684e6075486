"""Answer metrics: F1, Hits@1 and exact match over answer label sets.

Labels are compared case-folded with whitespace collapsed; anything that reads as a number is compared
as a number ("5", "5.0" and "+5" are one answer; "1982" equals "1982.0"), and a truth value as one: the app
answers a yes/no question "yes" or "no", which a gold set may write "true" or "false". Sets follow the KBQA
convention (GrailQA, MetaQA): F1 between the predicted and gold sets, exact match when they are equal,
Hits@1 when the first predicted answer is a gold one. An empty gold set is matched only by an empty
prediction.
"""

from __future__ import annotations

import math
import re
import statistics
from dataclasses import dataclass
from typing import Iterable, Sequence

from engine.programs.sexpr import parse

_SPACE = re.compile(r"\s+")
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")
_TRUTH = {"true": "yes", "false": "no"}


def labels(result) -> tuple[str, ...]:
    """Answer labels of a QuestionResult or an Execution; a count is one answer."""
    return (str(result.count),) if result.count is not None else tuple(a.label for a in result.answers)


def executed_labels(executor, program: str | None) -> tuple[str, ...] | None:
    """The program's answers on the KG (memoized by the executor); None when it does not run."""
    if program is None:
        return None
    try:
        return labels(executor.execute(parse(program)))
    except Exception:  # noqa: BLE001 - a gold or finalist program that fails to run is evidence, not a crash
        return None


def normalise(label: str) -> str:
    text = _SPACE.sub(" ", str(label)).strip().casefold()
    if _NUMBER.fullmatch(text):
        value = float(text)
        if math.isfinite(value):
            return str(int(value)) if value == int(value) and abs(value) < 1e15 else repr(value)
    return _TRUTH.get(text, text)


def answer_set(labels: Iterable[str]) -> frozenset[str]:
    return frozenset(normalise(label) for label in labels)


@dataclass(frozen=True)
class Scores:
    f1: float
    hits1: float
    em: float
    precision: float
    recall: float


def score(predicted: Sequence[str], gold: Iterable[str]) -> Scores:
    """Scores of one prediction (answer labels in the system's order) against the gold labels."""
    pred, truth = answer_set(predicted), answer_set(gold)
    if not truth:
        ok = float(not pred)
        return Scores(ok, ok, ok, ok, ok)
    hits1 = float(bool(predicted) and normalise(predicted[0]) in truth)
    if not pred:
        return Scores(0.0, 0.0, 0.0, 0.0, 0.0)
    common = len(pred & truth)
    precision, recall = common / len(pred), common / len(truth)
    f1 = 0.0 if common == 0 else 2 * precision * recall / (precision + recall)
    return Scores(f1, hits1, float(pred == truth), precision, recall)


def f1(predicted: Sequence[str], gold: Iterable[str]) -> float:
    return score(predicted, gold).f1


def hits_at_1(predicted: Sequence[str], gold: Iterable[str]) -> float:
    return score(predicted, gold).hits1


def exact_match(predicted: Sequence[str], gold: Iterable[str]) -> float:
    return score(predicted, gold).em


def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile (q in [0, 100]); 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    if len(ordered) == 1:
        return float(ordered[0])
    pos = (len(ordered) - 1) * q / 100
    low, high = math.floor(pos), math.ceil(pos)
    return float(ordered[low] + (ordered[high] - ordered[low]) * (pos - low))


def summary(scores: Sequence[Scores], latencies_s: Sequence[float]) -> dict:
    """Means over questions (fractions in [0, 1]) and latency percentiles."""
    n = len(scores)
    mean = (lambda xs: sum(xs) / n) if n else (lambda xs: 0.0)
    return {
        "n": n,
        "f1": round(mean([s.f1 for s in scores]), 4),
        "hits1": round(mean([s.hits1 for s in scores]), 4),
        "em": round(mean([s.em for s in scores]), 4),
        "median_latency_s": round(statistics.median(latencies_s), 3) if latencies_s else 0.0,
        "p90_latency_s": round(percentile(latencies_s, 90), 3),
    }
