"""`python -m bench.scale --keep DIR --remeasure`: what follows the label index, measured again over a kept size.

At 10^7 triples one size takes about half an hour, schema induction 11-16 minutes of it and the label index build
3-4 (BENCHMARKS.md, "Scale"). A figure taken while other jobs shared the two cores (the first 10^7 run's warm
`ask`: 50 s, where a quiet one-off script gave 4.4 s) is measured again here by bench.scale's own code, over the
store, schema and label index that run kept, so that only linking, the index's opening, exploration and `ask`
are repeated. The load, schema and label build figures stay the first run's; `remeasured_at` says which are new.

What the first run left besides (the execution cache, the corpus, the class names, the answer memo) is removed
first, so that exploration and `ask` start as cold as they did then. A kept store, schema or label index that
this code would not use as it is (a version bump since) stops the run: building it again here would be timed as
opening it.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import time
from pathlib import Path

from bench.scale import SizeResult, _ask, _exploration, _linking, peak_rss_mb, scale_config, stamp

KEPT = ("stores", "schemas", "labels", "models")  # what the first run built (models: a link to the shared ones)


def remeasure(path: Path, cache_dir: Path, result_file: Path, ask: bool, model: str, explore_s: float,
              seed: int = 0) -> SizeResult:
    """The kept result of `path`, with linking, the label index's opening, exploration and `ask` measured again."""
    from engine.answer.labels import cache_name
    from engine.answer.linker import LabelIndex
    from kg_adapters.oxigraph_store import OxigraphStore
    from kg_adapters.schema import SCHEMA_VERSION, cached_schema, schema_file

    loaded = os.getloadavg()[0]
    before = SizeResult(**json.loads(result_file.read_text()))
    for child in cache_dir.iterdir():
        if child.name not in KEPT:
            shutil.rmtree(child) if child.is_dir() and not child.is_symlink() else child.unlink()
    config = scale_config(cache_dir, model)
    stores = _listing(cache_dir / "stores")
    store = OxigraphStore.from_file(path, cache_root=cache_dir, max_bytes=config.max_upload_bytes,
                                    max_triples=config.max_triples, timeout_s=config.query_timeout_s)
    _kept("store", stores == _listing(cache_dir / "stores"))
    induced = schema_file(cache_dir, store.info.fingerprint, f"v{SCHEMA_VERSION}")
    _kept("schema", induced.is_file())
    for other in induced.parent.iterdir():  # class names, lexicon, edits, an endpoint's copy: made after induction
        if other != induced:
            other.unlink()
    schema = cached_schema(store, cache_dir)
    _kept("label index", any(p.name.startswith(cache_name(store, schema)) for p in (cache_dir / "labels").iterdir()))
    started = time.perf_counter()
    index = LabelIndex.build(store, schema, cache_dir)
    open_ms = (time.perf_counter() - started) * 1000
    link = _linking(index, path, seed)
    rate, programs = _exploration(store, config, explore_s, seed)
    store.close()
    asked = _ask(path, config, cache_dir, programs, seed) if ask else (None, None, None)
    return dataclasses.replace(
        before, labels_open_ms=open_ms, link_median_ms=link[0], link_p90_ms=link[1], explore_programs_per_s=rate,
        ask_cold_s=asked[0], ask_warm_s=asked[1], ask_cached_s=asked[2],
        peak_rss_mb=max(before.peak_rss_mb, peak_rss_mb()), remeasured_at=stamp(loaded))


def _listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


def _kept(what: str, found: bool) -> None:
    if not found:
        raise SystemExit(f"--remeasure: the kept {what} is not the one this code uses; measure the size in full")
