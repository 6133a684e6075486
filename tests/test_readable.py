"""Readable names for bare schemas, and relations stored twice (mirrors), on KGs nobody tuned for."""

from __future__ import annotations

import pytest

from engine.answer.candidates import Enumerator
from engine.config import ScoutConfig
from engine.programs.kg import KnowledgeGraph
from engine.programs.sexpr import parse
from kg_adapters.naming import entity_iri
from engine.programs.verbalize import verbalize
from kg_adapters.readable import (names_people, object_noun, reading_noun, relation_label, reverse_label, shared_head,
                                  subject_noun, subject_role, word_forms)
from kg_adapters.schema import Schema
from tests.conftest import read_table


@pytest.mark.parametrize("word, adverb", [
    ("remote", "remotely"),  # "who works remotely?" spells `isRemote` (a consultancy's HR export)
    ("main", "mainly"),
    ("official", "officially"),
    ("simple", "simply"),
    ("happy", "happily"),
    ("basic", "basically"),
])
def test_an_adjective_is_spelt_by_its_adverb_too(word: str, adverb: str) -> None:
    assert adverb in word_forms(word)


@pytest.mark.parametrize("word", ["low", "capital", "city", "nearby"])
def test_no_adverb_english_lacks(word: str) -> None:
    assert not any(form.endswith("ly") for form in word_forms(word))


@pytest.mark.parametrize("name, expected", read_table("readable_names.tsv"))
def test_relation_names_read_as_english(name: str, expected: str) -> None:
    noun, label = expected.split(" | ")
    assert (object_noun(name), relation_label(name)) == (noun, label)


@pytest.mark.parametrize("relations, expected", [
    (["plays_in_club", "plays_position", "is_aged"], "player"),  # a verb two of them begin with
    (["__people__person__gender", "__people__person__nationality"], "person"),  # the path's type segment
    (["directed_by", "has_genre"], None),  # nothing to go by
    (["reigned_from", "reigned_to", "born"], None),  # English has no "reigner" (a blind dynasty probe, session 65)
])
def test_subjects_are_named_by_convention_or_shared_verb(relations: list[str], expected: str | None) -> None:
    assert subject_noun(relations) == expected


@pytest.mark.parametrize("name, role", [
    ("member_of", "member"), ("memberOf", "member"), ("is_part_of", "part"), ("subgenreOf", "subgenre"),
    ("__location__neighborhood__neighborhood_of", "neighborhood"), ("second_level_division_of", "second level division"),
    ("place_of_birth", None), ("made_of", None), ("out_of", None), ("written_by", None), ("located_in", None),
])
def test_a_noun_of_name_calls_its_subjects_by_its_noun(name: str, role: str | None) -> None:
    assert subject_role(name) == role  # X member_of Y: X is a member; X place_of_birth Y: Y is a place


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


_REIGNS = """\
Ada|reigned_from|1901
Ada|reigned_to|1920
Bo|reigned_from|1920
Bo|reigned_to|1941
Cy|reigned_from|1941
Cy|reigned_to|1950
Dee|reigned_from|1950
Bo|father|Eli
Bo|mother|Ada
Cy|father|Bo
Cy|mother|Fay
Dee|father|Cy
Dee|mother|Gil
Ada|spouse|Eli
Bo|spouse|Fay
Cy|spouse|Gil
Eli|spouse|Ada
"""


def test_persons_called_a_father_a_mother_and_a_spouse_are_persons(small_kg) -> None:
    """Subjects of two "reigned" relations: English has no "reigner", and the objects of `father`, `mother` and
    `spouse`, all words for persons, say what they are. Named "reigner", a blind dynasty probe's lexicon read the
    class as no person and gave `father` no word (session 65)."""
    schema = small_kg("reigns.psv", _REIGNS).schema
    assert schema.class_(schema.relation("father").domain[0]).label == "person"


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


