"""ui/: the render helpers, and the handlers called as plain functions (no browser).

Handlers run against a real Scout over tests/fixtures/tiny_films.psv. Nothing here loads a language
model: questions and bootstraps go through stand-ins for `KGSession.ask`/`.bootstrap` that report
progress like the real ones, so these tests take seconds. The real reasoning and bootstrapping through
the UI are covered by tests/test_e2e_browser.py.
"""

from __future__ import annotations

import csv
import io
import socket
import time
from pathlib import Path

import gradio as gr
import pytest

from engine.bootstrap.build import BootstrapResult, Progress
from engine.config import ScoutConfig
from engine.programs.executor import Answer
from engine.answer.linker import Candidate, Mention
from engine.answer.rank import Alternative
from engine.answer.reasoner import QuestionResult, Timings
from engine.scout import Scout
from kg_adapters.base import LoadError
from ui import render, schema_picture
from ui.handlers import Handlers
from ui.state import KEPT_MESSAGES, Hub

FIXTURES = Path(__file__).parent / "fixtures"
FILMS = str(FIXTURES / "tiny_films.psv")
SOLAR = str(Path(__file__).parent / "e2e" / "solar_system.ttl")


# ------------------------------------------------------------------ fixtures
@pytest.fixture
def hub(tmp_path) -> Hub:
    scout = Scout(ScoutConfig(cache_dir=str(tmp_path / "cache"), endpoint_retries=0, query_timeout_s=5))
    return Hub(scout, default_spec=FILMS)


@pytest.fixture
def handlers(hub, tmp_path) -> Handlers:
    return Handlers(hub, csv_dir=tmp_path / "csv")


@pytest.fixture
def state(hub, handlers):
    s = hub.new_state()
    s.history = handlers.greeting(s)
    return s


def result(**changes) -> QuestionResult:
    base = dict(
        question="who directed Alien?",
        program='(JOIN (R directed_by) "Alien")',
        sparql="SELECT ?x WHERE { <http://kgscout.local/entity/Alien> ?p ?x }",
        answers=(Answer("Ridley Scott", "http://kgscout.local/entity/Ridley%20Scott"),),
        count=None,
        alternatives=(
            Alternative('(JOIN (R directed_by) "Alien")', -2.96, -3.06, -3.01),
            Alternative('(JOIN (R has_genre) "Alien")', -3.49, None, -3.94, similarity=0.62),
        ),
        linked=(Mention("Alien", 13, 18, (Candidate("entity", "Alien", "http://x/Alien", 1.0, ("movie",)),)),),
        timings=Timings(link=0.001, score=8.3, rerank=1.8, total=11.2),
        message=None,
    )
    base.update(changes)
    return QuestionResult(**base)


def text_of(history) -> str:
    return "\n".join(str(m.get("content", "")) + str(m.get("metadata", "")) for m in history)


def drain(generator) -> list:
    return list(generator)


# ------------------------------------------------------------------ render helpers
@pytest.mark.parametrize("label, datatype, shown", [
    ("yes", "boolean", "**Yes.**"),  # (IN e S)
    ("no", "boolean", "**No.**"),
    ("168013326", "decimal", "**168,013,326**"),  # a SUM
    ("523453.37931", "decimal", "**523,453.38**"),  # an AVG
    ("1999", "integer", "**1999**"),  # a year keeps its digits together
])
def test_single_values_read_as_values(label: str, datatype: str, shown: str) -> None:
    answer = Answer(label, None, "http://www.w3.org/2001/XMLSchema#" + datatype)
    assert render.answers_markdown([answer], None) == shown


def test_answers_markdown_count_single_and_list():
    assert render.answers_markdown([], 53) == "**53**"
    assert render.answers_markdown([Answer("Paris")], None) == "**Paris**"
    many = [Answer(f"City {i}") for i in range(30)]
    text = render.answers_markdown(many, None, limit=25)
    assert text.startswith("30 answers:") and "City 24" in text and "City 25" not in text
    assert "5 more" in text
    assert render.answers_markdown([], None) == "_No answers._"


def test_labels_are_escaped_not_markup():
    text = render.answers_markdown([Answer("<script>x</script> *bold*")], None)
    assert "<script>" not in text and "\\*bold\\*" in text


def test_pretty_program_indents_and_keeps_unparseable_text():
    long = '(AND (JOIN directed_by "Ridley Scott") (JOIN has_genre (JOIN (R has_genre) "Blade Runner")))'
    assert "\n" in render.pretty_program(long)
    assert render.pretty_program("(JOIN oops") == "(JOIN oops"
    assert render.pretty_program(None) == ""


