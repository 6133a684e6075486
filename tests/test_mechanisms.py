"""Issue 27, section 2: mechanisms that carry to KGs nobody tuned on, each on a small made-up KG shaped like the
ones users bring (typed Turtle with labels), read with the real linker and embedder and answered with the real
0.5B model and no corpus (a KG's first question).

The KGs are TEST DATA, invented here: three regions, their points and towns; a small company; a royal family.
"""

from __future__ import annotations

import pytest

from engine.answer.candidates import Enumerator
from engine.answer.linker import LabelIndex
from engine.answer.meant import (Meaning, RelationMeanings, content_words, meant_by_free_words, unmeant_steps,
                                 unspent_words, verb_words)
from engine.answer.named import Spelling, unnamed_steps
from engine.answer.walk_back import shortfall, walks_chains, writes_chain
from engine.answer.question import QuestionReader
from engine.answer.reasoner import Reasoner
from engine.answer.voice import label_form, reads_backwards
from engine.bootstrap.lexicon import ensure_lexicon
from engine.lm.embedder import Embedder
from engine.lm.llm import LLM
from engine.programs.kg import KnowledgeGraph
from engine.programs.sexpr import Literal, parse

REGIONS_TTL = """\
@prefix r: <http://example.org/regions/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
r:Region a rdfs:Class ; rdfs:label "region" .
r:Town a rdfs:Class ; rdfs:label "town" .
r:Peak a rdfs:Class ; rdfs:label "peak" .
r:highest_point rdfs:label "highest point" ; rdfs:domain r:Region ; rdfs:range r:Peak .
r:largest_town rdfs:label "largest town" ; rdfs:domain r:Region ; rdfs:range r:Town .
r:in_region rdfs:label "in region" ; rdfs:domain r:Town ; rdfs:range r:Region .
r:elevation rdfs:label "elevation" ; rdfs:domain r:Peak .
r:population rdfs:label "population" ; rdfs:domain r:Town .
r:area rdfs:label "area" ; rdfs:domain r:Region .
r:inhabitants rdfs:label "inhabitants" ; rdfs:domain r:Region .
r:arden a r:Region ; rdfs:label "Arden" ; r:area 5200 ; r:inhabitants 93000 ; r:highest_point r:mont_gris ;
    r:largest_town r:velmar .
r:bresk a r:Region ; rdfs:label "Bresk" ; r:area 8100 ; r:inhabitants 73000 ; r:highest_point r:tor_alda ;
    r:largest_town r:quill .
r:corlan a r:Region ; rdfs:label "Corlan" ; r:area 3900 ; r:inhabitants 120000 ; r:highest_point r:pic_sable ;
    r:largest_town r:ostra .
r:mont_gris a r:Peak ; rdfs:label "Mont Gris" ; r:elevation 2410 .
r:tor_alda a r:Peak ; rdfs:label "Tor Alda" ; r:elevation 1785 .
r:pic_sable a r:Peak ; rdfs:label "Pic Sable" ; r:elevation 3020 .
r:velmar a r:Town ; rdfs:label "Velmar" ; r:in_region r:arden ; r:population 81000 .
r:lisse a r:Town ; rdfs:label "Lisse" ; r:in_region r:arden ; r:population 12000 .
r:quill a r:Town ; rdfs:label "Quill" ; r:in_region r:bresk ; r:population 64000 .
r:hollin a r:Town ; rdfs:label "Hollin" ; r:in_region r:bresk ; r:population 9000 .
r:ostra a r:Town ; rdfs:label "Ostra" ; r:in_region r:corlan ; r:population 23000 .
r:River a rdfs:Class ; rdfs:label "river" .
r:crosses rdfs:label "crosses" ; rdfs:domain r:River ; rdfs:range r:Region .
r:vell a r:River ; rdfs:label "Vell" ; r:crosses r:arden , r:bresk .
r:oder a r:River ; rdfs:label "Oder Water" ; r:crosses r:arden .
r:Pass a rdfs:Class ; rdfs:label "pass" .
r:high_pass rdfs:label "high pass" ; rdfs:domain r:Region ; rdfs:range r:Pass .
r:arden r:high_pass r:col_brume . r:col_brume a r:Pass ; rdfs:label "Col Brume" .
"""


COMPANY_TTL = """\
@prefix c: <http://example.org/company/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
c:Employee a rdfs:Class ; rdfs:label "employee" .
c:Department a rdfs:Class ; rdfs:label "department" .
c:City a rdfs:Class ; rdfs:label "city" .
c:works_in rdfs:label "works in" ; rdfs:domain c:Employee ; rdfs:range c:Department .
c:based_in rdfs:label "based in" ; rdfs:domain c:Department ; rdfs:range c:City .
c:salary rdfs:label "salary" ; rdfs:domain c:Employee .
c:hired rdfs:label "hired" ; rdfs:domain c:Employee .
c:born rdfs:label "birth year" ; rdfs:domain c:Employee .
c:grade rdfs:label "seniority level" ; rdfs:domain c:Employee .
c:hometown rdfs:label "hometown" ; rdfs:domain c:Employee ; rdfs:range c:City .
c:lisbon a c:City ; rdfs:label "Lisbon" .
c:oslo a c:City ; rdfs:label "Oslo" .
c:sales a c:Department ; rdfs:label "Sales" ; c:based_in c:lisbon .
c:research a c:Department ; rdfs:label "Research" ; c:based_in c:oslo .
c:alice a c:Employee ; rdfs:label "Alice Novak" ; c:works_in c:sales ; c:salary 72000 ; c:hired "2019-03-01"^^xsd:date ;
    c:born 1985 ; c:grade 1 .
c:bruno a c:Employee ; rdfs:label "Bruno Costa" ; c:works_in c:sales ; c:salary 55000 ; c:hired "2021-06-15"^^xsd:date ;
    c:born 1994 ; c:grade 2 .
c:chen a c:Employee ; rdfs:label "Chen Wei" ; c:works_in c:sales ; c:salary 51000 ; c:hired "2022-01-10"^^xsd:date ;
    c:born 1979 ; c:grade 4 .
c:dana a c:Employee ; rdfs:label "Dana Ilves" ; c:works_in c:research ; c:salary 98000 ; c:hired "2015-09-01"^^xsd:date ;
    c:born 1990 ; c:grade 5 ; c:hometown c:lisbon .
c:hana a c:Employee ; rdfs:label "Hana Sato" ; c:works_in c:research ; c:salary 48000 ; c:hired "2023-04-01"^^xsd:date ;
    c:born 1988 ; c:grade 3 .
c:Project a rdfs:Class ; rdfs:label "project" .
c:works_on rdfs:label "works on" ; rdfs:domain c:Employee ; rdfs:range c:Project .
c:leader rdfs:label "leader" ; rdfs:domain c:Project ; rdfs:range c:Employee .
c:atlas a c:Project ; rdfs:label "Atlas" ; c:leader c:dana .
c:beacon a c:Project ; rdfs:label "Beacon" ; c:leader c:alice .
c:alice c:works_on c:atlas . c:bruno c:works_on c:atlas , c:beacon . c:chen c:works_on c:beacon . c:hana c:works_on c:atlas .
"""


