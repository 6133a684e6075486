"""A relation that holds both ways but is stored once per pair ("borders"), read both ways (kg_adapters.both_ways).

The made-up atlas probe (bench/probes/atlas.py, written blind) stores each border once, either way round: before,
"which provinces border Valdane?" found the two or three neighbours stored on one side and "how many provinces border
Ilvarra?" answered 3 of 5."""

from __future__ import annotations

import pytest

from engine.answer.linker import LabelIndex
from engine.answer.reasoner import Reasoner
from engine.config import ScoutConfig
from engine.lm.embedder import Embedder
from engine.lm.llm import LLM
from engine.programs.kg import KnowledgeGraph
from kg_adapters.schema import SchemaEdit, read_edits
from ui import render

ATLAS = """@prefix a: <http://example.org/atlas/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
a:Province rdfs:label "province" . a:Person rdfs:label "person" . a:Town rdfs:label "town" .
a:north a a:Province ; rdfs:label "Northmere" . a:east a a:Province ; rdfs:label "Eastvale" .
a:south a a:Province ; rdfs:label "Southby" . a:west a a:Province ; rdfs:label "Westfold" .
a:mid a a:Province ; rdfs:label "Midland" .
a:north a:borders a:east . a:east a:borders a:mid . a:mid a:borders a:north .
a:west a:borders a:north . a:mid a:borders a:west . a:south a:borders a:mid . a:east a:borders a:south .
a:ann a a:Person ; rdfs:label "Ann Hale" ; a:governs a:north .
a:bea a a:Person ; rdfs:label "Bea Hale" ; a:parent a:ann ; a:governs a:east .
a:cai a a:Person ; rdfs:label "Cai Hale" ; a:parent a:bea ; a:governs a:mid .
a:dev a a:Person ; rdfs:label "Dev Hale" ; a:parent a:bea ; a:governs a:south .
a:eli a a:Person ; rdfs:label "Eli Hale" ; a:parent a:cai ; a:governs a:west .
a:t1 a a:Town ; rdfs:label "Kestle" ; a:twinned_with a:t2 . a:t2 a a:Town ; rdfs:label "Orrin" ; a:twinned_with a:t1 .
a:t3 a a:Town ; rdfs:label "Brae" ; a:twinned_with a:t1 . a:t1 a:twinned_with a:t3 .
a:t2 a:twinned_with a:t3 . a:t3 a:twinned_with a:t2 .
"""
MID_NEIGHBOURS = ["Eastvale", "Northmere", "Southby", "Westfold"]


@pytest.fixture
def atlas(small_kg) -> KnowledgeGraph:
    return small_kg("atlas.ttl", ATLAS)


def test_a_relation_stored_once_per_pair_in_no_order_is_read_both_ways(atlas) -> None:
    both = {r.name: r.both_ways for r in atlas.schema.relations}
    # borders: three pairs run in a circle; parent runs down the generations; twinned_with is stored both ways
    assert both == {"borders": True, "governs": False, "parent": False, "twinned_with": False}
    for program in ('(JOIN borders "Midland")', '(JOIN (R borders) "Midland")'):
        ran = atlas.executor.execute(program)
        assert sorted(a.label for a in ran.answers) == MID_NEIGHBOURS and "|^" in ran.sparql
    assert atlas.executor.execute('(COUNT (JOIN borders "Midland"))').count == 4
    assert sorted(a.label for a in atlas.executor.execute('(JOIN parent "Bea Hale")').answers) == ["Cai Hale", "Dev Hale"]


def test_the_user_sets_both_ways_in_the_schema_table(atlas, config: ScoutConfig) -> None:
    rows = render.relation_rows(atlas.schema)
    at = render.RELATION_COLUMNS.index(render.BOTH_WAYS)
    assert {row[0]: row[at] for row in rows} == {"borders": "yes", "governs": "", "parent": "", "twinned_with": ""}
    for row in rows:
        row[at] = {"borders": "", "parent": "Yes "}.get(row[0], row[at])
    edits = render.schema_edits(atlas.schema, render.class_rows(atlas.schema), rows)
    assert edits == [SchemaEdit("borders", both_ways=False), SchemaEdit("parent", both_ways=True)]
    atlas.edit_schema(edits)
    assert [r.name for r in atlas.schema.relations if r.both_ways] == ["parent"]
    again = KnowledgeGraph.open(atlas.store.info.location, config)  # kept for the next opening
    try:
        assert [r.name for r in again.schema.relations if r.both_ways] == ["parent"]
    finally:
        again.close()


def test_a_stranger_edits_file_cannot_set_both_ways_with_a_string(tmp_path) -> None:
    path = tmp_path / "edits.json"
    path.write_text('[{"name": "borders", "both_ways": "no"}, {"name": "parent", "both_ways": true}]')
    assert read_edits(path) == (SchemaEdit("borders"), SchemaEdit("parent", both_ways=True))


@pytest.mark.parametrize("question, answers", [
    ("which provinces border Midland?", MID_NEIGHBOURS),
    ("how many provinces border Midland?", ["4"]),
])
def test_questions_over_a_relation_stored_once_get_every_pair(tmp_path, question: str, answers: list[str]) -> None:
    path = tmp_path / "atlas.ttl"
    path.write_text(ATLAS)
    config = ScoutConfig(cache_dir=str(tmp_path / "cache"))
    kg = KnowledgeGraph.open(str(path), config)
    embedder = Embedder.load()
    r = Reasoner(kg, [], LLM.load("qwen2.5-coder-0.5b"), embedder,
                 LabelIndex.build(kg.store, kg.schema, tmp_path, embedder), config)
    try:
        result = r.answer(question)
        got = [str(result.count)] if result.count is not None else sorted(a.label for a in result.answers)
        assert got == answers, result.program
    finally:
        r.close()
        kg.close()
