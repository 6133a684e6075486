"""Quantities in questions (engine.answer.quantities): numbers with scale suffixes, in words, and with units,
put in the unit a relation's name spells. Tests as data: each row is what a question writes and what is read."""

from __future__ import annotations

import pytest

from engine.answer.quantities import in_units, measure_of, unit_after, with_numbers
from engine.programs.sexpr import Literal
from kg_adapters.schema import RelationInfo


@pytest.mark.parametrize("written, read", [
    ("projects with a budget over 400k", "projects with a budget over 400000"),
    ("who earns over 150K?", "who earns over 150000?"),
    ("deals worth more than $1.5m", "deals worth more than 1500000"),
    ("cities with more than €2bn of debt", "cities with more than 2000000000 of debt"),
    ("countries with more than 100m people", "countries with more than 100000000 people"),
    ("artworks taller than two metres", "artworks taller than 2 metres"),
    ("dishes that take longer than an hour", "dishes that take longer than 1 hour"),
    ("restaurants with more than one star", "restaurants with more than 1 star"),
    ("at least twenty five films", "at least 25 films"),
    ("over a hundred films", "over 100 films"),
    # left as written: no word of degree before the number word, "a" before no unit, a bracketed name
    ("the two films of [Jaws]", "the two films of [Jaws]"),
    ("who took over a company", "who took over a company"),
    ("larger than a football pitch", "larger than a football pitch"),
    ("older than a year", "older than a year"),
    ("films longer than [Two Hours]", "films longer than [Two Hours]"),
    ("canteens with over eighty seats", "canteens with over 80 seats"),
    # a stranger's numbers: however long, exact, never an overflow
    ("over " + "9" * 40 + "k", "over " + "9" * 40 + "000"),
    ("over 0.1234567890123456k", "over 123.456789012"),
])
def test_numbers_are_read_as_digits(written: str, read: str) -> None:
    assert with_numbers(written) == read


def test_a_bare_m_is_metres_where_the_kg_holds_lengths() -> None:
    assert with_numbers("walls taller than 5m", lengths=True) == "walls taller than 5m"  # a unit, read later
    assert with_numbers("budgets over $5m", lengths=True) == "budgets over 5000000"
    assert with_numbers("budgets over 5m") == "budgets over 5000000"


@pytest.mark.parametrize("text, unit", [
    ("2 metres tall", "meter"),
    ("5kg", "kilogram"),
    ("1000000 km2", "kilometer ** 2"),
    ("1000000 km²", "kilometer ** 2"),
    ("300 sq km", "kilometer ** 2"),
    ("40 square miles", "mile ** 2"),
    ("60 minutes", "minute"),
    ("300 calories", "calorie"),
    # no unit: English words pint also reads as one, stop words, decades, dimensionless units
    ("3 in 2020", None),
    ("1990s", None),
    ("2 points", None),
    ("30 years", None),
    ("50 percent", None),
    ("12 films", None),
])
def test_the_unit_written_after_a_number(text: str, unit: str | None) -> None:
    digits = len(text) - len(text.lstrip("0123456789"))
    found = unit_after(text, digits)
    assert (None if found is None else str(found)) == unit


@pytest.mark.parametrize("label, unit, dimension", [
    ("height in cm", "centimeter", "[length]"),
    ("distance km", "kilometer", "[length]"),
    ("area km2", "kilometer ** 2", "[length] ** 2"),
    ("prep minutes", "minute", "[time]"),
    ("weight kg", "kilogram", "[mass]"),
    ("area", None, "[length] ** 2"),  # a word that names a dimension, no unit: the number stays as written
    ("elevation", None, "[length]"),
    ("population", None, None),
    ("passengers per year", None, None),
    ("birth year", None, None),
    ("fleet size", None, None),
])
def test_what_a_relation_measures(label: str, unit: str | None, dimension: str | None) -> None:
    measure = measure_of(label)
    assert (None if measure.unit is None else str(measure.unit)) == unit
    assert (None if measure.dimension is None else str(measure.dimension)) == dimension


def _relation(name: str, label: str) -> RelationInfo:
    return RelationInfo(iri=f"http://example.org/{name}", name=name, label=label, reverse_label=label,
                        domain=("Thing",), range=("integer",))


def test_a_number_with_a_unit_goes_into_each_relations_unit_and_only_its_dimensions() -> None:
    relations = [_relation("heightCm", "height in cm"), _relation("widthM", "width m"),
                 _relation("elevation", "elevation"), _relation("weightKg", "weight kg"),
                 _relation("population", "population")]
    metres = unit_after("2 metres", 1)
    assert in_units(Literal("2", "integer"), metres, relations) == {
        "heightCm": Literal("200", "integer"), "widthM": Literal("2", "integer"), "elevation": Literal("2", "integer")}
    assert in_units(Literal("1.5", "decimal"), unit_after("1.5 km", 3), relations)["heightCm"] == Literal("150000",
                                                                                                      "integer")
    assert in_units(Literal("2", "integer"), unit_after("2 hours", 1), relations) == {}  # no duration: as before
    assert in_units(Literal("2", "integer"), None, relations) == {}
    huge = in_units(Literal("9" * 400, "integer"), unit_after("1 km", 1), relations)["heightCm"]
    assert huge == Literal("9" * 400 + "00000", "integer")  # exact, not a float's infinity
    assert in_units(Literal("1", "integer"), unit_after("1 inch", 1), relations)["heightCm"] == Literal("2.54",
                                                                                                       "decimal")
