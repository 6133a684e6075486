"""Relations that hold each other's pairs reversed (kg_adapters.inverses), as a Wikidata-style family KG states them.

A blind lineage probe (bench/probes/lineage.py, session 59) states `father` and `mother` for every person and `child`
for most of the same pairs reversed. Before, "How many children did Ulric II have?" counted the three `child` pairs of
his four children, and "Who are Ulric III's kids?" was read as his father's children, a walk out over `father` and
back over `child` that nothing charged."""

from __future__ import annotations

import pytest

from engine.answer.walk_back import partners, repeats, walks_back
from kg_adapters.both_ways import mutual
from engine.answer.named import Spelling
from engine.programs.sexpr import parse
from tests.conftest import zero_shot_answer

LINEAGE = """@prefix l: <http://example.org/lin/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
l:Human rdfs:label "human" .
l:father rdfs:label "father" . l:mother rdfs:label "mother" . l:child rdfs:label "child" . l:spouse rdfs:label "spouse" .
l:u1 a l:Human ; rdfs:label "Ulric I of Valdmar" ; l:spouse l:m1 .
l:m1 a l:Human ; rdfs:label "Maud of Orsenne" .
l:u2 a l:Human ; rdfs:label "Ulric II of Valdmar" ; l:father l:u1 ; l:mother l:m1 ; l:spouse l:e2 .
l:h2 a l:Human ; rdfs:label "Hedwig of Valdmar" ; l:father l:u1 ; l:mother l:m1 .
l:e2 a l:Human ; rdfs:label "Edda of Lisk" .
l:a3 a l:Human ; rdfs:label "Aldric of Valdmar" ; l:father l:u2 ; l:mother l:e2 .
l:b3 a l:Human ; rdfs:label "Bertram of Valdmar" ; l:father l:u2 ; l:mother l:e2 .
l:c3 a l:Human ; rdfs:label "Cecily of Valdmar" ; l:father l:u2 ; l:mother l:e2 .
l:d3 a l:Human ; rdfs:label "Dietlind of Valdmar" ; l:father l:u2 ; l:mother l:e2 .
l:u1 l:child l:u2 , l:h2 . l:m1 l:child l:u2 .
l:u2 l:child l:a3 , l:b3 , l:c3 . l:e2 l:child l:a3 , l:b3 .
"""
GRANDCHILDREN = ["Aldric of Valdmar", "Bertram of Valdmar", "Cecily of Valdmar", "Dietlind of Valdmar"]


@pytest.fixture
def lineage(small_kg):
    return small_kg("lineage.ttl", LINEAGE)


def test_relations_that_hold_each_others_pairs_reversed_are_inverses(lineage) -> None:
    inverse = {r.name: r.inverse_of for r in lineage.schema.relations}
    # and `parent`, the union of `father` and `mother` (kg_adapters.unions), holds `child`'s pairs reversed too
    assert inverse == {"child": ("father", "mother", "parent"), "father": ("child",), "mother": ("child",),
                       "spouse": (), "parent": ("child",)}
    words = {r.name: r.reverse_words for r in lineage.schema.relations}
    # `child` holds more pairs: its label names the subjects of `father`; "father" names no subject of `child`
    assert "child" in words["father"] and "child" in words["mother"] and not words["child"]


def test_the_wider_relation_holds_its_narrower_inverses_pairs(lineage) -> None:
    ran = lineage.executor.execute('(JOIN (R child) "Ulric II of Valdmar")')
    assert sorted(a.label for a in ran.answers) == GRANDCHILDREN  # three stated, Dietlind by her father only
    assert lineage.executor.execute('(COUNT (JOIN (R child) "Ulric II of Valdmar"))').count == 4
    # but not the other way: the subjects of `child` are mothers too, and `father` says which one is
    fathers = lineage.executor.execute('(JOIN (R father) "Aldric of Valdmar")')
    assert [a.label for a in fathers.answers] == ["Ulric II of Valdmar"]


def test_a_walk_out_over_one_and_back_over_its_inverse_walks_back() -> None:
    inverse = {"child": ("father", "mother"), "father": ("child",), "mother": ("child",)}
    siblings = parse('(JOIN (R child) (JOIN (R father) "Ulric II of Valdmar"))')  # his father's children
    assert walks_back(siblings, inverse) and not walks_back(siblings)
    assert repeats(siblings, True, {}, inverse) == 1 and repeats(parse('(JOIN (R child) "Ulric II of Valdmar")'),
                                                                 True, {}, inverse) == 0
    # "the children of X's father" names each by a word of its own: the walk is asked for
    own = {"child": Spelling(frozenset(), frozenset({"children"})), "father": Spelling(frozenset(), frozenset({"father"}))}
    assert not walks_back(siblings, partners(inverse, own))
    # "X's sons" names both by one word ("son": `child`'s noun, `father`'s subjects): still a walk back
    one = {"child": Spelling(frozenset(), frozenset({"sons"})),
           "father": Spelling(frozenset(), frozenset(), by_back_noun=frozenset({"sons"}))}
    assert walks_back(siblings, partners(inverse, one))


def test_a_question_of_children_finds_every_child(lineage, tmp_path) -> None:
    result = zero_shot_answer(lineage, tmp_path, "How many children did Ulric II have?")
    assert result.count == 4, result.program


def test_a_relation_with_an_inverse_has_a_direction(lineage) -> None:
    """`child` has no lexicon words for its subjects here; read as mutual, "the grandchildren of X" spelt `child` both
    ways, and a walk down two generations and back up two (X and X's spouse) won on the lineage probe."""
    by_name = {r.name: r for r in lineage.schema.relations}
    assert not by_name["child"].reverse_words and by_name["child"].inverse_of
    assert not mutual(by_name["child"]) and mutual(by_name["spouse"])
