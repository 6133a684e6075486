"""Relations a question names in its own words: "the Habanera 's artist 's album", "films directed by X".

A question that spells a relation ("nationality", "place_of_birth", "directed", "director") asks for a
program that walks it. The 0.5B scorer, which has seen few or no exemplars of most relations of a large
schema, prefers the shorter program that stops one relation short ("X 's nationality" for "X 's
nationality 's events"); the words the question spends on each relation tell them apart.

A relation is named by the question's words that spell a content word of one of its readings (label, reverse label,
object noun, and its lexicon's words: engine.bootstrap.lexicon), in any inflection (`words.word_forms`: directed ->
director, directs). A program counts the question words its relations spell together: a verb's words however the
relation is walked, a noun's only where the program walks toward the relation's objects ("the <noun> of X", not
"the things whose <noun> is X"; a lexicon's word for the subjects only toward them: "the kid of X" walks `parent`
back, and so does the noun of a "<noun> of" name: "the <noun> of X" walks `<noun>_of` back; a mutual relation's
words either way), and never the words that name the program's own answer class. Entity names are left out first,
so a title never names a relation. Morphology and the KG's own lexicon only: no other synonyms (the embedder's
similarity already weighs those) and no word list of any domain.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from math import ceil

from engine.programs.sexpr import (Aggregate, Chain, Compare, Degree, Join, Literal, Node, Program, Relation, Reverse,
                                   Superlative, relation_name, walk)
from engine.programs.validate import NUMERIC_KINDS, TIME_KINDS
from lemminflect import getAllLemmas
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from kg_adapters.readable import object_noun, subject_role
from kg_adapters.schema import RelationInfo, Schema

from .verbs import Reading, VerbSenses, with_derived_verbs
from . import glossed
from .ends import GENERATION_PREFIX, either_end, known_synonym, one_step, subject_words, union_words
from .words import POSSESSIVE, STOP, fold, word_forms

@dataclass(frozen=True)
class Spelling:
    """The question's words that spell one relation: by its verbs (either way) and by its nouns."""

    by_verb: frozenset[str]
    by_noun: frozenset[str]
    times: int = 1  # how often the question writes it: "X 's award_nominations 's award_nominations" twice
    by_back_noun: frozenset[str] = frozenset()  # its lexicon's words for its subjects ("kid" for `parent`)
    # adjectives of the dimension it holds ("smallest" for `area`): only of the ranked things' own value, so not
    # where the relation is read at the far end of a chain (the largest <noun> is no <noun> of the largest <other>)
    by_dimension: frozenset[str] = frozenset()
    # the most question words one reading of it spells: one step of the relation says one reading ("place of
    # birth": two words), so "X's mother's father" (two readings of `parent`) asks for two steps, not one
    width: int = 1
    # the steps of it the question's words spell together: "X's mother's father" two, "great-grandmother" (a mother of
    # a parent of a father: engine.answer.glossed) three, "place of birth" one (two words of one reading)
    steps: int = 1
    # of those, the steps toward its objects and its subjects (None: `steps`): "sister", a child of a parent, one each
    ahead: int | None = None
    back: int | None = None
    # toward its subjects only its words for them spell it: a relation within one class that another holds reversed
    # (kg_adapters.inverses), whose subjects the partner's words name ("the child of X" is no parent of X)
    ends_apart: bool = False

    def written(self, toward_objects: bool) -> int:
        """The steps the question writes one way (`walk_back.repeats`)."""
        own = self.ahead if toward_objects else self.back
        return max(self.times, self.steps) if own is None else own

    @property
    def words(self) -> frozenset[str]:
        """Every question word that spells the relation, however it is walked."""
        return self.by_verb | self.by_noun | self.by_back_noun | self.by_dimension


