"""Whose a lexicon word is (engine.bootstrap.owners): one owner per word, but relations alike share the words for
their subjects, and a kind of another relation's noun is that relation's. The model's words below are the ones the
0.5B model gave a blind dynasty probe (session 65), on a KG with `father`, `mother` and `spouse` between persons."""

from __future__ import annotations

from engine.bootstrap.kinds import same_kind
from engine.bootstrap.owners import alike, alike_ends, distinct, of_others
from kg_adapters.lexicon import RelationWords

KIN = """\
@prefix k: <http://example.org/kin/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
k:Person a rdfs:Class ; rdfs:label "person" .
k:Town a rdfs:Class ; rdfs:label "town" .
k:father rdfs:label "father" ; rdfs:domain k:Person ; rdfs:range k:Person .
k:mother rdfs:label "mother" ; rdfs:domain k:Person ; rdfs:range k:Person .
k:spouse rdfs:label "spouse" ; rdfs:domain k:Person ; rdfs:range k:Person .
k:born_in rdfs:label "born in" ; rdfs:domain k:Person ; rdfs:range k:Town .
k:vell a k:Town ; rdfs:label "Vell" .
k:ada a k:Person ; rdfs:label "Ada Roe" ; k:born_in k:vell .
k:bo a k:Person ; rdfs:label "Bo Roe" ; k:spouse k:ada ; k:born_in k:vell .
k:cy a k:Person ; rdfs:label "Cy Roe" ; k:father k:bo ; k:mother k:ada ; k:born_in k:vell .
"""


def test_relations_alike_link_one_class_the_same(small_kg) -> None:
    schema = small_kg("kin.ttl", KIN).schema
    assert alike(schema, {"father", "mother", "spouse"})
    assert not alike(schema, {"father", "born_in"})  # a person's town is another class


def test_one_end_of_relations_alike_may_share_a_word(small_kg) -> None:
    """"child" for the subjects of `father` and `mother` both: either may be the walk. A word for two ends, or for
    a relation to another class, still names neither."""
    schema = small_kg("kin.ttl", KIN).schema
    proposed = {
        "father": RelationWords(("dad",), ("child", "heir")),
        "mother": RelationWords(("mom", "heir"), ("child",)),
        "born_in": RelationWords(("hometown",), ("child",)),
    }
    assert distinct(proposed, schema) == {
        "father": RelationWords(("dad",), ()),  # "heir": the subjects of one, the objects of the other
        "mother": RelationWords(("mom",), ()),
        "born_in": RelationWords(("hometown",), ()),  # "child" had a third owner, `born_in`, not alike
    }
    without_the_town = {name: words for name, words in proposed.items() if name != "born_in"}
    assert distinct(without_the_town, schema)["mother"] == RelationWords(("mom",), ("child",))
    # a father and a spouse are no kinds of one noun: the model's "partner" for both names neither
    assert distinct({"father": RelationWords(("partner",), ()), "spouse": RelationWords(("partner",), ())},
                    schema)["spouse"] == RelationWords((), ())


def test_a_kind_of_another_relation_s_noun_is_that_relation_s(small_kg) -> None:
    """The model gave "wife" for the objects of `mother`; a wife is a kind of spouse, so "who was X's wife?" had
    walked to his mother. "mom" is a kind of mother and stays."""
    schema = small_kg("kin.ttl", KIN).schema
    proposed = {"mother": RelationWords(("wife", "mom"), ("child",)), "spouse": RelationWords(("partner",), ())}
    assert of_others(proposed, schema) == {"mother": RelationWords(("mom",), ("child",)),
                                           "spouse": RelationWords(("partner",), ())}


def test_relations_alike_whose_nouns_are_kinds_of_one_share_their_subjects_words(small_kg) -> None:
    """A father and a mother are parents: the children the model named for one are the other's too. A spouse is no
    parent, so it gets none."""
    schema = small_kg("kin.ttl", KIN).schema
    words = {
        "father": RelationWords(("dad",), ()),
        "mother": RelationWords(("mom",), ("child", "son")),
        "spouse": RelationWords(("partner",), ()),
    }
    shared = alike_ends(words, schema)
    assert shared["father"] == RelationWords(("dad",), ("child", "son"))
    assert shared["mother"] == words["mother"] and shared["spouse"] == words["spouse"]


def test_two_nouns_are_kinds_of_one_only_below_a_narrow_noun() -> None:
    assert same_kind("father", "mother") and same_kind("husband", "wife")
    assert not same_kind("sibling", "spouse")  # both only relatives, a noun of 16 kinds
    assert not same_kind("father", "spouse") and not same_kind("father", "father")