@pytest.mark.parametrize(
    "timings, total",
    [(Timings(link=1.0, total=2.5), 2.5), ({"total": 3.0, "link": "x"}, 3.0), (4.0, 4.0), (None, None)],
)
def test_timings_in_any_shape(timings, total):
    assert render.timings_dict(timings).get("total") == total
    assert render.timings_markdown(timings)  # never empty, never raises


def test_details_show_program_sparql_linked_alternatives_and_time():
    text = render.details_markdown(result())
    assert '```lisp\n(JOIN (R directed_by) "Alien")\n```' in text
    assert "```sparql\nSELECT ?x" in text
    assert "Alien (entity: movie, 1.000)" in text
    assert "| 2 | `(JOIN (R has_genre) \"Alien\")` |  | weighed, and scored lower |" in text
    assert "| 2 | -3.490 | – | 0.620 | -3.940 |" in text  # the raw scores, behind a toggle with a legend
    assert "<details" in text and "forward: how likely the language model finds" in text
    assert "11.2 s" in text


def test_an_alternative_that_reads_the_verb_backwards_says_so():
    alternatives = (Alternative('(JOIN (R directed_by) "Alien")', -2.96, -3.06, -3.01),
                    Alternative('(JOIN directed_by (JOIN (R directed_by) "Alien"))', -2.9, -3.0, -3.9, backwards=True))
    text = render.details_markdown(result(alternatives=alternatives))
    assert "| 2 | `(JOIN directed_by (JOIN (R directed_by) \"Alien\"))` |  | weighed, and scored lower (reads the " \
           "question's verb the other way round) |" in text


def test_alternatives_say_in_words_what_each_one_is():
    text = render.details_markdown(result(), readings={'(JOIN (R has_genre) "Alien")': "the genre of Alien"})
    table = text[text.index("Top alternatives"):text.index("<details")]
    assert "| 1 | `(JOIN (R directed_by) \"Alien\")` |  | chosen |" in table
    assert "the genre of Alien" in table and "log-prob" not in table and "-3.490" not in table


def test_details_list_the_readings_passed_over():
    from engine.answer.search import SkippedReading
    text = render.details_markdown(result(skipped=(SkippedReading('(JOIN director "Alien")', "answers with movie, not person"),
                                                   SkippedReading('(JOIN (R year) "Alien")', "no answers"))))
    assert "**Readings skipped**" in text
    assert '- `(JOIN director "Alien")`: answers with movie, not person' in text
    assert '- `(JOIN (R year) "Alien")`: no answers' in text
    assert "Readings skipped" not in render.details_markdown(result())


@pytest.mark.parametrize("questions,readings,said", [
    (0, 0, "no corpus yet"),
    (37, 0, "a corpus of 37 questions"),
    (1, 12, "a corpus of 1 question and 12 program readings standing in"),
])
def test_details_say_how_large_the_corpus_was(questions, readings, said):
    assert said in render.details_markdown(result(corpus_questions=questions, corpus_readings=readings))


def test_details_count_the_wait_for_the_models_in_the_time():
    assert "waited" not in render.details_markdown(result(), waited_s=11.5)  # result() reasoned 11.2 s
    assert "**40.0 s** waited, loading the models included" in render.details_markdown(result(), waited_s=40.0)


def test_progress_bar_says_what_the_bootstrap_is_doing():
    assert "Loading the language model" in render.progress_html(Progress("loading", 0, 20, 0.0, "loading the language model"))
    naming = render.progress_html(Progress("naming", 0, 0, 0.0, "asking the language model what the unnamed classes are"))
    assert "Naming the classes the data leaves unnamed" in naming and "asking" not in naming
    writing = render.progress_html(Progress("questions", 0, 20, 3.0, "writing questions"))
    assert "Writing questions" in writing and "ETA estimating" in writing  # an ETA only after the first batch
    checking = render.progress_html(Progress("questions", 8, 20, 30.0, "checking them"))
    assert "Checking the written questions" in checking and "ETA 45.0 s" in checking


def test_progress_counts_a_resumed_corpus_and_the_eta_counts_down():
    resumed = Progress("questions", 130, 150, 10.0, already=128)  # 2 written in 10 s this run
    html = render.progress_html(resumed)
    assert "130 / 150 programs" in html and "720 per hour" in html and "ETA 1 min 40 s" in html
    assert "ETA 1 min 30 s" in render.progress_html(resumed, since_s=10.0)  # between reports it counts down
    assert "ETA estimating" in render.progress_html(Progress("questions", 128, 150, 5.0, already=128))
    assert "128 / 150 programs" in render.progress_html(Progress("loading", 128, 150, 0.0, "loading", already=128))


