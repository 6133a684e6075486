"""engine.answer.rank: the repeat penalty and the finalists, as data (no language model)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from engine.answer.asked import fits_asked, what_is_asked
from engine.answer.named import Spelling
from engine.answer.rank import Ranker, walks_on_unnamed
from engine.answer.walk_back import detours, from_the_shared_end, repeats as _repeats
from engine.answer.search import ProgramCandidate
from engine.programs.executor import Answer, Execution
from engine.programs.kg import KnowledgeGraph
from engine.programs.sexpr import parse


@pytest.mark.parametrize(
    "program, repeats",
    [
        ('(JOIN (R starred_actors) "Alien")', 0),
        # through a person and on: out and back over directed_by is how the question goes, not a repeat
        ('(JOIN (R starred_actors) (JOIN directed_by (JOIN (R directed_by) "Alien")))', 0),
        # ending where it started ("films sharing an actor with Alien") still counts
        ('(JOIN starred_actors (JOIN (R starred_actors) "Alien"))', 1),
        ('(JOIN (R written_by) (JOIN written_by "Dan O\'Bannon"))', 1),
        # the same relation in the same direction twice
        ('(JOIN (R directed_by) (JOIN (R directed_by) "Alien"))', 1),
        ('(JOIN written_by (JOIN (R written_by) (JOIN written_by (JOIN (R written_by) "Alien"))))', 2),
        ('(COUNT (JOIN directed_by "Ridley Scott"))', 0),
        # back over the relation it came by, narrowed first: still ends where it started
        ('(JOIN written_by (AND (JOIN (R written_by) "Alien") (JOIN has_genre "Horror")))', 1),
        ('(JOIN written_by (AND (JOIN (R directed_by) "Alien") (JOIN has_genre "Horror")))', 0),
        # each side of an AND ends a reading: one that ends where it started counts
        ('(AND (JOIN has_genre "Horror") (JOIN written_by (JOIN (R written_by) "Alien")))', 1),
        ('(AND (JOIN has_genre "Horror") (JOIN written_by "Dan O\'Bannon"))', 0),
        # a superlative's path walks from each member toward its objects, as (R r) does: the films of the
        # director of the film whose director is the oldest walk directed_by twice one way
        ('(JOIN (R directed_by) (ARGMAX (JOIN has_genre "Horror") (JOIN directed_by birth_year)))', 1),
        ('(JOIN directed_by (ARGMAX (JOIN has_genre "Horror") (JOIN directed_by birth_year)))', 0),
    ],
)
def test_the_repeat_penalty_counts(program: str, repeats: int) -> None:
    assert _repeats(parse(program)) == repeats



def test_a_walk_back_counts_unless_the_question_asks_for_it() -> None:
    program = parse('(JOIN (R written_by) (JOIN written_by "Dan O\'Bannon"))')
    assert _repeats(program) == 1 and _repeats(program, walk_back=False) == 0
    twice = parse('(JOIN written_by (JOIN (R written_by) (JOIN written_by (JOIN (R written_by) "Alien"))))')
    assert _repeats(twice, walk_back=False) == 1  # the same relation twice in one direction still counts


_ONCE = {"teaches": Spelling(frozenset({"teaches"}), frozenset())}
_TWICE = {"written_by": Spelling(frozenset({"written"}), frozenset({"writer"}))}


@pytest.mark.parametrize("program, named, count", [
    # "who teaches the courses X takes?": a round trip over `teaches` in the middle is a detour
    ('(JOIN enrolled_in (JOIN (R teaches) (JOIN teaches (JOIN (R enrolled_in) "Mateo"))))', _ONCE, 1),
    ('(JOIN teaches (JOIN (R enrolled_in) "Mateo"))', _ONCE, 0),
    # the last step's walk back is walks_back's, not a detour (each side of an AND too)
    ('(JOIN teaches (JOIN (R teaches) "Prof. Lind"))', {}, 0),
    ('(AND (JOIN has_genre "Horror") (JOIN written_by (JOIN (R written_by) "Alien")))', {}, 0),
    # "the actors of films written by the writer of X" spells written_by twice: asked for
    ('(JOIN (R starred_actors) (JOIN written_by (JOIN (R written_by) "Alien")))', _TWICE, 0),
    ('(JOIN (R starred_actors) (JOIN written_by (JOIN (R written_by) "Alien")))', {}, 1),
    # under a count the whole walk is below the last step
    ('(COUNT (JOIN written_by (JOIN (R written_by) "Alien")))', {}, 1),
])
def test_a_round_trip_below_the_last_step_is_a_detour(program: str, named: dict, count: int) -> None:
    assert detours(parse(program), named) == count


_MEMBER = {"member_of": Spelling(frozenset({"part"}), frozenset())}


@pytest.mark.parametrize("program, named, meant, walks_on", [
    # "which painters were part of X?": the works they created are a step past the answer
    ('(JOIN created_by (JOIN member_of "Tidal Luminism"))', _MEMBER, frozenset(), True),
    ('(JOIN member_of "Tidal Luminism")', _MEMBER, frozenset(), False),  # a step from a name is the question's own
    ('(JOIN created_by (JOIN member_of "Tidal Luminism"))', _MEMBER, frozenset({"created_by"}), False),  # meant
    ('(JOIN (R member_of) (JOIN created_by "Quiet Tide"))', _MEMBER, frozenset(), False),  # spelt
    ('(COUNT (JOIN created_by (JOIN member_of "Tidal Luminism")))', _MEMBER, frozenset(), False),  # not a step
])
def test_a_last_step_no_word_names_walks_on_from_a_set(program: str, named: dict, meant: frozenset,
                                                       walks_on: bool) -> None:
    assert walks_on_unnamed(parse(program), named, meant) is walks_on


def test_a_relation_the_question_writes_twice_may_be_walked_twice() -> None:
    """ "Spider-Man_2 's award_nominations 's award_nominations" asks for two walks; a third still counts."""
    twice = parse('(JOIN (R nominations) (JOIN (R nominations) "Spider-Man_2"))')
    thrice = parse('(JOIN (R nominations) (JOIN (R nominations) (JOIN (R nominations) "Spider-Man_2")))')
    written = {"nominations": Spelling(frozenset(), frozenset({"nominations"}), times=2)}
    assert _repeats(twice) == 1 and _repeats(twice, named=written) == 0 and _repeats(thrice, named=written) == 1


def test_a_word_that_walks_a_relation_up_and_down_allows_one_step_each_way() -> None:
    """ "Lena's sister" is a child of her parent: `parent` once toward its objects, once toward its subjects. Counted
    together (two steps), her aunts' walk (up twice, down once) had gone free (a blind royal probe, session 60)."""
    siblings = parse('(JOIN parent (JOIN (R parent) "Lena"))')
    aunts = parse('(JOIN parent (JOIN (R parent) (JOIN (R parent) "Lena")))')
    sister = {"parent": Spelling(frozenset(), frozenset({"parent"}), by_back_noun=frozenset({"child"}), steps=2,
                                 ahead=1, back=1)}
    # a sister shares her parents: the question asks for the walk back (`Question.asks_same`)
    assert _repeats(siblings, False, sister) == 0 and _repeats(aunts, False, sister) == 1


