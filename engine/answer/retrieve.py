"""Exemplars: the corpus questions nearest to the one asked (method.md step 3, "retrieve").

Questions are compared anonymised (entities replaced by their class), so "who directed Alien" finds
"who directed <film>" whatever film the corpus walked to. The nearest `k` are taken, at most one per
program pattern so that the prompt shows different shapes, nearest last (next to the question).

The corpus matrix is embedded once per index and kept on disk, keyed by the corpus' content; records
added later (written by a running bootstrap, or answers a user marked correct) are embedded alone and
appended, and stand-ins replaced by them are dropped, so the index grows without being re-embedded.
"""

from __future__ import annotations

import hashlib
import re
import threading
from pathlib import Path
from typing import Iterable, Protocol, Sequence

import numpy as np

from engine.bootstrap.corpus import CorpusRecord


class TextEmbedder(Protocol):
    """What retrieval and pruning need from a sentence embedder (engine.lm.embedder.Embedder provides it)."""

    name: str

    def encode(self, texts: list[str]) -> np.ndarray: ...


class ExemplarIndex:
    """The corpus' anonymised questions as unit vectors; thread-safe for concurrent readers and `add`."""

    def __init__(self, records: Sequence[CorpusRecord], embedder: TextEmbedder, cache_dir: str | Path):
        self.embedder = embedder
        self.records = list(records)
        self.corpus_id = corpus_digest(self.records)
        self._lock = threading.Lock()
        self._matrix = self._embed_all(Path(cache_dir))

    def nearest(self, anonymised: str, k: int) -> list[CorpusRecord]:
        """The nearest corpus records, at most one per pattern, nearest LAST (next to the question)."""
        with self._lock:
            records, matrix = self.records, self._matrix
        if not records or k <= 0:
            return []
        query = self.embedder.encode([anonymised])[0]
        sims = matrix @ query
        chosen: list[CorpusRecord] = []
        patterns: set[str] = set()
        for i in np.argsort(-sims, kind="stable"):
            record = records[int(i)]
            if record.pattern in patterns:
                continue
            patterns.add(record.pattern)
            chosen.append(record)
            if len(chosen) >= k:
                break
        return chosen[::-1]

    def add(self, records: Sequence[CorpusRecord]) -> None:
        """Embed new records alone and append them; the rest of the matrix is kept as is."""
        records = list(records)
        if not records:
            return
        vectors = np.asarray(self.embedder.encode([_text(r) for r in records]), dtype=np.float32)
        with self._lock:
            self._matrix = vectors if not self.records else np.vstack([self._matrix, vectors])
            self.records = self.records + records
            self.corpus_id = corpus_digest(self.records)

    def drop(self, source: str, programs: set[str]) -> None:
        """Remove the records of `source` whose program is in `programs` (stand-ins replaced by real ones)."""
        with self._lock:
            keep = [i for i, r in enumerate(self.records) if not (r.source == source and r.program in programs)]
            if len(keep) == len(self.records):
                return
            self._matrix = self._matrix[keep] if keep else np.zeros((0, self._matrix.shape[1]), dtype=np.float32)
            self.records = [self.records[i] for i in keep]
            self.corpus_id = corpus_digest(self.records)

    def remove(self, record: CorpusRecord) -> bool:
        """Remove the last record equal to `record` (a user's undone "mark as correct"); whether it was there."""
        with self._lock:
            found = [i for i, r in enumerate(self.records) if r == record]
            if not found:
                return False
            keep = [i for i in range(len(self.records)) if i != found[-1]]
            self._matrix = self._matrix[keep] if keep else np.zeros((0, self._matrix.shape[1]), dtype=np.float32)
            self.records = [self.records[i] for i in keep]
            self.corpus_id = corpus_digest(self.records)
            return True

    def _embed_all(self, cache_dir: Path) -> np.ndarray:
        texts = [_text(r) for r in self.records]
        if not texts:
            return np.zeros((0, 1), dtype=np.float32)
        path = cache_dir / "reasoner" / (
            f"corpus-{self.corpus_id[:24]}-{_slug(getattr(self.embedder, 'name', 'embedder'))}.npy"
        )
        try:
            if path.is_file():
                matrix = np.load(path)
                if matrix.shape[0] == len(texts):
                    return matrix
        except (OSError, ValueError):
            pass
        matrix = np.asarray(self.embedder.encode(texts), dtype=np.float32)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".tmp{threading.get_ident()}.npy")
            np.save(tmp, matrix)
            tmp.replace(path)
        except OSError:
            pass
        return matrix


def corpus_digest(records: Iterable[CorpusRecord]) -> str:
    """Names a corpus by its content: part of the answer memo's key and of the matrix file's name."""
    h = hashlib.sha256()
    n = 0
    for r in records:
        h.update(f"{r.program}\x00{r.question}\x00{r.anonymised_question}\x00{r.pattern}\n".encode())
        n += 1
    return f"{n}-{h.hexdigest()}"


def _text(record: CorpusRecord) -> str:
    return record.anonymised_question or record.question


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", text)[-40:].strip("_") or "x"