def test_objects_whose_role_nouns_share_a_head_are_named_by_it(small_kg) -> None:
    """Clubs that matches call a home club and an away club, and seasons a champion: most of the role nouns end
    in "club", so the class is clubs, not a mixed "away club or champion or home club" for a namer to name."""
    rows = [(f"M{i}", "home_club", f"Club {i % 3}") for i in range(6)]
    rows += [(f"M{i}", "away_club", f"Club {(i + 1) % 3}") for i in range(6)]
    rows += [(f"Season {year}", "champion", f"Club {year % 3}") for year in (2019, 2020, 2021)]
    kg = small_kg("league.psv", "".join(f"{s}|{r}|{o}\n" for s, r, o in rows))
    (club,) = kg.schema.relation("home_club").range
    info = kg.schema.class_(club)
    assert (info.name, info.label, info.mixed) == ("club", "club", False)
    assert kg.schema.relation("champion").range == (club,)
    assert club not in kg.unnamed_classes()  # nothing left for the namer to name


@pytest.mark.parametrize("nouns, head", [
    (["away club", "champion", "home club"], "club"), (["ingredient", "main ingredient"], "ingredient"),
    (["capital", "headquartered", "located"], None), (["birth place", "death place"], "place"),
    (["athlete", "country"], None), (["away club", "champion", "home club", "play", "runner up"], "club"),
    (["birth place", "death place", "home club", "away club"], None),
])
def test_the_head_most_role_nouns_share(nouns: list[str], head: str | None) -> None:
    assert shared_head(nouns) == head


@pytest.mark.parametrize("noun, person", [
    ("employee", True), ("student", True), ("Spouse", True), ("football player", True), ("member", True),
    # the first sense only: a company is an institution before a troupe, a computer a machine before a reckoner
    ("company", False), ("computer", False), ("band", False), ("department", False), ("", False),
])
def test_wordnet_says_which_nouns_name_a_kind_of_person(noun: str, person: bool) -> None:
    from kg_adapters.person_nouns import names_a_person

    assert names_a_person(noun) is person


@pytest.mark.parametrize("label, someone", [
    ("student", True), ("director", True), ("football team", True), ("band", True), ("horse", True),
    ("place of birth", False), ("film", False), ("building", False), ("", False),
])
def test_a_who_asks_for_people_groups_of_them_and_living_things(label: str, someone: bool) -> None:
    from kg_adapters.person_nouns import names_someone

    assert names_someone(label) is someone


@pytest.mark.parametrize("label, place", [
    ("town", True), ("Cities", True), ("hometown", True), ("place of birth", True), ("state", True),
    # the first sense only: a country is a nation before a land; a building, a peak or a department is no location
    ("country", False), ("building", False), ("peak", False), ("department", False), ("", False),
])
def test_a_where_asks_for_what_wordnet_puts_under_location(label: str, place: bool) -> None:
    from kg_adapters.person_nouns import names_a_place

    assert names_a_place(label) is place


@pytest.mark.parametrize("name, range_label, noun", [
    ("enrolled_in", "course", "course"),  # a participle and a preposition: no noun; the objects' class
    ("member_of", "department", "department"),  # "<noun> of": the objects are what one is a member of
    ("teaches", "course", "course"),  # a verb
    ("offered_by", "department", "department"),  # "offerer" is no word
    ("is_aged", None, "age"),  # a literal: the verb's own noun
    ("people__person__place_of_birth", None, "place of birth"),  # not "place"
    ("award__award_winner__awards_won", "won", "award"),  # the noun before the participle
    ("olympics__olympic_sport__olympic_games_contested", None, "olympic game"),
    ("people__marriage_union_type__unions_of_this_type", None, "union"),
    ("plays_in_club", "club", "club"),  # object_noun's word where it is a noun
    ("directed_by", "person", "director"),
    ("film__film__film_art_direction_by", None, "art director"),  # not "directioner"
])
def test_readings_say_a_noun_a_question_would_use(name: str, range_label: str | None, noun: str) -> None:
    assert reading_noun(name, range_label) == noun


