"""engine.answer.linker: labels, literals and class words found in questions."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.answer.label_db import turned_about
from engine.answer.linker import Candidate, LabelIndex, Linking, Mention, normalise
from engine.answer.synonyms import kin
from engine.config import ScoutConfig
from engine.lm.embedder import Embedder
from engine.programs.kg import KnowledgeGraph
from tests.conftest import named
from kg_adapters.naming import entity_iri

FIXTURES = Path(__file__).parent / "fixtures"
SHARED = Path(__file__).resolve().parents[2] / "shared/data"
MOVIEKG = SHARED / "moviekg/kb.txt"
METAQA_1HOP_DEV = SHARED / "metaqa/1-hop/qa_dev.txt"


def top(linking: Linking, text: str) -> Candidate:
    for m in linking.mentions:
        if m.text == text:
            return m.candidates[0]
    raise AssertionError(f"no mention {text!r} in {[m.text for m in linking.mentions]}")


def entity_labels(linking: Linking) -> list[str]:
    return [c.label for m in linking.mentions for c in m.candidates if c.kind == "entity"]


# ------------------------------------------------------------------ tiny films
@pytest.fixture(scope="module")
def films(tmp_path_factory) -> tuple[KnowledgeGraph, LabelIndex]:
    cache = tmp_path_factory.mktemp("films")
    kg = named(KnowledgeGraph.open(str(FIXTURES / "tiny_films.psv"), ScoutConfig(cache_dir=str(cache))))
    index = LabelIndex.build(kg.store, kg.schema, cache, Embedder.load())
    yield kg, index
    kg.close()


def test_normalise() -> None:
    assert normalise("  The  Amazing Dr. Clitterhouse! ") == "the amazing dr clitterhouse"
    assert normalise("Peter Franzén") == "peter franzen"
    assert normalise("Ocean's Eleven") == "oceans eleven"
    assert normalise("Tom & Jerry") == "tom and jerry"
    assert normalise("Spider-Man") == "spider man"


def test_entities_and_classes_of_tiny_films(films) -> None:
    kg, index = films
    linking = index.link("what movies did Ridley Scott direct")
    assert top(linking, "Ridley Scott") == Candidate(
        "entity", "Ridley Scott", entity_iri("Ridley Scott"), 1.0, ("person",)
    )
    assert linking.classes == ("movie",)
    assert [m.text for m in linking.mentions] == ["movies", "Ridley Scott"]
    assert linking.anonymised() == "what movies did person direct"
    assert index.classes_of(entity_iri("Blade Runner")) == ("movie",)
    assert index.classes_of(entity_iri("Science Fiction")) == ("genre",)
    assert index.classes_of("http://nowhere/x") == ()


def test_a_last_name_names_the_person(films) -> None:
    _, index = films
    (scott,) = [m for m in index.link("what did Scott direct").mentions if m.text == "Scott"]
    assert [(c.label, c.score) for c in scott.candidates] == [("Ridley Scott", 0.7)]
    assert [c.label for c in top_candidates(index.link("which lucas films star harrison ford"), "lucas")] == ["George Lucas"]
    # a first name names the person too (issue 27; it named nobody before)
    assert entity_labels(index.link("what did Ridley direct")) == ["Ridley Scott"]
    # an English word names a person only written as a name
    assert [c.label for c in top_candidates(index.link("which films did Ford star in"), "Ford")] == ["Harrison Ford"]
    assert entity_labels(index.link("which films did the ford star in")) == []
    # a possessive names its name: "Lucas's films"
    assert [c.label for c in top_candidates(index.link("which of Lucas's films star harrison ford"), "Lucas's")] \
        == ["George Lucas"]


WARDS_TTL = """\
@prefix w: <http://example.org/wards/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
w:Hospital a rdfs:Class ; rdfs:label "hospital" .
w:Ward a rdfs:Class ; rdfs:label "ward" .
w:Airport a rdfs:Class ; rdfs:label "airport" .
w:part_of rdfs:label "part of" ; rdfs:domain w:Ward ; rdfs:range w:Hospital .
w:StAnn a w:Hospital ; rdfs:label "St Ann Hospital" .
w:StAnnCardio a w:Ward ; rdfs:label "St Ann Cardiology" ; w:part_of w:StAnn .
w:PortKessel a w:Airport ; rdfs:label "Port Kessel International" .
w:NewVik a w:Airport ; rdfs:label "New Vik Field" .
w:NewVikSouth a w:Airport ; rdfs:label "New Vik South" .
"""


def test_the_opening_words_of_a_long_name_name_it(small_kg, config) -> None:
    """People drop the end of a long name: a made-up hospital KG's "which doctors work at St Ann" and an airline
    TSV's "Port Kessel airport" linked nothing, or the town of Kessel."""
    kg = small_kg("wards.ttl", WARDS_TTL)
    index = LabelIndex.build(kg.store, kg.schema, config.cache_dir, Embedder.load())
    # several labels open so: the one that ends in its own class's name
    assert [(c.label, c.score) for c in top_candidates(index.link("who works at St Ann?"), "St Ann")] \
        == [("St Ann Hospital", 0.7)]
    assert [c.label for c in top_candidates(index.link("which city is Port Kessel airport in?"), "Port Kessel")] \
        == ["Port Kessel International"]
    assert entity_labels(index.link("which flights leave New Vik?")) == []  # two airports open so, neither by class