def test_progress_after_cancel_says_cancelled_and_drops_the_eta():
    cancelling = render.progress_html(Progress("questions", 40, 150, 20.0), cancelling=True)
    assert "Cancelling" in cancelling and "ETA" not in cancelling and "40 / 150 programs" in cancelling
    stopped = render.progress_html(Progress("stopped", 64, 150, 30.0, "stopped; rerun to resume"), running=False)
    assert "Cancelled" in stopped and "ETA" not in stopped and "Writing" not in stopped
    assert "Cancelled (press Start" in render.result_html(BootstrapResult(Path("."), 150, 64, False), cancelled=True)


def test_progress_while_chat_goes_first_says_paused_and_drops_the_eta():
    paused = render.progress_html(Progress("questions", 40, 150, 20.0), paused=True)
    assert "Paused while questions are answered" in paused and "ETA" not in paused and "40 / 150 programs" in paused
    assert "Paused" not in render.progress_html(Progress("stopped", 64, 150, 30.0), running=False, paused=True)


def test_result_markdown_gives_the_message_when_there_is_no_answer():
    none = result(program=None, sparql=None, answers=(), alternatives=(), message="Nothing is labelled \"Xyz\".")
    assert "Nothing is labelled" in render.result_markdown(none)
    assert render.result_markdown(result(answers=(Answer("3"),), count=3)) == "**3**"


def test_csv_has_every_answer_and_defuses_formulas():
    rows = list(csv.reader(io.StringIO(render.answers_csv([Answer("=cmd()", "http://a"), Answer("-5"), Answer("B")]))))
    assert rows == [["label", "iri"], ["'=cmd()", "http://a"], ["-5", ""], ["B", ""]]
    assert render.answers_csv([Answer("4")], 4) == "count\r\n4\r\n"


def test_progress_bar_shows_done_rate_and_eta():
    html = render.progress_html(Progress("questions", 5, 20, 10.0))
    assert "5 / 20 programs" in html and "1,800 per hour" in html and "ETA 30.0 s" in html
    assert 'width:25.0%' in html
    assert "100" in render.progress_html(Progress("done", 20, 20, 40.0), running=False)
    assert "Not started" in render.progress_html(None, running=False)


def test_error_text_is_one_line_for_users():
    assert render.error_text(LoadError("the file has no triples")) == "the file has no triples"
    text = render.error_text(RuntimeError("boom\nTraceback (most recent call last):\n  File \"x\""))
    assert text == "Something went wrong (RuntimeError: boom)." and "Traceback" not in text


# Until the first question or bootstrap names it (engine.bootstrap.namer), the film class has a stand-in name.
FILM = "thing_with_directed_by"


def test_schema_rows(hub):
    schema = hub.session(hub.default_key).schema
    relations = {row[0]: row for row in render.relation_rows(schema)}
    assert relations["directed_by"][2:4] == [FILM, "person"]
    assert {row[0] for row in render.class_rows(schema)} >= {FILM, "person", "year"}


def test_schema_edits_from_the_tables(handlers, state, hub):
    schema = hub.session(hub.default_key).schema
    classes, relations = render.class_rows(schema), render.relation_rows(schema)
    label_at, desc_at = render.CLASS_COLUMNS.index("label"), render.RELATION_COLUMNS.index("description")
    movie = next(row for row in classes if row[0] == FILM)
    movie[label_at] = "film"
    movie[render.CLASS_COLUMNS.index("members")] = 999  # not an editable column: ignored
    next(row for row in relations if row[0] == "written_by")[desc_at] = "who wrote the screenplay"
    status, new_classes, new_relations = handlers.save_schema(classes, relations, state)
    assert status.startswith("Saved 2 edit(s)") and "`thing\\_with\\_directed\\_by`" in status and "`written\\_by`" in status
    assert next(r for r in new_classes if r[0] == FILM)[label_at] == "film"
    assert next(r for r in new_relations if r[0] == "written_by")[desc_at] == "who wrote the screenplay"
    assert hub.session(hub.default_key).schema.class_(FILM).label == "film"

    status, *_ = handlers.save_schema(new_classes, new_relations, state)
    assert status.startswith("Nothing changed")
    next(r for r in new_classes if r[0] == FILM)[label_at] = ""
    status, again, _ = handlers.save_schema(new_classes, new_relations, state)
    assert "a label cannot be empty" in status and "Traceback" not in status
    assert next(r for r in again if r[0] == FILM)[label_at] == "film"  # the table shows the schema as it is


# ------------------------------------------------------------------ chat handlers
def test_run_program_renders_answers_sparql_and_csv(handlers, state):
    state.last_question = "who wrote Alien?"  # the CSV is named after the program it holds, not this
    history, download, status, state = handlers.run_program('(JOIN (R directed_by) "Alien")', state)
    text = text_of(history)
    assert "**Ridley Scott**" in text and "SELECT" in text and status == ""
    assert "The director of the thing with directed by Alien is Ridley Scott." in text  # the lead sentence
    path = Path(download["value"])
    assert download["interactive"] is True and path.name == "the-director-of-the-thing-with-directed-by-Alien.csv"
    assert list(csv.reader(path.open()))[1] == ["Ridley Scott", "http://kgscout.local/entity/Ridley%20Scott"]


