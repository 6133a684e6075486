"""The nouns of a KG's relations that a question asks for: "what is the <noun> of X", "which <noun> ...", "what is
X's <noun>" ask for the objects of the relation the noun names (a number where they are values).

`question.py` adds the classes these nouns ask for to the question's asked classes; the ranker puts the readings
that answer with them first (`asked.fits_asked`). A ranking that names no class ranks the subjects of the
relations it spells (`ranked_subjects`), and "nothing" denies the class at the far end of the relation its verb
spells (`classes_named_or_denied`).
"""

from __future__ import annotations

import re
from typing import Mapping, Sequence

from kg_adapters.readable import object_noun, subject_role, verb_only
from kg_adapters.schema import Schema

from .linker import Linking
from .words import word_forms

POSSESSED = re.compile(r"['’]s?\s*$")  # "X's <noun>", "Xs' <noun>"


def relation_nouns(schema: Schema) -> tuple[re.Pattern, dict[str, tuple[frozenset[str], bool]]]:
    """ "what is the <noun>", "which <noun>": the nouns of relations (object nouns and labels), each with the
    classes of their objects, which the question asks for, and whether they are values. Without it, "what is the
    <numeric noun> of X" got a set of entities related to X, scored above the one number asked for; and "what is
    the <noun> of X", where the relation leads to entities with a numeric attribute, got that attribute, a reading
    the 0.5B scorer liked better than the entity itself (tests/test_mechanisms.py). A question that opens with the
    noun asks for it too where it is a value ("<numeric noun> of ...?"), not an entity: in "the <noun> in X also
    appears in which <class>" the wh-word asks."""
    asks: dict[str, set[str]] = {}
    values: set[str] = set()
    # a word that is some relation's own noun or label keeps its reading: PathQuestion's "recording" is a relation,
    # and read as the lexicon's word for another relation's objects it asked for those (PQL-3H check 92.7 -> 75.6;
    # with this, none of the 69 sampled dev questions the rule reaches changes its program: BENCHMARKS.md v72-v74)
    own = {form for rel in schema.relations for noun in _own_nouns(rel.name, rel.label) for form in _forms(noun)}
    for rel in schema.relations:
        if schema.literal_kind(rel) == "boolean":
            continue  # "which is <yes/no word>": the word names its subjects, never true or false
        value = schema.literal_kind(rel) != "entity"
        # a "<noun> of" name's noun names its subjects ("which <noun> of X": readable.subject_role)
        named = rel.domain if not value and subject_role(rel.name) else rel.range
        if not value and not (named and all(schema.class_(c) for c in named)):
            continue  # entities of no known class
        # the lexicon's words for the objects ask for them as the label does ("which dish" for `serves`); its words
        # for the subjects ask for those ("which kid" for `parent`)
        ends = [(_own_nouns(rel.name, rel.label), named, value)]
        lexicon = ((rel.words, rel.range, value), (() if value else rel.reverse_words, rel.domain, False))
        ends += [(set(words) - own, classes, valued) for words, classes, valued in lexicon
                 if words and classes and all(schema.class_(c) for c in classes)]
        for nouns, classes, valued in ends:
            for noun in nouns:
                for form in _forms(noun):
                    asks.setdefault(form, set()).update(classes)
                    if valued:
                        values.add(form)
    alternatives = "|".join(sorted(map(re.escape, asks), key=len, reverse=True)) or "(?!)"
    pattern = re.compile(rf"(\b(?P<wh>what|which)('s\s+|\s+(is|are|was|were)\s+|\s+)|^\s*)(the\s+)?{_SUPERLATIVE}"
                         rf"(?P<noun>{alternatives})\b(?!\s*['’]s?\s)", re.IGNORECASE)
    return pattern, {form: (frozenset(classes), form in values) for form, classes in asks.items()}


def _own_nouns(name: str, label: str) -> set[str]:
    """A relation's label and the noun its name gives its objects, where it gives one (`readable.verb_only`)."""
    return {label.lower()} | (set() if verb_only(name) else {object_noun(name)})


def _forms(noun: str) -> set[str]:
    """A one-word noun's inflections ("dish", "dishes"); a phrase as it is."""
    return word_forms(noun) if " " not in noun else {noun}


def ranked_subjects(schema: Schema, named: Mapping[str, object]) -> tuple[str, ...]:
    """ "Which dish has the most calories?" where no class is called "dish": the question names no thing and no
    class of the graph, but it spells what it ranks by (`named`: the relations it spells), so the things ranked
    are the subjects of the attributes it spells (of the relations it spells where it spells no attribute)."""
    spelled = [rel for name in named if (rel := schema.relation(name))]
    ranked = [rel for rel in spelled if schema.literal_kind(rel) != "entity"] or spelled
    domains = (c for rel in ranked for c in rel.domain)
    return tuple(dict.fromkeys(c for c in domains if (info := schema.class_(c)) and not info.is_literal))


# A superlative before the noun ("which is the oldest <noun>") ranks what the noun names; it asks for the same things.
# The group only finds a candidate: the reader keeps a match where `degree.is_superlative` says the word is one ("the
# forest <noun>" is no ranking).
_SUPERLATIVE = r"(?P<graded>(most|least)\s+[a-z]+\s+|[a-z]+est\s+)?"


def without_possessors(text: str, linking: Linking) -> str:
    """The text less each name that owns what follows it ("what is X's <noun>" -> "what is <noun>"), so that the
    noun after the wh-phrase is read as the one asked for."""
    for mention in sorted(linking.mentions, key=lambda m: m.start, reverse=True):
        owner = _POSSESSOR.match(text, mention.end)
        if mention.kind == "entity" and owner and (owner.group(1) or POSSESSED.search(mention.text)):
            text = text[: mention.start] + text[owner.end() :]
    return text


_POSSESSOR = re.compile(r"(\s*['’]s?)?\s+")


# The words that deny every object of a verb: "which professors teach nothing?", "who manages nobody?", and a
# denied verb's "anything" / "anyone": "which professors aren't teaching anything?", "who doesn't manage anyone?".
_NOTHING = re.compile(r"\b(nothing|nobody|no one|no-one)\b|(n['’]t|\bnot|\bnever)\b(\s+\w+){0,3}?\s+(anything|anyone|anybody)\b",
                      re.IGNORECASE)


def classes_named_or_denied(schema: Schema, named_classes: Sequence[str], text: str, named: Mapping[str, object],
                            asked: frozenset[str]) -> tuple[str, ...]:
    """The schema's classes among those the question's words name, then the ones its "nothing" denies.

    "Which professors teach nothing?" names no course, yet it denies courses: a professor who teaches nothing teaches
    no course, (AND Professor (NOT (JOIN teaches Course))). English leaves the object to the verb, so what is denied
    is the entity class at the far end of each relation the question spells (`named`) from a class it asks for
    (`asked`). Read as if named ("teach no course"), the search builds the negation it builds for "which planets have
    no moons?" (`candidates._negations`); before, the university KG's question answered a walk over `member_of`."""
    classes = [c for c in named_classes if schema.class_(c) is not None]
    if not asked or not _NOTHING.search(text):
        return tuple(classes)
    for name in named:
        rel = schema.relation(name)
        if rel is None or schema.literal_kind(rel) != "entity":
            continue  # "which planets weigh nothing" asks about a value: no thing is denied
        ends = (rel.range if set(rel.domain) & asked else ()) + (rel.domain if set(rel.range) & asked else ())
        classes += [c for c in ends if (info := schema.class_(c)) is not None and not info.is_literal]
    return tuple(dict.fromkeys(classes))