DESK_TTL = """\
@prefix h: <http://example.org/desk/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
h:Ticket a rdfs:Class ; rdfs:label "ticket" .
h:Film a rdfs:Class ; rdfs:label "film" .
h:t1 a h:Ticket ; rdfs:label "VPN keeps disconnecting" .
h:t2 a h:Ticket ; rdfs:label "Cannot access payroll system" .
h:t3 a h:Ticket ; rdfs:label "Laptop battery swelling" .
h:t4 a h:Ticket ; rdfs:label "Laptop won't boot after update" .
h:t5 a h:Ticket ; rdfs:label "Laptop screen flickers" .
h:t6 a h:Ticket ; rdfs:label "Printer jam on 3rd floor" .
h:f1 a h:Film ; rdfs:label "The Oldest Payroll" .
"""


@pytest.mark.parametrize("question, mention, labels", [
    ("who's working on the VPN ticket?", "VPN ticket", ["VPN keeps disconnecting"]),
    ("is the payroll ticket resolved?", "payroll ticket", ["Cannot access payroll system"]),
    ("who logged the printer jam ticket?", "printer jam ticket", ["Printer jam on 3rd floor"]),  # the most words
    ("who logged the battery ticket?", "battery ticket", ["Laptop battery swelling"]),
    ("who logged the laptop ticket?", "ticket", []),  # three laptop tickets: the word names none of them
    ("what's the oldest ticket?", "ticket", []),  # a graded adjective is no word of a name
    ("which payroll film is oldest?", "payroll film", ["The Oldest Payroll"]),  # the class noun picks the names
])
def test_words_of_a_name_before_its_class_noun_name_it(small_kg, tmp_path: Path, question: str, mention: str,
                                                       labels: list[str]) -> None:
    """Staff call a ticket by a word of its title and the class's noun: "the VPN ticket". Before, such a question
    linked the class alone and answered over every ticket (a helpdesk KG written blind, bench/probes/helpdesk.py)."""
    index = small_index(small_kg, tmp_path, "desk.ttl", DESK_TTL)
    linking = index.link(question)
    assert [c.label for c in top_candidates(linking, mention) if c.kind == "entity"] == labels
    assert [c.label for c in top_candidates(linking, mention) if c.kind == "class"]  # the class noun stays a class


def top_candidates(linking: Linking, text: str) -> tuple[Candidate, ...]:
    return next(m.candidates for m in linking.mentions if m.text == text)


def test_longest_match_lowercase_and_spans(films) -> None:
    _, index = films
    q = "who acted in blade runner and star wars"
    linking = index.link(q)
    assert entity_labels(linking) == ["Blade Runner", "Star Wars"]
    for m in linking.mentions:
        assert q[m.start : m.end] == m.text
    assert top(linking, "blade runner").score == 1.0  # no capitals in the question: case does not count


def test_all_caps_and_title_case_questions(films) -> None:
    _, index = films
    for q in ("WHO DIRECTED BLADE RUNNER", "Who Directed Blade Runner"):
        linking = index.link(q)
        assert [m.text.lower() for m in linking.mentions] == ["blade runner"]
        assert linking.mentions[0].candidates[0].label == "Blade Runner"


def test_year_literal_and_plural_class(films) -> None:
    _, index = films
    linking = index.link("what films were released in 1999")
    assert top(linking, "1999") == Candidate("literal", "1999", None, 1.0, ("year",), "integer")
    assert top(linking, "films").kind == "class" and top(linking, "films").label == "movie"
    assert linking.anonymised() == "what films were released in year"
    assert [m.text for m in linking.mentions] == ["films", "1999"]  # "released" is no entity
    other = index.link("movies with 42 actors rated 7.5 before 2001-09-11")
    assert top(other, "42").classes == ("integer",)
    assert top(other, "7.5").literal_kind == "decimal"
    assert top(other, "2001-09-11").literal_kind == "date"


def test_a_plural_names_what_the_kg_labels_in_the_singular(films) -> None:
    """ "comedies" is the genre Comedy, a value films point at; a class word stays a class word."""
    _, index = films
    linking = index.link("which harrison ford films are comedies")
    assert top(linking, "comedies").label == "Comedy" and top(linking, "comedies").score == 0.85
    assert top(index.link("which films are comedies"), "films").kind == "class"
    assert index._singular("gladiator s", 2) == ([], []) == index._singular("gladiator has", 2)  # "'s", "ha"


