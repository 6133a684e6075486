"""Adjectives of place: "japanese cities" names Japan, "european countries" Europe, "chilean" Chile.

`PlaceAdjectives` is the linker's use of it: where a word is no label, the places it derives from are
its candidates; where it is one too (the language Japanese), they go first only when nearer to the
class of the noun that follows ("japanese cities": Japan is a city's country).

No KG labels its entities with the adjectives questions use for them, and a list of demonyms would fit
one domain (and miss "Parisian" or "Martian" as soon as the KG is not about countries). English builds
them by a handful of suffixes (-an, -ian, -ean, -ese, -ish, -ine, -ic, -i) on the name, often dropping
the name's last vowel (Canada -> Canadian, Europe -> European) or inserting a letter (Peru -> Peruvian).
So the word is read backwards: strip the suffix, let the stem lose a letter (after a long suffix), and
take the labels that begin with what is left (`derived_keys`), only the best reading. Where the
question goes on with a class noun ("chilean cities"), the entity nearest to that class goes first
(`class_hops`): Chile, a city's country, not the city Chillan.

Only words the English lexicon does not know are read so (`is_place_adjective`): lemminflect lists
common words in lower case and no proper adjective, so "ocean", "median", "comic" or "polish" never
name Oceania, Medina, Como or Poland, while "japanese" and "brazilian" are not in it.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from os.path import commonprefix
from typing import TYPE_CHECKING, NamedTuple, Sequence

from lemminflect import getAllLemmas

from kg_adapters.schema import Schema

from .mentions import Candidate
from .words import ARTICLES, QuestionTokens

if TYPE_CHECKING:
    from .label_db import LabelDB

# Each suffix with the stem letters a name may lack before it: peru-v-ian, portug-u-ese, spa-n-ish. The short
# suffixes lose none: "-i" on a stem less a letter took the Italian "Parigi" for Paris. Longest first.
SUFFIXES = {"ian": 1, "ean": 1, "ese": 1, "ish": 1, "ine": 1, "an": 0, "ic": 0, "i": 0}
MIN_WORD = 5  # "asian", "cuban", "iraqi"; shorter words ("thai") are too easily another name's start
MIN_STEM = 3  # what is left after the suffix and dropped letters: "cub" for Cuba, "asi" for Asia
# The cost of a reading is 2 per dropped stem letter plus 1 per label letter beyond the stem. Readings of
# the demonyms we checked cost: japan, brazil, europe, chile, egypt, iraq, iceland 0; canada, italy, mexico,
# africa, asia, korea, china, russia, india 1; peru, sweden, turkey, belgium 2; germany 3; spain, portugal 4;
# finland 6, and norway (norw-eg-ian) is out of reach ("polish" is an English word, so never Poland). On the
# default geography KG, ~120 adjectives of place before "cities": raising the bound to 6 adds Finland, and
# takes "congolese" for the city Congonhas and "burmese" for Burundi; no dev question's linking changes
# (geography-demo, WorldCup, PQL, MetaQA dev). Only the best reading is taken (`PlaceAdjectives.entities`).
MAX_COST = 4
SCORE_DERIVED = 0.8  # as sure as the best typo match (linker.SCORE_FUZZY_MAX): a reading, not a label


def is_place_adjective(word: str) -> bool:
    """A lowercase word that may be an adjective of place: a derivational suffix on a word that the
    lexicon does not know ("japanese", "brazilians"), never a common word ("ocean", "human")."""
    word = singular(word)
    return (len(word) >= MIN_WORD and word.isascii() and word.isalpha() and word.endswith(tuple(SUFFIXES))
            and not getAllLemmas(word))


def singular(word: str) -> str:
    """ "brazilians" -> "brazilian": a plural demonym names the same place."""
    return word[:-1] if word.endswith("s") and word[:-1].endswith(tuple(SUFFIXES)) else word


def stems(word: str) -> dict[str, int]:
    """What a label must begin with for `word` to derive from it, each with the cost of the reading."""
    word = singular(word)
    found: dict[str, int] = {}
    for suffix, droppable in SUFFIXES.items():
        if not word.endswith(suffix):
            continue
        stem = word[: -len(suffix)]
        for dropped in range(droppable + 1):
            prefix = stem[: len(stem) - dropped]
            if len(prefix) < MIN_STEM:
                break
            found[prefix] = min(found.get(prefix, MAX_COST + 1), 2 * dropped)
    return found


class Reading(NamedTuple):
    """A label read as what an adjective derives from."""

    kept: int  # letters of the word the label begins with: "nigerian" keeps 7 in Nigeria, 5 in Niger
    cost: int  # 2 per stem letter dropped, 1 per label letter past the stem: Nigeria 1, Niger 0
    strong: bool  # the label is no longer than the word (Germany is longer than "german")


def derived_keys(words: Sequence[str], keys: Sequence[str] | Callable[[str], list[str]]) -> dict[str, Reading]:
    """The label keys (from sorted `keys`, or a function giving the keys that begin with a prefix and are at
    most MAX_COST letters longer) the span `words` may derive from by its last word, each read at its cheapest
    (cost at most MAX_COST).

    The other words must match as written ("south african" -> "south africa"), the label has as many
    words, and its letters past the stem are letters (no "_", digit or space): a name, not a longer one.
    A name is rarely longer than its adjective: one that is (Germany for "german", Susana for "susan")
    is a weak reading, which the linker takes only where the class noun after the word fits it."""
    *head, last = words
    if not is_place_adjective(last):
        return {}
    written = " ".join([*head, singular(last)])
    costs: dict[str, int] = {}
    for prefix, cost in stems(last).items():
        start = " ".join([*head, prefix])
        for key in keys(start) if callable(keys) else _starting_with(keys, start):
            rest = key[len(start):]
            total = cost + len(rest)
            if total <= MAX_COST and (not rest or rest.isalpha()) and key != " ".join(words):
                costs[key] = min(costs.get(key, total), total)
    return {key: Reading(len(commonprefix([key, written])), cost, len(key) <= len(written))
            for key, cost in costs.items()}


def _starting_with(keys: Sequence[str], prefix: str) -> list[str]:
    """The keys of sorted `keys` that begin with `prefix` and are at most MAX_COST letters longer."""
    out = []
    for k in range(bisect_left(keys, prefix), len(keys)):
        key = keys[k]
        if not key.startswith(prefix):
            break
        if len(key) - len(prefix) <= MAX_COST:
            out.append(key)
    return out


def class_hops(schema: Schema, limit: int = 2) -> dict[tuple[str, str], int]:
    """How many relations apart two entity classes are (1 or more, up to `limit`): how near an entity is
    to the class a question's noun names. "japanese cities": the country Japan is one relation from City
    (a city's country), the language Japanese two (a city's country's language). A class is 1 from itself
    only through a relation of its own (a country's neighbour): "indian cities" are not cities named
    like India, so the city Indi (2 from City) loses to the country India (1)."""
    entity = {c.name for c in schema.classes if not c.is_literal}
    near: dict[str, set[str]] = {name: set() for name in entity}
    for rel in schema.relations:
        for a in set(rel.domain) & entity:
            for b in set(rel.range) & entity:
                near[a].add(b)
                near[b].add(a)
    hops: dict[tuple[str, str], int] = {}
    for start in entity:
        frontier = near[start]
        for step in range(1, limit + 1):
            for name in frontier:
                hops.setdefault((start, name), step)
            frontier = {b for a in frontier for b in near[a]}
    return hops


class PlaceAdjectives:
    """The entities a question's adjectives of place name, in one KG: its label keys searched by prefix (an
    index seek in the label index) and how near its classes are."""

    def __init__(self, data: "LabelDB", schema: Schema, class_words: dict[str, list[str]]):
        self._d, self._class_words = data, class_words
        self._hops = class_hops(schema)

    def with_derived(self, ctx: QuestionTokens, j: int, key: str, labelled: list[Candidate]) -> list[Candidate]:
        """The candidates of the span `key` ending at token j-1, given the entities `labelled` so: the
        places it derives from where it is no label (a typo match took "brazilian" for Brasilia); before
        the labelled ones where nearer to the class noun that follows; else the labelled ones alone."""
        if not is_place_adjective(ctx.folded[j - 1]):
            return labelled
        heads = self.head_classes(ctx, j)
        derived = self.entities(key.split(), heads, ctx.top_k)
        if not derived or not labelled:
            return derived or labelled
        if not heads or any(set(heads) & set(c.classes) for c in labelled):
            return labelled  # "the japanese language": a label before a noun of its own class names that entity
        if self.hops_to(heads, [derived[0].classes]) < self.hops_to(heads, [c.classes for c in labelled]):
            return [*derived, *labelled][: ctx.top_k]
        return labelled

    def before_class(self, ctx: QuestionTokens, i: int) -> bool:
        """Token i is an adjective of place before a class noun ("american cities"): a derived word, not a
        typo of a name (the city Americana)."""
        return is_place_adjective(ctx.folded[i]) and bool(self.head_classes(ctx, i + 1))

    def entities(self, words: list[str], heads: tuple[str, ...], top_k: int) -> list[Candidate]:
        """The entities `words` derives from by its best reading: nearest to the `heads` classes ("chilean
        cities": the country Chile, not the city Chillan), then keeping more of the word ("nigerian":
        Nigeria, not Niger; "indian": India, not the city Indi), then the cheapest; labels shared by
        several entities keep them all, the better-connected first (up to `top_k`)."""
        d = self._d
        if len(words) > 1 and words[0] in ARTICLES:  # "the japanese currency"
            words = words[1:]
        found: dict[int, tuple[Reading, int]] = {}  # entity -> (its reading, label record)
        for key, reading in derived_keys(words, lambda prefix: d.keys_starting(prefix, MAX_COST)).items():
            for r in d.records(key):
                e = d.record(r).entity
                if not reading.strong and self.hops_to(heads, [d.entity(e).classes]) > 1:
                    continue  # "german cities": Germany, a city's country; "susan" alone: not Susana
                found.setdefault(e, (reading, r))

        def order(item: tuple[int, tuple[Reading, int]]) -> tuple:
            e, (reading, r) = item
            near = self.hops_to(heads, [d.entity(e).classes]) if heads else 0
            return (near, -reading.kept, reading.cost, -d.entity(e).degree, d.record(r).label)

        ranked = sorted(found.items(), key=order)
        best = [item for item in ranked if order(item)[:3] == order(ranked[0])[:3]]
        return [Candidate("entity", d.record(r).label, d.entity(e).iri, SCORE_DERIVED, d.entity(e).classes)
                for e, (_, r) in best[:top_k]]

    def head_classes(self, ctx: QuestionTokens, j: int) -> tuple[str, ...]:
        """The classes named by the noun of up to three words at token j ("cities", "time zones"), if any."""
        for n in (3, 2, 1):
            if j + n > len(ctx.folded) or not all(ctx.contiguous[j - 1 : j + n - 1]):
                continue
            words = " ".join(ctx.folded[j : j + n])
            names, synonym = self._class_words.get(words, ()), ctx.synonym_classes.get(words)  # "films": movie
            if names or synonym:
                return tuple(names) or (synonym,)
        return ()

    def hops_to(self, heads: tuple[str, ...], classes: list[tuple[str, ...]]) -> int:
        """Relations between the classes `heads` and the nearest of these entities' classes (3: more than 2)."""
        return min((self._hops.get((h, name), 3) for h in heads for names in classes for name in names), default=3)
