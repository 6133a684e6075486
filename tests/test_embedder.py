"""engine.lm.embedder: the packaged MiniLM loads offline and gives sensible similarities."""

from __future__ import annotations

import socket
import threading

import numpy as np
import pytest

from engine.lm.embedder import Embedder, EmbedderError, packaged_model_dir


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    # no network: any connection attempt during loading fails the test
    real_connect = socket.socket.connect

    def refuse(self, address):  # noqa: ANN001
        raise AssertionError(f"the embedder tried to connect to {address}")

    socket.socket.connect = refuse
    try:
        return Embedder.load()
    finally:
        socket.socket.connect = real_connect


def test_packaged_model_dir() -> None:
    path = packaged_model_dir("all-MiniLM-L6-v2")
    assert path is not None and (path / "modules.json").is_file()
    assert packaged_model_dir("sentence-transformers/all-MiniLM-L6-v2") == path
    assert packaged_model_dir("/some/other/model") is None


def test_encode_gives_normalised_float32_rows(embedder: Embedder) -> None:
    vectors = embedder.encode(["which films did ridley scott direct", "what is the capital of france", ""])
    assert vectors.dtype == np.float32
    assert vectors.shape == (3, embedder.dim) == (3, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert embedder.encode([]).shape == (0, 384)


def test_memo_returns_the_same_vectors(embedder: Embedder) -> None:
    a = embedder.encode(["who directed movie", "who wrote movie"])
    b = embedder.encode(["who wrote movie", "who directed movie", "who directed movie"])
    assert np.array_equal(a[0], b[1]) and np.array_equal(a[1], b[0]) and np.array_equal(b[1], b[2])
    b[0, 0] = 42.0  # callers get copies
    assert embedder.encode(["who wrote movie"])[0, 0] != 42.0


def test_similar_sentences_score_higher(embedder: Embedder) -> None:
    scores = embedder.similarity(
        "which movies did person direct",
        ["what films were directed by person", "what is the population of City", "the cat sat on the mat"],
    )
    assert scores.shape == (3,)
    assert scores[0] > 0.6
    assert scores[0] > scores[1] + 0.2 and scores[0] > scores[2] + 0.2
    assert embedder.similarity("anything", []).shape == (0,)


def test_encode_is_thread_safe(embedder: Embedder) -> None:
    texts = [f"question number {i}" for i in range(40)]
    expected = embedder.encode(texts)
    results: list[np.ndarray] = []

    def work() -> None:
        results.append(embedder.encode(texts[::-1]))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(np.allclose(r, expected[::-1], atol=1e-6) for r in results)


def test_unknown_model_is_a_clear_error(tmp_path) -> None:
    with pytest.raises(EmbedderError):
        Embedder.load(str(tmp_path / "no-such-model-dir-and-no-hub"))
