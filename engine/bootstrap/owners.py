"""Which relation a lexicon word belongs to (lexicon.py asks the model; this module decides whose each word is).

A lexicon word is read as naming its relation's end, so a word with two owners sends a question down a relation it
did not ask for, and a small model gives such words often: one word for two relations, for both ends of one, a word
of a neighbour's. The rules here are English and WordNet's, never a domain's:
- `distinct`: one owner per word, but for one end of relations alike whose nouns are kinds of one (`kinds_of_one`):
  a child is the subject of `father` and of `mother` both;
- `of_others`: a kind of another relation's own noun is that relation's ("wife" is a kind of spouse, not of mother);
- `alike_ends`: relations alike whose own nouns are kinds of one noun (a father and a mother are parents) share the
  words for their subjects: the model named a mother's children and not a father's.
"""

from __future__ import annotations

from collections import defaultdict

from kg_adapters.lexicon import RelationWords
from kg_adapters.readable import object_noun, singular, subject_role
from kg_adapters.schema import RelationInfo, Schema

from .kinds import broader, same_kind


def key(word: str) -> str:
    """A word as compared with other words: lower case, its last word singular ("<noun>s" is "<noun>")."""
    parts = word.lower().split()
    return " ".join(parts[:-1] + [singular(parts[-1])]) if parts else ""


def label_words(schema: Schema) -> dict[str, set[str]]:
    """{word: the relations whose own label or noun spells it}."""
    spelt: dict[str, set[str]] = defaultdict(set)
    for rel in schema.relations:
        for text in (rel.label, object_noun(rel.name)):
            for word in {text, *text.split()}:
                if word:
                    spelt[key(word)].add(rel.name)
    return spelt


def to_literals(schema: Schema, rel: RelationInfo) -> bool:
    """A relation to values (numbers, dates): its subjects are named by their class, not by a lexicon word."""
    return any(info.is_literal for info in map(schema.class_, rel.range) if info is not None)


def distinct(found: dict[str, RelationWords], schema: Schema) -> dict[str, RelationWords]:
    """The words that point at one end of one relation. A word is read as naming the relation it belongs to, so
    one that the model gives for two relations, or for both ends of one, or that another relation's own label
    spells, would send a question down a relation it did not ask for (MoviesKG: "writer" for both ends of
    `written_by`, "actor" for `directed_by`, "rating" for two rating relations). Only words with one owner stay,
    but for one end of relations whose nouns are kinds of one: "X's children" may walk `father` or `mother` (which
    one X has, the KG says); "partner" for `sibling` and `spouse` names neither."""
    owners: dict[str, set[tuple[str, bool]]] = defaultdict(set)
    for name, ends in found.items():
        for toward_objects, words in ((True, ends.words), (False, ends.reverse_words)):
            for word in words:
                owners[key(word)].add((name, toward_objects))
    spelt = label_words(schema)

    def own(name: str, word: str) -> bool:
        ends = owners[key(word)]
        return (len(ends) == 1 or _one_end_alike(schema, ends)) and spelt.get(key(word), {name}) <= {name}

    return {name: RelationWords(tuple(w for w in ends.words if own(name, w)),
                                tuple(w for w in ends.reverse_words if own(name, w)))
            for name, ends in found.items()}


def alike(schema: Schema, names: set[str]) -> bool:
    """Relations between members of one class, the same class for all: `father`, `mother` and `spouse`."""
    infos = [schema.relation(name) for name in names]
    return all(info is not None and info.links_one_class and set(info.domain) == set(infos[0].domain)
               for info in infos)


def kinds_of_one(schema: Schema, one: str, other: str) -> bool:
    """Relations alike whose own nouns are kinds of one noun: `father` and `mother` (parents), not `sibling` and
    `spouse`, which a small model gives the same words ("partner") by mistake."""
    return one != other and alike(schema, {one, other}) and same_kind(object_noun(one), object_noun(other))


def _one_end_alike(schema: Schema, ends: set[tuple[str, bool]]) -> bool:
    names = sorted(name for name, _ in ends)
    return (len({toward_objects for _, toward_objects in ends}) == 1 and len(names) == len(ends)
            and all(kinds_of_one(schema, names[0], other) for other in names[1:]))


def of_others(found: dict[str, RelationWords], schema: Schema) -> dict[str, RelationWords]:
    """Less the words whose first WordNet sense is a kind of the own noun of another relation alike, and not of the
    end's own: a blind dynasty probe's 0.5B model gave "wife" for the objects of `mother`, and "who was X's wife?"
    walked to his mother (session 65). Only between relations alike: over all relations, 41 of PathQuestion's 363
    lost words such as "scientist" for a discoverer, a kind of some relation's "person". Without WordNet nothing is
    taken out."""
    nouns = {rel.name: object_noun(rel.name) for rel in schema.relations if not to_literals(schema, rel)}

    def another(name: str, word: str, own: str | None) -> bool:
        others = [noun for other, noun in nouns.items() if other != name and noun and key(noun) != key(word)
                  and alike(schema, {name, other})]
        return not (own and (word == own or broader(own, word))) and any(broader(noun, word) for noun in others)

    return {name: RelationWords(tuple(w for w in ends.words if not another(name, w, nouns.get(name))),
                                tuple(w for w in ends.reverse_words if not another(name, w, subject_role(name))))
            for name, ends in found.items()}


def alike_ends(words: dict[str, RelationWords], schema: Schema) -> dict[str, RelationWords]:
    """Each relation's words, with the words for the subjects of the relations alike whose own nouns are kinds of
    one noun: a father and a mother are both parents, so whoever the model called a mother's children are a
    father's too (a blind dynasty probe's model named a mother's "child", "son" and "daughter", and a father's
    "person", "spouse", "parent", which the checks dropped). Only where neither spells the other's subjects
    otherwise: a word already given for the other end of either stays where it was."""
    names = [rel.name for rel in schema.relations if rel.links_one_class and not to_literals(schema, rel)]
    out = dict(words)
    for name in names:
        kin = [other for other in names if kinds_of_one(schema, name, other)]
        if not kin or name not in words:
            continue
        forward = {key(w) for n in (name, *kin) if n in words for w in words[n].words}
        given = [w for n in (name, *kin) if n in words for w in words[n].reverse_words if key(w) not in forward]
        out[name] = RelationWords(words[name].words, tuple(dict.fromkeys([*words[name].reverse_words, *given])))
    return out
