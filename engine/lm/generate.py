"""Beam search: how the bootstrap gets several candidate questions for one program.

`BeamGeneration` is mixed into `engine.lm.llm.LLM`, whose model, tokenizer, lock, prefix KV cache
(`_prefix_state`) and `encode_prefix` it uses: generation shares the scorer's prefix cache, so a
few-shot prompt shared by many programs is encoded once. Kept apart from scoring because it is the
bootstrap's concern alone; the reasoner only scores.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Iterable

import torch

from . import compute
from .shared_prefix import shared_prefix_cache


@dataclass(frozen=True)
class Beam:
    text: str  # stripped, one line
    logprob: float  # length-normalised: mean log-prob per generated token (incl. the stopping token)


class BeamGeneration:
    """Beam search over `self.model`; see the module docstring for what the host class provides."""

    _newline_ids: list[int] | None = None

    def _stop_ids(self, stop_at_newline: bool) -> list[int]:
        """EOS ids, plus every token whose text contains a newline when stopping at the end of a line."""
        eos = self.model.generation_config.eos_token_id
        eos = [eos] if isinstance(eos, int) else list(eos or [])
        if self.tokenizer.eos_token_id is not None:
            eos.append(self.tokenizer.eos_token_id)
        if not stop_at_newline:
            return sorted(set(eos))
        with self._lock:
            if self._newline_ids is None:
                texts = self.tokenizer.batch_decode([[i] for i in range(len(self.tokenizer))])
                self._newline_ids = [i for i, t in enumerate(texts) if "\n" in t]
        return sorted(set(eos) | set(self._newline_ids))

    def beam_search(
        self,
        prefix: str,
        suffixes: list[str],
        num_beams: int = 10,
        max_new_tokens: int = 32,
        stop_at_newline: bool = True,
        on_finished: Callable[[int], None] | None = None,
    ) -> list[list[Beam]]:
        """Beam search continuing `prefix + suffix` for every suffix, the prefix encoded once.

        `on_finished(b)` is called once per suffix as soon as its search ends (its prompt leaves the batch),
        so that a progress bar can move per program, not per batch.

        transformers' generate() expands the prompt to batch x beams before its first
        forward pass, so a 400-token few-shot prompt costs 10x per program. Here the
        shared prefix runs once (its KV cache comes from the LRU), each suffix runs
        once, and only then is the cache widened to the beams. Scores are mean
        log-prob per generated token, the stopping token included.
        """
        if not suffixes:
            return []
        stops = torch.tensor(self._stop_ids(stop_at_newline))
        K = num_beams
        started = time.perf_counter()
        P, prefix_cache, next_logp = self._prefix_state(prefix)
        with torch.inference_mode():
            rows = [self.encode_continuation(s) for s in suffixes]
            B, S = len(rows), max(len(r) for r in rows)
            lengths = torch.tensor([len(r) for r in rows])  # (B,)
            ids = torch.full((B, S), self.pad_id)  # (B, S) right-padded
            mask = torch.zeros((B, P + S), dtype=torch.long)  # (B, P+S)
            mask[:, :P] = 1
            for b, r in enumerate(rows):
                ids[b, : len(r)] = torch.tensor(r)
                mask[b, P : P + len(r)] = 1
            with compute.turn():
                cache = shared_prefix_cache(prefix_cache)  # the prompt held once, not per row (engine.lm.shared_prefix)
                cache.batch_repeat_interleave(B)
                hidden = self._hidden(
                    ids,
                    attention_mask=mask.to(self.device),
                    position_ids=torch.arange(P, P + S).expand(B, S).to(self.device),
                    past_key_values=cache,
                    use_cache=True,
                ).last_hidden_state  # (B, S, H); the vocabulary head runs only at each row's last token
                last_hidden = hidden[torch.arange(B), (lengths - 1).to(self.device)]  # (B, H)
                last = self._head(last_hidden).float().log_softmax(-1).cpu()  # (B, V)
            V = last.shape[-1]
            # start K beams per row from the K best first tokens
            total, first = last.topk(K, dim=-1)  # (B, K)
            tokens = first.reshape(B * K, 1)  # (B*K, 1) generated so far
            total = total.reshape(B * K)  # (B*K,) summed log-prob
            cache.batch_repeat_interleave(K)
            mask = mask.repeat_interleave(K, dim=0)  # (B*K, P+S)
            positions = (P + lengths).repeat_interleave(K)  # (B*K,) position of the next token
            finished: list[list[tuple[float, list[int]]]] = [[] for _ in range(B)]
            reported: set[int] = set()
            rows = torch.arange(B)  # (A,) the prompt each active row of K beams belongs to
            alive = ~torch.isin(tokens[:, 0], stops)  # (A*K,)
            self._collect(finished, tokens, total, ~alive, K, rows)
            total = torch.where(alive, total, torch.tensor(-1e9))
            self.clock.add("prefill", time.perf_counter() - started, B * S)  # positions run, padding included
            started, decoded = time.perf_counter(), 0
            for step in range(1, max_new_tokens):
                keep = torch.tensor([len(finished[b]) < K for b in rows.tolist()])  # (A,) rows still searching
                _report(on_finished, reported, [b for b in rows.tolist() if len(finished[b]) >= K])
                if not keep.all():  # a finished prompt leaves the batch: no more forward passes for it
                    beams = (keep.nonzero() * K + torch.arange(K)).reshape(-1)  # (A'*K,)
                    rows, tokens, total, alive = rows[keep], tokens[beams], total[beams], alive[beams]
                    mask, positions = mask[beams], positions[beams]
                    cache.reorder_cache(beams.to(self.device))
                if not len(rows) or not alive.any():
                    break
                A = len(rows)
                mask = torch.cat([mask, torch.ones((A * K, 1), dtype=torch.long)], dim=1)  # (A*K, T+1)
                decoded += A * K
                with compute.turn():
                    step_logits = self._forward(
                        tokens[:, -1:],
                        attention_mask=mask.to(self.device),
                        position_ids=positions[:, None].to(self.device),
                        past_key_values=cache,
                        use_cache=True,
                    ).logits[:, -1]  # (A*K, V)
                    logp = step_logits.float().log_softmax(-1).cpu()  # (A*K, V)
                scores = (total[:, None] + logp).reshape(A, K * V)  # (A, K*V)
                best, flat = scores.topk(K, dim=-1)  # (A, K)
                source = (flat // V) + torch.arange(A)[:, None] * K  # (A, K) which beam each came from
                token = flat % V  # (A, K)
                source, token, best = source.reshape(-1), token.reshape(-1, 1), best.reshape(-1)
                tokens = torch.cat([tokens[source], token], dim=1)  # (A*K, t+1)
                cache.reorder_cache(source.to(self.device))
                mask = mask[source]
                positions = positions[source] + 1
                stopped = torch.isin(token[:, 0], stops) & (best > -1e8)
                self._collect(finished, tokens, best, stopped, K, rows)
                alive = (best > -1e8) & ~stopped
                total = torch.where(alive, best, torch.tensor(-1e9))
            self._collect(finished, tokens, total, total > -1e8, K, rows)  # out of tokens: live beams count too
            self.clock.add("decode", time.perf_counter() - started, decoded)
            _report(on_finished, reported, range(B))
        out = []
        for b in range(B):
            texts = self.tokenizer.batch_decode([seq for _, seq in finished[b]], skip_special_tokens=True)
            out.append(self._beams(texts, [score for score, _ in finished[b]], stop_at_newline))
        return out

    @staticmethod
    def _collect(finished, tokens, total, which, K: int, rows) -> None:
        """Move the beams flagged in `which` to their prompt's finished list (`rows[i // K]`), length-normalised."""
        for i in which.nonzero().flatten().tolist():
            row = int(rows[i // K])
            if len(finished[row]) < K:
                seq = tokens[i].tolist()
                finished[row].append((float(total[i]) / len(seq), seq))

    def generate_beams_batch(
        self, prompts: list[str], num_beams: int = 10, max_new_tokens: int = 40, stop_at_newline: bool = True
    ) -> list[list[Beam]]:
        """Beam search for several prompts in one batch (left-padded), one beam list per prompt.

        On a CPU a decoding step for 40 sequences costs little more than one for 10,
        so batching programs is what makes corpus building affordable.
        """
        if not prompts:
            return []
        from transformers import GenerationConfig

        eos = self._stop_ids(stop_at_newline)
        with torch.inference_mode():
            rows = [self.encode_prefix(p) for p in prompts]
            T = max(len(r) for r in rows)
            ids = torch.full((len(rows), T), self.pad_id)  # (B, T) left-padded
            mask = torch.zeros((len(rows), T), dtype=torch.long)  # (B, T)
            for b, r in enumerate(rows):
                ids[b, T - len(r) :] = torch.tensor(r)
                mask[b, T - len(r) :] = 1
            gen = GenerationConfig(
                num_beams=num_beams,
                num_return_sequences=num_beams,
                max_new_tokens=max_new_tokens,
                do_sample=False,
                length_penalty=1.0,
                early_stopping=True,
                eos_token_id=eos,
                pad_token_id=self.pad_id,
                output_scores=True,
                return_dict_in_generate=True,
            )
            out = self.model.generate(
                input_ids=ids.to(self.device), attention_mask=mask.to(self.device), generation_config=gen
            )
            texts = self.tokenizer.batch_decode(out.sequences[:, T:].cpu(), skip_special_tokens=True)  # (B*beams)
            logprobs = out.sequences_scores.tolist()
        return [
            self._beams(texts[b * num_beams : (b + 1) * num_beams], logprobs[b * num_beams : (b + 1) * num_beams], stop_at_newline)
            for b in range(len(prompts))
        ]

    def _beams(self, texts: list[str], logprobs: list[float], stop_at_newline: bool) -> list[Beam]:
        beams: dict[str, Beam] = {}
        for text, logprob in sorted(zip(texts, logprobs), key=lambda tl: -tl[1]):
            text = text.strip()
            if stop_at_newline:
                text = text.split("\n", 1)[0].strip()
            if text and text not in beams:
                beams[text] = Beam(text, logprob)
        return list(beams.values())

    def generate_beams(
        self, prompt: str, num_beams: int = 10, max_new_tokens: int = 40, stop_at_newline: bool = True
    ) -> list[Beam]:
        """Beam search from `prompt`, best first. A beam ends at EOS or, with `stop_at_newline`, at the first
        token containing a newline (so a question ends at its "?" + newline). Texts are stripped, cut at the
        first newline, and deduplicated (keeping the better score); empty ones are dropped."""
        return self.generate_beams_batch([prompt], num_beams, max_new_tokens, stop_at_newline)[0]


def _report(on_finished: Callable[[int], None] | None, reported: set[int], rows: Iterable[int]) -> None:
    """Tell `on_finished` of each row in `rows` not reported yet."""
    for b in rows:
        if b not in reported:
            reported.add(b)
            if on_finished is not None:
                on_finished(b)
