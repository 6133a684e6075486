"""Relations a question names by meaning: a word of the question near in meaning to a word of the relation.

`engine.answer.named` hears a relation only where a question word spells one of its readings. People seldom use the
KG's words: "who looks after X" means `guardian`, "who earns the most" means `salary`. A relation is meant
where some content word of the question (not a stop word, not inside a linked name or class mention, three letters
or more) lies within MEANT_COSINE of its label, reverse label or lexicon words (engine.bootstrap.lexicon) in the
sentence embedder's space. Words, not the whole question: a question is near in meaning to every relation of its
topic. The final re-rank makes a step over a relation neither spelt nor meant pay (`engine.answer.named`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from engine.programs.matching import unmatched
from engine.programs.sexpr import Program, Relation, walk

from kg_adapters.schema import Schema

from .named import COMPOUND_HEAD_LETTERS, Spelling, walks, words_of
from .question import Question
from .retrieve import TextEmbedder
from .words import DETERMINERS, STOP, fold, may_be_verb

# A question word names a relation by meaning at this cosine or more (MiniLM-L6, single words against the
# relation's label, reverse label and lexicon words). Replayed on the finalists of four bench.kgs row sets (the v47
# run; default corpus at seed 1; readable corpora at seeds 0 and 1) with a step unnamed by both rules paying 0.1
# (BENCHMARKS.md, "Explored: steps named by meaning"): at 0.4, 0.5 and 0.6 no check F1 fell and MetaQA's
# rose on every row set (v47 run 87.6 -> 88.7 at 0.4, 88.5 at 0.5, 88.0 at 0.6). 0.4 is the loosest of these; it
# is the one at which the verb of the default KG's mechanism test (tests/test_mechanisms.py) reaches its relation
# through a lexicon word (cosine 0.42). Word-level cosine is loose (a class noun may lie 0.44 from an unrelated
# relation's lexicon word), so it only spares a step its cost; it never adds to a score.
MEANT_COSINE = 0.4
# What each question verb that means some finalist's relation, but no step of this one, costs it in the final re-rank
# (`unspent_words`): the other side of UNNAMED_WEIGHT, a step no word names. Replayed on the rows of a full bench.kgs
# run (reasoner v77, 2026-12-05; `bench.replay --unspent`, rows re-marked as in BENCHMARKS.md, "Session 48"): at 0.05,
# 0.1, 0.15 and 0.2 no KG's tune or check F1 moves against the term off, and 9 of 879 sampled questions have finalists
# it tells apart. Before compounds of a spelling word were read as spelt, it cost MetaQA check 89.1 -> 88.9
# ("screenwriter" meant `directed_by`); before only verbs counted, an airline probe question and a museum one fell
# ("budget carriers", "which pieces"). 0.1, UNNAMED_WEIGHT's value then (0.3 from v102): it takes the default KG's
# mechanism test ("the largest city in a country that borders France") from 0.02 behind to 0.10 ahead (AMX bf16, one
# thread).
UNSPENT_WEIGHT = 0.1
MIN_LETTERS = 3


def content_words(question: Question) -> list[str]:
    """The question's own words: outside every linked mention (names and class words), no stop words, three
    letters or more, folded."""
    return list(dict.fromkeys(w for w in _own_words(question) if w not in STOP and len(w) >= MIN_LETTERS))


def verb_words(question: Question) -> frozenset[str]:
    """The question's own words that stand as verbs: words that can be verbs, not after a determiner ("a country
    that borders X", not "which pieces did X give?"). A verb states a tie between the things a question names, so a
    reading without a step for it answers another question; a noun may be the asked class's own word in the KG's
    terms ("which airlines are not budget carriers?" asks for airlines, however near "carriers" lies to
    `fleet_size`), which leaves it no step to ask for."""
    words = _own_words(question)
    return frozenset(w for before, w in zip(["", *words], words)
                     if w not in STOP and len(w) >= MIN_LETTERS and before not in DETERMINERS and may_be_verb(w))




def _own_words(question: Question) -> list[str]:
    """The question's words outside every linked mention, less its side words and the words read as other words
    (`read_as_parts`), folded, in order."""
    text, kept, pos = question.linking.question, [], 0
    for mention in sorted((m for m in question.linking.mentions if m.candidates), key=lambda m: m.start):
        kept.append(text[pos:mention.start])
        pos = max(pos, mention.end)
    kept.append(text[pos:])
    spent = question.side_words | read_as_parts(question)
    return [word for word in words_of(" ".join(kept)) if word not in spent]


def read_as_parts(question: Question) -> frozenset[str]:
    """The question's words that `engine.answer.glossed` read as the KG's words ("brothers" as `sibling`, through
    WordNet): each is spelt by its parts, so it means no other step. "the brothers of X's husband" had "brothers"
    lie within MEANT_COSINE of `father`, and a walk on to the brothers' father went free and won (a blind lineage
    probe)."""
    said = {part.said for part in question.parts if part.word != part.said}
    return frozenset(said | {piece for word in said for piece in word.split("-")})


class RelationMeanings:
    """Which relations a question's words mean, over one schema; the embedder's memo keeps the vectors."""

    def __init__(self, schema: Schema, embedder: TextEmbedder):
        self.embedder = embedder
        self._texts = {r.name: _texts(r.name, r.label, r.reverse_label, (*r.words, *r.reverse_words))
                       for r in schema.relations}

    def meant(self, question: Question, relations: Iterable[str]) -> frozenset[str]:
        """Those of `relations` that some content word of the question lies within MEANT_COSINE of."""
        return self.of(question, relations).relations

    def of(self, question: Question, relations: Iterable[str]) -> Meaning:
        """What the question's words mean among `relations` (the finalists'), read once for every finalist."""
        by_word = self.by_word(question, relations)
        return Meaning(by_word, frozenset().union(*by_word.values()), verb_words(question))

    def by_word(self, question: Question, relations: Iterable[str]) -> dict[str, frozenset[str]]:
        """Per content word of the question, those of `relations` it lies within MEANT_COSINE of."""
        words = content_words(question)
        names = [name for name in dict.fromkeys(relations) if name in self._texts]
        if not words or not names:
            return {}
        texts = list(dict.fromkeys(t for name in names for t in self._texts[name]))
        # every relation text against every question word: two calls of the embedder, not one per relation
        near = dict(zip(texts, self.embedder.encode(texts) @ self.embedder.encode(words).T >= MEANT_COSINE))
        return {word: frozenset(name for name in names if any(near[t][i] for t in self._texts[name]))
                for i, word in enumerate(words)}


@dataclass(frozen=True)
class Meaning:
    """What a question's own words mean among the finalists' relations (`RelationMeanings.of`)."""

    by_word: dict[str, frozenset[str]] = field(default_factory=dict)  # content word -> the relations it means
    relations: frozenset[str] = frozenset()  # the relations some word means (no step over them is unnamed)
    verbs: frozenset[str] = frozenset()  # the words that stand as verbs (`verb_words`)


def unspent_words(program: Program, named: dict[str, Spelling], meaning: Meaning) -> int:
    """How many of the question's verbs that mean a relation of some finalist and spell none the program leaves
    without a step to mean: "the largest city in a country that borders France" read as the largest city of France
    leaves "borders" (`neighbour`) unused. A step some question word spells is that word's (the class word "country"
    spells `country`), so it means no other word; of the rest each step stands for one word at most, and a word
    meaning only relations some question word spells is spelt already."""
    spelling = {word for spelt in named.values() for word in spelt.words}
    open_verbs = [relations - named.keys() for word, relations in meaning.by_word.items()
                  if word in meaning.verbs and not _spells(word, spelling)]
    open_verbs = [relations for relations in open_verbs if relations]
    steps = [node.name for node in walk(program) if isinstance(node, Relation) and node.name not in named]
    return len(open_verbs) - (len(steps) - len(unmatched(steps, open_verbs)))


def meant_by_free_words(program: Program, named: dict[str, Spelling], meaning: Meaning) -> frozenset[str]:
    """The relations the question's words mean, less the meanings of the words that spell a step of this program:
    such a word is that step's, and stands for no other step of it. "What has Bramblewick Books published?" spells
    `publishedBy`, and "published" lies within MEANT_COSINE of `writtenBy` too, so the walk on to the books'
    authors had looked named by it, and beat the books (the blind library probe, bench/probes/library.py)."""
    spelling = {word for node in walk(program) if isinstance(node, Relation) and node.name in named
                for word in named[node.name].words}
    if not spelling:
        return meaning.relations
    return frozenset().union(*(relations for word, relations in meaning.by_word.items()
                               if not _spells(word, spelling)))


def unmeant_steps(program: Program, named: dict[str, Spelling], meaning: Meaning) -> int:
    """The program's steps that no question word spells the way the step walks, less those a free word means, each
    free word standing for one step (a largest matching, as `unspent_words` pairs them).

    The way matters for the lexicon's words for a relation's subjects: "son" spells `father` walked toward its subjects
    (the things whose father is X), not "the father of" a son. (A noun for its objects does spell a step toward its
    subjects: "the movies with the same actor as X" walks `starred_actors` back; but not where a relation holding its
    pairs reversed names those subjects: the subjects of `child` beside `father` are parents, no children.) And one
    word, one step: "when was the wife of X's son born?" has "born" near both `dateOfBirth` and `father` (by
    embedding), and the wife's father's birth date had walked its extra step free (the blind lineage probe,
    bench/probes/lineage.py). So too for the words that spell: two relations one word alone spells are one step named
    and one not ("which monarchs were born before 1900?" spells `birthYear` and `birthPlace` by "born", and the birth
    places of those born before 1900 had won; a blind royal probe). A relation a word spells pays nothing however
    often it is walked; `repeats` (engine.answer.walk_back) counts those."""
    steps = walks(program)
    spelt = [_spelt_by(named.get(name), toward) for name, toward in steps]
    spelling = set().union(*spelt)
    by_relation: dict[str, set[str]] = {}
    for (name, _), words in zip(steps, spelt):
        if words:
            by_relation.setdefault(name, set()).update(words)
    names = list(by_relation)
    shared = [names[i] for i in unmatched(names, [{n for n in names if w in by_relation[n]} for w in spelling])]
    free = [relations for word, relations in meaning.by_word.items() if relations and not _spells(word, spelling)]
    return len(unmatched([name for (name, _), words in zip(steps, spelt) if not words] + shared, free))


def _spelt_by(spelling: Spelling | None, toward_objects: bool) -> frozenset[str]:
    """The question words that spell a step of the relation walked this way: any of them toward its subjects (but
    only its verbs and words for its subjects where its ends are apart: `Spelling.ends_apart`), all but its lexicon's
    words for its subjects toward its objects."""
    if spelling is None:
        return frozenset()
    if toward_objects:
        return spelling.by_verb | spelling.by_noun | spelling.by_dimension
    return spelling.by_verb | spelling.by_back_noun if spelling.ends_apart else spelling.words


def _spells(word: str, spelling: set[str]) -> bool:
    """Whether a question word is one that spells a relation: itself, or a compound of it ("screenwriter" spells
    `written_by` by its head "writer", engine.answer.named)."""
    return word in spelling or any(word.endswith(head) for head in spelling if len(head) >= COMPOUND_HEAD_LETTERS)


def _texts(name: str, label: str, reverse_label: str, lexicon: tuple[str, ...]) -> list[str]:
    """The relation's readings, folded, each once; its name with underscores as spaces where it has no label."""
    texts = [fold(t).strip() for t in (label, reverse_label, *lexicon)]
    return list(dict.fromkeys(t for t in texts if t)) or [name.replace("_", " ")]