def test_a_relation_whose_words_name_either_end_is_counted_without_direction() -> None:
    """ "the husbands of Aveline's husband's sisters" writes `spouse` twice: a reading that walks it three times (two
    steps one way, one the other) repeats it once, where the relation has no direction (a blind lineage probe)."""
    husband = {"spouse": Spelling(frozenset(), frozenset({"husband"}), by_back_noun=frozenset({"husband"}), times=2,
                                  steps=2, ahead=2, back=2)}
    thrice = parse('(JOIN (R spouse) (JOIN (R spouse) (JOIN (R sibling) (JOIN spouse "Aveline"))))')
    twice = parse('(JOIN (R spouse) (JOIN (R sibling) (JOIN (R spouse) "Aveline")))')
    mutual = frozenset({"spouse"})
    assert _repeats(thrice, False, husband) == 0  # counted by direction: two and one, each within the two written
    assert _repeats(thrice, False, husband, mutual=mutual) == 1 and _repeats(twice, False, husband, mutual=mutual) == 0


def test_a_brother_shares_the_parents_not_the_children() -> None:
    """ "Vivienne's brother": a male with the same parents (engine.answer.glossed), so the walk back goes up `parent`
    first; her children's parents (her husband) walk down first (a blind royal probe, session 60)."""
    named = {"parent": Spelling(frozenset(), frozenset({"parent"}), by_back_noun=frozenset({"child"}), steps=2)}
    up_first = parse('(JOIN parent (JOIN (R parent) "Vivienne"))')
    down_first = parse('(JOIN (R parent) (JOIN parent "Vivienne"))')
    shared = frozenset({"parent"})
    assert not from_the_shared_end(up_first, shared, named) and from_the_shared_end(down_first, shared, named)
    assert not from_the_shared_end(down_first, frozenset(), named)  # "the same" of other words: either way