def test_a_plural_of_one_thing_with_facts_of_its_own_names_its_class(films) -> None:
    """The film Gladiator has a director and a year: "gladiators" are no name of it (as "moons" are not the Moon)
    but films, its class; the plural is not taken for a typo of it either. Before, both linked the film."""
    _, index = films
    assert index._d.described(entity_iri("Gladiator"))
    assert not index._d.described(entity_iri("Comedy"))
    linking = index.link("ridley scott gladiators")
    assert "Gladiator" not in entity_labels(linking)
    assert top(linking, "gladiators") == Candidate("class", "movie", None, 0.85)
    assert index._singular("gladiators", 2) == ([], [Candidate("class", "movie", None, 0.85)])
    assert top(index.link("ridley scott gladiator"), "gladiator").label == "Gladiator"


def test_a_noun_after_a_superlative_names_the_class_of_one_thing_with_facts_of_its_own(films) -> None:
    """A superlative ranks the members of a kind: "the longest gladiator" is a film (as "the largest moon of
    Saturn" is a satellite, not the Moon). A value stays itself ("the best comedy"), and so does an ordinal's
    noun ("the first gladiator sequel" may be the film's). Before, each linked the film."""
    _, index = films
    for question in ("what is the longest gladiator", "which is the most famous gladiator"):
        assert top(index.link(question), "gladiator") == Candidate("class", "movie", None, 0.85), question
    assert top(index.link("what is the best comedy"), "comedy").label == "Comedy"
    assert top(index.link("what was the first gladiator sequel"), "gladiator").label == "Gladiator"


def test_fuzzy_typos(films) -> None:
    _, index = films
    linking = index.link("what movies did ridley scot direct")
    cand = top(linking, "ridley scot")
    assert cand.label == "Ridley Scott" and 0.5 <= cand.score < 0.9
    assert top(index.link("who starred in Gladiatr"), "Gladiatr").label == "Gladiator"
    # short common words are never fuzzy-matched
    assert entity_labels(index.link("what is an alien")) == ["Alien"]
    assert entity_labels(index.link("who is the star of it")) == []


def test_brackets_taken_as_given(films) -> None:
    _, index = films
    q = 'who directed [The "Quote" } ; DROP GRAPH <x> #1]'
    linking = index.link(q)
    (m,) = linking.mentions
    assert m.bracketed and m.text == 'The "Quote" } ; DROP GRAPH <x> #1'
    assert q[m.start : m.end] == m.text
    assert m.candidates[0].iri == entity_iri(m.text) and m.candidates[0].score == 1.0
    assert linking.anonymised() == "who directed movie"
    # a fuzzy bracket, and one that matches nothing (kept, without candidates)
    assert index.link("what did [ridley scot] direct").mentions[0].candidates[0].label == "Ridley Scott"
    missing = index.link("who directed [Nonexistent Picture] in 1999")
    assert [m.text for m in missing.unresolved()] == ["Nonexistent Picture"]
    assert missing.anonymised() == "who directed Nonexistent Picture in year"
    assert missing.plain_question() == "who directed Nonexistent Picture in 1999"
    # brackets split n-grams: nothing spans across them
    assert entity_labels(index.link("[Alien] blade runner")) == ["Alien", "Blade Runner"]


def test_closest_labels(films) -> None:
    _, index = films
    assert index.closest("Gladiater", n=3)[0] == "Gladiator"
    assert index.closest("harrison", n=2)[0] == "Harrison Ford"
    assert index.closest("", n=2) == []


def test_index_is_cached(films, tmp_path, monkeypatch) -> None:
    import engine.answer.linker

    kg, index = films
    cache = tmp_path / "c"
    first = LabelIndex.build(kg.store, kg.schema, cache)
    files = list((cache / "labels").iterdir())
    assert len(files) == 1

    def no_reading(*args):
        raise AssertionError("the cached index should have been used")

    monkeypatch.setattr(engine.answer.linker, "read_labels", no_reading)  # a spy: the KG must not be read again
    again = LabelIndex.build(kg.store, kg.schema, cache)
    assert len(again) == len(first) == len(index)
    assert again.link("alien").mentions[0].candidates == first.link("alien").mentions[0].candidates


# ------------------------------------------------------------------ declared schema
TURTLE = """\
@prefix ex: <http://ex.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
ex:City a rdfs:Class ; rdfs:label "City" .
ex:Country a rdfs:Class ; rdfs:label "Country" .
ex:country rdfs:domain ex:City ; rdfs:range ex:Country ; rdfs:label "country" .
ex:paris_fr a ex:City ; rdfs:label "Paris"@en, "Parigi"@it ; ex:country ex:france .
ex:paris_us a ex:City ; rdfs:label "Paris" ; ex:country ex:usa, ex:usa2, ex:usa3 .
ex:lyon a ex:City ; skos:prefLabel "Lyon" ; ex:country ex:france .
ex:france a ex:Country ; rdfs:label "France" .
ex:usa a ex:Country ; rdfs:label "United States" .
ex:Cote_d_Ivoire a ex:Country .
ex:abidjan a ex:City ; rdfs:label "Abidjan" ; ex:country ex:Cote_d_Ivoire .
ex:usa2 rdfs:label "USA" .
"""


