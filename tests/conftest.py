"""Shared fixtures: small real KGs built in-process, no network."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.config import ScoutConfig
from engine.kg import KnowledgeGraph

FIXTURES = Path(__file__).parent / "fixtures"


def read_table(name: str) -> list[tuple[str, str]]:
    """Rows of a tab-separated fixture table; '#' lines are comments."""
    rows = []
    for line in (FIXTURES / name).read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip("\n"):
            continue
        program, expected = line.split("\t")
        rows.append((program, expected))
    return rows


@pytest.fixture
def config(tmp_path: Path) -> ScoutConfig:
    return ScoutConfig(cache_dir=str(tmp_path / "cache"))


@pytest.fixture
def films(config: ScoutConfig) -> KnowledgeGraph:
    """The tiny bare-triples film KG, loaded into a real persisted pyoxigraph store."""
    kg = KnowledgeGraph.open(str(FIXTURES / "tiny_films.psv"), config)
    yield kg
    kg.close()
