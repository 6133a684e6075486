"""engine.answer.candidates: what the operator rules of issue 13 build for a question's cues (no language model).

Each test reads a question on a tiny KG, builds what the search would (step 1, then one extension of a
given candidate) and checks that the reading the question asks for is among the candidates, and that a
reading the cue rules out is not.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from engine.answer.candidates import Enumerator, _unions
from engine.answer.linker import LabelIndex
from engine.answer.mentions import Candidate
from engine.answer.question import Anchor, Question, QuestionReader
from engine.answer.search import ProgramCandidate
from engine.lm.embedder import Embedder
from engine.programs.kg import KnowledgeGraph
from engine.programs.sexpr import Entity, parse
from engine.programs.validate import validate
from tests.conftest import FIXTURES


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return Embedder.load()


def _reader(kg: KnowledgeGraph, config, embedder: Embedder) -> QuestionReader:
    return QuestionReader(kg.schema, LabelIndex.build(kg.store, kg.schema, config.cache_dir, embedder))


def _executed(kg: KnowledgeGraph, text: str, anchors: frozenset[int]) -> ProgramCandidate:
    program = parse(text)
    execution = kg.executor.execute(program)
    return ProgramCandidate(program, text, anchors, validate(program, kg.schema), execution=execution,
                            keys=frozenset(a.iri or a.label for a in execution.answers))


def _extended(kg: KnowledgeGraph, config, question: Question, cand: ProgramCandidate,
              partners: list[ProgramCandidate] = ()) -> set[str]:
    return {c.text for c in Enumerator(kg, config).expand(question, [cand], list(partners))}


def test_a_choice_ranks_by_a_number_or_a_count_in_the_direction_asked(geo, config, embedder) -> None:
    question = _reader(geo, config, embedder).read("which has more neighbours, brazil or argentina?")
    built = {c.text for c in Enumerator(geo, config).first(question)}
    assert '(ARGMAX (OR "Brazil" "Argentina") (COUNT neighbour))' in built
    assert '(ARGMAX (OR "Brazil" "Argentina") population)' in built
    assert not any(text.startswith("(ARGMIN (OR") for text in built)  # "more": the largest only
    assert geo.executor.execute('(ARGMAX (OR "Brazil" "Argentina") (COUNT neighbour))').answers[0].label == "Argentina"


def test_names_listed_together_are_totalled(geo, config, embedder) -> None:
    question = _reader(geo, config, embedder).read("what is the combined population of france and spain?")
    built = {c.text for c in Enumerator(geo, config).first(question)}
    assert '(SUM (OR "France" "Spain") population)' in built
    assert not any("ARGMAX" in text for text in built)  # listed, not offered as a choice


def test_a_negation_may_drop_what_the_same_name_has_over_another_relation(films, config, embedder) -> None:
    question = _reader(films, config, embedder).read("which films did ridley scott direct but not write?")
    directed = _executed(films, '(JOIN directed_by "Ridley Scott")', frozenset({0}))
    wrote = _executed(films, '(JOIN written_by "Ridley Scott")', frozenset({0}))
    built = _extended(films, config, question, directed, [directed, wrote])
    program = '(AND (JOIN directed_by "Ridley Scott") (NOT (JOIN written_by "Ridley Scott")))'
    assert program in built
    assert "Gladiator" not in {a.label for a in films.executor.execute(program).answers}
    plain = _reader(films, config, embedder).read("which films did ridley scott direct and write?")
    assert not any("NOT" in text for text in _extended(films, config, plain, directed, [directed, wrote]))


def test_the_most_common_member_is_ranked_by_how_many_of_its_origin_it_has(films, config, embedder) -> None:
    question = _reader(films, config, embedder).read("what is the most common genre of ridley scott's films?")
    genres = _executed(films, '(JOIN (R has_genre) (JOIN directed_by "Ridley Scott"))', frozenset({0}))
    program = ('(ARGMAX (JOIN (R has_genre) (JOIN directed_by "Ridley Scott")) '
               '(COUNT (R has_genre) (JOIN directed_by "Ridley Scott")))')
    assert program in _extended(films, config, question, genres)
    assert [a.label for a in films.executor.execute(program).answers] == ["Science Fiction"]


def test_a_yes_no_comparison_with_another_name_is_built_at_once(geo, config, embedder) -> None:
    question = _reader(geo, config, embedder).read("is brazil bigger than argentina?")
    built = {c.text for c in Enumerator(geo, config).first(question)}
    assert '(IN "Brazil" (gt area "Argentina"))' in built
    assert not any("(lt " in text for text in built)  # "bigger": one way only
    assert geo.executor.execute('(IN "Brazil" (gt area "Argentina"))').boolean is True


def test_a_negation_drops_what_the_question_says_after_its_negation_word(geo, config, embedder) -> None:
    question = _reader(geo, config, embedder).read("which countries next to brazil do not use the uruguayan peso?")
    assert [question.linking.mentions[i].text.lower() for i in question.negated] == ["uruguayan peso"]
    neighbours = _executed(geo, '(JOIN neighbour "Brazil")', frozenset({1}))
    peso = _executed(geo, '(JOIN currency "Uruguayan peso")', frozenset({2}))
    assert '(AND (JOIN neighbour "Brazil") (NOT (JOIN currency "Uruguayan peso")))' in _extended(
        geo, config, question, neighbours, [neighbours, peso])
    assert not any("NOT" in text for text in _extended(geo, config, question, peso, [neighbours, peso]))


def test_a_question_without_names_ranks_the_class_it_names(geo, config, embedder) -> None:
    question = _reader(geo, config, embedder).read("which country has the most neighbours?")
    assert not question.anchors
    built = {c.text for c in Enumerator(geo, config).first(question)}
    assert {"Country", "(ARGMAX Country (COUNT neighbour))", "(ARGMAX Country population)"} <= built
    plain = _reader(geo, config, embedder).read("which countries are there?")
    assert {c.text for c in Enumerator(geo, config).first(plain)} == {"Country"}


def test_a_name_compared_with_and_no_word_of_degree_is_compared_both_ways(geo, config, embedder) -> None:
    question = _reader(geo, config, embedder).read("which countries lie further from the equator than france?")
    built = {c.text for c in Enumerator(geo, config).first(question)}
    assert {'(gt area "France")', '(lt area "France")'} <= built


def test_a_compass_word_says_which_way_a_comparison_goes(geo, config, embedder) -> None:
    """Coordinates grow northward: "further north than france" is compared upward only."""
    question = _reader(geo, config, embedder).read("which countries lie further north than france?")
    built = {c.text for c in Enumerator(geo, config).first(question)}
    assert '(gt area "France")' in built and '(lt area "France")' not in built


def test_a_named_member_after_the_negation_word_is_left_out(geo, config, embedder) -> None:
    question = _reader(geo, config, embedder).read("what currencies do countries in europe use other than the euro?")
    currencies = _executed(geo, '(JOIN (R currency) (JOIN continent "Europe"))', frozenset({2}))
    program = '(AND (JOIN (R currency) (JOIN continent "Europe")) (NOT "Euro"))'
    assert program in _extended(geo, config, question, currencies)
    assert "Euro" not in {a.label for a in geo.executor.execute(program).answers}


def _anchor(mention: int, label: str, cls: str) -> Anchor:
    iri = f"http://example.org/{cls}/{label}"
    return Anchor(mention, Entity(label, iri=iri), Candidate("entity", label, iri, 1.0, (cls,)), cls)


def test_a_choice_is_also_between_the_names_best_entities_of_one_class() -> None:
    """ "spielberg or scorsese": each name links a tag first and a person second; the choice is also offered
    between the two people, whose films it counts."""
    anchors = (_anchor(0, "spielberg", "tag"), _anchor(0, "Steven Spielberg", "person"),
               _anchor(1, "scorsese", "tag"), _anchor(1, "Martin Scorsese", "person"))
    unions = _unions(SimpleNamespace(anchors=anchors), (0, 1))
    assert [tuple(a.node.ref for a in union) for union in unions] == [
        ("spielberg", "scorsese"), ("Steven Spielberg", "Martin Scorsese")]
    assert _unions(SimpleNamespace(anchors=anchors[:2]), (0, 1)) == []  # one name is no choice


def test_a_choice_between_people_answers_with_people(films, config, embedder) -> None:
    """The union of two people has no schema type; its ranking answers with their class, which "who" asks."""
    question = _reader(films, config, embedder).read("who directed more films, ridley scott or george lucas?")
    built = {c.text: c for c in Enumerator(films, config).first(question)}
    ranked = built['(ARGMAX (OR "Ridley Scott" "George Lucas") (COUNT (R directed_by)))']
    assert ranked.types and ranked.types <= question.asked_types


def test_yes_no_asks_only_about_an_entity_the_set_may_hold(films, config, embedder) -> None:
    """ "did ridley scott write alien": Ridley Scott among Alien's writers, not among the films they wrote."""
    question = _reader(films, config, embedder).read("did ridley scott write alien?")
    writers = _executed(films, '(JOIN (R written_by) "Alien")', frozenset({1}))
    assert '(IN "Ridley Scott" (JOIN (R written_by) "Alien"))' in _extended(films, config, question, writers)
    their_films = _executed(films, '(JOIN written_by (JOIN (R written_by) "Alien"))', frozenset({1}))
    assert not any(text.startswith("(IN") for text in _extended(films, config, question, their_films))


