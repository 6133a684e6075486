"""Programs compiled to SPARQL and executed on a real pyoxigraph store.

Both tables are data: `program_cases.tsv` (program and its expected answers) and
`bad_programs.tsv` (program and the error it must get).
"""

from __future__ import annotations

import gc
import sys
import threading
import time

import pytest

from engine.programs.executor import Executor
from engine.programs.kg import KnowledgeGraph
from engine.programs.sexpr import ProgramError, parse
from engine.programs.to_sparql import string, to_sparql
from kg_adapters.base import RDFS_LABEL
from kg_adapters.oxigraph_store import _PastDeadline
from tests.conftest import answers_text, read_table


@pytest.mark.parametrize("program, expected", read_table("program_cases.tsv"))
def test_program_answers(films: KnowledgeGraph, program: str, expected: str) -> None:
    assert answers_text(films.executor.execute(program)) == expected


def _triples(kg: KnowledgeGraph) -> int:
    rows = kg.store.select("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }").rows
    return int(rows[0][0].value)


@pytest.mark.parametrize("program, fragment", read_table("bad_programs.tsv"))
def test_bad_program_gets_a_clear_error(films: KnowledgeGraph, program: str, fragment: str) -> None:
    before = _triples(films)
    with pytest.raises(ProgramError) as info:
        films.executor.execute(program)
    assert fragment in str(info.value)
    if program.strip():
        assert "at character" in str(info.value)  # the error points at a position
    assert _triples(films) == before


def test_injection_attempt_in_a_label_is_only_a_label(films: KnowledgeGraph) -> None:
    nasty = 'x" } ; DROP ALL ; SELECT * WHERE { ?s ?p "'
    before = _triples(films)
    with pytest.raises(ProgramError, match="no entity is labelled"):
        films.executor.execute(f'(JOIN directed_by "{nasty.replace(chr(34), chr(92) + chr(34))}")')
    assert _triples(films) == before
    literal = string(nasty)
    rows = films.store.select(f"SELECT ?s WHERE {{ ?s <{RDFS_LABEL}> {literal} }}").rows
    assert rows == ()


def test_program_entities_are_never_answers(films: KnowledgeGraph) -> None:
    result = films.executor.execute('(JOIN starred_actors (JOIN (R starred_actors) "Star Wars"))')
    labels = {a.label for a in result.answers}
    assert "Star Wars" not in labels and {"Blade Runner", "American Graffiti"} <= labels


# A release and an album of one name, merged by label into one node that is its own album (as in PathQuestion),
# beside a round trip through another node (Alpha's sibling's sibling is Alpha again); and players at clubs.
WALKS = """Bewitched|album|Bewitched
Bewitched|artist|Tina
Hex|album|Bewitched
Alpha|sibling|Beta
Beta|sibling|Alpha
Ann|plays_in_club|Saints
Bob|plays_in_club|Saints
Cid|plays_in_club|Rovers
Saints|is_in_country|England
Rovers|is_in_country|England
"""


@pytest.mark.parametrize("program, expected", [
    ('(JOIN (R album) "Bewitched")', "Bewitched"),  # over a self-loop the walk never left Bewitched
    ('(JOIN (R album) (JOIN (R album) "Bewitched"))', "Bewitched"),
    ('(JOIN album "Bewitched")', "Bewitched | Hex"),
    ('(JOIN (R artist) (JOIN album "Bewitched"))', "Tina"),
    ('(JOIN album (JOIN (R album) "Hex"))', "Bewitched"),  # Hex came back through Bewitched: left out
    ('(JOIN (R sibling) (JOIN (R sibling) "Alpha"))', "(none)"),  # a round trip through Beta is not a self-loop
    ('(JOIN plays_in_club (JOIN (R plays_in_club) "Ann"))', "Bob"),  # Ann's teammates, not Ann
    # only what a walk came from is kept out: the clubs in England include Saints, named on the AND's other side
    ('(AND (JOIN plays_in_club "Saints") (JOIN plays_in_club (JOIN is_in_country "England")))', "Ann | Bob"),
])
def test_a_walk_keeps_out_what_it_came_from_unless_over_a_self_loop(small_kg, program: str, expected: str) -> None:
    kg = small_kg("walks.psv", WALKS)
    assert answers_text(kg.executor.execute(program)) == expected


