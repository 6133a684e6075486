"""engine.answer.question: what a question asks for, read on the tiny films KG (no language model)."""

from __future__ import annotations

import pytest

from engine.answer.linker import LabelIndex
from engine.answer.question import _WHO, QuestionReader
from engine.programs.kg import KnowledgeGraph


@pytest.fixture
def reader(films: KnowledgeGraph, config) -> QuestionReader:
    return QuestionReader(films.schema, LabelIndex.build(films.store, films.schema, config.cache_dir))


@pytest.mark.parametrize(
    "question, asks_person",
    [
        ("who directed alien?", True),
        ("the film [My Bodyguard] starred which actors", True),  # a word for a person after the wh-word
        ("which actress starred in Alien", True),
        ("what screenwriters wrote Alien", True),
        ("Alien was directed by who?", True),
        ("which movies did Ridley Scott direct", False),
        ("what film genre is Alien", False),
        ("which directory holds the films", False),
    ],
)
def test_which_questions_ask_for_a_person(question: str, asks_person: bool) -> None:
    assert bool(_WHO.search(question)) is asks_person



@pytest.mark.parametrize(
    "question, asked",
    [
        ("which genres are the movies directed by george lucas", {"genre"}),
        ("what are the movies that share the director of alien", {"movie"}),  # "what are the" + class
        ("what was the genre of alien", {"genre"}),
        ("what sort of film is alien", set()),  # a genre, but not named as one: nothing is asked
        ("how many movies did ridley scott direct", set()),
    ],
)
def test_the_class_a_question_asks_for(reader: QuestionReader, question: str, asked: set[str]) -> None:
    assert reader.read(question).asked_types & {"genre", "movie"} == asked


@pytest.mark.parametrize(
    "question, asks_same",
    [
        ("who co-wrote films with [Carl Foreman]", True),
        ("the actor [Zac Efron] co-starred with who", True),
        ("which films share the same director of [The Traveler]", True),
        ("who wrote movies together with [Valerie Curtin]", True),
        ("the director of [Animal Factory] is also the director of which films", True),
        ("what does [Tracy Griffith] act in", False),
        ("who wrote [Guess Who's Coming to Dinner]", False),  # "co" without a hyphen starts many words
        ("how many comedies did ridley scott direct", False),
    ],
)
def test_questions_that_ask_for_things_sharing_something(reader: QuestionReader, question: str, asks_same: bool) -> None:
    assert reader.read(question).asks_same is asks_same


def test_anchors_and_cues_of_a_count_question(reader: QuestionReader) -> None:
    question = reader.read("how many movies did [Ridley Scott] direct")
    assert [a.candidate.label for a in question.anchors] == ["Ridley Scott"]
    assert question.asks_count and not question.unlinked
    assert "Ridley Scott" not in question.anonymised
    assert question.words[question.anchors[0].node] == question.anchors[0].word


def test_a_bracketed_name_that_matches_nothing_leaves_the_question_unlinked(reader: QuestionReader) -> None:
    assert reader.read("who directed [Qwertyuiop Zxcvb]").unlinked
