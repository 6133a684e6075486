"""Which dev questions a change can reach, read without a language model: for a machine too slow to rerun `bench.kgs`.

    python -m bench.touched --out before.jsonl          # from a tree without the change
    python -m bench.touched --out after.jsonl           # from a tree with it
    python -m bench.touched --compare before.jsonl after.jsonl [--reached reached.tsv]

Per question of `bench.kgs`' sample (the same seeds, the same tune / check halves), one digest of what the search
starts from: the question as read (linking, cues, the relations and classes its words name) and the first step's
candidate programs. None of it asks the language model, so a run costs seconds per KG once the KG's store, class
names and relation lexicon are cached (the first run builds them, as `bench.kgs` does).

A change whose digests equal the old ones on every question starts every search where it started before, so the
scored steps, and `bench.kgs`' answers, stay as they were wherever the later steps' rules are untouched too. That
is what it can show: "no dev question is reached", never "the reached ones still pass". A change that reaches
some must be judged by `bench.kgs` itself: `--compare BEFORE AFTER --reached R` writes the reached questions of
both halves to R, and `bench.kgs --only R --no-report`, run from each tree, answers them alone. The comparison
prints counts per KG and half, and the text of tune questions only: check rows are counted, never shown
(issue 27).
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Sequence

from engine.config import ScoutConfig
from engine.scout import Scout

from .kgs import CHECK, SPECS, TUNE, half, parse_args, sampled

DEFAULT_KGS = tuple(name for name, spec in SPECS.items() if spec.default)


def digest(reasoner, text: str) -> str:
    """What the search starts from, as one hash: the read question and the first step's programs, in order."""
    question = reasoner.read(text)
    first = reasoner.enumerator.first(question)
    shown = _read(question) + "\n" + "\n".join(str(c.program) for c in first)
    return hashlib.sha256(shown.encode("utf-8")).hexdigest()[:16]


def _read(question) -> str:
    """The question's fields, less those at their defaults: a field a change adds reaches only the questions it
    fills, so digests of a tree without the field compare with it."""
    return _fields(question)


def _fields(obj) -> str:
    """A dataclass's fields less those at their defaults, and so for the dataclasses inside them (a relation's
    `named.Spelling`): a field a change adds to one reaches only the questions it fills there too."""
    shown = []
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        default = f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default
        if value != default:
            shown.append(f"{f.name}={_shown(value)}")
    return ", ".join(shown)


def _shown(value) -> str:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return f"{type(value).__name__}({_fields(value)})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {_shown(v)}" for k, v in value.items()) + "}"
    return repr(value)


def fingerprint(kgs: Sequence[str], out: Path, per_kg: int | None) -> None:
    scout = Scout(ScoutConfig())
    bench = parse_args([] if per_kg is None else ["--per-kg", str(per_kg)])  # bench.kgs' defaults: its seeds
    with out.open("w", encoding="utf-8") as f:
        for name in kgs:
            spec = SPECS[name]
            session = scout.open(spec.kg, None)
            reasoner = session.reasoner()
            try:
                for q in sampled(spec, bench):
                    row = {"kg": name, "id": q.id, "half": half(q.id), "digest": digest(reasoner, q.question)}
                    f.write(json.dumps(row) + "\n")
            finally:
                reasoner.close()
            print(f"{name}: fingerprinted", flush=True)


def compare(before: Path, after: Path, reached: Path | None = None) -> None:
    """Counts of changed digests per KG and half; the tune questions' ids (their text is in the dev data).
    `reached`: where to write every reached question, both halves, as `kg<TAB>id` lines for `bench.kgs --only`,
    so the reached questions alone can be answered again by each tree; the file is written, never printed."""
    old = {(r["kg"], r["id"]): r for r in map(json.loads, before.read_text().splitlines())}
    new = {(r["kg"], r["id"]): r for r in map(json.loads, after.read_text().splitlines())}
    kgs = list(dict.fromkeys(kg for kg, _ in old))
    every: list[tuple[str, str]] = []
    for kg in kgs:
        keys = [k for k in old if k[0] == kg and k in new]
        changed = [k for k in keys if old[k]["digest"] != new[k]["digest"]]
        every += changed
        halves = {h: sum(1 for k in changed if old[k]["half"] == h) for h in (TUNE, CHECK)}
        totals = {h: sum(1 for k in keys if old[k]["half"] == h) for h in (TUNE, CHECK)}
        print(f"{kg}: tune {halves[TUNE]} of {totals[TUNE]} reached, check {halves[CHECK]} of {totals[CHECK]}")
        for k in changed:
            if old[k]["half"] == TUNE:
                print(f"  tune {k[1]}")
    if reached is not None:
        reached.write_text("".join(f"{kg}\t{qid}\n" for kg, qid in every), encoding="utf-8")
        print(f"{len(every)} reached questions written to {reached} (for bench.kgs --only)")


def main(argv: Sequence[str] | None = None) -> None:
    if os.environ.get("PYTHONHASHSEED") != "0":  # a frozenset's repr follows the string hash: one seed for every run
        os.execve(sys.executable, [sys.executable, "-m", "bench.touched", *sys.argv[1:]],
                  {**os.environ, "PYTHONHASHSEED": "0"})
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", type=Path, help="write one digest per sampled question here")
    p.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    p.add_argument("--reached", type=Path, help="with --compare: write the reached questions (both halves) here")
    p.add_argument("--kgs", nargs="+", choices=list(SPECS), default=list(DEFAULT_KGS))
    p.add_argument("--per-kg", type=int, default=None, help="as bench.kgs (default: its full sample)")
    a = p.parse_args(argv)
    if a.compare:
        compare(*a.compare, reached=a.reached)
    elif a.out:
        fingerprint(a.kgs, a.out, a.per_kg)
    else:
        p.error("give --out FILE or --compare BEFORE AFTER")


if __name__ == "__main__":
    main()
