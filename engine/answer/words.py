"""Words: how labels and questions are cut and folded, and which words are not names.

`normalise` is the lookup key of every label and span: case-folded, accents stripped, apostrophes
dropped, other punctuation a space, "&" read as "and". Stop words (language-level only) and the words
of the schema (class and relation labels with their inflections) are never linked to entities on their
own; class words (class names and labels, their plurals) become class mentions.
"""

from __future__ import annotations

import calendar
import datetime
import re
import unicodedata
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from lemminflect import getAllLemmas
from numerizer import numerize

from kg_adapters.person_nouns import PERSON_WORDS, names_a_person
from kg_adapters.readable import plural as _plural
from kg_adapters.readable import word_forms  # noqa: F401  (read from here by the answer modules)
from kg_adapters.schema import Schema

_TOKEN = re.compile(r"\d{4}-\d{2}-\d{2}(?![\w-])|\d+\.\d+(?![\w.])|\w+(?:['’`]\w+)*|&", re.UNICODE)
_APOSTROPHES = str.maketrans("", "", "'’`")


_GROUPED = re.compile(r"\b\d{1,3}(?:,\d{3})+\b")  # 10,000
_SCALED = re.compile(r"\b(\d+(?:\.\d+)?|[a-z]+(?:-[a-z]+)?)\s+(thousand|million|billion|trillion)\b", re.IGNORECASE)
_BRACKETED = re.compile(r"(\[[^\]]*\])")


def outside_brackets(question: str, rewrite: Callable[[str], str]) -> str:
    """The question with `rewrite` applied to its text outside [bracketed names], which stay as written."""
    parts = _BRACKETED.split(question)
    for i in range(0, len(parts), 2):  # even parts lie outside brackets
        parts[i] = rewrite(parts[i])
    return "".join(parts)


def numbers_as_digits(question: str) -> str:
    """ "10,000", "a million", "2.5 million", "fifteen million" as digits, so the linker finds the literal.

    Only digit groups and numbers with a scale word are rewritten (by numerizer): applied to a whole
    question it also reads "a population" as "1 population". Bracketed names are left as written."""

    def scaled(match: re.Match) -> str:
        digits = numerize(match.group(0))
        return digits if re.fullmatch(r"\d+(\.\d+)?", digits) else match.group(0)

    def rewrite(part: str) -> str:
        return _SCALED.sub(scaled, _GROUPED.sub(lambda m: m.group(0).replace(",", ""), part))

    return outside_brackets(question, rewrite)


# Month names and their short forms ("Sept" too), for dates written in words.
_MONTHS = {name.lower(): i for names in (calendar.month_name, calendar.month_abbr)
           for i, name in enumerate(names) if name}
_MONTHS["sept"] = 9
_MONTH = r"(?P<month>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r",?\s+(?P<year>\d{4})\b"
_DATES_IN_WORDS = (re.compile(rf"\b(?:the\s+)?{_DAY}(?:\s+of)?\s+{_MONTH}{_YEAR}", re.IGNORECASE),  # 1 March 2024
                   re.compile(rf"\b{_MONTH}\s+{_DAY}{_YEAR}", re.IGNORECASE))  # March 1st, 2024
# A month, or the start or end of a year, after a word of time order: "before April 2024", "after the end of 2023"
_ORDER = r"(?P<order>before|after|since|from|until|till|by|prior to)\s+"
_EDGE = r"(?:the\s+(?P<edge>start|beginning|end)\s+of\s+)"
_MONTH_IN_ORDER = re.compile(rf"\b{_ORDER}{_EDGE}?{_MONTH}{_YEAR}", re.IGNORECASE)
_YEAR_EDGE_IN_ORDER = re.compile(rf"\b{_ORDER}{_EDGE}(?P<year>\d{{4}})\b", re.IGNORECASE)
# Words of order whose bound is a month's last day: "after April" is from May on, "until April" takes April in
_FROM_THE_END = frozenset({"after", "until", "till", "by"})


