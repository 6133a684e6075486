"""Two relations alike walked as one (kg_adapters.unions): a Wikidata-style family with `father` and `mother` and no
`parent`, on the real store, read by the real small model where a question is answered."""

from __future__ import annotations

import pytest

from engine.answer.glossed import Part, Words, composed
from engine.answer.meant import Meaning, unmeant_steps
from engine.answer.named import NamedRelations
from engine.answer.usual import incident
from engine.programs.kg import KnowledgeGraph
from engine.programs.sexpr import parse
from kg_adapters.lexicon import RelationWords
from kg_adapters.schema import Schema
from kg_adapters.unions import UNION_IRI, with_unions, without_unions
from tests.conftest import worded_kg, zero_shot_answer

# Ivo's parents are Cara and Dov; Cara's are Bran and Essa, Dov's Garet and Lune. `child` holds most pairs reversed,
# and one (Lune's child Dov) only there; two pairs (Garet's father, Lune's mother) are not in `child`.
LINES = """\
@prefix f: <http://example.org/line/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
f:Human a rdfs:Class ; rdfs:label "human" .
f:Town a rdfs:Class ; rdfs:label "town" .
f:father rdfs:label "father" ; rdfs:domain f:Human ; rdfs:range f:Human .
f:mother rdfs:label "mother" ; rdfs:domain f:Human ; rdfs:range f:Human .
f:child rdfs:label "child" ; rdfs:domain f:Human ; rdfs:range f:Human .
f:placeOfBirth rdfs:label "place of birth" ; rdfs:domain f:Human ; rdfs:range f:Town .
f:vell a f:Town ; rdfs:label "Vell" .
f:orr a f:Town ; rdfs:label "Orr" .
f:bran a f:Human ; rdfs:label "Bran Tallow" ; f:placeOfBirth f:vell ; f:child f:cara .
f:essa a f:Human ; rdfs:label "Essa Tallow" ; f:placeOfBirth f:orr ; f:child f:cara .
f:garet a f:Human ; rdfs:label "Garet Moss" ; f:placeOfBirth f:orr ; f:child f:dov ; f:father f:olm .
f:lune a f:Human ; rdfs:label "Lune Moss" ; f:placeOfBirth f:vell ; f:child f:dov ; f:mother f:pia .
f:olm a f:Human ; rdfs:label "Olm Moss" .
f:pia a f:Human ; rdfs:label "Pia Reed" .
f:lor a f:Human ; rdfs:label "Lor Tallow" ; f:father f:bran ; f:mother f:essa .
f:bran f:child f:lor .
f:essa f:child f:lor .
f:cara a f:Human ; rdfs:label "Cara Moss" ; f:father f:bran ; f:mother f:essa ; f:child f:ivo .
f:dov a f:Human ; rdfs:label "Dov Moss" ; f:father f:garet ; f:child f:ivo .
f:ivo a f:Human ; rdfs:label "Ivo Moss" ; f:father f:dov ; f:mother f:cara ; f:placeOfBirth f:orr .
"""


@pytest.fixture(scope="module")
def lines(tmp_path_factory):
    kg = worded_kg(tmp_path_factory.mktemp("lines"), "lines.ttl", LINES,
                   {"father": RelationWords(("dad",), ("son", "daughter", "child")),
                    "mother": RelationWords(("mom",), ("son", "daughter", "child"))})
    yield kg
    kg.close()


def _answers(kg: KnowledgeGraph, text: str) -> set[str]:
    return {a.label for a in kg.executor.execute(parse(text)).answers}


def test_father_and_mother_make_a_parent(lines: KnowledgeGraph) -> None:
    """WordNet glosses a parent "a father or mother": the union's word, its members, the words both members have
    for their subjects, and `child` among the relations that hold its pairs reversed."""
    unions = [r for r in lines.schema.relations if r.either]
    assert [(u.name, u.either, u.iri) for u in unions] == [("parent", ("father", "mother"), UNION_IRI + "parent")]
    assert set(unions[0].reverse_words) >= {"son", "daughter", "child"} and "dad" not in unions[0].words
    assert "parent" in lines.schema.relation("child").inverse_of


@pytest.mark.parametrize("program, answers", [
    ('(JOIN (R parent) "Ivo Moss")', {"Cara Moss", "Dov Moss"}),
    # the grandparents: Lune is Dov's mother only by `child`, which the union walks reversed
    ('(JOIN (R parent) (JOIN (R parent) "Ivo Moss"))', {"Bran Tallow", "Essa Tallow", "Garet Moss", "Lune Moss"}),
    ('(JOIN parent "Lune Moss")', {"Dov Moss"}),
    ('(COUNT (JOIN parent (JOIN parent "Essa Tallow")))', {"1"}),
])
def test_a_union_walks_either_member(lines: KnowledgeGraph, program: str, answers: set[str]) -> None:
    assert _answers(lines, program) == answers


def test_a_union_compiles_to_its_members_and_their_inverses(lines: KnowledgeGraph) -> None:
    _, sparql = lines.executor.compile('(JOIN (R parent) "Ivo Moss")')
    assert "<http://example.org/line/father>|<http://example.org/line/mother>|^<http://example.org/line/child>" \
        in sparql and UNION_IRI not in sparql


