"""Words that name an entity other than by its whole label: a surname or first name, an abbreviation, a plural,
a keyword's name.

The linker matches labels (`linker.py`); this module adds what people write instead. "spielberg" names Steven
Spielberg, "Alice" Alice Novak, "US" names the United States, and a keyword in lower case that copies a name
(a tag "<first> <last>" beside the person <First> <Last>) is not what a question means where the name is
spelt the same. Each is read off the KG's own labels: their words, their capitals, their initials. No word list.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from lemminflect import getAllLemmas, getLemma

from .degree import QUANTITY_SUPERLATIVES
from .labels import Scored, keep_better, ranked
from .mentions import Candidate
from .words import ACRONYM_GLUE

if TYPE_CHECKING:
    from .label_db import LabelDB
    from .words import QuestionTokens


SCORE_NAME_PART = 0.7  # below every fuzzy match a name would get: only a free top_k slot takes it
SCORE_ACRONYM = 0.7  # as a name part: only a free slot takes it
# A name's opening words name it where one label opens so and goes on by at most this many words ("St Ann":
# St Ann Hospital), small words not counted ("Prince Edmund": Prince Edmund, Duke of Eastmere; a blind royal
# probe), of at most this many more characters.
OPENING_WORDS_LEFT, MAX_OPENING_CHARS = 2, 30
# A name's last word names it ("Spielberg": Steven Spielberg) in labels of two or three capitalised words, the
# first no stop word, where it ends half the labels holding it or more: on MoviesKG "spielberg" 2 of 2, "scorsese"
# 1 of 2; on the geography KG "north" 13 of 90 ("further north" had linked "Agincourt North"; session 11).
# Its first word names it the same way ("Alice": Alice Novak; issue 27: people at work say "who manages Alice?"),
# after a title that ends in a full stop ("Prof. Ada Whitfield": "Ada"), from three letters on, and where small words
# in lower case link the rest of the name ("Hugo": Hugo of Valdmar; a blind royal-lineage probe, session 59).
_NAME_WORD = re.compile(r"[A-Z][\w.'-]*")
_ACRONYM_WORD = re.compile(r"[A-Z][a-z]+")  # a capitalised word, itself no abbreviation
FIRST, LAST = 0, -1  # which word of a name `parts` reads
# A word opening more names than this whose small words link the rest is a title ("Prince": Prince Frederik of
# Varnland, Prince Anselm of Varnland, ...), not a first name (a blind royal probe's "Prince Edmund", session 59);
# the word after it is ("Lena": Princess Lena of Varnland)
MAX_LINKED_NAMES = 2
# A regnal number after a name ("Ulric I" opens "Ulric I of Valdmar"), which may fold to a stop word ("i")
_REGNAL = re.compile(r"x{0,3}(?:ix|iv|v?i{0,3})")
HEADED_WORDS = 3  # words of a name before its class's noun, at most ("the printer jam ticket": two)


def _name_word(words: list[str], at: int) -> str:
    """A name's last word, or its first after a title that ends in a full stop ("Prof. Ada Whitfield": Ada)."""
    if at == FIRST and len(words) >= 3 and words[0].endswith("."):
        return words[1]
    return words[at]


def _folded(word: str) -> str:
    """A name word as the folded keys hold it ("Prof." -> "prof")."""
    return re.sub(r"\W", "", word).casefold()


def _may_name(key_words: list[str], at: int, word: str) -> bool:
    """Whether `word` can be the name word of a folded label (a title's full stop is gone from the key)."""
    return word == key_words[-1] if at == LAST else word in key_words[:2 if len(key_words) >= 3 else 1]