@pytest.fixture(scope="module")
def geo(tmp_path_factory) -> LabelIndex:
    cache = tmp_path_factory.mktemp("geo")
    path = cache / "tiny.ttl"
    path.write_text(TURTLE)
    kg = KnowledgeGraph.open(str(path), ScoutConfig(cache_dir=str(cache)))
    yield LabelIndex.build(kg.store, kg.schema, cache)
    kg.close()


def test_declared_types_ambiguity_and_fallback_labels(geo: LabelIndex) -> None:
    linking = geo.link("which countries have a city called Paris")
    (paris,) = linking.entity_mentions()
    assert {c.iri for c in paris.candidates} == {"http://ex.org/paris_fr", "http://ex.org/paris_us"}
    assert paris.candidates[0].iri == "http://ex.org/paris_us"  # more triples: first on a tie
    assert all(c.classes == ("City",) for c in paris.candidates)
    assert set(linking.classes) == {"Country", "City"}
    assert top(geo.link("where is lyon"), "lyon").label == "Lyon"  # skos:prefLabel
    # an unlabelled entity in a relation is found by its IRI's local name
    assert top(geo.link("cities of Cote_d_Ivoire"), "Cote_d_Ivoire").classes == ("Country",)
    # untyped entity: classes from the range of the relation it fills
    assert geo.classes_of("http://ex.org/usa2") == ("Country",)
    assert geo.link("Parigi").mentions == ()  # a foreign label only counts where no English one exists
    assert len(geo.link("Paris").mentions[0].candidates) == 2
    assert len(geo.link("Paris", top_k=1).mentions[0].candidates) == 1


def test_a_word_in_capitals_names_what_it_abbreviates(geo: LabelIndex) -> None:
    assert [c.label for c in top_candidates(geo.link("which cities are in the US"), "US")] == ["United States"]
    assert top(geo.link("which cities are in the USA"), "the USA").iri == "http://ex.org/usa2"  # a label first
    assert entity_labels(geo.link("tell us the cities of France")) == ["France"]  # "us", no capitals
    assert entity_labels(geo.link("WHICH CITIES ARE IN THE US")) == []  # capitals tell nothing there


# ------------------------------------------------------------------ MoviesKG
@pytest.fixture(scope="module")
def movies(tmp_path_factory) -> LabelIndex:
    if not MOVIEKG.is_file():
        pytest.skip("../shared/data/moviekg is not present")
    cache = tmp_path_factory.mktemp("moviekg")
    kg = named(KnowledgeGraph.open(str(MOVIEKG), ScoutConfig(cache_dir=str(cache))))
    index = LabelIndex.build(kg.store, kg.schema, cache, Embedder.load())
    yield index
    kg.close()


@pytest.mark.parametrize(
    ("question", "mention", "label", "kind"),
    [
        ("what movies did ridley scott direct", "ridley scott", "Ridley Scott", "person"),
        ("who acted in blade runner", "blade runner", "Blade Runner", "movie"),
        ("what movies did ridley scot direct", "ridley scot", "Ridley Scott", "person"),
        ("who directed the godfather", "the godfather", "The Godfather", "movie"),
        ("what films did Harrison Ford act in", "Harrison Ford", "Harrison Ford", "person"),
        ("which movies can be described with murder", "murder", "murder", "tag"),
        ("Peter Franzen appears in which movies", "Peter Franzen", "Peter Franzén", "person"),
        ("who starred in Blade Runer", "Blade Runer", "Blade Runner", "movie"),
    ],
)
def test_moviekg_questions(movies: LabelIndex, question: str, mention: str, label: str, kind: str) -> None:
    cand = top(movies.link(question), mention)
    assert (cand.kind, cand.label) == ("entity", label)
    assert kind in cand.classes


def test_moviekg_a_keyword_yields_to_the_name_it_copies(movies: LabelIndex) -> None:
    """MoviesKG tags films "spielberg" and "harrison ford": the person of that name is meant, unless the
    question names tags."""
    cands = top_candidates(movies.link("Spielberg movies without Tom Hanks"), "Spielberg")
    assert [(c.label, "person" in c.classes) for c in cands] == [("Steven Spielberg", True)]
    assert [c.label for c in top_candidates(movies.link("avg release year of harrison ford films"), "harrison ford")] \
        == ["Harrison Ford"]
    # a keyword of English words is a topic of its own: the tag "horror" beside the genre Horror stays
    assert {c.label for c in top_candidates(movies.link("which horror movies are there"), "horror")} == {"horror",
                                                                                                       "Horror"}
    tagged = top_candidates(movies.link("which films have the tag brad pitt"), "brad pitt")
    assert {c.label for c in tagged} == {"brad pitt", "Brad Pitt"}
    assert [c.label for c in top_candidates(movies.link("movies tagged spielberg"), "spielberg")][0] == "spielberg"
    # tags that are counted are not named: "the most tags" ranks Nolan's films by their tags
    assert [c.label for c in top_candidates(movies.link("Which Nolan film has the most tags?"), "Nolan")] \
        == ["Christopher Nolan"]


