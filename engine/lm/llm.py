"""The language model, as the engine uses it: score continuations, build a chat prompt; beams come from
`engine.lm.generate`, mixed in.

Scoring is the hot path. The reasoner scores many small batches of candidates after one long prompt
(instructions + exemplars + question), so `score()` runs the prefix once, keeps its KV cache in a small LRU
keyed by the prefix string, and runs each batch of continuations, packed into one sequence, on top of a copy
of that cache.
`score_plain()` is the reference it must agree with: each prefix + continuation as its own forward pass.

Tokenisation: the prefix and each continuation are tokenised separately and their ids concatenated, in both
paths. So the prefix tokens are identical whatever follows, which is what lets one KV cache serve every
continuation, and the two paths see exactly the same ids at the same positions. Tokens may therefore differ
from tokenising prefix + continuation as one string at the seam; put the separating space at the start of
the continuation (" Paris"), where BPE vocabularies expect it.

One LLM is shared by all sessions of the app. Its caches (the prefix LRU, the kept heads) sit behind a lock;
forward passes run on private copies of a cached prefix and take turns, first come first served, with every
other model pass in the process (engine.lm.compute), so each runs on all of torch's threads and a bootstrap's
long beam search in one session holds up a chat question in another for one pass at most.
"""

from __future__ import annotations

import copy
import threading
import warnings
from collections import OrderedDict
from dataclasses import dataclass
from typing import Sequence

import torch

from . import compute
from .clock import StageClock
from .generate import Beam, BeamGeneration
from .models import DEFAULT_MODEL, load_model
from .shared_prefix import shared_prefix_cache

# transformers 5.24 renamed the forward argument `past_key_values` to `cache` and says so with a FutureWarning per
# model class and call site (42 lines at an app's first start: the lexicon's and namer's prompts, then the
# reasoner). requirements.txt allows transformers from 5.0, which knows only `past_key_values`, so the engine keeps
# that name and hides exactly this message; every other warning still shows.
warnings.filterwarnings("ignore", message=r"`past_key_values` is deprecated and will be removed",
                        category=FutureWarning)

__all__ = ["Beam", "LLM", "LLMConfig"]

MAX_HEADS = 8  # kept prefix heads (one or two per open KG)
# Rows of the vocabulary head computed at once when scoring. A batch of 16 programs' readings is some 500 scored
# tokens: their logits were 500 x 151,936 floats, ~300 MB at a time (with the bf16 copy and the log-sum-exp, more),
# allocated and freed per batch. The numbers are the same to the bit at any chunk (Qwen2.5-Coder-0.5B, bf16, chunks
# of 64/128/256 against all 700 rows at once, session 24; 16/32/64/128, session 27). With two chat passes side by
# side (engine.lm.compute) a chunk's floats are in flight twice. One pass of 16 continuations after a 500-token
# prefix added a peak of +216-229 MiB of RSS with 128 rows, +149-169 with 64, +142-161 with 32 and +108 with 16, at
# 0.90-0.93 s a pass for 32 to 128 rows and 1.01-1.02 s for 16 (`python -m bench.head_rows`, five runs in four
# orders, session 27).
HEAD_ROWS = 32


@dataclass(frozen=True)
class LLMConfig:
    name: str = DEFAULT_MODEL  # a registered name (engine.lm.models.REGISTRY), a local model directory or a hub id
    cache_dir: str | None = None  # where registered models are assembled and converted (~/.cache/kgscout/models)
    device: str | None = None  # None: cuda if available, else cpu
    dtype: str | None = None  # "bfloat16" | "float32" | None (bfloat16)
    max_batch: int = 16  # continuations per forward pass in score()
    # Prefixes whose KV cache is kept (past a kept head, so a few hundred tokens each: 32 held 130 MiB). 8 thrashed
    # under chat load: 4 questions reasoned at once each score after two prompts (forward, inverse) at every step,
    # so a prompt was often evicted and encoded again. `python -m bench.load_memory --sessions 8 --questions 32`
    # (in process, no bootstrap, session 24, alone): 14.54 and 13.93 answers a minute with 8, p95 57-66 s; 16.00
    # with 32, p95 39.1 s, the same programs; one session alone 16.60.
    prefix_cache_size: int = 32
    num_threads: int | None = None  # torch.set_num_threads, only when given