def test_a_long_session_keeps_its_greeting_and_latest_messages(handlers, state):
    """The chat history is bounded: it lives in server memory per browser session and is sent whole at every
    tick of a streamed answer."""
    greeting = state.history[0]
    state.history = [greeting] + [{"role": "assistant", "content": f"old {i}"} for i in range(KEPT_MESSAGES + 50)]
    history, _, _, state = handlers.run_program('(JOIN (R directed_by) "Alien")', state)
    assert history[0] == greeting and state.history == history
    assert KEPT_MESSAGES <= len(history) <= KEPT_MESSAGES + 3
    assert history[1]["content"] == "old 51"  # the oldest went first: 350 old, the latest 299 kept
    assert "Ridley Scott" in text_of(history[-2:])


def test_a_session_keeps_one_csv_on_disk(handlers, state):
    """Each answer's CSV replaces the session's last one (Gradio serves its own copy), so the CSV folder does
    not grow with every answer for as long as the app runs."""
    _, first, _, state = handlers.run_program('(JOIN (R directed_by) "Alien")', state)
    _, second, _, state = handlers.run_program('(JOIN (R starred_actors) "Alien")', state)
    assert not Path(first["value"]).exists() and Path(second["value"]).is_file()
    assert [p.name for p in handlers.csv_dir.iterdir()] == [Path(second["value"]).parent.name]
    handlers.clear_chat(state)
    assert list(handlers.csv_dir.iterdir()) == [] and state.csv_path is None


def test_events_before_the_page_loaded_get_a_fresh_state(handlers):
    history, _, _, state = handlers.run_program('(JOIN (R directed_by) "Alien")', None)
    assert state.kg == handlers.hub.default_key and "Ridley Scott" in text_of(history)


def test_run_program_with_an_error_gives_a_message(handlers, state):
    history, _, status, state = handlers.run_program('(JOIN (R directed_by) "No Such Film")', state)
    assert "no entity is labelled" in status
    assert "Traceback" not in text_of(history)
    _, _, status, _ = handlers.run_program("   ", state)
    assert "Write a program" in status


def test_ask_streams_progress_then_the_answer(handlers, state, hub, monkeypatch):
    session = hub.session(hub.default_key)

    def fake_ask(question, on_progress=None, previous=None):
        for stage in ("linking", "step 1", "step 2", "re-ranking"):
            on_progress(stage)
            time.sleep(0.02)
        return result(question=question)

    monkeypatch.setattr(session, "ask", fake_ask)
    updates = drain(handlers.ask("who directed Alien?", state))
    pending = text_of(updates[0][0])
    assert "Thinking" in pending and "pending" in pending
    streamed = " ".join(text_of(u[0]) for u in updates[:-1])
    final_history, question_box, program_box, download, status, state = updates[-1]
    final = text_of(final_history)
    assert "**Ridley Scott**" in final and "SELECT ?x" in final and "Thinking" not in final
    assert final.index("The director of the thing with directed by Alien is Ridley Scott.") < final.index("**Ridley")
    assert updates[0][1] == "" and program_box == '(JOIN (R directed_by) "Alien")'
    assert Path(download["value"]).read_text().splitlines()[1].startswith("Ridley Scott")
    assert state.last_question == "who directed Alien?"
    assert "Linking" in streamed or len(updates) >= 2  # progress shown while it ran


def test_no_answer_gives_the_message_and_clears_program_and_csv(handlers, state, hub, monkeypatch):
    session = hub.session(hub.default_key)
    monkeypatch.setattr(session, "ask", lambda q, on_progress=None, previous=None: result(
        question=q, program=None, sparql=None, answers=(), alternatives=(), linked=(),
        message='Nothing in the graph is labelled "Zorro". Closest labels: "Alien".'))
    history, _, program_box, download, _, state = drain(handlers.ask("who directed Zorro?", state))[-1]
    assert 'Nothing in the graph is labelled "Zorro"' in text_of(history)
    assert program_box == "" and download["interactive"] is False and state.csv_path is None


