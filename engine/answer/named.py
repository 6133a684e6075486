"""Relations a question names in its own words: "the Habanera 's artist 's album", "films directed by X".

A question that spells a relation ("nationality", "place_of_birth", "directed", "director") asks for a
program that walks it. The 0.5B scorer, which has seen few or no exemplars of most relations of a large
schema, prefers the shorter program that stops one relation short ("X 's nationality" for "X 's
nationality 's events"); the words the question spends on each relation tell them apart.

A relation is named by the question's words that spell a content word of one of its readings (label, reverse
label, object noun, and its lexicon's words: engine.bootstrap.lexicon), in any inflection (`words.word_forms`:
directed -> director, directs). A program counts the question words its relations spell together: a verb's words
however the relation is walked, a noun's only where the program walks toward the relation's objects ("the
<noun> of X", not "the things whose <noun> is X"; a lexicon's word for the subjects only toward them: "the kid
of X" walks `parent` back), and never the words that name the program's own answer class. Entity names are left
out first, so a title never names a relation. Morphology and the KG's own lexicon only: no other synonyms (the
embedder's similarity already weighs those) and no word list of any domain.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from engine.programs.sexpr import (
    Aggregate,
    Chain,
    Compare,
    Degree,
    Join,
    Node,
    Program,
    Relation,
    Reverse,
    Superlative,
    relation_name,
    walk,
)
from lemminflect import getAllLemmas

from kg_adapters.readable import object_noun
from kg_adapters.schema import Schema

from .words import STOP, fold, word_forms

# One reading of a relation: per content word, the forms it may take and whether it is a verb ("directed",
# "plays"), which names the relation walked either way, or a noun ("nationality", "club"), which names it only
# walked toward its objects: "the country of X" spells `country`, "the cities whose country is X" does not.
Reading = tuple[tuple[frozenset[str], bool], ...]


@dataclass(frozen=True)
class Spelling:
    """The question's words that spell one relation: by its verbs (either way) and by its nouns."""

    by_verb: frozenset[str]
    by_noun: frozenset[str]
    times: int = 1  # how often the question writes it: "X 's award_nominations 's award_nominations" twice
    by_back_noun: frozenset[str] = frozenset()  # its lexicon's words for its subjects ("kid" for `parent`)

    @property
    def words(self) -> frozenset[str]:
        """Every question word that spells the relation, however it is walked."""
        return self.by_verb | self.by_noun | self.by_back_noun


class NamedRelations:
    """Which of one schema's relations a question names, and with which of its words."""

    def __init__(self, schema: Schema):
        self._readings: dict[str, list[Reading]] = {}
        self._back: dict[str, frozenset[str]] = {}  # the lexicon's words for a relation's subjects, all forms
        for rel in schema.relations:
            readings = [_reading(text) for text in dict.fromkeys((rel.label, rel.reverse_label, object_noun(rel.name)))]
            # the lexicon's words for its objects read as nouns of the relation ("dad": the parent of X)
            readings += [tuple((forms, False) for forms, _ in _reading(text)) for text in rel.words]
            if any(readings):
                self._readings[rel.name] = [r for r in readings if r]
            back = frozenset(form for text in rel.reverse_words for forms, _ in _reading(text) for form in forms)
            if back:
                self._back[rel.name] = back

    def named(self, text: str, names: list[tuple[int, int]]) -> dict[str, Spelling]:
        """Relation name -> the question's words that spell it; `names`: the (start, end) spans of entity
        names, which are left out."""
        for start, end in sorted(names, reverse=True):
            text = text[:start] + " " + text[end:]
        counts = Counter(words_of(text))
        tokens = set(counts)
        found = {}
        for name in self._readings.keys() | self._back.keys():
            readings = self._readings.get(name, ())
            verbs = {t for reading in readings for forms, verb in reading if verb for t in forms & tokens}
            nouns = {t for reading in readings for forms, verb in reading if not verb for t in forms & tokens}
            back = self._back.get(name, frozenset()) & tokens
            if verbs or nouns or back:
                found[name] = Spelling(frozenset(verbs), frozenset(nouns), max(counts[t] for t in verbs | nouns | back),
                                       frozenset(back))
        return found


