"""Relations a question names in its own words: "the Habanera 's artist 's album", "films directed by X".

A question that spells a relation ("nationality", "place_of_birth", "directed", "director") asks for a
program that walks it. The 0.5B scorer, which has seen few or no exemplars of most relations of a large
schema, prefers the shorter program that stops one relation short ("X 's nationality" for "X 's
nationality 's events"); the words the question spends on each relation tell them apart.

A relation is named by the question's words that spell a content word of one of its readings (label,
reverse label, object noun), in any inflection (`words.word_forms`: directed -> director, directs); a
program, by the question words its relations spell together. Entity names are left out first, so a title never names a relation. Morphology only: no synonyms
(the embedder's similarity already weighs those) and no word list of any domain.
"""

from __future__ import annotations

import re

from engine.programs.sexpr import Program, relations
from kg_adapters.readable import object_noun
from kg_adapters.schema import Schema

from .words import STOP, fold, word_forms

Reading = tuple[frozenset[str], ...]  # per content word of one reading, the forms it may take


class NamedRelations:
    """Which of one schema's relations a question names, and how fully."""

    def __init__(self, schema: Schema):
        self._readings: dict[str, list[Reading]] = {}
        for rel in schema.relations:
            readings = []
            for text in dict.fromkeys((rel.label, rel.reverse_label, object_noun(rel.name))):
                content = [w for w in re.findall(r"[a-z]+", text.lower()) if w not in STOP and len(w) > 1]
                if content:
                    readings.append(tuple(frozenset(word_forms(w)) for w in dict.fromkeys(content)))
            if readings:
                self._readings[rel.name] = readings

    def named(self, text: str, names: list[tuple[int, int]]) -> dict[str, frozenset[str]]:
        """Relation name -> the question's words that spell it (any of its readings); `names`: the (start, end)
        spans of entity names, which are left out."""
        for start, end in sorted(names, reverse=True):
            text = text[:start] + " " + text[end:]
        tokens = set(re.findall(r"[a-z]+", fold(text)))  # "place_of_birth" is three words
        found = {}
        for name, readings in self._readings.items():
            spelt = frozenset(t for reading in readings for forms in reading for t in forms & tokens)
            if spelt:
                found[name] = spelt
        return found


# Weight of `share` beside the forward score and SIMILARITY_WEIGHT * cosine, wherever they rank candidates
# (pruning, the best set, the final re-rank), per question word accounted for. Off until the rule below is
# fixed. bench.kgs --quick --per-kg 24 (session 9, the same corpora), F1 at 0 -> 0.5: worldcup 72.1 -> 75.0,
# pathquestion-large 63.3 -> 67.4, metaqa 82.1 -> 85.4, pathquestion-large-3h 29.6 -> 29.6, but
# geography-demo 85.6 -> 67.2 (macro 66.5 -> 64.9): "countries in africa where french is spoken" went to
# (JOIN country ...), the cities of those countries, because "countries" spells the relation `country`.
# A noun should spell a relation only where the program walks it toward its objects ((R r), a superlative's
# path), and a word naming the candidate's own answer class should spell nothing; not yet measured.
NAMED_WEIGHT = 0.0


def share(named: dict[str, frozenset[str]], program: Program) -> int:
    """How many of the question's words the program's relations spell. A word counts once, however many
    relations spell it: "a player from Mexico" spells plays_in_club, plays_for_country and plays_position
    alike, and a sum over relations sent it down a four-relation walk through all three."""
    return len(frozenset().union(*(named.get(rel.name, frozenset()) for rel in relations(program))))