def test_a_step_best_left_out_of_the_best_set_is_still_a_finalist(films: KnowledgeGraph) -> None:
    """A three-hop program scores below the one-hop program it extends; inverse consistency must still see it."""

    def cand(text: str, executed: bool = True) -> ProgramCandidate:
        program = parse(text)
        return ProgramCandidate(program, text, frozenset(), None, execution=films.executor.execute(program) if executed else None)

    one, two, three = (cand('(JOIN (R directed_by) "Alien")'), cand('(JOIN directed_by (JOIN (R directed_by) "Alien"))'),
                       cand('(JOIN (R starred_actors) (JOIN directed_by (JOIN (R directed_by) "Alien")))'))
    unexecuted = cand('(JOIN (R written_by) "Alien")', executed=False)
    assert Ranker.finalists([one, two, three, three, unexecuted], [one, two]) == [one, two, three]


@pytest.mark.parametrize(
    "asked_types, superlative, program, types, fits, compared",
    [
        (frozenset(), True, '(ARGMAX (JOIN directed_by "Ridley Scott") release_year)', frozenset({"movie"}), True, set()),
        (frozenset(), True, '(JOIN directed_by "Ridley Scott")', frozenset({"movie"}), False, set()),
        # "which airline has the biggest fleet" where no class is an airline: the ranking, no walk on from it (a
        # made-up airline KG had answered the alliance of the airline with the biggest fleet)
        (frozenset(), True, '(JOIN (R alliance) (ARGMAX operator fleet_size))', frozenset({"alliance"}), False, set()),
        (frozenset({"movie"}), True, '(ARGMAX (JOIN directed_by "Ridley Scott") release_year)', frozenset({"movie"}), True, set()),
        (frozenset({"person"}), True, '(ARGMAX (JOIN directed_by "Ridley Scott") release_year)', frozenset({"movie"}), False, set()),
        (frozenset({"movie"}), False, '(JOIN directed_by "Ridley Scott")', frozenset({"movie"}), True, set()),
        (frozenset({"movie"}), False, '(gt release_year 1980)', frozenset({"movie", "person"}), False, set()),  # wider
        (frozenset(), False, '(JOIN directed_by "Ridley Scott")', frozenset({"movie"}), False, set()),  # nothing asked
        # "films released after Alien": a name compared with asks for a comparison
        (frozenset(), False, '(gt release_year "Alien")', frozenset({"movie"}), True, {1}),
        (frozenset(), False, '(JOIN (R release_year) "Alien")', frozenset({"year"}), False, {1}),
    ],
)
def test_a_finalist_fits_every_cue_the_question_has(asked_types, superlative, program, types, fits, compared) -> None:
    question = _cues(asked_types=asked_types, asks_superlative=superlative, compared=frozenset(compared))
    cand = ProgramCandidate(parse(program), program, frozenset(), types)
    assert fits_asked(question, cand) is fits


def _cues(**given) -> SimpleNamespace:
    """A question's cues (engine.answer.question.Question), none asked unless given."""
    cues = dict(asks_count=False, asked_types=frozenset(), ranks_another=False, asks_superlative=False,
                asks_negation=False, asks_yes_no=False, aggregate=None, compared=frozenset(), choice=(), text="", asks_same=False,
                class_words={}, named_relations={}, measured=frozenset(), ranks_in_phrase=False)
    return SimpleNamespace(**{**cues, **given})