def test_yes_no_needs_the_entity_s_own_class_not_one_that_shares_members(small_kg, config, embedder) -> None:
    """A film named after a person (George Lucas, written by Hampton Fancher) makes the induced film and
    person classes share a member; Ridley Scott is still no film, so he is not asked about among films."""
    kg = small_kg("films.psv", (FIXTURES / "tiny_films.psv").read_text() + "George Lucas|written_by|Hampton Fancher\n")
    question = _reader(kg, config, embedder).read("did ridley scott write alien?")
    their_films = _executed(kg, '(JOIN written_by (JOIN (R written_by) "Alien"))', frozenset({1}))
    scott = next(a for a in question.anchors if a.candidate.label == "Ridley Scott")
    assert kg.schema.meets(their_films.types, frozenset(scott.candidate.classes))  # the classes share a member
    assert not any(text.startswith("(IN") for text in _extended(kg, config, question, their_films))


@pytest.mark.parametrize("text, negated", [
    ("ridley scott movies harrison ford isn't in", ["harrison ford"]),  # a clause whose subject is a name
    ("ridley scott movies that harrison ford did not star in", ["harrison ford"]),
    ("ridley scott movies without harrison ford", ["harrison ford"]),  # the name after the word comes first
    ("ridley scott movies he did not write", []),  # one name: it is the set, not what is left out
])
def test_a_negation_drops_the_name_its_clause_is_about(films, config, embedder, text, negated) -> None:
    question = _reader(films, config, embedder).read(text)
    assert [question.linking.mentions[i].text.lower() for i in question.negated] == negated