class LLM(BeamGeneration):
    def __init__(self, model, tokenizer, config: LLMConfig = LLMConfig()):
        self.model = model.eval()
        self.tokenizer = tokenizer
        self.config = config
        self.device = model.device
        self.pad_id = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0  # only at masked slots
        self._lock = threading.RLock()
        self._prefixes: OrderedDict[str, tuple] = OrderedDict()  # prefix -> (n_tokens, KV cache, logp of next)
        self._heads: dict[str, tuple] = {}  # kept prefix heads (keep_prefix), same tuples
        self._newline_ids: list[int] | None = None
        self.clock = StageClock()  # seconds per stage, for benchmarks (engine.lm.clock)

    @classmethod
    def load(cls, name_or_path: str = DEFAULT_MODEL, cache_dir: str | None = None, **overrides) -> "LLM":
        """`overrides`: any other LLMConfig field (device, dtype, max_batch, ...)."""
        return cls.from_config(LLMConfig(name=name_or_path, cache_dir=cache_dir, **overrides))

    @classmethod
    def from_config(cls, config: LLMConfig) -> "LLM":
        if config.num_threads:
            torch.set_num_threads(config.num_threads)
            compute.turn().cores = config.num_threads  # each pass sets its own thread's count (compute.Turns)
        dtype = getattr(torch, config.dtype) if config.dtype else None
        model, tokenizer = load_model(config.name, config.cache_dir, device=config.device, dtype=dtype)
        return cls(model, tokenizer, config)

    # ------------------------------------------------------------------------------------------ tokens

    def encode_prefix(self, text: str) -> list[int]:
        """The tokenizer's own start-of-text convention (a BOS where it adds one); never empty."""
        ids = self.tokenizer(text).input_ids
        if not ids:  # something must predict the first continuation token
            start = self.tokenizer.bos_token_id
            ids = [start if start is not None else self.tokenizer.eos_token_id]
        return ids

    def encode_continuation(self, text: str) -> list[int]:
        ids = self.tokenizer(text, add_special_tokens=False).input_ids
        if not ids:
            raise ValueError(f"empty continuation {text!r}: nothing to score")
        return ids

    def chat_prompt(
        self, system: str, user: str, assistant_prefix: str = "", history: Sequence[tuple[str, str]] = ()
    ) -> str:
        """The model's chat template up to the assistant's turn, plus `assistant_prefix` to continue from.

        `history` holds earlier (user, assistant) turns: few-shot examples as real turns are
        copied far less by small models than examples pasted into one message.
        """
        messages = [{"role": "system", "content": system}] if system else []
        for asked, answered in history:
            messages += [{"role": "user", "content": asked}, {"role": "assistant", "content": answered}]
        messages.append({"role": "user", "content": user})
        if self.tokenizer.chat_template:
            text = self.tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        else:  # a base model: plain text
            text = "".join(m["content"] + "\n\n" for m in messages)
        return text + assistant_prefix

    # ----------------------------------------------------------------------------------------- scoring

    def _forward(self, ids, **kwargs):
        return self.model(input_ids=ids.to(self.device), **kwargs)

    def _hidden(self, ids, **kwargs):
        """The decoder alone: hidden states without the vocabulary head, which a caller applies
        (`_head`) only where it needs a next-token distribution. For a 0.5B Qwen the head is
        136M of the 494M parameters, so running it at every prompt position wastes most of a pass."""
        return self.model.get_decoder()(input_ids=ids.to(self.device), **kwargs)

    def _head(self, hidden):
        return self.model.get_output_embeddings()(hidden)

    def keep_prefix(self, head: str) -> None:
        """Encode `head` once and keep it (outside the LRU): any later prefix that starts with it,
        up to a newline, is encoded from there on. The reasoner's instructions and schema are the
        same for every question, so each question pays only for its exemplars and its own words."""
        with self._lock:
            if head in self._heads:
                return
        state = self._encode_state(head, None)  # unlocked: it waits for its turn (engine.lm.compute)
        with self._lock:
            if head not in self._heads:
                if len(self._heads) >= MAX_HEADS:
                    self._heads.pop(next(iter(self._heads)))  # the oldest
                self._heads[head] = state

    def _prefix_state(self, prefix: str) -> tuple:
        """(P, KV cache of the prefix for batch 1, log-probs of the token after it (V,)), from the LRU.

        The caches are locked only to look up and to store, never while a pass waits for its turn: a paused
        bootstrap must not hold a lock a chat question needs (engine.lm.compute). Two threads that miss the
        same prefix at once both encode it; the states are equal. Callers must never change the returned cache
        (they extend deep copies of it): other threads may be reading it at the same time."""
        with self._lock:
            state = self._prefixes.get(prefix)
            if state is not None:
                self._prefixes.move_to_end(prefix)
                return state
            head = max((h for h in self._heads if prefix.startswith(h) and h.endswith("\n") and h != prefix),
                       key=len, default=None)
            start = (head, self._heads[head]) if head is not None else None
        state = self._encode_state(prefix, start)
        with self._lock:
            self._prefixes[prefix] = state
            self._prefixes.move_to_end(prefix)
            while len(self._prefixes) > self.config.prefix_cache_size:
                self._prefixes.popitem(last=False)
        return state

    def _encode_state(self, prefix: str, start: tuple[str, tuple] | None) -> tuple:
        """Run the prefix (from a kept head's KV cache, `start` = (head, its state), where given) and keep
        what scoring needs."""
        with torch.inference_mode(), compute.turn():
            return self._run_prefix(prefix, start)

    def _run_prefix(self, prefix: str, start: tuple[str, tuple] | None) -> tuple:
        if start is None:
            ids = torch.tensor([self.encode_prefix(prefix)])  # (1, P)
            out = self._hidden(ids, use_cache=True)
            P0 = 0
        else:
            head, (P0, head_cache, _) = start
            cache = copy.deepcopy(head_cache)  # extended below; the kept head stays as it is
            ids = torch.tensor([self.encode_continuation(prefix[len(head):])])  # (1, T)
            out = self._hidden(ids, past_key_values=cache, use_cache=True,
                               position_ids=torch.arange(P0, P0 + ids.shape[1])[None].to(self.device))
        next_logp = self._head(out.last_hidden_state[0, -1]).float().log_softmax(-1)  # (V,)
        return (P0 + ids.shape[1], out.past_key_values, next_logp)

    def score(self, prefix: str, continuations: list[str]) -> list[float]:
        """Mean per-token log P(continuation | prefix) for each continuation, reusing the prefix's KV cache."""
        conts = [self.encode_continuation(c) for c in continuations]
        return self._score(prefix, conts, [0] * len(conts))

    def score_targets(self, prefix: str, pairs: list[tuple[str, str]]) -> list[float]:
        """Mean per-token log P(target | prefix + middle) for (middle, target) pairs.

        Inverse consistency needs log P(program | question): the question differs per
        candidate, so it is the middle, and only the program's tokens are counted.
        """
        conts, starts = [], []
        for middle, target in pairs:
            head = self.tokenizer(middle, add_special_tokens=False).input_ids
            conts.append(head + self.encode_continuation(target))
            starts.append(len(head))
        return self._score(prefix, conts, starts)

    def _score(self, prefix: str, conts: list[list[int]], starts: list[int]) -> list[float]:
        """Mean log-prob of conts[i][starts[i]:] given prefix + conts[i][:starts[i]].

        Up to `max_batch` continuations run as one packed sequence after the prefix's cache: each attends to
        the prefix and to its own earlier tokens only (a block-diagonal causal mask) and counts its positions
        from the prefix's end, so each sees what it would see alone. Packing beats a padded batch on a CPU by
        about 40%: a batch attends to B copies of the prefix cache (0.82 s against 1.45 s for 10 continuations
        of 20 tokens after 1,495 prefix tokens; session 16, 2 cores, bf16)."""
        P, prefix_cache, next_logp = self._prefix_state(prefix)
        scores: list[float] = []
        with torch.inference_mode():
            for i in range(0, len(conts), self.config.max_batch):
                batch, batch_starts = conts[i : i + self.config.max_batch], starts[i : i + self.config.max_batch]
                ids = torch.tensor([[t for c in batch for t in c]])  # (1, N)
                positions = torch.tensor([[P + t for c in batch for t in range(len(c))]])  # (1, N)
                with compute.turn():
                    cache = shared_prefix_cache(prefix_cache)  # appended to; the LRU's stays intact, uncopied
                    hidden = self._hidden(
                        ids,
                        attention_mask=self._packed_mask(P, batch),
                        position_ids=positions.to(self.device),
                        past_key_values=cache,
                        use_cache=True,
                    ).last_hidden_state[0]  # (N, H)
                    scores += self._target_logprobs(hidden, next_logp, batch, batch_starts)
                self.clock.add("score", 0.0, ids.shape[1])  # positions only: the caller times its own stage
        return scores

    def _packed_mask(self, P: int, batch: list[list[int]]):
        """(1, 1, N, P + N) additive mask: every packed token sees the prefix and the earlier tokens of its own
        continuation, nothing of the others."""
        segment = torch.tensor([b for b, c in enumerate(batch) for _ in c])  # (N,)
        N = len(segment)
        allowed = torch.ones((N, P + N), dtype=torch.bool)
        allowed[:, P:] = torch.tril(torch.ones((N, N), dtype=torch.bool)) & (segment[:, None] == segment[None, :])
        dtype = self.model.dtype
        mask = torch.zeros((N, P + N), dtype=dtype).masked_fill(~allowed, torch.finfo(dtype).min)
        return mask[None, None].to(self.device)

    def _target_logprobs(self, hidden, next_logp, batch: list[list[int]], starts: list[int]) -> list[float]:
        """Mean log-prob of batch[b][starts[b]:], from the packed hidden states of the batch (N, H).

        The vocabulary head (151k rows for Qwen) costs more than the rest of a short
        continuation's forward pass, so it runs only at the positions that predict a scored
        token, never at the middle.
        """
        rows, targets, owner = [], [], []
        means = [0.0] * len(batch)
        firsts = []  # scored first tokens: predicted by the prefix's last position, already known
        offset = 0
        for b, (c, start) in enumerate(zip(batch, starts)):
            if start == 0:
                firsts.append((b, c[0]))
            for t in range(max(start, 1), len(c)):  # token t is predicted by position t - 1
                rows.append(offset + t - 1)
                targets.append(c[t])
                owner.append(b)
            offset += len(c)
        for i in range(0, len(rows), HEAD_ROWS):  # a few rows at a time: the head's (R, V) floats are big
            logits = self._head(hidden[torch.tensor(rows[i : i + HEAD_ROWS])]).float()  # (<= HEAD_ROWS, V)
            chosen = torch.tensor(targets[i : i + HEAD_ROWS], device=logits.device)[:, None]
            logp = (logits.gather(-1, chosen).squeeze(-1) - logits.logsumexp(-1)).tolist()
            for b, value in zip(owner[i : i + HEAD_ROWS], logp):
                means[b] += value
        for b, token in firsts:
            means[b] += float(next_logp[token])
        return [total / (len(c) - start) for total, c, start in zip(means, batch, starts)]

    def score_plain(self, prefix: str, continuations: list[str]) -> list[float]:
        """Reference for `score`: each prefix + continuation in its own forward pass, no cache, no padding."""
        with torch.inference_mode(), compute.turn():
            prefix_ids = self.encode_prefix(prefix)
            P = len(prefix_ids)
            scores = []
            for text in continuations:
                cont = self.encode_continuation(text)
                ids = torch.tensor([prefix_ids + cont])  # (1, P+L)
                logp = self._forward(ids).logits[0, P - 1 : -1].float().log_softmax(-1)  # (L, V)
                token_logp = logp.gather(-1, torch.tensor(cont, device=self.device)[:, None])  # (L, 1)
                scores.append(token_logp.mean().item())
            return scores

    def clear_prefix_cache(self) -> None:
        with self._lock:
            self._prefixes.clear()
            self._heads.clear()

    def __repr__(self) -> str:
        return f"LLM({self.config.name!r}, device={self.device}, dtype={self.model.dtype})"


if __name__ == "__main__":  # python -m engine.lm.llm [name]: a quick smoke run
    import sys
    import time

    t0 = time.perf_counter()
    llm = LLM.load(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_MODEL)
    print(llm, f"loaded in {time.perf_counter() - t0:.1f} s")
    print(llm.score("The capital of France is", [" Paris", " banana"]))
    print(llm.generate_beams(llm.chat_prompt("Answer with the question only.", "Ask a question about films."), 5))
