"""The lexicon's words for a relation's two ends, as one step of it reads them.

A relation's words (engine.bootstrap.lexicon) name its objects, seen from a subject ("father" for `parent`), and
its subjects, seen from an object ("son"). Two readings need care: a relation between members of one class with
words for its objects only reads them for either end (`mutual`: "spouse", stored once per couple), and a word of
"grand" made of another of its words names two steps, not one (`one_step`). Read by `engine.answer.named` (the
steps a question's words spell) and `engine.answer.narrow` (the kind each step answers with).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from engine.bootstrap.kinds import first_sense_words
from kg_adapters.both_ways import mutual
from kg_adapters.readable import object_noun, singular
from kg_adapters.schema import RelationInfo, Schema

# English names a relative two generations off with this prefix: a "grandfather" is a father's father, a
# "granddaughter" a child's daughter. Word formation, not a list: which relation "father" or "daughter" names is
# the KG's lexicon's (engine.bootstrap.kinds), so the prefix asks for that relation walked twice.
GENERATION_PREFIX = "grand"


def known_synonym(word: str, known: Callable[[str], bool]) -> str:
    """The word, or where the KG does not know it (`known`) a word of its first WordNet sense that it does (the
    first in order): a "grandkid" is a grandchild where the KG's words say "child" and no "kid" (a blind lineage
    probe)."""
    if known(word):
        return word
    return next((w for w in sorted(first_sense_words(singular(word))) if known(w)), word)


def subject_words(rel: RelationInfo) -> tuple[str, ...]:
    """The lexicon's words for a relation's subjects. A relation between members of one class whose lexicon has
    words for its objects only is read as mutual ("spouse", "neighbour"): its words name either end, as its label
    does. Such a pair is often stored once, so "the husband of X" may be X's object or X's subject. A relation with
    words for each end ("parent": "father", and "son" for its subjects) keeps them apart, unless its pairs hold both
    ways (`either_end`)."""
    return rel.words if either_end(rel) else rel.reverse_words


def either_end(rel: RelationInfo) -> bool:
    """Whether the relation's own words name either of its ends: it is mutual, or read both ways from its pairs
    (kg_adapters.both_ways), whatever its lexicon gave its subjects: a blind genealogy probe's `sibling`, stored
    both ways for 64% of its pairs, had "family" for its subjects, and "Hedwig's brothers" named no end of it."""
    return mutual(rel) or rel.both_ways


def union_words(schema: Schema) -> dict[str, frozenset[str]]:
    """{a union's member: each word of the union (kg_adapters.unions), of its label and each phrase of its lexicon}:
    the union holds either member, so such a word says nothing of which one ("child" for `father`'s and `mother`'s
    subjects names `parent` walked back; nor does the "parent" of `father`'s "male parent" name `father`)."""
    out: dict[str, frozenset[str]] = {}
    for union in (rel for rel in schema.relations if rel.either):
        texts = (union.label, *union.words, *union.reverse_words)
        words = {word for text in texts for word in re.findall(r"[a-z]+", text.lower())}
        for member in union.either:
            out[member] = out.get(member, frozenset()) | words
    return out


def one_step(rel: RelationInfo, words: tuple[str, ...]) -> tuple[str, ...]:
    """The lexicon's `words` that name one step of `rel`: not a word of "grand" made of another word of the
    relation. A small model or WordNet gives "grand<word>" for an end of a relation whose words hold "<word>";
    English forms it from "<word>", two generations off, and `NamedRelations._corrected` reads it so (the relation
    walked twice). Kept, the word spelt one step of the relation and left the second unnamed."""
    own = {w.lower() for w in (rel.label, object_noun(rel.name), *rel.words, *rel.reverse_words)}
    own |= {singular(w) for w in own}

    def twice(word: str) -> bool:
        rest = word.lower()[len(GENERATION_PREFIX):]
        return word.lower().startswith(GENERATION_PREFIX) and (rest in own or singular(rest) in own)

    return tuple(w for w in words if not twice(w))