def test_a_negation_of_a_relation_of_the_set_s_own_name_leaves_the_name_free(films, config, embedder) -> None:
    """In "harrison ford movies ridley scott directed but didn't write" the negation says no name of its own
    (Ridley Scott's writing is left out, and he stays in the set): any name may stand in it."""
    question = _reader(films, config, embedder).read("harrison ford movies ridley scott directed but didn't write")
    assert question.asks_negation and not question.negated


def test_a_count_is_never_of_one_value_the_kg_holds(geo, config, embedder) -> None:
    """ "how many people live in Canada" asks for Canada's population: counting its one population value
    answers 1 whatever the population is."""
    question = _reader(geo, config, embedder).read("how many people live in Brazil?")
    value = _executed(geo, '(JOIN (R population) "Brazil")', frozenset({0}))
    assert not any(t.startswith("(COUNT") for t in _extended(geo, config, question, value))
    neighbours = _executed(geo, '(JOIN neighbour "Brazil")', frozenset({0}))
    assert '(COUNT (JOIN neighbour "Brazil"))' in _extended(geo, config, question, neighbours)


def test_a_class_ranked_against_all_the_rest_is_built_for_than_any_other(geo, config, embedder) -> None:
    question = _reader(geo, config, embedder).read("which currency is used by more countries than any other?")
    built = {c.text for c in Enumerator(geo, config).first(question)}
    assert "(ARGMAX Currency (COUNT (R currency)))" in built