@pytest.mark.parametrize(
    "cues, program, fits",
    [
        ({"asks_negation": True}, '(AND movie (NOT (JOIN directed_by "Ridley Scott")))', True),
        ({"asks_negation": True}, '(JOIN directed_by "Ridley Scott")', False),
        ({"asks_yes_no": True}, '(IN "Alien" (JOIN directed_by "Ridley Scott"))', True),
        ({"asks_yes_no": True, "asked_types": frozenset({"person"})}, '(IN "Alien" (JOIN directed_by "Ridley Scott"))', True),
        ({"asks_yes_no": True}, '(JOIN directed_by "Ridley Scott")', False),
        ({"aggregate": "AVG"}, '(AVG (JOIN directed_by "Ridley Scott") release_year)', True),
        ({"aggregate": "AVG"}, '(JOIN directed_by "Ridley Scott")', False),
        ({"asks_superlative": True}, '(ARGMAX movie (COUNT starred_actors))', True),
    ],
)
def test_the_new_operators_fit_their_cues(cues: dict, program: str, fits: bool) -> None:
    cand = ProgramCandidate(parse(program), program, frozenset(), frozenset({"movie"}))
    assert fits_asked(_cues(**cues), cand) is fits


@pytest.mark.parametrize(
    "program, types, fits",
    [
        ('(COUNT (JOIN directed_by "Ridley Scott"))', frozenset({"integer"}), True),
        ('(JOIN (R has_imdb_votes) "Alien")', frozenset({"integer"}), True),  # "how many votes did Alien get"
        ('(JOIN (R release_year) "Alien")', frozenset({"year"}), False),  # a year is no amount
        ('(JOIN directed_by "Ridley Scott")', frozenset({"movie"}), False),
    ],
)
def test_how_many_is_answered_by_a_count_or_by_one_number_the_kg_holds(program, types, fits) -> None:
    cand = ProgramCandidate(parse(program), program, frozenset(), types)
    assert fits_asked(_cues(asks_count=True), cand) is fits
    assert fits_asked(_cues(), cand) is False


def test_how_many_of_a_named_class_is_no_amount() -> None:
    """ "how many states border X" names what it counts: X's area is no answer, though one number the KG holds
    answers "how many votes did Alien get" (a made-up US-geography KG had answered the area)."""
    area = ProgramCandidate(parse('(JOIN (R area) "Nova")'), '(JOIN (R area) "Nova")', frozenset(), frozenset({"integer"}))
    states = _cues(asks_count=True, text="how many states border Nova?", class_words={"state": frozenset({"states"})})
    assert fits_asked(states, area) is False
    assert fits_asked(_cues(asks_count=True, text="how many people live in Nova?"), area) is True
    # a relation named as what is counted: the moons of X are no amount of X's
    mass = ProgramCandidate(parse('(JOIN (R mass) "Nova")'), '(JOIN (R mass) "Nova")', frozenset(), frozenset({"decimal"}))
    moons = {"orbits": Spelling(frozenset(), frozenset(), by_back_noun=frozenset({"moons"}))}
    assert fits_asked(_cues(asks_count=True, text="how many moons does Nova have?", named_relations=moons), mass) is False
    people = {"population": Spelling(frozenset(), frozenset({"people"}))}
    population = ProgramCandidate(parse('(JOIN (R population) "Nova")'), "", frozenset(), frozenset({"integer"}))
    assert fits_asked(_cues(asks_count=True, text="how many people live in Nova?", named_relations=people), population)


def test_a_ranking_in_a_phrase_may_be_walked_from() -> None:
    """ "who is the CEO of the biggest airline": the ranking is of what the "of" phrase names."""
    program = '(JOIN (R ceo) (ARGMAX operator fleet_size))'
    cand = ProgramCandidate(parse(program), program, frozenset(), frozenset({"ceo"}))
    assert fits_asked(_cues(asks_superlative=True, ranks_in_phrase=True), cand) is True
    assert fits_asked(_cues(asks_superlative=True), cand) is False


