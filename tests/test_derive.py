"""engine.answer.derive: adjectives of place ("japanese", "chilean") link to the place they derive from."""

from __future__ import annotations

import pytest

from engine.answer.derive import class_hops, derived_keys, is_place_adjective, stems
from engine.answer.linker import LabelIndex
from engine.answer.question import QuestionReader

# A small geography written inline: every place below is one a mention could be mistaken for. The city
# Brasilia and Chillan are what typo matching gave "brazilian" and "chilean"; Indi, Perus and the city Asia
# begin like India, Peru and the continent Asia, and Niger like Nigeria; Oceania, Medina and Poland like
# the English words ocean, median and polish; Americana and Susana are longer than "american" and
# "susan", as Germany is than "german"; Japanese, Italian, Chinese and German are languages labelled like
# their adjectives.
GEO = """\
@prefix g: <http://example.org/geo/> .
@prefix c: <http://example.org/geo/class/> .
@prefix r: <http://example.org/geo/relation/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .

c:City a rdfs:Class ; rdfs:label "city" .
c:Country a rdfs:Class ; rdfs:label "country" .
c:Continent a rdfs:Class ; rdfs:label "continent" .
c:Language a rdfs:Class ; rdfs:label "language" .
c:Currency a rdfs:Class ; rdfs:label "currency" .
r:country rdfs:domain c:City ; rdfs:range c:Country .
r:continent rdfs:domain c:Country ; rdfs:range c:Continent .
r:language rdfs:domain c:Country ; rdfs:range c:Language .
r:currency rdfs:domain c:Country ; rdfs:range c:Currency .
r:neighbour rdfs:domain c:Country ; rdfs:range c:Country .

g:Europe a c:Continent ; rdfs:label "Europe" .
g:AsiaContinent a c:Continent ; rdfs:label "Asia" .
g:Africa a c:Continent ; rdfs:label "Africa" .
g:Oceania a c:Continent ; rdfs:label "Oceania" .
g:SouthAmerica a c:Continent ; rdfs:label "South America" .
g:NorthAmerica a c:Continent ; rdfs:label "North America" .
g:Euro a c:Currency ; rdfs:label "Euro" .
g:Yen a c:Currency ; rdfs:label "Yen" .
g:Japanese a c:Language ; rdfs:label "Japanese" .
g:Italian a c:Language ; rdfs:label "Italian" .
g:Chinese a c:Language ; rdfs:label "Chinese" .
g:German a c:Language ; rdfs:label "German" .
g:Spanish a c:Language ; rdfs:label "Spanish" .
g:Portuguese a c:Language ; rdfs:label "Portuguese" .

g:Japan a c:Country ; rdfs:label "Japan" ; r:continent g:AsiaContinent ; r:language g:Japanese ; r:currency g:Yen .
g:China a c:Country ; rdfs:label "China" ; r:continent g:AsiaContinent ; r:language g:Chinese .
g:India a c:Country ; rdfs:label "India" ; r:continent g:AsiaContinent .
g:Italy a c:Country ; rdfs:label "Italy" ; r:continent g:Europe ; r:language g:Italian ; r:currency g:Euro .
g:Russia a c:Country ; rdfs:label "Russia" ; r:continent g:Europe ; r:neighbour g:Finland, g:China .
g:Finland a c:Country ; rdfs:label "Finland" ; r:continent g:Europe ; r:currency g:Euro .
g:Germany a c:Country ; rdfs:label "Germany" ; r:continent g:Europe ; r:language g:German ; r:currency g:Euro .
g:Niger a c:Country ; rdfs:label "Niger" ; r:continent g:Africa .
g:Nigeria a c:Country ; rdfs:label "Nigeria" ; r:continent g:Africa .
g:Poland a c:Country ; rdfs:label "Poland" ; r:continent g:Europe ; r:currency g:Euro .
g:Brazil a c:Country ; rdfs:label "Brazil" ; r:continent g:SouthAmerica ; r:language g:Portuguese .
g:Chile a c:Country ; rdfs:label "Chile" ; r:continent g:SouthAmerica ; r:language g:Spanish .
g:Peru a c:Country ; rdfs:label "Peru" ; r:continent g:SouthAmerica ; r:language g:Spanish .
g:Canada a c:Country ; rdfs:label "Canada" ; r:continent g:NorthAmerica .
g:SouthAfrica a c:Country ; rdfs:label "South Africa" ; r:continent g:Africa .

g:Tokyo a c:City ; rdfs:label "Tokyo" ; r:country g:Japan .
g:Osaka a c:City ; rdfs:label "Osaka" ; r:country g:Japan .
g:Brasilia a c:City ; rdfs:label "Brasília" ; r:country g:Brazil .
g:Perus a c:City ; rdfs:label "Perus" ; r:country g:Brazil .
g:Santiago a c:City ; rdfs:label "Santiago" ; r:country g:Chile .
g:Chillan a c:City ; rdfs:label "Chillán" ; r:country g:Chile .
g:Lima a c:City ; rdfs:label "Lima" ; r:country g:Peru .
g:Indi a c:City ; rdfs:label "Indi" ; r:country g:India .
g:AsiaCity a c:City ; rdfs:label "Asia" ; r:country g:Peru .
g:Medina a c:City ; rdfs:label "Medina" ; r:country g:Brazil .
g:Americana a c:City ; rdfs:label "Americana" ; r:country g:Brazil .
g:Susana a c:City ; rdfs:label "Susana" ; r:country g:Brazil .
g:Rome a c:City ; rdfs:label "Rome" ; r:country g:Italy .
g:Toronto a c:City ; rdfs:label "Toronto" ; r:country g:Canada .
g:CapeTown a c:City ; rdfs:label "Cape Town" ; r:country g:SouthAfrica .
"""