def test_a_ranking_is_built_only_where_the_question_has_a_superlative(films, config, embedder) -> None:
    """ "capitals of the countries that border spain" had the capital of the smallest: no ranking is built
    without a superlative word, and no second one with only one."""
    reader = _reader(films, config, embedder)
    movies = _executed(films, '(JOIN directed_by "Ridley Scott")', frozenset({0}))
    plain = _extended(films, config, reader.read("movies directed by ridley scott"), movies)
    assert not any("ARGMAX" in text or "ARGMIN" in text for text in plain)
    ranked = _executed(films, '(ARGMAX (JOIN directed_by "Ridley Scott") release_year)', frozenset({0}))
    question = reader.read("the latest movie directed by ridley scott")
    cast = _executed(films, '(JOIN (R starred_actors) (ARGMAX (JOIN directed_by "Ridley Scott") release_year))',
                     frozenset({0}))
    assert '(ARGMAX (JOIN directed_by "Ridley Scott") release_year)' in _extended(films, config, question, movies)
    assert not any(text.count("ARGM") > 1 for text in _extended(films, config, question, cast))
    assert ranked.execution.answers[0].label == "Gladiator"


def test_names_after_the_superlative_say_what_is_counted(films, config, embedder) -> None:
    """ "who starred in the most ridley scott movies" counts Ridley Scott's movies, not all of an actor's."""
    reader = _reader(films, config, embedder)
    cast = _executed(films, '(JOIN (R starred_actors) (JOIN directed_by "Ridley Scott"))', frozenset({0}))
    restricted = '(ARGMAX (JOIN (R starred_actors) (JOIN directed_by "Ridley Scott")) ' \
                 '(COUNT (R starred_actors) (JOIN directed_by "Ridley Scott")))'
    counted = _extended(films, config, reader.read("who starred in the most ridley scott movies"), cast)
    assert restricted in counted
    assert not any("(COUNT (R starred_actors))" in text for text in counted)
    before = _extended(films, config, reader.read("which ridley scott actor starred in the most movies"), cast)
    assert restricted in before and any("(COUNT (R starred_actors))" in text for text in before)


def test_the_asked_class_less_a_negated_name_is_ranked(films, config, embedder) -> None:
    """ "apart from comedy, which genre has the most movies": (ARGMAX (AND genre (NOT "Comedy")) ...)."""
    question = _reader(films, config, embedder).read("apart from comedy, which genre has the most movies")
    built = {c.text for c in Enumerator(films, config).first(question)}
    assert '(ARGMAX (AND genre (NOT "Comedy")) (COUNT (R has_genre)))' in built
    top = films.executor.execute('(ARGMAX (AND genre (NOT "Comedy")) (COUNT (R has_genre)))').answers
    assert [a.label for a in top] == ["Science Fiction"]


@pytest.mark.parametrize("question, chain_built", [
    # before reasoner v62 a chain to the same value through a neighbour was built too, and could win
    ("which country has the largest population?", False),
    ("which country has the neighbour with the largest population?", True),  # the first step is spelt
])
def test_a_class_is_ranked_by_its_own_value_unless_a_step_to_another_is_spelt(geo, config, embedder, question: str,
                                                                              chain_built: bool) -> None:
    built = {c.text for c in Enumerator(geo, config).first(_reader(geo, config, embedder).read(question))}
    assert "(ARGMAX Country population)" in built
    assert ("(ARGMAX Country (JOIN neighbour population))" in built) == chain_built


def test_a_length_of_time_ranks_a_date_the_other_way(small_kg, config, embedder) -> None:
    """ "who has been here the longest?" was hired first: a graded length on a date is the time since it, so the
    ranking by hire date turns round, while the ranking by salary keeps the question's way."""
    from tests.test_mechanisms import COMPANY_TTL

    kg = small_kg("company.ttl", COMPANY_TTL)
    reader = _reader(kg, config, embedder)
    built = {c.text for c in Enumerator(kg, config).first(reader.read("which employee has been here the longest?"))}
    assert "(ARGMIN Employee hired)" in built and "(ARGMAX Employee hired)" not in built
    assert "(ARGMAX Employee salary)" in built and "(ARGMIN Employee salary)" not in built
    recent = {c.text for c in Enumerator(kg, config).first(reader.read("which employee was hired the latest?"))}
    assert "(ARGMAX Employee hired)" in recent and "(ARGMIN Employee hired)" not in recent


