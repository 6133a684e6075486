"""Entity linking: find the entities, literals and classes a question names.

The start set of the reasoning search (method.md step 3) is what the question
names: entities found by their labels, numbers and dates as literals, and words
that name a schema class ("films", "countries"). `LabelIndex` reads every label of
the KG once through `KGStore.select`, together with each entity's classes, and
keeps it on disk next to the other per-KG caches, keyed on the store fingerprint.

How a question is linked (`LabelIndex.link`):

* The question is cut into tokens; every n-gram (longest first) is looked up by its
  normalised form: case-folded, accents stripped, apostrophes dropped, other
  punctuation a space, "&" read as "and". A label that matches character for
  character scores 1.0, a normalised match 0.9, a match with the leading "the"
  dropped or the spaces removed ("spiderman") 0.85, a fuzzy match (typos, by
  Levenshtein distance on the normalised form) 0.5-0.8.
* Longer spans win over the shorter spans they overlap ("blade runner" beats
  "blade"); at equal length the better score wins.
* Spans made only of stop words, question words ("movies", "direct", "starred")
  or words of the schema are not linked to entities unless they are capitalised
  mid-sentence, so "what movies did ridley scott direct" links neither "movies"
  nor "direct" to the MoviesKG tags of those names. Words of one or two letters
  are never linked on their own. Fuzzy matching only tries spans of five or more
  letters that start and end with a content word, and a single word only when it
  is no word of any label (a typo, not a different word).
* Numbers and ISO dates become literals (years 1000..2100 get the class "year").
* Class words (names and labels of schema classes, their plurals, and a small
  synonym table: film/movie, people/person, nation/country, town/city) become
  class mentions.
* Text in square brackets (`what did [Ridley Scott] direct`) is a mention as given:
  exact label, then normalised, then fuzzy; nothing else is tried for it, and
  when nothing matches it stays a mention without candidates.
* Each mention keeps its best `top_k` entities (deferred disambiguation): same
  normalised label, or fuzzy ties, are decided later by execution and scoring.
  Ties are broken by how many triples the entity is part of.
"""

from __future__ import annotations

import hashlib
import logging
import os
import pickle
import re
import threading
import time
import unicodedata
import uuid
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from kg_adapters.base import RDF_TYPE, RDFS_LABEL, SKOS_PREF_LABEL, KGError, KGStore, Term
from kg_adapters.naming import local_name
from kg_adapters.schema import OBJECT, SUBJECT, ClassInfo, Role, Schema

try:  # fast edit distance; a slower pure-Python fallback keeps the module importable without it
    from rapidfuzz import fuzz as _rf_fuzz
    from rapidfuzz import process as _rf_process
    from rapidfuzz.distance import Levenshtein as _rf_lev
except ImportError:  # pragma: no cover - exercised only where rapidfuzz is missing
    _rf_fuzz = _rf_process = _rf_lev = None

log = logging.getLogger(__name__)

INDEX_VERSION = 2
_QUERY_TIMEOUT_S = 120.0
_MAX_ROWS_TOTAL = 5_000_000  # labels/roles read from one KG, a guard for huge endpoints

SCORE_EXACT = 1.0
SCORE_NORMALISED = 0.9
SCORE_VARIANT = 0.85  # leading "the" dropped, spaces removed
SCORE_CLASS = 0.95
SCORE_FUZZY_MAX = 0.8


# ====================================================================== results
@dataclass(frozen=True)
class Candidate:
    kind: str  # "entity" | "literal" | "class"
    label: str  # the KG label (entity), the value (literal), or the class name
    iri: str | None  # entity IRI
    score: float  # 1.0 exact, lower for normalised/fuzzy
    classes: tuple[str, ...] = ()  # schema class names of the entity; literal: its kind, e.g. ("year",)
    literal_kind: str | None = None  # "integer" | "decimal" | "date" for literals (engine.sexpr.Literal.kind)


