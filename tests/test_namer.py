"""Classes the data leaves unnamed: a stand-in name at induction, a noun from the real model, kept with the KG."""

from __future__ import annotations

import pytest
from tests.conftest import FIXTURES

from engine.bootstrap.corpus import Corpus
from engine.bootstrap.explorer import ExploredProgram
from engine.bootstrap.namer import _kept, _noun, ensure_named, name_classes, sketch_class
from engine.programs.kg import KnowledgeGraph
from kg_adapters.person_nouns import head_phrase
from kg_adapters.readable import object_noun
from kg_adapters.schema import Schema, SchemaEdit, rename_classes

FILMS = str(FIXTURES / "tiny_films.psv")
STAND_IN = "thing_with_directed_by"


@pytest.fixture(scope="module")
def llm():
    from engine.lm.llm import LLM

    return LLM.load("qwen2.5-coder-0.5b")


def test_induction_leaves_only_the_unnamable_subjects_provisional(config):
    kg = KnowledgeGraph.open(FILMS, config)
    provisional = {c.name for c in kg.schema.classes if c.provisional}
    assert provisional == {STAND_IN}  # directors, actors and genres are named by their relations
    assert kg.unnamed_classes() == [STAND_IN]
    assert "a stand-in name" in kg.schema.describe()
    kg.close()


def test_a_noun_the_objects_relation_spells_names_a_class_of_subjects(small_kg):
    """Countries are the subjects of capital and continent and the objects of in_country: their subjects' relations
    say nothing, but "in_country" calls its objects countries. A verb opening a name ("serves") names nothing."""
    rows = []
    for i in range(6):
        rows += [(f"Land {i}", "capital", f"Town {i}"), (f"Land {i}", "continent", f"Part {i % 2}"),
                 (f"Town {i}", "in_country", f"Land {i}"), (f"Village {i}", "in_country", f"Land {i}"),
                 (f"Field {i}", "located_in", f"Town {i}"),
                 (f"Inn {i % 3}", "serves", f"Dish {i}"), (f"Dish {i}", "calories", str(100 * i)),
                 (f"Dish {i}", "cuisine", f"Style {i % 2}")]
    schema = small_kg("world.tsv", "".join(f"{s}\t{r}\t{o}\n" for s, r, o in rows)).schema
    assert schema.relation("capital").domain == ("country",)
    assert schema.class_(schema.relation("calories").domain[0]).provisional  # "serve" is no kind of thing


def test_renaming_reaches_every_mention_of_the_class(config):
    kg = KnowledgeGraph.open(FILMS, config)
    schema = rename_classes(kg.schema, {STAND_IN: "Motion picture", "person": "human"})  # person is not provisional
    film = schema.class_("Motion_picture")
    assert film is not None and film.label == "Motion picture" and not film.provisional
    assert schema.class_(STAND_IN) is None and schema.class_("person") is not None
    assert schema.relation("directed_by").domain == ("Motion_picture",)
    assert all(STAND_IN not in pair for pair in schema.shared_members)
    taken = rename_classes(kg.schema, {STAND_IN: "person"})  # a noun that names another class gets a suffix
    assert taken.relation("directed_by").domain == ("person_2",)
    kg.close()


def test_adopted_names_are_kept_and_programs_use_them(config):
    kg = KnowledgeGraph.open(FILMS, config)
    kg.adopt_names({STAND_IN: "movie"})
    assert kg.unnamed_classes() == []
    assert {a.label for a in kg.executor.execute("(AND movie (JOIN directed_by \"George Lucas\"))").answers} == {
        "Star Wars", "American Graffiti"}
    kg.close()
    again = KnowledgeGraph.open(FILMS, config)
    assert again.schema.class_("movie") is not None and again.unnamed_classes() == []
    again.close()


def test_a_class_the_user_labelled_is_left_to_the_user(config):
    kg = KnowledgeGraph.open(FILMS, config)
    kg.edit_schema([SchemaEdit(STAND_IN, label="feature")])
    assert kg.unnamed_classes() == []
    assert kg.adopt_names({STAND_IN: "movie"}).class_(STAND_IN).label == "feature"
    kg.close()


@pytest.mark.parametrize("text, noun", [
    ("Movies.", "movie"), ("soccer club", "soccer club"), ("director, written by", None),
    ("recorded", None), ("organizational", None), ("", None), ("3D film", None), ("country of", None),
])
def test_a_proposal_becomes_a_singular_noun_or_nothing(text, noun):
    assert _noun(text) == noun


def test_the_model_names_the_films(config, llm):
    kg = KnowledgeGraph.open(FILMS, config)
    sketch = sketch_class(kg.store, kg.schema, kg.schema.class_(STAND_IN))
    assert set(sketch.members) <= {"Blade Runner", "Alien", "Gladiator", "Star Wars", "American Graffiti"}
    assert len(sketch.members) == 5 and "directed by" in sketch.relations
    assert {"director", "actor"} <= sketch.elsewhere  # what the films relate to is not what they are
    names = name_classes(kg.store, kg.schema, [STAND_IN], llm)
    assert names[STAND_IN] in {"film", "movie"}
    kg.close()


