"""A word the KG's words lack, read through its WordNet gloss (engine.answer.glossed), on a real store with a made-up
family whose couples are stored once."""

from __future__ import annotations

import pytest

from engine.answer.glossed import Part, Words, composed, kind_of, read, side_words, synonym_of
from engine.answer.ends import known_synonym
from engine.answer.meant import content_words, read_as_parts
from engine.answer.named import NamedRelations
from engine.answer.narrow import narrowed
from engine.programs.kg import KnowledgeGraph
from engine.programs.sexpr import parse, to_text
from kg_adapters.lexicon import RelationWords
from tests.conftest import worded_kg, zero_shot_answer, zero_shot_reasoner
from tests.test_narrow import FAMILY

# Dov is Cara's husband, stored once, from his side: Cara's in-laws are reached by walking `spouse` back
MARRIED = FAMILY + """\
f:spouse rdfs:label "spouse" ; rdfs:domain f:Person ; rdfs:range f:Person .
f:dov f:spouse f:cara .
"""
KIN = frozenset({"father", "mother", "parent", "child", "son", "daughter", "spouse", "husband", "wife"})
WORDS = Words(KIN.__contains__, {"parent": "child"}.get)  # `parent` joins members of one class: "child" its subjects


@pytest.fixture(scope="module")
def married(tmp_path_factory):
    kg = worded_kg(tmp_path_factory.mktemp("married"), "married.ttl", MARRIED,
                   {"parent": RelationWords(("father", "mother", "dad"), ("son", "daughter", "child")),
                    "spouse": RelationWords(("husband", "wife"), ())})
    yield kg
    kg.close()


@pytest.mark.parametrize("word, parts", [
    ("mother-in-law", (Part("mother", "mother"), Part("spouse", "spouse"))),  # "the mother of your spouse"
    ("son-in-law", (Part("husband", "husband"), Part("daughter", "daughter"))),  # "the husband of your daughter"
    # "the mother of your father or mother": the inner step's kind is left open
    ("grandma", (Part("mother", "mother"), Part("father", None))),
    # "a male grandchild", a grandchild "a child of your son or daughter": the outer step is a grandson
    ("grandsons", (Part("child", "grandsons"), Part("son", None))),
    # "a mother of your grandparent", a grandparent "a parent of your father or mother": three steps
    ("great-grandmother", (Part("mother", "mother"), Part("parent", "parent"), Part("father", None))),
    # "a male with the same parents as someone else": a child of one's parents, walked back over them
    ("brothers", (Part("child", "brothers", same=True), Part("parent", None))),
    ("siblings", (Part("child", None, same=True), Part("parent", None))),  # "a person's brother or sister"
    # "the brother of your father or mother": three steps, the outer a brother's
    ("uncle", (Part("child", "brother", same=True), Part("parent", None), Part("father", None))),
    # a plural WordNet's own forms leave out, looked up with its last part singular (before, reasoner v111: none)
    ("great-grandchildren", (Part("child", "child"), Part("child", None), Part("son", None))),
])
def test_a_gloss_of_a_walk_names_its_steps_outermost_first(word: str, parts: tuple[Part, ...]) -> None:
    assert composed(word, WORDS) == parts


@pytest.mark.parametrize("word, known", [
    ("son", KIN),  # "a male child" adds no step: a kind of the relation's end, the lexicon's business
    ("mother-in-law", KIN - {"spouse"}),  # a part the KG names nothing with
    ("aunt", KIN),  # "the sister of your father or mother": no relation of one class has a word for its other end
    ("teammate", KIN),  # "a fellow member of a team": no walk
    ("no-such-word-here", KIN),
])
def test_a_word_whose_gloss_walks_nothing_the_kg_names_is_read_as_written(word: str, known: frozenset) -> None:
    assert composed(word, Words(known.__contains__)) is None


def test_a_question_is_read_with_its_glossed_words_in_place() -> None:
    words = [p.word for p in read("Who was Cara Moss's mother-in-law?", WORDS)]
    assert words == ["who", "was", "cara", "moss", "mother", "spouse"]
    # a word the KG knows is never read through its gloss, nor a word read as written
    assert [p.word for p in read("the spouse of Dov's son", WORDS)] == ["the", "spouse", "of", "dov", "son"]


def test_a_mutual_relations_label_names_either_end(married: KnowledgeGraph) -> None:
    """`spouse` has words for its objects only, between persons: "the spouse of Cara" is also whom Cara is the
    spouse of. Before (reasoner v96), only its lexicon words named its subjects."""
    named = NamedRelations(married.schema).named("who is the spouse of Cara Moss?", [])
    assert "spouse" in named["spouse"].by_back_noun


