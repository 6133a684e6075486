"""Quantities in questions: "a budget over 400k", "taller than two metres", "longer than an hour", "bigger than
1,000,000 km2".

A KG stores a measure as a bare number in a unit its relation's name may spell (`heightCm`, `distance_km`,
`prep_minutes`); a question writes the number in its own unit, in words or with a scale suffix. Two things follow.
The number is put in the relation's unit where both spell one (two metres against `heightCm` is 200), and where the
question spells a unit, only the relations of its dimension are compared with it (an area in km2 is no
population: the scorer alone had to tell them apart, and on the default KG did, by "bigger"). A relation that spells
no unit but names its dimension ("area", "height") keeps the number as written, as its unit is unknown ("larger
than 500000 square miles" against the default KG's `area`, in km2, stays 500000). Units and dimensions are pint's;
the words that name a dimension are English, of no domain. Measured on the blind probes (BENCHMARKS.md, "Session 51").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, localcontext
from functools import lru_cache

from numerizer import numerize

from engine.programs.sexpr import Literal
from engine.programs.validate import QUANTITY_KINDS
from kg_adapters.schema import RelationInfo

from .degree import BEFORE_AMOUNT
from .words import STOP, outside_brackets

# Scale suffixes written onto a number: "400k", "$1.5m", "€2bn". "m" alone is five metres where the KG measures
# lengths ("taller than 5m"), else a million ("more than 100m people"); after a currency sign always a million.
_SUFFIXED = re.compile(r"(?<![\w.])(?P<sign>[$€£¥])?(?P<number>\d+(?:\.\d+)?)\s?(?P<scale>k|bn|m)\b", re.IGNORECASE)
_SCALES = {"k": 1_000, "m": 1_000_000, "bn": 1_000_000_000}
_EXACT = 1200  # decimal digits kept in products of numbers written in a question
# A number in words after a word of degree ("more than two projects", "over a hundred"); elsewhere number words are
# left alone, as numerizer reads "a population" as "1 population". "a"/"an" alone counts only before a unit.
_NUMBER_WORD = (r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|"
                r"sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|"
                r"thousand|million|billion|dozen)\b")
_DEGREE_THEN_WORDS = re.compile(
    rf"\b(?P<cue>{BEFORE_AMOUNT})\s+"
    rf"(?P<words>{_NUMBER_WORD}(?:[\s-]+(?:and\s+)?{_NUMBER_WORD})*)(?P<after>\s+(?P<next>[^\W\d_]+))?",
    re.IGNORECASE)
# The unit written right after a number: "2 metres", "5kg", "1,000,000 km2", "300 sq km", "40 square miles"
_UNIT_AFTER = re.compile(r"\s?(?P<square>(?:sq\.?|square|cubic)\s+)?(?P<unit>[A-Za-z]+)(?P<power>[23²³])?\b",
                         re.IGNORECASE)
# Words that name a dimension, for a relation whose name spells no unit ("area", "height")
_DIMENSION_WORDS = {
    "area": ("meter", 2), "surface": ("meter", 2),
    **dict.fromkeys(("length", "height", "distance", "elevation", "altitude", "depth", "width", "diameter", "radius"),
                    ("meter", 1)),
    "weight": ("kilogram", 1), "mass": ("kilogram", 1),
    "duration": ("second", 1), "runtime": ("second", 1),
    "temperature": ("kelvin", 1),
}
# English words pint reads as units that a question or a name means otherwise ("more than 3 in 2020", "2 points")
_NOT_UNITS = frozenset({"a", "an", "in", "s", "t", "are", "point", "points", "count", "bar", "cup", "stone", "at", "b",
                        "k", "c", "e", "h", "d", "y", "x", "j", "p", "degree", "degrees", "percent", "dozen"})


@lru_cache(maxsize=1)
def _registry():
    import pint  # 0.2 s to load: only once a question or a schema has a number to read

    return pint.UnitRegistry()


@lru_cache(maxsize=4096)
def unit_of(word: str, power: int = 1):
    """The unit a word names ("metres", "km", "kcal"), raised to `power` ("km2", "square miles"), or None for words
    that are English first (`_NOT_UNITS`, the stop words) and units without a dimension (percent, bytes)."""
    word = word.lower()
    if word in _NOT_UNITS or word in STOP or not word.isalpha():
        return None
    registry = _registry()
    try:
        unit = registry.parse_units(word) ** power
    except Exception:  # noqa: BLE001 - pint raises several kinds for words that are no unit
        return None
    return None if unit.dimensionless else unit


def with_numbers(text: str, lengths: bool = False) -> str:
    """ "400k" and "$1.5m" as digits, and number words after a word of degree ("more than two", "longer than an
    hour"), so the linker finds the literal; the unit words stay for `unit_after`. `lengths`: whether the KG holds
    lengths, so that "5m" may be five metres."""

    def suffixed(match: re.Match) -> str:
        scale = match.group("scale").lower()
        if scale == "m" and lengths and not match.group("sign"):
            return match.group(0)
        with localcontext() as context:
            context.prec = _EXACT  # as written, however long (a question has at most 500 characters)
            return _digits(Decimal(match.group("number")) * _SCALES[scale])

    def in_words(match: re.Match) -> str:
        words, following = match.group("words"), match.group("next") or ""
        if words.lower() in ("a", "an"):
            if unit_of(following) is None:
                return match.group(0)
            digits = "1"
        else:
            digits = numerize(words)
            if not re.fullmatch(r"\d+(\.\d+)?", digits):
                return match.group(0)
        return f"{match.group('cue')} {digits}{match.group('after') or ''}"

    return outside_brackets(text, lambda part: _DEGREE_THEN_WORDS.sub(in_words, _SUFFIXED.sub(suffixed, part)))


def unit_after(text: str, end: int):
    """The unit written right after a number that ends at `end`, or None."""
    match = _UNIT_AFTER.match(text, end)
    if match is None:
        return None
    power = {"2": 2, "²": 2, "3": 3, "³": 3}.get(match.group("power") or "", 1)
    square = (match.group("square") or "").lower()
    power = power if not square else 3 if square.startswith("cubic") else 2
    return unit_of(match.group("unit"), power)


@dataclass(frozen=True)
class Measure:
    """What a numeric relation measures: the unit its name spells, or the dimension a word of it names."""

    unit: object | None  # a pint unit
    dimension: object | None  # a pint dimensionality


@lru_cache(maxsize=4096)
def measure_of(label: str) -> Measure:
    """The last word of a relation's label that names a unit ("height in cm", "distance km", "area km2"; a short
    one only beside other words), else the first that names a dimension ("area", "elevation")."""
    words = re.findall(r"([a-z]+)([23]?)", label.lower())
    for word, power in reversed(words):
        unit = unit_of(word, int(power or 1))
        if unit is not None and (len(words) > 1 or len(word) > 2):
            return Measure(unit, unit.dimensionality)
    for word, _ in words:
        if word in _DIMENSION_WORDS:
            base, power = _DIMENSION_WORDS[word]
            return Measure(None, (_registry().parse_units(base) ** power).dimensionality)
    return Measure(None, None)


def measures_lengths(relations: list[RelationInfo]) -> bool:
    """Whether any of the relations holds a length (by the unit or the dimension its label names)."""
    measured = [measure_of(r.label).dimension for r in relations]
    return any(measured) and _registry().parse_units("meter").dimensionality in measured


def in_units(value: Literal, unit, relations: list[RelationInfo]) -> dict[str, Literal]:
    """The relations of the unit's dimension, each with the value in the unit it spells (as written where it spells
    none); empty where there is no unit, the value is no amount or no relation has that dimension, and then every
    relation is compared as before."""
    found: dict[str, Literal] = {}
    if unit is None or value.kind not in QUANTITY_KINDS:
        return found
    for relation in relations:
        measure = measure_of(relation.label)
        if measure.dimension is None or measure.dimension != unit.dimensionality:
            continue
        number = Decimal(value.value)
        if measure.unit is not None:  # the factor from pint, the product exact: a stranger's 400-digit number stays one
            with localcontext() as context:
                context.prec = _EXACT
                number *= Decimal(repr((1.0 * unit).to(measure.unit).magnitude))
        digits = _digits(number)
        found[relation.name] = Literal(digits, "decimal" if "." in digits else "integer")
    return found


def _digits(number: Decimal) -> str:
    """A number as the linker writes it: whole numbers without a point, others to twelve significant digits (a
    conversion factor's float noise goes: 1.5 km is 150000 cm, not 150000.00000000003)."""
    if number != number.to_integral_value():
        with localcontext() as context:
            context.prec = 12
            number = +number
    if number == number.to_integral_value():
        return str(int(number))
    return format(number.normalize(), "f")