def _reading(text: str) -> Reading:
    """The content words of one reading of a relation, each with its forms and whether it is a verb."""
    content = [w for w in re.findall(r"[a-z]+", text.lower()) if w not in STOP and len(w) > 1]
    return tuple((frozenset(word_forms(w)), _is_verb(w)) for w in dict.fromkeys(content))


def _is_verb(word: str) -> bool:
    """A participle ("directed", "written", "spoken") or a verb form that is no noun: "plays" in `plays_in_club`
    is read as a noun too, so that "the club a player plays in" spells it only walked toward the club."""
    lemmas = getAllLemmas(word)
    inflected = any(v != word for v in lemmas.get("VERB", ()))
    return inflected and (word.endswith(("ed", "en")) or not lemmas.get("NOUN"))


def words_of(text: str) -> list[str]:
    """Folded words, underscores split: "place_of_birth" is three words."""
    return re.findall(r"[a-z]+", fold(text))


# Weight of `share` beside the forward score and SIMILARITY_WEIGHT * cosine, wherever they rank candidates
# (pruning, the best set, the final re-rank), per question word spelt. bench.kgs --quick --per-kg 24 (session 9,
# same corpora), F1 at 0 -> 0.5: worldcup 76.2 -> 88.3, pathquestion-large 63.3 -> 67.8, metaqa 82.1 -> 85.4,
# pathquestion-large-3h 29.6 and geography-demo 85.6 unchanged (macro 67.4 -> 71.3). Without the two rules of
# `share` (nouns only toward the objects, the answers' own class words left out), 0.5 took geography-demo to
# 67.2: "countries in africa where french is spoken" went to the cities of those countries.
NAMED_WEIGHT = 0.5


def share(named: dict[str, Spelling], program: Program, answer_words: frozenset[str] = frozenset()) -> int:
    """How many of the question's words the program's relations spell, leaving out `answer_words`, the words
    that name the program's own answer class ("countries" in "largest country in Africa by area" asks for
    the answers; it does not ask to walk `country`). A word counts once, however many relations spell it:
    "a player from X" spells plays_in_club, plays_for_team and plays_position alike. Once, that is, for
    each time the question writes it: "Spider-Man_2 's award_nominations 's award_nominations" asks for that
    relation walked twice, which a program that walks it once spells half of."""
    spelt: Counter[str] = Counter()
    written: dict[str, int] = {}
    for name, toward_objects in walks(program):
        spelling = named.get(name)
        if spelling is not None:
            for word in spelling.by_verb | (spelling.by_noun if toward_objects else spelling.by_back_noun):
                spelt[word] += 1
                written[word] = max(written.get(word, 1), spelling.times)
    return sum(min(n, written[word]) for word, n in spelt.items() if word not in answer_words)


def walks(program: Program) -> list[tuple[str, bool]]:
    """(relation name, walked toward its objects) for every relation the program walks. (JOIN (R r) X), the r
    of X, goes toward r's objects; (JOIN r X) toward its subjects; a superlative's, comparison's or sum's path
    reads each member's value, toward the objects unless reversed."""
    out: list[tuple[str, bool]] = []
    for node in walk(program):
        if isinstance(node, Join):
            out.append((relation_name(node.relation), isinstance(node.relation, Reverse)))
        elif isinstance(node, (Superlative, Aggregate)):
            out += _path(node.path)
        elif isinstance(node, (Compare, Degree)):
            out += _path(node.relation)
    return out


def _path(rel: Node) -> list[tuple[str, bool]]:
    if isinstance(rel, Chain):
        return _path(rel.first) + _path(rel.second)
    return [(relation_name(rel), not isinstance(rel, Reverse))] if isinstance(rel, (Relation, Reverse)) else []