# English adjectives of dimension and the nouns that name what they measure: "the smallest <noun>" ranks by a size,
# "the highest <noun>" by a height, "the most populous" by a population. Grammar, not a domain: which relation holds
# the dimension is read from the KG's labels and lexicon; the rankings ("smallest" goes down) are `degree.py`'s.
DIMENSIONS = {
    # the size of a round thing is its radius or diameter ("the largest <noun> of X", "bigger than X")
    ("large", "big", "small", "little", "tiny", "huge", "vast"): ("size", "area", "extent", "surface", "radius",
                                                                  "diameter", "volume"),
    ("high", "tall", "low"): ("height", "elevation", "altitude"),
    ("long", "short"): ("length",),
    ("heavy", "light"): ("weight", "mass"),
    ("deep", "shallow"): ("depth",),
    ("wide", "broad", "narrow"): ("width", "breadth"),
    ("populous",): ("population",),
    ("fast", "slow", "quick"): ("speed", "velocity"),
}
_DIMENSION_OF = {adjective: nouns for adjectives, nouns in DIMENSIONS.items() for adjective in adjectives}
# Adjectives of time: "the oldest <noun>", "born earlier than X", "the most recent" rank or compare by a year or
# a date (which way is `degree.py`'s). No word of such a relation need say so, so they name the relations whose
# values the schema reads as years or dates. Only graded forms, and "recent": a plain "new" or "late" before a name
# measures nothing.
TIME_ADJECTIVES = frozenset({"old", "young", "new", "early", "late", "recent"})
_TIME = "time"  # the dimension they name, held by no word
# An age is counted from birth: "old" and "young" name a time a relation's words say is a birth, and any time of a
# class that has no such relation (its own year or date). "The oldest child" had ranked by a death year.
_AGE, _AGED, _BIRTH = "age", frozenset({"old", "young"}), frozenset({"birth", "born"})


