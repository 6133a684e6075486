"""The benchmark's own plumbing: what --fresh-query-cache shares and what it starts afresh."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.metaqa import fresh_query_cache
from engine.config import ScoutConfig


def test_a_fresh_query_cache_shares_all_but_the_memos(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    for name in ("stores", "models", "executions", "answers", "reasoner"):
        (cache / name).mkdir(parents=True)
        (cache / name / "f").write_text(name)
    (tmp_path / "fresh").mkdir()
    fresh = Path(fresh_query_cache(ScoutConfig(cache_dir=str(cache)), tmp_path / "fresh").cache_dir)
    assert fresh == tmp_path / "fresh"
    assert sorted(p.name for p in fresh.iterdir()) == ["models", "reasoner", "stores"]
    assert (fresh / "stores" / "f").read_text() == "stores"  # shared, not copied
    assert (fresh / "stores").resolve() == (cache / "stores").resolve()


def test_the_load_report_counts_errors_differences_and_the_throughput_ratio() -> None:
    """bench.load's arithmetic on made-up runs: what differs from the session alone, and the ratios."""
    from argparse import Namespace

    from bench.load import Asked, Run, questions, report

    asked = questions(6)
    assert len(asked) == 6 and asked == questions(6)  # a fixed sample of our own questions
    base = Run([Asked(0, "q1", "(A)", 1.0), Asked(0, "q2", "(B)", 3.0)], seconds=4.0)  # 30 a minute
    load = Run([Asked(1, "q1", "(A)", 2.0), Asked(2, "q2", "(C)", 4.0), Asked(1, "q1", "", 9.0, "**Error:**"),
                Asked(2, "q1", "(A)", 6.0)], seconds=6.0)  # 3 answered in 6 s: 30 a minute
    rss = [(0, 100.0), (5, 120.0), (10, 105.0), (70, 110.0), (130, 108.0), (190, 112.0)]
    rows = {r[0]: r[1] for r in report(Namespace(sessions=2, warmup_s=60), base, load, rss, "still running")}
    assert rows["errors"] == "1 of 6 answers"
    assert rows["answers whose program differs from the session alone"] == "1 of 3"
    assert rows["2 sessions: answers a minute (vs alone)"].startswith("30.0 (1.00x")
    assert rows["app RSS: start / peak / end of the load (MiB)"] == "100 / 120 / 112 (+12.0%)"
    # from the first sample at or past the warm-up: 110, 108, 112 at 70, 130, 190 s; +1 MiB a minute
    assert rows["app RSS after the warm-up (from 1 min): first / lowest / highest / end (MiB)"] == \
        "110 / 108 / 112 / 112 (+1.8%); trend +1.0 MiB a minute"
    # medians of a minute's readings: 100, 120, 105 up to 60 s (105); 108, 112 from 130 s on (110)
    key = "app RSS, median of the first minute's readings against the last minute's (MiB)"
    assert rows[key] == "105 / 110 (+4.8%)"


def test_a_replayed_rerank_gives_back_the_recorded_winner_and_moves_with_each_penalty() -> None:
    """bench.replay on a made-up row: two scored finalists, the recorded winner a walk back by 0.02."""
    from bench.replay import replayed_f1

    def scores(final: float | None, asked: bool = True) -> dict:
        return {"final": final, "asked_class": asked}

    row = {"question": "who advises Lena?", "f1": 0.0,
           "alternatives": ['(JOIN advised_by (JOIN (R advised_by) "Lena"))', '(JOIN (R advised_by) "Lena")',
                            '(JOIN (R member_of) "Lena")'],
           "alternative_f1": [0.0, 1.0, 0.5],
           "alternative_scores": [scores(-3.58), scores(-3.60), scores(None, asked=False)]}
    assert replayed_f1(row, 0.0) == 0.0  # no change: the recorded answer
    assert replayed_f1(row, 0.1) == 1.0  # the walk back pays 0.1 and falls behind
    assert replayed_f1({**row, "question": "who shares an adviser with Lena?"}, 0.1) == 0.0  # asked for: no penalty
    assert replayed_f1({**row, "alternative_scores": [scores(None)] * 3}, 0.5) == 0.0  # nothing scored: as recorded
    marked = [{**scores(-3.58), "stands_in": True}, {**scores(-3.60), "stands_in": False}, scores(None, asked=False)]
    assert replayed_f1({**row, "alternative_scores": marked}, 0.0, 0.1) == 1.0  # the stand-in pays 0.1
    steps = [{**scores(-3.58), "unnamed": 1}, {**scores(-3.60), "unnamed": 0}, scores(None, asked=False)]
    assert replayed_f1({**row, "alternative_scores": steps}, 0.0, 0.0, 0.1) == 1.0  # its unnamed step pays 0.1
    trips = [{**scores(-3.58), "detours": 1}, {**scores(-3.60), "detours": 0}, scores(None, asked=False)]
    assert replayed_f1({**row, "alternative_scores": trips}, 0.0, 0.0, 0.0, 0.1) == 1.0  # its round trip pays 0.1
    assert replayed_f1({**row, "alternative_scores": steps}, 0.0, 0.0, 0.0, 0.1) == 0.0  # rows before v51: none
    words = [{**scores(-3.58), "unspent": 1}, {**scores(-3.60), "unspent": 0}, scores(None, asked=False)]
    assert replayed_f1({**row, "alternative_scores": words}, 0.0, 0.0, 0.0, 0.0, 0.1) == 1.0  # its unspent word pays
    backwards = [{**scores(-3.58), "backwards": True}, {**scores(-3.60), "backwards": False}, scores(None, asked=False)]
    assert replayed_f1({**row, "alternative_scores": backwards}, 0.0, voice=0.1) == 1.0  # its verb read backwards pays
    # the forward score weighed less: the walk back leads by forward 1.0 and trails by inverse 0.6 (recorded at 0.5)
    weighed = [{**scores(-3.58), "forward": -1.0, "inverse": -2.6}, {**scores(-3.60), "forward": -2.0, "inverse": -2.0},
               scores(None, asked=False)]
    assert replayed_f1({**row, "alternative_scores": weighed}, 0.0, alpha=0.5) == 0.0  # as recorded
    assert replayed_f1({**row, "alternative_scores": weighed}, 0.0, alpha=0.4) == 1.0  # it loses 0.16, the other nothing