def test_an_entity_takes_part_in_a_union_where_it_takes_part_in_a_member(lines: KnowledgeGraph) -> None:
    ties = incident(lines.executor, lines.schema, ["http://example.org/line/ivo"], counted=True)
    assert ties[("parent", "subject")] == ties[("father", "subject")] + ties[("mother", "subject")] == 2


def test_a_union_is_read_again_not_twice(lines: KnowledgeGraph) -> None:
    """Read again after a lexicon (KnowledgeGraph.adopt_lexicon) and through the schema's JSON: one union, and the
    triples' own relations without it."""
    again = with_unions(lines.schema)
    assert [r.name for r in again.relations if r.either] == ["parent"]
    assert again.relation("child").inverse_of.count("parent") == 1
    assert Schema.from_json(lines.schema.to_json()).relation("parent").either == ("father", "mother")
    stored = without_unions(lines.schema)
    assert stored.relation("parent") is None and "parent" not in stored.relation("child").inverse_of


@pytest.mark.parametrize("extra, union", [
    ("", "parent"),
    # a KG that has a word's relation already gets no other: its `parent` is the step
    ('f:parent rdfs:label "parent" ; rdfs:domain f:Human ; rdfs:range f:Human .\nf:ivo f:parent f:dov .\n', None),
])
def test_no_union_where_the_kg_has_its_word(small_kg, extra: str, union: str | None) -> None:
    kg = small_kg("kg.ttl", LINES + extra)
    assert next((r.name for r in kg.schema.relations if r.either), None) == union


def test_relations_no_gloss_offers_together_make_no_union(small_kg) -> None:
    """`directed_by` and `written_by` join films to people, `spouse` and `sibling` people to people: no WordNet sense
    is glossed as either of them."""
    kg = small_kg("kg.tsv", "".join(
        f"Film{i}\tdirected_by\tPerson{i}\nFilm{i}\twritten_by\tPerson{i + 1}\n"
        f"Person{i}\tspouse\tPerson{i + 2}\nPerson{i}\tsibling\tPerson{i + 3}\n" for i in range(6)))
    assert not [r.name for r in kg.schema.relations if r.either]


def test_a_choice_between_a_unions_members_is_the_union() -> None:
    """"grandmother": the mother of your father or mother; "uncle": the brother of your father or mother. Where
    `father` and `mother` are relations of their own, the choice is their union (with none, no step:
    test_glossed)."""
    owners = {"father": {"father"}, "mother": {"mother"}, "parent": {"parent"}, "child": {"father", "mother"}}
    words = Words.owned(owners.__contains__, {"parent": "child"}.get, lambda w: False, owners,
                        {"father", "mother", "parent"}, {frozenset({"father", "mother"}): "parent"})
    assert composed("grandmother", words) == (Part("mother", "mother"), Part("parent", None))
    assert composed("grandparent", words) == (Part("parent", "parent"), Part("parent", None))
    assert composed("uncle", words) == (Part("child", "brother", same=True), Part("parent", None),
                                        Part("parent", None))


def test_a_question_reads_the_union_through_a_gloss(lines: KnowledgeGraph) -> None:
    named = NamedRelations(lines.schema)
    assert {"parent"} <= set(named.named("who are the grandparents of Ivo Moss?", [(31, 39)]))


def test_a_noun_for_the_objects_names_no_step_toward_subjects_its_partner_names(lines: KnowledgeGraph) -> None:
    """`child` is held reversed by `father`, `mother` and their union: its subjects are parents, so "children" names
    no step up to them. A blind lineage probe's "the grandchildren of X" had walked on to their fathers' parents, each
    step named (reasoner v116)."""
    question = "who are the grandchildren of Bran Tallow?"
    named = NamedRelations(lines.schema).named(question, [(question.index("Bran"), len(question) - 1)])
    assert named["child"].ends_apart
    down = parse('(JOIN (R child) (JOIN (R child) "Bran Tallow"))')
    up_again = parse('(JOIN child (JOIN (R father) (JOIN (R child) (JOIN (R child) "Bran Tallow"))))')
    assert unmeant_steps(down, named, Meaning()) == 0
    assert unmeant_steps(up_again, named, Meaning()) == 2  # the father, and the child's subjects: no word for either


@pytest.mark.parametrize("question, answers", [
    ("who are the grandparents of Ivo Moss?", {"Bran Tallow", "Essa Tallow", "Garet Moss", "Lune Moss"}),
    ("who are Ivo Moss's parents?", {"Cara Moss", "Dov Moss"}),
    ("who is the father of Ivo Moss?", {"Dov Moss"}),  # a member's own word walks the member
])
def test_the_zero_shot_reasoner_answers_through_the_union(lines: KnowledgeGraph, tmp_path, question: str,
                                                          answers: set[str]) -> None:
    result = zero_shot_answer(lines, tmp_path, question)
    assert {a.label for a in result.answers} == answers, result.program