class NamedRelations:
    """Which of one schema's relations a question names, and with which of its words."""

    def __init__(self, schema: Schema):
        self._readings: dict[str, list[Reading]] = {}
        self._back: dict[str, frozenset[str]] = {}  # the lexicon's words for a relation's subjects, all forms
        self._measures: dict[str, frozenset[str]] = {}  # relation -> the dimension nouns among its own words
        dimension_nouns = {noun for nouns in DIMENSIONS.values() for noun in nouns}
        times = {rel.name for rel in schema.relations
                 if any(getattr(schema.class_(name), "kind", None) in TIME_KINDS for name in rel.range)}
        births = {r.name for r in schema.relations if r.name in times and _BIRTH & set(words_of(f"{r.label} {r.name}"))}
        born = {name for rel in schema.relations if rel.name in births for name in rel.domain}
        of_unions = union_words(schema)
        for rel in schema.relations:
            texts = dict.fromkeys((rel.label, rel.reverse_label, object_noun(rel.name)))  # "born": `dateOfBirth` too
            readings, role = _subject_role_apart(rel, [r for text in texts for r in with_derived_verbs(_reading(text))])
            # the lexicon's words for its objects read as nouns of the relation ("dad": the parent of X)
            readings += [tuple((forms, False) for forms, _ in _reading(text)) for text in one_step(rel, rel.words)]
            # a word of its union's (kg_adapters.unions) names the union, and does not say which member
            apart = frozenset(form for word in of_unions.get(rel.name, ()) for form in word_forms(word))
            if apart:
                readings = [kept for r in readings if (kept := tuple((f - apart, v) for f, v in r if f - apart))]
            measures = {noun for reading in readings for forms, _ in reading for noun in forms & dimension_nouns}
            if rel.name in times:
                measures |= {_TIME, _AGE} if rel.name in births or not born & set(rel.domain) else {_TIME}
            if measures:
                self._measures[rel.name] = frozenset(measures)
            if any(readings):
                self._readings[rel.name] = [r for r in readings if r]
            back = role | frozenset(form for text in one_step(rel, subject_words(rel)) for forms, _ in _reading(text)
                                    for form in forms)
            if either_end(rel):  # its label names either end too: "the spouse of X" may be X's subject
                back |= frozenset(form for reading in readings for forms, verb in reading if not verb for form in forms)
            if back - apart:
                self._back[rel.name] = back - apart
        self._known = frozenset({form for readings in self._readings.values() for reading in readings
                                 for forms, _ in reading for form in forms}).union(*self._back.values())
        # a noun of a relation between members of one class -> a word for its subjects ("parent": "child")
        other_end = {form: min(self._back[rel.name]) for rel in schema.relations if rel.name in self._back
                     and set(rel.domain) == set(rel.range) for reading in self._readings.get(rel.name, ())
                     if len(reading) == 1 for forms, verb in reading if not verb for form in forms}
        labelled = {form for rel in schema.relations for text in (rel.label, rel.reverse_label, object_noun(rel.name))
                    for forms, _ in _reading(text) for form in forms}
        owners: dict[str, set[str]] = {}
        for name in self._readings.keys() | self._back.keys():
            for form in {f for r in self._readings.get(name, ()) for fs, _ in r for f in fs} | self._back.get(name, set()):
                owners.setdefault(form, set()).add(name)
        one_class = {rel.name for rel in schema.relations if set(rel.domain) == set(rel.range)}
        self._words = glossed.Words.owned(self._known.__contains__, other_end.get, labelled.__contains__, owners,
                                          one_class, glossed.unions(schema))
        # the nouns of relations to numbers, years and dates: what an adjective of dimension may stand before
        self._measured_nouns = frozenset(form for rel in schema.relations if schema.literal_kind(rel) in NUMERIC_KINDS
                                         for reading in self._readings.get(rel.name, ()) for forms, verb in reading
                                         if not verb for form in forms)
        self._vocabulary = sorted(self._known)  # in a fixed order, for the typo search
        self._senses = VerbSenses(_relation_verbs(schema))
        self._ends_apart = frozenset(rel.name for rel in schema.relations if rel.links_one_class and rel.inverse_of)

    def parts(self, text: str, names: list[tuple[int, int]]) -> list[glossed.Part]:
        """The question's words less entity names (a title names no relation), as glossed.read reads them."""
        return glossed.read(text, self._words, names)

    def named(self, text: str, names: list[tuple[int, int]],
              parts: list[glossed.Part] | None = None) -> dict[str, Spelling]:
        """Relation name -> the question's words that spell it; `names`: the (start, end) spans of entity
        names, which are left out; `parts`: the question as `parts` reads it, where already read."""
        order = [part.word for part in (self.parts(text, names) if parts is None else parts)]
        counts = self._corrected(Counter(order)) + self._senses.spelt(order, self._known)  # "put out": `published`
        tokens = set(counts)
        graded = self._unqualified(_dimension_words(tokens), order)
        found = {}
        for name in self._readings.keys() | self._back.keys():
            readings = self._readings.get(name, ())
            verbs = {t for reading in readings for forms, verb in reading if verb for t in forms & tokens}
            nouns = {t for reading in readings for forms, verb in reading if not verb for t in forms & tokens}
            sized = {word for word, measured in graded.items() if self._measures.get(name, frozenset()) & set(measured)}
            back = self._back.get(name, frozenset()) & tokens
            if verbs or nouns or back or sized:
                width = max([1, *(sum(bool(forms & tokens) for forms, _ in reading) for reading in readings)])
                spelt = verbs | nouns | back | sized
                total = sum(counts[t] for t in spelt)
                only_back = sum(counts[t] for t in back - verbs - nouns - sized)  # "kid": toward subjects only
                only_ahead = sum(counts[t] for t in (nouns | sized) - back - verbs)
                found[name] = Spelling(frozenset(verbs), frozenset(nouns), max(counts[t] for t in spelt), frozenset(back),
                                       frozenset(sized), width, ceil(total / width),
                                       max(1, ceil((total - only_back) / width)), max(1, ceil((total - only_ahead) / width)),
                                       name in self._ends_apart)
        return found

    def _unqualified(self, graded: dict[str, tuple[str, ...]], order: list[str]) -> dict[str, tuple[str, ...]]:
        """The adjectives of dimension less those before a noun of a relation to numbers or dates: "the state with
        the largest population" ranks by the population its noun spells, not by the area "largest" would name (a
        made-up US-geography KG had ranked by area)."""
        qualifying = {word for word, after in zip(order, order[1:]) if after in self._measured_nouns}
        return {word: nouns for word, nouns in graded.items() if word not in qualifying}

    def _corrected(self, counts: Counter[str]) -> Counter[str]:
        """The question's words with a misspelt relation word put right: "<lable>" spells `<label>`. Only a word
        no relation reading has, of TYPO_MIN_LETTERS or more, one edit (two from TYPO_TWO_EDITS letters) from
        exactly one word of the readings, so that a real word is not read as another ("county" stays, where a
        KG has both). A compound whose last part is a relation word is read as that word first (`_head`), and a
        word of "grand" as its relation twice: a "grandfather" is a father's father (`GENERATION_PREFIX`)."""
        out: Counter[str] = Counter()
        for token, n in counts.items():
            grand = token.startswith(GENERATION_PREFIX)
            rest = known_synonym(token[len(GENERATION_PREFIX):], self._known.__contains__) if grand else ""
            if token not in self._known and rest and rest in self._known:  # "grandkids": the KG's "child", twice
                out[rest] += 2 * n
                continue
            if token in self._known or token in STOP or len(token) < TYPO_MIN_LETTERS:
                out[token] += n
                continue
            head = self._head(token)
            if head:
                out[head] += n
                continue
            edits = 2 if len(token) >= TYPO_TWO_EDITS else 1
            hits = process.extract(token, self._vocabulary, scorer=Levenshtein.distance, score_cutoff=edits, limit=3)
            best = [h[0] for h in hits if h[1] == min(h[1] for h in hits)] if hits else []
            out[best[0] if len(best) == 1 else token] += n
        return out

    def _head(self, token: str) -> str | None:
        """The relation word a compound ends in, where it is one: "screenwriter" spells `writer`, "birthplace"
        `place` (English compounds put their head last). Heads of COMPOUND_HEAD_LETTERS or more only."""
        starts = range(3, len(token) - COMPOUND_HEAD_LETTERS + 1)  # the longest head first
        return next((token[i:] for i in starts if token[i:] in self._known), None)