@pytest.mark.parametrize("program, types, counted, size, measured, fits", [
    # "how many dishes does Villa Ferro have on the menu?": "dishes" names nothing here, and no number measures them
    ('(COUNT (JOIN (R serves) "Villa Ferro"))', {"integer"}, {"meal"}, 4, set(), True),
    ('(COUNT (JOIN (R located_in) "Villa Ferro"))', {"integer"}, {"town"}, 1, set(), False),  # what it has one of
    ('(COUNT (JOIN (R rating) (JOIN (R serves) "X")))', {"integer"}, {"decimal"}, 3, set(), False),  # values
    ('(JOIN (R rating) "Villa Ferro")', {"decimal"}, None, 1, set(), False),  # a fraction answers no "how many"
    ('(JOIN (R seats) "Villa Ferro")', {"integer"}, None, 1, set(), True),  # a whole number it holds may
    # "how many people live in X": `population` measures them, so no count answers
    ('(COUNT (JOIN located_in "X"))', {"integer"}, {"restaurant"}, 2, {"population"}, False),
    ('(JOIN (R population) "X")', {"integer"}, None, 1, {"population"}, True),
    ('(JOIN (R seats) "X")', {"integer"}, None, 1, {"population"}, False),
])
def test_how_many_of_what_the_kg_does_not_name(program, types, counted, size, measured, fits) -> None:
    count = program.startswith("(COUNT")
    answers = () if count else tuple(Answer(str(n)) for n in range(size))
    execution = Execution(program, "", answers, size if count else None, False, 0.0, False)
    cand = ProgramCandidate(parse(program), program, frozenset(), frozenset(types), execution=execution,
                            counted=frozenset(counted) if counted else None)
    question = _cues(asks_count=True, text="how many dishes does Villa Ferro have?", measured=frozenset(measured))
    assert fits_asked(question, cand) is fits


@pytest.mark.parametrize("counted, fits", [
    (frozenset({"integer"}), False),  # "how many credits is X taking in total?": the credits are added, not counted
    (frozenset({"student"}), True),  # "how many students are there in total?" counts students
])
def test_a_total_of_numbers_is_a_sum_not_a_count(counted: frozenset, fits: bool) -> None:
    program = '(COUNT (JOIN (R credits) (JOIN (R enrolled_in) "Bastian")))'
    cand = ProgramCandidate(parse(program), program, frozenset(), frozenset({"integer"}), counted=counted)
    assert fits_asked(_cues(asks_count=True, aggregate="SUM"), cand) is fits
    assert fits_asked(_cues(asks_count=True), cand) is True


@pytest.mark.parametrize(
    "asked, program, types, fits",
    [
        ("Country", "(ARGMAX Country (COUNT neighbour))", "Country", True),
        # "which country has the most neighbours": not the neighbours of the country with the most
        ("Country", "(JOIN (R neighbour) (ARGMAX Country (COUNT neighbour)))", "Country", False),
        # "what is the population of the largest country": a value of the ranked one
        ("integer", "(JOIN (R population) (ARGMAX Country area))", "integer", True),
    ],
)
def test_a_ranking_of_the_things_asked_for_is_the_answer_not_a_walk_from_it(asked, program, types, fits) -> None:
    cand = ProgramCandidate(parse(program), program, frozenset(), frozenset({types}))
    assert fits_asked(_cues(asks_superlative=True, asked_types=frozenset({asked})), cand) is fits
    # "which city is the capital of the largest country": the ranking is of another class, walked from
    assert fits_asked(_cues(asks_superlative=True, asked_types=frozenset({asked}), ranks_another=True), cand) is True


def test_what_is_asked_reads_the_cues(films: KnowledgeGraph) -> None:
    assert what_is_asked(_cues(), films.schema) == ""
    assert what_is_asked(_cues(asks_yes_no=True), films.schema) == "a yes or no"
    year = next(c.name for c in films.schema.classes if c.kind == "year")
    asked = _cues(asks_superlative=True, asked_types=frozenset({year, "genre"}))
    assert what_is_asked(asked, films.schema) == "a ranking, a date or year, genre"


