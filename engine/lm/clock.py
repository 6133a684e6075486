"""Where the language model's time goes, stage by stage.

The bootstrap's throughput is decided by a handful of stages (building prompts, running the prompt
through the model, decoding beams, scoring inverse consistency). A benchmark cannot improve what it
cannot see, so the LLM and the question generator add their seconds here and `bench.bootstrap`
prints the table. Adding to a dict under the GIL is cheap enough to leave on everywhere.
"""

from __future__ import annotations

import time
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterator


@dataclass
class StageClock:
    seconds: Counter = field(default_factory=Counter)  # stage -> seconds
    tokens: Counter = field(default_factory=Counter)  # stage -> token positions run through the model

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            self.add(name, time.perf_counter() - started)

    def add(self, name: str, seconds: float, tokens: int = 0) -> None:
        self.seconds[name] += seconds
        self.tokens[name] += tokens

    def snapshot(self) -> "StageClock":
        return StageClock(Counter(self.seconds), Counter(self.tokens))

    def since(self, earlier: "StageClock") -> "StageClock":
        """What was added after `earlier` (a snapshot): one run's share of a long-lived LLM's clock."""
        return StageClock(self.seconds - earlier.seconds, self.tokens - earlier.tokens)