def _subject_role_apart(rel: RelationInfo, readings: list[Reading]) -> tuple[list[Reading], frozenset[str]]:
    """(`readings` less the noun a "<noun> of" name calls its subjects, that noun's forms): "the <noun> of X"
    walks `<noun>_of` toward its subjects, as the lexicon's words for its subjects do (`Spelling.by_back_noun`).
    Read toward the objects, a made-up KG's "who <noun>ed the <role> of X" had answered whom the <role> <noun>ed."""
    role = subject_role(rel.name)
    if role is None:
        return readings, frozenset()
    own = frozenset(form for word in role.split() for form in word_forms(word))
    moved = frozenset(form for reading in readings for forms, verb in reading if not verb and forms & own
                      for form in forms)
    kept = [tuple(p for p in reading if p[1] or not p[0] & own) for reading in readings]
    return [reading for reading in kept if reading], moved


# A compound's head (NamedRelations._head) is this long or more, and what comes before it at least 3 letters
# (`_head`'s docstring has examples). At v51 (with DETOUR_WEIGHT; `python -m bench.kgs --fresh`) MetaQA went
# 87.8 -> 89.5 tune and 88.7 -> 89.3 check; both tune questions that moved hold a compound of a relation word.
COMPOUND_HEAD_LETTERS = 4
# A misspelt relation word (NamedRelations._corrected): as long as the linker's single-word typos of names.
TYPO_MIN_LETTERS = 5
TYPO_TWO_EDITS = 9


def _dimension_words(tokens: set[str]) -> dict[str, tuple[str, ...]]:
    """{question word: the dimension nouns it names}: "smallest", "larger", "populous" (by the adjective's lemma);
    "oldest", "earlier", "recent" name time."""
    out = {}
    for token in tokens:
        lemmas = getAllLemmas(token).get("ADJ", ())
        for lemma in (token, *lemmas):
            if lemma in _DIMENSION_OF:
                out[token] = _DIMENSION_OF[lemma]
                break
            if lemma in TIME_ADJECTIVES and (lemma != token or token == "recent"):
                out[token] = (_AGE,) if lemma in _AGED else (_TIME,)
                break
    return out


