"""Entity linking: find the entities, literals and classes a question names.

The start set of the reasoning search (method.md step 3) is what the question names: entities found by their
labels, numbers and dates as literals, and words that name a schema class ("films", "countries"). `LabelIndex` reads
every label of the KG once (engine.answer.labels: one streaming pass over an embedded store), with each entity's
classes, into a SQLite file beside the other per-KG caches, keyed on the store fingerprint (engine.answer.label_db),
and looks labels up there: nothing is held in memory but what questions have read.

How a question is linked (`LabelIndex.link`):

* The question is cut into tokens; every n-gram (longest first) is looked up by its normalised form: case-folded,
  accents stripped, apostrophes dropped, other punctuation a space, "&" read as "and". A label that matches character
  for character scores 1.0, a normalised match 0.9, a match with the leading "the" dropped, the spaces removed
  ("spiderman") or a "<head> of <noun>" turned about ("health minister") 0.85, a fuzzy match (typos, by edit
  distance) 0.5-0.8. Longer spans win over the shorter ones they overlap; at equal length the better score wins.
* Spans made only of stop words or schema words ("movies", "direct", "films" for a class `movie`) are not linked to
  entities unless capitalised mid-sentence; nor are words of one or two letters. Fuzzy matching only tries spans of
  five or more letters that start and end with a content word, and a single word only when it is no word of any
  label (a typo, not a different word).
* An adjective of place names the place it derives from: "japanese cities", Japan (engine.answer.derive).
* A plural names what the KG labels in the singular where that is a value (a tag or category), and otherwise the
  class of that thing, as a noun after a superlative does (`kind_words.py`); else the things whose names end in its
  singular ("the lions": African Lion).
* Numbers and ISO dates become literals (years 1000..2100 get the class "year").
* A short string the KG holds (a status "On hold") is an entity of the index (kg_adapters.text_values) named as
  written or normalised, never fuzzily: near a job title "Manager" lie the forms of a common word ("manages"); in
  lower case too where it is only another form of a schema word ("still open" beside `openedOn`).
* Class words (names and labels of schema classes, their plurals, the initials of a label in capitals: "MPs", and
  with an embedder the words that mean one: engine.answer.synonyms) become class mentions.
* Text in square brackets (`what did [Ridley Scott] direct`) is a mention as given: exact label, then normalised,
  then fuzzy; nothing else is tried for it, and when nothing matches it stays a mention without candidates.
* Each mention keeps its best `top_k` entities (deferred disambiguation): same normalised label, or fuzzy ties, are
  decided later by execution and scoring. Ties are broken by how many triples the entity is part of.
* A word that ends names ("spielberg") also names the best-connected such name in a slot label matches leave
  free (`name_forms.py`): MoviesKG's tag "spielberg" and Steven Spielberg are both tried. An English word
  ("common": Ealing Common) does so only capitalised where capitals tell names. A long name's opening words,
  capitalised, name it where they match no label ("St Ann": St Ann Hospital; `NameForms.opening`). Free words of
  a name before its class's noun name it where at most `top_k` such names hold them ("the VPN ticket": the ticket
  "VPN keeps disconnecting"; `NameForms.headed`).
* A keyword (a label in lower case: a tag "harrison ford") yields to a name (a capitalised label) that the
  same words name, unless the question names the keyword's class.
* A word in capitals where capitals tell names ("US", "UK") also names the best-connected name of two to five
  capitalised words whose initials spell it, "of", "the" and "and" left out ("United States"), in a free slot.
"""

from __future__ import annotations

import copy
import logging
import os
import re
import sqlite3
import time
import uuid
from pathlib import Path

from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from kg_adapters.base import KGStore
from kg_adapters.schema import Schema
from kg_adapters.text_values import text_value

from .derive import PlaceAdjectives
from .kind_words import after_superlative, as_kinds, at_most
from .label_db import LabelDB, write_index
from .labels import Scored, cache_name, keep_better, ranked, read_labels
from .mentions import Candidate, Linking, Mention, literal_candidate
from .name_forms import NameForms, is_english_word, names_over_keywords, singular_key
from .retrieve import TextEmbedder
from .synonyms import SchemaSynonyms, mark_schema_words
from .words import (ARTICLES, STOP, QuestionTokens, class_initials, class_words, normalise, schema_tokens, stop_words,
                    surface, written_initials)

log = logging.getLogger(__name__)

