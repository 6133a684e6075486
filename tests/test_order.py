"""The order a question says a chain's steps in (engine.answer.order): a possessive reads outward from the name,
"of" and a participle inward toward it. Tests as data: a question, the name, and what English says of each word."""

from __future__ import annotations

import pytest

from engine.answer.glossed import Part
from engine.answer.named import Spelling
from engine.answer.order import among_one_class, chain_steps, misordered, placed_words
from engine.programs.sexpr import parse
from tests.test_narrow import FAMILY

PLACED = [
    # (question, name, {word: places}) for the words the test looks at; possessives 1, 2, ...; in front 1000 + distance
    ("When was the wife of Prince Ansel's son born?", "Prince Ansel's", {"son": [1], "wife": [1001], "born": None}),
    ("Who is Charles' son's wife?", "Charles", {"son": [1], "wife": [2]}),
    ("what is the teams of Marie-Joseph_Peyre 's nationality ?", "Marie-Joseph_Peyre 's",
     {"nationality": [1], "teams": [1001]}),
    ("What house was Elinor's mom's mom from?", "Elinor", {"mom": [1, 2], "house": [1001], "from": None}),
    ("Who is Osric II's youngest kid?", "Osric II", {"youngest": [1], "kid": [2]}),
    ("Who is the grandson of Osric?", "Osric", {"grandson": [1001], "son": [1001]}),  # "grand": its rest too
    ("who are the writers of the films starred by Elise Muller", "Elise Muller",
     {"starred": [1001], "films": [1002], "writers": [1005]}),
    # after the name but no possessive: a question's verb and a relative clause's read alike, so neither is placed
    ("Who directed the films Tom Hanks starred in?", "Tom Hanks", {"directed": [1002], "starred": None}),
]


@pytest.mark.parametrize("question, name, expected", PLACED)
def test_words_are_placed_outward_from_the_name(question: str, name: str, expected: dict) -> None:
    start = question.index(name)
    places = placed_words(question, start, start + len(name))
    assert {word: places.get(word) for word in expected} == expected


GLOSSED = [
    # (question, name, the steps words were read as (engine.answer.glossed), {word: places})
    # a kind of a relative stands where its word does: "brothers" is a step of `sibling`
    ("Who are the brothers of the wife of Hugo's dad?", "Hugo", [Part("sibling", "brothers", said="brothers")],
     {"sibling": [1004], "brothers": [1004], "wife": [1001], "dad": [1]}),
    # a word of two steps places them innermost first, before the next word: a mother-in-law is a spouse's mother
    ("Who is Ida's mother-in-law's mom?", "Ida", [Part("mother", "mother", said="mother-in-law"),
                                                   Part("spouse", None, said="mother-in-law")],
     {"spouse": [1], "mother": [1.5], "mom": [2], "law": None}),
    # a hyphenated word read as written stands as its pieces
    ("Who is Ida's step-son?", "Ida", [Part("step", "step", said="step-son"), Part("son", "son", said="step-son")],
     {"step-son": [1], "son": [1], "step": [1]}),
    # one word written twice is placed twice, as written
    ("What house was Elinor's mom's mom from?", "Elinor", [Part("mom", "mom", said="mom", at=at)
                                                             for at in (3, 4)], {"mom": [1, 2]}),
]


@pytest.mark.parametrize("question, name, parts, expected", GLOSSED)
def test_words_read_as_steps_place_their_steps(question: str, name: str, parts: list, expected: dict) -> None:
    start = question.index(name)
    places = placed_words(question, start, start + len(name), parts)
    assert {word: places.get(word) for word in expected} == expected


def test_a_kind_of_a_relative_puts_its_step_in_the_question_s_order() -> None:
    """"the brothers of the wife of Hugo's dad": his dad's wife's siblings, not his siblings' dad's wife. Read
    through a gloss, "brothers" is no word of `sibling`, and before it was placed, both chains spent no word out of
    order (the lineage probe, session 65)."""
    question = "Who are the brothers of the wife of Hugo's dad?"
    start = question.index("Hugo")
    named = {"sibling": Spelling(frozenset(), frozenset({"sibling"})), "father": KIN["father"], "spouse": KIN["spouse"]}
    places = placed_words(question, start, start + 4, [Part("sibling", "brothers", said="brothers")])
    right = '(JOIN (R sibling) (JOIN (R spouse) (JOIN (R father) "Hugo")))'
    wrong = '(JOIN (R spouse) (JOIN (R father) (JOIN (R sibling) "Hugo")))'
    assert [misordered(chain_steps(parse(p))[1], named, places) for p in (right, wrong)] == [0, 3]
    assert misordered(chain_steps(parse(wrong))[1], named, placed_words(question, start, start + 4)) == 0


