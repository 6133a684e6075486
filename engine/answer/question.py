"""What a question asks, read once before the search: its anchors, and the kind of answer it wants.

The search starts from the anchors (entities, literals: the linker's top `ENTITIES_PER_MENTION`) and class words. Cues:
- `asks_count`: "how many", "number of": only then are COUNT candidates built;
- `asked_types`: the classes a wh-phrase asks for ("which languages" -> language, "when" -> a year or date, "who" -> a
  person): finalists that answer with one rank first, because a 0.5B scorer likes a program that stops one hop short;
- `asks_superlative`: "the largest", "the most": finalists that rank (ARGMAX/ARGMIN) come first, as for the asked
  class: the scorer liked the unranked set, "largest country in Africa" got Africa's countries; a superlative that a
  relation's reading spells ("the <superlative> <noun> of X") asks for none;
- `asks_same`: "co-wrote", "the same director": a walk back to the topic's kind is the reading (`walk_back.repeats`).
- the operator cues of issue 13, each gating the candidates of one operator and, in `rank.fits_asked`, what a finalist
  must contain: a negation ("not", "without": NOT, over the names after it, `negated`), yes/no ("is", "did": IN), a
  total or average (SUM/AVG, also over names listed together, `listed`), a name compared with ("than France", "before
  Jaws": a comparison, `compared`), and names offered as a choice ("Brazil or Argentina": a ranking of their union,
  `choice`).
The cues are read on the anonymised question where a title could hold the cue word.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.programs.sexpr import Entity, Literal, Node
from engine.programs.validate import QUANTITY_KINDS, TIME_KINDS
from kg_adapters.readable import object_noun
from kg_adapters.schema import Schema

from .counted import measured
from .degree import (THAN_ANY, asks_count, bounds, comparatives, graded_words, is_superlative, ranks_another,
                     ranks_in_a_phrase, rankings, superlative_offsets, superlative_phrases)
from .glossed import Part, side_words
from .linker import Candidate, LabelIndex, Linking, Mention
from .mentions import name_runs, offered_choice
from .named import NamedRelations, Spelling, words_of
from .nouns import POSSESSED as _POSSESSED, classes_named_or_denied, ranked_subjects, relation_nouns, without_possessors
from .quantities import in_units, measures_lengths, unit_after, with_numbers
from .titled import Tied, Together
from .voice import Voiced, voiced
from .where import WHERE_WORD, Where
from .who import Who
from .words import ARTICLES, STOP, dates_as_iso, fold, may_be_verb, numbers_as_digits, ordinals_as_values, word_forms

ENTITIES_PER_MENTION = 2
# The wh-word of an asked class: "which languages", "what are the films that ...", "who are the players",
# or a request for one: "name a player who ...", "list the films", "give me all countries". Not "what sort of
# film": that asks a genre.
_WH_BEFORE = re.compile(r"(\b(which|what|who)(\s+(is|are|was|were)|['’]s)?\s+|^\s*((please\s+)?(name|list|give|show|"
                        r"find|tell)\s+(me\s+)?(a|an|all|some|every)?\s*))(all\s+)?(the\s+)?$", re.IGNORECASE)
_WH_WORD = re.compile(r"\b(what|which|who|whom|whose|when|where|why|how)\b", re.IGNORECASE)
# Words that ask for things sharing something with the topic ("who co-wrote films with X", "films with the same
# director as X"): then a program ending where it started is the reading asked for, not a step back. "co" may
# also be glued to a verb of the schema ("cowrote", "costarred": `_co_verbs`).
_SAME = re.compile(r"\b(co-\w+|together|same|shares?|shared|sharing|also|other)\b", re.IGNORECASE)
_WHEN = re.compile(r"^\s*when\b|\b(what|which) (year|date)\b", re.IGNORECASE)
# "how long", "how big", "how much": a quantity, so a number (not "how many": a count; not "how did").
_HOW_MUCH = re.compile(r"\bhow (?!many\b|come\b|do\b|does\b|did\b|is\b|are\b|was\b|were\b|can\b)[a-z]+\b", re.IGNORECASE)
# The operators beyond JOIN and AND, each built only where the question has its cue (issue 13). The cues are
# English grammar, read on the anonymised question so that a title never holds one.
_NEGATION = re.compile(r"\b(not|never|no(thing|body)?|without|except|outside|other than|apart from)\b|n't\b", re.IGNORECASE)
_YES_NO = re.compile(r"^\s*(is|are|was|were|does|do|did|has|have|had|can|could)\b", re.IGNORECASE)
_AGGREGATES = {"SUM": re.compile(r"\b(total|sum|combined|altogether)\b", re.IGNORECASE),
               "AVG": re.compile(r"\b(average|avg|mean)\b", re.IGNORECASE)}


@dataclass(frozen=True)
class Anchor:
    """An entity or literal the search starts from."""

    mention: int  # index into the linking's mentions
    node: Entity | Literal
    candidate: Candidate
    word: str  # what the anonymised question says in its place


@dataclass(frozen=True, eq=False)
class Question:
    text: str  # whitespace-normalised
    linking: Linking
    anonymised: str
    anchors: tuple[Anchor, ...]
    classes: tuple[str, ...]  # schema classes named by words of the question
    asks_count: bool = False
    asks_same: bool = False
    shared: frozenset[str] = frozenset()  # what a gloss says is the same ("brother": "parent"), walked to first
    asks_superlative: bool = False
    asks_negation: bool = False  # "not", "never", "without": (AND S (NOT T))
    negated: frozenset[int] = frozenset()  # mentions after the negation word: what T may stand on
    asks_yes_no: bool = False  # "is ...", "does ...": (IN e S)
    aggregate: str | None = None  # "SUM" for "total", "AVG" for "average"
    compared: frozenset[int] = frozenset()  # mentions after "than", "before": (gt r e) compares with their own value
    bounds: frozenset[int] = frozenset()  # values right after a word of degree ("under 300"): a bound, never equalled
    choice: tuple[int, ...] = ()  # "A or B": mentions of the entities to choose between, (ARGMAX (OR A B) r)
    listed: tuple[int, ...] = ()  # "A and B", "A, B or C": named together, (SUM (OR A B) r) for a total of them
    comparatives: tuple[str, ...] = ()  # the ways "over", "under" let a comparison go; none without such a word
    rankings: tuple[str, ...] = ("ARGMAX", "ARGMIN")  # the ways a superlative may go: "oldest", "older" ARGMIN
    asked_types: frozenset[str] = frozenset()
    ranks_another: bool = False  # a superlative ranks another class: "the capital of the largest country"
    ranks_in_phrase: bool = False  # it stands after a preposition: "the CEO of the biggest airline"
    superlative_at: tuple[int, ...] = ()  # offsets of the superlative words outside names ("most", "largest")
    words: dict[Node, str] = field(default_factory=dict)  # Entity/Literal node -> anonymised word
    named_relations: dict[str, Spelling] = field(default_factory=dict)  # relation -> the words that spell it
    measured: frozenset[str] = frozenset()  # numeric relations that may measure what "how many" counts
    voice: Voiced | None = None  # the relation of the main verb and the end asked for ("who advises X": the adviser)
    class_words: dict[str, frozenset[str]] = field(default_factory=dict)  # class name -> the words naming it
    # a number with a unit ("taller than 2 metres"): its mention -> each numeric relation of that dimension, with
    # the number in the unit the relation spells (`quantities.in_units`)
    measures: dict[int, dict[str, Literal]] = field(default_factory=dict)
    parts: tuple[Part, ...] = ()  # its words as steps (engine.answer.glossed): "brothers" a step of `sibling`
    side_words: frozenset[str] = frozenset()  # words that say a walk's side ("on his mother's side"): no step

    @property
    def unlinked(self) -> bool:
        """Nothing to start from, or a bracketed name (taken as given) that matches no label."""
        missing = any(m.bracketed and not m.candidates for m in self.linking.mentions)
        return missing or (not self.anchors and not self.classes)


class QuestionReader:
    """Reads questions against one KG's labels and schema."""

    def __init__(self, schema: Schema, index: LabelIndex, tied: Tied | None = None):
        self.schema, self.index = schema, index
        self._together = Together(index.forms.holders, tied, ENTITIES_PER_MENTION)  # "Queen Maud" (titled.py)
        # what "when", "who" and "where" ask for
        self._time_classes = frozenset(c.name for c in schema.classes if c.kind in TIME_KINDS)
        self._who = Who(schema)
        self._where = Where(schema, self._who.persons)
        self._co_verb = _co_verbs(schema)
        self._what_value = relation_nouns(schema)
        self._named = NamedRelations(schema)
        self._amounts = [r for r in schema.relations if schema.literal_kind(r) in QUANTITY_KINDS]
        self._lengths = measures_lengths(self._amounts)
        self._counted_nouns = frozenset(w for r in schema.relations if schema.literal_kind(r) == "integer"
                                        for w in re.findall(r"[a-z]{3,}", fold(r.label)))
        self._named_superlatives = superlative_phrases(
            [text for r in schema.relations for text in (r.label, r.reverse_label, object_noun(r.name))])

    def rewritten(self, text: str) -> str:
        """The question with its dates, numbers and ordinals as the linker finds them ("400k": 400000)."""
        numbers = with_numbers(numbers_as_digits(dates_as_iso(text)), self._lengths)
        return ordinals_as_values(numbers, self._counted_nouns)

    def read(self, text: str) -> Question:
        text = self.rewritten(text)
        linking = self._together(self.index.link(text, top_k=ENTITIES_PER_MENTION))
        anchors = tuple(_anchors(linking))
        measures = {a.mention: fitting for a in anchors if isinstance(a.node, Literal)
                    and (fitting := in_units(a.node, unit_after(text, linking.mentions[a.mention].end), self._amounts))}
        anonymised = linking.anonymised()
        runs = name_runs(text, linking)
        choice = offered_choice(text, linking, runs)
        negation = bool(_NEGATION.search(anonymised))
        parts = self._named.parts(text, spans := [(m.start, m.end) for m in linking.mentions if m.kind == "entity"])
        named = self._named.named(text, [], parts)
        asked_types = self._asked_types(text, linking, named)
        # no ranking by a superlative a relation's reading spells ("the <superlative> <noun> of X"), or a "first" of when
        graded = graded_words(anonymised, self._named_superlatives)
        graded_text = graded_words(text, self._named_superlatives)
        superlative = any(map(is_superlative, re.findall(r"[a-z]+", graded.lower())))
        superlative_at = superlative_offsets(graded_text, linking.mentions)
        superlative = superlative or bool(THAN_ANY.search(anonymised)) or len(choice) > 1
        classes = classes_named_or_denied(self.schema, linking.classes, anonymised, named, asked_types)
        if not anchors and superlative:
            # "who directed the most movies", "who has the most writing credits": no name, and "who" asks for
            # the people to rank, whatever class words the question has
            asked = sorted(c for c in asked_types if (info := self.schema.class_(c)) and not info.is_literal)
            classes = tuple(dict.fromkeys([*classes, *asked])) or ranked_subjects(self.schema, named)
        return Question(
            text=text,
            linking=linking,
            anonymised=anonymised,
            anchors=anchors,
            classes=classes,
            asks_count=asks_count(text),
            # titles never count; "brother" reads as sharing parents (engine.answer.glossed)
            asks_same=bool(_SAME.search(anonymised) or self._co_verb.search(anonymised) or any(p.same for p in parts)),
            shared=frozenset(after.word for part, after in zip(parts, parts[1:]) if part.same),
            asks_superlative=superlative,
            asks_negation=negation,
            negated=_negated(text, linking) if negation else frozenset(),
            asks_yes_no=bool(_YES_NO.search(anonymised)) and not choice,  # "is X or Y bigger" chooses
            aggregate=next((op for op, cue in _AGGREGATES.items() if cue.search(anonymised)), None),
            compared=frozenset(i for i, m in enumerate(linking.mentions) if _THAN.search(text[: m.start])
                               and _names(m)),
            bounds=bounds(text, linking.mentions),
            choice=choice, listed=runs[0] if runs else (),
            comparatives=comparatives(anonymised),
            rankings=rankings(graded),
            asked_types=asked_types,
            ranks_another=ranks_another(graded_text, linking.mentions, asked_types),
            superlative_at=superlative_at,
            ranks_in_phrase=ranks_in_a_phrase(graded_text, superlative_at),
            words={a.node: a.word for a in anchors} | {literal: a.word for a in anchors
                                                          for literal in measures.get(a.mention, {}).values()},
            named_relations=named,
            measured=measured(text, self.schema, named),
            voice=voiced(text, named, self.schema),
            class_words=_class_words(linking),
            measures=measures, parts=tuple(parts), side_words=side_words(text, parts, spans),
        )

    def _asked_types(self, text: str, linking: Linking, named: dict[str, Spelling]) -> frozenset[str]:
        """The classes a wh-phrase asks for: "which languages ..." -> language, "when ..." -> year/date.

        A 0.5B scorer likes a program that stops one hop short ("the films directed by X" for "the
        films directed by X were in which languages"); the asked class tells the finalists apart."""
        asked = set()
        classes = [m for m in linking.mentions if m.kind == "class"]
        pattern, nouns = self._what_value
        for i, mention in enumerate(classes):
            opening = i == 0 and not _asks_with_wh_word(text) and _heads_opening_phrase(text, linking, mention)
            if not (opening or _WH_BEFORE.search(_without_modifiers(_before_noun(text, linking, mention),
                                                                    _ends_phrase(text, mention)))):
                continue
            while i + 1 < len(classes) and not text[mention.end : classes[i + 1].start].strip():
                i, mention = i + 1, classes[i + 1]  # "what film genre": the last noun is the one asked for
            after = _next_word(text, mention.end)  # "which state capital": a relation's noun heads the compound,
            objects, valued = nouns.get(after, ((), True))  # but a verb is the clause's ("which countries border X")
            if objects and not valued and not may_be_verb(after):
                asked |= set(objects)
                continue
            asked |= {c.label for c in mention.candidates if c.kind == "class" and self.schema.class_(c.label)}
        if (classes and _POSSESSED.search(text[: classes[-1].start]) and not text[classes[-1].end :].strip(" ?.!")
                and not _governed_by_of(text, linking, classes[-1])):
            # "what is X's artist's album": the noun a possessive chain ends on is the one asked for
            asked |= {c.label for c in classes[-1].candidates if c.kind == "class" and self.schema.class_(c.label)}
        if _WHEN.search(text):
            asked |= self._time_classes
        if WHERE_WORD.search(text):
            asked |= self._where.asked(words_of(_names_blanked(text, linking, len(text))), linking, named)
        if _HOW_MUCH.search(text):
            asked |= {c.name for c in self.schema.classes if c.kind in QUANTITY_KINDS}
        plain = without_possessors(text, linking)
        class_nouns = {m.text.lower().split()[0] for m in linking.mentions if m.kind == "class" and m.text.split()}
        for match in pattern.finditer(plain):  # "what is the <noun> of ...": its objects
            if match.group("graded") and not is_superlative(match.group("graded").split()[0].lower()):
                continue
            noun = nouns.get(match.group("noun").lower(), ((), False))
            modifies = _next_word(plain, match.end()) in class_nouns  # "which <noun> <class noun>": the class
            if (match.group("wh") or noun[1]) and not modifies:  # an opening noun only of values (`relation_nouns`)
                asked |= set(noun[0])
        asked |= self._who.asked(text, linking, named)  # "who", "which <word for a person>"
        return frozenset(asked)