def test_ensure_named_keeps_a_stand_in_that_a_corpus_uses(config, tmp_path, llm):
    kg = KnowledgeGraph.open(FILMS, config)
    corpus = Corpus(tmp_path / "corpus")
    program = f"(AND {STAND_IN} (JOIN directed_by \"George Lucas\"))"
    corpus.write_programs([ExploredProgram(program, program, "(AND #C (JOIN #r #e))", (program,), 2, ())])
    assert ensure_named(kg, lambda: pytest.fail("no model is needed"), corpus) == {}
    assert kg.schema.class_(STAND_IN) is not None
    assert ensure_named(kg, lambda: llm)[STAND_IN] in {"film", "movie"}
    kg.close()


def _airline_rows() -> str:
    """Towns that relations call a capital, where a company is headquartered and where an airport is located: no
    one noun of the relations says what they all are (a mixed class)."""
    rows = []
    for i in range(6):
        rows += [(f"Land {i}", "capital", f"Town {i}"), (f"Town {i}", "in_country", f"Land {i}"),
                 (f"Town {i}", "population", str(1000 * (i + 1))), (f"Firm {i}", "headquartered_in", f"Town {i}"),
                 (f"Field {i}", "located_in", f"Town {i}"), (f"Firm {i}", "ceo", f"Boss {i}")]
    return "".join(f"{s}\t{r}\t{o}\n" for s, r, o in rows)


def test_a_mixed_class_keeps_its_name_and_gains_the_namers_noun(small_kg):
    kg = small_kg("air.tsv", _airline_rows())
    (town,) = kg.schema.relation("in_country").domain
    assert kg.schema.class_(town).mixed and not kg.schema.class_(town).provisional
    assert town in kg.unnamed_classes()  # the namer is asked about it once
    before = kg.schema
    schema = kg.adopt_names({town: "city"})
    assert schema.class_(town).also == ("city",) and schema.relation("in_country").domain == (town,)
    assert town not in kg.unnamed_classes()  # asked once, whatever it answered
    from engine.answer.words import class_words
    assert class_words(schema)["cities"] == [town] and class_words(schema)["city"] == [town]
    assert Schema.from_json(schema.to_json()).class_(town).also == ("city",)  # kept in the schema cache
    again = small_kg("again.tsv", _airline_rows())  # the same data: its noun is read back with it
    assert again.schema.class_(town).also == ("city",) and town not in again.unnamed_classes()
    lands = before.relation("capital").domain[0]  # "country", as in_country calls them
    assert rename_classes(before, {town: lands}).class_(town).also == ()  # another class's word is not added


def test_the_one_agent_noun_of_its_objects_names_a_class(small_kg):
    """The objects of coached_by are coaches, whatever else they are the subjects of (born_in): before, they were a
    stand-in that the model named "artist" (a made-up football league KG)."""
    rows = []
    for i in range(6):
        rows += [(f"Club {i}", "coached_by", f"Boss {i}"), (f"Boss {i}", "born_in", f"Town {i % 3}"),
                 (f"Club {i}", "founded", str(1900 + i)), (f"Town {i % 3}", "population", str(100 * (i % 3 + 1)))]
    schema = small_kg("league.tsv", "".join(f"{s}\t{r}\t{o}\n" for s, r, o in rows)).schema
    coach = schema.class_(schema.relation("born_in").domain[0])
    assert coach.name == "coach" and not coach.provisional


def test_a_noun_most_member_labels_hold_is_taken(llm):
    """Seasons labelled "Season 2019" are seasons, though the model finds "player" more plausible for things whose
    fact is a champion or top scorer."""
    from engine.bootstrap.namer import Sketch, _in_most_labels, name_sketch

    assert _in_most_labels("season", ("Season 2018", "Season 2019", "Spring"))
    assert not _in_most_labels("season", ("Season 2018", "Autumn", "Spring"))
    assert not _in_most_labels("soccer club", ("Soccer Club A", "Soccer Club B"))  # one word only
    sketch = Sketch(("Season 2018", "Season 2019", "Season 2020"),
                    ("champion", "runner up", "top scorer"), frozenset({"champion", "runner up", "top scorer"}))
    naming = name_sketch(sketch, llm)
    assert naming.noun == "season", naming.proposals


def test_the_relations_name_a_class_whose_members_are_codes(llm):
    """Members called "INV-2231" say nothing of what they are; their relations do. Judged on the members, the model
    chose "issue" (after "issued to"); judged on the relations, "invoice"."""
    from engine.bootstrap.namer import Sketch, name_sketch

    relations = ("issued to", "amount", "due date", "paid")
    elsewhere = frozenset(relations) | {object_noun(r.replace(" ", "_")) for r in relations}
    sketch = Sketch(("INV-2231", "INV-2232", "INV-2240"), relations, elsewhere)
    assert name_sketch(sketch, llm).noun == "invoice"


def test_a_noun_the_members_relate_to_is_no_proposal_but_an_of_phrase_names_its_first_noun() -> None:
    """Matches relate to a "player of the match": that phrase names a player, so "match" stays a proposal for them
    (before, its last word was taken for its head and "match" was dropped), while "player" and "star player" go."""
    elsewhere = frozenset({"player of the match", "home club", "club"})
    assert head_phrase("player of the match")[-1] == "player" and head_phrase("famous writer")[-1] == "writer"
    assert _kept(["match", "team", None, "star player", "club", "match"], elsewhere) == ["match", "team"]
