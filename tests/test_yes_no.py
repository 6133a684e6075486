"""Yes/no relations (xsd:boolean) as filters, counts, negations and yes/no questions, on a real store with a
made-up company whose projects are active or not."""

from __future__ import annotations

import pytest

from engine.answer.candidates import Enumerator
from engine.bootstrap.explorer import Explorer
from engine.config import ScoutConfig
from engine.programs.kg import KnowledgeGraph
from engine.programs.sexpr import Literal, parse, to_text, walk
from engine.programs.verbalize import verbalize
from tests.conftest import zero_shot_answer

COMPANY = """\
@prefix c: <http://example.org/firm/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
c:Employee a rdfs:Class ; rdfs:label "employee" .
c:Project a rdfs:Class ; rdfs:label "project" .
c:works_on rdfs:label "works on" ; rdfs:domain c:Employee ; rdfs:range c:Project .
c:active rdfs:label "active" ; rdfs:domain c:Project .
c:has_budget rdfs:label "has budget" ; rdfs:domain c:Project .
c:orca a c:Project ; rdfs:label "Orca" ; c:active true ; c:has_budget true .
c:pike a c:Project ; rdfs:label "Pike" ; c:active false ; c:has_budget true .
c:wren a c:Project ; rdfs:label "Wren" ; c:active true ; c:has_budget false .
c:moth a c:Project ; rdfs:label "Moth" ; c:active false ; c:has_budget false .
c:ana a c:Employee ; rdfs:label "Ana Brook" ; c:works_on c:orca , c:pike , c:wren .
c:tom a c:Employee ; rdfs:label "Tom Reed" ; c:works_on c:pike , c:moth .
c:lia a c:Employee ; rdfs:label "Lia Stone" ; c:works_on c:wren .
"""


@pytest.fixture(scope="module")
def firm(tmp_path_factory):
    root = tmp_path_factory.mktemp("firm")
    (root / "firm.ttl").write_text(COMPANY)
    config = ScoutConfig(cache_dir=str(root / "cache"))
    kg = KnowledgeGraph.open(str(root / "firm.ttl"), config)
    yield kg, config, root
    kg.close()


def test_a_relation_to_true_and_false_is_a_yes_no_relation(firm) -> None:
    kg, _, _ = firm
    assert kg.schema.literal_kind(kg.schema.relation("active")) == "boolean"
    assert kg.schema.literal_kind(kg.schema.relation("works_on")) == "entity"


@pytest.mark.parametrize("program, answers, reading", [
    ("(JOIN active true)", {"Orca", "Wren"}, "projects that are active"),
    ("(JOIN active false)", {"Pike", "Moth"}, "projects that are not active"),
    ("(JOIN has_budget false)", {"Wren", "Moth"}, "projects that do not have budget"),
    ("(AND (JOIN (R works_on) \"Ana Brook\") (JOIN active true))", {"Orca", "Wren"},
     "the work of the employee Ana Brook that are also projects that are active"),
    ("(AND (JOIN active true) (NOT (JOIN has_budget true)))", {"Wren"},
     "projects that are active and that do not have budget"),
    ("(COUNT (JOIN active false))", {"2"}, "the number of projects that are not active"),
    ("(IN \"Orca\" (JOIN active true))", {"yes"}, "is Orca among projects that are active?"),
    ("(JOIN works_on (JOIN active false))", {"Ana Brook", "Tom Reed"},
     "employees whose work is projects that are not active"),
])
def test_a_yes_no_value_is_written_bare_compiled_and_read_as_what_things_are(firm, program, answers, reading) -> None:
    kg, _, _ = firm
    parsed = parse(program)
    assert to_text(parsed) == program
    assert any(isinstance(n, Literal) and n.kind == "boolean" for n in walk(parsed))
    assert {a.label for a in kg.executor.execute(program).answers} == answers
    assert verbalize(parsed, kg.schema) == reading


def _reader(kg: KnowledgeGraph, config: ScoutConfig, root):
    from engine.answer.linker import LabelIndex
    from engine.answer.question import QuestionReader
    from engine.lm.embedder import Embedder

    return QuestionReader(kg.schema, LabelIndex.build(kg.store, kg.schema, root / "labels", Embedder.load()))


