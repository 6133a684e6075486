"""A relation that holds both ways but is stored once per pair ("borders"), read both ways (kg_adapters.both_ways).

The made-up atlas probe (bench/probes/atlas.py, written blind) stores each border once, either way round: before,
"which provinces border Valdane?" found the two or three neighbours stored on one side and "how many provinces border
Ilvarra?" answered 3 of 5."""

from __future__ import annotations

import pytest

from engine.answer.linker import LabelIndex
from engine.answer.narrow import narrowed
from engine.answer.reasoner import Reasoner
from engine.answer.usual import incident
from engine.config import ScoutConfig
from engine.lm.embedder import Embedder
from engine.lm.llm import LLM
from engine.programs.kg import KnowledgeGraph
from engine.programs.sexpr import parse
from kg_adapters.lexicon import RelationWords
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


COUPLES = """@prefix c: <http://example.org/couples/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
c:Person rdfs:label "person" .
c:ann a c:Person ; rdfs:label "Ann" ; c:spouse c:bo ; c:parent c:cy .
c:bo a c:Person ; rdfs:label "Bo" ; c:spouse c:ann ; c:parent c:cy .
c:cy a c:Person ; rdfs:label "Cy" ; c:spouse c:di .
c:di a c:Person ; rdfs:label "Di" ; c:spouse c:cy ; c:parent c:fay .
c:eve a c:Person ; rdfs:label "Eve" ; c:spouse c:fay .
c:fay a c:Person ; rdfs:label "Fay" .
"""


def test_a_relation_stored_both_ways_for_some_pairs_only_is_read_both_ways(small_kg) -> None:
    """The lineage probe (a Wikidata-style extract, written blind) states half its couples both ways round and half
    once: "Fay's spouse" was found only walked from Eve's side."""
    couples = small_kg("couples.ttl", COUPLES)
    assert {r.name: r.both_ways for r in couples.schema.relations} == {"parent": False, "spouse": True}
    ran = couples.executor.execute('(JOIN (R spouse) "Fay")')
    assert [a.label for a in ran.answers] == ["Eve"]
    assert sorted(a.label for a in couples.executor.execute('(JOIN (R spouse) "Ann")').answers) == ["Bo"]


def _royal_couples(n: int) -> str:
    """n couples, each stored once (either way round), and a parent relation whose pairs also pair things once."""
    lines = ["@prefix r: <http://example.org/royal/> .", "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> ."]
    for i in range(n):
        a, b = (f"r:k{i}", f"r:q{i}") if i % 2 else (f"r:q{i}", f"r:k{i}")
        lines.append(f'r:k{i} a r:Person ; rdfs:label "King {i}" . r:q{i} a r:Person ; rdfs:label "Queen {i}" .')
        lines.append(f"{a} r:spouse {b} . r:c{i} a r:Person ; rdfs:label \"Heir {i}\" ; r:parent r:x{i} .")
        lines.append(f'r:x{i} a r:Person ; rdfs:label "Elder {i}" .')
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("couples, read_both_ways", [(12, True), (6, False)])
def test_a_mutual_relation_pairing_each_thing_once_is_read_both_ways(small_kg, couples: int,
                                                                    read_both_ways: bool) -> None:
    """A royal probe (written blind) states each couple once: "Who is Queen 3's husband?" was found only walked from
    the king's side. The lexicon says which relation is mutual (words for one end only): `parent` pairs each thing
    once too here, but its lexicon names both ends. Too few pairs tell nothing (a Freebase extract's
    `neighborhood_of`, 4 pairs, has a direction)."""
    kg = small_kg("royal.ttl", _royal_couples(couples))
    assert not any(r.both_ways for r in kg.schema.relations)  # no circle, no pair both ways: nothing to read yet
    kg.adopt_lexicon({"spouse": RelationWords(("husband", "wife")), "parent": RelationWords(("father",), ("son",))})
    assert {r.name: r.both_ways for r in kg.schema.relations} == {"parent": False, "spouse": read_both_ways}
    husband = [a.label for a in kg.executor.execute('(JOIN (R spouse) "Queen 3")').answers]
    assert husband == (["King 3"] if read_both_ways else [])


def test_a_relation_read_both_ways_is_walked_from_either_side_of_a_name(small_kg) -> None:
    """Step 1 builds (JOIN (R r) X) only where X is a subject of r in the data: "Queen 3's husband" (her side states
    no couple) was built only as (JOIN spouse "Queen 3"), which the small scorer reads as the people married to her
    and ranked below her parent."""
    kg = small_kg("royal.ttl", _royal_couples(12))
    queen = next(a.iri for a in kg.executor.execute('(JOIN (R spouse) "King 3")').answers)
    assert ("spouse", "subject") not in incident(kg.executor, kg.schema, [queen])
    kg.adopt_lexicon({"spouse": RelationWords(("husband", "wife"))})
    assert {("spouse", "subject"), ("spouse", "object")} <= set(incident(kg.executor, kg.schema, [queen]))


SIBLINGS = """@prefix s: <http://example.org/siblings/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
s:Person rdfs:label "person" .
s:Sex rdfs:label "sex" .
s:m a s:Sex ; rdfs:label "male" .
s:f a s:Sex ; rdfs:label "female" .
s:hed a s:Person ; rdfs:label "Hedwig" ; s:sex s:f ; s:sibling s:ald .
s:ald a s:Person ; rdfs:label "Aldric" ; s:sex s:m ; s:sibling s:hed , s:cec .
s:cec a s:Person ; rdfs:label "Cecily" ; s:sex s:f ; s:sibling s:ald , s:hed .
s:ulr a s:Person ; rdfs:label "Ulric" ; s:sex s:m ; s:sibling s:hed .
s:ann a s:Person ; rdfs:label "Ann" ; s:sex s:f ; s:sibling s:bo .
s:bo a s:Person ; rdfs:label "Bo" ; s:sex s:m .
"""


def test_a_kind_word_narrows_a_relation_read_both_ways_from_either_side(small_kg) -> None:
    """A blind genealogy probe: "Who are Hedwig's brothers?" answered her sisters too. Its `sibling` holds pairs
    both ways in part and had a junk word for its subjects; the step walked from her subject side named no
    end the word "brothers" (a male sibling, engine.answer.glossed.kind_of) could narrow (reasoner v105)."""
    kg = small_kg("siblings.ttl", SIBLINGS)
    kg.adopt_lexicon({"sibling": RelationWords(("sister",), ("family",))})
    assert {r.name: r.both_ways for r in kg.schema.relations}["sibling"]
    program = parse('(JOIN (R sibling) "Hedwig")')
    assert sorted(a.label for a in kg.executor.execute(program).answers) == ["Aldric", "Cecily", "Ulric"]
    found = narrowed(program, "who are Hedwig's brothers?", kg.schema, kg.executor)
    assert found is not None
    assert sorted(a.label for a in found[1].answers) == ["Aldric", "Ulric"]