class NameForms:
    """Surnames, first names and abbreviations of one KG's labels."""

    def __init__(self, data: "LabelDB", stop: frozenset[str]):
        self._d, self._stop = data, stop
        self._titles: dict[str, bool] = {}

    def parts(self, word: str, ends_only: bool = False) -> Scored:
        """Entities whose name ends with this word ("spielberg": Steven Spielberg) or, unless `ends_only` (a kind's
        head noun: "lion" for African Lion), opens it ("alice": Alice Novak), each where the word mostly does so
        among the labels holding it."""
        scored: Scored = {}
        if word in self._stop:
            return scored
        holding = self._d.postings(word) or ()  # the multi-word keys holding it
        for at, shortest in ((LAST, 4), (FIRST, 3)):
            if len(word) < shortest or (ends_only and at == FIRST):
                continue
            keys = [key for key in holding if _may_name(key.split(), at, word)]
            if 2 * len(keys) < len(holding):  # it mostly ends (opens) names; not "north" ("North Bay", "X North")
                continue
            keys = [key for key in keys if key.split()[0] not in self._stop
                    and len(self._unlinked(key.split()) if at == FIRST else key.split()) <= 3]
            linked: Scored = {}
            for records in self._d.records_of_keys(keys):
                for r in records:
                    record = self._d.record(r)
                    surface = record.surface.replace("_", " ").split()
                    written = record.label.replace("_", " ").split()  # with a title's full stop
                    if at == FIRST and len(surface) > 2 and self._title(_folded(surface[0])):
                        surface, written = surface[1:], written[1:]  # "Princess Lena of Varnland": "Lena"
                    # after a first name, small words may link the rest ("Hugo of Valdmar", "Ulric I of Valdmar")
                    named = [surface[0], *self._unlinked(surface[1:])] if at == FIRST else surface
                    if all(_NAME_WORD.fullmatch(w) for w in named) and _folded(_name_word(written, at)) == word:
                        keep_better(linked if named != surface else scored, record.entity, SCORE_NAME_PART, r)
            if not self._title(word):  # a title ("Prince Frederik of Varnland") is no name
                for entity, (score, r) in linked.items():
                    keep_better(scored, entity, score, r)
        return scored

    def holders(self, word: str) -> list[Candidate]:
        """Every entity a folded one-word name stands for (`parts`), ranked as the linker ranks them: a title before
        it chooses among them (engine.answer.titled), where the linker keeps `top_k`."""
        found = self.parts(word)
        return ranked(self._d, found, len(found))

    def _title(self, word: str) -> bool:
        """A word that opens more than MAX_LINKED_NAMES labels whose small words link the rest ("Princess")."""
        if word not in self._titles:
            opened = [key for key in self._d.keys_starting(word + " ", MAX_OPENING_CHARS)
                      if any(w in self._stop for w in key.split()[2:])]
            self._titles[word] = len(opened) > MAX_LINKED_NAMES
        return self._titles[word]

    def _unlinked(self, words: list[str]) -> list[str]:
        """A name's words less the small ones that link its parts ("of", "the"), written in lower case."""
        return [w for w in words if not (w.islower() and w.casefold() in self._stop)]

    def opening(self, key: str) -> Scored:
        """The entity whose name opens with these words and goes on for a word or two more: "St Ann" names St Ann
        Hospital, "Port Kessel" Port Kessel International. People drop the end of a long name, mostly the noun that
        says what it is. Where one label opens so, that one; where several do ("St Ann Cardiology" too), the one
        whose last words are its own class's name. Only for two words or more (one word is `parts`' rule)."""
        scored: Scored = {}
        words = key.split()
        if len(words) < 2 or words[0] in self._stop or (words[-1] in self._stop and not _REGNAL.fullmatch(words[-1])):
            return scored
        longer = [k for k in self._d.keys_starting(key + " ", MAX_OPENING_CHARS)
                  if len([w for w in k.split()[len(words):] if w not in self._stop]) <= OPENING_WORDS_LEFT]
        found = [(k, r) for k, records in zip(longer, self._d.records_of_keys(longer)) for r in records]
        if len(longer) > 1:  # the one that ends in its class's name
            found = [(k, r) for k, r in found if k[len(key) + 1 :] in self._class_names(self._d.record(r).entity)]
        if len({self._d.record(r).entity for _, r in found}) == 1:
            for _, r in found:
                keep_better(scored, self._d.record(r).entity, SCORE_NAME_PART, r)
        return scored

    def headed_before(self, ctx: "QuestionTokens", i: int, classes: set[str], used: list[bool]) -> tuple[int, Scored]:
        """(first word, members) named by the free words before token `i`, a noun of `classes` (`headed`): the most
        words first, at most HEADED_WORDS, none a stop word or taken by another mention."""
        start = i
        while start > 0 and i - start < HEADED_WORDS and not used[start - 1] and not ctx.stop[start - 1] \
                and ctx.contiguous[start - 1]:
            start -= 1
        for k in range(start, i):
            found = self.headed(ctx.folded[k:i], classes, ctx.top_k)
            if found:
                return k, found
        return i, {}

    def headed(self, words: list[str], classes: set[str], top_k: int) -> Scored:
        """The members of `classes` whose names hold every one of `words`, where at most `top_k` do: "the VPN
        ticket" names the ticket "VPN keeps disconnecting", "the payroll ticket" "Cannot access payroll system".
        People call a thing by a word of its name and the noun of its class; the class says which names to read,
        and a word many of them hold ("the laptop ticket" among five laptop tickets) names none. A name that is
        no more than the words is the linker's own match, not a part."""
        scored: Scored = {}
        if not words or any(w in self._stop or not _may_be_a_noun(w) for w in words):
            return scored
        keys = set(self._d.postings(words[0]) or ())
        for word in words[1:]:
            keys &= set(self._d.postings(word) or ())
        found = [(r, record) for records in self._d.records_of_keys(sorted(keys)) for r in records
                 if len((record := self._d.record(r)).surface.split()) > len(words)
                 and classes & set(self._d.entity(record.entity).classes)]
        if 0 < len({record.entity for _, record in found}) <= top_k:
            for r, record in found:
                keep_better(scored, record.entity, SCORE_NAME_PART, r)
        return scored

    def _class_names(self, entity: int) -> set[str]:
        return {name.replace("_", " ").casefold() for name in self._d.entity(entity).classes}

    def acronym(self, word: str) -> Scored:
        """Entities whose name this word abbreviates ("us": United States)."""
        scored: Scored = {}
        for r in self._d.acronym(word) if 2 <= len(word) <= 5 else ():
            keep_better(scored, self._d.record(r).entity, SCORE_ACRONYM, r)
        return scored