def test_a_candidate_that_fits_the_cues_is_a_finalist_whatever_it_scores(films: KnowledgeGraph, config) -> None:
    """No exemplar shows (IN ...), so it scores low; where no finalist answers a yes/no question, the best
    scored IN joins them."""

    def cand(text: str, forward: float) -> ProgramCandidate:
        program = parse(text)
        return ProgramCandidate(program, text, frozenset(), None, execution=films.executor.execute(program),
                                forward=forward)

    one = cand('(JOIN directed_by "Ridley Scott")', -1.0)
    low, lower = cand('(IN "Alien" (JOIN directed_by "Ridley Scott"))', -9.0), cand('(IN "Star Wars" (JOIN directed_by "Ridley Scott"))', -12.0)
    ranker = Ranker(films.schema, None, config, lambda iri: ())
    yes_no = _cues(asks_yes_no=True)
    assert ranker.with_fitting(yes_no, [one], [one, lower, low]) == [one, low, lower]
    assert ranker.with_fitting(yes_no, [one, low], [one, lower, low]) == [one, low, lower]  # the best other one
    assert ranker.with_fitting(yes_no, [one, low, lower], [one, lower, low]) == [one, low, lower]
    assert ranker.with_fitting(_cues(), [one], [one, low]) == [one]  # nothing asked


def test_the_shortest_fitting_reading_joins_where_the_best_fitting_walk_further(films: KnowledgeGraph,
                                                                              config) -> None:
    """Where no finalist fits, the best-scored fitting readings join, and the 0.5B forward score rises with length:
    "who is Chen's manager?" (a made-up company KG) had four longer walks re-ranked and never (JOIN (R reports_to)
    X). The shortest fitting reading joins them where each walks further."""

    def cand(text: str, forward: float) -> ProgramCandidate:
        program = parse(text)
        return ProgramCandidate(program, text, frozenset(), None, execution=films.executor.execute(program),
                                forward=forward)

    one = cand('(JOIN directed_by "Ridley Scott")', -1.0)
    longer = [cand(f'(IN "Alien" (JOIN directed_by (JOIN (R directed_by) "{film}")))', -2.0 - i)
              for i, film in enumerate(("Blade Runner", "Gladiator", "Alien", "Star Wars"))]
    short = cand('(IN "Alien" (JOIN directed_by "Ridley Scott"))', -9.0)
    ranker = Ranker(films.schema, None, config, lambda iri: ())
    assert config.beam == len(longer)
    assert ranker.with_fitting(_cues(asks_yes_no=True), [one], [one, *longer, short]) == [one, *longer, short]
    assert ranker.with_fitting(_cues(asks_yes_no=True), [one], [one, *longer[:3], short]) == [one, *longer[:3], short]


def test_a_finalist_narrowed_to_what_is_asked_is_a_finalist(films: KnowledgeGraph, config) -> None:
    """ "the latest Ridley Scott movie": the ranking of a finalist that does not rank joins the finalists even
    where another finalist ranks already; of the other rankings, only the best-scored one joins."""

    def cand(text: str, forward: float, parent: ProgramCandidate | None = None) -> ProgramCandidate:
        program = parse(text)
        return ProgramCandidate(program, text, frozenset(), None, execution=films.executor.execute(program),
                                forward=forward, parent=parent)

    scott = cand('(JOIN directed_by "Ridley Scott")', -1.0)
    ranked = cand('(ARGMAX (JOIN written_by "Ridley Scott") release_year)', -2.0)
    latest = cand('(ARGMAX (JOIN directed_by "Ridley Scott") release_year)', -6.0, parent=scott)
    other = cand('(ARGMIN (JOIN starred_actors "Sigourney Weaver") release_year)', -5.0)
    ranker = Ranker(films.schema, None, config, lambda iri: ())
    question = _cues(asks_superlative=True)
    assert ranker.with_fitting(question, [scott, ranked], [scott, ranked, other, latest]) == [scott, ranked, latest,
                                                                                              other]
    worse = cand('(ARGMIN (JOIN starred_actors "Harrison Ford") release_year)', -7.0)
    assert ranker.with_fitting(question, [scott, ranked], [scott, ranked, worse, other, latest])[-1] is other
    assert ranker.with_fitting(_cues(), [scott], [scott, latest]) == [scott]  # nothing asked