def test_follow_up_questions_keep_the_conversation(handlers, state, hub, monkeypatch):
    """The handler passes the last answer's Turn to the engine and shows how a follow-up was read.
    (The pronoun resolution itself is engine logic: tests/test_followup.py.)"""
    session = hub.session(hub.default_key)
    seen = []
    ridley = Answer("Ridley Scott", "http://kgscout.local/entity/Ridley%20Scott")

    def fake_ask(question, on_progress=None, previous=None):
        seen.append(previous)
        if question == "what else did he direct?":
            return result(question="what else did [Ridley Scott] direct?",
                          program='(JOIN directed_by "Ridley Scott")',
                          answers=(Answer("Blade Runner", "http://x/br"), Answer("Gladiator", "http://x/g")))
        return result(question=question, answers=(ridley,))

    monkeypatch.setattr(session, "ask", fake_ask)
    state = drain(handlers.ask("who directed Alien?", state))[-1][-1]
    history, *_, state = drain(handlers.ask("what else did he direct?", state))[-1]
    text = text_of(history)
    assert text.index("Ridley Scott") < text.index("Blade Runner")
    assert seen[0] is None and seen[1].answer_entities == ("Ridley Scott",) and seen[1].topic_entities == ("Alien",)
    assert "Read as: what else did \\[Ridley Scott\\] direct?" in text
    assert state.last_question == "what else did [Ridley Scott] direct?"  # "mark correct" pairs the standalone reading
    state = handlers.clear_chat(state)[-1]
    drain(handlers.ask("who directed Alien?", state))
    assert seen[-1] is None  # a new chat has no earlier turn


def test_ask_failure_is_a_chat_message_not_a_traceback(handlers, state, hub, monkeypatch):
    session = hub.session(hub.default_key)

    def broken(question, on_progress=None, previous=None):
        raise RuntimeError("model file missing\n  File \"/x.py\", line 1")

    monkeypatch.setattr(session, "ask", broken)
    history = drain(handlers.ask("who directed Alien?", state))[-1][0]
    assert "Something went wrong (RuntimeError: model file missing)" in text_of(history)
    assert "File \"/x.py\"" not in text_of(history)


def test_empty_question_is_not_sent(handlers, state):
    updates = drain(handlers.ask("   ", state))
    assert len(updates) == 1 and updates[0][4] == "Type a question first."


def test_mark_correct_adds_only_on_request(handlers, state, hub):
    session = hub.session(hub.default_key)
    panel, pair, question, status, state = handlers.confirm_mark("  ", state)
    assert panel["visible"] is False and "empty" in status
    panel, pair, question, status, state = handlers.confirm_mark('(JOIN (R directed_by) "Alien")', state)
    assert panel["visible"] is True and question == "" and "Write the question" in pair
    assert not session.search_corpus("")  # asking to confirm adds nothing
    state.last_question, state.last_kg = "who directed Alien?", state.kg
    state.answered_program = '(JOIN (R directed_by) "Alien")'
    panel, pair, question, status, state = handlers.confirm_mark('(JOIN (R directed_by) "Alien")', state)
    assert question == "who directed Alien?" and '(JOIN (R directed_by) "Alien")' in pair and "edited" not in pair
    edited = handlers.confirm_mark('(JOIN (R written_by) "Alien")', state)[1]
    assert "not the one that answered the question" in edited
    assert "Nothing was added" in handlers.cancel_mark()[1] and not session.search_corpus("")
    status, panel, undo, state = handlers.mark_correct("who directed Alien?", '(JOIN (R directed_by) "Alien")', state)
    assert status.startswith("Added to the corpus") and panel["visible"] is False and undo["visible"] is True
    records = session.search_corpus("directed Alien")
    assert [r.source for r in records] == ["user"]
    status, *_ = handlers.mark_correct("who directed Alien?", "(JOIN nonsense", state)
    assert status.startswith("**Error:** Not added")
    assert len(session.search_corpus("")) == 1
    status, undo, state = handlers.undo_mark(state)
    assert status.startswith("Undone") and undo["visible"] is False and session.search_corpus("") == []
    assert handlers.undo_mark(state)[0] == "Nothing to undo."


def test_undo_takes_back_only_its_record_while_a_bootstrap_appends(handlers, state, hub):
    """The record leaves the corpus file and the reasoner's exemplars; records appended after it stay."""
    from dataclasses import replace

    session = hub.session(hub.default_key)
    state.last_kg = state.kg
    _, _, _, state = handlers.mark_correct("who directed Alien?", '(JOIN (R directed_by) "Alien")', state)
    mine = state.marked[-1][1]
    later = replace(mine, question="who made Alien?", source="explored")
    session.corpus.append(later)  # a bootstrap writing meanwhile
    session._read_to = session.corpus.records_from(0)[1]  # as if the reasoner had taken both in
    assert handlers.undo_mark(state)[0].startswith("Undone")
    assert session.corpus.records() == [later]
    assert session._read_to == session.corpus.records_from(0)[1]  # the reader's offset moved back
    assert session.unmark_correct(mine) is False  # undone already: nothing else is taken


