"""kg_adapters.text_values: a KG's short strings are named as its entities are.

The KG is TEST DATA, invented here: a small firm's projects in Turtle, their status and their staff's job titles held
as strings, as an HR export writes them, beside a long note that names nothing.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.answer.labels import read_labels
from engine.answer.linker import LabelIndex
from engine.answer.reasoner import Reasoner
from engine.config import ScoutConfig
from engine.lm.embedder import Embedder
from engine.lm.llm import LLM
from engine.programs.kg import KnowledgeGraph
from engine.programs.terms import entity
from kg_adapters.base import IRI_FORBIDDEN
from kg_adapters.text_values import names_a_thing, text_value, text_value_iri

FIRM_TTL = """\
@prefix f: <http://example.org/firm/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
f:Project a rdfs:Class ; rdfs:label "project" .
f:Employee a rdfs:Class ; rdfs:label "employee" .
f:status rdfs:label "status" ; rdfs:domain f:Project .
f:job_title rdfs:label "job title" ; rdfs:domain f:Employee .
f:note rdfs:label "note" ; rdfs:domain f:Project .
f:lead rdfs:label "lead" ; rdfs:domain f:Project ; rdfs:range f:Employee .
f:ivo a f:Employee ; rdfs:label "Ivo Marsh" ; f:job_title "Senior Analyst" .
f:ula a f:Employee ; rdfs:label "Ula Brandt" ; f:job_title "Partner" .
f:kai a f:Employee ; rdfs:label "Kai Lund" ; f:job_title "Senior Analyst" .
f:rex a f:Employee ; rdfs:label "Rex Hale" ; f:job_title "Manager" .
f:Team a rdfs:Class ; rdfs:label "team" .
f:colour rdfs:label "colour" ; rdfs:domain f:Team .
f:red_team a f:Team ; rdfs:label "Red Team" ; f:colour "red" .
f:opened_on rdfs:label "opened on" ; rdfs:domain f:Project .
f:dock a f:Project ; rdfs:label "Dockside Survey" ; f:status "Open" ; f:lead f:rex ;
    f:opened_on "2024-02-01"^^<http://www.w3.org/2001/XMLSchema#date> .
f:quay a f:Project ; rdfs:label "Quayside Audit" ; f:status "On hold" ; f:lead f:ivo ;
    f:note "Paused until the client's new finance lead has been hired and briefed on the scope." .
f:mill a f:Project ; rdfs:label "Millrace Review" ; f:status "Active" ; f:lead f:ula .
f:fern a f:Project ; rdfs:label "Fernhill Pricing" ; f:status "Active" ; f:lead f:kai ; f:note "2024" .
"""
ON_HOLD = text_value_iri("On hold")


@pytest.fixture(scope="module")
def firm(tmp_path_factory):
    cache = tmp_path_factory.mktemp("firm")
    path = cache / "firm.ttl"
    path.write_text(FIRM_TTL)
    config = ScoutConfig(cache_dir=str(cache / "cache"))
    kg = KnowledgeGraph.open(str(path), config)
    yield kg, cache, config
    kg.close()


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.text(max_size=40).filter(lambda s: not any("\ud800" <= ch <= "\udfff" for ch in s)),
       st.sampled_from([None, "en", "de-CH"]))
def test_a_text_values_iri_is_an_iri_and_carries_the_string_back(value: str, lang: str | None) -> None:
    made = text_value_iri(value, lang)
    assert not IRI_FORBIDDEN.search(made)
    assert text_value(made) == (value, lang)
    assert entity(made).startswith('"')  # written into a query as the string, never as the made-up IRI


def test_only_short_strings_name_a_thing() -> None:
    assert names_a_thing("On hold") and names_a_thing("Senior Analyst")
    assert not names_a_thing("Paused until the client's new finance lead has been hired and briefed on the scope.")
    assert not names_a_thing("2024") and not names_a_thing(" ") and not names_a_thing("3.5")
    assert text_value("http://example.org/firm/quay") is None and entity("http://example.org/firm/quay") == (
        "<http://example.org/firm/quay>")


class _QueriedOnly:
    """The store as an endpoint offers it: queries only, no streaming scan (labels._selected reads it)."""

    def __init__(self, store):
        self.select = store.select


def test_the_label_index_holds_short_strings_of_relations_to_text_read_either_way(firm) -> None:
    """The embedded store's one streaming pass and an endpoint's queries read the same text values, each with the
    relation it is the object of; the long note and the number written as a string stay out."""
    kg, cache, _ = firm
    for store in (kg.store, _QueriedOnly(kg.store)):
        read = {e.iri: e for e in read_labels(store, kg.schema, cache / "scratch.sqlite")}
        texts = {e.labels[0] for iri, e in read.items() if text_value(iri)}
        assert texts == {"On hold", "Active", "Senior Analyst", "Partner", "Manager", "red", "Open"}
        assert read[text_value_iri("Active")].degree == 2


def test_a_program_on_a_text_value_runs_on_the_string(firm) -> None:
    """(JOIN status "On hold") typed by a user names the string as it would an entity; its SPARQL holds the string."""
    kg, _, _ = firm
    result = kg.executor.execute('(JOIN status "On hold")')
    assert [a.label for a in result.answers] == ["Quayside Audit"]
    assert '"On hold"' in result.sparql and "urn:" not in result.sparql


def test_a_question_naming_a_string_links_it_and_no_near_word_does(firm) -> None:
    """A string is named as written or normalised; never fuzzily, as a typo of a name is: near the title "Manager"
    lie the forms of a common word, and "who manages Rex?" had read (AND (JOIN job_title "Manager") ...)."""
    kg, cache, _ = firm
    index = LabelIndex.build(kg.store, kg.schema, cache, Embedder.load())

    def linked(question: str) -> dict[str, str]:
        return {c.label: c.iri for m in index.link(question).mentions for c in m.candidates if c.kind == "entity"}

    assert linked("which projects are on hold?") == {"On hold": ON_HOLD}
    assert linked("who are the managers?") == {"Manager": text_value_iri("Manager")}
    assert linked("who manages Rex Hale?") == {"Rex Hale": "http://example.org/firm/rex"}
    # no "the"-less variant either: "the Red" had named the colour alone, and the team whose name opens so was lost
    assert linked("who is in the Red?") == {"red": text_value_iri("red"), "Red Team": "http://example.org/firm/red_team"}
    # another form of a schema word ("open" of `opened_on`) still names a string written so; the word itself does not
    assert linked("which projects are still open?") == {"Open": text_value_iri("Open")}
    assert linked("which projects were opened in 2024?") == {}


@pytest.mark.parametrize("question, answers", [
    # before: every project (nothing was linked, the class alone answered)
    ("which projects are on hold?", {"Quayside Audit"}),
    ("who are the senior analysts?", {"Ivo Marsh", "Kai Lund"}),
])
def test_a_status_or_a_title_held_as_a_string_is_asked_for_by_name(firm, question: str, answers: set) -> None:
    kg, cache, config = firm
    embedder = Embedder.load()
    index = LabelIndex.build(kg.store, kg.schema, cache, embedder)
    reasoner = Reasoner(kg, [], LLM.load("qwen2.5-coder-0.5b"), embedder, index, config)
    try:
        result = reasoner.answer(question)
    finally:
        reasoner.close()
    assert {a.label for a in result.answers} == answers, result.program