def test_moviekg_no_tags_for_question_words(movies: LabelIndex) -> None:
    for question in (
        "what movies did ridley scott direct",
        "what films did Tom Hanks star in",
        "who is the director of the story of the film script",
        "what genre does Creepshow fall under",
    ):
        linking = movies.link(question)
        # words of the schema, its inflections and synonyms; "script" is left out: it is a MoviesKG tag that only a
        # film word list kept unlinked, and the engine holds none (tests/test_layout.py)
        spurious = [m.text for m in linking.entity_mentions() if m.text.lower() in {"movies", "direct", "films", "star",
                                                                                    "story", "fall", "director"}]
        assert spurious == [], (question, spurious)
    # a title of common words is taken where it ends the question, not where a bracketed mention follows it:
    # "the film" is also a MoviesKG tag
    assert entity_labels(movies.link("who directed all of me")) == ["All of Me"]
    for question in ("what is the genre of the film [Eye of God]", "who are the actors of the director [Gilbert Cates]"):
        linking = movies.link(question)
        assert [m.text for m in linking.entity_mentions() if not m.bracketed] == [], question
    assert movies.link("what is the genre of the film [Eye of God]").anonymised() == "what is the genre of the film movie"
    linking = movies.link("what films were released in 1999")
    assert [(m.text, m.kind) for m in linking.mentions] == [("films", "class"), ("1999", "literal")]
    assert linking.classes == ("movie",)


def test_metaqa_1hop_dev_linking_accuracy(movies: LabelIndex) -> None:
    """The bracketed gold mention, brackets removed, is among the top-2 candidates of some mention."""
    if not METAQA_1HOP_DEV.is_file():
        pytest.skip("MetaQA is not present")
    lines = METAQA_1HOP_DEV.read_text(encoding="utf-8").splitlines()[:500]
    hits = 0
    for line in lines:
        question = line.split("\t")[0]
        gold = re.search(r"\[([^\]]+)\]", question).group(1)
        linking = movies.link(question.replace("[", "").replace("]", ""))
        hits += any(c.iri == entity_iri(gold) for m in linking.mentions for c in m.candidates)
    assert hits / len(lines) >= 0.95


def test_dataclasses_are_frozen() -> None:
    m = Mention("x", 0, 1, ())
    with pytest.raises(AttributeError):
        m.text = "y"  # type: ignore[misc]


COMPANY_TTL = """\
@prefix c: <http://example.org/company/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
c:Employee a rdfs:Class ; rdfs:label "employee" .
c:Team a rdfs:Class ; rdfs:label "team" .
c:manages rdfs:label "manages" .
c:member_of rdfs:label "member of" .
c:alice a c:Employee ; rdfs:label "Alice Novak" ; c:member_of c:sales .
c:bruno a c:Employee ; rdfs:label "Bruno Keller" ; c:manages c:alice ; c:member_of c:sales .
c:omar a c:Employee ; rdfs:label "Dr. Omar Haddad" ; c:manages c:bruno ; c:member_of c:research .
c:sales a c:Team ; rdfs:label "Sales Team" .
c:research a c:Team ; rdfs:label "Research Team" .
"""


def small_index(small_kg, tmp_path: Path, name: str, text: str) -> LabelIndex:
    """The label index of a KG written inline (conftest's `small_kg`)."""
    kg = small_kg(name, text)
    return LabelIndex.build(kg.store, kg.schema, tmp_path)

@pytest.mark.parametrize("question, mention, label", [
    ("who manages Alice?", "Alice", "Alice Novak"),  # a first name
    ("who reports to Omar?", "Omar", "Dr. Omar Haddad"),  # the first name after a title
    ("who does Keller manage?", "Keller", "Bruno Keller"),  # the surname, as before
])
def test_a_first_name_names_the_person(small_kg, tmp_path: Path, question: str, mention: str, label: str) -> None:
    """Issue 27: people at work name colleagues by their first name; the KG labels them in full."""
    index = small_index(small_kg, tmp_path, "company.ttl", COMPANY_TTL)
    assert top(index.link(question), mention).label == label


LINEAGE_TTL = """\
@prefix l: <http://example.org/lineage/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
l:Person a rdfs:Class ; rdfs:label "person" .
l:hugo a l:Person ; rdfs:label "Hugo of Valdmar" ; l:father l:ulric1 .
l:ulric1 a l:Person ; rdfs:label "Ulric I of Valdmar" .
l:ulric2 a l:Person ; rdfs:label "Ulric II of Valdmar" ; l:father l:ulric1 .
l:anselm a l:Person ; rdfs:label "Prince Anselm of Varnland" .
l:nils a l:Person ; rdfs:label "Prince Nils of Varnland" .
l:konrad a l:Person ; rdfs:label "Prince Konrad of Varnland" .
l:lena a l:Person ; rdfs:label "Princess Lena of Varnland" .
l:sigrid a l:Person ; rdfs:label "Princess Sigrid of Varnland" .
l:beatrix a l:Person ; rdfs:label "Princess Beatrix of Varnland" .
l:edmund a l:Person ; rdfs:label "Prince Edmund, Duke of Eastmere" .
"""


