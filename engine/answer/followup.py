"""Follow-up questions: "what else did he direct?" after "who directed Alien?".

A follow-up names its subject with a pronoun instead of a label. It is read as the
same question with the pronoun replaced by a bracketed label ("what else did
[Ridley Scott] direct?"), which the linker takes as given. So the reasoner keeps no
conversation memory of its own, the memo and the corpus see ordinary questions,
and the user is shown exactly how the follow-up was understood.

The referent is the previous answer when that was a single entity ("who directed
Alien?" -> Ridley Scott -> "he"), otherwise the entity the previous question was
about ("which movies did Ridley Scott direct?" -> "when was he born?"). A question
that names an entity of its own is never rewritten.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterable

# Words that stand for something said before. Possessives become "[X]'s".
_SUBJECT_OBJECT = ("he", "she", "him", "her", "it", "they", "them")
_POSSESSIVE = ("his", "its", "their", "hers")
# "that one", "this person": language-level nouns; the KG adds its own class words ("that movie").
_DEMONSTRATIVE_NOUNS = ("one", "person", "place", "thing")


def _anaphor(class_words: Iterable[str] = ()) -> re.Pattern:
    nouns = sorted({*_DEMONSTRATIVE_NOUNS, *(w for w in class_words if w.isalpha())}, key=lambda w: (-len(w), w))
    demonstrative = rf"(?:that|this) (?:{'|'.join(map(re.escape, nouns))})"
    return re.compile(
        rf"\b(?:(?P<possessive>{'|'.join(_POSSESSIVE)})|(?P<plain>{'|'.join(_SUBJECT_OBJECT)}|{demonstrative}))\b",
        re.IGNORECASE,
    )


@dataclass(frozen=True)
class Turn:
    """What a follow-up may refer back to: one earlier question and its outcome."""

    question: str
    answer_entities: tuple[str, ...]  # labels of the answers that are KG entities (not values or counts)
    topic_entities: tuple[str, ...]  # labels of the entities the question was about, best first


def referent(turn: Turn) -> str | None:
    if len(turn.answer_entities) == 1:
        return turn.answer_entities[0]
    return turn.topic_entities[0] if turn.topic_entities else None


def rewrite(question: str, previous: Turn | None, names_an_entity: Callable[[str], bool],
            class_words: Iterable[str] = ()) -> str | None:
    """The follow-up read as a standalone question, or None when it is not a follow-up. `class_words`: the
    KG's words for its classes, so that "that movie" refers back where the KG has movies."""
    anaphor = _anaphor(class_words)
    if previous is None or not anaphor.search(question):
        return None
    if names_an_entity(anaphor.sub(" ", question)):  # blanked first: there are movies called "Her" and "It"
        return None
    label = referent(previous)
    if not label:
        return None
    label = label.replace("[", "(").replace("]", ")")  # brackets delimit the mention

    def substitute(match: re.Match) -> str:
        return f"[{label}]'s" if match.group("possessive") else f"[{label}]"

    return anaphor.sub(substitute, question, count=1)