def _heads_opening_phrase(text: str, linking: Linking, noun: Mention) -> bool:
    """Whether the question opens with a noun phrase this class noun heads, and so asks for it as "which
    countries" would: "spanish speaking countries in south america", "southernmost city in chile", "Nolan films
    released after X". Before the noun stand only names, articles, "all", superlatives and words that are not
    function words; a wh-word, a verb of "be"/"do" or a preposition ("population of ... countries") says the
    noun is not the answer. Only where no wh-word asks for something else: "the films written by X were in which
    genres" asks for genres."""
    before = _names_blanked(text, linking, noun.start)  # the names in the phrase modify the noun
    words = re.findall(r"[a-z]+", before.lower())
    return all(w not in STOP or w in ARTICLES or w == "all" or is_superlative(w) for w in words)


def _asks_with_wh_word(text: str) -> bool:
    """Whether a wh-word asks ("the films of X were in which genres", "the movie X, when was it released"),
    rather than open a clause about the word just before it ("countries in asia where arabic is spoken")."""
    return any(not _RELATIVE.search(text[: m.start()]) or m.group().lower() not in ("who", "which", "where")
               or not re.search(r"\w", text[m.end():])  # one that ends the question opens no clause: "X starred who"
               for m in _WH_WORD.finditer(text))