def test_a_fluent_reading_of_the_university_kg(small_kg) -> None:
    """The labels of bench/qgen_eye_university.md, where "the enrolled of the student X" made 15 of 40 questions
    wrong: a fluent reading names classes, says "the same r as", and "among" before a set."""
    kg = small_kg("uni.ttl", UNIVERSITY)
    read = lambda program: verbalize(parse(program), kg.schema, fluent=True)  # noqa: E731
    assert read('(JOIN (R housed_in) (JOIN (R offered_by) (JOIN (R teaches) "Ada Park")))') == \
        "the building of the department of the course of the professor Ada Park"
    assert read('(JOIN hometown (JOIN (R hometown) "Noah Osei"))') == \
        "students with the same hometown as the student Noah Osei"
    assert read('(JOIN enrolled_in (JOIN offered_by "History"))') == \
        "students whose course is among courses offered by History"
    assert verbalize(parse('(JOIN (R teaches) "Ada Park")'), kg.schema) == "the teaches of the professor Ada Park"
    # a total of a bare "number" must not read as a count ("the total number of students ..."; worldcup's
    # `wears_number`, bench/qgen_eye_worldcup_v78.md)
    assert read('(SUM (JOIN hometown "Bergen") wears_number)') == \
        "the total of the numbers of students whose hometown is Bergen"
    # "X part_of Y" says X is a part of Y; with no class noun for Y, "the part of X" would turn it about (PQL-3H's
    # second_level_division_of, bench/qgen_eye_pathquestion-large-3h_v78.md)
    assert read('(JOIN (R part_of) "History")') == "the thing that the department History is a part of"
    assert read('(JOIN part_of "Humanities")') == "departments that are parts of Humanities"


UNIVERSITY = """@prefix : <http://example.org/uni/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
:Student a rdfs:Class ; rdfs:label "student" .
:Professor a rdfs:Class ; rdfs:label "professor" .
:Course a rdfs:Class ; rdfs:label "course" .
:Department a rdfs:Class ; rdfs:label "department" .
:Building a rdfs:Class ; rdfs:label "building" .
:Town a rdfs:Class ; rdfs:label "town" .
:enrolled_in rdfs:domain :Student ; rdfs:range :Course ; rdfs:label "enrolled in" .
:hometown rdfs:domain :Student ; rdfs:range :Town ; rdfs:label "hometown" .
:teaches rdfs:domain :Professor ; rdfs:range :Course ; rdfs:label "teaches" .
:offered_by rdfs:domain :Course ; rdfs:range :Department ; rdfs:label "offered by" .
:housed_in rdfs:domain :Department ; rdfs:range :Building ; rdfs:label "housed in" .
:wears_number rdfs:domain :Student ; rdfs:label "wears number" .
:part_of rdfs:domain :Department ; rdfs:label "part of" .
:noah a :Student ; rdfs:label "Noah Osei" ; :enrolled_in :db ; :hometown :bergen ; :wears_number 7 .
:mia a :Student ; rdfs:label "Mia Berg" ; :enrolled_in :med ; :hometown :bergen .
:ada a :Professor ; rdfs:label "Ada Park" ; :teaches :db .
:db a :Course ; rdfs:label "Databases" ; :offered_by :cs .
:med a :Course ; rdfs:label "Medieval Europe" ; :offered_by :hist .
:cs a :Department ; rdfs:label "Computer Science" ; :housed_in :gibbon .
:hist a :Department ; rdfs:label "History" ; :housed_in :darwin ; :part_of :hum .
:hum rdfs:label "Humanities" .
:gibbon a :Building ; rdfs:label "Gibbon House" .
:darwin a :Building ; rdfs:label "Darwin Wing" .
:bergen a :Town ; rdfs:label "Bergen" .
"""
