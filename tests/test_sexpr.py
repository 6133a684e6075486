"""The s-expression language: printing round-trips, decomposition, anonymisation."""

from __future__ import annotations

import pytest

from engine.programs.sexpr import Class, Entity, anonymise, members, parse, pattern, pretty, subprograms, to_text
from tests.conftest import FIXTURES

IDENTITY = [
    line
    for line in (FIXTURES / "sexpr_identity.txt").read_text(encoding="utf-8").splitlines()
    if line and not line.startswith("#")
]


@pytest.mark.parametrize("text", IDENTITY)
def test_print_round_trip(text: str) -> None:
    program = parse(text)
    assert to_text(program) == text
    assert parse(to_text(program)) == program
    assert parse(pretty(program, width=20)) == program


def test_bottom_up_decomposition() -> None:
    program = parse('(COUNT (AND movie (JOIN directed_by (JOIN (R written_by) "Alien"))))')
    assert [to_text(p) for p in subprograms(program)] == [
        '(JOIN (R written_by) "Alien")',
        '(JOIN directed_by (JOIN (R written_by) "Alien"))',
        '(AND movie (JOIN directed_by (JOIN (R written_by) "Alien")))',
        '(COUNT (AND movie (JOIN directed_by (JOIN (R written_by) "Alien"))))',
    ]


@pytest.mark.parametrize(
    "text, expected",
    [
        ('(COUNT (AND movie (JOIN directed_by "Ridley Scott")))', "(COUNT (AND #C (JOIN #r #e)))"),
        ("(ARGMAX movie (JOIN (R directed_by) release_year))", "(ARGMAX #C (JOIN (R #r) #r))"),
        ("(AND (gt release_year 1999) movie)", "(AND (gt #r #v) #C)"),
        ('(AND country (NOT (JOIN currency "Euro")))', "(AND #C (NOT (JOIN #r #e)))"),
        ('(IN "Brazil" (gt area "Argentina"))', "(IN #e (gt #r #e))"),
        ("(ARGMAX country (COUNT (R flows_through) river))", "(ARGMAX #C (COUNT (R #r) #C))"),
        ('(SUM (OR "Brazil" "Chile") area)', "(SUM (OR #e #e) #r)"),
    ],
)
def test_pattern(text: str, expected: str) -> None:
    assert pattern(parse(text)) == expected


def test_anonymise_replaces_entities_by_their_class() -> None:
    program = parse('(AND (JOIN directed_by "Ridley Scott") (JOIN has_genre "Action"))')
    classes = {"Ridley Scott": "person", "Action": "genre"}
    anonymous = anonymise(program, lambda e: classes[e.ref])
    assert to_text(anonymous) == "(AND (JOIN directed_by person) (JOIN has_genre genre))"
    assert not any(isinstance(n, Entity) for n in [anonymous.left.arg, anonymous.right.arg])
    assert isinstance(anonymous.left.arg, Class)


def test_decomposition_keeps_only_complete_programs() -> None:
    """NOT and a superlative's (COUNT r S) are parts of a program, never programs on their own."""
    program = parse('(IN "Spain" (AND country (NOT (ARGMAX country (COUNT neighbour (OR "France" "Chile"))))))')
    assert [to_text(p) for p in subprograms(program)] == [
        '(OR "France" "Chile")',
        '(ARGMAX country (COUNT neighbour (OR "France" "Chile")))',
        '(AND country (NOT (ARGMAX country (COUNT neighbour (OR "France" "Chile")))))',
        '(IN "Spain" (AND country (NOT (ARGMAX country (COUNT neighbour (OR "France" "Chile"))))))',
    ]


def test_members_are_the_entities_of_or_and_in() -> None:
    program = parse('(IN "Spain" (OR "France" (OR (JOIN neighbour "Chile") "Peru")))')
    assert sorted(e.ref for e in members(program)) == ["France", "Peru", "Spain"]
    assert members(parse('(gt area "France")')) == []
