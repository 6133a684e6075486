"""The others that share (engine.answer.others): "the brothers of Ada's husband" are his parents' other sons, on the
real store, read by the real small model where a question is answered."""

from __future__ import annotations

import pytest

from engine.answer.others import others
from engine.programs.kg import KnowledgeGraph
from engine.programs.sexpr import parse, to_text
from kg_adapters.lexicon import RelationWords
from tests.conftest import worded_kg, zero_shot_reasoner

# Bram's parents Cole and Dara have three children: Bram, Egon and Fay. Bram married Ada; their son is Ivo.
FAMILY = """\
@prefix f: <http://example.org/kin/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
f:Person a rdfs:Class ; rdfs:label "person" .
f:Gender a rdfs:Class ; rdfs:label "gender" .
f:parent rdfs:label "parent" ; rdfs:domain f:Person ; rdfs:range f:Person .
f:spouse rdfs:label "spouse" ; rdfs:domain f:Person ; rdfs:range f:Person .
f:gender rdfs:label "gender" ; rdfs:domain f:Person ; rdfs:range f:Gender .
f:male a f:Gender ; rdfs:label "male" .
f:female a f:Gender ; rdfs:label "female" .
f:cole a f:Person ; rdfs:label "Cole Reed" ; f:gender f:male .
f:dara a f:Person ; rdfs:label "Dara Reed" ; f:gender f:female .
f:bram a f:Person ; rdfs:label "Bram Reed" ; f:gender f:male ; f:parent f:cole , f:dara ; f:spouse f:ada .
f:egon a f:Person ; rdfs:label "Egon Reed" ; f:gender f:male ; f:parent f:cole , f:dara .
f:fay a f:Person ; rdfs:label "Fay Reed" ; f:gender f:female ; f:parent f:cole , f:dara .
f:ada a f:Person ; rdfs:label "Ada Lind" ; f:gender f:female ; f:spouse f:bram .
f:ivo a f:Person ; rdfs:label "Ivo Reed" ; f:gender f:male ; f:parent f:bram , f:ada .
"""


@pytest.fixture(scope="module")
def family(tmp_path_factory):
    folder = tmp_path_factory.mktemp("others")
    kg = worded_kg(folder, "family.ttl", FAMILY, {"parent": RelationWords(("father", "mother"), ("son", "daughter")),
                                                  "spouse": RelationWords(("husband", "wife"))})
    reasoner = zero_shot_reasoner(kg, folder)
    yield kg, reasoner
    reasoner.close()
    kg.close()


SIBLINGS_OF_HUSBAND = '(JOIN parent (JOIN (R parent) (JOIN (R spouse) "Ada Lind")))'


def test_a_walk_back_over_a_shared_relation_leaves_out_the_set_it_starts_from(family) -> None:
    """"brother" is glossed "a male with the same parents": the children of the husband's parents hold the husband."""
    kg, reasoner = family
    question = reasoner.read("Who are the brothers of Ada Lind's husband?")
    assert "parent" in question.shared
    program, execution = others(parse(SIBLINGS_OF_HUSBAND), question, kg.executor)
    assert to_text(program) == f'(AND {SIBLINGS_OF_HUSBAND} (NOT (JOIN (R spouse) "Ada Lind")))'
    assert {a.label for a in execution.answers} == {"Egon Reed", "Fay Reed"}


@pytest.mark.parametrize("question", [
    "Who are the children of the parents of Ada Lind's husband?",  # no gloss says what is shared: the husband is one
    "Who are the brothers of Bram Reed?",  # from a name: the program's own entities are never answers anyway
])
def test_nothing_is_left_out_where_no_set_walked_to_is_shared(family, question: str) -> None:
    kg, reasoner = family
    program = SIBLINGS_OF_HUSBAND if "Ada" in question else '(JOIN parent (JOIN (R parent) "Bram Reed"))'
    assert others(parse(program), reasoner.read(question), kg.executor) is None


def test_the_zero_shot_reasoner_answers_the_brothers_without_the_husband(family) -> None:
    _, reasoner = family
    result = reasoner.answer("Who are the brothers of Ada Lind's husband?")
    assert {a.label for a in result.answers} == {"Egon Reed"}, result.program