def test_a_returning_browser_gets_its_kgs_back_and_no_other_browser_sees_them(handlers, hub):
    view = handlers.load(None)
    token, state = view[-1], view[-2]
    assert len(token) == 22 and state.browser == token
    drain(handlers.open_file(SOLAR, state))
    again = handlers.load(token)  # the page reloaded: a new session, the same browser
    assert again[-1] == token and again[0]["choices"] == [hub.default_key, "solar_system.ttl"]
    other = handlers.load(None)  # another browser
    assert other[-1] != token and other[0]["choices"] == [hub.default_key]
    forged = handlers.load("../../" + token)  # not a token this app makes: a fresh one
    assert forged[-1] != token and forged[0]["choices"] == [hub.default_key]


def test_clear_chat(handlers, state):
    state.last_question = "x"
    history, program, download, status, state = handlers.clear_chat(state)
    assert len(history) == 1 and "Ask me about" in history[0]["content"] and state.last_question is None


# ------------------------------------------------------------------ bring your own KG
def _view(updates):
    """The last kg_view tuple of an open_* generator, as a dict."""
    names = ["select", "status", "note", "chat", "summary", "classes", "relations", "budget", "model",
             "progress", "corpus", "state"]
    return dict(zip(names, updates[-1]))


@pytest.mark.parametrize(
    "name, content, message",
    [
        ("empty.ttl", b"", "no triples"),
        ("binary.nt", bytes(range(256)) * 40, "looks binary"),
        ("broken.psv", b"a|b|c\nthis line has no separators\n", "line 2"),
        ("broken.ttl", b'@prefix ex: <http://ex.org/> .\nex:a ex:b "open .\n', "line 2"),
    ],
    ids=["empty", "binary", "malformed-delimited", "malformed-turtle"],
)
def test_bad_uploads_give_a_message_and_keep_the_previous_kg(handlers, state, tmp_path, name, content, message):
    path = tmp_path / name
    path.write_bytes(content)
    before = state.kg
    view = _view(drain(handlers.open_file(str(path), state)))
    assert view["status"].startswith(f"**Error:** Could not load {name}: ")
    assert message in view["status"] and "Traceback" not in view["status"]
    assert view["state"].kg == before and view["select"]["value"] == before
    # the previous KG still answers
    history, *_ = handlers.run_program('(JOIN (R directed_by) "Alien")', view["state"])
    assert "Ridley Scott" in text_of(history)


def test_upload_over_the_size_limit(tmp_path):
    scout = Scout(ScoutConfig(cache_dir=str(tmp_path / "cache"), max_upload_mb=0.002))
    h = Handlers(Hub(scout, default_spec=FILMS), csv_dir=tmp_path / "csv")
    s = h.hub.new_state()
    big = tmp_path / "big.nt"
    big.write_text("<http://a> <http://b> <http://c> .\n" * 100)
    view = _view(drain(h.open_file(str(big), s)))
    assert "the limit is" in view["status"] and view["state"].kg == s.kg


def test_missing_upload_and_no_file(handlers, state, tmp_path):
    view = _view(drain(handlers.open_file(str(tmp_path / "gone.ttl"), state)))
    assert "did not arrive" in view["status"]
    view = _view(drain(handlers.open_file(None, state)))
    assert view["status"] == "" and view["state"].kg == state.kg


def test_upload_turtle_shows_schema_and_switches(handlers, state, hub):
    updates = drain(handlers.open_file(SOLAR, state))
    assert "Loading" in _view(updates[:1])["status"]
    view = _view(updates)
    assert view["state"].kg == "solar_system.ttl" and view["select"]["choices"] == [hub.default_key, "solar_system.ttl"]
    assert "moonOf" in [row[0] for row in view["relations"]]
    assert any("natural satellite" in row[4] for row in view["classes"])
    assert "Now asking solar_system.ttl" in text_of(view["chat"])
    history, *_ = handlers.run_program('(JOIN (R moonOf) "Phobos")', view["state"])
    assert "**Mars**" in text_of(history)
    # the same file again is the same KG; switching back works
    assert _view(drain(handlers.open_file(SOLAR, view["state"])))["state"].kgs.count("solar_system.ttl") == 1
    back = dict(zip(["select"], handlers.switch_kg(hub.default_key, view["state"])))
    assert back["select"]["value"] == hub.default_key and state.kg == hub.default_key


def test_unreachable_endpoint_keeps_the_previous_kg(tmp_path):
    """Through an app started with --allow-private-endpoints: a loopback port where nothing listens."""
    config = ScoutConfig(cache_dir=str(tmp_path / "cache"), endpoint_retries=0, query_timeout_s=5,
                         allow_private_endpoints=True)
    handlers = Handlers(Hub(Scout(config), default_spec=FILMS), csv_dir=tmp_path / "csv")
    state = handlers.new_state()
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    view = _view(drain(handlers.open_endpoint(f"http://127.0.0.1:{port}/sparql", state)))
    assert "cannot reach the SPARQL endpoint" in view["status"] and view["state"].kg == state.kg
    view = _view(drain(handlers.open_endpoint("ftp://example.org", state)))
    assert "not an http(s) URL" in view["status"]


