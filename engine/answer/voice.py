"""Which end of a verb's relation a question asks for, read off the voice of its main verb.

"who advises Lena?" asks for the one who advises, and a relation `advised_by` holds that one as its object; "which
students does Prof X advise?" asks for the ones advised, its subjects. A relation named by an active verb (`teaches`,
`reports_to`) holds the doer as its subject instead. The words around the question's main verb say which end the
wh-phrase is:
- the doer where the verb follows the wh-phrase ("who teaches X", "which professors advise X", "who is teaching X");
- the one done to after do-support and a subject ("what does X teach", "which students does X advise"), and before a
  passive ("which courses were taught by X").
A program whose answers are the other end of that relation reads the verb the wrong way round: the students who share
Lena's adviser (walked back), or the students of the courses Mateo's adviser teaches for "who teaches the courses
Mateo takes?". The 0.5B scorer liked both (university, BENCHMARKS.md session 55). Which end each pair of forms (the
relation name's, `label_form`; the question's, `question_form`) asks for is one table, `ASKS_OBJECTS`; where either
form is unsure, nothing is read. Grammar only: no word of a domain.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping

from lemminflect import getAllLemmas, getInflection

from engine.programs.sexpr import And, Join, Program, Reverse, relation_name, walk
from kg_adapters.readable import is_function_word, is_noun
from kg_adapters.schema import Schema

from .named import Spelling
from .words import fold, may_be_verb

# What a finalist that `reads_backwards` pays in the final re-rank (engine.answer.rank). Replayed on the recorded
# finalists of 2,482 bench.kgs rows (`python -m bench.replay ROWS --voice 0 0.3 0.5 1.0`: every dev KG at seed 0,
# MetaQA, WorldCup and university at seed 1, a readable-corpus run, university at seeds 0-4): no F1 moved but
# university tune, 94.4 -> 100.0 at seed 1 from 0.3 and at seed 3 at 1.0 only (such readings had won by 0.30 and
# 0.68); no check F1 moved at any weight (BENCHMARKS.md, session 55).
VOICE_WEIGHT = 1.0
WH = frozenset({"who", "whom", "what", "which"})
DO = frozenset({"do", "does", "did"})
BE = frozenset({"is", "are", "was", "were"})
HAVE = frozenset({"has", "have", "had"})
# Words of a wh-phrase after its wh-word ("which professors", "what history courses"), and of a clause's subject
# between do-support and its verb ("does Carmen Ibarra advise"): short phrases only, so that the verb read is the
# main clause's, not one of a relative clause further on. English grammar, not a measured fit.
WH_PHRASE = 2
SUBJECT_WORDS = 4


@dataclass(frozen=True)
class Voiced:
    """The relation the main verb spells, and whether the question asks for its objects."""

    relation: str
    toward_objects: bool


# Whether the wh-phrase is a relation's objects, by the form of the relation's name and the question's form around
# its main verb (`question_form`): "who advises X" (the subject of an active clause) asks for the objects of
# `advised_by` and the subjects of `teaches`; "which students does X advise" (an object, after do-support) the
# subjects of `advised_by`; "which courses were taught by X" (a passive's subject) the objects of `teaches`, and
# "which cities are located in X" the subjects of `located_in`. A passive without its doer ("written in") is read
# only in the passive: "who wrote X" asks for neither end of `written_in`.
ASKS_OBJECTS = {
    ("by", "subject"): True, ("by", "object"): False, ("by", "passive"): False,
    ("active", "subject"): False, ("active", "object"): True, ("active", "passive"): True,
    ("participle", "subject"): False, ("participle", "object"): True, ("participle", "passive"): False,
    ("participle only", "passive"): False,
}


def label_form(label: str) -> str | None:
    """The form of a relation's name as a clause "<subject> <name> <object>": "by" ("advised by": its object does
    what the verb says), "active" (an inflected verb with its prepositions, "reports to", or one that is no noun,
    "teaches"), "participle" ("located in", "enrolled in": a past tense too) or "participle only" ("written in",
    "born in"). None where it says no act for sure: a verb with a noun ("starred actors", "has genre"), a noun
    ("capital"), or a word that is a noun as well ("neighbour", "borders"; the geography KG's symmetric `neighbour`,
    read as a verb, had been walked one way only)."""
    ws = label.lower().split()
    if not ws or not _inflected(ws[0]) or not all(is_function_word(w) for w in ws[1:]):
        return None
    if len(ws) >= 2 and ws[-1] == "by" and _participle(ws[0]):
        return "by"  # "advised by", "cared for by"
    if _participle_only(ws[0]):
        return "participle only"
    if _participle(ws[0]):
        return "participle"
    return "active" if len(ws) > 1 or not getAllLemmas(ws[0]).get("NOUN") else None


def voiced(text: str, named: Mapping[str, Spelling], schema: Schema) -> Voiced | None:
    """The relation of the question's main verb and the end it asks for; None where the question opens with no
    wh-word, its main verb spells no relation whose name says an act, or the words around the verb say no form."""
    ws = re.findall(r"[a-z]+", fold(text))
    if not ws or ws[0] not in WH:
        return None
    spelt: dict[str, set[tuple[str, str]]] = {}
    for name, spelling in named.items():
        rel = schema.relation(name)
        form = label_form(rel.label) if rel is not None else None
        for word in spelling.words if form is not None else ():
            spelt.setdefault(word, set()).add((name, form))
    first = 2 if ws[0] == "which" else 1  # "which <noun>": the word after "which" is its noun ("which states ...")
    for k, word in enumerate(ws[first:], start=first):
        if word in spelt and may_be_verb(word) and not (ws[0] == "what" and k == 1 and is_noun(word)):  # "what courses"
            if len(spelt[word]) > 1:
                return None  # "works" for `works_in` and `works_on`: which one, the words around it say
            ((name, form),) = spelt[word]
            asks_objects = ASKS_OBJECTS.get((form, question_form(ws[1:k], word, ws[k + 1:])))
            return None if asks_objects is None else Voiced(name, asks_objects)
    return None


def question_form(before: list[str], verb: str, after: list[str]) -> str | None:
    """What the wh-phrase is to the main verb, from the words between the wh-word and the verb and those after it:
    "subject" ("which professors advise X", "who is teaching X", "who has advised X"), "object" ("which students
    does X advise", the verb last but for its particles) or "passive" (the subject of one: "which courses were
    taught by X"); None for anything else: "which museums own works by X" (the wh-phrase holds the verb), "which
    alliance does the airline headquartered in X belong to" (the verb read is a relative clause's)."""
    aux = next((i for i, w in enumerate(before) if w in DO | BE | HAVE), None)
    if aux is None:
        return "subject" if len(before) <= WH_PHRASE and not any(map(_verb_not_noun, before)) else None
    if aux > WH_PHRASE:
        return None
    subject = before[aux + 1:]
    if before[aux] in DO:
        last = all(is_function_word(w) for w in after)
        return "object" if last and 1 <= len(subject) <= SUBJECT_WORDS else None
    if subject:
        return None  # "who is the professor that advises X": the verb is a relative clause's
    if before[aux] in BE and verb.endswith("ing") or before[aux] in HAVE and _participle(verb):
        return "subject"
    return "passive" if before[aux] in BE and _participle(verb) else None


def reads_backwards(program: Program, voice: Voiced | None) -> bool:
    """Whether the program answers with another end than the one `voice` asks for: its last step walks the
    relation the other way, or walks another relation after walking this one. A last step that ranks, counts or
    compares is not judged."""
    if voice is None:
        return False
    lasts = [program.left, program.right] if isinstance(program, And) else [program]
    steps = [step for step in lasts if isinstance(step, Join)]
    if not steps:
        return False
    if any(relation_name(step.relation) == voice.relation for step in steps):
        return not any(relation_name(step.relation) == voice.relation
                       and isinstance(step.relation, Reverse) == voice.toward_objects for step in steps)
    walked = any(isinstance(node, Join) and relation_name(node.relation) == voice.relation for node in walk(program))
    return walked and len(steps) == len(lasts)


def _verb_not_noun(word: str) -> bool:
    lemmas = getAllLemmas(word)
    return bool(lemmas.get("VERB")) and not lemmas.get("NOUN")


def _inflected(word: str) -> bool:
    """ "teaches", "reports", "advised": a verb form other than its base."""
    return any(lemma != word for lemma in getAllLemmas(word).get("VERB", ()))


def _participle_only(word: str) -> bool:
    """ "written", "born": a past participle that is no past tense ("located" and "enrolled" are both, and
    "X enrolled in Y" says what X did)."""
    return any(word in getInflection(lemma, "VBN") and word not in getInflection(lemma, "VBD")
               for lemma in getAllLemmas(word).get("VERB", ()))


def _participle(word: str) -> bool:
    """A past participle: "advised", "taught", "built", "written"."""
    return any(word in getInflection(lemma, "VBN") for lemma in getAllLemmas(word).get("VERB", ()))