@dataclass(frozen=True)
class Mention:
    text: str
    start: int  # span in the question (inside the brackets for a bracketed mention)
    end: int
    candidates: tuple[Candidate, ...]  # best first; at most top_k entities
    bracketed: bool = False  # written as [text] by the user

    @property
    def kind(self) -> str | None:
        return self.candidates[0].kind if self.candidates else None

    @property
    def top(self) -> Candidate | None:
        return self.candidates[0] if self.candidates else None


@dataclass(frozen=True)
class Linking:
    question: str
    mentions: tuple[Mention, ...]  # in question order; entity, literal and class mentions
    classes: tuple[str, ...]  # schema classes named by words of the question

    def entity_mentions(self) -> tuple[Mention, ...]:
        return tuple(m for m in self.mentions if any(c.kind == "entity" for c in m.candidates))

    def literal_mentions(self) -> tuple[Mention, ...]:
        return tuple(m for m in self.mentions if m.kind == "literal")

    def unresolved(self) -> tuple[Mention, ...]:
        """Bracketed mentions no label matched: the UI answers "not found, did you mean ..."."""
        return tuple(m for m in self.mentions if not m.candidates)

    def plain_question(self) -> str:
        """The question with the square brackets of bracketed mentions removed."""
        return self._rewrite(lambda m: m.text)

    def anonymised(self) -> str:
        """Each linked entity or literal replaced by its top candidate's class name (or literal kind)."""

        def replacement(m: Mention) -> str:
            top = m.top
            if top is None or top.kind == "class":
                return m.text
            return top.classes[0] if top.classes else top.kind

        return self._rewrite(replacement)

    def _rewrite(self, replace) -> str:
        q = self.question
        out, pos = [], 0
        for m in sorted(self.mentions, key=lambda m: m.start):
            start, end = m.start, m.end
            if m.bracketed:  # drop the brackets (and spaces inside them) with the mention
                left = len(q[:start].rstrip())
                right = end + (len(q[end:]) - len(q[end:].lstrip()))
                if left > 0 and q[left - 1] == "[" and right < len(q) and q[right] == "]":
                    start, end = left - 1, right + 1
            out.append(q[pos:start])
            text = replace(m)
            if m.bracketed and start > 0 and (q[start - 1].isalnum() or q[start - 1] == "]"):
                text = " " + text
            if m.bracketed and end < len(q) and (q[end].isalnum() or q[end] == "["):
                text = text + " "
            out.append(text)
            pos = end
        out.append(q[pos:])
        return re.sub(r"\s+", " ", "".join(out)).strip()


# ================================================================ normalisation
_TOKEN = re.compile(r"\d{4}-\d{2}-\d{2}(?![\w-])|\d+\.\d+(?![\w.])|\w+(?:['’`]\w+)*|&", re.UNICODE)
_APOSTROPHES = str.maketrans("", "", "'’`")
_BRACKET = re.compile(r"\[([^\[\]]+)\]")
_YEAR = re.compile(r"\d{4}")
_INTEGER = re.compile(r"\d+")
_DECIMAL = re.compile(r"\d+\.\d+")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _fold(token: str) -> str:
    """Case-folded, accents stripped, apostrophes removed; "&" reads "and"."""
    if token == "&":
        return "and"
    text = unicodedata.normalize("NFKD", token)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return text.casefold().translate(_APOSTROPHES)


def _tokens(text: str) -> list[re.Match]:
    return list(_TOKEN.finditer(text))


def normalise(text: str) -> str:
    """The lookup key of a label or a span: folded tokens joined by single spaces."""
    return " ".join(_fold(m.group()) for m in _tokens(text))


def _surface(text: str) -> str:
    """Tokens as written (case and accents kept), for telling exact from normalised matches."""
    return " ".join(m.group() for m in _tokens(text))