# a content word just before: "asia where", not "in which" nor "X], when"
_RELATIVE = re.compile(r"\b(?!(?:" + "|".join(map(re.escape, sorted(STOP))) + r")\b)[a-z]+\s+$", re.IGNORECASE)


def _without_modifiers(before: str, heads: bool = True) -> str:
    """The words before a noun less the modifiers between it and its article: "what's the most widely used" ->
    "what's the ", so that the wh-phrase still asks for the noun. A modifier is a word that is no function word,
    or a superlative ("most", "largest"); a possessive ("ridley scott 's movies") is none. Without the article
    nothing is dropped: in "who directed movies" and "which directors co-directed movies" a verb stands there;
    nor where the noun does not end (`heads`) its phrase: "the two letter country code" asks for a code. But one
    word between "which" or "what" and the noun is its modifier, as after an article: "which uncrewed missions"
    asks for missions, as "which missions" does ("which" before a verb asks with "of" or not at all)."""
    if not heads:
        return before
    words = list(re.finditer(r"[\w'’-]+", before))
    end = len(before)
    for dropped, word in enumerate(reversed(words)):
        w = word.group().lower()
        if w in ARTICLES or (w in ("which", "what") and dropped == 1):
            return before[:end]
        if (w in STOP and not is_superlative(w)) or not re.fullmatch(r"[a-z-]+", w):  # "'s": a possessive
            break
        end = word.start()
    return before