def dates_as_iso(question: str) -> str:
    """ "1 March 2024", "March 1st, 2024", "the 5th of May 1999" as ISO dates (2024-03-01), which the linker reads as
    a date literal, so "admitted after 1 March 2024" compares dates, not the year alone. A month needs a day and a
    four-digit year beside it, so "may" and "march" as words are never read; a day the month does not have (30
    February) is left as written, and so are bracketed names. After a word of time order a month and year, or the
    start or end of a year, is a day too (`_edge_of`): "before April 2024" is before 2024-04-01, "after the start of
    2024" after 2024-01-01. A library such as dateparser finds dates in free text too, but also reads bare words
    ("now", "may") as dates."""

    def iso(match: re.Match) -> str:
        month = _MONTHS[match.group("month").lower()]
        try:
            return datetime.date(int(match.group("year")), month, int(match.group("day"))).isoformat()
        except ValueError:
            return match.group(0)

    def rewrite(part: str) -> str:
        for pattern in _DATES_IN_WORDS:
            part = pattern.sub(iso, part)
        part = _MONTH_IN_ORDER.sub(lambda m: _edge_of(m, _MONTHS[m.group("month").lower()]), part)
        return _YEAR_EDGE_IN_ORDER.sub(lambda m: _edge_of(m, None), part)

    return outside_brackets(question, rewrite)


def _edge_of(match: re.Match, month: int | None) -> str:
    """The day a month ("before April 2024": 2024-04-01) or the start or end of a year stands for after a word of
    time order: its first day, or its last where the words say its end or the order counts from its end."""
    year, order, edge = int(match.group("year")), match.group("order"), (match.group("edge") or "").lower()
    last = edge == "end" or not edge and order.lower() in _FROM_THE_END
    if month is None:
        day = datetime.date(year, 12, 31) if last else datetime.date(year, 1, 1)
    else:
        day = datetime.date(year, month, calendar.monthrange(year, month)[1] if last else 1)
    return f"{order} {day.isoformat()}"


_ORDINAL_WORDS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
_ORDINAL_NOUN = re.compile(rf"\b(?:({'|'.join(_ORDINAL_WORDS)})|(\d+)(?:st|nd|rd|th))[- ]([a-z]+)\b(?:\s+([a-z]+)\b)?",
                           re.IGNORECASE)


def ordinals_as_values(question: str, nouns: frozenset[str]) -> str:
    """ "third-level staff" as "staff with level 3" where `nouns`, the words of the labels of relations that hold
    whole numbers ("seniority level", "grade of school"), has the noun: the ordinal is that relation's value, not a
    rank, and as digits the linker finds the literal. The word it qualifies goes first, so "which third-grade
    pupils" still asks for pupils, not grades. "Who was hired first?" and "the first item" are left alone, and so
    are bracketed names."""

    def value(match: re.Match) -> str:
        noun, head = match.group(3), match.group(4)
        if noun.lower() not in nouns:
            return match.group(0)
        number = _ORDINAL_WORDS.index(match.group(1).lower()) + 1 if match.group(1) else int(match.group(2))
        if head is None or head.lower() in STOP:
            return f"{noun} {number}" + (f" {head}" if head else "")
        return f"{head} with {noun} {number}"

    return outside_brackets(question, lambda part: _ORDINAL_NOUN.sub(value, part))


# A possessive ending, which is no part of its word: "X's boss's boss" writes "boss" twice.
POSSESSIVE = re.compile(r"(?<=[^\W\d_])['’`]s\b")


def fold(token: str) -> str:
    """Case-folded, accents stripped, apostrophes removed; "&" reads "and"."""
    if token == "&":
        return "and"
    text = unicodedata.normalize("NFKD", token)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return text.casefold().translate(_APOSTROPHES)


def tokens(text: str) -> list[re.Match]:
    return list(_TOKEN.finditer(text))


def normalise(text: str) -> str:
    """The lookup key of a label or a span: folded tokens joined by single spaces."""
    return " ".join(fold(m.group()) for m in tokens(text))


def surface(text: str) -> str:
    """Tokens as written (case and accents kept), for telling exact from normalised matches."""
    return " ".join(m.group() for m in tokens(text))