# ================================================================ word lists
_STOP = frozenset(
    """
    a an the of in on at to for from by with without about as into onto than and or nor but not no yes
    is are was were be been being am do does did done doing has have had having
    what which who whom whose when where why how that this these those it its itself
    he she they them his her hers their theirs i me my mine you your yours we our ours us one ones
    can could would should will shall may might must there here some any all each every many much
    more most other others another same such only also just very too so then if else both either
    neither up down out over under after before between during again ever since until while
    give show list tell name names find get please let know want like
    movie movies film films picture pictures flick flicks
    actor actors actress actresses act acts acted acting star stars starred starring appear appears
    appeared appearing feature features featured featuring cast casts casting role roles play plays
    played playing direct directs directed directing director directors write writes wrote written
    writing writer writers screenwriter screenwriters screenplay screenplays produce produced producer
    release releases released releasing year years date dates genre genres language languages
    tag tags tagged describe describes described describing description descriptions word words topic
    topics theme themes subject subjects type types kind kinds sort sorts category categories
    person persons people someone somebody anyone thing things main primary total number count
    often time times first last latest earliest newest oldest same together share shared sharing
    also made make makes making come came comes belong belongs belonged associated related
    rating ratings rated vote votes popular famous known good bad new old great best worst top
    story stories script scripts creator creators fall falls world whole entire
    """.split()
)
_ARTICLES = frozenset({"the", "a", "an"})
_SYNONYMS = {
    "movie": ("film", "picture", "flick"),
    "film": ("movie", "picture"),
    "person": ("people", "persons"),
    "country": ("nation", "state"),
    "city": ("town",),
}


def _plural(word: str) -> str:
    if word.endswith("y") and len(word) > 2 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    return word + "s"


def _word_forms(word: str) -> set[str]:
    """A schema word and its plain inflections: directed -> direct, directs, director, directing."""
    forms = {word, _plural(word)}
    if word.endswith("ed") and len(word) > 4:
        stem = word[:-2]
        forms |= {stem, stem + "s", stem + "or", stem + "er", stem + "ing", stem + "e", stem + "es"}
    if word.endswith("s") and len(word) > 3:
        forms.add(word[:-1])
    return forms


def _schema_words(schema: Schema) -> set[str]:
    words: set[str] = set()
    for item in (*schema.classes, *schema.relations):
        texts = [item.name.replace("_", " "), item.label]
        if hasattr(item, "reverse_label"):
            texts.append(item.reverse_label)
        for text in texts:
            for token in normalise(text).split():
                if len(token) > 1 and not token.isdigit():
                    words |= _word_forms(token)
    return words


def _class_words(schema: Schema) -> dict[str, list[str]]:
    """Words naming each class: its name and label, their plurals and a few synonyms."""
    class_words: dict[str, list[str]] = defaultdict(list)
    for info in schema.classes:
        bases = {normalise(info.name.replace("_", " ")), normalise(info.label)} - {""}
        for base in list(bases):
            bases |= {normalise(s) for s in _SYNONYMS.get(base, ())}
        for base in bases:
            words = base.split()
            for form in {base, " ".join(words[:-1] + [_plural(words[-1])])}:
                if info.name not in class_words[form]:
                    class_words[form].append(info.name)
    return dict(class_words)


# ================================================================ the index
@dataclass
class _Data:
    """What is persisted: plain lists and dicts, so pickle is quick."""

    iris: list[str]
    classes: list[tuple[str, ...]]  # per entity
    degree: list[int]  # per entity: triples it is part of (tie-breaker)
    labels: list[str]  # per label record
    label_entity: list[int]
    label_surface: list[str]
    keys: dict[str, list[int]]  # normalised key -> label records
    variants: dict[str, list[int]]  # "the"-less and space-less keys -> label records
    vocab: frozenset[str]  # every token of every label
    max_tokens: int


