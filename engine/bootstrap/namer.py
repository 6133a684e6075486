"""Nouns for the classes a KG's data does not name.

Schema induction names most classes by English alone: the objects of `written_by` are writers, the
subjects of `plays_in_club` and `plays_position` are players (kg_adapters.readable). Nothing in `written_by`,
`published_in` and `has_isbn` says what their subjects are, though: that takes knowledge of the world, so
induction leaves such a class a provisional stand-in name ("thing with written by") and this module asks the
language model, once per KG, before any corpus names the class.

A 0.5B model confuses the entities with what they relate to ("performer" for songs that have a performer),
so naming has two steps:
1. **Propose**: beam search over a few-shot chat prompt that shows a few members and the relations.
2. **Choose**: the proposal the model finds most plausible in "Something that has these details: <the
   relations>. It is a <noun>." Proposals that name the other end of one of the class's own relations are
   dropped first, and a proposal that most members' labels hold as a word ("Season 2019") is taken first.
   The relations, not the members, decide: a KG its owner made up names its things by codes and made-up names
   ("SHP-0192", "Vessa"), which tell a model nothing, and where the members are famous the relations say as much.
   Scored on each member with one fact of it ("Frankenstein, directed by James Whale, is a film."), as before
   2026-12-06, the choice was right for 5 of 16 sketches with such members and 8 of 10 with famous ones; on the
   relations, 9 of 16 and 8 of 10, with one scoring pass instead of one a member.
`bench/namer_sample.py` measures both steps on made-up sketches and on the dev KGs' provisional classes
(its report, `bench/namer_sample.md`, says how often each picks the right noun).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Protocol

from engine.programs.kg import KnowledgeGraph
from engine.programs.to_sparql import iri
from lemminflect import getAllLemmas

from kg_adapters.base import RDFS_LABEL, KGError, KGStore
from kg_adapters.naming import local_name
from kg_adapters.person_nouns import head_phrase
from kg_adapters.readable import is_function_word, object_noun, plural, singular
from kg_adapters.schema import OBJECT, ClassInfo, Schema

from .corpus import Corpus

MEMBERS = 5  # members shown to propose nouns; more lengthen the prompt and add little
PROPOSALS = 8  # beams; the right noun was among 8 for every sketch of bench/namer_sample.md
MAX_WORDS = 2  # "soccer club" is a name, "directed by, written" is not

SYSTEM = "You say what kind of thing some entities of a knowledge graph are, with one common English noun."
# Worked turns about KGs unlike any we test on, so the model learns the form of the answer, not a domain.
EXAMPLES = (
    (("Mars", "Jupiter", "Neptune"), ("orbits", "mass", "discovered by", "has moon"), "planet"),
    (("Hydrogen", "Carbon", "Gold"), ("atomic number", "discovered in", "symbol"), "element"),
    (("Mona Lisa", "The Night Watch", "Guernica"), ("painted by", "held in", "year"), "painting"),
)


class NamingModel(Protocol):
    """What naming needs from an LLM (engine.lm.llm.LLM provides it)."""

    def chat_prompt(self, system: str, user: str, assistant_prefix: str = "",
                    history: tuple[tuple[str, str], ...] = ()) -> str: ...

    def generate_beams(self, prompt: str, num_beams: int = 10, max_new_tokens: int = 40,
                       stop_at_newline: bool = True) -> list: ...

    def score(self, prefix: str, continuations: list[str]) -> list[float]: ...


@dataclass(frozen=True)
class Sketch:
    """What the model is shown of one class: some members and the relations they have."""

    members: tuple[str, ...]
    relations: tuple[str, ...]  # readable, as seen from the members ("directed by", "sequel of")
    elsewhere: frozenset[str]  # nouns for what the members relate to: never the members' own name


@dataclass(frozen=True)
class Naming:
    noun: str | None  # None: no proposal survived, the stand-in name stays
    proposals: tuple[tuple[str, float], ...]  # (noun, plausibility), best first
    in_beam_order: tuple[str, ...] = ()  # the proposals as beam search ranked them (step 1 alone)


def ensure_named(kg: KnowledgeGraph, load_llm: Callable[[], NamingModel], corpus: Corpus | None = None) -> dict[str, str]:
    """Name the KG's unnamed classes and keep the nouns with it (KnowledgeGraph.adopt_names): called before a
    bootstrap explores and before a reasoner is built, so the corpus, label index and prompts all see the
    nouns. A stand-in that a corpus already uses keeps its name, or that corpus's programs would stop running (a
    mixed class keeps its name anyway: its noun is only one more word for it).
    Loads the model only where a class is unnamed; {stand-in: noun} for the classes it named."""
    unnamed = kg.unnamed_classes()
    if unnamed and corpus is not None and corpus.has_programs():
        used = "\n".join(p.program for p in corpus.programs())
        unnamed = [name for name in unnamed if name not in used or not kg.schema.class_(name).provisional]
    if not unnamed:
        return {}
    names = name_classes(kg.store, kg.schema, unnamed, load_llm())
    kg.adopt_names(names)
    return names


def name_classes(store: KGStore, schema: Schema, classes: list[str], llm: NamingModel) -> dict[str, str]:
    """{stand-in name: noun} for the named classes that the model could name."""
    names = {}
    for name in classes:
        info = schema.class_(name)
        sketch = sketch_class(store, schema, info) if info is not None else None
        noun = name_sketch(sketch, llm).noun if sketch is not None else None
        if noun:
            names[name] = noun
    return names


def sketch_class(store: KGStore, schema: Schema, info: ClassInfo) -> Sketch | None:
    """The class's best-connected members (those filling most of its roles, ties broken by a hash so that
    they are not all of one alphabetic range) and its relations. None where the store cannot say."""
    relations, elsewhere = [], set()
    for role in info.roles:
        rel = schema.relation(role.relation)
        if rel is None:
            continue
        relations.append(rel.reverse_label if role.side == OBJECT else rel.label)
        if role.side != OBJECT and info.name not in rel.range:
            elsewhere |= {object_noun(rel.iri), rel.label.lower()}
    members = _members(store, info)
    if not members or not relations:
        return None
    return Sketch(tuple(label for _, label in members), tuple(dict.fromkeys(relations)), frozenset(elsewhere))


def _members(store: KGStore, info: ClassInfo) -> list[tuple[str, str]]:
    """(IRI, label) of the members to show."""
    sides = [(False, "?x ?p ?o"), (True, "?o ?p ?x")]
    parts = [
        f"{{ {triple} . VALUES ?p {{ {' '.join(iri(r.relation) for r in info.roles if (r.side == OBJECT) == side)} }} }}"
        for side, triple in sides if any((r.side == OBJECT) == side for r in info.roles)
    ]
    sparql = (
        f"SELECT ?x (COUNT(DISTINCT ?p) AS ?n) (SAMPLE(?l) AS ?label) WHERE {{ {' UNION '.join(parts)} "
        f"FILTER(isIRI(?x)) OPTIONAL {{ ?x {iri(RDFS_LABEL)} ?l }} }} "
        f"GROUP BY ?x ORDER BY DESC(?n) MD5(STR(?x)) LIMIT {MEMBERS}"
    )
    return [(x.value, _label(x, label)) for x, _, label in _rows(store, sparql) if x is not None]


def _rows(store: KGStore, sparql: str) -> list:
    try:
        return list(store.select(sparql, timeout_s=60.0).rows)
    except KGError:
        return []


def _label(term, label) -> str:
    return label.value if label is not None else term.value if term.is_literal else local_name(term.value)


def name_sketch(sketch: Sketch, llm: NamingModel) -> Naming:
    prompt = llm.chat_prompt(SYSTEM, _ask(sketch.members, sketch.relations), history=_history())
    beams = llm.generate_beams(prompt, num_beams=PROPOSALS, max_new_tokens=6)
    proposals = _kept([_noun(b.text) for b in beams], sketch.elsewhere)
    if not proposals:
        return Naming(None, ())
    said = f"Something that has these details: {', '.join(sketch.relations)}. It is"
    totals = llm.score(said, [f" {_article(n)} {n}." for n in proposals])
    ranked = tuple(sorted(zip(proposals, totals), key=lambda p: -p[1]))
    labelled = [noun for noun, _ in ranked if _in_most_labels(noun, sketch.members)]
    return Naming((labelled or [ranked[0][0]])[0], ranked, tuple(proposals))


def _kept(proposals: list[str | None], elsewhere: frozenset[str]) -> list[str]:
    """The proposals, once each, less those that name what the members relate to, by the whole noun or its head
    ("famous writer" for books `written by` writers). The head of "<noun> of <noun>" is its first noun
    (`head_phrase`): the matches of a made-up league KG relate to a "player of the match", a player, and taking
    "match" for that phrase's head had dropped the namer's right noun for them ("team" won; bench/probes/league.py)."""
    heads = {words[-1] for noun in elsewhere if (words := head_phrase(noun))}
    return [noun for noun in dict.fromkeys(proposals)
            if noun and noun not in elsewhere and noun.split()[-1] not in heads]


def _in_most_labels(noun: str, members: tuple[str, ...]) -> bool:
    """Whether most members' labels hold the noun as a word ("Season 2019", "Season 2020": season): a KG that
    labels its things by their kind has said what they are, whatever the model finds plausible (it had named such
    seasons "player", after their top scorers)."""
    if " " in noun:
        return False
    forms = {noun, plural(noun)}
    held = sum(bool(forms & set(re.findall(r"[a-z]+", label.lower()))) for label in members)
    return held * 2 > len(members)


def _ask(members: tuple[str, ...], relations: tuple[str, ...]) -> str:
    return f"{', '.join(members)}: what kind of thing is each of them? Each of them has: {', '.join(relations)}."


def _history() -> tuple[tuple[str, str], ...]:
    return tuple((_ask(members, relations), noun) for members, relations, noun in EXAMPLES)


def _noun(text: str) -> str | None:
    """A proposal as a class name: lower case, singular, a word or two of letters; None for anything else."""
    words = text.strip().strip(".").lower().split()
    if not words or len(words) > MAX_WORDS or not all(re.fullmatch(r"[a-z][a-z-]*", w) for w in words):
        return None
    if any(map(is_function_word, words)):  # "country of", "nation of": half a phrase, no name
        return None
    lemmas = getAllLemmas(words[-1])
    if lemmas and not lemmas.get("NOUN"):  # "recorded", "organizational": a class name is a noun (unknown words pass)
        return None
    return " ".join(words[:-1] + [singular(words[-1])])


def _article(noun: str) -> str:
    return "an" if noun[0] in "aeiou" else "a"
