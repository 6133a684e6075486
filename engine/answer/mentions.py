"""What linking finds in a question: mentions, each with its candidate entities, literals or classes.

A `Linking` also rewrites the question: without brackets (`plain_question`) and with each linked
entity or literal replaced by its class (`anonymised`), the form in which questions are compared with
the corpus and candidates are read aloud. `name_runs` and `offered_choice` read names written together ("Spain
and Portugal", "Brazil or Argentina").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.programs.sexpr import YEARS


@dataclass(frozen=True)
class Candidate:
    kind: str  # "entity" | "literal" | "class"
    label: str  # the KG label (entity), the value (literal), or the class name
    iri: str | None  # entity IRI
    score: float  # 1.0 exact, lower for normalised/fuzzy
    classes: tuple[str, ...] = ()  # schema class names of the entity; literal: its kind, e.g. ("year",)
    literal_kind: str | None = None  # "integer" | "decimal" | "date" for literals (engine.programs.sexpr.Literal.kind)


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


SCORE_LITERAL = 1.0
_YEAR = re.compile(r"\d{4}")
_INTEGER = re.compile(r"\d+")
_DECIMAL = re.compile(r"\d+\.\d+")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def literal_candidate(text: str) -> Candidate | None:
    """A number or an ISO date as a literal; years 1000..2100 get the class "year"."""
    text = text.strip()
    if _DATE.fullmatch(text):
        return Candidate("literal", text, None, SCORE_LITERAL, ("date",), "date")
    if _DECIMAL.fullmatch(text):
        return Candidate("literal", text, None, SCORE_LITERAL, ("decimal",), "decimal")
    if _INTEGER.fullmatch(text):
        value = int(text)
        kind = "year" if _YEAR.fullmatch(text) and value in YEARS else "integer"
        return Candidate("literal", text, None, SCORE_LITERAL, (kind,), "integer")
    return None


# What may join the names of a choice: "Brazil or Argentina", "Spain, Italy or Greece", "Canada vs the United
# States". A run of names is a choice where one joint says "or"/"vs", or where "between", "among" or a first "of"
# opens it ("Of Spain, Italy and Greece, which ..."): "do Spain and Portugal share a border" chooses nothing.
_JOINT = re.compile(r"\s*(,|(,\s*)?(or|and|versus|vs\.?)(?=\s))\s*(the\s+)?", re.IGNORECASE)
_OR_JOINT = re.compile(r"\b(or|vs\.?|versus)\b", re.IGNORECASE)
_LIST_OPENER = re.compile(r"(^\s*(of|among)|\b(between|among))\s+(the\s+)?$", re.IGNORECASE)


def name_runs(text: str, linking: Linking) -> list[tuple[int, ...]]:
    """Runs of two or more entity mentions joined by commas, "and", "or" or "vs": "Spain and Portugal"."""
    mentions = linking.mentions
    runs: list[list[int]] = []
    for i, mention in enumerate(mentions):
        if not any(c.kind == "entity" for c in mention.candidates):
            continue
        if runs and _JOINT.fullmatch(text[mentions[runs[-1][-1]].end : mention.start]):
            runs[-1].append(i)
        else:
            runs.append([i])
    return [tuple(run) for run in runs if len(run) > 1]


def offered_choice(text: str, linking: Linking, runs: list[tuple[int, ...]]) -> tuple[int, ...]:
    """The entity mentions to choose between ("which is bigger, Brazil or Argentina"), or ()."""
    mentions = linking.mentions
    for run in runs:
        joints = [text[mentions[a].end : mentions[b].start] for a, b in zip(run, run[1:])]
        if any(_OR_JOINT.search(j) for j in joints) or _LIST_OPENER.search(text[: mentions[run[0]].start]):
            return run
    return ()