def _next_word(text: str, at: int) -> str:
    after = re.match(r"\s*([a-z]+)", text[at:].lower())  # the word right after `at`, "" where none
    return after.group(1) if after else ""


def _ends_phrase(text: str, noun: Mention) -> bool:
    """Whether no content word follows the noun: "the largest country in Africa", not "the country code"."""
    after = _next_word(text, noun.end)
    return not after or after in STOP


def _governed_by_of(text: str, linking: Linking, noun: Mention) -> bool:
    """Whether the possessive chain a noun ends sits in an of-phrase: in "what is the album of X's artist" the
    head "album" is asked for, not "artist". Names are left out, since an "of" inside one ("Bank of X") is not
    the question's. On PathQuestion's "what is the <r3> of <r2> of X 's <r1> ?" (reasoner v38, tune half) seven of
    nineteen misses ranked first a one-hop reading answering with the <r1> noun's class."""
    before = _names_blanked(text, linking, noun.start)
    return any(word.lower() not in STOP for word in re.findall(r"\b([a-z][\w-]*)\s+of\s", before, re.IGNORECASE))


def _names_blanked(text: str, linking: Linking, end: int) -> str:
    """The question up to `end`, each name and value in it (a mention that is no class noun) blanked out."""
    before = text[:end]
    for other in reversed(linking.mentions):  # sorted by start (linker): blanking from the end keeps the offsets
        if other.end <= end and other.kind != "class":
            before = before[: other.start] + " " + before[other.end :]
    return before