def _may_be_a_noun(word: str) -> bool:
    """A word English uses as a noun, or none it knows ("vpn"): "the payroll ticket", not "the oldest ticket"."""
    lemmas = getAllLemmas(word)
    return not lemmas or "NOUN" in lemmas or "PROPN" in lemmas


def names_over_keywords(entities: list[Candidate], words: list[str],
                        class_words: dict[str, list[str]]) -> list[Candidate]:
    """Keywords (labels in lower case) that copy a name yield to the names (capitalised labels) spelt the same.

    MoviesKG tags films with keywords that copy names: the tag "harrison ford" beside the person, "scorsese"
    beside Martin Scorsese. "avg release year of harrison ford films" averaged the tagged films. A keyword of
    English words ("murder", "horror") is a topic in its own right, beside the film "Murder!"; and a keyword
    stays where the question's `words` name its class ("tagged"), but not where they count it: "which Nolan film
    has the most tags" asks of Christopher Nolan's films."""
    names = [c for c in entities if c.label != c.label.casefold()]
    keywords = [c for c in entities if c.label == c.label.casefold() and any(ch.isalpha() for ch in c.label)
                and not all(map(is_english_word, re.findall(r"[a-z]+", c.label)))]
    if not names or not keywords:
        return entities
    words = [w for i, w in enumerate(words) if not _counts(words[:i])]
    forms = {lemma for word in words for lemmas in getAllLemmas(word).values() for lemma in lemmas} | set(words)
    named_classes = {name for word in forms for name in class_words.get(word, ())}
    return [c for c in entities if c not in keywords or set(c.classes) & named_classes]


def _counts(before: list[str]) -> bool:
    """Whether the words before a noun count it: "the most tags", "how many tags", "the number of tags"."""
    return bool(before) and (before[-1] in (*QUANTITY_SUPERLATIVES, "many") or before[-2:] == ["number", "of"])


def is_english_word(word: str) -> bool:
    """A word English has ("common", "stone"), not a surname ("spielberg")."""
    return bool(getAllLemmas(word))


def initials(surface: str) -> str | None:
    """The initials (folded) of a label of two to five capitalised words, glue words left out: "United
    States" -> "us"; None for any other label."""
    words = [w for w in surface.replace("_", " ").split() if w.casefold() not in ACRONYM_GLUE]
    if 2 <= len(words) <= 5 and all(_ACRONYM_WORD.fullmatch(w) for w in words):
        return "".join(w[0] for w in words).casefold()
    return None


def singular_key(key: str, stop: frozenset[str]) -> str | None:
    """The normalised label a plural names in the singular: "comedies" -> "comedy", "romantic comedies" ->
    "romantic comedy". Only the last word is read back (lemminflect's noun lemma, by rule where its lexicon lacks
    the word: "thrillers"), and only where it is a plural; None for a word of grammar ("'s", "has": "ha") or
    of the schema (`stop`), which names a class, not an entity."""
    *head, last = key.split()
    lemma = next(iter(getLemma(last, upos="NOUN")), last)
    if lemma == last or len(lemma) < 3 or not last.endswith("s") or last in stop:
        return None
    return " ".join([*head, lemma])
