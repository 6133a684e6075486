"""Words of degree: which way a comparison or a ranking goes, and whether a question asks for a count.

English grammar only, no word of any domain: "over a million" compares up, "the oldest" ranks down, "how
many" asks for a count but "the highest number of" only ranks by one. `question.py` reads a question's cues
with these; the enumerator builds only the comparisons and rankings they allow.
"""

from __future__ import annotations

import re

from lemminflect import getAllInflections, getAllLemmas

from kg_adapters.person_nouns import wordnet
from kg_adapters.readable import singular

from .mentions import Mention
from .words import word_forms

_COUNT_WORDS = re.compile(r"\b(how many|number of|count)\b", re.IGNORECASE)
# "spoken in the highest number of countries", "(by number of countries)": the count ranks, it is not asked for
_RANKED_BY = re.compile(r"\b(by (the )?|(\w+est|most|least) )(total )?(number of|count)\b", re.IGNORECASE)
# "the main language of more countries than any other": a comparative against all the rest ranks
THAN_ANY = re.compile(r"\bthan (any|every|all)\b", re.IGNORECASE)
# Which way a comparison with a number goes: "over a million" is gt/ge, "under 10,000" lt/le. A question with
# both keeps all four comparatives, one with neither has none. "Older" and "newer" are read on dates, the values
# KGs hold (a release or founding year): an older one is earlier.
_UP = re.compile(r"\b(over|more|greater|above|exceed\w*|larger|bigger|higher|longer|newer|younger|taller|at least|"
                 r"after|since|later|more recent|heavier|wider|deeper|faster)\b",
                 re.IGNORECASE)
_DOWN = re.compile(r"\b(under|less|fewer|below|smaller|lower|shorter|older|at most|before|until|earlier|predat\w*|"
                   r"lighter|narrower|shallower|slower)\b",
                   re.IGNORECASE)
# The same for superlatives: "the oldest film", "which is the oldest, X, Y or Z" rank by the least year. The
# nearest is the least far, read on a distance a KG holds ("closest to the sun": the least semi-major axis); a
# comparison "further from the equator than X" is read both ways, as a latitude is no distance.
_UP_MOST = re.compile(r"\b(largest|biggest|greatest|highest|longest|newest|youngest|tallest|latest|most|last|"
                      r"heaviest|widest|deepest|fastest|farthest|furthest)\b", re.IGNORECASE)
_DOWN_MOST = re.compile(r"\b(smallest|lowest|shortest|oldest|earliest|least|fewest|first|lightest|narrowest|"
                        r"shallowest|slowest|closest|nearest)\b", re.IGNORECASE)
# Words that take a count's bound in: "at least 3", "3 or more", "up to 5" ("no more than 3" is a negation, read as one)
_INCLUSIVE = re.compile(r"\b(at least|at most|up to|or (more|less|fewer|over|above|under|below))\b", re.IGNORECASE)
# Comparatives of time: "<verb> before 1700", "<verb> after 2019" compare a point in time, never an amount
_IN_TIME = re.compile(r"\b(before|after|since|until|till|earlier|later|prior to)\b", re.IGNORECASE)
# A length asked of a point in time is the time since it: "who has been with us the longest", "the shortest-serving"
# rank by a start date, the longest the earliest (candidates.py turns the ranking round on dates and years).
_LASTING = re.compile(r"\b(long|short)(er|est)\b", re.IGNORECASE)
# Superlatives of quantity: before a noun they count it ("the most countries"), not rank it
QUANTITY_SUPERLATIVES = ("most", "least", "fewest")
# The ordinals that rank like superlatives, on dates as `_UP_MOST` says: "who was <verb> first", "X's last <noun>"
ORDINAL_SUPERLATIVES = ("first", "last")
# Compass words of degree: coordinates grow northward and eastward (latitude, longitude, a map's y and x), so
# "further north", "north of X" and "the northernmost" go up, south and west down. Only their comparative and
# superlative forms count: "North America" or a "western" says nothing of degree. They decide before the
# words above ("the most southern one" ranks down, though "most" ranks up).
_COMPASS = r"(north|south|east|west)"
_COMPASS_MORE = re.compile(rf"\b((further|farther|more) {_COMPASS}(ern|erly|wards?)?|{_COMPASS}(wards?)? of)\b",
                           re.IGNORECASE)
_COMPASS_MOST = re.compile(rf"\b({_COMPASS}ernmost|(furthest|farthest|most) {_COMPASS}(ern|erly|wards?)?)\b",
                           re.IGNORECASE)