def _before_noun(text: str, linking: Linking, noun: Mention) -> str:
    """The question before a class noun, less the names that modify it: in "which european countries"
    (Europe) or "which Spielberg films" the wh-word still asks for the noun. A possessive ("X 's
    recording 's notable types") is left to the possessive chain's own rule."""
    start = noun.start
    for other in reversed(linking.mentions):
        modifies = other.kind == "entity" and not other.bracketed and not _POSSESSED.search(other.text)
        modifies = modifies and not text[other.end : start].strip()
        if other.end <= start and modifies:
            start = other.start
    return text[:start]


# A name compared with: after "than", after a word of time order ("released after The Dark Knight", "films
# that predate Jaws") or of compass direction ("cities north of Edmonton"); its own value of a numeric relation
# is the bound (`Compare` with an entity).
_THAN = re.compile(r"\b(than|before|after|since|until|predat\w*|postdat\w*|(north|south|east|west)(wards?)? of)"
                   r"\s+(the\s+)?\[?$", re.IGNORECASE)


def _negated(text: str, linking: Linking) -> frozenset[int]:
    """The names after the first negation word outside a name: "countries next to Brazil that are not
    Spanish-speaking" negates Spanish, not Brazil (class words do not count: "isn't the main language").
    Where no name follows it, the name it says something of is negated: "james cameron movies michael
    biehn isn't in" negates the name just before the word (an auxiliary between), where another name is left
    for the set. "Spanish is spoken but isn't the main language" negates a relation of Spanish, not Spanish."""
    inside = [(m.start, m.end) for m in linking.mentions]
    for match in _NEGATION.finditer(text):
        if not any(start <= match.start() < end for start, end in inside):
            names = [i for i, m in enumerate(linking.mentions) if _names(m)]
            after = frozenset(i for i in names if linking.mentions[i].start >= match.end())
            before = [i for i in names if linking.mentions[i].end <= match.start()]
            subject = [i for i in before if _AUXILIARY.fullmatch(text[linking.mentions[i].end:match.start()])]
            return after or (frozenset(subject) if subject and len(before) > 1 else frozenset())
    return frozenset()