def _relation_verbs(schema: Schema) -> dict[str, str]:
    """{verb lemma: the word of a relation reading that is that verb} ("publish": "published"), for `VerbSenses`."""
    return {lemma: word for rel in schema.relations for text in (rel.label, rel.reverse_label, object_noun(rel.name))
            for word in re.findall(r"[a-z]+", text.lower()) if word not in STOP and _is_verb(word)
            for lemma in getAllLemmas(word).get("VERB", ())}


def _reading(text: str) -> Reading:
    """The content words of one reading of a relation, each with its forms and whether it is a verb."""
    content = [w for w in re.findall(r"[a-z]+", text.lower()) if w not in STOP and len(w) > 1]
    return tuple((frozenset(f for f in word_forms(w) if not _function_word(f)), _is_verb(w))
                 for w in dict.fromkeys(content))


def _function_word(form: str) -> bool:
    """A short stop word among a label word's forms: "in" is a form of the plural "ins" ("accepts walk-ins"), and
    spelt that relation in every question with "in". Longer ones stay ("name" of "named" is a stop word too)."""
    return form in STOP and len(form) <= 3


def _is_verb(word: str) -> bool:
    """A participle ("directed", "written", "spoken") or a verb form that is no noun: "plays" in `plays_in_club`
    is read as a noun too, so that "the club a player plays in" spells it only walked toward the club."""
    lemmas = getAllLemmas(word)
    inflected = any(v != word for v in lemmas.get("VERB", ()))
    return inflected and (word.endswith(("ed", "en")) or not lemmas.get("NOUN"))


def words_of(text: str) -> list[str]:
    """Folded words, underscores split: "place_of_birth" is three words. A possessive ending is no part of its
    word: "X's boss's boss" writes "boss" twice (folded whole it was "bosss" and "boss", and spelt `reports_to` once)."""
    return re.findall(r"[a-z]+", fold(POSSESSIVE.sub("", text)))


# Weight of `share` beside the forward score and SIMILARITY_WEIGHT * cosine, wherever they rank candidates
# (pruning, the best set, the final re-rank), per question word spelt. bench.kgs --quick --per-kg 24 (session 9,
# same corpora), F1 at 0 -> 0.5: worldcup 76.2 -> 88.3, pathquestion-large 63.3 -> 67.8, metaqa 82.1 -> 85.4,
# pathquestion-large-3h 29.6 and geography-demo 85.6 unchanged (macro 67.4 -> 71.3). Without the two rules of
# `share` (nouns only toward the objects, the answers' own class words left out), 0.5 took geography-demo to
# 67.2: "countries in africa where french is spoken" went to the cities of those countries.
NAMED_WEIGHT = 0.5

# What each step over a relation that no word of the question names, by spelling or by meaning (`unnamed_steps`,
# engine.answer.meant), costs in the final re-rank (engine.answer.rank). 0.1 from v48 (replayed on four bench.kgs row
# sets; MetaQA check 87.6 -> 88.7; BENCHMARKS.md, "... reasoner v48"); by spelling alone it had cost a mechanism test
# (v43-v44). 0.3 from v102, once one free word covers one step (v100): replayed on recorded finalists, lineage 37.6 ->
# 41.6 zero-shot and 37.3 -> 43.7 with a corpus, royals 66.4 -> 68.6 and 58.1 -> 57.6, dynasty 73.3 -> 75.6; no dev
# check F1 falls to 0.3 (MetaQA, PathQuestion-3H +1.0), geography-demo's at 0.4; a bench.kgs run of the 42 questions
# it could reach agreed (BENCHMARKS.md, "Session 62").
UNNAMED_WEIGHT = 0.3


def unnamed_steps(program: Program, named: dict[str, Spelling], meant: frozenset[str] = frozenset()) -> int:
    """The program's steps over relations that no word of the question spells (`NamedRelations.named`) or means
    (engine.answer.meant)."""
    return sum(1 for node in walk(program)
               if isinstance(node, Relation) and node.name not in named and node.name not in meant)