class LabelIndex:
    def __init__(self, data: _Data, schema: Schema):
        self._d = data
        self.class_words = _class_words(schema)  # normalised word(s) -> class names
        self.stop = frozenset(_STOP | _schema_words(schema) | set(self.class_words))
        self._entity_of_iri = {iri: i for i, iri in enumerate(data.iris)}
        by_len: dict[int, list[str]] = defaultdict(list)
        postings: dict[str, list[str]] = defaultdict(list)  # content word -> multi-word keys holding it
        for key in dict.fromkeys([*data.keys, *data.variants]):
            by_len[len(key)].append(key)
            words = key.split()
            if len(words) > 1:
                for word in set(words) - self.stop:
                    postings[word].append(key)
        self._keys_by_len = dict(by_len)
        self._postings = dict(postings)
        self._all_keys: list[str] | None = None
        self._first_label: dict[int, int] | None = None
        self._lock = threading.Lock()

    # ------------------------------------------------------------ building
    @classmethod
    def build(cls, store: KGStore, schema: Schema, cache_dir: str | Path) -> "LabelIndex":
        """Read (or load from cache_dir/labels) every label and entity class of the KG."""
        path = Path(cache_dir) / "labels" / f"{_cache_name(store, schema)}.pkl"
        if path.is_file():
            try:
                with path.open("rb") as fh:
                    data = pickle.load(fh)
                if isinstance(data, _Data):
                    return cls(data, schema)
            except Exception as err:  # noqa: BLE001 - a broken cache is rebuilt, never fatal
                log.warning("label index cache %s unreadable (%s); rebuilding", path, err)
        started = time.perf_counter()
        data = _read(store, schema)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".tmp{os.getpid()}-{uuid.uuid4().hex[:8]}")
        with tmp.open("wb") as fh:
            pickle.dump(data, fh, protocol=pickle.HIGHEST_PROTOCOL)
        tmp.replace(path)
        log.info("label index: %d labels of %d entities in %.1f s", len(data.labels), len(data.iris),
                 time.perf_counter() - started)
        return cls(data, schema)

    # ------------------------------------------------------------ queries
    def __len__(self) -> int:
        return len(self._d.labels)

    def classes_of(self, iri: str) -> tuple[str, ...]:
        i = self._entity_of_iri.get(iri)
        return self._d.classes[i] if i is not None else ()

    def label_of(self, iri: str) -> str | None:
        i = self._entity_of_iri.get(iri)
        if i is None:
            return None
        with self._lock:
            if self._first_label is None:
                first: dict[int, int] = {}
                for r, e in enumerate(self._d.label_entity):
                    first.setdefault(e, r)
                self._first_label = first
        r = self._first_label.get(i)
        return self._d.labels[r] if r is not None else None

    def lookup(self, label: str, top_k: int = 2) -> list[Candidate]:
        """Entities with this label: exact, then normalised, then fuzzy."""
        return self._lookup_bracketed(label, top_k)

    def closest(self, text: str, n: int = 5) -> list[str]:
        """The labels nearest to `text`, for "not found, did you mean ..." replies."""
        key = normalise(text)
        if not key:
            return []
        keys = self._keys_list()
        if _rf_process is not None:
            hits = _rf_process.extract(key, keys, scorer=_rf_fuzz.ratio, limit=n * 3)
            ranked = [k for k, _, _ in sorted(hits, key=lambda h: (-h[1], abs(len(h[0]) - len(key)), h[0]))]
        else:  # pragma: no cover
            import difflib

            ranked = difflib.get_close_matches(key, keys, n=n * 3, cutoff=0.0)
        out: list[str] = []
        for k in ranked:
            for r in self._d.keys[k]:
                label = self._d.labels[r]
                if label not in out:
                    out.append(label)
        return out[:n]

    def _keys_list(self) -> list[str]:
        with self._lock:
            if self._all_keys is None:
                self._all_keys = list(self._d.keys)
            return self._all_keys

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
                literal = _literal(inner)
                cands = [literal] if literal else []
            mentions.append(Mention(inner, start, start + len(inner), tuple(cands), bracketed=True))
            taken.append((m.start(), m.end()))

        ctx = _Context.of(question, taken, self.stop, top_k)
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
        used = [False] * n
        for _, _, _, i, j, cands in spans:
            if any(used[i:j]):
                continue
            for k in range(i, j):
                used[k] = True
            start, end = ctx.toks[i].start(), ctx.toks[j - 1].end()
            mentions.append(Mention(question[start:end], start, end, tuple(cands)))

        mentions.sort(key=lambda m: m.start)
        classes = tuple(dict.fromkeys(c.label for m in mentions for c in m.candidates if c.kind == "class"))
        return Linking(question, tuple(mentions), classes)

    def _span_candidates(self, ctx: "_Context", i: int, j: int, fuzzy: bool) -> list[Candidate]:
        d = self._d
        ntok = j - i
        key = " ".join(ctx.folded[i:j])
        surface = " ".join(t.group() for t in ctx.toks[i:j])
        only_stop = all(ctx.stop[i:j])
        any_capital = any(ctx.capital[i:j])

        literal = _literal(surface) if ntok == 1 else None  # a number or a date
        words = self.class_words
        class_names = words.get(key) or (words.get(key.replace(" ", "")) if ntok > 1 else None) or ()
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
        if entity_allowed:
            entities = self._exact(key, surface, ctx.top_k, case=ctx.case_matters)
            if not entities and fuzzy and self._fuzzy_allowed(ctx, i, j, key):
                entities = self._fuzzy(key, ctx.top_k, blocking=ctx.folded[i:j] if ntok > 1 else None)
        if literal is not None:
            return [literal, *entities]
        if class_cands and entities:
            return [*entities, *class_cands]
        return class_cands or entities

    def _fuzzy_allowed(self, ctx: "_Context", i: int, j: int, key: str) -> bool:
        """Typo matching only for spans that look like names, never for common words."""
        folded, stop, capital = ctx.folded, ctx.stop, ctx.capital
        ntok = j - i
        letters = len(key.replace(" ", ""))
        if letters < 5 or ntok > 8:
            return False
        if ntok == 1:  # one word: only a word no label has (a typo, not another word)
            return letters >= 6 and not folded[i].isdigit() and folded[i] not in self._d.vocab
        content = sum(not x and not w.isdigit() for x, w in zip(stop[i:j], folded[i:j]))
        if content == 0:
            return False
        first_ok = not stop[i] or capital[i] or folded[i] in _ARTICLES or content >= 2
        last_ok = not stop[j - 1] or capital[j - 1]
        return first_ok and last_ok

    def _exact(self, key: str, surface: str, top_k: int, case: bool = True) -> list[Candidate]:
        """Labels with this normalised form: 1.0 where written the same, else 0.9; variants 0.85.

        Without `case` (a question with no telling capitals) "written the same" ignores case.
        """
        d = self._d
        scored: dict[int, tuple[float, int]] = {}
        wanted = surface if case else surface.casefold()
        for r in d.keys.get(key, ()):
            same = (d.label_surface[r] if case else d.label_surface[r].casefold()) == wanted
            _better(scored, d.label_entity[r], SCORE_EXACT if same else SCORE_NORMALISED, r)
        compact = key.replace(" ", "")
        stripped = key[4:] if key.startswith("the ") and len(key) > 6 else None
        for variant in {key, compact, stripped} - {None}:
            records = [*d.variants.get(variant, ()), *(d.keys.get(variant, ()) if variant != key else ())]
            for r in records:
                _better(scored, d.label_entity[r], SCORE_VARIANT, r)
        return self._ranked(scored, top_k, surface if case else None)

    def _fuzzy(self, key: str, top_k: int, max_d: int | None = None, blocking: list[str] | None = None) -> list[Candidate]:
        """Labels within a small edit distance of `key`, scored 0.8 * (1 - distance / length).

        With `blocking` (the words of a multi-word span) only labels sharing one of its
        content words are compared: a typo rarely hits every word. Otherwise, or when
        no word is known, every label of a near length is compared.
        """
        d = self._d
        letters = len(key.replace(" ", ""))
        if max_d is None:
            max_d = 1 if letters < 9 else 2 if letters < 16 else 3
        pools: list[list[str]] = []
        if blocking:
            lists = [self._postings[w] for w in set(blocking) if w in self._postings]
            if lists:
                pools = [lists[0]] if len(lists) == 1 else [list(set().union(*lists))]
        if not pools:
            pools = [self._keys_by_len.get(n, []) for n in range(len(key) - max_d, len(key) + max_d + 1)]
        scored: dict[int, tuple[float, int]] = {}
        for pool in pools:
            if not pool:
                continue
            for other, dist in _nearest(key, pool, max_d):
                score = round(SCORE_FUZZY_MAX * (1 - dist / max(len(key), len(other))), 4)
                for r in d.keys.get(other, ()):
                    _better(scored, d.label_entity[r], score, r)
                for r in d.variants.get(other, ()):
                    _better(scored, d.label_entity[r], round(score * 0.95, 4), r)
        return self._ranked(scored, top_k)

    def _lookup_bracketed(self, text: str, top_k: int) -> list[Candidate]:
        key, surface = normalise(text), _surface(text)
        if not key:
            return []
        d = self._d
        exact = {d.label_entity[r]: (SCORE_EXACT, r) for r in d.keys.get(key, ()) if d.labels[r] == text}
        if exact:
            return self._ranked(exact, top_k, text)
        found = self._exact(key, surface, top_k)
        if found:
            return found
        letters = len(key.replace(" ", ""))
        if letters < 4:
            return []
        return self._fuzzy(key, top_k, max_d=1 if letters < 7 else 2 if letters < 13 else 3)

    def _ranked(self, scored: dict[int, tuple[float, int]], top_k: int, text: str | None = None) -> list[Candidate]:
        """Best score first; ties: the label written exactly as `text`, then the better-connected entity."""
        d = self._d
        order = sorted(
            scored.items(),
            key=lambda kv: (-kv[1][0], d.labels[kv[1][1]] != text, -d.degree[kv[0]], d.labels[kv[1][1]]),
        )
        return [
            Candidate("entity", d.labels[r], d.iris[e], score, d.classes[e])
            for e, (score, r) in order[:top_k]
        ]


