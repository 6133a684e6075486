"""The words people use for a KG's relations, asked of the language model once per KG.

People rarely say a relation's label: they ask for "Anna's dad", not her `parent`. For each relation the
model is asked for the everyday nouns of both its ends, as seen from the other: the objects of `orbits` are a
planet's "star" or "sun", its subjects a star's "planets". The proposals are kept where the sentence embedder
finds them near the relation (its label, its description, its classes), so that a small model's stray words do
not name it.

The words land in the schema (`RelationInfo.words`, `.reverse_words`; `kg_adapters.lexicon` keeps them with
it), where the linker, `engine.answer.named` and the search's stopping rule read them like the relation's own
label. The user sees and edits them in the app's schema table.

The model's words are followed down WordNet's noun hierarchy too (kinds.py): "father", "mom" and "husband" are
kinds of parent and spouse, words a small model rarely gives. They yield to the model's words and the labels.

On by default (`ScoutConfig.lexicon`). Unfiltered, the 0.5B model's words cost MetaQA 5-9 points, mostly by giving
one end's words to the other end, one word to several relations, or another relation's own noun ("actor" for
`directed_by`; BENCHMARKS.md, session 19); kept only where they have one owner (`owners.distinct`), they change no
sampled dev answer (session 21) and are there for the words a KG's labels never use.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Callable, Protocol, Sequence

import numpy as np
from engine.programs.to_sparql import iri

from kg_adapters.base import RDFS_LABEL, KGError
from kg_adapters.lexicon import RelationWords
from kg_adapters.naming import local_name
from kg_adapters.readable import object_noun, subject_role
from kg_adapters.schema import RelationInfo, Schema
from kg_adapters.unions import without_unions

from .kinds import broader, first_sense_words, is_plain_noun, kinds_of
from .owners import alike_ends, distinct, key, label_words, of_others, to_literals

log = logging.getLogger(__name__)

SYSTEM = ("You list the everyday English nouns people use for the two ends of a relation in a knowledge graph, "
          "each as seen from the other end: first the object's words, then after a semicolon the subject's.")
MAX_WORDS = 6  # kept per end; the examples show three or four
MAX_NEW_TOKENS = 32
BATCH = 32  # relations asked together after the shared prompt (qgen_batch measured 32 best for questions)
# Worked turns about relations unlike any KG we test on, so the model learns the form, not a domain:
# (relation, subject class, object class, (subject, object) example, the answer). One turn per relation
# asks for both ends, which halves the prompts: the history is most of each prompt's length.
EXAMPLES = (
    ("orbits", "planet", "star", ("Kepler-22b", "Kepler-22"), "star, sun, host star; planet, world, satellite"),
    ("painted by", "painting", "painter", ("The Night Watch", "Rembrandt"),
     "painter, artist, creator; painting, work, picture, canvas"),
    ("mass", "planet", "number", ("Kepler-22b", "2.1e25"), "mass, weight, heaviness; planet"),
)


class LexiconModel(Protocol):
    def chat_prompt(self, system: str, user: str, assistant_prefix: str = "",
                    history: tuple[tuple[str, str], ...] = ()) -> str: ...

    def beam_search(self, prefix: str, suffixes: list[str], num_beams: int = 10, max_new_tokens: int = 32,
                    stop_at_newline: bool = True) -> list[list]: ...


class Embedding(Protocol):
    def encode(self, texts: list[str]): ...


@dataclass(frozen=True)
class Ask:
    """One question to the model: the words for both ends of one relation."""

    relation: str
    user: str


def asks(schema: Schema, relations: Sequence[RelationInfo], examples: dict[str, tuple[str, str]]) -> list[Ask]:
    """One ask per relation; `examples`: {relation name: (a subject's label, an object's label)}."""
    return [Ask(rel.name, _question(rel.label, _class_label(schema, rel.domain), _class_label(schema, rel.range),
                                    examples.get(rel.name)))
            for rel in relations]


def _question(label: str, subject: str, obj: str, example: tuple[str, str] | None) -> str:
    shown = f' (for example "{example[0]}" {label} "{example[1]}")' if example else ""
    return (f'Relation "{label}": a {subject} {label} a {obj}{shown}. Everyday words for the {obj}, seen from the '
            f"{subject}; then for the {subject}, seen from the {obj}:")


def _history() -> tuple[tuple[str, str], ...]:
    return tuple((_question(label, subject, obj, example), answer) for label, subject, obj, example, answer in EXAMPLES)


def _split_prompt(llm: LexiconModel) -> tuple[str, str]:
    """The chat prompt around the last user turn: the part before it (system and worked turns, the same for
    every relation, so its KV cache is computed once) and the part after it."""
    marker = "\x00"
    whole = llm.chat_prompt(SYSTEM, marker, history=_history())
    at = whole.index(marker)
    return whole[:at], whole[at + len(marker):]


def _class_label(schema: Schema, names: tuple[str, ...]) -> str:
    for name in names:
        info = schema.class_(name)
        if info is not None:
            return info.label
    return "thing"


def proposals(text: str) -> tuple[list[str], list[str]]:
    """The model's two lists (the object's words; the subject's) as words: lower case, one or two words of
    letters each, no duplicates."""
    ends = (text.split(";", 1) + [""])[:2]
    return _words(ends[0]), _words(ends[1])


def _words(text: str) -> list[str]:
    out = []
    for item in text.split(","):
        word = " ".join(item.strip().strip(".").lower().split())
        if is_plain_noun(word):
            out.append(word)
    return list(dict.fromkeys(out))[:MAX_WORDS]


# MiniLM cosine of a proposal to the nearest of its relation's texts (label, object noun, description, the
# end's class label). Measured by `python -m bench.lexicon_sample` on the dev KGs' relations: see its report.
MIN_COSINE = 0.3
# A word is the other end's where it lies this much nearer the other end's class than its own: "teacher" 0.72
# to professor, 0.24 to course (MiniLM). Single words of one end sit close together ("class" 0.48 to professor,
# 0.35 to course), so a margin, not a plain comparison: tests/test_lexicon.py holds the cases.
OTHER_END_MARGIN = 0.2


@dataclass(frozen=True)
class End:
    """What one end's proposals are checked against."""

    texts: tuple[str, ...]  # the relation's readings toward this end, and this end's class label
    own: str  # this end's class label
    other: str | None  # the other end's class label, where it is another class
    # the labels of the schema's other entity classes, their last words and the words of their first WordNet
    # sense, as `key`s: a word that names another class is that class's ("party" for the constituency a member
    # represents, beside the class "Political Party"; "class" for the department a professor is a member of,
    # beside the class "course", whose first sense is also called a class)
    taken: frozenset[str] = frozenset()