def _open(tmp_path_factory, name: str, turtle: str):
    from engine.config import ScoutConfig

    cache = tmp_path_factory.mktemp(name)
    path = cache / f"{name}.ttl"
    path.write_text(turtle)
    config = ScoutConfig(cache_dir=str(cache / "cache"))
    kg = KnowledgeGraph.open(str(path), config)
    embedder = Embedder.load()
    index = LabelIndex.build(kg.store, kg.schema, cache, embedder)
    return kg, index, embedder, config


@pytest.fixture(scope="module")
def regions(tmp_path_factory):
    opened = _open(tmp_path_factory, "regions", REGIONS_TTL)
    yield opened
    opened[0].close()


@pytest.fixture(scope="module")
def company(tmp_path_factory):
    opened = _open(tmp_path_factory, "company", COMPANY_TTL)
    yield opened
    opened[0].close()


@pytest.fixture(scope="module")
def reader(regions) -> QuestionReader:
    kg, index, _, _ = regions
    return QuestionReader(kg.schema, index)


def _zero_shot(opened) -> Reasoner:
    """A reasoner with no corpus over an `_open`ed KG and the real 0.5B model: the KG's first question."""
    kg, index, embedder, config = opened
    return Reasoner(kg, [], LLM.load("qwen2.5-coder-0.5b"), embedder, index, config)


def _first_question_reasoner(tmp_path_factory, name: str, turtle: str):
    """A zero-shot reasoner over a Turtle KG of its own, closed with its KG after the module's tests."""
    opened = _open(tmp_path_factory, name, turtle)
    r = _zero_shot(opened)
    yield r
    r.close()
    opened[0].close()


@pytest.fixture(scope="module")
def reasoner(regions):
    r = _zero_shot(regions)
    yield r
    r.close()


# ------------------------------------------------------------------ 1. a relation named by a word near it in meaning
@pytest.mark.parametrize("question, words, meant, not_meant", [
    # "earn" spells nothing of `salary`; the embedder puts it near
    ("how much does Bruno earn?", ["earn"], {"salary"}, {"works_in", "works_on", "hired"}),
    # names and class words are not the question's own words: "Sales" and "department" mean nothing here
    ("who is in the Sales department?", [], set(), {"works_in", "based_in"}),
])
def test_a_question_word_means_the_relations_near_it(company, question: str, words: list[str], meant: set[str],
                                                     not_meant: set[str]) -> None:
    kg, index, embedder, _ = company
    read = QuestionReader(kg.schema, index).read(question)
    assert content_words(read) == words
    heard = RelationMeanings(kg.schema, embedder).meant(read, [r.name for r in kg.schema.relations])
    assert meant <= heard and not heard & not_meant


def test_a_step_no_word_spells_or_means_is_counted(company) -> None:
    """What the final re-rank makes a step pay for (UNNAMED_WEIGHT): meaning spares `salary`, not `hired`."""
    kg, index, embedder, _ = company
    read = QuestionReader(kg.schema, index).read("how much does Bruno earn?")
    meant = RelationMeanings(kg.schema, embedder).meant(read, ["salary", "hired"])
    assert unnamed_steps(parse('(JOIN (R salary) "Bruno Costa")'), read.named_relations, meant) == 0
    assert unnamed_steps(parse('(JOIN (R salary) "Bruno Costa")'), read.named_relations) == 1  # by spelling only
    assert unnamed_steps(parse('(JOIN (R hired) "Bruno Costa")'), read.named_relations, meant) == 1


def test_a_question_word_no_step_means_is_counted(company) -> None:
    """What the final re-rank makes a finalist pay for (UNSPENT_WEIGHT): a reading over `hired` leaves "earn",
    which means `salary`, unused."""
    kg, index, embedder, _ = company
    read = QuestionReader(kg.schema, index).read("how much does Bruno earn?")
    meaning = RelationMeanings(kg.schema, embedder).of(read, ["salary", "hired"])
    assert meaning.by_word == {"earn": frozenset({"salary"})}
    assert meaning.verbs == {"earn"}
    assert unspent_words(parse('(JOIN (R salary) "Bruno Costa")'), read.named_relations, meaning) == 0
    assert unspent_words(parse('(JOIN (R hired) "Bruno Costa")'), read.named_relations, meaning) == 1


@pytest.mark.parametrize("question, verbs", [
    ("how much does Bruno earn?", {"earn"}),
    ("which pieces did Bruno give away?", set()),  # "pieces" after "which" is the asked noun, "give" a stop word
    ("which offices do not border the Sales department?", {"border"}),
    ("which employees are senior accountants?", set()),  # nouns only
])
def test_the_words_that_stand_as_verbs(company, question: str, verbs: set[str]) -> None:
    kg, index, _, _ = company
    assert verb_words(QuestionReader(kg.schema, index).read(question)) == verbs


BORDERS = {"borders": frozenset({"country", "neighbour"})}
TOUCHES = {"borders": frozenset({"neighbour"}), "touches": frozenset({"neighbour"})}


@pytest.mark.parametrize("program, meaning, unspent", [
    # "the largest city in a country that borders France": `country` is the class word's, so "borders" is left over
    ('(ARGMAX (JOIN country "France") population)', BORDERS, 1),
    ('(ARGMAX (JOIN country (JOIN neighbour "France")) population)', BORDERS, 0),
    # one step stands for one word: two words meaning `neighbour` need two steps of it
    ('(JOIN neighbour "France")', TOUCHES, 1),
    ('(JOIN neighbour (JOIN neighbour "France"))', TOUCHES, 0),
    # a word that spells a relation is the spelling's business (NAMED_WEIGHT), not an unspent meaning, and so is a
    # compound of it ("screenwriter" spells `written_by` by "writer": MetaQA had read it as meaning `directed_by`)
    ('(JOIN neighbour "France")', {"country": frozenset({"country"})}, 0),
    ('(JOIN written_by "Meantime")', {"screenwriter": frozenset({"directed_by", "written_by"})}, 0),
    # a word that is no verb asks for no step: "which airlines are not budget carriers?" asks for airlines, though
    # "carriers" lies near `fleet_size` (an airline probe's reading walked to fleet sizes for it)
    ('(JOIN alliance "Sky Alliance")', {"carriers": frozenset({"fleet_size"})}, 0),
])
def test_each_step_stands_for_one_word_and_a_spelt_step_for_its_spelling(program: str, meaning: dict,
                                                                        unspent: int) -> None:
    named = {"country": Spelling(by_verb=frozenset(), by_noun=frozenset({"country"})),
             "written_by": Spelling(by_verb=frozenset(), by_noun=frozenset({"writer"}))}
    verbs = frozenset(meaning) - {"carriers"}  # as verb_words reads them in the questions above
    assert unspent_words(parse(program), named, Meaning(meaning, verbs=verbs)) == unspent


# ------------------------------------------------------------------ 2. a superlative a relation spells
@pytest.mark.parametrize("question, ranks", [
    ("what is the highest point of Arden?", False),  # the relation `highest point`
    ("what is Bresk's largest town?", False),  # the relation `largest town`
    ("which region has the largest area?", True),  # no relation spells "largest area": a ranking
    ("which peak is the highest?", True),  # "highest" alone
    ("which town in Bresk has the largest population?", True),
    ("what is the highest pass of Arden?", False),  # the relation `high pass`, said in the superlative
    ("which pass is the highest?", True),  # "highest" alone
])
def test_a_superlative_inside_a_relation_name_asks_for_no_ranking(reader: QuestionReader, question: str,
                                                                    ranks: bool) -> None:
    assert reader.read(question).asks_superlative is ranks