@pytest.mark.parametrize("question, mention, label", [
    ("who is Hugo's dad?", "Hugo's", "Hugo of Valdmar"),  # a first name before "of <house>"
    ("who are Ulric I's sons?", "Ulric I's", "Ulric I of Valdmar"),  # a regnal number "I", not the pronoun
    ("who are Ulric II's sons?", "Ulric II's", "Ulric II of Valdmar"),
    ("is Sigrid Lena's sister?", "Lena's", "Princess Lena of Varnland"),  # the word after a title (session 60)
    ("who are Prince Edmund's granddaughters?", "Prince Edmund's", "Prince Edmund, Duke of Eastmere"),  # "of": small
])
def test_a_first_name_names_a_person_of_a_house(small_kg, tmp_path: Path, question: str, mention: str,
                                                label: str) -> None:
    """Blind royal probes named people "Hugo", "Ulric I" (session 59), "Lena" and "Prince Edmund" (session 60): before,
    none linked."""
    index = small_index(small_kg, tmp_path, "lineage.ttl", LINEAGE_TTL)
    assert top(index.link(question), mention).label == label
    # a word that opens three such names is a title, not a first name (NameForms.MAX_LINKED_NAMES)
    assert index.forms.parts("prince") == {}


PARLIAMENT_TTL = """\
@prefix p: <http://example.org/parl/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
p:Member a rdfs:Class ; rdfs:label "Member of Parliament" .
p:Party a rdfs:Class ; rdfs:label "Political Party" .
p:hal a p:Member ; rdfs:label "Hal Whitcombe" ; p:memberOf p:civic .
p:civic a p:Party ; rdfs:label "Civic Alliance" .
p:health rdfs:label "Minister of Health" ; p:heldBy p:hal .
p:env rdfs:label "Minister for the Environment" ; p:heldBy p:hal .
"""


@pytest.mark.parametrize("question, classes", [
    ("which MPs belong to the Civic Alliance?", ["Member"]),  # the initials of "Member of Parliament", plural
    ("who is the MP for Eastbrook?", ["Member"]),
    ("how many PPs are there?", ["Party"]),
    ("which mps belong to the Civic Alliance?", []),  # in lower case a short word may be anything
])
def test_a_class_is_named_by_the_initials_of_its_label(small_kg, tmp_path: Path, question: str,
                                                       classes: list[str]) -> None:
    index = small_index(small_kg, tmp_path, "parliament.ttl", PARLIAMENT_TTL)
    assert list(index.link(question).classes) == classes


@pytest.mark.parametrize("key, turned", [
    ("minister of health", "health minister"),
    ("minister for the environment", "environment minister"),
    ("museum of modern art", "modern art museum"),
    ("chief of staff of the army", None),  # two of them: which is the head?
    ("the lord of the rings", None),  # a title that opens with "the" is no compound's
    ("bank", None),
    ("of mice and men", None),
])
def test_a_head_of_noun_name_is_said_turned_about(key: str, turned: str | None) -> None:
    assert turned_about(key) == turned


@pytest.mark.parametrize("question, label", [
    ("who is the health minister?", "Minister of Health"),
    ("who is the environment minister?", "Minister for the Environment"),
])
def test_a_name_turned_about_names_the_entity(small_kg, tmp_path: Path, question: str, label: str) -> None:
    index = small_index(small_kg, tmp_path, "parliament.ttl", PARLIAMENT_TTL)
    assert entity_labels(index.link(question)) == [label]


ZOO_TTL = """\
@prefix z: <http://example.org/zoo/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
z:Species a rdfs:Class ; rdfs:label "species" .
z:Animal a rdfs:Class ; rdfs:label "animal" .
z:lion a z:Species ; rdfs:label "African Lion" ; z:nativeTo z:africa .
z:tiger a z:Species ; rdfs:label "Sumatran Tiger" ; z:nativeTo z:asia .
z:kopje rdfs:label "Lion Kopje" .
z:kesho a z:Animal ; rdfs:label "Kesho" ; z:ofSpecies z:lion ; z:livesIn z:kopje .
z:africa rdfs:label "Africa" .
z:asia rdfs:label "Asia" .
"""


@pytest.mark.parametrize("question, labels", [
    ("where can I see the lions?", ["African Lion"]),  # the head noun, not the enclosure the word opens
    ("which keepers look after the tigers?", ["Sumatran Tiger"]),
    ("which animals are there?", []),  # a class word names its class
])
def test_a_plural_common_noun_names_the_kinds_it_ends(small_kg, tmp_path: Path, question: str,
                                                      labels: list[str]) -> None:
    index = small_index(small_kg, tmp_path, "zoo.ttl", ZOO_TTL)
    assert entity_labels(index.link(question)) == labels


def test_a_word_that_mostly_closes_names_is_no_first_name(small_kg, tmp_path: Path) -> None:
    """"Team" opens no name here (it closes two), and "Dr." alone is a title, not a name."""
    index = small_index(small_kg, tmp_path, "company.ttl", COMPANY_TTL)
    assert index.forms.parts("team") == {}
    assert index.forms.parts("dr") == {}
    assert len(index.forms.parts("alice")) == 1 and len(index.forms.parts("novak")) == 1