def share(named: dict[str, Spelling], program: Program, answer_words: frozenset[str] = frozenset()) -> int:
    """How many of the question's words the program's relations spell, leaving out `answer_words`, the words
    that name the program's own answer class ("countries" in "largest country in Africa by area" asks for
    the answers; it does not ask to walk `country`). A word counts once, however many relations spell it:
    "a player from X" spells plays_in_club, plays_for_team and plays_position alike. Once, that is, for
    each time the question writes it: "Spider-Man_2 's award_nominations 's award_nominations" asks for that
    relation walked twice, which a program that walks it once spells half of. And each step spells one reading
    of its relation (`Spelling.width` words): "X's mother's father" spells `parent` twice only walked twice."""
    spelt: Counter[str] = Counter()
    written: dict[str, int] = {}
    far = {relation_name(node.second) for node in walk(program)
           if isinstance(node, Chain) and isinstance(node.second, (Relation, Reverse))}
    measured = {name for name, _ in ranked_walks(program)}
    by_step: dict[str, list[frozenset[str]]] = {}  # per relation, the words each of its steps may spell
    for name, toward_objects in walks(program):
        spelling = named.get(name)
        if spelling is not None:
            sized = frozenset()
            if toward_objects and name not in far:
                sized = frozenset(w for w in spelling.by_dimension if name in measured or not graded(w))
            words = spelling.by_verb | (spelling.by_noun | sized if toward_objects else spelling.by_back_noun)
            by_step.setdefault(name, []).append((words, toward_objects))
            for word in words:
                written[word] = max(written.get(word, 1), spelling.times)
    for name, steps in by_step.items():
        # each step spells its own words, up to one reading's; a step the other way spells none of them ("the
        # grandparents of X", a parent of a father: X's parent's children spell "father" alone)
        left = {word: written[word] for words, _ in steps for word in words}
        ways = {way: named[name].written(way) for way in (True, False)}
        for words, way in sorted(steps, key=lambda step: len(step[0])):  # the steps with the fewest words choose first
            ways[way] -= 1
            if ways[way] < 0:  # past the steps written this way: "X's uncle" walks `parent` up twice, down once
                continue
            for word in sorted((w for w in words if left[w] > 0), key=lambda w: (-left[w], w))[:named[name].width]:
                spelt[word] += 1
                left[word] -= 1
    return sum(min(n, written[word]) for word, n in spelt.items() if word not in answer_words)


def walks(program: Program, values_read: bool = True) -> list[tuple[str, bool]]:
    """(relation name, walked toward its objects) for every relation the program walks. (JOIN (R r) X), the r
    of X, goes toward r's objects; (JOIN r X) toward its subjects, but (JOIN r 3), things whose r is the value 3,
    reads the value as a comparison does ("the level 3 staff" spells `level`) unless `values_read` is off; a
    superlative's, comparison's or sum's path reads each member's value, toward the objects unless reversed."""
    joins = [(relation_name(node.relation), isinstance(node.relation, Reverse)
              or (values_read and isinstance(node.arg, Literal))) for node in walk(program) if isinstance(node, Join)]
    return joins + ranked_walks(program)


def ranked_walks(program: Program) -> list[tuple[str, bool]]:
    """The walks of `walks` that measure: a superlative's, comparison's, sum's or degree's path."""
    out: list[tuple[str, bool]] = []
    for node in walk(program):
        if isinstance(node, (Superlative, Aggregate)):
            out += _path(node.path)
        elif isinstance(node, Degree) or isinstance(node, Compare) and not isinstance(node.relation, Degree):
            out += _path(node.relation)  # a compared count's Degree is walked on its own
    return out


def graded(word: str) -> bool:
    """A comparative or superlative ("largest", "higher"; and "recent", which ranks): it names its dimension's
    relation only where a program ranks or compares by it. "The largest state next to X" ranks states by area;
    X's own area spells "how large", not "largest" (a made-up US-geography KG had read X's area)."""
    return word == "recent" or word not in getAllLemmas(word).get("ADJ", (word,))


def _path(rel: Node) -> list[tuple[str, bool]]:
    if isinstance(rel, Chain):
        return _path(rel.first) + _path(rel.second)
    return [(relation_name(rel), not isinstance(rel, Reverse))] if isinstance(rel, (Relation, Reverse)) else []