def end(schema: Schema, rel: RelationInfo, toward_objects: bool) -> End:
    """A value's end (a number, a date) has no class noun to weigh: its words are checked against the relation."""
    value = toward_objects and to_literals(schema, rel)
    own = "" if value else _class_label(schema, rel.range if toward_objects else rel.domain)
    other = _class_label(schema, rel.domain if toward_objects else rel.range)
    reading = rel.label if toward_objects else rel.reverse_label
    texts = [reading, object_noun(rel.name) if toward_objects else "", own, rel.description]
    ends = set(rel.range if toward_objects else rel.domain)
    taken = frozenset(key(text) for info in schema.classes if not info.is_literal and info.name not in ends
                      for text in (info.label, info.label.split()[-1] if info.label.split() else "",
                                   *first_sense_words(info.label)))
    return End(tuple(t.lower() for t in dict.fromkeys(texts) if t and t != "thing"), own.lower(),
               other.lower() if own and other != own and other != "thing" else None, taken - {""})


def kept(words: list[str], at: End, embedder: Embedding, known: frozenset[str],
         min_cosine: float = MIN_COSINE) -> list[str]:
    """The proposals that add a word (`known`: the schema's labels, which name their own) and lie near the
    relation, not far nearer the other end's class than this one's: a small model often gives one end's words
    for the other ("teacher" for what a teacher teaches), and naming no other class of the schema."""
    words = [w for w in words if w not in known and key(w) not in at.taken]
    if not words or not at.texts:
        return []
    w = _unit(embedder.encode(words))
    t = _unit(embedder.encode([*at.texts, *([at.own, at.other] if at.other else [])]))
    sims = w @ t.T  # (words, texts + own + other)
    n = len(at.texts)
    out = []
    for word, row in zip(words, sims):
        if row[:n].max() >= min_cosine and (at.other is None or row[n + 1] - row[n] <= OTHER_END_MARGIN):
            out.append(word)
    return out


