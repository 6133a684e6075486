"""A name read together with the name before it (engine.answer.titled): "Queen Maud" of three Mauds.

A blind lineage probe (bench/probes/lineage.py) names its people "Maud of Valdmar", "Maud of Lisk", ... and its
titles as entities ("Queen of Valdmar", held by one Maud). Before, "Maud" opened more than two "X of Y" labels and was
read as a title, so "Queen Maud" linked the title alone and the search walked from it; a first name that three people
share links two of them at random, as the linker keeps two candidates."""

from __future__ import annotations

import pytest

from engine.answer.linker import LabelIndex
from engine.answer.question import QuestionReader
from engine.answer.titled import ties_between

ROYALS = """@prefix l: <http://example.org/lin/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
l:Human rdfs:label "human" . l:Title rdfs:label "noble title" .
l:spouse rdfs:label "spouse" . l:nobleTitle rdfs:label "noble title" .
l:queen a l:Title ; rdfs:label "Queen of Valdmar" .
l:duke a l:Title ; rdfs:label "Duke of Orsenne" .
l:m1 a l:Human ; rdfs:label "Maud of Valdmar" .
l:m2 a l:Human ; rdfs:label "Maud of Lisk" ; l:spouse l:u1 .
l:m3 a l:Human ; rdfs:label "Maud of Orsenne" ; l:nobleTitle l:queen ; l:spouse l:u3 .
l:m4 a l:Human ; rdfs:label "Maud of Kethwyn" .
l:u1 a l:Human ; rdfs:label "Ulric I of Valdmar" .
l:u3 a l:Human ; rdfs:label "Ulric III of Valdmar" ; l:nobleTitle l:duke .
"""


@pytest.fixture
def reader(small_kg, config):
    kg = small_kg("royals.ttl", ROYALS)
    index = LabelIndex.build(kg.store, kg.schema, config.cache_dir)
    yield QuestionReader(kg.schema, index, ties_between(kg.executor))
    index.close()


def _mentions(reader: QuestionReader, question: str) -> list[tuple[str, list[str]]]:
    return [(m.text, [c.label for c in m.candidates]) for m in reader.read(question).linking.mentions]


def test_a_title_before_a_shared_first_name_chooses_its_holder(reader) -> None:
    # the Maud the title is tied to, of four; the title names nothing more
    assert _mentions(reader, "Who is Queen Maud's husband?") == [("Queen Maud's", ["Maud of Orsenne"])]


def test_a_first_name_many_people_share_still_names_them(reader) -> None:
    # no title: two of the four, as the linker keeps two (before, none: "Maud" was taken for a title)
    (mention,) = reader.read("Who is Maud's husband?").linking.mentions
    assert len(mention.candidates) == 2 and all(c.label.startswith("Maud of ") for c in mention.candidates)


def test_two_names_the_kg_does_not_tie_stay_two_names(reader) -> None:
    # the Duke of Orsenne is held by no Maud: both names stay as linked
    (duke, maud) = _mentions(reader, "Who is the wife of Duke Maud?")
    assert duke == ("Duke", ["Duke of Orsenne"]) and maud[0] == "Maud" and len(maud[1]) == 2


def test_without_a_store_nothing_is_read_together(small_kg, config) -> None:
    kg = small_kg("royals.ttl", ROYALS)
    index = LabelIndex.build(kg.store, kg.schema, config.cache_dir)
    try:
        mentions = [m.text for m in QuestionReader(kg.schema, index).read("Who is Queen Maud's husband?").linking.mentions]
        assert "Queen" in mentions
    finally:
        index.close()