# The words of degree that stand right before an amount ("over 300", "more than two"; quantities.py reads a number
# in words after them) and, with those of time order, before any bound. A value right after one bounds a comparison:
# "recipes under 300 calories" asks for none of exactly 300, which a 0.5B scorer had chosen on a made-up recipes KG.
BEFORE_AMOUNT = r"than|over|under|above|below|exceed\w*|at least|at most"
_BOUND = re.compile(rf"\b({BEFORE_AMOUNT}|before|after|since|until|till|prior to)\s+[$€£¥]?$", re.IGNORECASE)


def bounds(text: str, mentions: tuple[Mention, ...]) -> frozenset[int]:
    """The literal mentions right after a word of degree ("under 300", "before 1990"): bounds, never the value."""
    return frozenset(i for i, m in enumerate(mentions) if m.kind == "literal" and _BOUND.search(text[: m.start]))


def asks_count(text: str) -> bool:
    """ "how many", "the number of": a count is the answer, unless the count only ranks ("the highest number
    of", "by number of")."""
    return _COUNT_WORDS.search(_RANKED_BY.sub(" ", text)) is not None


def lasting(text: str) -> bool:
    """Whether the question grades a length ("the longest", "shorter"), which on a date is a length of time."""
    return _LASTING.search(text) is not None


def comparatives(text: str) -> tuple[str, ...]:
    """The comparisons a question's words of degree allow: none without one ("was X released in 1999" asks
    for the year itself, not for one before it), both ways where it has words of both."""
    up, down = _compass(_COMPASS_MORE, text) or (bool(_UP.search(text)), bool(_DOWN.search(text)))
    if up != down:
        return ("gt", "ge") if up else ("lt", "le")
    return ("lt", "le", "gt", "ge") if up else ()


def counted_comparisons(text: str, ways: tuple[str, ...]) -> tuple[str, ...]:
    """The ways a count of neighbours compares: "more than 3 courses" leaves 3 out, "at least 3", "3 or more" take
    it in. Both had been built, and the 0.5B scorer chose "at least 1" for "more than one course" (blind questions
    on the university KG). Only for counts: read so on amounts too, one geography-demo check question lost F1 (the
    sampled questions it reaches, `bench.kgs --only`, session 51)."""
    inclusive = _INCLUSIVE.search(text) is not None
    return tuple(op for op in ways if (op in ("ge", "le")) == inclusive)


def in_time(text: str) -> bool:
    """Whether the question compares in time ("before 1700", "since 2019"): a year there is a point in time, which
    an amount is not, though its number may be one."""
    return bool(_IN_TIME.search(text))


def rankings(text: str) -> tuple[str, ...]:
    """The superlatives a question allows: by its superlative ("the oldest": ARGMIN, "the most": ARGMAX), else
    by its comparative ("which is bigger, X or Y"), else both. Read on dates as `_UP` says: "the oldest film"
    has the least year."""
    up, down = _compass(_COMPASS_MOST, text) or (bool(_UP_MOST.search(text)), bool(_DOWN_MOST.search(text)))
    if up == down:
        up, down = _compass(_COMPASS_MORE, text) or (bool(_UP.search(text)), bool(_DOWN.search(text)))
    if up != down:
        return ("ARGMAX",) if up else ("ARGMIN",)
    return ("ARGMAX", "ARGMIN")


def _compass(pattern: re.Pattern, text: str) -> tuple[bool, bool] | None:
    """(up, down) by the compass words of `pattern` in text, or None where it has none."""
    ways = {m.group(0).lower() for m in pattern.finditer(text)}
    if not ways:
        return None
    return any("north" in w or "east" in w for w in ways), any("south" in w or "west" in w for w in ways)


def is_superlative(word: str) -> bool:
    """ "largest", "earliest", "best", "southernmost", "most": an adjective's -est or -most form (by lemma, so
    "forest", "honest" and "almost" are not), the words that make one, or "first" and "last"."""
    if word in QUANTITY_SUPERLATIVES or word in ORDINAL_SUPERLATIVES:
        return True
    lemmas = getAllLemmas(word).get("ADJ", ())
    if len(word) > 4 and word.endswith("most"):
        return bool(lemmas)  # southernmost, uppermost; not the adverb "almost"
    return len(word) > 3 and word.endswith("est") and any(lemma != word for lemma in lemmas)