def test_replayed_row_files_merge_with_the_later_row_of_a_question_winning(tmp_path) -> None:
    """bench.replay --merge: a full run, then the questions a later tree answered again (bench.kgs --only)."""
    from bench.replay import _row_sets

    def row(id_: str, f1: float) -> str:
        return json.dumps({"kg": "k", "id": id_, "f1": f1}) + "\n"

    full, again = tmp_path / "full.jsonl", tmp_path / "only.jsonl"
    full.write_text(row("a", 0.0) + row("b", 1.0))
    again.write_text(row("a", 1.0))
    assert [len(rows) for _, rows in _row_sets([full, again], merge=False)] == [2, 1]
    ((name, rows),) = _row_sets([full, again], merge=True)
    assert name == "full.jsonl+only.jsonl" and {r["id"]: r["f1"] for r in rows} == {"a": 1.0, "b": 1.0}


@pytest.mark.parametrize("name", ["company", "family", "usgeo", "science"])
def test_made_up_kgs_load_and_every_gold_answer_is_in_them(name: str, tmp_path) -> None:
    """bench.made_up: the Turtle loads, and each question's gold labels are labels (or values) of the KG."""
    import json

    from bench.made_up import write
    from engine.programs.kg import KnowledgeGraph

    kg_path, rows = write(name, tmp_path)
    kg = KnowledgeGraph.open(str(kg_path), ScoutConfig(cache_dir=str(tmp_path / "cache")))
    try:
        text = kg_path.read_text()
        questions = [json.loads(line) for line in rows.read_text().splitlines()]
        assert len(questions) == {"company": 38, "family": 16, "usgeo": 40, "science": 41}[name]
        for q in questions:
            assert q["answers"], q
            assert all(f'"{a}"' in text or a.isdigit() for a in q["answers"]), q
        relation = {"company": "works_on", "family": "parent", "usgeo": "next_to", "science": "orbits"}[name]
        assert kg.schema.relation(relation) is not None
        kinds = {"company": {"active": "boolean", "hired": "date"}, "usgeo": {"population": "integer"},
                 "science": {"mass": "decimal", "crewed": "boolean", "discovered": "year", "launch": "date"}}
        for held, kind in kinds.get(name, {}).items():  # the literals load as the kinds the questions ask of them
            assert kg.schema.literal_kind(kg.schema.relation(held)) == kind, held
    finally:
        kg.close()


def test_touched_counts_reached_questions_and_shows_tune_ids_only(tmp_path, capsys) -> None:
    """bench.touched --compare: per KG and half, how many digests changed; the ids of tune rows, never of check rows."""
    import json

    from bench.touched import compare

    rows = [("k", "a", "tune", "1"), ("k", "b", "tune", "2"), ("k", "c", "check", "3"), ("k", "d", "check", "4")]
    before, after = tmp_path / "before.jsonl", tmp_path / "after.jsonl"
    before.write_text("".join(json.dumps({"kg": k, "id": i, "half": h, "digest": d}) + "\n" for k, i, h, d in rows))
    after.write_text("".join(json.dumps({"kg": k, "id": i, "half": h, "digest": d if i in "ad" else d + "x"}) + "\n"
                             for k, i, h, d in rows))
    reached = tmp_path / "reached.tsv"
    compare(before, after, reached=reached)
    out = capsys.readouterr().out
    assert "k: tune 1 of 2 reached, check 1 of 2" in out
    assert "tune b" in out and " c" not in out.replace("check", "")
    # both halves go to the file for `bench.kgs --only`, which no one reads
    assert reached.read_text() == "k\tb\nk\tc\n"