def test_each_name_is_compared_the_way_its_own_words_say(geo, config, embedder) -> None:
    """ "larger than France but smaller than Germany": each comparison by the degree word of its own clause; the
    question as a whole has words of both ways, which had let both go either way."""
    question = _reader(geo, config, embedder).read("which countries are larger than france but smaller than germany?")
    built = {c.text for c in Enumerator(geo, config).first(question)}
    assert '(gt area "France")' in built and '(lt area "Germany")' in built
    assert '(lt area "France")' not in built and '(gt area "Germany")' not in built


@pytest.mark.parametrize("question, counts", [
    ("which country has the most neighbours?", True),
    ("which is the largest country?", True),  # a size may count members
    ("which country has the highest number of neighbours?", True),
    ("which country is the oldest?", False),  # an age, a date it holds: no count of its neighbours
    ("which country was independent first?", False),
])
def test_only_a_ranking_that_may_count_ranks_by_a_count(geo, config, embedder, question, counts) -> None:
    """A superlative of a measured dimension ranks by a value, never by how many things each is tied to: a made-up
    US-geography KG answered "which states does the longest river run through?" with the states through which
    the most rivers run (`degree.ranks_by_count`)."""
    read = _reader(geo, config, embedder).read(question)
    built = {c.text for c in Enumerator(geo, config).first(read)}
    assert any("ARGM" in text for text in built)
    assert any("(COUNT" in text for text in built) is counts


def test_a_ranking_by_the_value_asked_for_reads_that_value_in_the_same_step(geo, config, embedder) -> None:
    """ "when did the first country in Europe become independent?" asks for the date the ranking ranks by: the
    ranked member's date is built with the ranking (a made-up science KG's "when did the first mission to Mercury
    launch?" had lost the ranking, which answers with missions, before a later step could read its date)."""
    question = _reader(geo, config, embedder).read("when did the first country in Europe become independent?")
    europe = next(i for i, m in enumerate(question.linking.mentions) if m.text.lower() == "europe")
    cand = _executed(geo, '(JOIN continent "Europe")', frozenset({europe}))
    built = _extended(geo, config, question, cand)
    assert '(JOIN (R independence) (ARGMIN (JOIN continent "Europe") independence))' in built
    # no value is asked for: the ranking alone
    other = _reader(geo, config, embedder).read("which country in Europe became independent first?")
    assert not any(text.startswith("(JOIN (R independence) (ARGM") for text in _extended(geo, config, other, cand))


BODIES_TTL = """\
@prefix g: <http://example.org/g/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
g:Moon a rdfs:Class ; rdfs:label "moon" .
g:radius rdfs:label "radius" .
g:discovered rdfs:label "discovered" .
g:io a g:Moon ; rdfs:label "Io" ; g:radius 1821 ; g:discovered "1610"^^xsd:gYear .
g:mimas a g:Moon ; rdfs:label "Mimas" ; g:radius 198 ; g:discovered "1789"^^xsd:gYear .
"""


@pytest.mark.parametrize("question, timed", [("which moons were discovered before 1700?", True),
                                             ("which moons have a radius under 1700?", False)])
def test_a_comparison_in_time_compares_a_year_or_a_date(small_kg, config, embedder, question, timed) -> None:
    """ "before 1700" compares a point in time: a made-up science KG answered "which moons were discovered before
    1700?" with the moons whose radius is under 1700 (`degree.in_time`). Without a word of time both are built."""
    kg = small_kg("bodies.ttl", BODIES_TTL)
    built = {c.text for c in Enumerator(kg, config).first(_reader(kg, config, embedder).read(question))}
    assert "(lt discovered 1700)" in built
    assert ("(lt radius 1700)" in built) is not timed


STAFF_TTL = """@prefix s: <http://example.org/staff/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
s:Lecturer a rdfs:Class ; rdfs:label "lecturer" .
s:Module a rdfs:Class ; rdfs:label "module" .
s:teaches rdfs:label "teaches" .
s:Ann a s:Lecturer ; rdfs:label "Ann Moss" ; s:teaches s:Logic .
s:Ben a s:Lecturer ; rdfs:label "Ben Ode" ; s:teaches s:Optics , s:Logic .
s:Cy a s:Lecturer ; rdfs:label "Cy Park" .
s:Logic a s:Module ; rdfs:label "Logic" .
s:Optics a s:Module ; rdfs:label "Optics" .
"""


