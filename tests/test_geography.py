"""The default geography KG: real facts, a complete schema, stable bytes, caching."""

from __future__ import annotations

from pathlib import Path

import pyoxigraph as ox
import pytest

from kg_adapters.geography import (
    CLASSES,
    GEO_VERSION,
    RELATIONS,
    build_geography_triples,
    default_kg_path,
    write_geography,
)

PREFIXES = """
PREFIX geo: <http://kgscout.local/geo/>
PREFIX c: <http://kgscout.local/geo/class/>
PREFIX r: <http://kgscout.local/geo/relation/>
PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>
"""


@pytest.fixture(scope="module")
def nt_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_geography(tmp_path_factory.mktemp("geo") / "geography.nt")


@pytest.fixture(scope="module")
def store(nt_file: Path) -> ox.Store:
    s = ox.Store()
    s.bulk_load(path=str(nt_file), format=ox.RdfFormat.N_TRIPLES)
    return s


def rows(store: ox.Store, body: str) -> list[tuple]:
    """Run a SELECT; each row as a tuple of plain values (IRI or lexical form)."""
    result = store.query(PREFIXES + body)
    return [tuple(None if t is None else t.value for t in sol) for sol in result]


def ask(store: ox.Store, body: str) -> bool:
    return bool(store.query(PREFIXES + body))


# ------------------------------------------------------------------------- facts

def test_capital_of_france_is_paris(store: ox.Store) -> None:
    got = rows(store, """SELECT ?name WHERE {
        ?fr rdfs:label "France"@en ; r:capital ?city .
        ?city rdfs:label ?name ; r:country ?fr ; rdf:type c:City }""")
    assert got == [("Paris",)]


def test_plain_paris_is_the_french_one(store: ox.Store) -> None:
    got = rows(store, """SELECT ?country WHERE {
        ?city rdfs:label "Paris"@en ; r:country/rdfs:label ?country }""")
    assert got == [("France",)]


def test_germany_neighbours_include_france(store: ox.Store) -> None:
    assert ask(store, """ASK {
        ?de rdfs:label "Germany"@en ; r:neighbour ?fr . ?fr rdfs:label "France"@en }""")


def test_japan_currency_is_yen(store: ox.Store) -> None:
    got = rows(store, """SELECT ?label ?code WHERE {
        ?jp rdfs:label "Japan"@en ; r:currency ?cur .
        ?cur rdfs:label ?label ; r:currency_code ?code }""")
    assert len(got) == 1
    label, code = got[0]
    assert "Yen" in label and code == "JPY"


def test_country_facts(store: ox.Store) -> None:
    got = rows(store, """SELECT ?cont ?lang WHERE {
        ?fr rdfs:label "France"@en ; r:continent/rdfs:label ?cont ;
            r:main_language/rdfs:label ?lang }""")
    assert got == [("Europe", "French")]


def test_population_is_positive_integer(store: ox.Store) -> None:
    got = store.query(PREFIXES + """SELECT ?pop WHERE {
        ?x rdfs:label "India"@en ; r:population ?pop }""")
    (pop,) = [sol["pop"] for sol in got]
    assert pop.datatype == ox.NamedNode("http://www.w3.org/2001/XMLSchema#integer")
    assert int(pop.value) > 0


def test_area_and_coordinates_are_decimals(store: ox.Store) -> None:
    assert ask(store, """ASK { ?fr rdfs:label "France"@en ; r:area ?a .
        FILTER(datatype(?a) = xsd:decimal && ?a > 500000) }""")
    assert ask(store, """ASK { ?p rdfs:label "Paris"@en ; r:latitude ?lat ; r:longitude ?lon .
        FILTER(datatype(?lat) = xsd:decimal && ?lat > 48 && ?lat < 49 && ?lon > 2 && ?lon < 3) }""")


def test_city_timezone(store: ox.Store) -> None:
    got = rows(store, """SELECT ?tz WHERE { ?p rdfs:label "Tokyo"@en ; r:timezone/rdfs:label ?tz }""")
    assert got == [("Asia/Tokyo",)]


# ------------------------------------------------------------------------ schema

def test_every_relation_has_label_comment_domain_and_range(store: ox.Store) -> None:
    declared = rows(store, "SELECT ?p WHERE { ?p rdf:type rdf:Property }")
    assert len(declared) == len(RELATIONS)
    missing = rows(store, """SELECT ?p WHERE { ?p rdf:type rdf:Property .
        FILTER NOT EXISTS { ?p rdfs:domain ?d ; rdfs:range ?r ; rdfs:label ?l ; rdfs:comment ?c } }""")
    assert missing == []


