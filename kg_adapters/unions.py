"""Two relations that are the two kinds of one step, walked as one relation: a KG with `<a>` and `<b>` and no word
for either, where English has one.

A KG built the Wikidata way states a person's two parents under two relations, and has no relation for a parent.
People ask for the step either one makes: a grandparent is "a parent of your father or mother", a brother "a male
with the same parents as someone else". No program over one of the two relations answers them, and a union of two
programs repeats the set below it once per relation (four relations for a grandparent, past what exploration builds).
So the schema gets one relation more, a *union*, named by the word English has for either: its steps walk either
member (`engine.programs.to_sparql`), an entity takes part in it where it takes part in a member
(`engine.answer.usual.incident`), and it has no triples of its own (exploration and the lexicon read the members).

Found from the schema's words alone: two relations between members of one class whose nouns are each a kind, in
WordNet, of one sense glossed "<noun> or <noun>" (or "a person's <noun> or <noun>") with the two nouns; that sense's
word names the union, where no relation of the KG is named by it already. Nothing here names a relation or a
kinship word: which words are glossed so is WordNet's.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from itertools import combinations

from .inverses import narrower
from .person_nouns import wordnet
from .readable import object_noun, subject_role
from .schema import RelationInfo, Schema, clean_words

UNION_IRI = "urn:kgscout:union:"  # a union's iri: no triple has it; its local name is the union's word
_EITHER = re.compile(r"(?:a|an) (?:person's )?([a-z]+) or ([a-z]+)")
_SEX = re.compile(r"(?:male|female) ")
DEPTH = 2  # levels above a noun's first sense looked at: "brother" is a "male sibling", a kind of "sibling"


def with_unions(schema: Schema) -> Schema:
    """The schema with a union for each pair of relations alike (see above), and the union among the inverses of
    every relation that holds both members' pairs reversed (`child` beside `father` and `mother`). Unions read
    earlier are read again from the members, so that the members' words as they are now make its words."""
    schema = without_unions(schema)
    taken = {r.name for r in schema.relations} | {object_noun(r.name) for r in schema.relations}
    unions = []
    for first, second in combinations(schema.relations, 2):
        word = _either_word(first, second)
        if word and word not in taken and first.domain == second.domain and first.range == second.range:
            taken.add(word)
            unions.append(_union(word, first, second))
    if not unions:
        return schema
    partnered = [replace(r, inverse_of=(*r.inverse_of, *(u.name for u in unions if r.name in u.inverse_of)))
                 for r in schema.relations]
    return _with_relations(schema, (*partnered, *unions))


def without_unions(schema: Schema) -> Schema:
    """The schema as the KG's triples have it: no unions, and none among any relation's inverses."""
    unions = {r.name for r in schema.relations if r.either}
    if not unions:
        return schema
    return _with_relations(schema, tuple(replace(r, inverse_of=tuple(n for n in r.inverse_of if n not in unions))
                                         for r in schema.relations if not r.either))


def stored_ways(info: RelationInfo, schema: Schema) -> list[tuple[RelationInfo, bool]]:
    """The stored relations that hold a relation's pairs, subject to object, each with whether it holds them
    reversed: its own, both ways where it is read both ways (kg_adapters.both_ways), its narrower inverses reversed
    (kg_adapters.inverses), and for a union its members' (`engine.programs.to_sparql` walks them all)."""
    if info.either:
        own = [way for name in info.either if (m := schema.relation(name)) is not None for way in stored_ways(m, schema)]
    else:
        own = [(info, False), *([(info, True)] if info.both_ways else [])]
    # a union among the inverses adds nothing: its members are inverses too
    return list(dict.fromkeys([*own, *((q, True) for q in narrower(info, schema) if not q.either)]))


def _with_relations(schema: Schema, relations: tuple[RelationInfo, ...]) -> Schema:
    """A new schema (`dataclasses.replace` would share the old one's index of names, and keep a removed union in it)."""
    return Schema(schema.classes, relations, schema.induced, schema.mirrors, schema.shared_members)


def _union(word: str, first: RelationInfo, second: RelationInfo) -> RelationInfo:
    """The union of two relations: the words both have, and the inverses of both."""
    shared_words = [w for w in first.words if w in second.words]
    return RelationInfo(
        iri=UNION_IRI + word, name=word, label=word, reverse_label=f"{word} of",
        description=f"{first.label} or {second.label}", domain=first.domain, range=first.range,
        count=first.count + second.count, words=clean_words([word, *shared_words]),
        reverse_words=clean_words([w for w in first.reverse_words if w in second.reverse_words]),
        inverse_of=tuple(n for n in first.inverse_of if n in second.inverse_of),
        either=(first.name, second.name))


def _either_word(first: RelationInfo, second: RelationInfo) -> str | None:
    """The word whose first WordNet sense is glossed "<first's noun> or <second's noun>" and has each noun's first
    sense below it, for two relations between members of one class; None where there is none."""
    if not (first.links_one_class and second.links_one_class):
        return None
    nouns = [object_noun(r.name) for r in (first, second)]
    if any(subject_role(r.name) is not None for r in (first, second)) or not all(n.isalpha() for n in nouns):
        return None
    shared = set(_broader(nouns[0])) & set(_broader(nouns[1]))
    return next((word for word in _broader(nouns[0]) if word in shared and set(_glossed_either(word)) == set(nouns)
                 and nouns[0] != nouns[1]), None)


@lru_cache(maxsize=1024)
def _broader(noun: str) -> tuple[str, ...]:
    """The one-word names of the senses above the noun's first sense, up to DEPTH levels, nearest first, a sex
    left off ("male sibling" is read "sibling")."""
    net = wordnet()
    senses = net.synsets(noun, pos="n") if net is not None else []
    out: dict[str, None] = {}
    level = senses[:1]
    for _ in range(DEPTH):
        level = [h for sense in level for h in sense.hypernyms()]
        for sense in level:
            for lemma in sense.lemma_names():
                name = _SEX.sub("", lemma.lower().replace("_", " "))
                if name.isalpha():
                    out[name] = None
    return tuple(out)


@lru_cache(maxsize=1024)
def _glossed_either(word: str) -> tuple[str, ...]:
    """The two nouns the first clause of the word's first gloss offers ("a father or mother"); () otherwise."""
    net = wordnet()
    senses = net.synsets(word, pos="n") if net is not None else []
    found = _EITHER.fullmatch(re.split(r"[;(]", senses[0].definition())[0].strip().lower()) if senses else None
    return found.groups() if found else ()