def _unit(vectors) -> np.ndarray:
    m = np.asarray(vectors, dtype=np.float32)
    return m / np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-9)


def known_words(schema: Schema) -> frozenset[str]:
    """Every class and relation label of the schema, in lower case: a lexicon word adds none of them."""
    texts = [c.label for c in schema.classes] + [t for r in schema.relations for t in (r.label, r.reverse_label)]
    return frozenset(t.lower() for t in texts)


def build_lexicon(schema: Schema, llm: LexiconModel, embedder: Embedding,
                  examples: dict[str, tuple[str, str]] | None = None,
                  report: Callable[[int, int], None] = lambda done, total: None) -> dict[str, RelationWords]:
    """{relation name: its words} for every relation (a literal value's subjects are named by their class, so
    a relation to literals keeps only its value's words)."""
    todo = asks(schema, schema.relations, examples or {})
    prefix, tail = _split_prompt(llm)
    known = known_words(schema)
    found: dict[str, RelationWords] = {}
    for start in range(0, len(todo), BATCH):
        batch = todo[start:start + BATCH]
        outputs = llm.beam_search(prefix, [ask.user + tail for ask in batch], num_beams=1,
                                  max_new_tokens=MAX_NEW_TOKENS)
        for ask, beams in zip(batch, outputs):
            rel = schema.relation(ask.relation)
            forward, backward = proposals(beams[0].text) if beams else ([], [])
            found[rel.name] = RelationWords(
                tuple(kept(forward, end(schema, rel, True), embedder, known)),
                () if to_literals(schema, rel) else tuple(kept(backward, end(schema, rel, False), embedder, known)))
        report(min(start + BATCH, len(todo)), len(todo))
    words = distinct(of_others(found, schema), schema)
    return alike_ends(with_kinds(words, schema, embedder, known), schema)


# Kinds of an end's nouns (kinds.py) kept per end: the nearest to the relation's texts, and only those this near
# (MiniLM). WordNet gives dozens per noun, most of them rare ("empty nester" for a parent). Read by eye over the
# lists of the dev KGs' and a made-up family KG's relations (a one-off script, 2026-11-27): "father" lies at 0.75,
# "mom" 0.66, "husband" 0.87 from their relations, and stray kinds begin near 0.5 and grow common below 0.45; the
# dev KGs' check F1 with them is in BENCHMARKS.md, "... reasoner v53".
MAX_KINDS = 8
MIN_KIND_COSINE = 0.45


def with_kinds(words: dict[str, RelationWords], schema: Schema, embedder: Embedding,
               known: frozenset[str]) -> dict[str, RelationWords]:
    """`words` (the model's, each with one owner), then the kinds of each end's nouns that one end alone has and
    that no word of the model's or of a label spells: the model's words and the labels win."""
    kinds: dict[str, RelationWords] = {}
    owns = {object_noun(rel.name) for rel in schema.relations} - {""}

    def covers(word: str, own: str) -> bool:
        """Broader than the end's own noun and another relation's ("parent" for `father` beside `mother`)."""
        return broader(word, own) and any(other != own and broader(word, other) for other in owns)

    for rel in schema.relations:
        if to_literals(schema, rel):
            continue
        given = words.get(rel.name, RelationWords((), ()))
        # the noun of a "<noun> of" name calls the subjects (`subject_role`: a member of a party is the member)
        role = subject_role(rel.name)
        forward = [*given.words] if role else [object_noun(rel.name), *given.words]
        backward = [*given.reverse_words, *([role] if role else [])]
        ends = []
        for toward_objects, nouns in ((True, forward), (False, backward)):
            nouns = [n for n in nouns if n.lower() not in _class_nouns(schema, rel, toward_objects)]
            own = role if not toward_objects else (None if role else object_noun(rel.name))
            nouns = [n for n in nouns if not (own and n.lower() != own and (own in n.lower() or covers(n, own)))]
            at = end(schema, rel, toward_objects)
            found = kinds_of(nouns, _reading(schema, rel, toward_objects), embedder)
            ends.append(nearest(kept(found, at, embedder, known), at, embedder))
        kinds[rel.name] = RelationWords(*ends)
    taken = {key(w) for ends in words.values() for w in (*ends.words, *ends.reverse_words)} | set(label_words(schema))
    alone = distinct(kinds, schema)
    none = RelationWords((), ())

    def joined(model: tuple[str, ...], more: tuple[str, ...]) -> tuple[str, ...]:
        return (*model, *(w for w in more if key(w) not in taken))

    return {name: RelationWords(joined(ends.words, alone.get(name, none).words),
                                joined(ends.reverse_words, alone.get(name, none).reverse_words))
            for name, ends in words.items()}


