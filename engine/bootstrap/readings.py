"""Stand-in exemplars: an explored program with its English reading as the question.

Exploration takes seconds; writing a question takes the LLM seconds per program. So between an
upload and a finished corpus, the reasoner would be steered by nothing but the schema. A program's
reading ("the director of the movie Alien") is a clumsy question but a true one, and it already
shows the scorer which relations and shapes this KG has. The reasoner takes readings in as soon as
the programs are explored and drops each one when the program's real question is written.
"""

from __future__ import annotations

from typing import Iterable

from engine.programs.sexpr import parse
from engine.programs.verbalize import verbalize
from kg_adapters.schema import Schema

from .corpus import CorpusRecord
from .explorer import ExploredProgram
from .qgen import anonymise_question

SOURCE = "reading"


def reading_records(programs: Iterable[ExploredProgram], schema: Schema) -> list[CorpusRecord]:
    """One stand-in record per program whose reading can be built."""
    out = []
    for explored in programs:
        try:
            question = verbalize(parse(explored.program), schema)
        except (TypeError, ValueError):  # a program the reader has no words for stays out
            continue
        anonymised = anonymise_question(question, [(label, cls) for label, _, cls in explored.entities])
        out.append(CorpusRecord(
            program=explored.program, subprograms=explored.subprograms, question=question,
            anonymised_question=anonymised, top_beam_question=question, ic_score=0.0, top_beam_ic_score=0.0,
            beam_score=0.0, subquestions=(), anonymised=explored.anonymised, pattern=explored.pattern,
            answers=explored.answers, entities=explored.entities, source=SOURCE,
        ))
    return out