@pytest.mark.parametrize("question, asked", [
    ("what is the highest point of Arden?", {"Peak"}),  # the objects of the relation the noun names
    ("what is Bresk's largest town?", {"Town"}),  # after a possessor
    ("what is the area of Corlan?", {"integer"}),  # a value, as before
    ("which towns are in Bresk?", {"Town"}),
])
def test_what_is_the_noun_of_a_relation_asks_for_its_objects(reader: QuestionReader, question: str,
                                                             asked: set[str]) -> None:
    assert reader.read(question).asked_types == asked


@pytest.mark.parametrize("question, answer", [
    # before: "highest" asked for a ranking, and (ARGMAX (JOIN in_region "Arden") population), Velmar, won
    ("what is the highest point of Arden?", "Mont Gris"),
    # before: the ranking again, Quill by chance; with no ranking asked, the town's population won
    ("what is Bresk's largest town?", "Quill"),
    # 2.4, a value of the thing a relation reaches (this worked before too)
    ("how high is the highest point of Corlan?", "3020"),
])
def test_a_relation_named_with_a_superlative_is_walked(reasoner: Reasoner, question: str, answer: str) -> None:
    result = reasoner.answer(question)
    assert [a.label for a in result.answers] == [answer], result.program
    assert "ARG" not in result.program


def test_a_superlative_after_a_class_noun_ranks_that_class(reader: QuestionReader) -> None:
    """ "the <noun> with the largest ...": the ranking is of that noun's class, not of the class asked for."""
    assert reader.read("what is the highest point of the region with the largest area?").ranks_another
    assert reader.read("which river crosses the region that has the most towns?").ranks_another
    assert not reader.read("which region has the largest area?").ranks_another  # the class asked for is ranked


@pytest.mark.parametrize("question, answer", [
    # 2.5, a ranking inside a walk. Before: a ranking had to be the outermost step, so the peaks were ranked
    # instead ((ARGMAX Peak elevation), Pic Sable)
    ("what is the highest point of the region with the largest area?", "Tor Alda"),
])
def test_a_ranking_inside_a_walk(reasoner: Reasoner, question: str, answer: str) -> None:
    result = reasoner.answer(question)
    assert [a.label for a in result.answers] == [answer], result.program


def test_how_many_counts_a_join_to_its_class_in_the_first_step(regions, reader: QuestionReader) -> None:
    """2.5: "how many rivers are in X" counts X's rivers. No word spells `crosses`, and where its join scores too low
    for the best set a step later only counts of other things are built (a made-up US-geography KG with no corpus:
    (JOIN (R area) "Texas") answered). The count is built with the join; nothing else is counted in that step."""
    kg, _, _, config = regions
    first = [c.text for c in Enumerator(kg, config).first(reader.read("how many rivers are in Bresk?"))]
    assert '(COUNT (JOIN crosses "Bresk"))' in first
    assert [t for t in first if t.startswith("(COUNT")] == ['(COUNT (JOIN crosses "Bresk"))']


# ------------------------------------------------------------------ 7. a new user's own KG, asked as staff ask
def test_a_class_of_people_by_role_is_asked_for_by_who(company) -> None:
    """"employee" is no agent noun (-er/-or), so "who" found no class of people before (kg_adapters.person_nouns)."""
    kg, index, _, _ = company
    reader = QuestionReader(kg.schema, index)
    assert reader.read("who earns the most?").classes == ("Employee",)
    assert "Employee" in reader.read("how many people are in the sales department?").classes


def test_a_class_of_places_is_asked_for_by_where(company) -> None:
    """`based in` says nothing of where (no "located", no "is in"), so "where" asked for no class before; WordNet
    puts "city" under location (kg_adapters.person_nouns.names_a_place), and not "department" or "project"."""
    kg, index, _, _ = company
    reader = QuestionReader(kg.schema, index)
    assert reader.read("where is the research department?").asked_types == {"City"}
    assert reader.read("which department is Bruno in?").asked_types == {"Department"}  # no "where": as before


def test_an_ordinal_names_a_value_of_a_counted_relation(company) -> None:
    """"third-level" is the value 3 of `seniority level` (a relation of whole numbers), not a rank: before, "third"
    linked nothing and the question asked for no value (engine.answer.words.ordinals_as_values)."""
    kg, index, _, _ = company
    read = QuestionReader(kg.schema, index).read("which third-level employees work in Research?")
    assert [(a.node.value, a.node.kind) for a in read.anchors if isinstance(a.node, Literal)] == [("3", "integer")]
    assert "grade" in read.named_relations  # "level" still spells it


@pytest.fixture(scope="module")
def company_reasoner(company):
    r = _zero_shot(company)
    yield r
    r.close()


@pytest.mark.parametrize("question, answer", [
    # before: "I could not find any entity, value or class" (no name, and "who" named no class)
    ("who earns the most?", "Dana Ilves"),
    ("who was hired most recently?", "Hana Sato"),
    ("who was hired first?", "Dana Ilves"),  # 2.5: an ordinal ranks a date like a superlative
    # 2.5: an adjective of time ranks by the year of birth, not by the seniority level's small numbers (these held
    # before too with no corpus; a corpus's exemplars had tipped a like dev question: tests/test_named.py)
    ("who is the oldest employee?", "Chen Wei"),
    ("who is the youngest employee?", "Bruno Costa"),
    # before: the department's people listed ("people" named no class, so no COUNT fitted the question)
    ("how many people are in the sales department?", "3"),
    # before: a walk through his projects' leaders, (JOIN (R works_in) (JOIN (R leader) (JOIN (R works_on) X))),
    # answered Research and Sales and the leaders' salaries: with no corpus the forward score, which rises with
    # a program's length, outweighed the inverse score that sees the two as equal (Ranker.rerank)
    ("which department is Bruno in?", "Sales"),
    # before: Oslo, where her department is, (JOIN (R based_in) (JOIN (R works_in) X)): "where" asked for no class,
    # and "from" spells no relation (so too a like question of the university dev KG)
    ("where is Dana from?", "Lisbon"),
    ("what is the salary of Bruno?", "55000"),
    # before: "third" linked nothing; the walk to Research's people's projects' leaders' levels answered "5"
    ("which third-level employees work in Research?", "Hana Sato"),
    # before: the levels of all employees counted, "5"
    ("how many second-level employees are there?", "1"),
    # 2.5: a year against dates compares the dates' year; before, no program did ("which employees were hired
    # after 2020?" answered all five, through a walk over salaries above 2020)
    ("who was hired in 2019?", "Alice Novak"),
    ("how many employees joined before 2020?", "2"),
    # a count compared with a number: before, the number was compared with a salary or a level, or nothing was
    ("who works on more than one project?", "Bruno Costa"),
    ("which departments have more than two employees?", "Sales"),
    # a month after a word of time order is a day: before 2021-07-01 (before: the year 2021, and Bruno, hired in June
    # 2021, was left out)
    ("how many employees were hired before July 2021?", "3"),
])
def test_questions_a_new_users_staff_ask(company_reasoner: Reasoner, question: str, answer: str) -> None:
    result = company_reasoner.answer(question)
    assert [a.label for a in result.answers] == [answer], result.program