__all__ = ["Candidate", "LabelIndex", "Linking", "Mention", "normalise"]

SCORE_EXACT = 1.0
SCORE_NORMALISED = 0.9
SCORE_VARIANT = 0.85  # leading "the" dropped, spaces removed
SCORE_CLASS = 0.95
SCORE_FUZZY_MAX = 0.8
_BRACKET = re.compile(r"\[([^\[\]]+)\]")
_POSSESSIVE = re.compile(r"['’]s$")  # a possessive ending: "Tarantino's"


class LabelIndex:
    def __init__(self, data: LabelDB, schema: Schema, embedder: TextEmbedder | None = None):
        self._d = data
        self.synonyms = SchemaSynonyms(schema, embedder) if embedder is not None else None
        self.class_words = class_words(schema)  # normalised word(s) -> class names
        self.class_initials = class_initials(schema, self.class_words)  # "mp" -> the class "member of parliament"
        self.stop = stop_words(schema, self.class_words)
        self.spelt = schema_tokens(schema)  # the schema's own words, without their other forms
        self.places = PlaceAdjectives(data, schema, self.class_words)
        self.forms = NameForms(data, self.stop)

    # ------------------------------------------------------------ building
    @classmethod
    def build(cls, store: KGStore, schema: Schema, cache_dir: str | Path,
              embedder: TextEmbedder | None = None) -> "LabelIndex":
        """Open (or first write, to cache_dir/labels) the index of every label and entity class of the KG. With
        an `embedder`, words the schema does not spell but means ("films" for `movie`) count as schema words."""
        path = Path(cache_dir) / "labels" / f"{cache_name(store, schema)}.sqlite"
        if path.is_file():
            try:
                return cls(LabelDB(path), schema, embedder)
            except (sqlite3.Error, KeyError, ValueError) as err:  # a broken cache is rebuilt, never fatal
                log.warning("label index cache %s unreadable (%s); rebuilding", path, err)
        started = time.perf_counter()
        scratch = path.with_name(f"{path.stem}.scratch{os.getpid()}-{uuid.uuid4().hex[:8]}")
        write_index(path, read_labels(store, schema, scratch))
        data = LabelDB(path)
        log.info("label index: %d labels of %d entities in %.1f s", data.labels, data.entities,
                 time.perf_counter() - started)
        return cls(data, schema, embedder)

    def over(self, data: LabelDB) -> "LabelIndex":
        """This linker (schema words, synonyms, place classes) over other labels: a few read for one question."""
        other = LabelIndex.__new__(LabelIndex)  # a plain linker, whatever kind of index this one is
        other.__dict__.update(self.__dict__)
        other._d = data
        other.places, other.forms = copy.copy(self.places), NameForms(data, self.stop)
        other.places._d = data
        return other

    def close(self) -> None:
        self._d.close()

    # ------------------------------------------------------------ queries
    def __len__(self) -> int:
        return self._d.labels

    def classes_of(self, iri: str) -> tuple[str, ...]:
        e = self._d.entity_of(iri)
        return self._d.entity(e).classes if e is not None else ()

    def label_of(self, iri: str) -> str | None:
        e = self._d.entity_of(iri)
        return self._d.first_label(e) if e is not None else None

    def lookup(self, label: str, top_k: int = 2) -> list[Candidate]:
        """Entities with this label: exact, then normalised, then fuzzy."""
        return self._lookup_bracketed(label, top_k)

    def closest(self, text: str, n: int = 5) -> list[str]:
        """The labels nearest to `text`, for "not found, did you mean ..." replies (LabelDB.closest)."""
        return self._d.closest(normalise(text), n)

    # ------------------------------------------------------------ linking
    def link(self, question: str, top_k: int = 2) -> Linking:
        """The mentions of `question`, each with its best candidates; see the module docstring."""
        d = self._d
        mentions: list[Mention] = []
        taken: list[tuple[int, int]] = []
        for m in _BRACKET.finditer(question):
            raw = m.group(1)
            inner = raw.strip()
            start = m.start(1) + (len(raw) - len(raw.lstrip()))
            cands = self._lookup_bracketed(inner, top_k)
            if not cands:
                literal = literal_candidate(inner)
                cands = [literal] if literal else []
            mentions.append(Mention(inner, start, start + len(inner), tuple(cands), bracketed=True))
            taken.append((m.start(), m.end()))

        ctx = QuestionTokens.of(question, taken, self.stop, top_k)
        if self.synonyms is not None:
            mark_schema_words(ctx, self.synonyms, lambda word, written: self._exact(word, written, top_k, ctx.case_matters))
        n = len(ctx.toks)
        stop, capital, folded = ctx.stop, ctx.capital, ctx.folded
        spans: list[tuple[int, float, int, int, int, list[Candidate]]] = []  # (ntok, score, loose, i, j, cands)
        exact: list[tuple[int, int]] = []
        unmatched: list[tuple[int, int]] = []
        max_n = max(d.max_tokens, 1)

        def add(i: int, j: int, cands: list[Candidate]) -> None:
            loose = (stop[i] and not capital[i]) + (stop[j - 1] and not capital[j - 1])
            spans.append((j - i, cands[0].score, loose, i, j, cands))

        for i in range(n):
            for j in range(i + 1, min(n, i + max_n) + 1):
                if j - 1 > i and not ctx.contiguous[j - 2]:
                    break
                cands = self._span_candidates(ctx, i, j, fuzzy=False)
                if cands:
                    add(i, j, cands)
                    exact.append((i, j))
                else:
                    unmatched.append((i, j))
        # typos: only spans whose content words no exact match already covers
        # ("did Brown Eyes" must not fuzzy-match "Big Brown Eyes" when "Brown Eyes" is a label)
        for i, j in unmatched:
            content = [k for k in range(i, j) if not stop[k] and not folded[k].isdigit()]
            if not content or any(i <= a and b <= j and a <= content[0] and content[-1] < b for a, b in exact):
                continue
            cands = self._span_candidates(ctx, i, j, fuzzy=True)
            if cands:
                add(i, j, cands)
        # longest first; then the better match; then the span not starting/ending on a stop word
        spans.sort(key=lambda s: (-s[0], -s[1], s[2], s[3]))
        used, chosen = [False] * n, []
        for _, _, _, i, j, cands in spans:
            if not any(used[i:j]):
                used[i:j] = [True] * (j - i)
                chosen.append((i, j, cands))
        for i, j, cands in chosen:  # "the VPN ticket": a class noun after words of a member's name names it
            i, cands = self._headed(ctx, i, cands, used) if all(c.kind == "class" for c in cands) else (i, cands)
            start, end = ctx.toks[i].start(), ctx.toks[j - 1].end()
            mentions.append(Mention(question[start:end], start, end, tuple(cands)))

        mentions.sort(key=lambda m: m.start)
        classes = tuple(dict.fromkeys(c.label for m in mentions for c in m.candidates if c.kind == "class"))
        return Linking(question, tuple(mentions), classes)

    def _span_candidates(self, ctx: QuestionTokens, i: int, j: int, fuzzy: bool) -> list[Candidate]:
        ntok = j - i
        key = " ".join(ctx.folded[i:j])
        surface = " ".join(t.group() for t in ctx.toks[i:j])
        only_stop = all(ctx.stop[i:j])
        any_capital = any(ctx.capital[i:j])

        literal = literal_candidate(surface) if ntok == 1 else None  # a number or a date
        words = self.class_words
        class_names = words.get(key) or (words.get(key.replace(" ", "")) if ntok > 1 else None) or ()
        if not class_names and key in ctx.synonym_classes:  # "films" for the class movie
            class_names = (ctx.synonym_classes[key],)
        if not class_names and ntok == 1 and ctx.case_matters:  # "MPs": a class label's initials
            class_names = self.class_initials.get(written_initials(surface), ())
        class_cands = [
            Candidate("class", name, None, SCORE_CLASS if not any_capital else SCORE_NORMALISED) for name in class_names
        ]
        # a title made of common words ("All of Me") is taken only where it ends the question; "the film" before
        # a bracketed "[Eye of God]" ends the unbracketed words, not the question
        closing = ntok >= 2 and j == len(ctx.toks) and ctx.last_ends and not class_names
        entity_allowed = (not only_stop or any_capital or closing) and not (ntok == 1 and len(key) <= 2 and not any_capital)
        if literal is not None:
            entity_allowed = True
        elif class_cands and not any_capital:
            entity_allowed = False
        entities: list[Candidate] = []
        if not entity_allowed and ntok == 1 and not class_cands and key not in self.spelt and key not in STOP:
            # a string the KG holds, written as it holds it, over another form of a schema word ("still open"
            # beside `openedOn`): only the schema's own words keep a value's name from a question
            entities = [c for c in self._exact(key, surface, ctx.top_k, case=False) if text_value(c.iri)]
        if entity_allowed:
            labelled = self._exact(key, surface, ctx.top_k, case=ctx.case_matters)
            if not labelled and _POSSESSIVE.search(surface):  # "Tarantino's films" names Tarantino
                key, surface = key[:-1], _POSSESSIVE.sub("", surface)
                labelled = self._exact(key, surface, ctx.top_k, case=ctx.case_matters)
            if not labelled and not any_capital:  # KGs label a kind in the singular: "comedies" names Comedy
                labelled, kinds = self._singular(key, ctx.top_k)
                class_cands = class_cands or ([] if labelled else kinds)
            elif labelled and not any_capital and after_superlative(ctx, i):  # "the largest <noun>": its class
                labelled, kinds = as_kinds(labelled, self._d.described, SCORE_VARIANT)
                class_cands = class_cands or ([] if labelled else kinds)
            # keywords yield before the free slots are filled ("Hitchcock": the tag's slot goes to the person)
            # and after (a surname filled in beside the tag "scorsese")
            entities = names_over_keywords(self.places.with_derived(ctx, j, key, labelled), ctx.folded,
                                           self.class_words)
            if ntok == 1 and len(entities) < ctx.top_k and (ctx.capital[i] or not is_english_word(key)):
                # an English word ("common", "stone") names a person only written as a name: "Stone films"
                entities += self._free_slots(entities, self.forms.parts(key), ctx.top_k - len(entities))
            elif ntok == 1 and not entities and not class_cands and (singular := singular_key(key, self.stop)):
                entities = self._free_slots([], self.forms.parts(singular, ends_only=True), ctx.top_k)  # "lions"
            if ntok == 1 and len(entities) < ctx.top_k and ctx.case_matters and surface.isupper():
                entities += self._free_slots(entities, self.forms.acronym(key), 1)
            entities = names_over_keywords(entities, ctx.folded, self.class_words)
            if not entities and ntok >= 2 and ctx.capital[i]:  # "St Ann": the one name that opens so
                entities = self._free_slots([], self.forms.opening(key), ctx.top_k)
            if not entities and fuzzy and self._fuzzy_allowed(ctx, i, j, key):
                entities = self._fuzzy(key, ctx.top_k, blocking=ctx.folded[i:j] if ntok > 1 else None)
        if literal is not None:
            return [literal, *entities]
        if class_cands and entities:
            return [*entities, *class_cands]
        return class_cands or entities

    def _singular(self, key: str, top_k: int) -> tuple[list[Candidate], list[Candidate]]:
        """(values, classes) a plural names through its singular (`name_forms.singular_key`), as sure as a variant:
        a kind (`kind_words`): a value with that label, or the class of a thing with facts of its own."""
        singular = singular_key(key, self.stop)
        found = self._exact(singular, "", top_k, case=False) if singular else []
        return as_kinds(at_most(found, SCORE_VARIANT), self._d.described, SCORE_VARIANT)

    def _headed(self, ctx: QuestionTokens, i: int, cands: list[Candidate], used: list[bool]) -> tuple[int, list]:
        """(first token, candidates): a class noun's mention, with the member its free words before it name."""
        k, found = self.forms.headed_before(ctx, i, {c.label for c in cands}, used)
        return (k, [*self._free_slots([], found, ctx.top_k), *cands]) if found else (i, cands)

    def _free_slots(self, entities: list[Candidate], scored: Scored, slots: int) -> list[Candidate]:
        """The best-connected of `scored` not among `entities`, for `slots` free places."""
        taken = {c.iri for c in entities}
        return [c for c in self._ranked(scored, len(scored)) if c.iri not in taken][:slots]

    def _fuzzy_allowed(self, ctx: QuestionTokens, i: int, j: int, key: str) -> bool:
        """Typo matching only for spans that look like names, never for common words."""
        folded, stop, capital = ctx.folded, ctx.stop, ctx.capital
        ntok = j - i
        letters = len(key.replace(" ", ""))
        if letters < 5 or ntok > 8:
            return False
        if ntok == 1:  # one word: only a word no label has (a typo, not another word, not "<adjective> <noun>s"),
            # nor the plural of one ("<label>s" is no typo of "<label>": `_singular` decides what it names)
            typo = (letters >= 6 and not folded[i].isdigit() and not self._d.in_vocab(folded[i])
                    and not ((plural_of := singular_key(folded[i], self.stop)) and self._d.in_vocab(plural_of)))
            return typo and not self.places.before_class(ctx, i)
        content = sum(not x and not w.isdigit() for x, w in zip(stop[i:j], folded[i:j]))
        if content == 0:
            return False
        first_ok = not stop[i] or capital[i] or folded[i] in ARTICLES or content >= 2
        last_ok = not stop[j - 1] or capital[j - 1]
        return first_ok and last_ok

    def _exact(self, key: str, surface: str, top_k: int, case: bool = True) -> list[Candidate]:
        """Labels with this normalised form: 1.0 where written the same, else 0.9; variants 0.85. Without `case` (a
        question with no telling capitals) "written the same" ignores case."""
        d = self._d
        scored: Scored = {}
        wanted = surface if case else surface.casefold()
        for r in d.records(key):
            record = d.record(r)
            same = (record.surface if case else record.surface.casefold()) == wanted
            keep_better(scored, record.entity, SCORE_EXACT if same else SCORE_NORMALISED, r)
        compact = key.replace(" ", "")
        stripped = key[4:] if key.startswith("the ") and len(key) > 6 else None
        for variant in {key, compact, stripped} - {None}:
            records = [*d.variant_records(variant), *(d.records(variant) if variant != key else ())]
            for r in records:
                if text_value(d.entity(d.record(r).entity).iri) is None:  # a string is named as written
                    keep_better(scored, d.record(r).entity, SCORE_VARIANT, r)
        return self._ranked(scored, top_k, surface if case else None)

    def _fuzzy(self, key: str, top_k: int, max_d: int | None = None, blocking: list[str] | None = None) -> list[Candidate]:
        """Labels within a small edit distance of `key`, scored 0.8 * (1 - distance / length). With `blocking` (the
        words of a multi-word span) only labels sharing one of its content words are compared: a typo rarely hits
        every word. Otherwise, or when no word is known, every label of a near length is compared."""
        d = self._d
        letters = len(key.replace(" ", ""))
        if max_d is None:
            max_d = 1 if letters < 9 else 2 if letters < 16 else 3
        pools: list[list[str]] = []
        if blocking:
            lists = [found for w in set(blocking) if w not in self.stop and (found := d.postings(w))]
            if lists:
                pools = [lists[0]] if len(lists) == 1 else [list(set().union(*lists))]
        if not pools:
            pools = [d.keys_of_length(n) for n in range(len(key) - max_d, len(key) + max_d + 1)]
        scored: Scored = {}
        for pool in pools:
            if not pool:
                continue
            for other, dist in _nearest(key, pool, max_d):
                score = round(SCORE_FUZZY_MAX * (1 - dist / max(len(key), len(other))), 4)
                for r in d.records(other):
                    keep_better(scored, d.record(r).entity, score, r)
                for r in d.variant_records(other):
                    keep_better(scored, d.record(r).entity, round(score * 0.95, 4), r)
        found = self._ranked(scored, top_k)  # a string is never a typo's match: near "Manager" lies "manages"
        if any(text_value(c.iri) for c in found):
            found = [c for c in self._ranked(scored, len(scored)) if text_value(c.iri) is None][:top_k]
        return found

    def _lookup_bracketed(self, text: str, top_k: int) -> list[Candidate]:
        key, written = normalise(text), surface(text)
        if not key:
            return []
        d = self._d
        exact = {d.record(r).entity: (SCORE_EXACT, r) for r in d.records(key) if d.record(r).label == text}
        if exact:
            return self._ranked(exact, top_k, text)
        found = self._exact(key, written, top_k)
        if found:
            return found
        letters = len(key.replace(" ", ""))
        if letters < 4:
            return []
        return self._fuzzy(key, top_k, max_d=1 if letters < 7 else 2 if letters < 13 else 3)

    def _ranked(self, scored: Scored, top_k: int, text: str | None = None) -> list[Candidate]:
        return ranked(self._d, scored, top_k, text)


def _nearest(key: str, choices: list[str], max_d: int) -> list[tuple[str, int]]:
    hits = process.extract(key, choices, scorer=Levenshtein.distance, score_cutoff=max_d, limit=20)
    return [(h[0], int(h[1])) for h in hits]