# (Kinds are not followed from a word of the model's that is broader than the end's own noun and another relation's,
# nor from one that holds it: a blind royal-lineage probe's `father` had "parent" and "grandfather", so its kinds were
# "grandpa", and "mom", a kind of a parent, had two owners and named no `mother`; session 59. Broader than the end's
# noun alone is no bar: WorldCup's "team" for `plays_in_club`, whose first WordNet sense is a team.)


def _reading(schema: Schema, rel: RelationInfo, toward_objects: bool) -> str:
    """The relation read toward one end, which picks the senses of that end's nouns (kinds.py): a parent's
    objects read "person parent person", its subjects "person whose parent is person", nearer the offspring
    sense of "child" (whose kinds are "son" and "daughter") than the young person's."""
    subject, obj = _class_label(schema, rel.domain), _class_label(schema, rel.range)
    return f"{subject} {rel.label} {obj}" if toward_objects else f"{subject} whose {rel.label} is {obj}"


def _class_nouns(schema: Schema, rel: RelationInfo, toward_objects: bool) -> set[str]:
    """The labels of the end's classes and their last words: the kinds of a class are the class's, not the
    relation's ("red giant" names a kind of star, not the `star` a planet orbits)."""
    labels = [_class_label(schema, (name,)) for name in (rel.range if toward_objects else rel.domain)]
    return {text.lower() for label in labels for text in (label, label.split()[-1] if label.split() else "")}


def nearest(words: list[str], at: End, embedder: Embedding) -> list[str]:
    """The MAX_KINDS of `words` nearest the end's texts, at MIN_KIND_COSINE or nearer."""
    if not words or not at.texts:
        return []
    sims = (_unit(embedder.encode(words)) @ _unit(embedder.encode(list(at.texts))).T).max(axis=1)
    ranked = sorted(zip(sims, words), key=lambda pair: -pair[0])
    return [word for sim, word in ranked if sim >= MIN_KIND_COSINE][:MAX_KINDS]


def ensure_lexicon(kg, load_llm: Callable[[], LexiconModel], load_embedder: Callable[[], Embedding]) -> bool:
    """Build the KG's relation lexicon once and keep it with the KG (KnowledgeGraph.adopt_lexicon): called
    before a bootstrap explores and before the first reasoner, after the classes are named (their nouns are
    in the prompts). Whether it was built now."""
    if kg.has_lexicon():
        return False
    started = time.perf_counter()
    if not kg.schema.relations:  # nothing to name: no model is loaded
        kg.adopt_lexicon({})
        return False
    stored = without_unions(kg.schema)  # a union's words are its members' (kg_adapters.unions)
    lexicon = build_lexicon(stored, load_llm(), load_embedder(), relation_examples(kg.store, stored))
    kg.adopt_lexicon(lexicon)
    log.info("relation lexicon: %d relations, %d with words, in %.1f s", len(lexicon),
             sum(bool(w.words or w.reverse_words) for w in lexicon.values()), time.perf_counter() - started)
    return True


def relation_examples(store, schema: Schema) -> dict[str, tuple[str, str]]:
    """{relation name: (a subject's label, an object's label)}: one triple each, to show the model what the
    relation links. Relations the store cannot show in time are asked without one."""
    out = {}
    for rel in schema.relations:
        sparql = (f"SELECT ?s ?o ?sl ?ol WHERE {{ ?s {iri(rel.iri)} ?o . OPTIONAL {{ ?s {iri(RDFS_LABEL)} ?sl }} "
                  f"OPTIONAL {{ ?o {iri(RDFS_LABEL)} ?ol }} }} LIMIT 1")
        try:
            rows = list(store.select(sparql, timeout_s=10.0).rows)
        except KGError:
            continue
        if rows and rows[0][0] is not None and rows[0][1] is not None:
            s, o, sl, ol = rows[0]
            out[rel.name] = (_shown(s, sl), _shown(o, ol))
    return out


def _shown(term, label) -> str:
    if label is not None:
        return label.value
    return term.value if term.is_literal else local_name(term.value).replace("_", " ")
