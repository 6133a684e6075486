"""engine.answer.reasoner end to end on real parts: the tiny films KG, the real Qwen2.5-Coder-0.5B and MiniLM.

The corpus here is TEST DATA: programs drawn by the real Explorer on the tiny KG, each with a question
read off the program by engine.programs.verbalize ("what are the director of Alien?"), not by an LLM. It stands
in for a bootstrapped corpus so the module runs in about a minute; nothing from any benchmark is in it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.answer.linker import LabelIndex
from engine.answer.metrics import (
    exact_match,
    f1,
    hits_at_1,
    normalise,
    percentile,
    score,
    summary,
)
from engine.answer.named import NAMED_WEIGHT
from engine.answer.rank import NAMES_WEIGHT, SIMILARITY_WEIGHT, Alternative
from engine.answer.usual import UNUSUAL_WEIGHT
from engine.answer.extend import reached, unheard
from engine.answer.reasoner import QuestionResult, Reasoner, Timings
from engine.answer.search import ProgramCandidate, Search
from engine.bootstrap.corpus import Corpus, CorpusRecord, Manifest
from engine.bootstrap.explorer import Explorer
from engine.bootstrap.qgen import anonymise_question
from engine.config import ScoutConfig
from engine.lm.embedder import Embedder
from engine.lm.llm import LLM
from engine.programs.kg import KnowledgeGraph
from kg_adapters.schema import SchemaEdit, apply_edits
from tests.conftest import named
from engine.programs.sexpr import Count, parse, relations
from engine.programs.validate import validate
from engine.programs.verbalize import verbalize

FIXTURES = Path(__file__).parent / "fixtures"


# ------------------------------------------------------------------ test data and parts
def synthetic_question(program: str, kg: KnowledgeGraph) -> str:
    """TEST DATA: a plain reading of the program, standing in for an LLM-written question."""
    node = parse(program)
    if isinstance(node, Count):
        return "how many " + verbalize(node.arg, kg.schema).removeprefix("the ") + " are there?"
    return "what are " + verbalize(node, kg.schema) + "?"


def synthetic_records(kg: KnowledgeGraph, n: int) -> list[CorpusRecord]:
    records = []
    for explored in Explorer(kg, seed=0).explore(n):
        question = synthetic_question(explored.program, kg)
        entities = [(label, cls) for label, _, cls in explored.entities]
        records.append(
            CorpusRecord(
                program=explored.program, subprograms=explored.subprograms, question=question,
                anonymised_question=anonymise_question(question, entities), top_beam_question=question,
                ic_score=0.0, top_beam_ic_score=0.0, beam_score=0.0, subquestions=(),
                anonymised=explored.anonymised, pattern=explored.pattern, answers=explored.answers,
                entities=explored.entities, source="synthetic-test-data",
            )
        )
    return records


@pytest.fixture(scope="module")
def parts(tmp_path_factory):
    cache = tmp_path_factory.mktemp("reasoner")
    config = ScoutConfig(cache_dir=str(cache))
    kg = named(KnowledgeGraph.open(str(FIXTURES / "tiny_films.psv"), config))
    embedder = Embedder.load()
    index = LabelIndex.build(kg.store, kg.schema, cache, embedder)
    records = synthetic_records(kg, 40)
    llm = LLM.load("qwen2.5-coder-0.5b")
    yield kg, index, records, llm, embedder, config
    kg.close()


@pytest.fixture(scope="module")
def reasoner(parts) -> Reasoner:
    kg, index, records, llm, embedder, config = parts
    r = Reasoner(kg, records, llm, embedder, index, config)
    yield r
    r.close()


def labels(result: QuestionResult) -> list[str]:
    return [a.label for a in result.answers]


# ------------------------------------------------------------------ answers
def test_one_hop_question(reasoner: Reasoner) -> None:
    stages: list[str] = []
    result = reasoner.answer("who directed alien?", on_progress=stages.append)
    assert result.message is None
    assert result.program == '(JOIN (R directed_by) "Alien")'
    assert labels(result) == ["Ridley Scott"]
    assert result.answers[0].iri and result.sparql and "directed_by" in result.sparql
    assert stages[0] == "linking" and stages[1] == "step 1" and stages[-1] == "re-ranking"
    assert [s for s in stages if s.startswith("step")] == [f"step {i}" for i in range(1, result.steps + 1)]
    assert [m.text for m in result.linked] == ["alien"]
    assert result.exemplars and not result.cached
    # the alternatives carry their scores: the re-ranked finalists (the best set plus each step's best), best first
    alts = result.alternatives
    assert 1 <= len(alts) <= reasoner.config.beam + result.steps
    assert len({a.program for a in alts}) == len(alts)
    assert all(isinstance(a, Alternative) for a in alts)
    # the asked class (a person: "who") first; only those get an inverse and a final score, as only they can win,
    # and only where there are two or more of them
    scored = [a for a in alts if a.asked_class]
    assert list(alts[: len(scored)]) == scored and alts[0].program == result.program
    assert len(scored) > 1, "the question must leave the re-rank a choice"
    assert all(a.inverse is not None and a.final is not None for a in scored)
    assert all(a.inverse is None and a.final is None for a in alts[len(scored):])
    assert [a.final for a in scored] == sorted((a.final for a in scored), reverse=True)
    cfg = reasoner.config
    for a in scored:  # final = alpha * forward + (1 - alpha) * inverse + relevance + mentions + log(penalty) * repeats
        # (relevance: similarity, named relations, usual ties)
        assert 0 < a.similarity <= 1 and a.mentions == 1
        mixed = (cfg.ic_alpha * a.forward + (1 - cfg.ic_alpha) * a.inverse + SIMILARITY_WEIGHT * a.similarity
                 + NAMED_WEIGHT * a.named + NAMES_WEIGHT * a.mentions - UNUSUAL_WEIGHT * a.unusual)
        assert a.final <= mixed + 1e-5
    assert alts[0].named == 1  # "directed" spells directed_by
    assert isinstance(result.timings, Timings)
    t = result.timings
    assert t.total >= t.link + t.retrieve + t.enumerate + t.score + t.rerank - 1e-3 > 0


def test_search_goes_on_until_a_program_walks_every_relation_the_question_names(reasoner: Reasoner) -> None:
    """"the release years of the films starring X" names two relations: X's films alone, however well they
    score, do not end the search (extend.reached)."""
    question = reasoner.read("what are the release years of the films starring Harrison Ford")
    search = Search()
    for text, named in (('(JOIN starred_actors "Harrison Ford")', 1),
                        ('(JOIN (R release_year) (JOIN starred_actors "Harrison Ford"))', 2)):
        cand = ProgramCandidate(parse(text), text, frozenset(), validate(parse(text), reasoner.schema),
                                execution=reasoner.executor.execute(text), named=named)
        search.scored.append(cand)
        done = reached(question, search)
        assert done is (named == 2), text
    # a question naming no relation, and asking for nothing in particular, is reached by any program
    assert reached(reasoner.read("Star Wars"), search)


def test_count_question(reasoner: Reasoner) -> None:
    result = reasoner.answer("how many movies did ridley scott direct?")
    assert result.program == '(COUNT (JOIN directed_by "Ridley Scott"))'
    assert result.count == 4 and labels(result) == ["4"]


def test_the_asked_class_decides_between_finalists(reasoner: Reasoner) -> None:
    """"which genres ..." asks for a genre: a program that stops at the movies is not the answer."""
    result = reasoner.answer("the movies directed by [George Lucas] are of which genres?")
    assert result.program == '(JOIN (R has_genre) (JOIN directed_by "George Lucas"))'
    assert not any(a.program.startswith("(COUNT") for a in result.alternatives)  # no number was asked for


def test_readings_passed_over_are_listed_with_why(reasoner: Reasoner) -> None:
    """Self-correction: a reading the scores put first but that answers with movies, where the question asks for
    genres, is passed over and said so; so is one that read closer to the question but executed to nothing."""
    result = reasoner.answer("the movies directed by [George Lucas] are of which genres?")
    assert result.program == '(JOIN (R has_genre) (JOIN directed_by "George Lucas"))'
    wrong_kind = [s for s in result.skipped if s.reason.startswith("answers with")]
    assert wrong_kind and all(s.reason == "answers with movie; the question asks for genre" for s in wrong_kind)
    movies = {a.program for a in result.alternatives if not a.asked_class}
    assert {s.program for s in wrong_kind} <= movies
    assert all(s.reason in ("no answers",) or s.reason.startswith(("answers with", "failed: "))
               for s in result.skipped)
    assert result.to_json()["skipped"][0] == {"program": wrong_kind[0].program, "reason": wrong_kind[0].reason}
    assert not reasoner.answer("who directed alien?").skipped  # nothing better was passed over


def test_follow_up_question_refers_to_the_last_answer(reasoner: Reasoner, parts) -> None:
    from engine.answer.followup import rewrite
    from engine.scout import KGSession

    index = parts[1]
    first = reasoner.answer("who directed alien?")
    turn = KGSession.turn(first)
    assert turn.answer_entities == ("Ridley Scott",) and turn.topic_entities == ("Alien",)
    standalone = rewrite("which movies did he write?", turn, lambda t: bool(index.link(t).entity_mentions()))
    assert standalone == "which movies did [Ridley Scott] write?"
    result = reasoner.answer(standalone)
    assert result.program == '(JOIN written_by "Ridley Scott")' and labels(result) == ["Gladiator"]


def test_memoized_repeat_is_equal(reasoner: Reasoner) -> None:
    first = reasoner.answer("what genre is gladiator?")
    again = reasoner.answer("what genre is  gladiator? ")  # whitespace does not matter
    assert again.cached and not first.cached  # its speed is measured by bench/metaqa.py (warm latency)
    assert (again.program, again.answers, again.alternatives, again.count) == (
        first.program, first.answers, first.alternatives, first.count)
    assert labels(first) == ["Action"]


def test_the_memo_does_not_outlive_a_schema_edit(parts, reasoner: Reasoner) -> None:
    """A new label changes prompts and readings, so the answer memoized under the old wording is not reused."""
    from dataclasses import replace

    kg, index, records, llm, embedder, config = parts
    reasoner.answer("who wrote gladiator?")
    assert reasoner.answer("who wrote gladiator?").cached
    relabelled = replace(kg, schema=apply_edits(kg.schema, [SchemaEdit("person", label="filmmaker")]))
    other = Reasoner(relabelled, records, llm, embedder, index, config)
    try:
        assert not other.answer("who wrote gladiator?").cached
    finally:
        other.close()


def test_prefix_cache_is_shared_by_all_candidates(parts) -> None:
    kg, index, records, llm, embedder, config = parts
    r = Reasoner(kg, records, llm, embedder, index, config, memoize=False)
    llm.clear_prefix_cache()
    requested: list[str] = []
    real = llm._prefix_state

    def spy(prefix: str):
        requested.append(prefix)
        return real(prefix)

    llm._prefix_state = spy
    try:
        question = "who starred in star wars?"
        result = r.answer(question)
    finally:
        del llm._prefix_state
    assert result.steps >= 2 and result.message is None
    forward = r.forward_prompt(question)
    # one scoring call per step that had new candidates, every one on the same prefix string
    assert 2 <= requested.count(forward) <= result.steps
    assert len(set(requested)) == 2  # the forward prompt and the inverse-consistency prompt, nothing else
    assert forward in llm._prefixes  # its KV cache is held
    assert labels(result) == ["Harrison Ford"]


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize(
    "question, expect",
    [
        ("", "type a question"),
        ("   \n\t ", "type a question"),
        ("who directed xyzzy plugh?", "Closest labels"),
        ("谁导演了这部电影？", "English"),
        ("a" * 10_000, "characters"),
        ("what did [Zzyzx Qwerty] direct?", "labelled \"Zzyzx Qwerty\""),
    ],
)
def test_bad_input_gives_a_message(reasoner: Reasoner, question: str, expect: str) -> None:
    result = reasoner.answer(question)
    assert isinstance(result, QuestionResult)
    assert result.program is None and result.answers == () and result.message
    assert expect in result.message, result.message
    assert len(result.question) <= 500
    json.dumps(result.to_json())


def test_empty_corpus_still_answers(parts) -> None:
    kg, index, records, llm, embedder, config = parts
    r = Reasoner(kg, [], llm, embedder, index, config, memoize=False)
    result = r.answer("what genre is Star Wars?")
    assert result.exemplars == ()
    assert labels(result) == ["Science Fiction"]


# ------------------------------------------------------------------ CLI
def test_cli_ask_and_evaluate(parts, tmp_path, monkeypatch, capsys) -> None:
    from engine import __main__ as cli

    kg, index, records, llm, embedder, config = parts
    corpus = Corpus(tmp_path / "corpus")
    corpus.write_manifest(Manifest(kg.fingerprint, kg.store.info.location, "synthetic-test-data", {}))
    for record in records:
        corpus.append(record)
    monkeypatch.setattr(LLM, "load", classmethod(lambda cls, *a, **k: llm))  # load the model once per module
    monkeypatch.setattr(Embedder, "load", classmethod(lambda cls, *a, **k: embedder))
    common = ["--kg", str(FIXTURES / "tiny_films.psv"), "--corpus", str(corpus.folder), "--cache-dir", config.cache_dir]

    assert cli.main(["ask", *common, "who directed alien?"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["program"] == '(JOIN (R directed_by) "Alien")' and out["answers"][0]["label"] == "Ridley Scott"

    questions = tmp_path / "q.jsonl"
    questions.write_text(
        json.dumps({"question": "who directed alien?", "answers": ["Ridley Scott"]}) + "\n"
        + json.dumps({"question": "how many movies did ridley scott direct?", "answers": ["4"]}) + "\n"
        + json.dumps({"question": "", "answers": ["x"]}) + "\n"
    )
    results = tmp_path / "r.jsonl"
    assert cli.main(["evaluate", *common, "--questions", str(questions), "--out", str(results), "--limit", "3"]) == 0
    last = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert last["n"] == 3 and last["f1"] == pytest.approx(2 / 3, abs=1e-3) and last["em"] == pytest.approx(2 / 3, abs=1e-3)
    assert set(last) >= {"n", "f1", "hits1", "em", "median_latency_s", "p90_latency_s"}
    rows = [json.loads(line) for line in results.read_text().splitlines()]
    assert [r["f1"] for r in rows] == [1.0, 1.0, 0.0] and rows[0]["cached"]  # asked above: memoized
    # each finalist's scores and F1, for replaying the re-rank's weights on the rows (bench.replay --whole)
    scored = rows[1]
    assert len(scored["alternative_scores"]) == len(scored["alternative_f1"]) == len(scored["alternatives"]) >= 1
    assert {"forward", "final", "unnamed", "shortfall"} <= set(scored["alternative_scores"][0])
    assert scored["alternative_f1"][scored["alternatives"].index(scored["program"])] == scored["f1"]
    assert [(r["kg"], r["id"]) for r in rows] == [("tiny_films", "1"), ("tiny_films", "2"), ("tiny_films", "3")]
    from bench.replay import table
    assert table(rows, 0.0, whole=True) == [f"tiny_films {100 * 2 / 3:.1f}"]  # no change: the run's own F1


# ------------------------------------------------------------------ metrics
def test_cli_without_corpus_uses_the_apps_corpus_of_that_kg(parts, tmp_path, monkeypatch, capsys) -> None:
    """`ask` without --corpus answers with the corpus the app keeps for that KG (for the default KG: the shipped
    one), not with no exemplars."""
    from engine import __main__ as cli
    from engine.scout import DEFAULT_CORPUS, default_corpus_dir

    kg, index, records, llm, embedder, _ = parts
    config = ScoutConfig(cache_dir=str(tmp_path / "cache"))  # its own app folders: other tests see no corpus
    assert default_corpus_dir(None, "any", config) == DEFAULT_CORPUS
    corpus = Corpus(default_corpus_dir(str(FIXTURES / "tiny_films.psv"), kg.fingerprint, config))
    corpus.write_manifest(Manifest(kg.fingerprint, kg.store.info.location, "synthetic-test-data", {}))
    for record in records[:5]:
        corpus.append(record)
    monkeypatch.setattr(LLM, "load", classmethod(lambda cls, *a, **k: llm))
    monkeypatch.setattr(Embedder, "load", classmethod(lambda cls, *a, **k: embedder))
    args = ["--kg", str(FIXTURES / "tiny_films.psv"), "--cache-dir", config.cache_dir]
    assert cli.main(["ask", *args, "who directed alien?"]) == 0
    captured = capsys.readouterr()
    assert f"using the corpus in {corpus.folder} (5 questions)" in captured.err
    assert json.loads(captured.out)["exemplars"]


def test_scoring_metrics() -> None:
    assert normalise(" Ridley  SCOTT ") == "ridley scott"
    assert normalise("5.0") == normalise("+5") == "5" and normalise("2.50") == "2.5"
    assert f1(["a", "b"], ["b", "c"]) == pytest.approx(0.5)
    assert f1(["1982"], ["1982.0"]) == 1.0
    assert f1(["yes"], ["True"]) == f1(["no"], ["false"]) == 1.0 and f1(["yes"], ["false"]) == 0.0
    assert exact_match(["A", "b"], ["b", "a"]) == 1.0 and exact_match(["a"], ["a", "b"]) == 0.0
    assert hits_at_1(["x", "a"], ["a"]) == 0.0 and hits_at_1(["a", "x"], ["a"]) == 1.0
    assert score([], ["a"]).f1 == 0.0 and score([], []).f1 == 1.0 and score(["a"], []).f1 == 0.0
    assert percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90) == pytest.approx(9.1)
    s = summary([score(["a"], ["a"]), score(["b"], ["a"])], [1.0, 3.0])
    assert s == {"n": 2, "f1": 0.5, "hits1": 0.5, "em": 0.5, "median_latency_s": 2.0, "p90_latency_s": 2.8}


def test_programs_are_no_longer_than_exploration_builds(parts) -> None:
    """No exemplar has more than `max_relations` relations, so the search never joins past that length."""
    kg, index, records, llm, embedder, config = parts
    short = Reasoner(kg, records, llm, embedder, index, config.replace(max_relations=2), memoize=False)
    two_hops = parse('(JOIN directed_by (JOIN (R directed_by) "Alien"))')
    assert short.enumerator.joinable(parse('(JOIN (R directed_by) "Alien")'), 1)
    assert not short.enumerator.joinable(two_hops, 1)
    result = short.answer("who acted in the films directed by the director of alien?")
    assert result.alternatives and all(len(relations(parse(a.program))) <= 2 for a in result.alternatives)
    assert Reasoner(kg, records, llm, embedder, index, config, memoize=False).enumerator.joinable(two_hops, 1)


def test_inverse_consistency_scores_only_a_real_choice(reasoner: Reasoner) -> None:
    """Finalists outside the asked class cannot win, nor can anything beat a lone contender: no inverse score."""
    question = reasoner.read("who directed alien?")
    exemplars = reasoner.exemplars.nearest(question.anonymised, reasoner.config.exemplars)

    def cand(text: str, forward: float) -> ProgramCandidate:
        program = parse(text)
        return ProgramCandidate(program, text, frozenset(), validate(program, reasoner.schema),
                     execution=reasoner.executor.execute(program), forward=forward)

    director, writer = cand('(JOIN (R directed_by) "Alien")', -1.0), cand('(JOIN (R written_by) "Alien")', -0.9)
    films_of = cand('(JOIN directed_by (JOIN (R directed_by) "Alien"))', -0.5)
    lone = reasoner.ranker.rerank(question, exemplars, [films_of, director])
    assert [c for c, _ in lone] == [director, films_of]
    assert all(a.inverse is None and a.final is None for _, a in lone)
    pair = reasoner.ranker.rerank(question, exemplars, [films_of, writer, director])
    assert {c.text for c, a in pair if a.inverse is not None} == {writer.text, director.text}
    assert pair[-1][0] is films_of and pair[-1][1].inverse is None


def test_each_name_is_extended_once_where_the_best_set_holds_readings_of_another() -> None:
    """ "dicaprio movies more recent than the departed": the best set held only readings of The Departed, so
    DiCaprio's films were never ANDed with the later films. The best kept reading of an unheard name is."""
    from types import SimpleNamespace

    def cand(text: str, anchors: set[int], forward: float) -> ProgramCandidate:
        return ProgramCandidate(parse(text), text, frozenset(anchors), None, forward=forward)

    departed = cand('(gt release_year "The Departed")', {1}, -1.0)
    his = cand('(JOIN starred_actors "Leonardo DiCaprio")', {0}, -3.0)
    written = cand('(JOIN written_by "Leonardo DiCaprio")', {0}, -4.0)
    years = cand('(JOIN (R release_year) (JOIN starred_actors "Leonardo DiCaprio"))', {0}, -0.5)
    search = Search(pool=[departed, his, written, years])
    two_names = SimpleNamespace(anchors=[SimpleNamespace(mention=0), SimpleNamespace(mention=1)])
    assert unheard(two_names, search, [departed]) == [his]
    assert unheard(two_names, search, [departed, years]) == [his]  # a longer reading of the name is no base
    assert unheard(two_names, search, [departed, written]) == []  # a one-hop reading is extended now
    search.expanded.add(his.program)
    assert unheard(two_names, search, [departed]) == []  # heard once already
    one_name = SimpleNamespace(anchors=[SimpleNamespace(mention=1)])
    assert unheard(one_name, Search(pool=[departed]), [departed]) == []