@pytest.mark.parametrize("url", ["http://127.0.0.1:8890/sparql", "http://localhost/sparql", "http://2130706433/",
                                 "http://[::ffff:127.0.0.1]/sparql", "http://169.254.169.254/latest/meta-data/"])
def test_endpoint_inside_is_refused_saying_why_and_how_to_allow_it(handlers, state, url):
    """By default the app opens no endpoint on its own machine or network, and the message names the flag."""
    view = _view(drain(handlers.open_endpoint(url, state)))
    status = view["status"]
    assert status.startswith("**Error:** refused to connect to ") and "--allow-private-endpoints" in status
    assert any(why in status for why in ("loopback address", "cloud metadata address"))
    assert view["state"].kg == state.kg and "Traceback" not in status


def test_bootstrap_progress_cancel_and_resume(handlers, state, hub, monkeypatch):
    session = hub.session(hub.default_key)
    calls = []

    def fake_bootstrap(budget=None, model=None, on_progress=None, should_stop=lambda: False):
        calls.append((budget, model))
        on_progress(Progress("explore", budget, budget, 0.1))
        for i in range(budget):
            if should_stop():
                on_progress(Progress("stopped", i, budget, 0.1 * i))
                return BootstrapResult(Path("."), budget, i, complete=False)
            on_progress(Progress("questions", i + 1, budget, 0.1 * (i + 1)))
            time.sleep(0.05)
        on_progress(Progress("done", budget, budget, 0.1 * budget))
        return BootstrapResult(Path("."), budget, budget, complete=True)

    monkeypatch.setattr(session, "bootstrap", fake_bootstrap)
    monkeypatch.setattr("ui.handlers.POLL_S", 0.02)
    run = handlers.start_bootstrap(200, "smollm2-135m", state)
    first = next(run)
    assert "Bootstrapping" in first[1]
    time.sleep(0.2)
    message, bar = handlers.cancel_bootstrap(state)
    assert "Cancelling" in message and "Cancelling" in bar and "ETA" not in bar  # the bar says so at once
    updates = [first] + list(run)
    assert "Cancelled with" in updates[-1][1] and "resume" in updates[-1][1]
    assert "Cancelled" in updates[-1][0] and "ETA" not in updates[-1][0]
    assert any("programs" in u[0] and "ETA" in u[0] for u in updates[:-1])
    # resume: the same button runs it again
    done = list(handlers.start_bootstrap(3, "smollm2-135m", state))
    assert "complete: 3 questions" in done[-1][1] and "3 / 3 programs" in done[-1][0]
    assert calls == [(200, "smollm2-135m"), (3, "smollm2-135m")]
    assert "No bootstrap is running" in handlers.cancel_bootstrap(state)[0]


def test_bootstrap_errors_are_messages(handlers, state, hub, monkeypatch):
    from engine.bootstrap.corpus import CorpusError

    session = hub.session(hub.default_key)

    def refuse(**kwargs):
        raise CorpusError("the corpus was started with other settings")

    monkeypatch.setattr(session, "bootstrap", refuse)
    monkeypatch.setattr("ui.handlers.POLL_S", 0.02)
    last = list(handlers.start_bootstrap(5, None, state))[-1]
    assert last[1] == "**Error:** Bootstrap failed: the corpus was started with other settings"
    assert list(handlers.start_bootstrap(0, None, state))[-1][1].startswith("The budget must be")


# ------------------------------------------------------------------ corpus browser
def test_corpus_browser_search_pick_and_run(handlers, state, hub):
    rows, status = handlers.search_corpus("", state)
    assert rows == [] and "no corpus yet" in status
    state.last_kg = state.kg
    handlers.mark_correct("which films did Ridley Scott direct?", '(JOIN directed_by "Ridley Scott")', state)
    rows, status = handlers.search_corpus("ridley", state)
    assert rows and rows[0][0] == "which films did Ridley Scott direct?" and "1 match" in status
    assert handlers.search_corpus("zzz", state)[0] == []
    question, program = handlers.pick_corpus_row(rows[0])
    assert question == rows[0][0] and program == '(JOIN directed_by "Ridley Scott")'
    answer, details = handlers.run_corpus_program(program, state)
    assert "Alien" in answer and "Gladiator" in answer and "SELECT" in details
    answer, _ = handlers.run_corpus_program("(JOIN", state)
    assert answer.startswith("**Error:**")


