"""engine.answer.prune: which executed candidates are kept, and what an idle one says of its parent."""

from __future__ import annotations

from engine.answer.prune import Pruner
from engine.answer.search import ProgramCandidate, Search
from engine.programs.kg import KnowledgeGraph
from engine.programs.sexpr import parse


def _candidate(kg: KnowledgeGraph, text: str, types, parent: ProgramCandidate | None = None) -> ProgramCandidate:
    return ProgramCandidate(parse(text), text, frozenset({0}), types, parent=parent)


def test_an_and_with_a_class_that_changes_nothing_types_its_set(geo: KnowledgeGraph, config) -> None:
    """ "countries with more than 100 million people": where no member of (gt population ...) is of another class,
    its AND with Country is dropped as idle, and the set itself answers with the class."""
    pruner, search = Pruner(geo.schema, geo.executor, None, config), Search()
    populous = _candidate(geo, "(gt population 50000000)", None)  # as if the schema typed it to several classes
    assert pruner._execute(search, populous)
    idle = _candidate(geo, "(AND Country (gt population 50000000))", frozenset({"Country"}), parent=populous)
    assert not pruner._execute(search, idle)  # kept out: it answers what its parent does
    assert populous.types == frozenset({"Country"})


def test_a_ranking_that_ties_most_of_its_set_ranks_nothing(geo: KnowledgeGraph, config) -> None:
    """Every country has one currency: "the country with the most currencies" is all of them, no ranking."""
    pruner, search = Pruner(geo.schema, geo.executor, None, config), Search()
    everyone = _candidate(geo, "(ARGMAX Country (COUNT currency))", frozenset({"Country"}))
    assert not pruner._execute(search, everyone)
    assert search.dropped[-1][1] == "a ranking that keeps most of its set"
    tied = _candidate(geo, "(ARGMAX Country (COUNT neighbour))", frozenset({"Country"}))
    assert pruner._execute(search, tied)  # four of eleven tie at three neighbours: still a ranking
    assert len(tied.keys) == 4
    europe = _candidate(geo, '(JOIN continent "Europe")', frozenset({"Country"}))
    assert pruner._execute(search, europe)
    most = _candidate(geo, '(ARGMAX (JOIN continent "Europe") (COUNT currency))', frozenset({"Country"}), parent=europe)
    assert not pruner._execute(search, most)
