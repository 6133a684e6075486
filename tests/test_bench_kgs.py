"""bench.kgs's own logic, without the LLM: the stratified sample, the failure kinds, the table."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict
from pathlib import Path

import pytest

from engine.config import ScoutConfig

from bench.kgs import (
    CHECK,
    FAILURE_KINDS,
    KGS_DATA,
    TUNE,
    TABLE_HEADER,
    Evidence,
    KGSummary,
    Row,
    examples,
    failure_kind,
    half,
    jsonl_questions,
    load_rows,
    markdown_table,
    parse_args,
    stratified_sample,
    summarise,
    table_rows,
)

ITEMS = [("a", i) for i in range(30)] + [("b", i) for i in range(10)] + [("c", i) for i in range(3)]


def stratum(item: tuple[str, int]) -> str:
    return item[0]


def test_the_sample_gives_each_stratum_an_equal_share() -> None:
    picked = stratified_sample(ITEMS, stratum, 9, seed=0)
    assert Counter(map(stratum, picked)) == {"a": 3, "b": 3, "c": 3}
    assert len(set(picked)) == 9 and set(picked) <= set(ITEMS)


def test_a_small_stratum_gives_its_shortfall_to_the_others() -> None:
    picked = stratified_sample(ITEMS, stratum, 15, seed=0)
    assert Counter(map(stratum, picked)) == {"a": 6, "b": 6, "c": 3}
    assert Counter(map(stratum, stratified_sample(ITEMS, stratum, 10, seed=0))) == {"a": 4, "b": 3, "c": 3}


def test_the_sample_is_seeded_and_deterministic() -> None:
    assert stratified_sample(ITEMS, stratum, 12, seed=0) == stratified_sample(list(ITEMS), stratum, 12, seed=0)
    assert stratified_sample(ITEMS, stratum, 12, seed=0) != stratified_sample(ITEMS, stratum, 12, seed=1)
    # not the first items of each stratum: they are shuffled
    assert [i for s, i in stratified_sample(ITEMS, stratum, 30, seed=0) if s == "a"] != list(range(10))


def test_a_smaller_sample_is_a_prefix_of_a_larger_one() -> None:
    assert stratified_sample(ITEMS, stratum, 40, seed=3)[:12] == stratified_sample(ITEMS, stratum, 12, seed=3)


def test_no_limit_takes_everything_and_more_than_there_is_takes_everything() -> None:
    assert sorted(stratified_sample(ITEMS, stratum, None, seed=0)) == sorted(ITEMS)
    assert sorted(stratified_sample(ITEMS, stratum, 1000, seed=0)) == sorted(ITEMS)
    assert stratified_sample([], stratum, 5, seed=0) == []


GOLD = '(JOIN (R population) "Canada")'
OTHER = '(JOIN (R area) "Canada")'
THIRD = '(JOIN (R currency) "Canada")'

CASES = [
    # (name, evidence, expected kind)
    ("a hit is no failure", Evidence(f1=1.0, program=GOLD, gold_program=GOLD), None),
    ("dataset says unsupported", Evidence(f1=0.0, program=OTHER, unsupported=True), "unsupported"),
    ("unsupported wins over everything", Evidence(f1=0.0, unsupported=True, searched=False), "unsupported"),
    ("nothing linked, nothing searched", Evidence(f1=0.0, program=None, searched=False), "linking"),
    ("gold entity not among the candidates",
     Evidence(f1=0.0, program='(JOIN (R population) "Canada Bay")', alternatives=('(JOIN (R population) "Canada Bay")',),
              alternative_f1=(0.0,), linked_labels=("Canada Bay", "Canadian"), gold_program=GOLD), "linking"),
    ("gold entity linked under another case is linked",
     Evidence(f1=0.0, program=OTHER, alternatives=(OTHER,), alternative_f1=(0.0,), linked_labels=("canada",),
              gold_program=GOLD), "search"),
    ("the gold program was chosen (spacing aside)",
     Evidence(f1=0.5, program='(JOIN  (R population)   "Canada")', linked_labels=("Canada",), gold_program=GOLD),
     "gold-data"),
    ("another program with exactly the gold program's answers",
     Evidence(f1=0.5, program=OTHER, linked_labels=("Canada",), gold_program=GOLD, gold_matches_prediction=True),
     "gold-data"),
    ("a finalist answers right",
     Evidence(f1=0.0, program=OTHER, alternatives=(OTHER, THIRD), alternative_f1=(0.0, 1.0)), "ranking"),
    ("a finalist at 0.99 counts",
     Evidence(f1=0.5, program=OTHER, alternatives=(OTHER, THIRD), alternative_f1=(0.5, 0.99)), "ranking"),
    ("a better but still wrong finalist does not count",
     Evidence(f1=0.2, program=OTHER, alternatives=(OTHER, THIRD), alternative_f1=(0.2, 0.9)), "search"),
    ("the chosen program itself never counts as its own rival",
     Evidence(f1=0.0, program=OTHER, alternatives=(OTHER,), alternative_f1=(1.0,)), "search"),
    ("the gold program among the finalists",
     Evidence(f1=0.0, program=OTHER, alternatives=(OTHER, GOLD), alternative_f1=(0.0, 0.5),
              linked_labels=("Canada",), gold_program=GOLD), "ranking"),
    ("a finalist that did not run",
     Evidence(f1=0.0, program=OTHER, alternatives=(OTHER, THIRD), alternative_f1=(0.0, None)), "search"),
    ("searched but nothing executed, no gold known",
     Evidence(f1=0.0, program=None, searched=True), "search"),
    ("wrong answer, right reading never found",
     Evidence(f1=0.0, program=OTHER, alternatives=(OTHER,), alternative_f1=(0.0,)), "search"),
]


@pytest.mark.parametrize("evidence, expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_each_miss_gets_exactly_one_failure_kind(evidence: Evidence, expected: str | None) -> None:
    kind = failure_kind(evidence)
    assert kind == expected
    assert kind is None or kind in FAILURE_KINDS


def row(kg: str, f1: float, hits1: float, latency: float, failure_evidence: Evidence | None = None,
        id: str | None = None, question: str = "q?") -> Row:
    e = failure_evidence or Evidence(f1=f1)
    return Row(kg, id or f"{kg}-{f1}-{latency}", "s", question, ("x",), ("y",), e.program, e.gold_program, f1, hits1, latency,
               e.alternatives, e.alternative_f1, e.linked_labels, e.searched, e.gold_matches_prediction,
               e.unsupported, None, "c").classified()


def ids_in(wanted: str, n: int) -> list[str]:
    """n question ids that fall in the `wanted` half."""
    return [i for i in (f"q{k}" for k in range(1000)) if half(i) == wanted][:n]


def test_the_halves_are_fixed_by_the_id_and_split_about_evenly() -> None:
    ids = [f"worldcup-{k}" for k in range(2000)]
    assert [half(i) for i in ids] == [half(i) for i in reversed(ids)][::-1]  # not by order
    assert 900 < sum(half(i) == CHECK for i in ids) < 1100
    assert {half(i) for i in ids} == {TUNE, CHECK}


def test_a_kg_summary_has_f1_per_half_and_counts_failures_of_tune_only() -> None:
    t1, t2 = ids_in(TUNE, 2)
    (c1,) = ids_in(CHECK, 1)
    rows = [row("w", 1.0, 1.0, 2.0, id=t1), row("w", 0.0, 0.0, 4.0, Evidence(f1=0.0, searched=False), id=t2),
            row("w", 0.5, 1.0, 3.0, id=c1)]
    s = summarise("w", rows)
    assert (s.n_tune, s.n_check, s.tune_f1, s.check_f1, s.gap) == (2, 1, 50.0, 50.0, 0.0)
    assert (s.hits1, s.median_latency_s) == (pytest.approx(200 / 3), 3.0)
    # the check row missed too (F1 0.5), but only tune's misses are counted and shown
    assert s.failures == {"unsupported": 0, "linking": 1, "gold-data": 0, "ranking": 0, "search": 0}


def test_the_table_has_a_row_per_kg_with_tune_check_and_gap_and_a_macro_average() -> None:
    zero = dict.fromkeys(FAILURE_KINDS, 0)
    summaries = [KGSummary("big", 20, 20, 90.0, 84.0, 80.0, 2.5, {**zero, "search": 4}),
                 KGSummary("small", 5, 5, 50.0, 52.0, 60.0, 1.25, {**zero, "linking": 2, "search": 1})]
    rows = table_rows(summaries)
    assert rows[0] == ("big", "20 / 20", "90.0", "84.0", "+6.0", "80.0", "2.50", "0", "0", "0", "0", "4")
    assert rows[1] == ("small", "5 / 5", "50.0", "52.0", "-2.0", "60.0", "1.25", "0", "2", "0", "0", "1")
    # macro: each KG counts once (70 = (90 + 50) / 2, not the n-weighted 82)
    assert rows[2] == ("macro average", "25 / 25", "70.0", "68.0", "+2.0", "70.0", "", "0", "2", "0", "0", "5")
    assert all(len(r) == len(TABLE_HEADER) for r in rows)
    text = markdown_table(TABLE_HEADER, rows).splitlines()
    assert text[0].startswith("| KG | n tune / check | tune F1 | check F1 | gap | Hits@1 | median latency (s) |")
    assert text[1] == "|" + "---|" * 12
    assert table_rows([]) == []


def test_examples_never_show_a_check_row() -> None:
    (t,), (c,) = ids_in(TUNE, 1), ids_in(CHECK, 1)
    missed = Evidence(f1=0.0, searched=False)
    rows = [row("w", 0.0, 0.0, 1.0, missed, id=t, question="a tune question"),
            row("w", 0.0, 0.0, 1.0, missed, id=c, question="a check question")]
    text = examples(rows)
    assert "a tune question" in text and "a check question" not in text and "linking: 1" in text


def test_rows_round_trip_and_are_reclassified_on_load(tmp_path: Path) -> None:
    r = row("w", 0.0, 0.0, 1.0, Evidence(f1=0.0, program="(JOIN (R a) \"b\")", alternatives=("(JOIN (R a) \"b\")",
                                          "(JOIN (R c) \"b\")"), alternative_f1=(0.0, 1.0)))
    stale = {**asdict(r), "failure": "search"}  # written by an older rule
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(stale) + "\n" + '{"torn', encoding="utf-8")
    loaded = load_rows(path)
    assert list(loaded) == [("w", r.id, "c")]
    assert loaded[("w", r.id, "c")] == r and r.failure == "ranking"


def test_quick_mode_defaults() -> None:
    quick, full = parse_args(["--quick", "--no-report"]), parse_args([])
    # the full run bootstraps with the app's own default budget for an upload
    assert (quick.budget, full.budget, quick.report, full.report) == (24, ScoutConfig().budget, False, True)
    assert parse_args(["--quick", "--budget", "5"]).budget == 5
    from bench.kgs import SPECS

    assert quick.sample_size(SPECS["worldcup"]) == 12 and full.sample_size(SPECS["worldcup"]) == 200
    assert full.sample_size(SPECS["geography-demo"]) is None  # every supported row
    assert full.sample_size(SPECS["university"]) is None
    assert (full.seed, full.sample_seed) == (0, 1)
    assert parse_args(["--per-kg", "3"]).sample_size(SPECS["geography-demo"]) == 3


def test_a_reasoning_setting_is_varied_from_the_command_line() -> None:
    """A tuned constant is measured on the suite: `--prune-k 7` answers with it, on the same corpora."""
    assert parse_args(["--prune-k", "7", "--no-inverse-consistency"]).settings == {
        "prune_k": 7, "inverse_consistency": False}
    assert parse_args([]).settings == {}
    with pytest.raises(SystemExit):
        parse_args(["--max-relations", "2"])  # exploration settings would need other corpora


def test_a_question_writer_setting_builds_corpora_that_are_told_apart(tmp_path: Path) -> None:
    """`--qgen-readable` bootstraps with another question writer, and its corpora are not taken for the default's:
    a folder built one way refuses the other (`ensure_corpus`), so each writer needs a --cache-root of its own."""
    from bench.kgs import built_as
    from engine.bootstrap.build import exploration_parameters
    from engine.bootstrap.corpus import Corpus, Manifest

    readable = parse_args(["--qgen-readable", "--qgen-beams", "2", "--qgen-context", "0"])
    assert readable.settings == {"qgen_readable": True, "qgen_beams": 2, "qgen_context": 0}
    config = ScoutConfig(**readable.settings)
    folder = Corpus(tmp_path / "c")
    folder.write_manifest(Manifest("fp", "kg", "model", exploration_parameters(config)))
    assert built_as(folder.folder, config) and not built_as(folder.folder, ScoutConfig())


def test_only_answers_the_listed_questions_of_the_sample_and_never_reports(tmp_path: Path) -> None:
    """`--only R.tsv` (as bench.touched --reached writes it) cuts the sample to the listed (kg, id) pairs, keeps
    their order in the sample, and writes no BENCHMARKS.md section: a partial sample is no benchmark figure."""
    from bench.kgs import SPECS, sampled

    spec = SPECS["university"]
    if not (KGS_DATA / "university" / "questions.jsonl").exists():
        pytest.skip("needs ../shared/data")
    whole = sampled(spec, parse_args([]))
    listed = [whole[3], whole[0]]
    only = tmp_path / "reached.tsv"
    only.write_text("".join(f"{q.kg}\t{q.id}\n" for q in listed) + "worldcup\tnot-sampled\n")
    bench = parse_args(["--only", str(only)])
    assert [q.id for q in sampled(spec, bench)] == [whole[0].id, whole[3].id]
    assert bench.report is False
    bad = tmp_path / "bad.tsv"
    bad.write_text("university q1\n")  # a space, not a tab
    with pytest.raises(SystemExit):
        parse_args(["--only", str(bad)])
    with pytest.raises(SystemExit):
        parse_args(["--only", str(tmp_path / "missing.tsv")])


@pytest.mark.skipif(not (KGS_DATA / "geography-demo" / "questions.jsonl").exists(), reason="needs ../shared/data")
def test_geography_demo_rows_are_read_with_their_kind_and_gold_program() -> None:
    questions = jsonl_questions("geography-demo")
    unsupported = [q for q in questions if q.unsupported]
    assert unsupported and all(q.gold_program is None and q.stratum == "unsupported" for q in unsupported)
    supported = [q for q in questions if not q.unsupported]
    assert all(q.gold_program for q in supported) and len({q.stratum for q in supported}) > 1
    picked = stratified_sample(supported, lambda q: q.stratum, 14, seed=0)
    assert set(Counter(q.stratum for q in picked).values()) == {2}  # 7 kinds, 2 each


def test_the_report_section_has_the_kg_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import bench.report

    monkeypatch.setattr(bench.report, "BENCHMARKS", tmp_path / "BENCHMARKS.md")
    monkeypatch.setattr(bench.report, "machine", lambda: "test machine")
    rows = table_rows([KGSummary("w", 1, 1, 50.0, 50.0, 50.0, 1.0, dict.fromkeys(FAILURE_KINDS, 0))])
    bench.report.append_section("Accuracy across KGs (quick)", rows, "notes", header=TABLE_HEADER)
    text = (tmp_path / "BENCHMARKS.md").read_text(encoding="utf-8")
    assert "## Accuracy across KGs (quick)\n" in text and "- machine: test machine" in text
    assert markdown_table(TABLE_HEADER, rows) + "\n\nnotes\n" in text
    # the three-column form the other scripts use is unchanged
    bench.report.append_section("old", [("a", "b", "c")])
    assert "| what | measured | target |\n|---|---|---|\n| a | b | c |\n" in (tmp_path / "BENCHMARKS.md").read_text()


def test_a_corpus_written_with_other_settings_is_not_reused(tmp_path: Path) -> None:
    """A benchmark corpus of the older default question writer must not stand for the one the app writes now: the
    manifest records whether questions were readable, and one built before it recorded that was not."""
    from bench.kgs import built_as
    from engine.bootstrap.build import exploration_parameters
    from engine.bootstrap.corpus import Corpus, Manifest

    config = ScoutConfig()
    folder = tmp_path / "kg-b150-s0"
    Corpus(folder).write_manifest(Manifest("fp", "kg.nt", config.model, exploration_parameters(config)))
    assert built_as(folder, config)
    assert not built_as(folder, config.replace(qgen_readable=not config.qgen_readable))
    older = {k: v for k, v in exploration_parameters(config).items() if k != "qgen_readable"}
    Corpus(folder).write_manifest(Manifest("fp", "kg.nt", config.model, older))
    assert built_as(folder, config.replace(qgen_readable=False))
    assert not built_as(folder, config.replace(qgen_readable=True))