# Weights of the final re-rank, each with a question of the tiny KG and its readings: how many times each pays it.
# "who directed alien?": the director of the films Alien's director made walks back (on top of its repeat).
# "which Ridley Scott films star Harrison Ford?": the films starring the actors of Scott's films walk through
# actors, a stand-in for the actor the question names; so does the AND whose sides each use one name and walk
# through the other's stand-in; the readings on both names, or with no walk, pay nothing.
# "what was Ridley Scott the director of?": the actors of his films walk one relation no word of it names.
RE_RANK_WEIGHTS = [
    ("WALK_BACK_WEIGHT", 0.2, "who directed alien?",
     {'(JOIN (R directed_by) "Alien")': 0,
      '(JOIN (R directed_by) (JOIN directed_by (JOIN (R directed_by) "Alien")))': 1}),
    ("STAND_IN_WEIGHT", 1.0, "which Ridley Scott films star Harrison Ford?",
     {'(JOIN starred_actors (JOIN (R starred_actors) (JOIN directed_by "Ridley Scott")))': 1,
      '(AND (JOIN directed_by (JOIN (R directed_by) (JOIN starred_actors "Harrison Ford"))) '
      '(JOIN starred_actors (JOIN (R starred_actors) (JOIN directed_by "Ridley Scott"))))': 1,
      '(AND (JOIN directed_by "Ridley Scott") (JOIN starred_actors "Harrison Ford"))': 0,
      '(JOIN directed_by "Ridley Scott")': 0}),
    ("UNNAMED_WEIGHT", 0.3, "what was Ridley Scott the director of?",
     {'(JOIN directed_by "Ridley Scott")': 0, '(JOIN (R starred_actors) (JOIN directed_by "Ridley Scott"))': 1}),
]


@pytest.mark.parametrize("weight, value, text, paid", RE_RANK_WEIGHTS, ids=[w[0] for w in RE_RANK_WEIGHTS])
def test_a_re_rank_weight_is_paid_by_the_readings_it_names_and_no_other(
        reasoner: Reasoner, monkeypatch, weight: str, value: float, text: str, paid: dict[str, int]) -> None:
    from engine.answer import rank

    question = reasoner.read(text)
    exemplars = reasoner.exemplars.nearest(question.anonymised, reasoner.config.exemplars)
    cands = [ProgramCandidate(parse(p), p, frozenset(), validate(parse(p), reasoner.schema),
                              execution=reasoner.executor.execute(parse(p)), forward=-1.0) for p in paid]

    def finals() -> dict[str, float]:
        return {c.text: a.final for c, a in reasoner.ranker.rerank(question, exemplars, cands)}

    monkeypatch.setattr(rank, weight, 0.0)
    without = finals()
    monkeypatch.setattr(rank, weight, value)
    weighed = finals()
    assert {p: round((without[p] - weighed[p]) / value, 6) for p in paid} == paid