def test_nothing_denies_the_class_at_the_far_end_of_the_verbs_relation(small_kg, config, embedder) -> None:
    """ "Which lecturers teach nothing?" names no module, yet denies modules: read as "teach no module", the search
    walks to the modules and builds the class less their teachers (nouns.classes_named_or_denied). Before, the
    modules were no class of the question, and no negation could be built (a university KG's question answered with
    a walk over another relation)."""
    kg = small_kg("staff.ttl", STAFF_TTL)
    reader = _reader(kg, config, embedder)
    question = reader.read("which lecturers teach nothing?")
    assert question.asks_negation and set(question.classes) == {"Lecturer", "Module"}
    assert set(reader.read("which lecturers teach logic?").classes) == {"Lecturer"}  # "nothing" alone denies
    teachers = _executed(kg, "(JOIN teaches Module)", frozenset())
    program = "(AND Lecturer (NOT (JOIN teaches Module)))"
    assert program in _extended(kg, config, question, teachers)
    assert [a.label for a in kg.executor.execute(program).answers] == ["Cy Park"]


@pytest.mark.parametrize("text, denies", [
    ("which lecturers don't teach anything?", True),
    ("which lecturers aren't teaching anything?", True),
    ("which lecturers have never taught anybody?", True),
    ("which lecturers do not teach anything at all?", True),
    ("which lecturers teach anything?", False),  # no denial: "anything" alone denies nothing
    ("does anyone teach logic?", False),
])
def test_a_denied_verbs_anything_denies_as_nothing_does(small_kg, config, embedder, text: str, denies: bool) -> None:
    """ "Which lecturers don't teach anything?" is "which lecturers teach nothing?": the denied verb's "anything"
    ("anyone", "anybody") names no module, yet denies modules, as "nothing" does. Before, only "nothing", "nobody"
    and "no one" did, and "which professors aren't teaching anything?" on the university KG answered the
    professors' departments (the campus probe, bench/probes/campus.py)."""
    kg = small_kg("staff.ttl", STAFF_TTL)
    question = _reader(kg, config, embedder).read(text)
    assert ("Module" in question.classes) == denies, question.classes


def test_a_denied_anything_is_answered_as_the_class_less_those_that_have_one(small_kg, config, embedder) -> None:
    kg = small_kg("staff.ttl", STAFF_TTL)
    question = _reader(kg, config, embedder).read("which lecturers don't teach anything?")
    teachers = _executed(kg, "(JOIN teaches Module)", frozenset())
    assert "(AND Lecturer (NOT (JOIN teaches Module)))" in _extended(kg, config, question, teachers)


LIBRARY = """@prefix l: <http://example.org/lib/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
l:Book rdfs:label "book" . l:Branch rdfs:label "branch" .
l:elm a l:Branch ; rdfs:label "Elm Hill" ; l:openOnSunday false .
l:fern a l:Branch ; rdfs:label "Fern Green" ; l:openOnSunday false .
l:mill a l:Branch ; rdfs:label "Millbrook" ; l:openOnSunday true .
l:winter a l:Book ; rdfs:label "Winter at Skellmoor" ; l:heldAt l:elm ; l:referenceOnly false .
l:tram a l:Book ; rdfs:label "The Old Tram Lines" ; l:heldAt l:mill ; l:referenceOnly true .
l:map a l:Book ; rdfs:label "A Map of Rivers" ; l:heldAt l:fern ; l:referenceOnly false .
"""


def test_a_yes_or_no_is_never_walked_on_to_all_that_share_it(small_kg, config, embedder) -> None:
    # the blind library probe (bench/probes/library.py): "which branch has Winter at Skelmoor?" was answered by
    # (JOIN isOpenOnSunday (JOIN (R isReferenceOnly) "Winter at Skellmoor")), every branch closed on Sundays
    kg = small_kg("library.ttl", LIBRARY)
    question = _reader(kg, config, embedder).read("which branch has Winter at Skellmoor?")
    value = _executed(kg, '(JOIN (R referenceOnly) "Winter at Skellmoor")', frozenset({0}))
    assert not _extended(kg, config, question, value)
    held = _executed(kg, '(JOIN (R heldAt) "Winter at Skellmoor")', frozenset({0}))
    assert '(JOIN heldAt (JOIN (R heldAt) "Winter at Skellmoor"))' in _extended(kg, config, question, held)  # a thing's
