"""Words a question uses for the schema that the schema does not spell: "films" for a class `movie`,
"cast" for a relation `starred_actors`, "nation" for a class `country`.

No KG lists its synonyms, and a word list would fit one domain. The sentence embedder knows them: a
lowercase word whose embedding lies within SYNONYM_MIN_COSINE of a class label or of a relation's
label or object noun is read as naming that class or relation. An entity of the same name still
wins where it is of a class the word names ("europe" near `continent` is the continent Europe), so
the word only stops being an entity name when its same-named entities are of another kind ("film",
a tag in MoviesKG, near the class `movie`).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Callable

import numpy as np
from lemminflect import getLemma

from engine.bootstrap.kinds import first_sense_words
from kg_adapters.person_nouns import wordnet
from kg_adapters.readable import is_noun, object_noun
from kg_adapters.schema import Schema

from .mentions import Candidate
from .retrieve import TextEmbedder
from .words import DETERMINERS, QuestionTokens, may_be_verb

# MiniLM cosines of question words to the nearest label of the MoviesKG, geography and WorldCup schemas:
# synonyms film 0.84, movies 0.81, nation 0.77, town 0.77, screenwriter 0.74, cast 0.74, films 0.73,
# actress 0.71; entities and other words below: europe 0.68 (continent), spanish 0.68 (language), comedy
# 0.61, french 0.59, paris 0.57, drama 0.48. The instance check above guards the near misses.
SYNONYM_MIN_COSINE = 0.7
# A word as near one class as another names neither: "airline" lies 0.74 from a class `aircraft` and 0.71 from
# `airport` (a made-up airline KG, bench/probes/airline.py, whose airlines are a class `company`), where the
# synonyms above stand clear of every other class (film 0.84 to `movie` against under 0.5 to the others). The
# embedder puts words of one topic near each other; only a clear nearest class is a synonym. A guard chosen by
# reading these cosines, not a measured fit.
SYNONYM_CLASS_MARGIN = 0.05
# A class synonym must also be kin to the class's text in WordNet, where WordNet has both as nouns: among the first
# KIN_SENSES senses of each, the same sense, or senses within KIN_DEPTH hypernym levels of each other or of a common
# one, or sharing a word there ("paintings" and `artwork`: art), or derived from one another ("insurance",
# `insurer`). MiniLM puts words that share a word piece near each other: "airline" lay 0.71 from `airport`, a made-up
# airline KG (bench/probes/airline.py), and seven of its questions asked for airports. The dev KGs' synonyms (film,
# movies, nation, town, screenwriter, actress) and the probes' (medicine, drug, licence, club) are all kin.
KIN_SENSES = 3
KIN_DEPTH = 2
# Below SYNONYM_MIN_COSINE, a class clear of the others by SYNONYM_CLASS_MARGIN is still named by a word WordNet
# calls its kin, from this cosine up: "dishes" 0.67 from a class `meal` (0.61 from `restaurant`), which a made-up
# recipes KG's namer chose. Measured (session 56, BENCHMARKS.md): the recipes probe 73.0 -> 81.9, the nine other
# probes, the four made-up KGs and 45 university questions of our own every program the same; `bench.touched` reaches
# 17 of 879 sampled dev questions ("footballer" for `player`, WorldCup), each the same program (bench.kgs --only).
KIN_MIN_COSINE = 0.6
_CACHE_LIMIT = 20_000


@dataclass(frozen=True)
class Meaning:
    """What a word names: a class (`class_name`), or a relation; `classes`: the classes it touches."""

    text: str  # the schema text it is nearest to
    class_name: str | None
    classes: frozenset[str]
    by_sense: bool = False  # named by WordNet's first sense of the class alone (`_heads_asked_phrase`)


class SchemaSynonyms:
    def __init__(self, schema: Schema, embedder: TextEmbedder, min_cosine: float = SYNONYM_MIN_COSINE):
        self.embedder, self.min_cosine = embedder, min_cosine
        self._targets: list[Meaning] = []
        for info in schema.classes:
            if info.is_literal:
                continue
            for text in {info.label, info.name.replace("_", " "), *info.also}:
                self._targets.append(Meaning(text.lower(), info.name, frozenset({info.name})))
        for rel in schema.relations:
            touched = frozenset(rel.domain) | frozenset(rel.range)
            for text in {rel.label, object_noun(rel.name)}:
                self._targets.append(Meaning(text.lower(), None, touched))
        # "class" for a class `course`: WordNet's first sense of "course" is "course of study, course of
        # instruction, class", a synonym MiniLM puts below SYNONYM_MIN_COSINE. {word: the classes it is a word of}
        self._first_sense: dict[str, set[tuple[str, str]]] = {}
        for info in schema.classes:
            if not info.is_literal:
                for word in first_sense_words(info.label):
                    self._first_sense.setdefault(word, set()).add((info.label.lower(), info.name))
        texts = [t.text for t in self._targets]
        self._matrix = np.asarray(embedder.encode(texts), dtype=np.float32) if texts else np.zeros((0, 1))
        self._known: dict[str, Meaning | None] = {}
        self._lock = threading.Lock()

    def meanings(self, words: list[str]) -> dict[str, Meaning | None]:
        """What each word names (a class or a relation), or None where it is near nothing of the schema;
        words not seen before are embedded in one batch."""
        with self._lock:
            todo = [w for w in dict.fromkeys(words) if w not in self._known]
        found: dict[str, Meaning | None] = {}
        if todo and self._targets:
            sims = np.asarray(self.embedder.encode(todo), dtype=np.float32) @ self._matrix.T  # (words, targets)
            for word, row in zip(todo, sims):
                found[word] = self._nearest(word, row)
        with self._lock:
            if len(self._known) > _CACHE_LIMIT:
                self._known.clear()
            self._known.update(found)
            return {w: self._known.get(w) for w in words}

    def _nearest(self, word: str, row: np.ndarray) -> Meaning | None:
        """The schema text nearest a word, if near enough; read as a relation's word only (no class named)
        where another class lies within SYNONYM_CLASS_MARGIN of the nearest class, or where WordNet says the word
        is no kin of the class (`kin`). Where no class is that near, a word of one class's first WordNet sense
        names that class (`by_sense`: only where a class noun stands, `_heads_asked_phrase`)."""
        best = int(np.argmax(row))
        if row[best] < self.min_cosine or self._targets[best].class_name is None:
            sensed = self._first_sense.get(getLemma(word, upos="NOUN")[0], set())
            if len(sensed) == 1:  # one class's first sense: that class, before a relation's word
                label, name = next(iter(sensed))
                return Meaning(label, name, frozenset({name}), by_sense=True)
        if row[best] < self.min_cosine:
            return self._kin_class(word, row)
        meaning = self._targets[best]
        if meaning.class_name is None:
            return meaning
        if not self._clear(row, meaning.class_name, row[best]) or kin(word, meaning.text) is False:
            return Meaning(meaning.text, None, meaning.classes)
        return meaning

    def _kin_class(self, word: str, row: np.ndarray) -> Meaning | None:
        """A class nearer the word than KIN_MIN_COSINE, clear of every other class by SYNONYM_CLASS_MARGIN, that
        WordNet calls kin of it: "dishes" for a class `meal` (0.67), which the namer might as well have called dish."""
        classes = [(score, t) for score, t in zip(row, self._targets) if t.class_name is not None]
        if not classes:
            return None
        score, meaning = max(classes, key=lambda pair: pair[0])
        if score < KIN_MIN_COSINE or not self._clear(row, meaning.class_name, score):
            return None
        return meaning if kin(word, meaning.text) else None

    def _clear(self, row: np.ndarray, class_name: str, score: float) -> bool:
        """Whether every other class lies more than SYNONYM_CLASS_MARGIN below `score`."""
        rivals = [s for s, t in zip(row, self._targets) if t.class_name is not None and t.class_name != class_name]
        return not rivals or max(rivals) < score - SYNONYM_CLASS_MARGIN


def kin(word: str, text: str, senses: int = KIN_SENSES) -> bool | None:
    """Whether WordNet relates a question word to a class's text (see KIN_SENSES), among the first `senses`
    senses of each; None where it lacks either."""
    net = wordnet()
    if net is None:
        return None
    ours = net.synsets(getLemma(word, upos="NOUN")[0], pos="n")[:senses]
    theirs = (net.synsets(text.replace(" ", "_"), pos="n") or net.synsets(text.split()[-1], pos="n"))[:senses]
    if not ours or not theirs:
        return None
    near_ours, near_theirs = _above(ours), _above(theirs)
    if any(name in near_theirs and depth + near_theirs[name] <= KIN_DEPTH + 1 for name, depth in near_ours.items()):
        return True  # one sense, one above the other, or both near one above them
    if _words(net, near_ours) & _words(net, near_theirs):
        return True
    ours_from, theirs_from = _derived(ours), _derived(theirs)  # "insurance" and "insurer" both from "insure"
    return bool(ours_from & (theirs_from | {s.name() for s in theirs}) or theirs_from & {s.name() for s in ours})


def _above(senses: list) -> dict[str, int]:
    """The senses and their hypernyms up to KIN_DEPTH levels, each with its level (0: the sense itself)."""
    found = {s.name(): 0 for s in senses}
    level = list(senses)
    for depth in range(1, KIN_DEPTH + 1):
        level = [h for s in level for h in s.hypernyms() + s.instance_hypernyms()]
        for h in level:
            found.setdefault(h.name(), depth)
    return found


def _words(net, senses: dict[str, int]) -> set[str]:
    return {w.lower() for name in senses for w in net.synset(name).lemma_names()}


def _derived(senses: list) -> set[str]:
    found = set()
    for lemma in (lemma for s in senses for lemma in s.lemmas()):
        try:
            found |= {d.synset().name() for d in lemma.derivationally_related_forms()}
        except (KeyError, IndexError):  # the `wn` package misses some forms of other parts of speech
            continue
    return found


def mark_schema_words(ctx: QuestionTokens, synonyms: SchemaSynonyms,
                      same_named: Callable[[str, str], list[Candidate]]) -> None:
    """Mark the question's lowercase words that name a class or relation as schema words (stop words for
    entity linking; a class's word also becomes a class mention), unless an entity of that name is of a
    class the word names. `same_named(folded, as written)`: the entities labelled so."""
    todo = [k for k, word in enumerate(ctx.folded)
            if not ctx.stop[k] and not ctx.capital[k] and word.isalpha() and len(word) >= 3]
    meanings = synonyms.meanings([ctx.folded[k] for k in todo])
    for k in todo:
        word, meaning = ctx.folded[k], meanings[ctx.folded[k]]
        if meaning is None:
            continue
        if any(meaning.classes & set(e.classes) for e in same_named(word, ctx.toks[k].group())):
            continue  # "europe" near `continent` is the continent Europe
        if meaning.by_sense and not _heads_asked_phrase(ctx, k):
            continue
        ctx.stop[k] = True
        if meaning.class_name:
            ctx.synonym_classes[word] = meaning.class_name


def _heads_asked_phrase(ctx: QuestionTokens, k: int) -> bool:
    """Where a word named by a WordNet sense alone stands as a class noun would: after a determiner ("which class",
    "how many classes", "their section"), and not before a noun it qualifies. The words of a sense are also verbs and modifiers: a made-up
    airline KG's "does flight TA88 land in" (`country` is first "state, nation, land"), a museum's "what art
    movement" (`artwork`)."""
    before = ctx.folded[k - 1] if k else ""
    after = ctx.folded[k + 1] if k + 1 < len(ctx.folded) else ""
    return before in DETERMINERS and not (after.isalpha() and is_noun(after) and not may_be_verb(after))
