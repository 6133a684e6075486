"""Follow-up questions are read as standalone questions (engine.answer.followup), as data."""

from __future__ import annotations

import pytest

from engine.answer.followup import Turn, rewrite

DIRECTED_ALIEN = Turn("who directed Alien?", answer_entities=("Ridley Scott",), topic_entities=("Alien",))
SCOTT_MOVIES = Turn("which movies did Ridley Scott direct?", ("Alien", "Blade Runner"), ("Ridley Scott",))
COUNTED = Turn("how many movies did Ridley Scott direct?", (), ("Ridley Scott",))

CASES = [
    # (previous turn, follow-up, standalone reading or None)
    (DIRECTED_ALIEN, "what else did he direct?", "what else did [Ridley Scott] direct?"),
    (DIRECTED_ALIEN, "which movies did he write", "which movies did [Ridley Scott] write"),
    (DIRECTED_ALIEN, "what are his movies?", "what are [Ridley Scott]'s movies?"),
    (SCOTT_MOVIES, "when was he born?", "when was [Ridley Scott] born?"),  # several answers: the topic
    (COUNTED, "and who starred in them?", "and who starred in [Ridley Scott]?"),
    (DIRECTED_ALIEN, "who wrote that movie?", "who wrote [Ridley Scott]?"),
    (DIRECTED_ALIEN, "who directed Gladiator?", None),  # names its own entity
    (DIRECTED_ALIEN, "which movies are dramas?", None),  # no pronoun
    (None, "what else did he direct?", None),  # nothing to refer to
    (Turn("q", (), ()), "what else did he direct?", None),
    (Turn("q", ("A [b]",), ()), "who is he?", "who is [A (b)]?"),  # brackets in a label cannot break the mention
]


@pytest.mark.parametrize("previous,question,expected", CASES)
def test_follow_ups_read_as_standalone_questions(previous, question, expected) -> None:
    names_an_entity = lambda text: "Gladiator" in text  # noqa: E731 - the label index's role, as data
    assert rewrite(question, previous, names_an_entity, class_words=("movie", "movies")) == expected


def test_a_pronoun_that_is_also_a_title_is_still_a_pronoun() -> None:
    """There are movies called "Her" and "It"; the entity check runs with the pronoun blanked out."""
    names_an_entity = lambda text: " it " in f" {text.lower()} "  # noqa: E731 - as if "It" were a movie
    assert rewrite("what else did it direct?", DIRECTED_ALIEN, names_an_entity) == "what else did [Ridley Scott] direct?"


def test_that_plus_a_class_word_of_another_kg_is_no_follow_up() -> None:
    """"that movie" refers back only where the KG has a class of movies: the nouns come from the KG."""
    names_nothing = lambda text: False  # noqa: E731
    assert rewrite("who wrote that movie?", DIRECTED_ALIEN, names_nothing, class_words=("country",)) is None
    assert rewrite("what borders that country?", DIRECTED_ALIEN, names_nothing, class_words=("country",)) == (
        "what borders [Ridley Scott]?")
    assert rewrite("who wrote that one?", DIRECTED_ALIEN, names_nothing) == "who wrote [Ridley Scott]?"