# The adjectives of a dimension that things hold as a value, never as a count of what they are tied to: "the
# longest river" is no river through the most states. "Most", "fewest" and the adjectives of size ("the largest
# club") may count; these, and "first" and "last", do not.
_MEASURED = frozenset({"long", "short", "high", "low", "tall", "old", "young", "new", "early", "late", "recent",
                       "heavy", "light", "wide", "narrow", "deep", "shallow", "fast", "slow", "close", "near", "far"})


def ranks_by_count(text: str, superlatives_at: tuple[int, ...]) -> bool:
    """Whether a ranking may be by how many things each is tied to: where "number of" ranks, or a superlative
    of the question (at `superlatives_at`, `superlative_offsets`) is no word of a measured dimension."""
    if _RANKED_BY.search(text):
        return True  # "the highest number of <noun>"
    words = [re.match(r"[a-z]+", text[at:].lower()) for at in superlatives_at]
    return not words or any(w is None or not _measures(w.group()) for w in words)


def _measures(word: str) -> bool:
    return word in ORDINAL_SUPERLATIVES or bool(_MEASURED & {word, *getAllLemmas(word).get("ADJ", ())})


def superlative_phrases(labels: list[str]) -> tuple[tuple[frozenset[str], ...], ...]:
    """The relation readings that hold a superlative, each as its words' forms: a relation `<superlative>_<noun>`,
    or `<adjective>_<noun>` whose adjective people say in the superlative ("the tallest peak of X" for a relation
    labelled "tall peak").

    Such a reading names a relation, not a ranking: "the <superlative> <noun> of X" walks that relation, and a
    question asks for a ranking only with a superlative that no relation spells (`without_named_superlatives`)."""
    phrases = []
    for label in dict.fromkeys(labels):
        tokens = re.findall(r"[a-z]+", label.lower())
        graded = _superlatives_of(tokens[0]) if len(tokens) > 1 else ()
        if len(tokens) > 1 and (any(map(is_superlative, tokens)) or graded):
            head = frozenset({tokens[0], *graded}) if graded else None
            phrases.append(tuple(head if i == 0 and head else frozenset({t}) if is_superlative(t)
                                 else frozenset(word_forms(t)) for i, t in enumerate(tokens)))
    return tuple(phrases)


def _superlatives_of(word: str) -> tuple[str, ...]:
    """The superlative forms of a gradable adjective ("tall" -> "tallest"); none for other words."""
    return getAllInflections(word, upos="ADJ").get("JJS", ()) if getAllLemmas(word).get("ADJ") else ()


def without_named_superlatives(text: str, phrases: tuple[tuple[frozenset[str], ...], ...]) -> str:
    """The text with each superlative blanked where it stands in a relation's reading, word by word ("the <superlative>
    <noun> of X", "its <superlative> <nouns>"); same length, so offsets still hold."""
    tokens = list(re.finditer(r"[a-z]+", text.lower()))
    blank = []
    for phrase in phrases:
        for i in range(len(tokens) - len(phrase) + 1):
            window = tokens[i : i + len(phrase)]
            if all(t.group() in forms for t, forms in zip(window, phrase)):
                blank += [t.span() for t in window if is_superlative(t.group())]
    for start, end in blank:
        text = text[:start] + " " * (end - start) + text[end:]
    return text


# "When did X first come out?", "where was X last seen?": "first" or "last" before a verb says when the act was done,
# not which of several things ranks first; after an article or a possessive it is an adjective again ("the first
# released album", "its last recorded song"), and before a noun it ranks ("the first film").
_ORDINAL_ADVERB = re.compile(r"(?<!\bthe )(?<!\bits )(?<!\btheir )(?<!'s )\b(first|last)\s+(?P<next>[a-z]+)",
                             re.IGNORECASE)


def graded_words(text: str, phrases: tuple[tuple[frozenset[str], ...], ...]) -> str:
    """The text with only the superlatives that may rank: those no relation's reading spells
    (`without_named_superlatives`) and no "first" or "last" that says when (`without_adverbs_of_time`)."""
    return without_compound_nouns(without_adverbs_of_time(without_named_superlatives(text, phrases)))


_ORDINAL_BEFORE = re.compile(r"\b(first|last)\s+(?P<next>[a-z]+)", re.IGNORECASE)