# Function words: articles, prepositions, auxiliaries, pronouns, wh-words, modals and quantifiers.
FUNCTION_WORDS = frozenset(
    """
    a an the of in on at to for from by with without about as into onto than and or nor but not no yes
    is are was were be been being am do does did done doing has have had having
    what which who whom whose when where why how that this these those it its itself
    he she they them his her hers their theirs i me my mine you your yours we our ours us one ones
    can could would should will shall may might must there here some any all each every many much
    """.split()
)
# Language-level words only: the function words, question verbs and generic nouns. Words of a KG's
# own domain ("films", "directed", "capital") come from its schema (`schema_words`, `class_words`) and its
# synonyms from the embedder (`engine.answer.synonyms`); tests/test_layout.py fails on a domain word list.
STOP = FUNCTION_WORDS | frozenset(
    """
    more most other others another same such only also just very too so then if else both either
    neither up down out over under after before between during again ever since until while
    give show list tell name names find get please let know want like
    year years date dates describe describes described describing description descriptions word words
    topic topics theme themes subject subjects type types kind kinds sort sorts category categories
    person persons people someone somebody anyone thing things main primary total number count
    often time times first last latest earliest newest oldest together share shared sharing
    made make makes making come came comes belong belongs belonged associated related appear appears
    appeared appearing feature features featured featuring known popular famous good bad new old great
    best worst top whole entire fall falls world
    """.split()
)
ARTICLES = frozenset({"the", "a", "an"})
# Words before a noun that make it one: articles, "which", possessives, quantifiers (English grammar; not "that", which
# also opens a relative clause: "a country that borders X").
DETERMINERS = frozenset("the a an which what whose this these those its their his her my our your each every some "
                        "any no all many several both".split())


def schema_tokens(schema: Schema) -> set[str]:
    """The words of the schema's names, labels, readings and lexicon, as written there."""
    tokens: set[str] = set()
    for item in (*schema.classes, *schema.relations):
        texts = [item.name.replace("_", " "), item.label]
        if hasattr(item, "reverse_label"):  # a relation: its readings and its lexicon's words
            texts += [item.reverse_label, *item.words, *item.reverse_words]
        tokens |= {token for text in texts for token in normalise(text).split() if len(token) > 1 and not token.isdigit()}
    return tokens


def schema_words(schema: Schema) -> set[str]:
    """`schema_tokens` in every form (`word_forms`: "opened" -> open, opens, opening)."""
    return {form for token in schema_tokens(schema) for form in word_forms(token)}


def stop_words(schema: Schema, classes: dict[str, list[str]]) -> frozenset[str]:
    """Words that never name an entity alone: language words, the schema's words and the words of its classes
    (`classes`: `class_words`)."""
    return frozenset(STOP | schema_words(schema) | set(classes))


def class_words(schema: Schema) -> dict[str, list[str]]:
    """Words naming each class: its name, label and other noun (a mixed class's `also`) and their plurals
    (synonyms: engine.answer.synonyms)."""
    class_words: dict[str, list[str]] = defaultdict(list)
    for info in schema.classes:
        bases = {normalise(info.name.replace("_", " ")), normalise(info.label), *map(normalise, info.also)} - {""}
        if bases & PERSON_WORDS or any(names_a_person(b) for b in bases):
            # "people" and "someone" name a class of persons ("person", "employee"): language, not domain
            bases |= PERSON_WORDS
        for base in bases:
            words = base.split()
            for form in {base, " ".join(words[:-1] + [_plural(words[-1])])}:
                if info.name not in class_words[form]:
                    class_words[form].append(info.name)
    return {**_heads(schema, class_words), **class_words}