@dataclass
class _Context:
    """One question's tokens (outside brackets) and what is known about each."""

    toks: list[re.Match]
    folded: list[str]
    stop: list[bool]
    capital: list[bool]  # capitalised where capitals mean a name
    contiguous: list[bool]  # token i and i+1 are neighbours (no bracketed mention between)
    last_ends: bool  # nothing but punctuation follows the last token (no bracketed mention after it)
    case_matters: bool  # the question's capitals tell names from words
    top_k: int

    @classmethod
    def of(cls, question: str, taken: list[tuple[int, int]], stop_words: frozenset[str], top_k: int) -> "_Context":
        toks = [t for t in _tokens(question) if not any(a <= t.start() < b for a, b in taken)]
        folded = [_fold(t.group()) for t in toks]
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


def _better(scored: dict[int, tuple[float, int]], entity: int, score: float, record: int) -> None:
    if entity not in scored or score > scored[entity][0]:
        scored[entity] = (score, record)


def _caps_informative(toks) -> bool:
    """Capitals mean names unless the question is in all caps or Title Case."""
    words = [t.group() for t in toks if t.group()[:1].isalpha()]
    if len(words) < 3:
        return True
    upper = sum(w[:1].isupper() for w in words[1:])
    return upper < 0.75 * (len(words) - 1)


