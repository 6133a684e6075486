"""The benchmark's own plumbing: what --fresh-query-cache shares and what it starts afresh."""

from __future__ import annotations

from pathlib import Path

from bench.metaqa import fresh_query_cache
from engine.config import ScoutConfig


def test_a_fresh_query_cache_shares_all_but_the_memos(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    for name in ("stores", "models", "executions", "answers", "reasoner"):
        (cache / name).mkdir(parents=True)
        (cache / name / "f").write_text(name)
    (tmp_path / "fresh").mkdir()
    fresh = Path(fresh_query_cache(ScoutConfig(cache_dir=str(cache)), tmp_path / "fresh").cache_dir)
    assert fresh == tmp_path / "fresh"
    assert sorted(p.name for p in fresh.iterdir()) == ["models", "reasoner", "stores"]
    assert (fresh / "stores" / "f").read_text() == "stores"  # shared, not copied
    assert (fresh / "stores").resolve() == (cache / "stores").resolve()