# A family of one class, Person: a walk over two different relations between persons may come home, and so may one
# straight back over a relation the KG names both ways (`daughter` holds `father` reversed: a mirror), not one with
# a single name (`mother`).
FAMILY = """@prefix : <http://example.org/family/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
:Person a rdfs:Class ; rdfs:label "person" .
:daughter rdfs:label "daughter" ; rdfs:domain :Person ; rdfs:range :Person .
:father rdfs:label "father" ; rdfs:domain :Person ; rdfs:range :Person .
:mother rdfs:label "mother" ; rdfs:domain :Person ; rdfs:range :Person .
:friend rdfs:label "friend" ; rdfs:domain :Person ; rdfs:range :Person .
:tom a :Person ; rdfs:label "Tom" ; :daughter :ann , :eve ; :mother :mary ; :friend :ann .
:ann a :Person ; rdfs:label "Ann" ; :father :tom ; :mother :joy .
:eve a :Person ; rdfs:label "Eve" ; :father :tom ; :mother :joy .
:mary a :Person ; rdfs:label "Mary" .
:joy a :Person ; rdfs:label "Joy" .
"""


@pytest.mark.parametrize("program, expected", [
    ('(JOIN (R father) (JOIN (R daughter) "Tom"))', "Tom"),  # Tom's daughters' father: back over a mirror
    ('(JOIN (R mother) (JOIN (R father) (JOIN (R daughter) "Tom")))', "Mary"),  # and on from there
    ('(JOIN (R father) (JOIN (R friend) "Tom"))', "Tom"),  # his friend's father: home by another relation
    ('(JOIN mother (JOIN (R mother) "Ann"))', "Eve"),  # her mother's children: one name, straight back
    ('(COUNT (JOIN (R father) (JOIN (R daughter) "Tom")))', "count 1"),
])
def test_a_walk_over_two_relations_of_one_class_may_come_home(small_kg, program: str, expected: str) -> None:
    kg = small_kg("family.ttl", FAMILY)
    assert answers_text(kg.executor.execute(program)) == expected


def test_answers_carry_iris_and_labels(films: KnowledgeGraph) -> None:
    (answer,) = films.executor.execute('(JOIN (R directed_by) "Alien")').answers
    assert answer.label == "Ridley Scott" and answer.iri.endswith("/Ridley%20Scott")
    (year,) = films.executor.execute('(JOIN (R release_year) "Alien")').answers
    assert year.label == "1979" and year.iri is None


def test_execution_is_memoized_per_kg(films: KnowledgeGraph, config, tmp_path) -> None:
    program = '(JOIN directed_by (JOIN (R directed_by) "Alien"))'
    first = films.executor.execute(program)
    second = films.executor.execute(program)
    assert not first.cached and second.cached and second.answers == first.answers
    # Another KG (different content, so a different fingerprint) shares the cache folder but not its answers.
    other_file = tmp_path / "other.psv"
    other_file.write_text("Alien|directed_by|Somebody Else\nPrometheus|directed_by|Somebody Else\n")
    other = KnowledgeGraph.open(str(other_file), config)
    try:
        assert other.fingerprint != films.fingerprint
        result = other.executor.execute(program)
        assert not result.cached and [a.label for a in result.answers] == ["Prometheus"]
    finally:
        other.close()


def test_timeouts_and_failures_are_not_cached(films: KnowledgeGraph) -> None:
    executor: Executor = films.executor
    with pytest.raises(Exception):
        executor.select("SELECT ?x WHERE { this is not sparql }")
    with pytest.raises(Exception):
        executor.select("SELECT ?x WHERE { this is not sparql }")


def test_superlative_keeps_ties_in_sparql(films: KnowledgeGraph) -> None:
    sparql = to_sparql(films.executor.resolve(parse('(ARGMAX (JOIN directed_by "Ridley Scott") release_year)')), films.schema)
    assert "MAX(" in sparql and "LIMIT" not in sparql