# ------------------------------------------------------------------ 3 and 5: rankings and counts of the asked things
@pytest.mark.parametrize("question, answer", [
    # an adjective of size ranks by the attribute that holds a size, not by the inhabitants
    ("which region is the smallest?", "Corlan"),
    # the towns' own population ranks them, not the area of the region they are in (a chain nobody spelt; this
    # one held before too, the default KG's below did not)
    ("which town is the largest?", "Velmar"),
    # a count of the class "how many" names, among the things that pass the comparison
    ("how many towns have a population of more than 20000?", "3"),
    # a misspelt relation word still spells the relation (held before too, with one hop to choose from; the
    # default KG's "capitol" below did not)
    ("what is the elevaton of Pic Sable?", "3020"),
])
def test_rankings_counts_and_misspelt_relations(reasoner: Reasoner, question: str, answer: str) -> None:
    result = reasoner.answer(question)
    assert [a.label for a in result.answers] == [answer], result.program


@pytest.mark.parametrize("question, answers", [
    # a number with a unit compares the relation of its dimension: the area, not the inhabitants (held before too,
    # where the scorer chose the area by "larger"; the unit now leaves it nothing else)
    ("which regions are larger than 5,000 square kilometres?", {"Arden", "Bresk"}),
    # a scale suffix is a number (before: "80k" was no number, and all three came back)
    ("which regions have over 80k inhabitants?", {"Arden", "Corlan"}),
    ("which peaks are higher than two thousand metres?", {"Mont Gris", "Pic Sable"}),  # held before too
])
def test_numbers_written_as_people_write_them(reasoner: Reasoner, question: str, answers: set[str]) -> None:
    result = reasoner.answer(question)
    assert {a.label for a in result.answers} == answers, result.program


# A museum's export whose amounts spell their units in their names, as a spreadsheet's columns often do
WORKS_TTL = """\
@prefix w: <http://example.org/works/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
w:Artwork a rdfs:Class ; rdfs:label "artwork" .
w:heightCm rdfs:label "height in cm" ; rdfs:domain w:Artwork .
w:weightKg rdfs:label "weight in kg" ; rdfs:domain w:Artwork .
w:tall_grey a w:Artwork ; rdfs:label "Tall Grey" ; w:heightCm 240 ; w:weightKg 800 .
w:small_blue a w:Artwork ; rdfs:label "Small Blue" ; w:heightCm 45 ; w:weightKg 3 .
w:long_field a w:Artwork ; rdfs:label "Long Field" ; w:heightCm 160 ; w:weightKg 1200 .
w:red_door a w:Artwork ; rdfs:label "Red Door" ; w:heightCm 210 ; w:weightKg 40 .
"""


@pytest.fixture(scope="module")
def works_reasoner(tmp_path_factory):
    yield from _first_question_reasoner(tmp_path_factory, "works", WORKS_TTL)


@pytest.mark.parametrize("question, answers", [
    # the number is put in the unit the relation's name spells: two metres is 200 cm (before: heightCm > 2, all four)
    ("which artworks are taller than two metres?", {"Tall Grey", "Red Door"}),
    ("which artworks are shorter than 1.5 m?", {"Small Blue"}),
    # "a tonne" is one tonne, 1000 kg (before: no number was read, and every artwork came back)
    ("which artworks weigh more than a tonne?", {"Long Field"}),
])
def test_a_number_is_put_in_the_unit_a_relation_spells(works_reasoner: Reasoner, question: str,
                                                       answers: set[str]) -> None:
    result = works_reasoner.answer(question)
    assert {a.label for a in result.answers} == answers, result.program


def _scores_in_fp32() -> bool:
    """Whether this machine's models run in fp32 (a CPU without fast bf16; engine.lm.models.pick_device)."""
    import torch

    from engine.lm.models import pick_device

    return pick_device()[1] == torch.float32


@pytest.fixture(scope="module")
def geography_reasoner():
    from engine.config import ScoutConfig
    from engine.scout import Scout

    session = Scout(ScoutConfig()).open(None)  # the default KG and shipped corpus, in the shared cache as the app
    reasoner = session.reasoner()
    yield reasoner
    reasoner.close()


@pytest.mark.parametrize("question, answer", [
    # before: the question's "capitol" spelt nothing, and every city of Germany came back
    ("what is the capitol of germny?", "Berlin"),
    # before: the cities ranked by the area of their country, (ARGMAX ... (JOIN country area)), a chain nobody spelt.
    # A close call between readings: a machine without bf16 (AVX2 only) scores in fp32 and answers Paris, as the
    # reasoners before and after v64 both do there (BENCHMARKS.md, "Made-up KGs asked zero-shot ..."); from v76 an
    # AMX machine's bf16 (CI's) did too, 0.02 behind, until v77 made the largest city of France pay for leaving
    # "borders" (`neighbour`) unused (meant.UNSPENT_WEIGHT): 0.10 ahead on such a machine with one thread
    pytest.param("what is the largest city in a country that borders France?", "Berlin",
                 marks=pytest.mark.xfail(_scores_in_fp32(), reason="fp32 scores tip this close call", strict=False)),
    # before: (lt population 5000000), the cities and countries themselves, though "how many" asked for a count
    ("how many countries have fewer than 5 million people?", "127"),
])
def test_the_default_kg_asked_as_people_ask(geography_reasoner: Reasoner, question: str, answer: str) -> None:
    geography_reasoner.forget(question)
    result = geography_reasoner.answer(question)
    assert [a.label for a in result.answers] == [answer], result.program


# ------------------------------------------------------------------ 1: everyday words for a family's relations
FAMILY_TTL = """\
@prefix f: <http://example.org/royal/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
f:Person a rdfs:Class ; rdfs:label "person" .
f:parent rdfs:label "parent" ; rdfs:domain f:Person ; rdfs:range f:Person .
f:spouse rdfs:label "spouse" ; rdfs:domain f:Person ; rdfs:range f:Person .
f:born rdfs:label "year of birth" ; rdfs:domain f:Person .
f:aldric a f:Person ; rdfs:label "Aldric the Bold" ; f:born 1510 ; f:spouse f:maelis .
f:maelis a f:Person ; rdfs:label "Maelis of Dorn" ; f:born 1514 ; f:spouse f:aldric .
f:oswin a f:Person ; rdfs:label "Oswin Varn" ; f:born 1535 ; f:parent f:aldric , f:maelis ; f:spouse f:rowena .
f:isolde a f:Person ; rdfs:label "Isolde Varn" ; f:born 1538 ; f:parent f:aldric , f:maelis ; f:spouse f:bertrand .
f:bertrand a f:Person ; rdfs:label "Bertrand Hale" ; f:born 1530 ; f:spouse f:isolde .
f:rowena a f:Person ; rdfs:label "Rowena Crane" ; f:born 1540 ; f:spouse f:oswin .
f:giselle a f:Person ; rdfs:label "Giselle Varn" ; f:born 1563 ; f:parent f:oswin , f:rowena ; f:spouse f:corwin .
f:corwin a f:Person ; rdfs:label "Corwin Ash" ; f:born 1559 ; f:spouse f:giselle .
f:perrin a f:Person ; rdfs:label "Perrin Ash" ; f:born 1585 ; f:parent f:corwin , f:giselle .
"""


