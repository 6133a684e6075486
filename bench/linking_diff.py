"""Does a change to the label index link every benchmark question as before? Two runs, then a count.

    PYTHONPATH=<old checkout> python -m bench.linking_diff dump --out /tmp/old.jsonl
    PYTHONPATH=<new checkout> python -m bench.linking_diff dump --out /tmp/new.jsonl
    python -m bench.linking_diff compare /tmp/old.jsonl /tmp/new.jsonl

`dump` opens every KG of the accuracy benchmark (bench.kgs.SPECS, the operator sets too) as the app does, builds
its label index with whatever `engine` is importable, and writes, for EVERY question of the KG (not only the
benchmark's sample), what `LabelIndex.link` found: each mention's span and candidates (kind, label, IRI, score,
classes), plus `lookup` of each bracketed topic and `closest` for every 10th question. `compare` counts, per KG,
the questions whose linking differs, and prints counts and ids only: the questions themselves stay in the
dumps, which belong in a scratch folder and never in the repository.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path


def _candidates(cands) -> list:
    return [[c.kind, c.label, c.iri, round(c.score, 4), list(c.classes)] for c in cands]


def dump(out: Path, kgs: list[str] | None, embedder: bool) -> None:
    from bench.kgs import SPECS
    from engine.answer.linker import LabelIndex
    from engine.config import ScoutConfig
    from engine.programs.kg import KnowledgeGraph

    config = ScoutConfig()
    model = None
    if embedder:
        from engine.lm.embedder import Embedder

        model = Embedder.load(config.embedder)
    with out.open("w") as fh:
        for name, spec in SPECS.items():
            if kgs and name not in kgs:
                continue
            kg = KnowledgeGraph.open(spec.kg, config)
            started = time.perf_counter()
            index = LabelIndex.build(kg.store, kg.schema, config.cache_dir, model)
            built = time.perf_counter() - started
            questions = spec.load()
            started = time.perf_counter()
            for n, q in enumerate(questions):
                linking = index.link(q.question)
                row = {"kg": name, "id": q.id, "classes": list(linking.classes),
                       "mentions": [[m.text, m.start, m.end, m.bracketed, _candidates(m.candidates)]
                                    for m in linking.mentions],
                       "lookup": [_candidates(index.lookup(t)) for t in re.findall(r"\[([^\[\]]+)\]", q.question)]}
                if n % 10 == 0:
                    row["closest"] = index.closest(q.question, 5)
                fh.write(json.dumps(row) + "\n")
            print(f"{name}: {len(questions)} questions, index {built:.1f} s, "
                  f"linking {time.perf_counter() - started:.1f} s", file=sys.stderr, flush=True)


def compare(old: Path, new: Path) -> int:
    def rows(path: Path) -> dict:
        return {(r["kg"], r["id"]): r for r in map(json.loads, path.open())}

    a, b = rows(old), rows(new)
    total, differ, closest = Counter(), Counter(), Counter()
    ids: dict[str, list[str]] = {}
    for key in sorted(set(a) | set(b)):
        kg = key[0]
        total[kg] += 1
        ra, rb = a.get(key), b.get(key)
        if ra is None or rb is None or any(ra[f] != rb[f] for f in ("classes", "mentions", "lookup")):
            differ[kg] += 1
            ids.setdefault(kg, []).append(key[1])
        if ra and rb and ra.get("closest") != rb.get("closest"):
            closest[kg] += 1
    for kg in total:
        print(f"{kg}: {total[kg]} questions, {differ[kg]} linked differently, {closest[kg]} 'closest' differ"
              + (f" (ids: {', '.join(ids[kg][:20])})" if kg in ids else ""))
    print(f"all: {sum(total.values())} questions, {sum(differ.values())} linked differently, "
          f"{sum(closest.values())} 'closest' differ")
    return sum(differ.values())


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m bench.linking_diff", description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    d = sub.add_parser("dump")
    d.add_argument("--out", type=Path, required=True)
    d.add_argument("--kgs", nargs="*")
    d.add_argument("--no-embedder", action="store_true", help="no schema synonyms (no embedding model loaded)")
    c = sub.add_parser("compare")
    c.add_argument("old", type=Path)
    c.add_argument("new", type=Path)
    a = p.parse_args(argv)
    if a.command == "dump":
        dump(a.out, a.kgs, not a.no_embedder)
    else:
        sys.exit(1 if compare(a.old, a.new) else 0)


if __name__ == "__main__":
    main()