def test_a_chain_reads_outward_from_its_name() -> None:
    entity, steps = chain_steps(parse('(COUNT (JOIN (R spouse) (JOIN child (JOIN (R father) "Hugo"))))'))
    assert entity.ref == "Hugo" and steps == [("father", True), ("child", False), ("spouse", True)]
    assert chain_steps(parse('(AND (JOIN (R father) "Hugo") (JOIN child "Ida"))')) == (None, [])
    assert chain_steps(parse('(JOIN (R father) (JOIN birth_year 1990))')) == (None, [])  # from a value, not a name


KIN = {
    "father": Spelling(frozenset(), frozenset({"dad", "father"}), by_back_noun=frozenset({"son"})),
    "spouse": Spelling(frozenset(), frozenset({"husband", "wife"}), by_back_noun=frozenset({"husband", "wife"})),
    "child": Spelling(frozenset(), frozenset({"son"})),
    "placeOfBirth": Spelling(frozenset({"born"}), frozenset()),
    "netflix_genres": Spelling(frozenset(), frozenset({"netflix", "genres"})),
    "recording": Spelling(frozenset(), frozenset({"recording"})),
}
MISORDERED = [
    # "Where was the dad of Queen Maud's husband born?": her husband's dad, not her dad's husband
    ("Where was the dad of Queen Maud's husband born?", "Queen Maud",
     '(JOIN (R placeOfBirth) (JOIN (R father) (JOIN (R spouse) "Maud")))', 0),
    ("Where was the dad of Queen Maud's husband born?", "Queen Maud",
     '(JOIN (R placeOfBirth) (JOIN (R spouse) (JOIN (R father) "Maud")))', 2),  # "dad" past "husband", then back
    # her dad alone passes over the possessive's "husband", a word of a relation no step took
    ("Where was the dad of Queen Maud's husband born?", "Queen Maud", '(JOIN (R father) "Maud")', 1),
    ("Where was the dad of Queen Maud's husband born?", "Queen Maud", '(JOIN spouse "Maud")', 0),
    # a mutual relation stored once: the husband is Maud's subject, and the walk is as good
    ("Where was the dad of Queen Maud's husband born?", "Queen Maud", '(JOIN (R father) (JOIN spouse "Maud"))', 0),
    # one word, two steps: "grandson" is a son's son
    ("Who is the wife of Osric's grandson?", "Osric", '(JOIN (R spouse) (JOIN (R child) (JOIN (R child) "Osric")))', 0),
    ("Who is the wife of Osric's grandson?", "Osric", '(JOIN (R child) (JOIN (R child) (JOIN (R spouse) "Osric")))', 3),
    # a step no placed word spells is no evidence: "born" stands after the possessive
    ("Where was Osric's son born?", "Osric", '(JOIN (R placeOfBirth) (JOIN (R child) "Osric"))', 0),
    # a word in front of the name is passed over too: "the dad of the wife of Osric's son" is the son's wife's dad
    ("Who is the dad of the wife of Osric's son?", "Osric", '(JOIN (R father) (JOIN (R spouse) (JOIN (R child) "Osric")))', 0),
    ("Who is the dad of the wife of Osric's son?", "Osric", '(JOIN (R father) (JOIN (R child) "Osric"))', 1),
    # a relation's own words, placed apart ("netflix_genres" is "netflix", "genres"), are passed over by no step of it
    ("what is the The_Seventh_Curse 's netflix_genres 's recording ?", "The_Seventh_Curse",
     '(JOIN (R recording) (JOIN (R netflix_genres) "The_Seventh_Curse"))', 0),
]


@pytest.mark.parametrize("question, name, program, count", MISORDERED)
def test_steps_read_against_the_question_s_order_are_counted(question: str, name: str, program: str,
                                                             count: int) -> None:
    start = question.index(name)
    _, steps = chain_steps(parse(program))
    assert misordered(steps, KIN, placed_words(question, start, start + len(name))) == count


def test_only_steps_within_one_class_are_judged(small_kg) -> None:
    """A step to another class has its place fixed by the classes (a person's town); between members of one class a
    spouse's father and a father's spouse are both walks, and only the question's grammar tells them apart. Judging
    every step cost PathQuestion check F1 (session 64, reasoner v106)."""
    kg = small_kg("kin.ttl", FAMILY)  # `parent` between persons, `born_in` from a person to a town
    named = {"parent": KIN["father"], "born_in": Spelling(frozenset({"born"}), frozenset())}
    assert sorted(among_one_class(kg.schema, named)) == ["parent"]