@pytest.fixture(scope="module")
def family_reasoner(tmp_path_factory):
    """With the relation lexicon, as a session builds it before a KG's first question."""
    from engine.config import ScoutConfig

    cache = tmp_path_factory.mktemp("family")
    (cache / "family.ttl").write_text(FAMILY_TTL)
    config = ScoutConfig(cache_dir=str(cache / "cache"))
    kg = KnowledgeGraph.open(str(cache / "family.ttl"), config)
    llm, embedder = LLM.load("qwen2.5-coder-0.5b"), Embedder.load()
    ensure_lexicon(kg, lambda: llm, lambda: embedder)
    r = Reasoner(kg, [], llm, embedder, LabelIndex.build(kg.store, kg.schema, cache, embedder), config)
    yield r
    r.close()
    kg.close()


@pytest.mark.parametrize("question, answers", [
    # before, on a larger made-up family KG: her parents, (JOIN (R spouse) (JOIN (R parent) X)): "husband" named no
    # relation (the 0.5B model's word for `spouse` was "partner"); it is one of WordNet's kinds of spouse now
    # (engine.bootstrap.kinds)
    ("who is Isolde's husband?", {"Bertrand Hale"}),
    # before: one step, (JOIN (R parent) X), which spelt "mother" and "father" alike; a step spells one reading.
    # Right on a larger made-up family KG (BENCHMARKS.md, "... reasoner v53"); on this one the 0.5B scorer with no
    # corpus preferred a walk that comes back, (JOIN parent (JOIN (R spouse) (JOIN (R parent) X))), answering Perrin,
    # until v92, whose rule that reaches it is one word, one step (meant.meant_by_free_words): xfail at v91, passes now
    ("who is Perrin Ash's mother's father?", {"Oswin Varn", "Rowena Crane"}),
    ("who is the wife of Oswin Varn?", {"Rowena Crane"}),
    # a word of the next generation but one spells its relation twice (named.GENERATION_PREFIX)
    ("who is Perrin Ash's grandfather?", {"Oswin Varn", "Rowena Crane"}),
    ("who are the grandchildren of Aldric the Bold?", {"Giselle Varn"}),
    # its rest read as the KG's word of its first WordNet sense: a kid is a child (before, reasoner v111: no relation
    # named, and a blind lineage probe counted the children)
    ("who are the grandkids of Aldric the Bold?", {"Giselle Varn"}),
])
def test_a_family_asked_in_everyday_words(family_reasoner: Reasoner, question: str, answers: set[str]) -> None:
    result = family_reasoner.answer(question)
    assert {a.label for a in result.answers} == answers, result.program


# ------------------------------------------------------------------ 2.5: a ranking of what a walk from a name reaches
SKY_TTL = """\
@prefix s: <http://example.org/sky/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
s:Planet a rdfs:Class ; rdfs:label "planet" .
s:Satellite a rdfs:Class ; rdfs:label "satellite" .
s:Mission a rdfs:Class ; rdfs:label "mission" .
s:radius rdfs:label "mean radius" .
s:mass rdfs:label "mass" .
s:orbits rdfs:label "orbits" ; rdfs:domain s:Satellite ; rdfs:range s:Planet .
s:ringed rdfs:label "ring system" ; rdfs:domain s:Planet .
s:gas_giant rdfs:label "gas giant" ; rdfs:domain s:Planet .
s:distance rdfs:label "semi-major axis" ; rdfs:domain s:Planet .
s:destination rdfs:label "destination" ; rdfs:domain s:Mission ; rdfs:range s:Planet .
s:Venus a s:Planet ; rdfs:label "Venus" ; s:radius 6052 ; s:mass 0.815 ; s:ringed false ; s:gas_giant false ;
    s:distance 0.72 .
s:Earth a s:Planet ; rdfs:label "Earth" ; s:radius 6371 ; s:mass 1.0 ; s:ringed false ; s:gas_giant false ;
    s:distance 1.0 .
s:Mars a s:Planet ; rdfs:label "Mars" ; s:radius 3390 ; s:mass 0.107 ; s:ringed false ; s:gas_giant false ;
    s:distance 1.52 .
s:Jupiter a s:Planet ; rdfs:label "Jupiter" ; s:radius 69911 ; s:mass 317.8 ; s:ringed true ; s:gas_giant true ;
    s:distance 5.20 .
s:Saturn a s:Planet ; rdfs:label "Saturn" ; s:radius 58232 ; s:mass 95.2 ; s:ringed true ; s:gas_giant true ;
    s:distance 9.58 .
s:Moon a s:Satellite ; rdfs:label "Moon" ; s:orbits s:Earth ; s:radius 1737 .
s:Phobos a s:Satellite ; rdfs:label "Phobos" ; s:orbits s:Mars ; s:radius 11 .
s:Deimos a s:Satellite ; rdfs:label "Deimos" ; s:orbits s:Mars ; s:radius 6 .
s:Io a s:Satellite ; rdfs:label "Io" ; s:orbits s:Jupiter ; s:radius 1821 .
s:Europa a s:Satellite ; rdfs:label "Europa" ; s:orbits s:Jupiter ; s:radius 1560 .
s:Ganymede a s:Satellite ; rdfs:label "Ganymede" ; s:orbits s:Jupiter ; s:radius 2634 .
s:Titan a s:Satellite ; rdfs:label "Titan" ; s:orbits s:Saturn ; s:radius 2574 .
s:Rhea a s:Satellite ; rdfs:label "Rhea" ; s:orbits s:Saturn ; s:radius 763 .
s:Galileo a s:Mission ; rdfs:label "Galileo" ; s:destination s:Jupiter .
s:Juno a s:Mission ; rdfs:label "Juno" ; s:destination s:Jupiter .
s:Cassini a s:Mission ; rdfs:label "Cassini" ; s:destination s:Saturn .
"""


@pytest.fixture(scope="module")
def sky_reasoner(tmp_path_factory):
    """No corpus: the KG's first question. X's own mass and radius draw the 0.5B scorer away from X's satellites."""
    yield from _first_question_reasoner(tmp_path_factory, "sky", SKY_TTL)


@pytest.mark.parametrize("question, answer", [
    # before: X's own values, (JOIN (R gas_giant) "Jupiter") and (JOIN (R mass) "Saturn"): (JOIN orbits X), the one
    # reading answering with satellites, was kept in step 1 but left out of the best set, so it was never ranked
    # (extend.unranked)
    ("what is the largest moon of Jupiter?", "Ganymede"),
    ("which is the biggest moon of Saturn?", "Titan"),
    ("what is the smallest moon of Mars?", "Deimos"),
])
def test_a_ranking_of_what_a_walk_from_a_name_reaches(sky_reasoner: Reasoner, question: str, answer: str) -> None:
    result = sky_reasoner.answer(question)
    assert [a.label for a in result.answers] == [answer], result.program