def _literal(text: str) -> Candidate | None:
    text = text.strip()
    if _DATE.fullmatch(text):
        return Candidate("literal", text, None, SCORE_EXACT, ("date",), "date")
    if _DECIMAL.fullmatch(text):
        return Candidate("literal", text, None, SCORE_EXACT, ("decimal",), "decimal")
    if _INTEGER.fullmatch(text):
        value = int(text)
        kind = "year" if _YEAR.fullmatch(text) and 1000 <= value <= 2100 else "integer"
        return Candidate("literal", text, None, SCORE_EXACT, (kind,), "integer")
    return None


def _nearest(key: str, choices: list[str], max_d: int) -> list[tuple[str, int]]:
    if _rf_process is not None:
        hits = _rf_process.extract(key, choices, scorer=_rf_lev.distance, score_cutoff=max_d, limit=20)
        return [(h[0], int(h[1])) for h in hits]
    return [(c, dist) for c in choices if (dist := _bounded_levenshtein(key, c, max_d)) <= max_d]  # pragma: no cover


def _bounded_levenshtein(a: str, b: str, limit: int) -> int:  # pragma: no cover - fallback only
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
        if min(cur) > limit:
            return limit + 1
        prev = cur
    return prev[-1]


# ================================================================ reading the KG
def _cache_name(store: KGStore, schema: Schema) -> str:
    fingerprint = store.info.fingerprint
    schema_key = "|".join(
        [f"{c.iri}={c.name}:{','.join(f'{r.relation}/{r.side}' for r in c.roles)}" for c in schema.classes]
        + [f"{r.iri}:{','.join(r.domain)}>{','.join(r.range)}" for r in schema.relations]
    )
    digest = hashlib.sha256(f"{fingerprint}\n{schema_key}\nv{INDEX_VERSION}".encode()).hexdigest()[:20]
    readable = re.sub(r"[^A-Za-z0-9]+", "_", fingerprint)[-40:].strip("_")
    return f"{readable}-{digest}"


