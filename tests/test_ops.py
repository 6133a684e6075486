"""The operators NOT, OR, IN, SUM, AVG, `(COUNT r S)` superlatives and comparison with an entity,
on real pyoxigraph stores.

The rows are data, one table per operator in tests/fixtures/ops/ (read by `read_ops_rows`);
tests/test_virtuoso.py runs the same rows on Virtuoso and checks it answers the same.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.config import ScoutConfig
from engine.programs.executor import READINGS, Execution
from engine.programs.kg import KnowledgeGraph
from engine.programs.sexpr import Aggregate, And, Class, Entity, Not, ProgramError, parse, to_text
from engine.programs.to_sparql import to_sparql
from engine.programs.validate import validate
from engine.programs.verbalize import verbalize
from kg_adapters.base import XSD, Bindings, Term
from tests.conftest import OPS_KGS, answers_text, named, read_ops_rows

ROWS = read_ops_rows()


@pytest.fixture(scope="module")
def kgs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, KnowledgeGraph]:
    config = ScoutConfig(cache_dir=str(tmp_path_factory.mktemp("ops-cache")))
    opened = {name: named(KnowledgeGraph.open(str(path), config)) for name, path in OPS_KGS.items()}
    yield opened
    for kg in opened.values():
        kg.close()


def test_every_operator_has_its_table() -> None:
    tables = {table for table, _, _, _ in ROWS}
    assert tables == {"negation", "count_superlative", "compare_entity", "yes_no", "union", "sum_avg"}


@pytest.mark.parametrize(("table", "kg", "program", "expected"), ROWS, ids=[f"{t}:{p}" for t, _, p, _ in ROWS])
def test_operator_rows(kgs, table: str, kg: str, program: str, expected: str) -> None:
    executor = kgs[kg].executor
    if expected.startswith("error: "):
        with pytest.raises(ProgramError) as info:
            executor.execute(program)
        assert expected.removeprefix("error: ") in str(info.value)
        assert "at character" in str(info.value)  # the error points at a position
        return
    assert to_text(parse(program)) == program  # every table row is in canonical form
    assert answers_text(executor.execute(program)) == expected


# ------------------------------------------------------------------ what the executor reports
def test_yes_no_is_one_boolean_answer(kgs) -> None:
    yes = kgs["geo"].executor.execute('(IN "Austria" (JOIN (R flows_through) "Rhine"))')
    no = kgs["geo"].executor.execute('(IN "Spain" (JOIN (R flows_through) "Rhine"))')
    assert (yes.boolean, no.boolean) == (True, False)
    assert [(a.label, a.iri, a.datatype) for a in yes.answers] == [("yes", None, XSD + "boolean")]
    assert [a.label for a in no.answers] == ["no"]
    assert yes.count is None and yes.number is None
    assert yes.to_json()["boolean"] is True and no.to_json()["answers"] == [{"iri": None, "label": "no"}]


def test_sum_and_avg_are_one_decimal_answer(kgs) -> None:
    total = kgs["geo"].executor.execute('(SUM (JOIN continent "Europe") area)')
    assert total.number == Decimal("1642871") and total.count is None and total.boolean is None
    assert [(a.label, a.iri, a.datatype) for a in total.answers] == [("1642871", None, XSD + "decimal")]
    assert total.to_json()["number"] == "1642871"
    nothing = kgs["geo"].executor.execute('(AVG (JOIN continent "Asia") hdi)')
    assert nothing.answers == () and nothing.number is None and nothing.to_json()["number"] is None


def test_count_answer_is_typed_like_the_others(kgs) -> None:
    result = kgs["geo"].executor.execute("(COUNT River)")
    assert result.count == 4 and [(a.label, a.datatype) for a in result.answers] == [("4", XSD + "integer")]


@pytest.mark.parametrize(
    ("virtuoso", "oxigraph", "text"),
    [
        ("0.937166666666667", "0.937166666666666666", "0.937166666667"),  # AVG: the stores' digits differ
        ("273811.833333333333333", "273811.833333333333333333", "273811.833333"),
        ("1642871.0", "1642871", "1642871"),
        ("1.6E6", "1600000", "1600000"),
        ("123456789012345678", "123456789012345678", "123456789012345678"),  # whole numbers stay exact
    ],
)
def test_numbers_read_the_same_from_either_store(virtuoso: str, oxigraph: str, text: str) -> None:
    read = READINGS[Aggregate]

    def reading(value: str):
        row = (Term("literal", value, XSD + "decimal"), Term("literal", "3", XSD + "integer"))
        return read(Bindings(("number", "count"), (row,)))

    assert reading(virtuoso) == reading(oxigraph)
    assert reading(virtuoso).answers[0].label == text


def test_no_values_is_no_answer_whatever_the_store_says() -> None:
    read = READINGS[Aggregate]
    zero = (Term("literal", "0", XSD + "integer"), Term("literal", "0", XSD + "integer"))  # SPARQL's AVG of nothing
    unbound = (None, Term("literal", "0", XSD + "integer"))  # Virtuoso's
    for row in (zero, unbound):
        assert read(Bindings(("number", "count"), (row,))).answers == ()


# ------------------------------------------------------------------ the SPARQL
def _sparql(kg: KnowledgeGraph, program: str) -> str:
    return kg.executor.compile(program)[1]


def test_negation_is_filter_not_exists_on_the_answer(kgs) -> None:
    sparql = _sparql(kgs["geo"], '(AND (JOIN continent "Europe") (NOT (JOIN currency "Euro")))')
    assert "FILTER NOT EXISTS { ?x " in sparql
    pinned = _sparql(kgs["geo"], '(AND (JOIN continent "Europe") (NOT (OR "France" "Spain")))')
    assert "FILTER NOT EXISTS { { SELECT DISTINCT ?n" in pinned and "= ?x)" in pinned


def test_or_members_are_answerable_and_anchors_are_not(kgs) -> None:
    sparql = _sparql(kgs["geo"], '(OR "France" (AND (JOIN neighbour "Spain") (JOIN continent "Europe")))')
    assert "?x != <http://example.org/geo/Spain>" in sparql and "!= <http://example.org/geo/France>" not in sparql
    # no UNION branch opens with VALUES, which Virtuoso 7.2 answers nothing from: each branch is a sub-select
    assert "} UNION { SELECT DISTINCT ?x WHERE {" in sparql and "{ VALUES ?x { <http://example.org/geo/France> } } UNION" not in sparql


def test_count_superlative_counts_zero_through_optional(kgs) -> None:
    sparql = _sparql(kgs["geo"], "(ARGMIN Country (COUNT neighbour))")
    assert "OPTIONAL" in sparql and "COUNT(DISTINCT" in sparql and "MIN(" in sparql and "LIMIT" not in sparql


def test_top_level_queries(kgs) -> None:
    assert _sparql(kgs["geo"], '(IN "Japan" Country)').rstrip().endswith("LIMIT 1")
    for op in ("SUM", "AVG"):
        sparql = _sparql(kgs["geo"], f"({op} Country area)")
        assert f"{op}(" in sparql and "SELECT DISTINCT ?x ?" in sparql and "isNumeric" in sparql


# ------------------------------------------------------------------ validation of built trees
def test_validator_rejects_not_outside_and(kgs) -> None:
    schema = kgs["geo"].schema
    alone = Not(Class("Country"))
    with pytest.raises(ProgramError, match="NOT may only be an operand of AND"):
        validate(alone, schema)
    with pytest.raises(ProgramError, match="AND of two NOTs"):
        validate(And(Not(Class("Country")), Not(Class("River"))), schema)
    assert validate(And(Class("Country"), Not(Entity("France"))), schema) == frozenset({"Country"})


def test_compiler_refuses_a_lone_not(kgs) -> None:
    with pytest.raises(ProgramError, match="NOT may only be an operand of AND"):
        to_sparql(Not(Class("Country")), kgs["geo"].schema)


# ------------------------------------------------------------------ English readings
@pytest.mark.parametrize(
    ("program", "reading"),
    [
        ('(AND (JOIN continent "Europe") (NOT (JOIN currency "Euro")))',
         "countries whose continent is Europe and whose currency is not Euro"),
        ('(AND movie (NOT (JOIN directed_by "Ridley Scott")))', "movies not directed by Ridley Scott"),
        ('(AND Country (NOT (JOIN (R neighbour) Country)))', "countries that are not the neighbour of countries"),
        ('(IN "Austria" (JOIN (R flows_through) "Rhine"))',
         "is Austria among the flows through of the river Rhine?"),
        ('(IN "Brazil" (gt area "Argentina"))',
         "is Brazil among countries whose area is greater than that of Argentina?"),
        ('(SUM (JOIN continent "Europe") area)', "the total area of countries whose continent is Europe"),
        ('(AVG (JOIN continent "Europe") hdi)',
         "the average hdi of countries whose continent is Europe"),
        ('(ARGMAX (OR "Brazil" "Argentina") area)', "the one of Brazil or Argentina with the largest area"),
        ("(ARGMAX Country (COUNT neighbour))", "the countries with the most neighbours"),
        ('(ARGMIN actor (COUNT (R starred_actors) (JOIN directed_by "George Lucas")))',
         "the actors with the fewest movies among movies directed by George Lucas"),
        ('(gt area "France")', "countries whose area is greater than that of France"),
    ],
)
def test_readings(kgs, program: str, reading: str) -> None:
    kg = kgs["films"] if "movie" in program or "actor" in program else kgs["geo"]
    assert verbalize(parse(program), kg.schema) == reading


def test_execution_fields_default_for_sets() -> None:
    execution = Execution("p", "s", (), None, False, 0.0, False)
    assert execution.boolean is None and execution.number is None