def test_a_class_less_the_things_a_reading_on_no_name_finds(sky_reasoner: Reasoner) -> None:
    """2.5, a negation with no name after it: the class asked for less the members of a reading built on class
    words alone (candidates._negations). Before: no kept partner stood for the planets when the satellites'
    reading was extended, so no NOT was built."""
    result = sky_reasoner.answer("which planets have no moons?")
    assert [a.label for a in result.answers] == ["Venus"], result.program
    # a yes/no value says its own denial: no (AND Planet (NOT ...)) of a longer walk (the science probe's did)
    result = sky_reasoner.answer("which planets have no rings?")
    assert {a.label for a in result.answers} == {"Venus", "Earth", "Mars"}, result.program


COLLEGE_TTL = """\
@prefix c: <http://example.org/college/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
c:Student a rdfs:Class ; rdfs:label "student" .
c:Module a rdfs:Class ; rdfs:label "module" .
c:School a rdfs:Class ; rdfs:label "school" .
c:Building a rdfs:Class ; rdfs:label "building" .
c:Town a rdfs:Class ; rdfs:label "town" .
c:takes rdfs:label "takes" ; rdfs:domain c:Student ; rdfs:range c:Module .
c:run_by rdfs:label "run by" ; rdfs:domain c:Module ; rdfs:range c:School .
c:housed_in rdfs:label "housed in" ; rdfs:domain c:School ; rdfs:range c:Building .
c:hometown rdfs:label "hometown" ; rdfs:domain c:Student ; rdfs:range c:Town .
c:Law a c:School ; rdfs:label "Law" ; c:housed_in c:Merton .
c:Music a c:School ; rdfs:label "Music" ; c:housed_in c:Elgar .
c:Merton a c:Building ; rdfs:label "Merton House" .
c:Elgar a c:Building ; rdfs:label "Elgar Hall" .
c:Torts a c:Module ; rdfs:label "Torts" ; c:run_by c:Law .
c:Contracts a c:Module ; rdfs:label "Contracts" ; c:run_by c:Law .
c:Harmony a c:Module ; rdfs:label "Harmony" ; c:run_by c:Music .
c:Delft a c:Town ; rdfs:label "Delft" .
c:Vigo a c:Town ; rdfs:label "Vigo" .
c:Ana a c:Student ; rdfs:label "Ana Reis" ; c:takes c:Torts, c:Harmony ; c:hometown c:Vigo .
c:Ben a c:Student ; rdfs:label "Ben Okoro" ; c:takes c:Harmony ; c:hometown c:Delft .
c:Cleo a c:Student ; rdfs:label "Cleo Marsh" ; c:takes c:Contracts ; c:hometown c:Delft .
c:Dev a c:Student ; rdfs:label "Dev Anand" ; c:takes c:Harmony ; c:hometown c:Vigo .
"""


@pytest.fixture(scope="module")
def college_reasoner(tmp_path_factory):
    """No corpus: the KG's first question, on a college KG whose schools are housed in buildings."""
    yield from _first_question_reasoner(tmp_path_factory, "college", COLLEGE_TTL)


@pytest.mark.parametrize("question, answers", [
    # before: the school's modules, (JOIN run_by "Law"): no NOT was built where every name follows the negation
    # (candidates._all_denied)
    ("which students aren't taking any law module?", {"Ben Okoro", "Dev Anand"}),
    # before: a town its students come from; "based" spells no relation, and WordNet puts no building under location
    # (where.Where._placing)
    ("where is the law school based?", {"Merton House"}),
])
def test_a_university_asked_the_way_its_people_ask(college_reasoner: Reasoner, question: str, answers: set) -> None:
    result = college_reasoner.answer(question)
    assert {a.label for a in result.answers} == answers, result.program


TUTORS_TTL = """\
@prefix t: <http://example.org/tutors/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
t:Student a rdfs:Class ; rdfs:label "student" .
t:Tutor a rdfs:Class ; rdfs:label "tutor" .
t:Module a rdfs:Class ; rdfs:label "module" .
t:advised_by rdfs:label "advised by" ; rdfs:domain t:Student ; rdfs:range t:Tutor .
t:teaches rdfs:label "teaches" ; rdfs:domain t:Tutor ; rdfs:range t:Module .
t:takes rdfs:label "takes" ; rdfs:domain t:Student ; rdfs:range t:Module .
t:starred_modules rdfs:label "starred modules" ; rdfs:domain t:Student ; rdfs:range t:Module .
t:ines a t:Tutor ; rdfs:label "Ines Varga" ; t:teaches t:optics , t:logic .
t:omar a t:Tutor ; rdfs:label "Omar Lund" ; t:teaches t:poetry .
t:optics a t:Module ; rdfs:label "Optics" . t:logic a t:Module ; rdfs:label "Logic" .
t:poetry a t:Module ; rdfs:label "Poetry" .
t:lena a t:Student ; rdfs:label "Lena Moss" ; t:advised_by t:ines ; t:takes t:poetry .
t:jonas a t:Student ; rdfs:label "Jonas Berg" ; t:advised_by t:ines ; t:takes t:optics .
t:priya a t:Student ; rdfs:label "Priya Shah" ; t:advised_by t:omar ; t:takes t:logic , t:poetry .
"""


@pytest.fixture(scope="module")
def tutors(tmp_path_factory):
    opened = _open(tmp_path_factory, "tutors", TUTORS_TTL)
    yield opened
    opened[0].close()


@pytest.mark.parametrize("question, relation, toward_objects", [
    ("who advises Lena?", "advised_by", True),  # the doer of "advised by" is its object
    ("which tutors advise Priya Shah?", "advised_by", True),
    ("which students does Ines advise?", "advised_by", False),  # do-support: the name is the doer
    ("who teaches the modules Lena takes?", "teaches", False),  # "teaches" holds its doer as its subject
    ("what does Omar teach?", "teaches", True),
    ("which modules were taught by Ines?", "teaches", True),  # a passive: the wh-phrase is done to
    # no voice: the verb is a relative clause's, a verb with a noun names no act, no wh-word opens the question
    ("who is the tutor that advises Lena?", None, None),
    ("which students starred modules?", None, None),
    ("Lena is advised by whom?", None, None),
    ("which modules are taught before noon?", "teaches", True),  # a passive without "by"
    ("who is teaching Poetry?", "teaches", False),
    ("which students have modules taught by Omar?", None, None),  # "have" with a noun: no tense of "teach"
    ("which tutor does the student advised by Ines like?", None, None),  # the verb read is a relative clause's
])
def test_the_main_verbs_voice_says_which_end_is_asked(tutors, question: str, relation: str | None,
                                                       toward_objects: bool | None) -> None:
    kg, index, _, _ = tutors
    voice = QuestionReader(kg.schema, index).read(question).voice
    got = (voice.relation, voice.toward_objects) if voice else (None, None)
    assert got == (relation, toward_objects)


@pytest.mark.parametrize("label, form", [
    ("advised by", "by"), ("written by", "by"), ("cared for by", "by"), ("built by", "by"), ("held by", "by"), ("teaches", "active"), ("reports to", "active"),
    ("plays for", "active"), ("located in", "participle"), ("enrolled in", "participle"),
    ("written in", "participle only"), ("born in", "participle only"),
    # a verb with a noun, and words that are nouns as well, say no act for sure: `neighbour` is walked both ways
    ("starred actors", None), ("has genre", None), ("neighbour", None), ("borders", None), ("capital", None),
])
def test_the_form_of_a_relations_name_as_a_clause(label: str, form: str | None) -> None:
    assert label_form(label) == form


