"""A KV cache for many rows that continue one prompt: the prompt's keys and values are held once, not per row.

A batched beam search (engine.lm.generate) runs B programs x K beams after one few-shot prompt. transformers'
DynamicCache holds every row's copy of the prompt: with a 0.5B Qwen (24 layers, 2 KV heads of 64, bf16) that is
12 KB a token per row, so the bootstrap's shared prompt of 222 tokens weighed some 250 MB for a batch of 32
programs x 3 beams, and every decoding step copied it twice more (the concatenation of the new token, the reorder
of the beams). Held once, a batch of 32 WorldCup programs peaked 130 MB lower (+950 against +1,080 MiB) in 38.6 s
against 40.1 s (BENCHMARKS.md, "Issue 29, session 24"). Scoring uses it too: one copy of the prompt less per batch.

Here each layer keeps the prompt once, (1, H, P, D), and only the rows' own tokens per row. Attention still
needs (rows, H, P + T, D): it is built per layer as it is asked for and dropped when the layer is done, so one
layer's worth is alive at a time. The keys and values the model attends to are the same numbers as before,
so the search finds the same beams (tests/test_llm.py).
"""

from __future__ import annotations

import torch
from transformers.cache_utils import Cache, DynamicLayer


class SharedPrefixLayer(DynamicLayer):
    """One layer: the prompt's keys and values for one row, shared by all, and each row's own after them."""

    def __init__(self, keys: torch.Tensor, values: torch.Tensor) -> None:  # (1, H, P, D) each
        super().__init__()
        self.prefix_keys, self.prefix_values = keys, values
        self.lazy_initialization(keys[:, :, :0], values[:, :, :0])
        self.keys, self.values = keys[:, :, :0].clone(), values[:, :, :0].clone()  # (rows, H, T, D), T = 0

    def update(self, key_states: torch.Tensor, value_states: torch.Tensor, *args, **kwargs):
        self.keys = torch.cat([self.keys, key_states], dim=-2)
        self.values = torch.cat([self.values, value_states], dim=-2)
        rows = self.keys.shape[0]
        keys = torch.cat([self.prefix_keys.expand(rows, -1, -1, -1), self.keys], dim=-2)
        values = torch.cat([self.prefix_values.expand(rows, -1, -1, -1), self.values], dim=-2)
        return keys, values

    def get_seq_length(self) -> int:
        return self.prefix_keys.shape[-2] + self.keys.shape[-2]

    def batch_repeat_interleave(self, repeats: int) -> None:
        self.keys = self.keys.repeat_interleave(repeats, dim=0)
        self.values = self.values.repeat_interleave(repeats, dim=0)

    def batch_select_indices(self, indices: torch.Tensor) -> None:
        self.keys, self.values = self.keys[indices, ...], self.values[indices, ...]

    def reorder_cache(self, beam_idx: torch.LongTensor) -> None:
        self.keys = self.keys.index_select(0, beam_idx.to(self.keys.device))
        self.values = self.values.index_select(0, beam_idx.to(self.values.device))


def shared_prefix_cache(prefix: Cache) -> Cache:
    """A cache that continues `prefix` (one row) for any number of rows; `prefix` itself is only read."""
    return Cache(layers=[SharedPrefixLayer(layer.keys, layer.values) for layer in prefix.layers])
