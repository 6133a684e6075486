"""A user's labels and descriptions for the schema: applied, checked, kept, and used by prompts."""

from __future__ import annotations

import pytest

from engine.programs.kg import KnowledgeGraph
from engine.bootstrap.qgen import schema_lines
from engine.programs.sexpr import parse
from engine.programs.verbalize import verbalize
from kg_adapters.schema import SchemaEdit, SchemaEditError, apply_edits
from tests.conftest import FIXTURES


def test_edits_change_labels_and_descriptions_but_not_names(films: KnowledgeGraph) -> None:
    schema = apply_edits(films.schema, [
        SchemaEdit("movie", label="film"),
        SchemaEdit("directed_by", description="the person who directed the film"),
    ])
    assert schema.class_("movie").label == "film" and schema.class_("movie").name == "movie"
    assert schema.relation("directed_by").description == "the person who directed the film"
    assert schema.relation("directed_by").label == films.schema.relation("directed_by").label
    assert verbalize(parse('(JOIN directed_by "Ridley Scott")'), schema) == "films directed by Ridley Scott"
    lines = schema_lines(parse('(JOIN directed_by "Ridley Scott")'), schema)
    assert lines == ["directed_by: movie -> person (directed by) - the person who directed the film"]


@pytest.mark.parametrize("edit,message", [
    (SchemaEdit("award", label="prize"), "no class or relation named 'award'"),
    (SchemaEdit("movie", label="   "), "a label cannot be empty"),
])
def test_bad_edits_are_refused_with_a_reason(films: KnowledgeGraph, edit, message) -> None:
    before = films.schema
    with pytest.raises(SchemaEditError, match=message):
        films.edit_schema([edit])
    assert films.schema is before


def test_edits_are_kept_for_the_next_open_and_merge(films: KnowledgeGraph, config) -> None:
    films.edit_schema([SchemaEdit("person", label="filmmaker")])
    films.edit_schema([SchemaEdit("person", description="directs or writes movies")])
    assert films.executor.schema is films.schema
    again = KnowledgeGraph.open(str(FIXTURES / "tiny_films.psv"), config)
    try:
        person = again.schema.class_("person")
        assert (person.label, person.description) == ("filmmaker", "directs or writes movies")
        assert again.executor.execute('(JOIN (R directed_by) "Alien")').answers[0].label == "Ridley Scott"
    finally:
        again.close()