# ------------------------------------------------------------------ the app object
def test_build_makes_one_blocks_app_per_scout(tmp_path):
    import ui

    scout = Scout(ScoutConfig(cache_dir=str(tmp_path / "cache")))
    demo = ui.build(scout, kg=FILMS)
    assert isinstance(demo, gr.Blocks)
    assert demo.kgscout_hub.scout is scout and demo.kgscout_hub.default_key == "tiny_films.psv"
    options = ui.launch_options(scout)
    assert options["max_file_size"] == scout.config.max_upload_bytes and "kgs-progress" in options["css"]


def test_the_shipped_corpus_is_read_only_marked_pairs_go_to_an_overlay(tmp_path):
    """Marking on a KG whose corpus ships in assets/ writes a per-KG overlay in the cache folder, read with the
    shipped records; undo takes it from the overlay, and the shipped file keeps every byte."""
    from engine.scout import DEFAULT_CORPUS

    shipped = DEFAULT_CORPUS / "records.jsonl"
    before = shipped.read_bytes()
    scout = Scout(ScoutConfig(cache_dir=str(tmp_path / "cache"), endpoint_retries=0, query_timeout_s=5))
    hub = Hub(scout, default_spec=FILMS, default_corpus=str(DEFAULT_CORPUS))
    handlers = Handlers(hub, csv_dir=tmp_path / "csv")
    state = hub.new_state()
    session = hub.session(hub.default_key)
    assert session.overlay is not None and session.overlay.folder.is_relative_to(tmp_path / "cache")
    shipped_count = len(session.records())
    status, _, _, state = handlers.mark_correct("who directed Alien?", '(JOIN (R directed_by) "Alien")', state)
    assert status.startswith("Added to the corpus")
    assert shipped.read_bytes() == before
    assert [r.question for r in session.overlay.records()] == ["who directed Alien?"]
    assert len(session.records()) == shipped_count + 1  # read together as exemplars
    assert [r.source for r in session.search_corpus("directed Alien")] == ["user"]
    session._overlay_read_to = session.overlay.records_from(0)[1]  # as if the reasoner had taken it in
    assert handlers.undo_mark(state)[0].startswith("Undone")
    assert session.overlay.records() == [] and session._overlay_read_to == 0
    assert shipped.read_bytes() == before and len(session.records()) == shipped_count
    with pytest.raises(Exception, match="read-only"):
        session.bootstrap(budget=1)


def test_a_bootstrapped_corpus_takes_marked_pairs_itself(hub):
    """Only a shipped corpus gets an overlay: a KG's own corpus in the cache folder is written directly."""
    assert hub.session(hub.default_key).overlay is None


# ------------------------------------------------------------------ schema diagram
def test_schema_diagram_draws_classes_relations_and_counts(handlers, state):
    image, said = handlers.schema_diagram("", state)
    assert image.startswith('<img class="kgs-schema"') and "data:image/svg+xml;base64," in image
    assert "directed_by" in image and "relations" in said  # the alt text names them
    svg = schema_picture.schema_svg(handlers.hub.session(state.kg).schema,
                                    schema_picture.pick_relations(handlers.hub.session(state.kg).schema))
    assert "<script" not in svg and "directed by · " in svg


def test_a_large_schema_draws_its_top_relations_and_filters_the_rest():
    from kg_adapters.schema import ClassInfo, RelationInfo, Schema

    classes = tuple(ClassInfo(f"c{i}", f"c{i}", f"class {i}") for i in range(40))
    relations = tuple(RelationInfo(f"r{i}", f"r{i}", f"relation {i}", f"reverse {i}", domain=(f"c{i % 40}",),
                                   range=(f"c{(i * 7) % 40}",), count=1000 - i) for i in range(400))
    schema = Schema(classes, relations)
    view = schema_picture.pick_relations(schema, "", 30)
    assert [r.name for r in view.relations] == [f"r{i}" for i in range(30)] and view.total == 400
    assert "30 relations with the most triples of the 400" in schema_picture.caption(view)
    wanted = schema_picture.pick_relations(schema, "relation 399", 30)
    assert [r.name for r in wanted.relations] == ["r399"]
    assert "All 1 relations matching" in schema_picture.caption(wanted)
    assert "No relation" in schema_picture.caption(schema_picture.pick_relations(schema, "zzz", 30))
    svg = schema_picture.schema_svg(schema, view)
    assert svg.count('class="kgs-schema-relation"') == 30 and "relation 0 · 1,000" in svg
    assert "<b>" not in schema_picture.schema_svg(
        Schema(classes, (RelationInfo("x", "x", "<b>x</b>", "x", count=1),)),
        schema_picture.pick_relations(Schema(classes, (RelationInfo("x", "x", "<b>x</b>", "x", count=1),))))
