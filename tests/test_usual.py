"""An entity's usual ties (engine.answer.usual), counted on the tiny film KG's real store.

Ridley Scott directed four of its films and wrote one; Harrison Ford only starred. "Ridley Scott films"
leaves the relation to the reader, who takes `directed_by`; "films written by Ridley Scott" names the rare one.
"""

from __future__ import annotations

import pytest

from engine.answer.usual import UsualTies
from engine.programs.sexpr import parse


@pytest.fixture
def usual(films) -> UsualTies:
    return UsualTies(films.schema, films.executor)


@pytest.fixture
def resolve(films):
    return lambda text: films.executor.resolve(parse(text))


def test_ties_are_counted_per_relation_and_side(usual, films, resolve) -> None:
    scott = resolve('(JOIN directed_by "Ridley Scott")').arg.iri
    assert usual.ties(scott) == {("directed_by", "object"): 4, ("written_by", "object"): 1}


@pytest.mark.parametrize("program, named, charge", [
    ('(JOIN directed_by "Ridley Scott")', set(), 0.0),  # his usual tie to films
    ('(JOIN written_by "Ridley Scott")', set(), 1 - 1 / 4),  # one film written against four directed
    ('(JOIN written_by "Ridley Scott")', {"written_by"}, 0.0),  # ... which a question may ask for by name
    ('(JOIN starred_actors "Harrison Ford")', set(), 0.0),  # his only tie
    ('(JOIN (R release_year) "Alien")', set(), 0.0),  # a tie to a literal is never charged
    ('(JOIN (R directed_by) "Alien")', set(), 0.0),  # one director, one writer: neither is the rarer
    # each edge from an entity is charged, and only those
    ('(AND (JOIN written_by "Ridley Scott") (JOIN (R directed_by) "Alien"))', set(), 1 - 1 / 4),
    ('(JOIN (R release_year) (JOIN written_by "Ridley Scott"))', set(), 1 - 1 / 4),
])
def test_rare_ties_the_question_does_not_name_are_charged(usual, resolve, program, named, charge) -> None:
    assert usual.unusual(resolve(program), named) == pytest.approx(charge)


def test_an_unresolved_entity_is_not_charged(usual) -> None:
    assert usual.unusual(parse('(JOIN written_by "Nobody")'), set()) == 0.0


def test_a_relation_stored_both_ways_round_is_one_tie(geo) -> None:
    """France's neighbours are stored as subjects and as objects of `neighbour`: both are its one tie to
    countries, so "the countries next to France" is not charged."""
    usual = UsualTies(geo.schema, geo.executor)
    program = geo.executor.resolve(parse('(JOIN neighbour "France")'))
    ties = usual.ties(program.arg.iri)
    assert ties[("neighbour", "subject")] == ties[("neighbour", "object")] == 3 and ties[("area", "subject")] == 1
    assert usual.unusual(program, set()) == 0.0


LANGUAGES = """\
France|language|French
France|main_language|French
Belgium|language|French
Belgium|language|Dutch
Belgium|main_language|Dutch
Canada|language|French
Canada|language|English
Canada|main_language|English
"""


def test_a_relation_within_another_is_charged_for_its_shortfall_only(small_kg) -> None:
    """French is a language of three countries and the main language of one: "countries where french is
    spoken" is not charged for the pairs `main_language` shares with `language`, and the narrower tie is
    charged for the two countries it misses."""
    kg = small_kg("languages.psv", LANGUAGES)
    usual = UsualTies(kg.schema, kg.executor)
    spoken, main = (kg.executor.resolve(parse(f'(JOIN {r} "French")')) for r in ("language", "main_language"))
    assert usual.unusual(spoken, set()) == 0.0
    assert usual.unusual(main, set()) == pytest.approx(1 - 1 / 3)
