"""Which of a program's steps can each have a part of the question to itself: a largest matching of steps to parts.

Both the faithfulness check of generated questions (a walk needs its own phrase, engine.bootstrap.faithful) and the
re-rank's unused question words (a word needs its own step, engine.answer.meant) ask one question: pair each step
with a distinct group of words that names its relation, as many pairs as can be. A program has a handful of steps,
so augmenting paths (Kuhn's algorithm) are plenty.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence


def unmatched(steps: Sequence[str], groups: Sequence[Collection[str]]) -> list[int]:
    """The positions of `steps` (relation names) left without a group of their own when each group, a set of the
    relation names it names, goes to at most one step it names, in a largest such matching."""
    owner: dict[int, int] = {}  # group -> step

    def place(step: int, seen: set[int]) -> bool:
        for at, names in enumerate(groups):
            if steps[step] in names and at not in seen:
                seen.add(at)
                if at not in owner or place(owner[at], seen):
                    owner[at] = step
                    return True
        return False

    return [step for step in range(len(steps)) if not place(step, set())]
