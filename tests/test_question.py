"""engine.answer.question: what a question asks for, read on the tiny films KG (no language model)."""

from __future__ import annotations

import pytest

from engine.answer.asked import counts_named
from engine.answer.degree import comparatives, counted_comparisons
from engine.answer.linker import LabelIndex
from engine.answer.question import QuestionReader
from kg_adapters.person_nouns import names_people
from engine.answer.words import dates_as_iso, numbers_as_digits, ordinals_as_values
from engine.lm.embedder import Embedder
from engine.programs.kg import KnowledgeGraph


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return Embedder.load()


def reader_of(kg: KnowledgeGraph, config, embedder: Embedder) -> QuestionReader:
    """A reader over a KG of the test's own, with its label index in the test's cache."""
    return QuestionReader(kg.schema, LabelIndex.build(kg.store, kg.schema, config.cache_dir, embedder))


@pytest.fixture
def reader(films: KnowledgeGraph, config, embedder: Embedder) -> QuestionReader:
    return reader_of(films, config, embedder)


@pytest.mark.parametrize(
    "question, asks_person",
    [
        ("who directed alien?", True),
        ("who starred in alien", True),
        ("the film [My Bodyguard] starred which actors", True),  # the KG's word for a person: starred_actors
        ("which directors made Alien", True),  # directed_by -> director
        ("what writers wrote Alien", True),  # written_by -> writer
        ("which people starred in Alien", True),  # language-level
        ("Alien was directed by who?", True),
        ("the films directed by ridley scott starred who", True),  # a wh-word that ends the question asks
        ("which movies did Ridley Scott direct", False),
        ("what film genre is Alien", False),
        ("which directory holds the films", False),
        ("which actress starred in Alien", True),  # a synonym of the class actor (engine.answer.synonyms)
    ],
)
def test_which_questions_ask_for_a_person(reader: QuestionReader, question: str, asks_person: bool) -> None:
    assert bool(reader.read(question).asked_types & {"person", "actor"}) is asks_person  # tiny_films' people


@pytest.mark.parametrize(
    "label, people",
    [("person", True), ("actor", True), ("director", True), ("football player", True), ("people", True),
     ("movie", False), ("genre", False), ("country", False), ("tag", False), ("year", False)],
)
def test_class_labels_that_name_people(label: str, people: bool) -> None:
    assert names_people(label) is people


@pytest.mark.parametrize(
    "question, asked",
    [
        ("which genres are the movies directed by george lucas", {"genre"}),
        ("what are the movies that share the director of alien", {"movie"}),  # "what are the" + class
        ("what was the genre of alien", {"genre"}),
        ("what is alien 's genre ?", {"genre"}),  # a possessive chain asks for the noun it ends on
        ("alien's genre", {"genre"}),
        ("what sort of film is alien", set()),  # a genre, but not named as one: nothing is asked
        ("how many movies did ridley scott direct", set()),
        ("which ridley scott movies are there", {"movie"}),  # a name between the wh-word and its noun
        ("which ridley scott 's movies are there", set()),  # a possessive is not a modifier of the noun
        ("which scary movies did ridley scott direct", {"movie"}),  # one word between "which" and its noun
        ("which directors directed movies", set()),  # two: "which" asks for the directors, not the movies
        ("name a movie that ridley scott directed", {"movie"}),  # a request names what it asks for
        ("list all the genres of alien", {"genre"}),
        ("give me the ridley scott movies", {"movie"}),
        ("who are the ridley scott movies", {"movie"}),  # "who are the" + class
        ("name ridley scott 's genre", {"genre"}),  # the possessive chain's own rule
        ("what is the genre of ridley scott 's movies ?", {"genre"}),  # the chain sits in an of-phrase: its head
        ("which of ridley scott 's movies ?", {"movie"}),  # "which of": no noun governs the chain
        ("ridley scott movies released after alien", {"movie"}),  # a question that opens with its noun phrase
        ("latest ridley scott movies", {"movie"}),
        ("the release year of ridley scott movies", set()),  # "of": the noun phrase is not the answer
        ("movies of ridley scott", {"movie"}),  # the first noun heads it; the name after "of" modifies it
        ("the movies written by ridley scott were in which genres", {"genre"}),  # a wh-word asks for the rest
        ("movies of ridley scott which harrison ford starred in", {"movie"}),  # "which" after a name: a clause
    ],
)
def test_the_class_a_question_asks_for(reader: QuestionReader, question: str, asked: set[str]) -> None:
    assert reader.read(question).asked_types & {"genre", "movie"} == asked