def test_a_glossed_word_narrows_each_step_it_names(married: KnowledgeGraph) -> None:
    program = '(JOIN (R parent) (JOIN spouse "Cara Moss"))'
    found = narrowed(parse(program), "who is Cara Moss's mother-in-law?", married.schema, married.executor)
    assert found is not None and to_text(found[0]) == '(AND (JOIN sex "Female") (JOIN (R parent) (JOIN spouse "Cara Moss")))'
    assert [a.label for a in found[1].answers] == ["Lune Moss"]


@pytest.mark.parametrize("question, answers", [
    # before (reasoner v96): her own parents or children; "mother-in-law" spelt only "mother"
    ("who is Cara Moss's mother-in-law?", {"Lune Moss"}),
    ("who is the mother-in-law of Dov Moss?", {"Essa Tallow"}),
    # Cara and Lor share their mother, Essa: a brother is a male child of one's parents
    ("who are Cara Moss's brothers?", {"Lor Moss"}),
])
def test_the_reasoner_walks_what_a_glossed_word_names(married: KnowledgeGraph, tmp_path, question: str,
                                                     answers: set[str]) -> None:
    result = zero_shot_answer(married, tmp_path, question)
    assert {a.label for a in result.answers} == answers, result.program


def test_a_lexicon_word_is_read_through_its_gloss_only_over_its_own_relation() -> None:
    """A 0.5B model gave "sibling" for one step of `parent` (a royal probe): its gloss walks `parent` twice, so the
    gloss wins. A lineage KG's `sibling` has "sister" among its words: the gloss walks other relations, so the
    lexicon's word stands (a blind lineage probe had read "sisters" as parents' children it does not store)."""
    owners = {"sibling": {"parent"}, "sister": {"sibling"}, "parent": {"parent"}, "child": {"parent"}}
    words = Words(owners.__contains__, {"parent": "child"}.get, lambda w: False,
                  lambda w: frozenset(owners.get(w, ())))
    assert [p.word for p in read("Lena's sibling", words)] == ["lena", "child", "parent"]
    assert [p.word for p in read("Lena's sister", words)] == ["lena", "sister"]


def test_a_choice_between_two_relations_is_no_step() -> None:
    """"grandmother": the mother of your father or mother. Where `father` and `mother` are relations of their own,
    the inner step is either, which no one word says: the word is read as written (and "grand" reads `mother`
    twice, engine.answer.named). Where one `parent` holds both, the choice is one relation."""
    owners = {"father": {"father"}, "mother": {"mother"}}
    apart = Words(owners.__contains__, lambda w: None, lambda w: False, lambda w: frozenset(owners.get(w, ())))
    assert composed("grandmother", apart) is None
    together = {"father": {"parent"}, "mother": {"parent"}}
    one = Words(together.__contains__, lambda w: None, lambda w: False, lambda w: frozenset(together.get(w, ())))
    assert composed("grandmother", one) == (Part("mother", "mother"), Part("father", None))


# `father` and `mother` as relations of their own, each with a word of its own
APART = {"father": {"father"}, "dad": {"father"}, "mother": {"mother"}, "mom": {"mother"}}
APART_WORDS = Words(APART.__contains__, lambda w: None, lambda w: w in ("father", "mother"),
                    lambda w: frozenset(APART.get(w, ())))


@pytest.mark.parametrize("question, steps", [
    # "the father of your father or mother": the side says which (a blind lineage probe, reasoner v111)
    ("who is Ulla's granddad on her mom's side?", [("father", "father"), ("mother", "mother")]),
    ("who was the grandmother of Ulla on the father's side?", [("mother", "mother"), ("father", "father")]),
    # WordNet: "maternal" is "characteristic of a mother", "paternal" "belonging to ... one's father"
    ("her maternal grandfather", [("father", "father"), ("mother", "mother")]),
    ("her paternal grandmother", [("mother", "mother"), ("father", "father")]),
    # no side: the choice between two relations stays no step (below); a side of something else names nothing
    ("who is Ulla's grandmother?", []),
    ("who sat on the left side of Ulla's dad?", [("dad", "dad")]),
])
def test_a_side_says_which_relative_a_walk_goes_through(question: str, steps: list[tuple[str, str]]) -> None:
    parts = [(p.word, p.kind) for p in read(question, APART_WORDS) if p.word in APART]
    assert parts == steps