# ------------------------------------------------------------------ the index on disk
class _QueriesOnly:
    """A store seen through `select` alone (as an endpoint is): the label index reads it by queries."""

    def __init__(self, store):
        self.info, self.select = store.info, store.select


def _everything(index: LabelIndex) -> list:
    """All an index holds, as the linker reads it: entities, records, keys and their order, postings, pools."""
    d = index._d
    keys = [k for chunk in d.sorted_keys() for k in chunk]
    return [[d.entity(e) for e in range(d.entities)], [d.record(r) for r in range(d.labels)], keys,
            [(k, d.records(k), d.variant_records(k), d.postings(k), d.acronym(k)) for k in keys],
            [d.keys_of_length(n) for n in range(40)], d.max_tokens]


@pytest.mark.parametrize("flush", [100_000, 3])
def test_the_streaming_pass_and_the_queries_read_the_same_index(tmp_path: Path, monkeypatch, flush: int) -> None:
    """An embedded store is read in one streaming pass (engine.answer.labels: `scan`, tallies flushed to a scratch
    file every FLUSH_ROWS), any other store by queries; both give the same index, row for row, whatever the flush
    size (3: the tallies of what each entity is the object of are written out many times and summed)."""
    import engine.answer.labels

    monkeypatch.setattr(engine.answer.labels, "FLUSH_ROWS", flush)
    path = tmp_path / "tiny.ttl"
    path.write_text(TURTLE)
    for source in (path, FIXTURES / "tiny_films.psv", FIXTURES / "tiny_geo.ttl"):
        kg = KnowledgeGraph.open(str(source), ScoutConfig(cache_dir=str(tmp_path / "c")))
        streamed = LabelIndex.build(kg.store, kg.schema, tmp_path / f"stream-{source.stem}")
        queried = LabelIndex.build(_QueriesOnly(kg.store), kg.schema, tmp_path / f"query-{source.stem}")
        assert _everything(streamed) == _everything(queried) and len(streamed) > 5
        for question in ("which countries have a city called Paris", "who directed Blade Runner", "france"):
            assert streamed.link(question) == queried.link(question)
        assert not list((tmp_path / f"stream-{source.stem}" / "labels").glob("*scratch*"))  # the scratch file is gone
        kg.close()


# An OWL tool's export (Protégé's flat RDF/XML): a labelled ontology header, individuals typed
# owl:NamedIndividual beside their class, a version string on the header
OWL_EXPORT = """<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#"
         xmlns:owl="http://www.w3.org/2002/07/owl#" xmlns:zoo="http://example.org/zoo#">
  <owl:Ontology rdf:about="http://example.org/zoo"><rdfs:label>Zoo</rdfs:label>
    <owl:versionInfo>1.2</owl:versionInfo></owl:Ontology>
  <owl:Class rdf:about="http://example.org/zoo#Animal"><rdfs:label>Animal</rdfs:label></owl:Class>
  <owl:Class rdf:about="http://example.org/zoo#Keeper"><rdfs:label>Keeper</rdfs:label></owl:Class>
  <owl:ObjectProperty rdf:about="http://example.org/zoo#caredForBy"><rdfs:label>cared for by</rdfs:label>
    <rdfs:domain rdf:resource="http://example.org/zoo#Animal"/><rdfs:range rdf:resource="http://example.org/zoo#Keeper"/>
  </owl:ObjectProperty>
  <owl:NamedIndividual rdf:about="http://example.org/zoo#greta"><rdf:type rdf:resource="http://example.org/zoo#Keeper"/>
    <rdfs:label>Greta Lindqvist</rdfs:label></owl:NamedIndividual>
  <owl:NamedIndividual rdf:about="http://example.org/zoo#bramble"><rdf:type rdf:resource="http://example.org/zoo#Animal"/>
    <rdfs:label>Bramble</rdfs:label><zoo:caredForBy rdf:resource="http://example.org/zoo#greta"/></owl:NamedIndividual>
  <owl:NamedIndividual rdf:about="http://example.org/zoo#tundra"><rdf:type rdf:resource="http://example.org/zoo#Animal"/>
    <rdfs:label>Tundra</rdfs:label></owl:NamedIndividual>
</rdf:RDF>
"""


def test_an_owl_export_holds_the_users_data_and_nothing_of_owl(tmp_path: Path) -> None:
    """RDF's own vocabulary is no data (kg_adapters.base.is_vocabulary): no class "NamedIndividual" or "Ontology", no
    relation `versionInfo`, and "the zoo" names no entity (the header's label had answered "the youngest animal in the
    zoo" with nothing). An individual with a class and no relation (Tundra) is still one. Both ways of reading the
    index agree."""
    path = tmp_path / "zoo.owl"
    path.write_text(OWL_EXPORT)
    kg = KnowledgeGraph.open(str(path), ScoutConfig(cache_dir=str(tmp_path / "c")))
    assert {c.name for c in kg.schema.classes} == {"Animal", "Keeper"}
    assert [r.name for r in kg.schema.relations] == ["caredForBy"]
    streamed = LabelIndex.build(kg.store, kg.schema, tmp_path / "stream")
    queried = LabelIndex.build(_QueriesOnly(kg.store), kg.schema, tmp_path / "query")
    assert _everything(streamed) == _everything(queried)
    for index in (streamed, queried):
        assert entity_labels(index.link("who is the youngest animal in the zoo?")) == []
        assert index.classes_of("http://example.org/zoo#tundra") == ("Animal",)
        assert index.classes_of("http://example.org/zoo#greta") == ("Keeper",)
    kg.close()