# What may stand between a name and the negation that says something of it: "X isn't", "X does not", "X can't"
_AUXILIARY = re.compile(r"\W*(\b(is|are|was|were|do|does|did|has|have|had|ca|wo|could|would|will|should)\b)?\W*",
                        re.IGNORECASE)


def _names(mention: Mention) -> bool:
    """Whether a mention may name an entity or a value, not only a class."""
    return any(c.kind in ("entity", "literal") for c in mention.candidates)


def _co_verbs(schema: Schema) -> re.Pattern:
    """ "co" glued to a verb of the schema's relation labels: "cowrote", "costarred", "codirected"."""
    forms = set()
    for rel in schema.relations:
        for token in re.findall(r"[a-z]+", rel.label.lower()):
            if len(token) > 2:
                forms |= word_forms(token)
    alternatives = "|".join(sorted(map(re.escape, forms))) or "(?!)"
    return re.compile(rf"\bco({alternatives})\b", re.IGNORECASE)


def _class_words(linking: Linking) -> dict[str, frozenset[str]]:
    """Class name -> the question's words that name it ("countries" -> Country)."""
    found: dict[str, set[str]] = {}
    for mention in linking.mentions:
        for cand in mention.candidates:
            if cand.kind == "class":
                found.setdefault(cand.label, set()).update(words_of(mention.text))
    return {name: frozenset(words) for name, words in found.items()}


def _anchors(linking: Linking):
    for i, mention in enumerate(linking.mentions):
        entities = 0
        for cand in mention.candidates:
            if cand.kind == "entity" and cand.iri and entities < ENTITIES_PER_MENTION:
                entities += 1
                word = (cand.classes[0] if cand.classes else "entity").replace("_", " ")
                yield Anchor(i, Entity(cand.label, iri=cand.iri), cand, word)
            elif cand.kind == "literal" and cand.literal_kind:
                word = cand.classes[0] if cand.classes else cand.literal_kind
                yield Anchor(i, Literal(cand.label, cand.literal_kind), cand, word)