def _select_all(store: KGStore, sparql: str) -> list[tuple[Term | None, ...]]:
    """All rows of a query, paging with LIMIT/OFFSET where the store caps its results."""
    first = store.select(sparql, timeout_s=_QUERY_TIMEOUT_S)
    if not first.truncated:
        return list(first.rows)
    page = len(first.rows)
    if page == 0:
        return []
    rows: list[tuple[Term | None, ...]] = []
    offset = 0
    ordered = f"{sparql} ORDER BY {' '.join('?' + v for v in first.vars)}"
    while offset < _MAX_ROWS_TOTAL:
        result = store.select(f"{ordered} LIMIT {page} OFFSET {offset}", timeout_s=_QUERY_TIMEOUT_S)
        rows.extend(result.rows)
        if len(result.rows) < page:
            break
        offset += page
    return rows


def _read(store: KGStore, schema: Schema) -> _Data:
    schema_iris = {c.iri for c in schema.classes} | {r.iri for r in schema.relations}
    literal_relations = {r.iri for r in schema.relations if schema.literal_kind(r) != "entity"}

    # --- which roles each entity fills
    roles_of: dict[str, set[Role]] = defaultdict(set)
    for rel in schema.relations:
        for side in (SUBJECT, OBJECT):
            if side == OBJECT and rel.iri in literal_relations:
                continue
            var = "?s" if side == SUBJECT else "?o"
            rows = _select_all(store, f"SELECT DISTINCT {var} WHERE {{ ?s <{rel.iri}> ?o FILTER(isIRI({var})) }}")
            role = Role(rel.iri, side)
            for (term,) in rows:
                if term is not None:
                    roles_of[term.value].add(role)

    # --- declared types
    declared: dict[str, list[str]] = defaultdict(list)
    for x, c in _select_all(store, f"SELECT ?x ?c WHERE {{ ?x <{RDF_TYPE}> ?c FILTER(isIRI(?x)) }}"):
        if x is None or c is None:
            continue
        info = schema.class_(c.value)
        if info is not None and not info.is_literal:
            declared[x.value].append(info.name)

    # --- labels: English or untagged first; others only for entities without one
    found: dict[str, list[str]] = defaultdict(list)
    foreign: dict[str, list[str]] = defaultdict(list)
    for pred in (RDFS_LABEL, SKOS_PREF_LABEL):
        for x, text in _select_all(store, f"SELECT ?x ?l WHERE {{ ?x <{pred}> ?l FILTER(isIRI(?x)) }}"):
            if x is None or text is None or not text.value.strip():
                continue
            if x.value in schema_iris and x.value not in roles_of:
                continue
            target = found if (text.lang or "en").startswith("en") else foreign
            if text.value not in target[x.value]:
                target[x.value].append(text.value)
    for iri, labels in foreign.items():
        if iri not in found:
            found[iri] = labels
    for iri in list(roles_of) + list(declared):
        if iri not in found:
            name = local_name(iri)
            if name:
                found[iri] = [name]

    # --- popularity: triples each entity is part of (a tie-breaker; skipped if too costly)
    degree_of: dict[str, int] = defaultdict(int)
    for query in (
        "SELECT ?x (COUNT(*) AS ?n) WHERE { ?x ?p ?o } GROUP BY ?x",
        "SELECT ?x (COUNT(*) AS ?n) WHERE { ?s ?p ?x FILTER(isIRI(?x)) } GROUP BY ?x",
    ):
        try:
            for x, count in _select_all(store, query):
                if x is not None and count is not None:
                    degree_of[x.value] += int(count.value)
        except (KGError, ValueError) as err:
            log.info("label index: no degrees (%s)", err)
            break

    # --- classes of each entity
    role_class: dict[Role, list[ClassInfo]] = defaultdict(list)
    for info in schema.classes:
        for role in info.roles:
            role_class[role].append(info)
    by_name = {c.name: c for c in schema.classes}

    def classes_for(iri: str) -> tuple[str, ...]:
        names = list(dict.fromkeys(declared.get(iri, ())))
        roles = roles_of.get(iri, set())
        votes: dict[str, int] = defaultdict(int)
        for role in roles:
            for info in role_class.get(role, ()):
                votes[info.name] += 1
        if not names and not votes:  # declared schema, untyped entity: domain/range of its relations
            for role in roles:
                rel = schema.relation(role.relation)
                if rel is not None:
                    for name in rel.domain if role.side == SUBJECT else rel.range:
                        if name in by_name and not by_name[name].is_literal:
                            votes[name] += 1
        ranked = sorted(votes, key=lambda name: (-votes[name], -by_name[name].size, name))
        return tuple(dict.fromkeys([*names, *ranked]))

    iris: list[str] = []
    classes: list[tuple[str, ...]] = []
    degree: list[int] = []
    labels: list[str] = []
    label_entity: list[int] = []
    label_surface: list[str] = []
    keys: dict[str, list[int]] = defaultdict(list)
    variants: dict[str, list[int]] = defaultdict(list)
    vocab: set[str] = set()
    interned: dict[tuple[str, ...], tuple[str, ...]] = {}
    max_tokens = 1
    for iri in sorted(found):
        e = len(iris)
        iris.append(iri)
        cls_tuple = classes_for(iri)
        classes.append(interned.setdefault(cls_tuple, cls_tuple))
        degree.append(degree_of.get(iri, 0))
        for label in found[iri]:
            key = normalise(label)
            if not key:
                continue
            r = len(labels)
            labels.append(label)
            label_entity.append(e)
            label_surface.append(_surface(label))
            keys[key].append(r)
            words = key.split()
            vocab.update(words)
            max_tokens = max(max_tokens, len(words))
            compact = key.replace(" ", "")
            if compact != key and len(compact) >= 4:
                variants[compact].append(r)
            if key.startswith("the ") and len(key) > 6:
                variants[key[4:]].append(r)

    return _Data(
        iris=iris,
        classes=classes,
        degree=degree,
        labels=labels,
        label_entity=label_entity,
        label_surface=label_surface,
        keys=dict(keys),
        variants=dict(variants),
        vocab=frozenset(vocab),
        max_tokens=min(max_tokens, 12),
    )