@pytest.mark.parametrize("question, built, not_built", [
    # no name stands for the value: the flags start the search
    ("which projects are active?", {"(JOIN active true)"}, {"(JOIN active false)"}),
    ("how many projects are inactive?", {"(JOIN active false)"}, {"(JOIN active true)"}),  # a prefix denies the word
    # ... and so does a negation a few words before it
    ("which projects are not active?", {"(JOIN active false)"}, {"(JOIN active true)"}),
    ("which projects do not have a budget?", {"(JOIN has_budget false)"}, {"(JOIN has_budget true)"}),
    # a name starts it, and its set is narrowed by the flag in the same step
    ("which active projects does Ana Brook work on?",
     {'(AND (JOIN (R works_on) "Ana Brook") (JOIN active true))'}, {"(JOIN active true)"}),
    ("which projects does Ana Brook work on?", set(), {"(JOIN active true)", "(JOIN active false)"}),  # not named
])
def test_the_first_step_builds_the_flags_a_question_names(firm, question, built, not_built) -> None:
    kg, config, root = firm
    first = {c.text for c in Enumerator(kg, config).first(_reader(kg, config, root).read(question))}
    assert built <= first and not (not_built & first)


def test_walks_reach_yes_no_values_so_the_corpus_has_such_questions(firm) -> None:
    kg, config, _ = firm
    programs = [p.program for p in Explorer(kg, seed=0).explore(60)]
    flagged = [p for p in programs if " true)" in p or " false)" in p]
    assert flagged, programs
    assert all(kg.executor.execute(p).answers for p in flagged)


@pytest.mark.parametrize("question, answers", [
    # before (reasoner v60): no candidate held the value; "which projects are active?" answered every project
    ("which projects are active?", {"Orca", "Wren"}),
    ("how many projects are not active?", {"2"}),
    ("which active projects does Ana Brook work on?", {"Orca", "Wren"}),
    # no name and no class word: the flag alone starts the search (before v66 "nothing to start from")
    ("which are active?", {"Orca", "Wren"}),
])
def test_the_reasoner_answers_with_the_flag_the_question_names(firm, tmp_path, question, answers) -> None:
    result = zero_shot_answer(firm[0], tmp_path, question)
    assert {a.label for a in result.answers} == answers, result.program
    assert "(JOIN active" in result.program


@pytest.mark.parametrize("program, fits", [
    ("(JOIN active false)", True),  # the "no" of the word the question denies says the exclusion itself
    ("(AND Project (NOT (JOIN has_budget true)))", True),
    ("(JOIN active true)", False),
])
def test_a_yes_no_relations_no_answers_a_negation(firm, program, fits) -> None:
    """A made-up hospital KG's "which doctors are not on call?" passed over (JOIN on_call false), which holds no
    NOT, for a NOT of another relation."""
    from engine.answer.asked import fits_asked
    from engine.answer.search import ProgramCandidate
    from engine.programs.validate import validate

    kg, config, root = firm
    question = _reader(kg, config, root).read("which projects are not active?")
    parsed = parse(program)
    cand = ProgramCandidate(parsed, program, frozenset(), validate(parsed, kg.schema),
                            execution=kg.executor.execute(program))
    assert fits_asked(question, cand) is fits


@pytest.mark.parametrize("question", ["which active projects does Ana Brook work on?",
                                      "which inactive projects does Ana Brook work on?",
                                      "what active projects does Ana Brook work on?"])
def test_a_yes_no_word_before_a_class_noun_modifies_it(firm, question) -> None:
    """ "which active projects" asks for projects: the yes/no word is the noun's modifier, neither the thing asked
    for (true or false) nor a word that hides the noun from the wh-word (a made-up science KG's "which uncrewed
    missions did NASA launch?" had asked for nothing, and "which crewed missions" for a yes or no)."""
    kg, config, root = firm
    assert _reader(kg, config, root).read(question).asked_types == {"Project"}


@pytest.mark.parametrize("question", ["which is active?", "which project is active?", "what active one does Tom work on?"])
def test_a_yes_no_word_never_asks_for_true_or_false(firm, question) -> None:
    """A yes/no relation's word names the things it holds of: "which gas giant is closest to the sun?" asks for a
    planet, not for a yes or no (a made-up science KG had asked for booleans, so no ranking fitted the question)."""
    kg, config, root = firm
    assert "boolean" not in _reader(kg, config, root).read(question).asked_types