def test_a_slow_query_times_out_cleanly(films: KnowledgeGraph) -> None:
    from kg_adapters.base import QueryTimeout

    # A cross product big enough to outlast a tiny deadline.
    slow = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?p ?b . ?c ?q ?d . ?e ?r ?f . ?g ?s ?h }"
    start = time.perf_counter()
    with pytest.raises(QueryTimeout, match="ran past"):
        films.store.select(slow, timeout_s=0.2)
    assert time.perf_counter() - start < 5  # the deadline holds: the query does not run on to the end
    assert films.store.select("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }", timeout_s=5).rows


def test_abandoned_queries_cannot_pile_up(films: KnowledgeGraph) -> None:
    from kg_adapters.base import QueryTimeout
    from kg_adapters.oxigraph_store import MAX_RUNAWAY_QUERIES

    slow = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?p ?b . ?c ?q ?d . ?e ?r ?f . ?g ?s ?h }"
    for _ in range(MAX_RUNAWAY_QUERIES):
        with pytest.raises(QueryTimeout, match="ran past"):
            films.store.select(slow, timeout_s=0.05)
    with pytest.raises(QueryTimeout, match="still busy"):
        films.store.select("SELECT ?s WHERE { ?s ?p ?o } LIMIT 1", timeout_s=0.05)
    assert films.store.select("SELECT ?s WHERE { ?s ?p ?o } LIMIT 1", timeout_s=60).rows  # waits, then runs


def test_a_query_stopped_at_its_deadline_drops_its_results_on_its_own_thread(films) -> None:
    """pyoxigraph's result objects may be dropped only on the thread that made them; an error's traceback
    carries the reading frame to the caller's thread (as `select` hands it on)."""
    store, caught, errors = films.store, [], []

    def work():
        try:
            store._select("SELECT ?s ?p ?o WHERE { ?s ?p ?o }", time.monotonic() - 1)
        except _PastDeadline as err:
            errors.append(err)

    hook, sys.unraisablehook = sys.unraisablehook, caught.append
    try:
        worker = threading.Thread(target=work)
        worker.start()
        worker.join()
        assert len(errors) == 1
        errors.clear()  # the error, its traceback and the frame it holds go here, on this thread
        gc.collect()
    finally:
        sys.unraisablehook = hook
    assert [str(c.exc_value) for c in caught] == []


MOONS = """@prefix : <http://example.org/moons/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
:Moon a rdfs:Class ; rdfs:label "moon" .
:discovered rdfs:label "discovered" .
:io a :Moon ; rdfs:label "Io" ; :discovered "1610"^^xsd:gYear .
:mimas a :Moon ; rdfs:label "Mimas" ; :discovered "1789"^^xsd:gYear .
"""


@pytest.mark.parametrize("program, expected", [
    ("(lt discovered 1700)", "Io"),
    ("(JOIN discovered 1789)", "Mimas"),
    ("(ARGMIN Moon discovered)", "Io"),
])
def test_a_year_is_matched_and_compared_with_xsd_gyear_values(small_kg, program: str, expected: str) -> None:
    """A whole number equals or compares with no xsd:gYear value in SPARQL: "which moons were discovered before
    1700?" had no answer on a made-up science KG, whose years are typed so. It is read as a year, as against dates."""
    kg = small_kg("moons.ttl", MOONS)
    assert answers_text(kg.executor.execute(program)) == expected


@pytest.mark.parametrize("program, expected", [
    ("(gt birthYear 1900)", "Ann"),
    ("(JOIN birthYear 1850)", "Bo"),
    ("(lt discovered 1700)", "Io"),
])
def test_years_typed_xsd_integer_beside_xsd_gyear_ones_compare_as_numbers(small_kg, program: str, expected: str) -> None:
    """One literal class of years may hold xsd:gYear values (a discovery) and xsd:integer ones (a birth year):
    YEAR() of an integer is an error, and "which artists were born after 1900?" had no answer on a made-up museum
    KG. The year of a whole number is the number."""
    people = (":birthYear rdfs:label \"birth year\" .\n:ann rdfs:label \"Ann\" ; :birthYear \"1921\"^^xsd:integer .\n"
              ":bo rdfs:label \"Bo\" ; :birthYear \"1850\"^^xsd:integer .\n")
    kg = small_kg("moons_and_people.ttl", MOONS + people)
    assert answers_text(kg.executor.execute(program)) == expected