@pytest.mark.parametrize(
    "question, asks_value",
    [
        ("what is the release year of alien", True),  # the noun of a relation to literals
        ("what's the release year of alien", True),
        ("release year of alien?", True),  # a question that opens with the noun
        ("the release year of alien", True),
        ("how many movies did ridley scott direct", False),  # a count, not a value
        ("what genre is alien", False),
        ("who directed alien", False),
    ],
)
def test_questions_that_ask_for_a_value(reader: QuestionReader, films: KnowledgeGraph, question: str,
                                        asks_value: bool) -> None:
    literal = {c.name for c in films.schema.classes if c.is_literal}
    assert bool(reader.read(question).asked_types & literal) is asks_value


@pytest.mark.parametrize(
    "question, asks_same",
    [
        ("who co-wrote films with [Carl Foreman]", True),
        ("the actor [Zac Efron] co-starred with who", True),
        ("who cowrote films with [Carl Foreman]", True),  # "co" glued to a verb of the schema (written_by)
        ("which actors costarred with [Zac Efron]", True),
        ("which movies did [Ridley Scott] direct in colour", False),  # "co..." that is no schema verb
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


@pytest.mark.parametrize(
    "question, asks_count, asks_superlative",
    [
        ("how many films did ridley scott direct", True, False),
        ("what is the number of films by ridley scott", True, False),
        ("which actor starred in the highest number of films", False, True),  # the count ranks
        ("the most common genre (by number of films)", False, True),
    ],
)
def test_a_count_that_only_ranks_is_not_asked_for(reader: QuestionReader, question: str, asks_count: bool,
                                                  asks_superlative: bool) -> None:
    read = reader.read(question)
    assert (read.asks_count, read.asks_superlative) == (asks_count, asks_superlative)


@pytest.mark.parametrize(
    "question, asked, ranks_another",
    [
        ("what's the most widely used genre", {"genre"}, False),  # modifiers between the wh-word and the noun
        ("what is the two word genre tag of alien", set(), False),  # "genre" does not end its phrase
        ("which actor starred in the most films", {"person"}, False),  # "most films" counts films
        ("which actor starred in the earliest film", {"person"}, True),  # films ranked, their actors asked
        ("which actor starred in the most science fiction films", {"person"}, False),  # a name, then the noun
    ],
)
def test_what_a_superlative_ranks(reader: QuestionReader, question: str, asked: set, ranks_another: bool) -> None:
    read = reader.read(question)
    assert asked <= read.asked_types and read.ranks_another is ranks_another
    assert asked or "genre" not in read.asked_types


@pytest.mark.parametrize(
    "question, in_phrase",
    [
        ("which director has the highest rating", False),  # the things asked for, ranked
        ("what is the language of the earliest film", True),  # an "of" phrase's noun, ranked
        ("which actor starred in the oldest film", True),
        ("which genre is used by the most films", False),  # a quantity ranks what is asked, by a count
        ("what is the most recent film", False),
    ],
)
def test_a_superlative_after_a_preposition_ranks_the_noun_it_governs(reader: QuestionReader, question: str,
                                                                     in_phrase: bool) -> None:
    assert reader.read(question).ranks_in_phrase is in_phrase


@pytest.mark.parametrize(
    "question, rankings",
    [
        ("which is the oldest film by ridley scott", ("ARGMIN",)),  # the least year
        ("which film released after 1980 is the oldest", ("ARGMIN",)),  # the superlative decides, not "after"
        ("alien or blade runner, which is older", ("ARGMIN",)),
        ("who directed the most films", ("ARGMAX",)),
        ("the southernmost city of chile", ("ARGMIN",)),  # compass words: north and east up, south and west down
        ("which lies further west, lisbon or dublin", ("ARGMIN",)),
        ("the most northern city of chile", ("ARGMAX",)),
        ("which city of chile is the largest", ("ARGMAX",)),
        ("the largest city of south america", ("ARGMAX",)),  # a name is no word of degree
        ("which city of chile", ("ARGMAX", "ARGMIN")),  # no word of degree: both
        ("which is the heaviest film", ("ARGMAX",)),  # every dimension's adjectives, not size and height alone
        ("which is the lightest film", ("ARGMIN",)),
        ("which film is closest to alien", ("ARGMIN",)),  # nearness on distances, which grow with it
        ("which film lies farthest from alien", ("ARGMAX",)),
        ("which lies furthest west, lisbon or dublin", ("ARGMIN",)),  # the compass decides first
    ],
)
def test_the_way_a_ranking_goes(reader: QuestionReader, question: str, rankings: tuple) -> None:
    assert reader.read(question).rankings == rankings


def test_who_ranks_people_where_the_question_names_no_one(reader: QuestionReader) -> None:
    """ "who has the most writing credits": no name, no class word; "who" asks for the people to rank."""
    read = reader.read("who has the most writing credits")
    assert read.classes and set(read.classes) <= read.asked_types and not read.unlinked
    assert reader.read("who has writing credits").unlinked  # nothing to rank: nothing to start from
    films = reader.read("who directed the most films")  # the films are counted, the people ranked
    assert "movie" in films.classes and set(films.classes) & films.asked_types - {"movie"}


@pytest.mark.parametrize(
    "question, asks_superlative",
    [
        ("which is the earliest film of ridley scott", True),
        ("the best film by ridley scott", True),  # irregular: good, better, best
        ("which actor starred in the most films", True),
        ("the southernmost city of chile", True),
        ("which language is the main language of more countries than any other", True),  # against all the rest
        ("which films are longer than alien", False),
        ("which films are set in a forest", False),  # -est, but not an adjective's
        ("almost every film by ridley scott", False),
        ("who directed alien", False),
        ("when did alien first come out", False),  # "first" before a verb says when, it ranks nothing
        ("when was alien first released", False),
        ("which film by ridley scott came out first", True),
        ("the first released film of ridley scott", True),  # after an article it is an adjective again
        ("who are ridley scott's first cousins", False),  # one noun to WordNet: a "first cousin" ranks nothing
    ],
)
def test_questions_that_ask_for_a_ranking(reader: QuestionReader, question: str, asks_superlative: bool) -> None:
    assert reader.read(question).asks_superlative is asks_superlative


@pytest.mark.parametrize(
    "question, expected",
    [
        ("which cities have over a million people", "which cities have over 1000000 people"),
        ("countries with more than 100 million people", "countries with more than 100000000 people"),
        ("a population under 10,000", "a population under 10000"),  # "a" stays a word, the comma goes
        ("more than fifteen million inhabitants", "more than 15000000 inhabitants"),
        ("which one is bigger", "which one is bigger"),
        ("films of [Two Million Dollars]", "films of [Two Million Dollars]"),  # a bracketed name as written
    ],
)
def test_numbers_are_read_as_digits(question: str, expected: str) -> None:
    assert numbers_as_digits(question) == expected


@pytest.mark.parametrize(
    "question, expected",
    [
        ("patients admitted after 1 March 2024", "patients admitted after 2024-03-01"),
        ("who joined since March 1st, 2024?", "who joined since 2024-03-01?"),
        ("born on the 5th of May 1999", "born on 1999-05-05"),
        ("hired before 12 Sept. 2019 or Jan 3 2020", "hired before 2019-09-12 or 2020-01-03"),
        ("may 2024 bring more", "may 2024 bring more"),  # a month needs a day and a year beside it
        ("on 30 February 2020", "on 30 February 2020"),  # no such day: left as written
        ("films of [1 March 2024]", "films of [1 March 2024]"),  # a bracketed name as written
        # a month, or a year's start or end, after a word of time order: its first day, or its last where the order
        # counts from its end ("after April" is from May on)
        ("matches played before April 2024", "matches played before 2024-04-01"),
        ("who joined after March 2020?", "who joined after 2020-03-31?"),
        ("hired since Feb 2024", "hired since 2024-02-01"),
        ("open until February 2024", "open until 2024-02-29"),
        ("exhibitions opened after the start of 2024", "exhibitions opened after 2024-01-01"),
        ("films released before the end of 1999", "films released before 1999-12-31"),
        ("before the end of May 2024", "before 2024-05-31"),
        ("released in April 2024", "released in April 2024"),  # no word of order: a month, no one day
        ("films released before 1990", "films released before 1990"),  # a year alone stays a year
    ],
)
def test_dates_in_words_are_read_as_iso_dates(question: str, expected: str) -> None:
    assert dates_as_iso(question) == expected


@pytest.mark.parametrize(
    "question, expected",
    [
        # a noun of a relation that holds whole numbers ("seniority level"): the ordinal is its value
        # the word it qualifies goes first, so that "which students" still asks for students, not years
        ("which second-year students take Optics?", "which students with year 2 take Optics?"),
        ("who are the 3rd level staff?", "who are the staff with level 3?"),
        ("list the Tenth Level members", "list the members with Level 10"),
        ("who is second-year?", "who is year 2?"),  # nothing after it to qualify
        # no such noun after it: a rank, or part of a name, as before
        ("who was hired first?", "who was hired first?"),
        ("the first film of the year", "the first film of the year"),
        ("what is the first-class fare?", "what is the first-class fare?"),
        ("who wrote [Second Year Blues]?", "who wrote [Second Year Blues]?"),
    ],
)
def test_an_ordinal_before_a_counted_noun_is_its_value(question: str, expected: str) -> None:
    assert ordinals_as_values(question, frozenset({"year", "level", "study"})) == expected


@pytest.mark.parametrize(
    "question, ways",
    [
        ("movies released after 1990 with over 3 stars", ("gt", "ge")),
        ("films from before 1980 with fewer than 2 directors", ("lt", "le")),
        ("films released before 1982", ("lt", "le")),
        ("films released in 1982", ()),  # no word of degree: the year itself, no comparison
        ("more than 3 and less than 9", ("lt", "le", "gt", "ge")),  # both: all four
        ("cities further south than 3", ("lt", "le")),  # compass words: south and west down
        ("is it more northerly than 3", ("gt", "ge")),  # "more" goes up too, so the compass decides
        ("films from north america", ()),  # a name is no word of degree
    ],
)
def test_words_of_degree_say_which_way_a_comparison_goes(reader: QuestionReader, question: str, ways) -> None:
    assert reader.read(question).comparatives == ways


@pytest.mark.parametrize("question, ways", [
    ("clients with more than 2 projects", ("gt",)),  # a count leaves its bound out ...
    ("students taking fewer than 3 courses", ("lt",)),
    ("clients with at least 2 projects", ("ge",)),  # ... unless its words take it in
    ("clients with 2 or more projects", ("ge",)),
    ("teams with at most 5 players", ("le",)),
])
def test_a_compared_count_leaves_its_bound_out_unless_told(question: str, ways) -> None:
    assert counted_comparisons(question, comparatives(question)) == ways


@pytest.mark.parametrize(
    "question, compared, ways",
    [
        ("films released after [Alien]", ["Alien"], ("gt", "ge")),
        ("which films are older than the [Blade Runner]", ["Blade Runner"], ("lt", "le")),  # older: earlier
        ("films by ridley scott that predate [Gladiator]", ["Gladiator"], ("lt", "le")),
        ("films with [Harrison Ford] released before 1990", ["1990"], ("lt", "le")),  # not the name before it
    ],
)
def test_names_after_than_or_a_time_order_are_compared_with(reader: QuestionReader, question: str, compared,
                                                           ways) -> None:
    q = reader.read(question)
    assert sorted(q.linking.mentions[i].text.strip("[]") for i in q.compared) == compared
    assert q.comparatives == ways


@pytest.mark.parametrize(
    "question, choice",
    [
        ("which came out first, alien or blade runner", ["alien", "blade runner"]),
        ("alien vs the blade runner: which is newer", ["alien", "the blade runner"]),
        ("of alien, gladiator and blade runner, which is the oldest", ["alien", "gladiator", "blade runner"]),
        ("between alien and gladiator, which has more actors", ["alien", "gladiator"]),
        ("did ridley scott and harrison ford make a film together", []),  # "and" alone joins, it offers no choice
    ],
)
def test_names_offered_as_a_choice(reader: QuestionReader, question: str, choice) -> None:
    q = reader.read(question)
    assert [q.linking.mentions[i].text.lower() for i in q.choice] == choice
    assert q.asks_superlative == bool(choice)
    assert not (choice and q.asks_yes_no)


def test_a_choice_asked_with_is_is_no_yes_no_question(reader: QuestionReader) -> None:
    assert not reader.read("is alien or gladiator older?").asks_yes_no
    assert reader.read("is alien older than gladiator?").asks_yes_no


def test_names_listed_together_are_a_set_to_total(reader: QuestionReader) -> None:
    q = reader.read("what is the total release year of alien and gladiator")
    assert [q.linking.mentions[i].text.lower() for i in q.listed] == ["alien", "gladiator"]
    assert q.aggregate == "SUM" and not q.choice


def test_where_asks_for_what_an_is_in_relation_leads_to(small_kg, config, embedder: Embedder) -> None:
    kg = small_kg("clubs.psv", "Ada|plays_in_club|Reds\nBo|plays_in_club|Blues\nReds|is_in_country|Spain\n"
                               "Blues|is_in_country|Peru\n")
    reader = reader_of(kg, config, embedder)
    country = frozenset(kg.schema.relation("is_in_country").range)
    assert reader.read("where is the club that Ada plays for?").asked_types == country
    assert not reader.read("which club does Ada play for?").asked_types & country


CLINIC_TTL = """\
@prefix c: <http://example.org/clinic/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
c:Doctor a rdfs:Class ; rdfs:label "doctor" .
c:Hospital a rdfs:Class ; rdfs:label "hospital" .
c:Town a rdfs:Class ; rdfs:label "town" .
c:works_at rdfs:label "works at" ; rdfs:domain c:Doctor ; rdfs:range c:Hospital .
c:treats rdfs:label "treats" ; rdfs:domain c:Doctor ; rdfs:range c:Doctor .
c:located_in rdfs:label "located in" ; rdfs:domain c:Hospital ; rdfs:range c:Town .
c:walk_ins rdfs:label "accepts walk-ins" ; rdfs:domain c:Hospital ; rdfs:range xsd:boolean .
c:Ann a c:Doctor ; rdfs:label "Ann Berg" ; c:works_at c:StOla ; c:treats c:Bo .
c:Bo a c:Doctor ; rdfs:label "Bo Lind" ; c:works_at c:StOla .
c:StOla a c:Hospital ; rdfs:label "St Ola" ; c:located_in c:Vik ; c:walk_ins true .
c:Vik a c:Town ; rdfs:label "Vik" .
"""


@pytest.mark.parametrize("question, asked", [
    ("where does Ann Berg work?", "Hospital"),  # "works at" puts its objects at a place: the workplace, not its town
    ("where does the doctor Ann treats work?", "Hospital"),  # the last relation spelt asks
    ("where is St Ola?", "Town"),  # no verb of a placing relation: the objects of "located in"
    ("where is St Ola located?", "Town"),
])
def test_where_asks_for_the_objects_of_the_placing_relation_its_verb_spells(small_kg, config, embedder: Embedder,
                                                                            question: str, asked: str) -> None:
    """A made-up hospital KG's "where does dr X work?" had walked on from the hospital to its town."""
    kg = small_kg("clinic.ttl", CLINIC_TTL)
    reader = reader_of(kg, config, embedder)
    assert reader.read(question).asked_types == {asked}


GALLERY_TTL = """\
@prefix g: <http://example.org/gallery/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
g:Painting a rdfs:Class ; rdfs:label "painting" .
g:Museum a rdfs:Class ; rdfs:label "museum" .
g:City a rdfs:Class ; rdfs:label "city" .
g:Curator a rdfs:Class ; rdfs:label "curator" .
g:housed_in rdfs:label "housed in" ; rdfs:domain g:Painting ; rdfs:range g:Museum .
g:located_in rdfs:label "located in" ; rdfs:domain g:Museum ; rdfs:range g:City .
g:curator rdfs:label "curator" ; rdfs:domain g:Museum ; rdfs:range g:Curator .
g:Dusk a g:Painting ; rdfs:label "Dusk over Arnholm" ; g:housed_in g:Vale .
g:Vale a g:Museum ; rdfs:label "Vale Collection" ; g:located_in g:Torby ; g:curator g:Ines .
g:Torby a g:City ; rdfs:label "Torby" .
g:Ines a g:Curator ; rdfs:label "Ines Varga" .
"""


@pytest.mark.parametrize("question, asked", [
    # a located thing is somewhere to be: the painting's museum, not only the museum's city (a blind museum probe's
    # "where does <painting> hang?" had walked four relations to reach a city)
    ("where does Dusk over Arnholm hang?", {"Museum", "City"}),
    ("where is the museum that has Dusk over Arnholm?", {"City"}),  # not the kind of thing asked about
    ("where is Vale Collection?", {"City"}),
])
def test_where_asks_for_located_things_too(small_kg, config, embedder: Embedder, question: str, asked: set) -> None:
    kg = small_kg("gallery.ttl", GALLERY_TTL)
    reader = reader_of(kg, config, embedder)
    assert reader.read(question).asked_types == asked


COLLEGE_TTL = """\
@prefix c: <http://example.org/college/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
c:Faculty a rdfs:Class ; rdfs:label "faculty" .
c:Building a rdfs:Class ; rdfs:label "building" .
c:Lecturer a rdfs:Class ; rdfs:label "lecturer" .
c:Town a rdfs:Class ; rdfs:label "town" .
c:housed_in rdfs:label "housed in" ; rdfs:domain c:Faculty ; rdfs:range c:Building .
c:works_in rdfs:label "works in" ; rdfs:domain c:Lecturer ; rdfs:range c:Faculty .
c:hometown rdfs:label "hometown" ; rdfs:domain c:Lecturer ; rdfs:range c:Town .
c:Law a c:Faculty ; rdfs:label "Law" ; c:housed_in c:Merton .
c:Merton a c:Building ; rdfs:label "Merton House" .
c:Ada a c:Lecturer ; rdfs:label "Ada Brook" ; c:works_in c:Law ; c:hometown c:Delft .
c:Delft a c:Town ; rdfs:label "Delft" .
"""


@pytest.mark.parametrize("question, asked", [
    # the faculty's own placing relation, which "based" does not spell: before, only the towns WordNet calls places
    ("where is the law faculty based?", {"Building", "Town"}),
    ("where is Law?", {"Building", "Town"}),
    ("where is Ada Brook from?", {"Town"}),  # a person "works in" a faculty, which is no place
])
def test_where_asks_for_the_objects_of_the_things_own_placing_relations(small_kg, config, embedder: Embedder,
                                                                        question: str, asked: set) -> None:
    kg = small_kg("college.ttl", COLLEGE_TTL)
    reader = reader_of(kg, config, embedder)
    assert reader.read(question).asked_types == asked


DONATED_TTL = """\
@prefix g: <http://example.org/gallery/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
g:Museum a rdfs:Class ; rdfs:label "museum" .
g:Curator a rdfs:Class ; rdfs:label "curator" .
g:Painting a rdfs:Class ; rdfs:label "painting" .
g:Donor a rdfs:Class ; rdfs:label "donor" .
g:worksAt rdfs:label "works at" ; rdfs:domain g:Curator ; rdfs:range g:Museum .
g:donatedBy rdfs:label "donated by" ; rdfs:domain g:Painting ; rdfs:range g:Donor .
g:Tate a g:Museum ; rdfs:label "Tate Harbour" .
g:Ines a g:Curator ; rdfs:label "Ines Berg" ; g:worksAt g:Tate .
g:Tide a g:Painting ; rdfs:label "Quiet Tide" ; g:donatedBy g:Pell .
g:Pell a g:Donor ; rdfs:label "Pell Foundation" .
"""


def test_a_verb_in_a_relation_name_is_no_noun_for_its_objects(small_kg, config, embedder: Embedder) -> None:
    """A made-up museum KG: "which works ..." asked for the museums of `worksAt`, whose name gives its objects no
    noun but the verb (`readable.verb_only`)."""
    kg = small_kg("donated.ttl", DONATED_TTL)
    reader = reader_of(kg, config, embedder)
    assert not reader.read("which works were donated by the Pell Foundation?").asked_types
    assert reader.read("which museum does Ines Berg work at?").asked_types == {"Museum"}


AIRLINE_TTL = """\
@prefix a: <http://example.org/air/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
a:Airport a rdfs:Class ; rdfs:label "airport" .
a:Operator a rdfs:Class ; rdfs:label "operator" .
a:hub rdfs:label "hub" ; rdfs:domain a:Operator ; rdfs:range a:Airport .
a:Nordwind a a:Operator ; rdfs:label "Nordwind Air" ; a:hub a:Vellin .
a:Vellin a a:Airport ; rdfs:label "Vellin Central" .
"""


def test_a_word_near_a_class_only_by_its_word_pieces_names_no_class(small_kg, config, embedder: Embedder) -> None:
    """A made-up airline KG: "airline" lies 0.71 from `airport` in MiniLM, and seven questions asked for airports;
    WordNet calls them no kin (`synonyms.kin`)."""
    kg = small_kg("air.ttl", AIRLINE_TTL)
    reader = reader_of(kg, config, embedder)
    assert not reader.read("which airline has its hub at Vellin Central?").asked_types
    assert reader.read("which airport is the hub of Nordwind Air?").asked_types == {"Airport"}


SCHOOL_TTL = """\
@prefix c: <http://example.org/school/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
c:Student a rdfs:Class ; rdfs:label "student" .
c:Course a rdfs:Class ; rdfs:label "course" .
c:Department a rdfs:Class ; rdfs:label "department" .
c:enrolled_in rdfs:label "enrolled in" ; rdfs:domain c:Student ; rdfs:range c:Course .
c:offered_by rdfs:label "offered by" ; rdfs:domain c:Course ; rdfs:range c:Department .
c:mia a c:Student ; rdfs:label "Mia Keller" ; c:enrolled_in c:optics .
c:optics a c:Course ; rdfs:label "Optics" ; c:offered_by c:physics .
c:physics a c:Department ; rdfs:label "Physics" .
"""


@pytest.mark.parametrize("question, asked", [
    ("which classes does Mia take?", {"Course"}),  # "course" is first "course of study, ..., class" in WordNet
    ("which class has the fewest people enrolled?", {"Course"}),
    ("which section offers Optics?", {"Department"}),  # "department" is first "department, section"
])
def test_a_word_of_a_classs_first_wordnet_sense_names_it(small_kg, config, embedder: Embedder, question: str,
                                                          asked: set[str]) -> None:
    """MiniLM puts "class" below the synonym threshold from `course`; WordNet's first sense of "course" holds it."""
    reader = reader_of(small_kg("school.ttl", SCHOOL_TTL), config, embedder)
    assert reader.read(question).asked_types == asked


@pytest.mark.parametrize("question", [
    "which class president is enrolled in Optics?",  # a modifier of the noun after it
    "does Mia section Optics?",  # a verb after a name
])
def test_a_word_of_a_first_sense_names_no_class_where_no_class_noun_stands(small_kg, config, embedder: Embedder,
                                                                          question: str) -> None:
    reader = reader_of(small_kg("school.ttl", SCHOOL_TTL), config, embedder)
    assert not reader.read(question).asked_types & {"Course", "Department"}


STATES_TTL = """\
@prefix s: <http://example.org/states/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
s:State a rdfs:Class ; rdfs:label "state" .
s:City a rdfs:Class ; rdfs:label "city" .
s:capital rdfs:label "capital" ; rdfs:domain s:State ; rdfs:range s:City .
s:borders rdfs:label "borders" ; rdfs:domain s:State ; rdfs:range s:State .
s:Ohio a s:State ; rdfs:label "Ohio" ; s:capital s:Columbus ; s:borders s:Indiana .
s:Indiana a s:State ; rdfs:label "Indiana" ; s:capital s:Indianapolis .
s:Columbus a s:City ; rdfs:label "Columbus" .
s:Indianapolis a s:City ; rdfs:label "Indianapolis" .
"""


@pytest.mark.parametrize("question, asked", [
    ("which state capital is the largest?", {"City"}),  # a made-up US-geography KG had asked for states
    ("which states border Ohio?", {"State"}),  # a verb after the class noun is the clause's, not a compound's head
    ("which state is Columbus the capital of?", {"State"}),
])
def test_a_relation_noun_after_a_class_noun_heads_the_phrase(small_kg, config, embedder: Embedder, question: str,
                                                            asked: set) -> None:
    kg = small_kg("states.ttl", STATES_TTL)
    reader = reader_of(kg, config, embedder)
    assert reader.read(question).asked_types == asked


def test_a_short_function_word_spells_no_relation(small_kg, config, embedder: Embedder) -> None:
    """A made-up hospital KG: the "in" of any question spelt "accepts walk-ins" ("in" is a form of the plural "ins")."""
    kg = small_kg("clinic.ttl", CLINIC_TTL)
    reader = reader_of(kg, config, embedder)
    assert "walk_ins" not in reader.read("which doctors work in Vik?").named_relations
    assert "walk_ins" in reader.read("which hospitals accept walk-ins?").named_relations


@pytest.mark.parametrize(
    "question, superlatives, counted",
    [
        ("which actor starred in the most films", 1, ()),
        ("who starred in the most ridley scott movies", 1, ("ridley scott",)),  # the names after "most"
        ("which ridley scott movie has the most actors", 1, ()),
        ("who wrote the most movies", 1, ()),
        ("what is the latest of the earliest movies", 2, ()),
        ("movies directed by ridley scott", 0, ()),
    ],
)
def test_where_the_superlative_words_stand(reader: QuestionReader, question: str, superlatives: int, counted) -> None:
    read = reader.read(question)
    assert len(read.superlative_at) == superlatives
    after = tuple(m.text for m in read.linking.mentions
                  if m.kind == "entity" and read.superlative_at and m.start > read.superlative_at[0])
    assert after == counted


@pytest.mark.parametrize(
    "question, named",
    [
        ("how many people live in France", False),  # an amount the KG holds, its population
        ("how many neighbours does France have", True),  # a relation
        ("how many countries use the euro", True),  # a class
        ("what is the population of France", True),  # no "how many"
    ],
)
def test_what_how_many_counts(geo: KnowledgeGraph, config, embedder: Embedder, question: str, named: bool) -> None:
    reader = QuestionReader(geo.schema, LabelIndex.build(geo.store, geo.schema, config.cache_dir, embedder))
    assert counts_named(reader.read(question)) is named



@pytest.mark.parametrize("question", ["what has the largest area?", "what has the highest population"])
def test_a_ranking_that_names_no_class_ranks_the_subjects_of_the_attribute_it_spells(
        geo: KnowledgeGraph, config, embedder: Embedder, question: str) -> None:
    reader = QuestionReader(geo.schema, LabelIndex.build(geo.store, geo.schema, config.cache_dir, embedder))
    read = reader.read(question)
    assert not read.anchors and not read.unlinked
    assert read.classes == ("Country",)  # tiny_geo's area and population are the countries'


def test_a_superlative_before_a_relations_noun_asks_for_what_the_noun_names(small_kg, config,
                                                                             embedder: Embedder) -> None:
    """ "which is the largest <noun>" asks for the noun's things as "which <noun>" does, where their class has
    another name: a made-up KG's "which is the oldest <noun>" found nothing (reasoner v69)."""
    from tests.test_mechanisms import SKY_TTL

    kg = small_kg("sky.ttl", SKY_TTL)
    reader = reader_of(kg, config, embedder)
    planets = frozenset(kg.schema.relation("destination").range)
    for question in ("which is the largest destination?", "what is the most massive destination?",
                     "which destination is largest?"):
        assert reader.read(question).asked_types == planets, question
    assert not reader.read("which is the forest destination?").asked_types & planets  # an -est word, no superlative


PRESS_TTL = """\
@prefix p: <http://example.org/press/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
p:Book a rdfs:Class ; rdfs:label "book" .
p:Company a rdfs:Class ; rdfs:label "company" .
p:Writer a rdfs:Class ; rdfs:label "writer" .
p:published_by rdfs:label "published by" ; rdfs:domain p:Book ; rdfs:range p:Company .
p:written_by rdfs:label "written by" ; rdfs:domain p:Book ; rdfs:range p:Writer .
p:signed_with rdfs:label "signed with" ; rdfs:domain p:Writer ; rdfs:range p:Company .
p:Tome a p:Book ; rdfs:label "Tome" ; p:published_by p:Acme ; p:written_by p:Ann .
p:Acme a p:Company ; rdfs:label "Acme" .
p:Ann a p:Writer ; rdfs:label "Ann" ; p:signed_with p:Acme .
"""


@pytest.mark.parametrize("question, company", [
    ("who put out Tome?", True),  # the verb spells published_by (engine.answer.verbs), whose far end is a company
    ("who published Tome?", True),
    ("who wrote Tome?", False),  # written_by reaches no group
    ("which writers signed?", False),  # no "who"
    ("who signed?", False),  # the end of persons answers "who", not the company at the other end
])
def test_who_asks_for_the_group_a_verbs_relation_reaches(small_kg, config, embedder: Embedder, question: str,
                                                         company: bool) -> None:
    """ "who" asks for persons, and for the groups (a company, a band) at the far end of the relation its verb
    spells: made-up KGs' "who put out X" and "who sings X" had answered with persons (reasoner v70)."""
    kg = small_kg("press.ttl", PRESS_TTL)
    reader = reader_of(kg, config, embedder)
    asked = reader.read(question).asked_types
    assert "Writer" in asked and ("Company" in asked) is company


def test_a_word_as_near_one_class_as_another_names_neither(embedder: Embedder) -> None:
    """The embedder puts words of one topic near each other: "airline" lies near a class of aircraft and a class of
    airports alike (a made-up airline KG, whose airlines are a class `company`, answered with aircraft). Only a
    clear nearest class is a synonym; "film" still names `movie`."""
    from engine.answer.synonyms import SchemaSynonyms
    from kg_adapters.schema import ClassInfo, Schema

    schema = Schema(tuple(ClassInfo(f"urn:{name}", name, name, induced=True) for name in
                          ("aircraft", "airport", "company", "movie", "person")), (), True)
    meanings = SchemaSynonyms(schema, embedder).meanings(["airline", "film", "planes"])
    assert meanings["airline"] is not None and meanings["airline"].class_name is None  # still a schema word
    assert meanings["film"].class_name == "movie" and meanings["planes"].class_name == "aircraft"
