"""MetaQA dev questions and the gold program of each question type.

Reads `../shared/data` (never copied into the project). A question type such as
`movie_to_director_to_movie` is a relation path; its program starts at the
bracketed topic entity and follows one JOIN per hop.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"
MOVIEKG = SHARED / "moviekg" / "kb.txt"

# The non-movie end of each hop and the relation that links it to a movie.
_RELATION = {
    "director": "directed_by",
    "writer": "written_by",
    "actor": "starred_actors",
    "genre": "has_genre",
    "year": "release_year",
    "language": "in_language",
    "tags": "has_tags",
    "tag": "has_tags",
    "imdbrating": "has_imdb_rating",
    "imdbvotes": "has_imdb_votes",
}


@dataclass(frozen=True)
class MetaQAQuestion:
    hop: int
    question: str  # with the topic entity's brackets removed
    topic: str
    answers: tuple[str, ...]
    qtype: str


def gold_program(qtype: str, topic: str) -> str:
    """`movie_to_director_to_movie`, "Blade Runner" -> (JOIN directed_by (JOIN (R directed_by) "Blade Runner"))."""
    from engine.programs.sexpr import quote_label

    kinds = qtype.split("_to_")
    program = quote_label(topic)
    for here, there in zip(kinds, kinds[1:]):
        if here == "movie":
            program = f"(JOIN (R {_RELATION[there]}) {program})"
        elif there == "movie":
            program = f"(JOIN {_RELATION[here]} {program})"
        else:
            raise ValueError(f"a hop must start or end at a movie: {here} -> {there}")
    return program


def load_questions(hop: int, root: Path = SHARED) -> list[MetaQAQuestion]:
    folder = root / "metaqa" / f"{hop}-hop"
    lines = (folder / "qa_dev.txt").read_text(encoding="utf-8").splitlines()
    qtypes = (folder / "qa_dev_qtype.txt").read_text(encoding="utf-8").splitlines()
    out = []
    for line, qtype in zip(lines, qtypes):
        question, answers = line.split("\t")
        topic = re.search(r"\[(.+?)\]", question).group(1)
        out.append(MetaQAQuestion(hop, question.replace("[", "").replace("]", ""), topic, tuple(answers.split("|")), qtype.strip()))
    return out


def f1(predicted: set[str], gold: set[str]) -> float:
    if not predicted or not gold:
        return float(predicted == gold)
    hit = len(predicted & gold)
    if hit == 0:
        return 0.0
    precision, recall = hit / len(predicted), hit / len(gold)
    return 2 * precision * recall / (precision + recall)