def test_the_reading_built_on_the_most_names_is_a_finalist(films: KnowledgeGraph) -> None:
    """"films by George Lucas starring Harrison Ford": the AND on both names joins finalists built on one."""

    def cand(text: str, anchors: set[int], forward: float, types: frozenset[str] | None = None) -> ProgramCandidate:
        return ProgramCandidate(parse(text), text, frozenset(anchors), types, execution=films.executor.execute(text),
                                forward=forward)

    lucas = cand('(JOIN directed_by "George Lucas")', {0}, -1.0, frozenset({"movie"}))
    ford = cand('(JOIN (R starred_actors) (JOIN directed_by "George Lucas"))', {0}, -1.5, frozenset({"person"}))
    both = cand('(AND (JOIN directed_by "George Lucas") (JOIN starred_actors "Harrison Ford"))', {0, 1}, -4.0,
                frozenset({"movie"}))
    worse = cand('(AND (JOIN written_by "George Lucas") (JOIN starred_actors "Harrison Ford"))', {0, 1}, -6.0,
                 frozenset({"movie"}))
    scored = [lucas, ford, worse, both]
    assert Ranker.with_fuller(_cues(), [lucas, ford], scored) == [lucas, ford, both]  # the best-scored one only
    assert Ranker.with_fuller(_cues(), [lucas, both], scored) == [lucas, both]  # a finalist has both names
    # where a finalist answers with the asked class, the fuller reading must too
    asks_people = _cues(asked_types=frozenset({"person"}))
    assert Ranker.with_fuller(asks_people, [ford], scored) == [ford]
    # of the readings on both names, one that walks straight, then one over the fewest relations, comes in first,
    # whatever their scores: a walk back or a detour through other relations reads a question nobody asked
    back = cand('(AND (JOIN starred_actors "Harrison Ford") (JOIN directed_by (JOIN (R directed_by) "George Lucas")))',
                {0, 1}, -1.0, frozenset({"movie"}))
    detour = cand('(AND (JOIN starred_actors "Harrison Ford") (JOIN directed_by (JOIN (R written_by) "George Lucas")))',
                  {0, 1}, -2.0, frozenset({"movie"}))
    assert Ranker.with_fuller(_cues(), [lucas, ford], [back, detour, worse, both]) == [lucas, ford, both]
    assert Ranker.with_fuller(_cues(), [lucas, ford], [back, detour]) == [lucas, ford, detour]


def test_the_reading_walking_the_most_named_relations_is_a_finalist(films: KnowledgeGraph) -> None:
    """ "release year of the films Ridley Scott directed": the two-hop reading that walks both named relations
    joins one-hop finalists that walk one."""

    def cand(text: str, named: int, forward: float) -> ProgramCandidate:
        return ProgramCandidate(parse(text), text, frozenset({0}), None, execution=films.executor.execute(text),
                                forward=forward, named=named)

    films_of = cand('(JOIN directed_by "Ridley Scott")', 1, -1.0)
    years = cand('(JOIN (R release_year) (JOIN directed_by "Ridley Scott"))', 2, -4.0)
    worse = cand('(JOIN (R release_year) (JOIN written_by "Ridley Scott"))', 2, -5.0)
    # the question's words spell both relations ("release year", "directed"), as the candidates' counts say
    spelt = {"release_year": Spelling(frozenset(), frozenset({"release"})),
             "directed_by": Spelling(frozenset({"directed"}), frozenset())}
    cues = _cues(named_relations=spelt)
    assert Ranker.with_fuller(cues, [films_of], [films_of, worse, years]) == [films_of, years]
    assert Ranker.with_fuller(cues, [films_of, years], [films_of, worse, years]) == [films_of, years]
    # a finalist that detours below its last step is no rival: the reading of both words still comes in
    detour = cand('(JOIN (R release_year) (JOIN directed_by (JOIN (R directed_by) (JOIN written_by "Ridley Scott"))))',
                  2, -2.0)
    assert Ranker.with_fuller(cues, [films_of, detour], [detour, worse, years]) == [films_of, detour, years]


def test_a_choice_is_answered_by_ranking_the_names_offered() -> None:
    """ "memento or the prestige, which is more recent": a ranking of the two, not of Memento's genres."""
    question = _cues(asks_superlative=True, choice=(0, 1))
    over_names = '(ARGMAX (OR "Memento" "The Prestige") release_year)'
    over_genres = '(ARGMAX (JOIN (R has_genre) "Memento") (COUNT (R has_genre)))'
    assert fits_asked(question, ProgramCandidate(parse(over_names), over_names, frozenset(), frozenset({"movie"})))
    assert not fits_asked(question, ProgramCandidate(parse(over_genres), over_genres, frozenset(), frozenset({"genre"})))