def class_initials(schema: Schema, class_words: dict[str, list[str]]) -> dict[str, tuple[str]]:
    """{initials: (class name,)} for class labels of two to five words, glue words ("of", "the", "and") left out:
    "member of parliament" -> "mp", which a question writes in capitals ("which MPs ...": `written_initials`).
    Initials two classes share, or that are already a class word, name none."""
    found: dict[str, set[str]] = defaultdict(set)
    for info in schema.classes:
        words = [w for w in normalise(info.label).split() if w not in ACRONYM_GLUE]
        if 2 <= len(words) <= 5 and all(w.isalpha() for w in words):
            found["".join(w[0] for w in words)].add(info.name)
    return {key: (names.pop(),) for key, names in found.items() if len(names) == 1 and key not in class_words}


def written_initials(surface: str) -> str:
    """The initials a word in capitals writes, folded, a plural's "s" left out ("MPs" -> "mp"); "" for any other."""
    found = _CAPITAL_INITIALS.fullmatch(surface)
    return found[1].casefold() if found else ""


_CAPITAL_INITIALS = re.compile(r"([A-Z]{2,5})s?")


# Words an abbreviation leaves out: "United States of America" -> "USA", "member of parliament" -> "MP".
ACRONYM_GLUE = frozenset({"of", "the", "and"})


def _heads(schema: Schema, class_words: dict[str, list[str]]) -> dict[str, list[str]]:
    """The head noun of a compound class label, and its plural, where it names no other class and spells no
    relation: "which <head> is X in?" asks for a `<word> <head>` (a made-up KG found no class in it). English
    compounds put their head last; a label with a function word in it ("thing with genre") is no compound."""
    relation_words = {w for r in schema.relations for text in (r.label, r.name.replace("_", " "))
                      for w in normalise(text).split()}
    heads: dict[str, set[str]] = defaultdict(set)
    for info in schema.classes:
        words = normalise(info.label).split()
        if len(words) >= 2 and not any(w in STOP for w in words) and words[-1] not in relation_words:
            heads[words[-1]].add(info.name)
    out = {}
    for head, names in heads.items():
        forms = {head, _plural(head)}
        if len(names) == 1 and not any(form in class_words for form in forms):
            out.update({form: sorted(names) for form in forms})
    return out


@dataclass
class QuestionTokens:
    """One question's tokens (outside brackets) and what is known about each."""

    toks: list[re.Match]
    folded: list[str]
    stop: list[bool]
    capital: list[bool]  # capitalised where capitals mean a name
    contiguous: list[bool]  # token i and i+1 are neighbours (no bracketed mention between)
    last_ends: bool  # nothing but punctuation follows the last token (no bracketed mention after it)
    case_matters: bool  # the question's capitals tell names from words
    top_k: int
    synonym_classes: dict[str, str] = field(default_factory=dict)  # "films" -> movie (engine.answer.synonyms)

    @classmethod
    def of(cls, question: str, taken: list[tuple[int, int]], stop_words: frozenset[str], top_k: int) -> "QuestionTokens":
        toks = [t for t in tokens(question) if not any(a <= t.start() < b for a, b in taken)]
        folded = [fold(t.group()) for t in toks]
        informative = _caps_informative(toks)
        capital = [
            informative and t.group()[:1].isupper() and not (i == 0 and folded[i] in stop_words)
            for i, t in enumerate(toks)
        ]
        contiguous = [True] * len(toks)
        for i in range(len(toks) - 1):
            between = question[toks[i].end() : toks[i + 1].start()]
            contiguous[i] = "[" not in between and "]" not in between
        last_ends = not toks or not any(ch.isalnum() for ch in question[toks[-1].end():])
        later = question[toks[0].end():] if toks else ""
        case_matters = informative and any(ch.isupper() for ch in later)
        return cls(toks, folded, [w in stop_words for w in folded], capital, contiguous, last_ends, case_matters,
                   top_k)


def _caps_informative(toks) -> bool:
    """Capitals mean names unless the question is in all caps or Title Case."""
    words = [t.group() for t in toks if t.group()[:1].isalpha()]
    if len(words) < 3:
        return True
    upper = sum(w[:1].isupper() for w in words[1:])
    return upper < 0.75 * (len(words) - 1)


def may_be_verb(word: str) -> bool:
    """Whether a word can be a verb ("borders", "earn", "acted"), whatever else it can be."""
    return bool(getAllLemmas(word).get("VERB"))