@pytest.mark.parametrize("program, backwards", [
    ('(JOIN (R advised_by) "Lena Moss")', False),
    ('(JOIN advised_by (JOIN (R advised_by) "Lena Moss"))', True),  # the students who share Lena's adviser
    ('(JOIN takes (JOIN (R teaches) (JOIN (R advised_by) "Lena Moss")))', True),  # ends on another relation
    ("(ARGMAX Tutor (COUNT (R advised_by)))", False),  # a ranking is not judged
])
def test_a_program_answering_the_other_end_reads_the_verb_backwards(tutors, program: str, backwards: bool) -> None:
    kg, index, _, _ = tutors
    voice = QuestionReader(kg.schema, index).read("who advises Lena?").voice
    assert reads_backwards(parse(program), voice) is backwards


def test_who_does_what_the_verb_says(tutors) -> None:
    r = _zero_shot(tutors)
    try:
        # before: the tutors of the modules Priya's tutor teaches, (JOIN teaches (JOIN (R teaches) (JOIN (R
        # advised_by) "Priya Shah"))), a walk back that answers the same here but not where a tutor teaches alone
        result = r.answer("which tutor advises Priya Shah?")
        assert result.program == '(JOIN (R advised_by) "Priya Shah")'
        assert [a.label for a in result.answers] == ["Omar Lund"]
        result = r.answer("which students does Ines advise?")
        assert {a.label for a in result.answers} == {"Jonas Berg", "Lena Moss"}, result.program
    finally:
        r.close()


# --------------------------------------- "how many <noun>": a count, unless a number the KG holds measures the noun
MENU_TTL = """\
@prefix m: <http://example.org/menu/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
m:Restaurant a rdfs:Class ; rdfs:label "restaurant" .
m:Meal a rdfs:Class ; rdfs:label "meal" .
m:Town a rdfs:Class ; rdfs:label "town" .
m:serves rdfs:label "serves" ; rdfs:domain m:Restaurant ; rdfs:range m:Meal .
m:located_in rdfs:label "located in" ; rdfs:domain m:Restaurant ; rdfs:range m:Town .
m:rating rdfs:label "rating" ; rdfs:domain m:Restaurant ; rdfs:range xsd:decimal .
m:seats rdfs:label "seats" ; rdfs:domain m:Restaurant ; rdfs:range xsd:integer .
m:population rdfs:label "population" ; rdfs:domain m:Town ; rdfs:range xsd:integer .
m:villa_ferro a m:Restaurant ; rdfs:label "Villa Ferro" ; m:serves m:risotto , m:arancini , m:tiramisu , m:gnocchi ;
    m:located_in m:porto_vell ; m:rating 4.6 ; m:seats 40 .
m:sabai a m:Restaurant ; rdfs:label "Sabai Garden" ; m:serves m:pad_thai , m:larb ; m:located_in m:porto_vell ;
    m:rating 4.2 ; m:seats 25 .
m:porto_vell a m:Town ; rdfs:label "Porto Vell" ; m:population 48000 .
m:risotto a m:Meal ; rdfs:label "Risotto" .
m:arancini a m:Meal ; rdfs:label "Arancini" .
m:tiramisu a m:Meal ; rdfs:label "Tiramisu" .
m:gnocchi a m:Meal ; rdfs:label "Gnocchi" .
m:pad_thai a m:Meal ; rdfs:label "Pad Thai" .
m:larb a m:Meal ; rdfs:label "Larb" .
"""


@pytest.fixture(scope="module")
def menu(tmp_path_factory):
    opened = _open(tmp_path_factory, "menu", MENU_TTL)
    yield opened
    opened[0].close()


@pytest.mark.parametrize("question, measured", [
    ("how many dishes does Villa Ferro have on the menu?", set()),  # no number measures dishes: a count answers
    ("how many people live in Porto Vell?", {"population", "seats"}),  # a head count: the whole numbers
    ("how many seats does Sabai Garden have?", {"seats"}),  # named
])
def test_the_numbers_that_may_say_how_many(menu, question: str, measured: set[str]) -> None:
    kg, index, _, _ = menu
    assert QuestionReader(kg.schema, index).read(question).measured == measured


@pytest.mark.parametrize("question, answer", [
    # before: 4.6, Villa Ferro's rating: "dishes" names no class or relation, so no COUNT fitted the question
    ("how many dishes does Villa Ferro have on the menu?", "4"),
    ("how many people live in Porto Vell?", "48000"),
])
def test_how_many_of_what_no_number_measures_is_a_count(menu, question: str, answer: str) -> None:
    r = _zero_shot(menu)
    try:
        result = r.answer(question)
        assert [a.label for a in result.answers] == [answer], result.program
    finally:
        r.close()



# ------------------------------------------------------------------ one word, one step: spelt, then meant no further
BOOKS_TTL = """@prefix b: <http://example.org/books/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
b:Book rdfs:label "book" . b:Author rdfs:label "author" . b:Publisher rdfs:label "publisher" .
b:bramble a b:Publisher ; rdfs:label "Bramblewick Books" . b:north a b:Publisher ; rdfs:label "Northgate House" .
b:priya a b:Author ; rdfs:label "Priya Ramaswell" . b:rufus a b:Author ; rdfs:label "Rufus Penhallow" .
b:ines a b:Author ; rdfs:label "Ines Calder-Voss" .
b:map a b:Book ; rdfs:label "A Map of Small Rivers" ; b:publishedBy b:bramble ; b:writtenBy b:priya ; b:pageCount 212 .
b:kite a b:Book ; rdfs:label "Pip and the Paper Kite" ; b:publishedBy b:bramble ; b:writtenBy b:rufus ; b:pageCount 48 .
b:orchard a b:Book ; rdfs:label "The Glass Orchard" ; b:publishedBy b:bramble ; b:writtenBy b:ines ; b:pageCount 530 .
b:thief a b:Book ; rdfs:label "The Pepper Thief" ; b:publishedBy b:north ; b:writtenBy b:priya ; b:pageCount 301 .
"""


def test_a_word_that_spells_a_step_means_no_other_step_of_it() -> None:
    # "published" spells `publishedBy` and lies within MEANT_COSINE of `writtenBy`: the authors one step on are
    # meant by no word of "what has Bramblewick Books published?"
    named = {"publishedBy": Spelling(by_verb=frozenset({"published"}), by_noun=frozenset())}
    meaning = Meaning({"published": frozenset({"publishedBy", "writtenBy"})}, frozenset({"publishedBy", "writtenBy"}),
                      frozenset({"published"}))
    authors = parse('(JOIN (R writtenBy) (JOIN publishedBy "Bramblewick Books"))')
    assert meant_by_free_words(authors, named, meaning) == frozenset()
    assert unnamed_steps(authors, named, meant_by_free_words(authors, named, meaning)) == 1
    written = parse('(JOIN writtenBy "Priya Ramaswell")')  # no step spelt: the word's meanings stand
    assert meant_by_free_words(written, named, meaning) == {"publishedBy", "writtenBy"}


