"""One plain sentence that leads a reply: the program's English reading (verbalize.py) said with its answers.

"what is the population of Canada?" answered with a bare "37,058,856" leaves a reader to guess which Canada
and which relation were used; "The population of the country Canada is 37,058,856." says both. The sentence
is built from the program and its answers alone (no LLM call), one rule per kind of answer: a count, a
yes/no, a single value, several members. Answers arrive already written for display (the caller formats
numbers), so this module decides only the words around them.
"""

from __future__ import annotations

from typing import Sequence

from kg_adapters.schema import Schema

from .sexpr import Aggregate, Count, In, Node
from .verbalize import verbalize

NAMED = 3  # answers named in the sentence; the list below it has the rest


def lead_sentence(node: Node, schema: Schema, answers: Sequence[str], total: int | None = None) -> str:
    """The sentence for a program and its answers (display texts, first ones first; `total`: how many there
    are in all, when more than `answers`). Empty when there is nothing to say (no answers)."""
    total = len(answers) if total is None else total
    if not answers or total <= 0:
        return ""
    reading = verbalize(node, schema, sure=True)
    if isinstance(node, In):
        return _yes_no(reading, answers[0])
    if isinstance(node, (Count, Aggregate)) or total == 1:
        return f"{_capital(reading)} is {answers[0]}." if reading.startswith("the ") else \
            f"{_capital(reading)}: {answers[0]}."
    return f"{_capital(reading)} ({total:,}): {_named(answers, total)}."


def _yes_no(reading: str, answer: str) -> str:
    """ "is A among B?" read as "Yes, A is among B." or "No, A is not among B." """
    yes = answer.strip(". ").lower() == "yes"
    claim = reading.rstrip("?").removeprefix("is ")
    if " among " not in claim:
        return f"{'Yes' if yes else 'No'}: {reading}"
    member, group = claim.split(" among ", 1)
    return f"Yes, {member} is among {group}." if yes else f"No, {member} is not among {group}."


def _named(answers: Sequence[str], total: int) -> str:
    """ "A, B and C", or "A, B, C and 12 more" """
    shown = list(answers[:NAMED])
    rest = total - len(shown)
    if rest > 0:
        return f"{', '.join(shown)} and {rest:,} more"
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} and {shown[-1]}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
