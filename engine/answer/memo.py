"""The answer memo: whole answers kept on disk, so a repeated question is answered in about a millisecond.

The key names everything an answer depends on: the reasoner's version, the KG fingerprint, the corpus'
content, the models, the settings that change reasoning, and the question. So a changed KG, a grown
corpus or a new setting can never be served an old answer. A broken entry reads as a miss.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from pathlib import Path

from engine.config import ScoutConfig

log = logging.getLogger(__name__)
SIZE_LIMIT = 256 * 1024 * 1024


class AnswerMemo:
    """A diskcache under `cache_dir/answers`, opened on first use; `enabled=False` keeps nothing."""

    def __init__(self, cache_dir: str | Path, enabled: bool = True):
        self.folder, self.enabled = Path(cache_dir) / "answers", enabled
        self._cache = None
        self._lock = threading.Lock()

    def get(self, key: str) -> object | None:
        cache = self._open()
        if cache is None:
            return None
        try:
            return cache.get(key)
        except Exception:  # noqa: BLE001 - a broken cache entry is recomputed
            return None

    def set(self, key: str, value: object) -> None:
        cache = self._open()
        if cache is None:
            return
        try:
            cache.set(key, value)
        except Exception:  # noqa: BLE001 - an answer that cannot be kept is still given
            log.warning("could not memoize an answer under %s", key[:12])

    def delete(self, key: str) -> None:
        cache = self._open()
        if cache is not None:
            cache.delete(key)

    def close(self) -> None:
        if self._cache is not None:
            self._cache.close()
            self._cache = None

    def _open(self):
        if not self.enabled:
            return None
        if self._cache is None:
            import diskcache

            with self._lock:
                if self._cache is None:
                    self._cache = diskcache.Cache(str(self.folder), size_limit=SIZE_LIMIT)
        return self._cache


def memo_key(version: int, kg: str, corpus: str, model: str, embedder: str, config: ScoutConfig, question: str) -> str:
    c = config
    parts = {
        "v": version,
        "kg": kg,
        "corpus": corpus,
        "model": model,
        "embedder": embedder,
        "settings": [c.exemplars, c.prune_k, c.beam, c.max_steps, c.max_relations, c.ic_alpha, c.repeat_penalty,
                     c.inverse_consistency, c.prune],
        "q": question,
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()
