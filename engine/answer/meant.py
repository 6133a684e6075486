"""Relations a question names by meaning: a word of the question near in meaning to a word of the relation.

`engine.answer.named` hears a relation only where a question word spells one of its readings. People seldom use the
KG's words: "who looks after X" means `guardian`, "who earns the most" means `salary`. A relation is meant
where some content word of the question (not a stop word, not inside a linked name or class mention, three letters
or more) lies within MEANT_COSINE of its label, reverse label or lexicon words (engine.bootstrap.lexicon) in the
sentence embedder's space. Words, not the whole question: a question is near in meaning to every relation of its
topic. The final re-rank makes a step over a relation neither spelt nor meant pay (`engine.answer.named`).
"""

from __future__ import annotations

from typing import Iterable

import numpy as np

from kg_adapters.schema import Schema

from .named import words_of
from .question import Question
from .retrieve import TextEmbedder
from .words import STOP, fold

# A question word names a relation by meaning at this cosine or more (MiniLM-L6, single words against the
# relation's label, reverse label and lexicon words). Replayed on the finalists of four bench.kgs row sets (the v47
# run; default corpus at seed 1; readable corpora at seeds 0 and 1) with a step unnamed by both rules paying 0.1
# (BENCHMARKS.md, "Explored: steps named by meaning"): at 0.4, 0.5 and 0.6 no check F1 fell and MetaQA's
# rose on every row set (v47 run 87.6 -> 88.7 at 0.4, 88.5 at 0.5, 88.0 at 0.6). 0.4 is the loosest of these; it
# is the one at which the verb of the default KG's mechanism test (tests/test_mechanisms.py) reaches its relation
# through a lexicon word (cosine 0.42). Word-level cosine is loose (a class noun may lie 0.44 from an unrelated
# relation's lexicon word), so it only spares a step its cost; it never adds to a score.
MEANT_COSINE = 0.4
MIN_LETTERS = 3


def content_words(question: Question) -> list[str]:
    """The question's own words: outside every linked mention (names and class words), no stop words, three
    letters or more, folded."""
    text, kept, pos = question.linking.question, [], 0
    for mention in sorted((m for m in question.linking.mentions if m.candidates), key=lambda m: m.start):
        kept.append(text[pos:mention.start])
        pos = max(pos, mention.end)
    kept.append(text[pos:])
    return list(dict.fromkeys(w for w in words_of(" ".join(kept)) if w not in STOP and len(w) >= MIN_LETTERS))


class RelationMeanings:
    """Which relations a question's words mean, over one schema; the embedder's memo keeps the vectors."""

    def __init__(self, schema: Schema, embedder: TextEmbedder):
        self.embedder = embedder
        self._texts = {r.name: _texts(r.name, r.label, r.reverse_label, (*r.words, *r.reverse_words))
                       for r in schema.relations}

    def meant(self, question: Question, relations: Iterable[str]) -> frozenset[str]:
        """Those of `relations` that some content word of the question lies within MEANT_COSINE of."""
        words = content_words(question)
        names = [name for name in dict.fromkeys(relations) if name in self._texts]
        if not words or not names:
            return frozenset()
        texts = list(dict.fromkeys(t for name in names for t in self._texts[name]))
        # each relation text's nearest question word: two calls of the embedder, not one per relation
        nearest = dict(zip(texts, np.max(self.embedder.encode(texts) @ self.embedder.encode(words).T, axis=1)))
        return frozenset(name for name in names if max(nearest[t] for t in self._texts[name]) >= MEANT_COSINE)


def _texts(name: str, label: str, reverse_label: str, lexicon: tuple[str, ...]) -> list[str]:
    """The relation's readings, folded, each once; its name with underscores as spaces where it has no label."""
    texts = [fold(t).strip() for t in (label, reverse_label, *lexicon)]
    return list(dict.fromkeys(t for t in texts if t)) or [name.replace("_", " ")]