def test_a_free_word_stands_for_one_step_and_a_word_for_subjects_names_no_step_toward_objects() -> None:
    # "when was the wife of X's son born?" (the blind lineage probe): "son" is the lexicon's word for `father`'s
    # subjects and a noun of `child`; "born" lies near both `dateOfBirth` and `father` by embedding
    named = {"child": Spelling(by_verb=frozenset(), by_noun=frozenset({"son"})),
             "father": Spelling(by_verb=frozenset(), by_noun=frozenset(), by_back_noun=frozenset({"son"})),
             "spouse": Spelling(by_verb=frozenset(), by_noun=frozenset({"wife"}))}
    meaning = Meaning({"born": frozenset({"dateOfBirth", "father"})}, frozenset({"dateOfBirth", "father"}),
                      frozenset({"born"}))
    right = parse('(JOIN (R dateOfBirth) (JOIN (R spouse) (JOIN (R child) "X")))')
    extra = parse('(JOIN (R dateOfBirth) (JOIN (R father) (JOIN (R spouse) (JOIN (R child) "X"))))')
    assert unmeant_steps(right, named, meaning) == 0
    assert unmeant_steps(extra, named, meaning) == 1  # "born" is one step's; "son" says no "father of"
    assert unnamed_steps(extra, named, meant_by_free_words(extra, named, meaning)) == 0  # the rule before v100
    sons = parse('(JOIN father "X")')  # the things whose father is X: "son" spells it this way
    assert unmeant_steps(sons, named, Meaning()) == 0
    # a noun for the objects spells a step toward the subjects: "the movies with the same actor as X"
    actor = {"starred_actors": Spelling(by_verb=frozenset(), by_noun=frozenset({"actor"}))}
    same = parse('(JOIN starred_actors (JOIN (R starred_actors) "X"))')
    assert unmeant_steps(same, actor, Meaning()) == 0


def test_one_word_that_spells_two_relations_names_one_step() -> None:
    # "which monarchs were born before 1900?" (a blind royal probe): "born" spells `birthYear` and `birthPlace` (a
    # verb derived from both nouns); the birth places of those born before 1900 had won over the monarchs
    born = frozenset({"born"})
    named = {"birthYear": Spelling(by_verb=born, by_noun=frozenset()),
             "birthPlace": Spelling(by_verb=born, by_noun=frozenset())}
    assert unmeant_steps(parse("(lt birthYear 1900)"), named, Meaning()) == 0
    assert unmeant_steps(parse("(JOIN (R birthPlace) (lt birthYear 1900))"), named, Meaning()) == 1
    # two relations the question spells by words of their own each have one: "which Italy footballer plays for
    # the club Juventus_FC?"
    plays = {"plays_for_country": Spelling(by_verb=frozenset({"plays"}), by_noun=frozenset()),
             "plays_in_club": Spelling(by_verb=frozenset({"plays"}), by_noun=frozenset({"club"}))}
    both = parse('(AND (JOIN plays_for_country "Italy") (JOIN plays_in_club "Juventus_FC"))')
    assert unmeant_steps(both, plays, Meaning()) == 0


def test_a_gloss_that_writes_two_steps_charges_a_reading_of_one() -> None:
    # "how many grandsons did X have?" (a blind royal probe): "grandson", a son of a son or daughter, writes `parent`
    # twice; with a corpus the count of X's own sons had won
    grandsons = {"parent": Spelling(by_verb=frozenset(), by_noun=frozenset(), by_back_noun=frozenset({"son", "child"}),
                                    steps=2, ahead=1, back=2)}
    assert shortfall(parse('(COUNT (JOIN parent "X"))'), grandsons) == 1
    assert shortfall(parse('(COUNT (JOIN parent (JOIN parent "X")))'), grandsons) == 0
    # kin relations one word spells share its steps: X's children's children through `father`, then `mother`
    kin = {name: Spelling(by_verb=frozenset(), by_noun=frozenset(), by_back_noun=frozenset({"grandchild"}), steps=2)
           for name in ("father", "mother")}
    assert shortfall(parse('(JOIN mother (JOIN father "X"))'), kin) == 0
    # one word written again is no chain: PathQuestion's "the tracks of tracks of X's tracks" names three relations
    tracks = {"tracks": Spelling(by_verb=frozenset(), by_noun=frozenset({"tracks"}), times=3, steps=3)}
    assert shortfall(parse('(JOIN (R tracks) "X")'), tracks) == 0
    # nor is a noun and a verb of one relation: WorldCup's "name a player who plays at Goalkeeper"
    plays = {"plays_position": Spelling(by_verb=frozenset({"plays"}), by_noun=frozenset(), steps=2,
                                        by_back_noun=frozenset({"player"}))}
    assert shortfall(parse('(JOIN plays_position "Goalkeeper")'), plays) == 0


def test_a_chain_the_question_writes_is_walked_whole_and_the_way_its_words_say() -> None:
    """Where one word writes a chain, the search goes on until a reading of what it asks walks all of it, and extends
    the best kept set that does (engine.answer.extend, reasoner v112): with a corpus, "how many grandchildren did
    Queen Adela II have?" (a blind royal probe) had stopped on the count of her children."""
    grandchildren = {"parent": Spelling(by_verb=frozenset(), by_noun=frozenset(), by_back_noun=frozenset({"child"}),
                                        steps=2, ahead=1, back=2)}
    assert writes_chain(grandchildren)
    assert walks_chains(parse('(COUNT (JOIN parent (JOIN parent "X")))'), grandchildren)
    assert not walks_chains(parse('(COUNT (JOIN parent "X"))'), grandchildren)  # one step short
    assert not walks_chains(parse('(COUNT (JOIN spouse "X"))'), grandchildren)  # a count over another relation
    assert not walks_chains(parse('(JOIN (R parent) (JOIN parent "X"))'), grandchildren)  # up, not down, once
    # kin relations one word spells share its steps (a lineage KG's `father` and `mother`)
    kin = {name: Spelling(by_verb=frozenset(), by_noun=frozenset(), by_back_noun=frozenset({"child"}), steps=2)
           for name in ("father", "mother")}
    assert walks_chains(parse('(JOIN mother (JOIN father "X"))'), kin)
    # one word written again is no chain (PathQuestion's "the tracks of tracks of X's tracks"): nothing to walk
    tracks = {"tracks": Spelling(by_verb=frozenset(), by_noun=frozenset({"tracks"}), times=3, steps=3)}
    assert not writes_chain(tracks) and walks_chains(parse('(JOIN (R tracks) "X")'), tracks)


@pytest.fixture(scope="module")
def books(tmp_path_factory):
    opened = _open(tmp_path_factory, "books", BOOKS_TTL)
    yield opened
    opened[0].close()


def test_what_a_publisher_published_is_its_books_not_their_authors(books) -> None:
    # before: (JOIN (R writtenBy) (JOIN publishedBy "Bramblewick Books")), the blind library probe's reading
    r = _zero_shot(books)
    try:
        result = r.answer("what has Bramblewick Books published?")
        assert sorted(a.label for a in result.answers) == ["A Map of Small Rivers", "Pip and the Paper Kite",
                                                           "The Glass Orchard"], result.program
    finally:
        r.close()