def without_compound_nouns(text: str) -> str:
    """The text with each "first" and "last" blanked where WordNet knows it and the next word as one noun: a "first
    cousin" or a "last name" ranks nothing (a blind royal probe's "Lena's first cousins" had ranked her kin by a
    year). Same length."""
    net = wordnet()

    def blank(match: re.Match) -> str:
        word, after = match.group(1), singular(match.group("next").lower())
        compound = net is not None and bool(net.synsets(f"{word.lower()}_{after}", pos="n"))
        return match.group(0).replace(word, " " * len(word), 1) if compound else match.group(0)

    return _ORDINAL_BEFORE.sub(blank, text)


def without_adverbs_of_time(text: str) -> str:
    """The text with each "first" and "last" blanked where it stands before a word that can only be a verb
    (lemminflect knows it as a verb and as no noun or adjective: "come", "released", not "release" or "film");
    same length, so offsets still hold. A software KG's "when did X first come out?" had ranked what depends on X."""
    def blank(match: re.Match) -> str:
        lemmas = getAllLemmas(match.group("next").lower())
        verb_only = bool(lemmas.get("VERB")) and not lemmas.keys() & {"NOUN", "ADJ", "PROPN"}
        word = match.group(1)
        return match.group(0).replace(word, " " * len(word), 1) if verb_only else match.group(0)

    return _ORDINAL_ADVERB.sub(blank, text)


def superlative_offsets(text: str, mentions: tuple[Mention, ...]) -> tuple[int, ...]:
    """Where the superlative words outside the names stand. How many there are bounds how many rankings a
    reading may nest ("which actor has starred in the most films" ranks once); the names after the first are
    what it counts ("the most horror movies", "the most screenplays for Spielberg's films")."""
    inside = [(m.start, m.end) for m in mentions]
    return tuple(w.start() for w in re.finditer(r"[a-z]+", text.lower())
                 if is_superlative(w.group()) and not any(start <= w.start() < end for start, end in inside))


def ranks_another(text: str, mentions: tuple[Mention, ...], asked: frozenset[str]) -> bool:
    """Whether a superlative adjective stands before a class noun other than the one asked for, or a phrase after
    it ranks it: "which city is the capital of the largest country" and "the capital of the country with the most
    people" rank countries; "what currency is used by the most countries" counts
    countries ("most" before a noun counts it) and ranks currencies, as "the actor in the most horror movies" counts
    movies (names before the noun do not rank it)."""
    for other in mentions:
        if other.kind != "class":
            text = text[: other.start] + " " * (other.end - other.start) + text[other.end :]
    for mention in mentions:
        names = {c.label for c in mention.candidates if c.kind == "class"}
        if mention.kind != "class" or not names or names & asked:
            continue
        before = re.findall(r"[a-z]+", text[: mention.start].lower())[-2:]
        if (before and before[-1] not in QUANTITY_SUPERLATIVES and is_superlative(before[-1])) or (
                len(before) == 2 and before[0] in ("most", "least")) or _ranked_after(text[mention.end :]):
            return True
    return False


def ranks_in_a_phrase(text: str, superlative_at: tuple[int, ...]) -> bool:
    """Whether the first superlative adjective stands in a phrase after a preposition, ranking the noun it governs,
    not the things asked for: "the capital of the largest country", "the river through the longest valley". A
    quantity's ("used by the most countries") still ranks what the question asks for, by a count."""
    if not superlative_at:
        return False
    word = re.match(r"[a-z]+", text[superlative_at[0]:].lower())
    before = re.findall(r"[a-z]+", text[: superlative_at[0]].lower())[-2:]
    if word is None or word.group() in QUANTITY_SUPERLATIVES or not before:
        return False
    return (before[-1] if before[-1] != "the" or len(before) < 2 else before[0]) in _PREPOSITIONS


_PREPOSITIONS = frozenset("of in on at by for from with to into through across over under near".split())

# A class noun, then a phrase that ranks it: "the <noun> with the largest ...", "the <noun> that has the most ...",
# "the <noun> whose <other noun> is the longest"
_RANKED_AFTER = re.compile(r"\s+(with|having|(that|which|who) (has|have|had)|whose(\s+[a-z]+){1,2} (is|are|was|were))"
                           r"\s+(the\s+)?(?P<word>[a-z]+)\b", re.IGNORECASE)


def _ranked_after(text: str) -> bool:
    """Whether the text after a class noun opens with a phrase that ranks that noun (`_RANKED_AFTER`)."""
    match = _RANKED_AFTER.match(text)
    return match is not None and is_superlative(match.group("word").lower())