# question | the word of the mention | its candidates, best first, as label/class (none where the word names none)
LINKS = """\
which european countries border russia | european | Europe/Continent
how many japanese cities are there | japanese | Japan/Country, Japanese/Language
what countries speak japanese | japanese | Japanese/Language
which countries have the japanese language | japanese | Japanese/Language
which time zones do brazilian cities use | brazilian | Brazil/Country
list the chilean cities | chilean | Chile/Country
peruvian cities | peruvian | Peru/Country
italian cities | italian | Italy/Country, Italian/Language
what is the italian currency | italian | Italy/Country, Italian/Language
chinese cities | chinese | China/Country, Chinese/Language
canadian cities | canadian | Canada/Country
which indian cities are the largest | indian | India/Country
south african cities | african | South Africa/Country
nigerian cities | nigerian | Nigeria/Country
what do brazilians speak | brazilians | Brazil/Country
asian countries | asian | Asia/Continent, Asia/City
german cities | german | Germany/Country, German/Language
what do germans speak | germans | German/Language
american cities | american |
which city is susan from | susan |
which cities lie near the ocean | ocean |
what is the median population of cities | median |
polish cities | polish |
"""


def rows(table: str) -> list[tuple]:
    """A table's lines as tuples of their "|"-separated columns, the last one a list split at commas."""
    out = []
    for line in table.splitlines():
        *first, last = (part.strip() for part in line.split("|"))
        out.append((*first, [item.strip() for item in last.split(",") if item.strip()]))
    return out


@pytest.fixture
def index(small_kg, tmp_path) -> LabelIndex:
    kg = small_kg("places.ttl", GEO)
    return LabelIndex.build(kg.store, kg.schema, tmp_path / "labels")


@pytest.mark.parametrize(("question", "word", "expected"), rows(LINKS))
def test_adjectives_of_place_link_to_the_place(index: LabelIndex, question: str, word: str,
                                               expected: list[str]) -> None:
    linking = index.link(question)
    mentions = [m for m in linking.entity_mentions() if word in m.text.lower().split()]
    found = [f"{c.label}/{c.classes[0]}" for m in mentions for c in m.candidates if c.kind == "entity"]
    assert found == expected, [(m.text, m.candidates) for m in linking.mentions]


def test_the_place_replaces_the_adjective_in_the_anonymised_question(index: LabelIndex) -> None:
    assert index.link("how many japanese cities are there").anonymised() == "how many Country cities are there"


@pytest.mark.parametrize(("question", "asked"), [("which european countries border russia", {"Country"}),
                                                 ("which japanese cities are the largest", {"City"})])
def test_the_wh_word_still_asks_for_the_noun_after_an_adjective_of_place(small_kg, index: LabelIndex,
                                                                        question: str, asked: set[str]) -> None:
    reader = QuestionReader(small_kg("schema.ttl", GEO).schema, index)
    assert reader.read(question).asked_types == asked


# word | stems with the cost of reading them, cheapest first (none where the word is not read as one)
STEMS = """\
japanese | japan:0, japa:2
european | europ:0, europe:0, euro:2
peruvian | peruv:0, peruvi:0, peru:2
brazilians | brazil:0, brazili:0, brazi:2
iraqi | iraq:0
parigi | parig:0
ocean |
human |
polish |
thai |
"""


@pytest.mark.parametrize(("word", "expected"), rows(STEMS))
def test_stems_of_adjectives_of_place(word: str, expected: list[str]) -> None:
    assert is_place_adjective(word) == bool(expected)
    got = sorted(stems(word).items(), key=lambda kv: (kv[1], kv[0])) if expected else []
    assert [f"{stem}:{cost}" for stem, cost in got] == expected


def test_derived_keys_cost_and_shape() -> None:
    keys = sorted(["chile", "chillan", "china", "chicago", "chile_fc", "south africa", "africa", "europe",
                   "euro", "europa league", "germany", "susana", "niger", "nigeria"])
    # Reading(letters of the word kept, cost, label no longer than the word); chicago would cost 2 + 4
    # letters, chile_fc is no name, "europa league" has more words
    assert derived_keys(["chilean"], keys) == {"chile": (5, 0, True), "chillan": (4, 3, True), "china": (3, 4, True)}
    assert derived_keys(["south", "african"], keys) == {"south africa": (12, 1, True)}
    assert derived_keys(["european"], keys) == {"europe": (6, 0, True), "euro": (4, 2, True)}
    assert derived_keys(["german"], keys) == {"germany": (6, 3, False)}
    assert derived_keys(["susan"], keys) == {"susana": (5, 3, False)}
    assert derived_keys(["nigerian"], keys) == {"niger": (5, 0, True), "nigeria": (7, 1, True)}
    assert derived_keys(["ocean"], ["oceania"]) == {}


def test_class_hops(small_kg) -> None:
    hops = class_hops(small_kg("hops.ttl", GEO).schema)
    assert hops[("City", "Country")] == 1 and hops[("City", "Language")] == 2
    assert ("City", "Continent") in hops and ("Language", "Continent") in hops  # two through Country
    assert hops[("Country", "Country")] == 1  # neighbour
    assert hops[("City", "City")] == 2  # only through a country: a city is not "indian" for its name
