"""Readable names for bare schemas, and relations stored twice (mirrors), on KGs nobody tuned for."""

from __future__ import annotations

import pytest

from engine.answer.candidates import Enumerator
from engine.config import ScoutConfig
from engine.programs.kg import KnowledgeGraph
from engine.programs.sexpr import parse
from kg_adapters.naming import entity_iri
from kg_adapters.readable import names_people, object_noun, relation_label, reverse_label, subject_noun
from kg_adapters.schema import Schema
from tests.conftest import read_table


@pytest.mark.parametrize("name, expected", read_table("readable_names.tsv"))
def test_relation_names_read_as_english(name: str, expected: str) -> None:
    noun, label = expected.split(" | ")
    assert (object_noun(name), relation_label(name)) == (noun, label)


@pytest.mark.parametrize("relations, expected", [
    (["plays_in_club", "plays_position", "is_aged"], "player"),  # a verb two of them begin with
    (["__people__person__gender", "__people__person__nationality"], "person"),  # the path's type segment
    (["directed_by", "has_genre"], None),  # nothing to go by
])
def test_subjects_are_named_by_convention_or_shared_verb(relations: list[str], expected: str | None) -> None:
    assert subject_noun(relations) == expected


@pytest.mark.parametrize("label, backwards", [
    ("directed by", "directed"), ("has genre", "genre of"), ("moon of", "has moon"), ("capital", "capital of"),
    ("is in country", "country of"), ("borders", "bordered by"), ("speaks", "spoken by"),
    ("traverses", "traversed by"), ("uses currency", "currency used by"), ("flows through", "flowed through by"),
    ("located in", "what is located in it"), ("release year", "release year of"),
])
def test_relations_read_backwards_as_english(label: str, backwards: str) -> None:
    assert reverse_label(label) == backwards  # never "flows through of" or "travers"


def test_agent_nouns_name_people_and_other_nouns_do_not() -> None:
    assert names_people(["director", "writer", "actor"])
    assert not names_people(["genre", "language"])


_MIRRORED = """\
Ada|plays_in_club|Reds
Reds|plays_in_club_inverse|Ada
Bo|plays_in_club|Reds
Reds|plays_in_club_inverse|Bo
Cy|plays_in_club|Blues
Blues|plays_in_club_inverse|Cy
Ada|plays_position|Forward
Bo|plays_position|Keeper
Cy|plays_position|Forward
Reds|rivals|Blues
Blues|rivals|Reds
"""


@pytest.fixture
def mirrored(small_kg) -> KnowledgeGraph:
    return small_kg("clubs.psv", _MIRRORED)


def test_a_relation_stored_reversed_is_a_mirror(mirrored: KnowledgeGraph) -> None:
    schema = mirrored.schema
    assert [r.name for r in schema.relations] == ["plays_in_club", "plays_position", "rivals"]  # rivals: symmetric
    (mirror,) = schema.mirrors
    assert (mirror.name, mirror.mirror_of) == ("plays_in_club_inverse", "plays_in_club")
    primary = schema.relation("plays_in_club")
    assert (mirror.domain, mirror.range) == (primary.range, primary.domain)
    assert schema.class_(primary.domain[0]).label == "player"  # named by the shared verb
    assert Schema.from_json(schema.to_json()) == schema


def test_programs_naming_a_mirror_still_run(mirrored: KnowledgeGraph) -> None:
    via_mirror = mirrored.executor.execute(parse('(JOIN (R plays_in_club_inverse) "Reds")'))
    via_primary = mirrored.executor.execute(parse('(JOIN plays_in_club "Reds")'))
    assert sorted(a.label for a in via_mirror.answers) == sorted(a.label for a in via_primary.answers) == ["Ada", "Bo"]


def test_the_search_walks_mirrors_as_their_primary(mirrored: KnowledgeGraph, config: ScoutConfig) -> None:
    incident = Enumerator(mirrored, config).incident_relations(entity_iri("Reds"))
    assert ("plays_in_club", "object") in incident
    assert all(name != "plays_in_club_inverse" for name, _ in incident)


def test_a_class_named_like_a_relation_hides_neither(small_kg) -> None:
    kg = small_kg("places.psv", "France|continent|Europe\nSpain|continent|Europe\nPeru|continent|South America\n")
    assert kg.schema.class_("continent") is not None and kg.schema.relation("continent") is not None
    answers = kg.executor.execute(parse('(JOIN continent "Europe")')).answers
    assert sorted(a.label for a in answers) == ["France", "Spain"]
    assert [a.label for a in kg.executor.execute(parse("(COUNT continent)")).answers] == ["2"]


@pytest.mark.parametrize("noun, person", [
    ("employee", True), ("student", True), ("Spouse", True), ("football player", True), ("member", True),
    # the first sense only: a company is an institution before a troupe, a computer a machine before a reckoner
    ("company", False), ("computer", False), ("band", False), ("department", False), ("", False),
])
def test_wordnet_says_which_nouns_name_a_kind_of_person(noun: str, person: bool) -> None:
    from kg_adapters.person_nouns import names_a_person

    assert names_a_person(noun) is person
