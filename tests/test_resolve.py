"""A label shared by several entities resolves to the one that fits its place in the program."""

from __future__ import annotations

import pytest

from engine.programs.kg import KnowledgeGraph
from engine.programs.sexpr import ProgramError

# The country and a town share "Mexico"; the town has the lower IRI and fewer facts.
_TTL = """\
@prefix : <http://example.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
:country_mx rdfs:label "Mexico" ; :capital :mexico_city ; :population 126190788 ; :currency :peso ; :continent :na .
:a_town_mx rdfs:label "Mexico" ; :population 43694 ; :country :country_mx .
:mexico_city rdfs:label "Mexico City" ; :population 12294193 ; :country :country_mx .
:peso rdfs:label "Peso" .
:na rdfs:label "North America" .
:country_us rdfs:label "United States" ; :capital :washington ; :population 327167434 ; :continent :na .
:washington rdfs:label "Washington" ; :population 689545 ; :country :country_us .
"""


@pytest.fixture
def shared(small_kg) -> KnowledgeGraph:
    return small_kg("shared.ttl", _TTL)


@pytest.mark.parametrize("program, expected", [
    ('(JOIN (R capital) "Mexico")', ["Mexico City"]),  # only the country has a capital
    ('(JOIN country "Mexico")', ["Mexico", "Mexico City"]),  # only the country is a country: both towns
    ('(JOIN (R population) "Mexico")', ["126190788"]),  # both have one: the one with more facts
    ('(JOIN (R country) "Mexico")', ["Mexico"]),  # only the town has a country
    ('(AND (JOIN continent "North America") (gt population "Mexico"))', ["United States"]),
])
def test_a_shared_label_goes_to_the_entity_that_fits(shared: KnowledgeGraph, program: str, expected) -> None:
    assert sorted(a.label for a in shared.executor.execute(program).answers) == expected


def test_an_unknown_label_is_still_a_clear_error(shared: KnowledgeGraph) -> None:
    with pytest.raises(ProgramError, match="no entity is labelled 'Atlantis'"):
        shared.executor.execute('(JOIN (R capital) "Atlantis")')
