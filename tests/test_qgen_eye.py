"""bench.qgen_eye's own logic, without the LLM: the draw, the table it writes, and reading the judgments back."""

from __future__ import annotations

from pathlib import Path

from bench import qgen_eye
from engine.bootstrap.corpus import Corpus, CorpusRecord, Manifest


def _record(i: int, source: str = "explored") -> CorpusRecord:
    program = f'(JOIN (R has_genre) "Film {i}")'
    return CorpusRecord(program=program, subprograms=(program,), question=f"what genre is film {i}? | or not",
                        anonymised_question="q", top_beam_question="q", ic_score=0.0, top_beam_ic_score=0.0,
                        beam_score=0.0, subquestions=(), anonymised=program, pattern="p", answers=1, entities=(),
                        source=source)


def test_the_draw_is_fixed_and_takes_only_what_the_bootstrap_wrote() -> None:
    records = [_record(i) for i in range(30)] + [_record(99, source="user")]
    first, again = qgen_eye.draw(records, 10, 27), qgen_eye.draw(records, 10, 27)
    assert first == again and len(first) == 10
    assert all(r.source == "explored" for r in first)
    assert [records.index(r) for r in first] == sorted(records.index(r) for r in first)  # corpus order
    assert qgen_eye.draw(records, 10, 28) != first


def test_a_filled_table_is_counted_with_its_failure_kinds(tmp_path: Path, monkeypatch) -> None:
    corpus = Corpus(tmp_path / "films-b8-s0")
    corpus.write_manifest(Manifest("fp", "films.tsv", "qwen2.5-coder-0.5b", {"qgen_beams": 3, "qgen_context": 1}))
    sample = [_record(i) for i in range(3)]
    for record in sample:
        corpus.append(record)
    monkeypatch.setattr(qgen_eye, "HERE", tmp_path)
    path = qgen_eye.table_path("films")
    qgen_eye.write_table("films", corpus.folder, sample, ["the genre of the film"] * 3, "cmd", path)
    assert qgen_eye.judged(path) == [("", "")] * 3  # blank columns to fill; the question's "|" did not split a cell
    text = path.read_text(encoding="utf-8").replace("|  |  |  |", "| y | y |  |", 1)
    text = text.replace("|  |  |  |", "| y | n | step dropped: the genre |", 1).replace("|  |  |  |", "| n | y | no verb |")
    path.write_text(text, encoding="utf-8")
    assert qgen_eye.judged(path) == [("y", "y"), ("y", "n"), ("n", "y")]
    assert qgen_eye.failure_kinds(path) == {"step dropped": 1, "no verb": 1}
    assert qgen_eye.count_line("films", path).startswith("films: 1/3 grammatical and faithful (grammatical 2, faithful 2)")


def test_the_round_trip_holds_out_the_drawn_records_when_told() -> None:
    from bench.roundtrip import held_out

    records = [_record(i) for i in range(12)] + [_record(50, source="user")]
    drawn = qgen_eye.draw(records, 4, 27)
    test, rest = held_out(records, 99, 0, held=[r.program for r in drawn] + [records[-1].program])
    assert test == drawn  # the user's record is never held out
    assert len(rest) == len(records) - 4 and records[-1] in rest
    assert len(held_out(records, 3, 0)[0]) == 3  # without `held`: a seeded draw, as before


def test_a_rewrite_without_the_corpus_takes_the_programs_its_table_lists(tmp_path: Path, monkeypatch) -> None:
    corpus = Corpus(tmp_path / "films-b8-s0")
    corpus.write_manifest(Manifest("fp", "films.tsv", "qwen2.5-coder-0.5b", {"qgen_beams": 3, "qgen_context": 1}))
    sample = [_record(i) for i in range(3)]
    monkeypatch.setattr(qgen_eye, "HERE", tmp_path)
    path = qgen_eye.table_path("films")
    qgen_eye.write_table("films", corpus.folder, sample, ["the genre of the film"] * 3, "cmd", path)
    listed = qgen_eye.sample_from_table("films")
    assert [r.program for r in listed] == [r.program for r in sample]
    gone = tmp_path / "gone-b8-s0"  # the machine no longer has the corpus: the table's own header says what was drawn
    drawn = qgen_eye.drawn_from(gone, "films")
    assert drawn.startswith("3 records drawn from `films-b8-s0`") and drawn.endswith("(as its table lists them).")