def test_the_words_of_a_side_name_no_step_of_their_own() -> None:
    """They mean no relation either (engine.answer.meant): "side" had meant `sibling` to the embedder, and a
    granddad reached through his wife's brother had won."""
    for text, said in (("Ulla's granddad on her mom's side", {"on", "her", "mom", "side"}),
                       ("who sat on the left side of Ulla's dad?", set()), ("her maternal grandfather", {"maternal"})):
        assert side_words(text, read(text, APART_WORDS)) == said
    assert [p.said for p in read("Ulla's granddad on her mom's side", APART_WORDS)] == ["ulla", "granddad", "granddad"]


def test_a_word_read_as_the_kgs_words_means_no_other_step(married: KnowledgeGraph, tmp_path) -> None:
    """Its parts spell it (engine.answer.meant): a blind lineage probe's "brothers" lay within MEANT_COSINE of
    `father`, and "the brothers of X's husband" walked on to their father free (reasoner v113)."""
    reasoner = zero_shot_reasoner(married, tmp_path)
    try:
        question = reasoner.read("who are the brothers of Cara Moss's husband?")
        assert read_as_parts(question) == {"brothers"}
        assert "brothers" not in content_words(question) and "husband" in content_words(question)
    finally:
        reasoner.close()


def test_a_word_the_kg_lacks_is_read_as_a_word_of_its_first_sense_the_kg_has() -> None:
    """What "grand<word>" is made of (engine.answer.named reads it as two steps): "grandkids" of "child"."""
    assert known_synonym("kids", {"child", "parent"}.__contains__) == "child"
    assert known_synonym("dad", {"dad", "father"}.__contains__) == "dad"  # a word the KG has stays
    assert known_synonym("pebble", {"child"}.__contains__) == "pebble"


# A genealogy KG with `sibling` and `spouse` between persons (each with a word for its other end) and `plays_for`
# from a player to a club
PEERS = {"sibling": "sibling", "sister": "sibling", "spouse": "spouse", "wife": "spouse", "husband": "spouse"}
PEER_WORDS = Words(lambda w: w in PEERS or w == "player", PEERS.get)


@pytest.mark.parametrize("word, parts", [
    ("brothers", (Part("sibling", "brothers"),)),  # WordNet: a kind of "male sibling"; no `parent` for its gloss
    ("missus", (Part("wife", "wife"),)),  # "informal term of address for someone's wife", a kind of wife
    ("footballer", None),  # a kind of player, but `player` is no relative: a class's own noun names no step
    ("pebble", None),
])
def test_a_kind_of_a_relative_the_kg_knows_names_its_step(word: str, parts: tuple[Part, ...] | None) -> None:
    """A blind genealogy probe: "Hedwig's brothers" and "the missus of Conrad" named no relation, as its `sibling`
    had "sister" and no "brother" in its lexicon (reasoner v105)."""
    assert kind_of(word, PEER_WORDS) == parts
    assert composed(word, PEER_WORDS) is None  # the gloss walks nothing these words name


def test_a_question_reads_a_kind_of_a_relative_in_place() -> None:
    assert [(p.word, p.kind) for p in read("who's the missus of Conrad?", PEER_WORDS)][-3:] == [
        ("wife", "wife"), ("of", "of"), ("conrad", "conrad")]


# `parent` and `spouse` join persons ("child": the parents' subjects), `member` a person to a club and `house` a
# person to a house; a lexicon gave `spouse` WordNet's "house husband", so "house" names it too
KIDS = {"parent": {"parent"}, "child": {"parent"}, "club": {"member"}, "house": {"house", "spouse"}}
KIDS_WORDS = Words.owned(KIDS.__contains__, {"parent": "child"}.get, lambda w: False, KIDS, {"parent", "spouse"})


@pytest.mark.parametrize("word, parts", [
    ("kids", (Part("child", "child"),)),  # WordNet's first sense of "kid" holds "child"
    ("nightclub", None),  # its first sense holds "club", but `member` is no relation within one class
    ("family", None),  # its first sense holds "house", a word of `house` too (a blind dynasty probe)
    ("pebble", None),
])
def test_a_synonym_of_a_relative_the_kg_knows_names_its_step(word: str, parts: tuple[Part, ...] | None) -> None:
    """A blind lineage probe: "the kids of Queen Sibyl's daughter's husband" named no relation for "kids", and the
    husband's father won (reasoner v113)."""
    assert synonym_of(word, KIDS_WORDS) == parts


def test_a_question_reads_a_synonym_of_a_relative_in_place() -> None:
    assert [(p.word, p.said) for p in read("who are the kids of Conrad?", KIDS_WORDS)][-3:] == [
        ("child", "kids"), ("of", "of"), ("conrad", "conrad")]