def test_every_used_predicate_is_declared(store: ox.Store) -> None:
    undeclared = rows(store, """SELECT DISTINCT ?p WHERE { ?s ?p ?o .
        FILTER(STRSTARTS(STR(?p), STR(geo:))) FILTER NOT EXISTS { ?p rdf:type rdf:Property } }""")
    assert undeclared == []


def test_every_class_has_label_and_comment(store: ox.Store) -> None:
    got = rows(store, """SELECT ?cls WHERE { ?cls rdf:type rdfs:Class ;
        rdfs:label ?l ; rdfs:comment ?c }""")
    assert sorted(iri.rsplit("/", 1)[1] for (iri,) in got) == sorted(CLASSES)


def test_every_entity_has_exactly_one_english_label(store: ox.Store) -> None:
    unlabelled = rows(store, """SELECT ?x WHERE { ?x rdf:type ?cls .
        FILTER NOT EXISTS { ?x rdfs:label ?l } } LIMIT 5""")
    assert unlabelled == []
    several = rows(store, """SELECT ?x WHERE { ?x rdfs:label ?l } GROUP BY ?x
        HAVING (COUNT(?l) > 1) LIMIT 5""")
    assert several == []
    not_english = rows(store, """SELECT ?x WHERE { ?x rdfs:label ?l .
        FILTER(LANG(?l) != "en") } LIMIT 5""")
    assert not_english == []


def test_countries_and_cities_have_comments(store: ox.Store) -> None:
    bare = rows(store, """SELECT ?x WHERE { VALUES ?cls { c:Country c:City }
        ?x rdf:type ?cls . FILTER NOT EXISTS { ?x rdfs:comment ?c } } LIMIT 5""")
    assert bare == []
    got = rows(store, """SELECT ?c WHERE { ?x rdfs:label "Paris"@en ; rdfs:comment ?c }""")
    assert got == [("Capital city of France with 2,138,551 people.",)]


def test_labels_unique_per_class(store: ox.Store) -> None:
    dupes = rows(store, """SELECT ?cls ?key (COUNT(?x) AS ?n) WHERE {
        ?x rdf:type ?cls ; rdfs:label ?l . BIND(LCASE(STR(?l)) AS ?key)
    } GROUP BY ?cls ?key HAVING (COUNT(?x) > 1) LIMIT 5""")
    assert dupes == []


def test_entity_counts(store: ox.Store) -> None:
    counts = dict(rows(store, """SELECT ?cls (COUNT(?x) AS ?n) WHERE { ?x rdf:type ?cls .
        FILTER(STRSTARTS(STR(?cls), STR(c:))) } GROUP BY ?cls"""))
    count = {iri.rsplit("/", 1)[1]: int(n) for iri, n in counts.items()}
    assert count["Continent"] == 7
    assert count["Country"] > 240
    assert count["City"] > 30000
    assert count["Currency"] > 100 and count["Language"] > 100 and count["Timezone"] > 300


def test_shared_city_names_are_qualified(store: ox.Store) -> None:
    got = rows(store, """SELECT ?l WHERE { ?x rdf:type c:City ; rdfs:label ?l .
        FILTER(STRSTARTS(?l, "Paris, ")) }""")
    assert ("Paris, United States",) in got


# -------------------------------------------------------------- bytes and caching

def test_rebuild_gives_identical_bytes_and_no_temp_files(nt_file: Path, tmp_path: Path) -> None:
    again = write_geography(tmp_path / "again.nt")
    assert again.read_bytes() == nt_file.read_bytes()
    assert [p.name for p in tmp_path.iterdir()] == ["again.nt"]


def test_build_returns_sorted_triples() -> None:
    triples = build_geography_triples()
    assert triples == sorted(triples, key=str)
    assert len(triples) == len(set(triples))


def test_default_kg_path_builds_once_then_reuses(tmp_path: Path) -> None:
    path = default_kg_path(tmp_path)
    assert path == tmp_path / f"geography-v{GEO_VERSION}.nt"
    assert path.stat().st_size > 0
    first = path.stat().st_mtime_ns
    assert default_kg_path(tmp_path) == path
    assert path.stat().st_mtime_ns == first