def test_a_broken_index_file_is_written_again(tmp_path: Path) -> None:
    path = tmp_path / "tiny.ttl"
    path.write_text(TURTLE)
    kg = KnowledgeGraph.open(str(path), ScoutConfig(cache_dir=str(tmp_path / "c")))
    first = LabelIndex.build(kg.store, kg.schema, tmp_path)
    (written,) = (tmp_path / "labels").glob("*.sqlite")
    first.close()
    written.write_bytes(b"not a database")
    again = LabelIndex.build(kg.store, kg.schema, tmp_path)
    assert len(again) == len(first) and top(again.link("where is lyon"), "lyon").label == "Lyon"
    kg.close()


# ------------------------------------------------------------------ the head noun of a compound class label
LABELS_TTL = """\
@prefix m: <http://example.org/music/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
m:Band a rdfs:Class ; rdfs:label "band" .
m:RecordLabel a rdfs:Class ; rdfs:label "record label" .
m:Venue a rdfs:Class ; rdfs:label "concert hall" .
m:Hall a rdfs:Class ; rdfs:label "hall" .
m:Show a rdfs:Class ; rdfs:label "thing with date" .
m:signed_to rdfs:label "signed to" ; rdfs:domain m:Band ; rdfs:range m:RecordLabel .
m:date rdfs:label "date" .
m:glass a m:Band ; rdfs:label "Glass Harbour" ; m:signed_to m:kite .
m:kite a m:RecordLabel ; rdfs:label "Paper Kite Music" .
"""


def test_the_head_noun_of_a_compound_class_label_names_the_class(small_kg, tmp_path) -> None:
    """ "which label is X on?" asks for a `record label` (a made-up music KG found no class in it). Not where the
    head is another class's own word ("hall"), nor in a label that is no compound ("thing with date")."""
    from engine.answer.words import class_words

    kg = small_kg("music.ttl", LABELS_TTL)
    words = class_words(kg.schema)
    linking = LabelIndex.build(kg.store, kg.schema, tmp_path, Embedder.load()).link("what label is Glass Harbour on?")
    names = {c.name for c in kg.schema.classes}
    label_class = next(n for n in names if n.lower().endswith("recordlabel"))
    assert words["label"] == [label_class] and words["labels"] == [label_class]
    assert words["hall"] == [next(n for n in names if n.lower().endswith("hall"))]
    assert "date" not in words
    assert linking.classes == (label_class,)


@pytest.mark.parametrize("word, text, related", [
    ("films", "movie", True), ("nation", "country", True), ("town", "city", True), ("screenwriter", "writer", True),
    ("actress", "actor", True), ("paintings", "artwork", True), ("insurance", "insurer", True), ("club", "team", True),
    # near in MiniLM (0.71) for a shared word piece, no kin in WordNet
    ("airline", "airport", False), ("ministers", "ministerial office", False),
    ("xyzzy", "city", None),  # WordNet lacks the word: the embedder's judgement stands
])
def test_a_class_synonym_is_kin_in_wordnet(word: str, text: str, related: bool | None) -> None:
    assert kin(word, text) is related


MEALS_TTL = """\
@prefix m: <http://example.org/meals/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
m:Restaurant a rdfs:Class ; rdfs:label "restaurant" .
m:Meal a rdfs:Class ; rdfs:label "meal" .
m:serves rdfs:label "serves" ; rdfs:domain m:Restaurant ; rdfs:range m:Meal .
m:ferro a m:Restaurant ; rdfs:label "Villa Ferro" ; m:serves m:risotto .
m:risotto a m:Meal ; rdfs:label "Risotto" .
"""


def test_a_word_wordnet_calls_kin_of_a_clearly_nearest_class_names_it(small_kg, tmp_path) -> None:
    """ "dishes" lies 0.67 from `meal`, under SYNONYM_MIN_COSINE, and 0.61 from `restaurant`; WordNet calls it kin of
    meal. A made-up recipes KG whose namer called its dishes "meal" walked on from them to the restaurants serving
    them ("which dishes use chickpeas?" answered restaurants). "Recipes" (0.62, no kin in WordNet) names nothing."""
    kg = small_kg("meals.ttl", MEALS_TTL)
    index = LabelIndex.build(kg.store, kg.schema, tmp_path, Embedder.load())
    meal = next(c.name for c in kg.schema.classes if c.label == "meal")
    assert index.link("which dishes does Villa Ferro serve?").classes == (meal,)
    assert index.link("which recipes does Villa Ferro serve?").classes == ()
