"""The UI's event handlers, as plain methods: Gradio wires them up in ui/app.py, tests call them directly.

Every handler takes the inputs of its event plus the session's `SessionState`, and
returns (or, for long work, yields) a tuple in the order of the `*_OUTPUTS` lists
in ui/app.py. No handler lets an exception reach Gradio: the engine's errors come
back as messages written for users, anything unexpected is logged and summarised
in one line, so a browser never shows a stack trace.
"""

from __future__ import annotations

import html
import logging
import queue
import re
import shutil
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Iterator

import gradio as gr

from engine.lm.compute import background_held

from . import picture, render, schema_picture
from .state import Hub, SessionState

log = logging.getLogger(__name__)

POLL_S = 0.5  # how often a running bootstrap's progress is re-rendered
TICK_S = 1.0  # how often the "thinking" message refreshes its clock
DEFAULT_EXAMPLES = ("what is the capital of France?", "how many countries are in Europe?",
                    "which countries border Germany?")
DETAILS_TITLE = "Program, SPARQL and details"


def _note(text: str) -> str:
    return f"**Error:** {text}"


class Handlers:
    def __init__(self, hub: Hub, csv_dir: str | Path | None = None):
        self.hub = hub
        self.csv_dir = Path(csv_dir or tempfile.mkdtemp(prefix="kgscout-csv-"))
        self.csv_dir.mkdir(parents=True, exist_ok=True)

    # ================================================================== helpers
    def new_state(self, browser: str | None = None) -> SessionState:
        state = self.hub.new_state(browser)
        state.history = self.greeting(state)
        return state

    def load(self, token) -> tuple:
        """The page's load event: kg_view of a fresh session plus this browser's token (made on its first
        visit), so the KGs this browser opened are listed again after a reload, and no other browser's."""
        token = self.hub.browser_token(token)
        return (*self.kg_view(self.new_state(token)), token)

    def _ensure(self, state: SessionState | None) -> SessionState:
        """An event that fires before the page's load event finished has no state yet."""
        return state if isinstance(state, SessionState) else self.new_state()

    def _session(self, state: SessionState):
        try:
            return self.hub.session(state.kg)
        except KeyError:
            state.kg = self.hub.default_key
            if self.hub.default_key not in state.kgs:
                state.kgs.insert(0, self.hub.default_key)
            return self.hub.session(state.kg)

    def _write_csv(self, state: SessionState, stem: str, answers, count) -> str:
        slug = re.sub(r"[^A-Za-z0-9]+", "-", stem).strip("-")
        if len(slug) > 60:  # cut at a word's end
            slug = slug[:61].rsplit("-", 1)[0]
        slug = slug or "answers"
        self._drop_csv(state)
        folder = self.csv_dir / uuid.uuid4().hex[:12]
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{slug}.csv"
        path.write_text(render.answers_csv(answers, count), encoding="utf-8")
        state.csv_path = str(path)
        return str(path)

    def _drop_csv(self, state: SessionState) -> None:
        """A session's earlier CSV goes when it gets a new one: the download button offers only the latest, which
        Gradio has copied into its own cache (swept by delete_cache), so the CSV folder holds one file per
        session instead of one per answer for as long as the app runs."""
        old = Path(state.csv_path) if state.csv_path else None
        if old is not None and old.parent.parent == self.csv_dir:
            shutil.rmtree(old.parent, ignore_errors=True)
        state.csv_path = None

    @staticmethod
    def _lead(session, program: str | None, answers, count) -> str:
        """The sentence a reply leads with, from the engine; none without a program or answers."""
        if not program:
            return ""
        texts, total = render.lead_texts(answers, count)
        return session.lead_sentence(program, texts, total) if texts else ""

    @staticmethod
    def _picture(session, program: str | None, answers, count, execution=None) -> str:
        """The answer's path picture, as a paragraph after the answers; none without answers. Drawing is
        decoration: a failure is logged and leaves the reply without it."""
        if not program or (not answers and count is None):
            return ""
        try:
            walk = session.walk(execution or session.run_program(program))  # from the execution cache
            image = picture.walk_image(walk)
        except Exception:  # noqa: BLE001 - the reply stands without its picture
            log.warning("drawing the path of %r failed", program, exc_info=True)
            return ""
        return f"\n\n{image}" if image else ""

    def greeting(self, state: SessionState) -> list[dict]:
        return [{"role": "assistant", "content": self.kg_intro(state)}]

    def kg_intro(self, state: SessionState) -> str:
        session = self._session(state)
        examples = self.examples(state)
        text = f"Ask me about **{render.md_escape(state.kg)}**."
        if examples:
            text += " For example: " + " · ".join(f"“{render.md_escape(q)}”" for q in examples)
        if not _has_corpus(session):
            text += (
                "\n\n_This KG has no exploration corpus yet, so I answer zero-shot (less accurately). "
                "Bootstrap one in the **Bring your own KG** tab._"
            )
        return text

    def examples(self, state: SessionState, n: int = 3) -> list[str]:
        session = self._session(state)
        if state.kg == self.hub.default_key and self.hub.default_spec is None:
            return list(DEFAULT_EXAMPLES[:n])
        try:
            records = session.search_corpus("", limit=200)
        except Exception:  # noqa: BLE001 - examples are decoration
            return []
        seen, out = set(), []
        for r in sorted(records, key=lambda r: (len(r.question), r.question)):
            if r.pattern not in seen and len(r.question) < 90:
                seen.add(r.pattern)
                out.append(r.question)
            if len(out) >= n:
                break
        return out

    def kg_note(self, state: SessionState) -> str:
        session = self._session(state)
        job = self.hub.job(state.kg)
        if _has_corpus(session):
            n = _corpus_size(session)
            corpus = f"corpus of {n:,} explored questions"
        else:
            corpus = "no corpus yet: zero-shot answers"
        running = " · bootstrap running" if job is not None and job.running else ""
        return f"Asking **{render.md_escape(state.kg)}** ({corpus}{running})"

    # ================================================================== chat
    def ask(self, question: str, state: SessionState) -> Iterator[tuple]:
        """Yields (chatbot, question box, program box, download button, status, state)."""
        state = self._ensure(state)
        question = " ".join((question or "").split())
        if not question:
            yield (state.history, gr.update(), gr.update(), gr.update(), "Type a question first.", state)
            return
        session = self._session(state)
        history = state.recent_history() + [{"role": "user", "content": render.md_escape(question)}]
        events: queue.Queue = queue.Queue()
        cold = getattr(session, "_reasoner", None) is None

        def work():
            try:
                previous = state.last_turn if state.last_kg == state.kg else None
                events.put(("done", session.ask(question, on_progress=lambda s: events.put(("stage", s)),
                                                previous=previous)))
            except Exception as err:  # noqa: BLE001 - becomes a chat reply, never a traceback
                log.warning("asking %r failed", question, exc_info=True)
                events.put(("error", err))

        threading.Thread(target=work, name="kgscout-ask", daemon=True).start()
        started = time.monotonic()
        stage_lines = ["Loading the language model and the label index (first question on this KG)…"
                       if cold else "Preparing…"]
        outcome = None
        clear_box = ""  # the question box is emptied once; later updates leave what the user types next
        while outcome is None:
            pending = {
                "role": "assistant",
                "content": "\n".join(f"- {line}" for line in stage_lines),
                "metadata": {"title": f"Thinking… ({time.monotonic() - started:.0f} s)", "status": "pending"},
            }
            yield (history + [pending], clear_box, gr.update(), gr.update(), "", state)
            clear_box = gr.update()
            deadline = time.monotonic() + TICK_S
            while outcome is None and time.monotonic() < deadline:
                try:
                    kind, payload = events.get(timeout=max(0.05, deadline - time.monotonic()))
                except queue.Empty:
                    break
                if kind == "stage":
                    stage_lines.append(render.stage_text(payload))
                else:
                    outcome = (kind, payload)

        kind, payload = outcome
        if kind == "error":
            history.append({"role": "assistant", "content": _note(render.error_text(payload))})
            state.history = history
            yield (history, gr.update(), gr.update(), gr.update(), "", state)
            return
        result = payload
        program = getattr(result, "program", None)
        lead = self._lead(session, program, getattr(result, "answers", ()), getattr(result, "count", None))
        answer = {"role": "assistant", "content": render.result_markdown(result, asked=question, lead=lead)
                  + self._picture(session, program, getattr(result, "answers", ()), getattr(result, "count", None))}
        waited = time.monotonic() - started  # what the user waited: a first question includes loading the models
        details = {
            "role": "assistant",
            "content": render.details_markdown(result, waited_s=waited, readings=_readings(session, result)),
            "metadata": {"title": DETAILS_TITLE, "status": "done", "duration": round(waited, 2)},
        }
        history += [answer, details]
        state.history = history
        state.last_question = getattr(result, "question", None) or question  # a follow-up as the engine read it
        state.last_kg = state.kg
        if program:
            state.last_turn = session.turn(result)
        state.last_program = state.answered_program = program
        download = gr.update(value=None, interactive=False)
        answers, count = getattr(result, "answers", ()) or (), getattr(result, "count", None)
        if program and (answers or count is not None):
            download = gr.update(value=self._write_csv(state, question, answers, count), interactive=True)
        else:
            self._drop_csv(state)
        # no program: an empty box, so "mark correct" never pairs this question with an older program
        yield (history, gr.update(), render.pretty_program(program), download, "", state)

    def run_program(self, program: str, state: SessionState) -> tuple:
        """Returns (chatbot, download button, status, state)."""
        state = self._ensure(state)
        text = (program or "").strip()
        if not text:
            return (state.history, gr.update(), "Write a program first, e.g. `(JOIN (R capital) \"France\")`.", state)
        session = self._session(state)
        history = state.recent_history() + [
            {"role": "user", "content": "Run this program:\n\n" + render.fence(text, "lisp")}
        ]
        try:
            execution = session.run_program(text)
        except Exception as err:  # noqa: BLE001 - ProgramError / KGError messages are for users
            if not _is_user_error(err):
                log.warning("running %r failed", text, exc_info=True)
            history.append({"role": "assistant", "content": _note(render.error_text(err))})
            state.history = history
            return (history, gr.update(), render.error_text(err), state)
        lead = self._lead(session, execution.program, execution.answers, execution.count)
        history += [
            {"role": "assistant", "content": render.execution_markdown(execution, lead=lead)
             + self._picture(session, execution.program, execution.answers, execution.count, execution)},
            {"role": "assistant", "content": render.execution_details(execution),
             "metadata": {"title": DETAILS_TITLE, "status": "done",
                          "duration": round((execution.elapsed_ms or 0) / 1000, 3)}},
        ]
        state.history = history
        state.last_program = execution.program
        # named after what it holds: this program's reading, not the last question typed
        path = self._write_csv(state, session.reading(execution.program) or "program", execution.answers,
                               execution.count)
        return (history, gr.update(value=path, interactive=True), "", state)

    def confirm_mark(self, program: str, state: SessionState) -> tuple:
        """Returns (confirm panel, pair text, question box, status, state): nothing is added before the user
        has seen the (question, program) pair and confirmed it; the question can be corrected first."""
        state = self._ensure(state)
        text = (program or "").strip()
        if not text:
            return (gr.update(visible=False), "", gr.update(), "The program box is empty; there is nothing to "
                    "mark as correct.", state)
        question = state.last_question if (state.last_kg or state.kg) == state.kg else None
        pair = ("**Add this pair to the corpus of " + render.md_escape(state.kg) + "?** Later questions will "
                "use it as an example.\n\n" + render.fence(render.pretty_program(text), "lisp"))
        if question and state.answered_program and _same_program(text, state.answered_program) is False:
            pair += ("\n\n_This program is not the one that answered the question below (it was edited): "
                     "check that it answers it, or write the question it does answer._")
        elif not question:
            pair += "\n\n_Write the question this program answers._"
        return (gr.update(visible=True), pair, question or "", "", state)

    def mark_correct(self, question: str, program: str, state: SessionState) -> tuple:
        """Returns (status, confirm panel, undo button, state): adds the confirmed (question, program) pair."""
        state = self._ensure(state)
        question, text = " ".join((question or "").split()), (program or "").strip()
        if not question or not text:
            missing = "question" if not question else "program"
            return (f"Write the {missing} first: the corpus keeps questions with the programs that answer them.",
                    gr.update(), gr.update(), state)
        key = state.kg
        try:
            record = self._session(state).mark_correct(question, text)
        except Exception as err:  # noqa: BLE001
            if not _is_user_error(err):
                log.warning("mark_correct failed", exc_info=True)
            return (_note("Not added: " + render.error_text(err)), gr.update(), gr.update(), state)
        state.marked = list(state.marked) + [(key, record)]
        return (
            f"Added to the corpus of **{render.md_escape(key)}**: “{render.md_escape(record.question)}” → "
            f"`{record.program}`. Later questions use it as an example. Undo takes it out again.",
            gr.update(visible=False), gr.update(visible=True), state,
        )

    def cancel_mark(self) -> tuple:
        """Returns (confirm panel, status)."""
        return (gr.update(visible=False), "Nothing was added to the corpus.")

    def undo_mark(self, state: SessionState) -> tuple:
        """Returns (status, undo button, state): takes the last pair this session added out of its corpus."""
        state = self._ensure(state)
        if not state.marked:
            return ("Nothing to undo.", gr.update(visible=False), state)
        key, record = state.marked[-1]
        state.marked = list(state.marked[:-1])
        try:
            removed = self.hub.session(key).unmark_correct(record)
        except Exception as err:  # noqa: BLE001
            if not _is_user_error(err):
                log.warning("undoing mark_correct failed", exc_info=True)
            return (_note("Not undone: " + render.error_text(err)), gr.update(visible=bool(state.marked)), state)
        what = f"“{render.md_escape(record.question)}” → `{record.program}`"
        message = (f"Undone: {what} is no longer in the corpus of **{render.md_escape(key)}**." if removed
                   else f"{what} was no longer in the corpus of **{render.md_escape(key)}**.")
        return (message, gr.update(visible=bool(state.marked)), state)

    def schema_diagram(self, text: str, state: SessionState) -> tuple[str, str]:
        """(diagram html, caption) of the current KG's schema: the relations with the most triples, or those
        the filter text names, so that a schema of hundreds of relations stays readable."""
        state = self._ensure(state)
        try:
            schema = self._session(state).schema
        except Exception as err:  # noqa: BLE001
            return ("", _note("No schema to draw: " + render.error_text(err)))
        view = schema_picture.pick_relations(schema, text or "", self.hub.scout.config.schema_diagram_relations)
        return (schema_picture.schema_image(schema, view), schema_picture.caption(view))

    def clear_chat(self, state: SessionState) -> tuple:
        """Returns (chatbot, program box, download button, status, state)."""
        state = self._ensure(state)
        state.history = self.greeting(state)
        self._drop_csv(state)
        state.last_question = state.last_program = state.last_kg = None
        state.last_turn = state.answered_program = None
        return (state.history, "", gr.update(value=None, interactive=False), "", state)

    # ================================================================== KGs
    def kg_view(self, state: SessionState, message: str = "") -> tuple:
        """(kg dropdown, kg status, kg note, chatbot, schema summary, classes, relations, budget, model,
        bootstrap progress, corpus table, state) for the current KG."""
        state = self._ensure(state)
        session = self._session(state)
        budget, model = gr.update(), gr.update()
        manifest = _manifest(session)
        if manifest is not None:
            params = getattr(manifest, "parameters", {}) or {}
            if params.get("budget"):
                budget = gr.update(value=int(params["budget"]))
            if getattr(manifest, "model", None):
                model = gr.update(value=manifest.model)
        job = self.hub.job(state.kg)
        if job is not None:
            progress = self.job_html(job)
        elif manifest is not None:
            counts = getattr(manifest, "counts", {}) or {}
            progress = render.bar(
                1.0 if counts.get("complete") else 0.0,
                "Corpus " + ("complete" if counts.get("complete") else "partly built"),
                f"{_corpus_size(session):,} questions"
                + ("" if counts.get("complete") else " — press Start to resume with the same settings"),
            )
        else:
            progress = render.progress_html(None, running=False)
        schema = session.schema
        return (
            gr.update(choices=list(state.kgs), value=state.kg),
            message,
            self.kg_note(state),
            state.history,
            render.schema_summary(state.kg, schema, _has_corpus(session), _corpus_size(session)),
            render.class_rows(schema),
            render.relation_rows(schema),
            budget,
            model,
            progress,
            render.corpus_rows(_safe_search(session, "")),
            state,
        )

    def save_schema(self, classes, relations, state: SessionState) -> tuple:
        """The edited schema tables -> (status, classes, relations). Only labels, descriptions and a relation's
        everyday words change."""
        state = self._ensure(state)
        session = self._session(state)
        edits = render.schema_edits(session.schema, _records(classes), _records(relations))
        if not edits:
            return ("Nothing changed: edit a label, a description or a relation's words in the tables first.",
                    render.class_rows(session.schema), render.relation_rows(session.schema))
        try:
            session.update_schema(edits)
        except Exception as err:  # noqa: BLE001 - a bad edit is a message; the schema stays as it was
            if not _is_user_error(err):
                log.warning("saving schema edits failed", exc_info=True)
            return (render.error_text(err), render.class_rows(session.schema), render.relation_rows(session.schema))
        names = ", ".join(f"`{render.md_escape(e.name)}`" for e in edits)
        return (f"Saved {len(edits)} edit(s): {names}. The next bootstrap and the next question use them.",
                render.class_rows(session.schema), render.relation_rows(session.schema))

    def _kg_error_view(self, state: SessionState, message: str) -> tuple:
        """The view of the KG still in use, with an error message: the previous KG stays usable."""
        view = list(self.kg_view(state))
        view[1] = _note(message)
        return tuple(view)

    def _switch_to(self, state: SessionState, key: str, message: str) -> tuple:
        self.hub.remember(state.browser, key)
        if key not in state.kgs:
            state.kgs.append(key)
        if key != state.kg:
            state.kg = key
            state.history = list(state.history) + [{
                "role": "assistant", "content": self.kg_intro(state),
                "metadata": {"title": f"Now asking {key}"},
            }]
        return self.kg_view(state, message)

    def open_file(self, path, state: SessionState) -> Iterator[tuple]:
        """Opens an uploaded triples file; yields kg_view tuples (a loading message first)."""
        state = self._ensure(state)
        if path is None or (isinstance(path, (list, tuple)) and not path):
            yield self.kg_view(state, "")
            return
        if isinstance(path, (list, tuple)):
            path = path[0]
        path = getattr(path, "name", path)  # a tempfile wrapper from older Gradio versions
        name = Path(str(path)).name
        limit = self.hub.scout.config.max_upload_bytes
        try:
            size = Path(path).stat().st_size
        except OSError:
            yield self._kg_error_view(state, f"The upload of {name} did not arrive; please try again.")
            return
        if size > limit:
            yield self._kg_error_view(
                state, f"{name} is {size / 1e6:,.1f} MB; the limit is {limit / 1e6:,.0f} MB. "
                       "Query a large graph through a SPARQL endpoint instead.")
            return
        quota = self.hub.scout.config.session_quota_bytes
        if state.disk_used + size > quota:
            yield self._kg_error_view(state, _over_quota(name, state.disk_used, quota))
            return
        view = list(self.kg_view(state))
        view[1] = f"Loading **{render.md_escape(name)}** ({size / 1e6:,.2f} MB) and reading its schema…"
        yield tuple(view)
        opened_before = set(self.hub.keys())
        try:
            key = self.hub.open(str(path))
        except Exception as err:  # noqa: BLE001 - KGError/LoadError messages are written for users
            if not _is_user_error(err):
                log.warning("opening %s failed", path, exc_info=True)
            yield self._kg_error_view(state, f"Could not load {name}: {render.error_text(err)}")
            return
        if not self._charge(state, key, size, new=key not in opened_before):
            yield self._kg_error_view(state, _over_quota(name, state.disk_used, quota))
            return
        yield self._switch_to(state, key, f"Loaded **{render.md_escape(key)}**.")

    def _charge(self, state: SessionState, key: str, size: int, new: bool) -> bool:
        """Charge the session for what its upload added to the disk: the file, and the store when this upload
        built it (a KG already open costs nothing more). Over the quota, a store it built is removed again."""
        if key in state.uploads:
            return True
        cost = size + (self.hub.session(key).disk_bytes() if new else 0)
        if state.disk_used + cost > self.hub.scout.config.session_quota_bytes:
            if new:
                self.hub.remove_store(key)
            return False
        state.uploads[key] = cost
        return True

    def open_endpoint(self, url: str, state: SessionState) -> Iterator[tuple]:
        state = self._ensure(state)
        url = (url or "").strip()
        if not url:
            yield self._kg_error_view(state, "Enter the URL of a SPARQL endpoint, e.g. https://example.org/sparql.")
            return
        if not url.startswith(("http://", "https://")):
            yield self._kg_error_view(state, f"“{url}” is not an http(s) URL of a SPARQL endpoint.")
            return
        view = list(self.kg_view(state))
        view[1] = f"Connecting to {render.md_escape(url)} and reading its schema…"
        yield tuple(view)
        try:
            key = self.hub.open(url)
        except Exception as err:  # noqa: BLE001
            if not _is_user_error(err):
                log.warning("opening %s failed", url, exc_info=True)
            yield self._kg_error_view(state, render.error_text(err))
            return
        note = ""
        try:
            from engine.answer.remote_labels import linking_note

            note = linking_note(self.hub.session(key).kg.store, self.hub.scout.config)
        except Exception:  # noqa: BLE001 - a note, never a reason to fail the connection
            log.info("no linking note for %s", key, exc_info=True)
        yield self._switch_to(state, key, f"Connected to **{render.md_escape(key)}**." + (f" {note}" if note else ""))

    def switch_kg(self, key: str, state: SessionState) -> tuple:
        state = self._ensure(state)
        if not key or key == state.kg:
            return self.kg_view(state)
        try:
            self.hub.session(key)
        except KeyError:
            return self._kg_error_view(state, f"No open KG is called {key}.")
        return self._switch_to(state, key, "")

    # ================================================================== bootstrap
    def job_html(self, job) -> str:
        end = job.finished if job.finished is not None else time.monotonic()
        if job.result is not None:
            bar = render.result_html(job.result, elapsed_s=end - job.started, cancelled=job.cancelled)
        else:
            since = time.monotonic() - job.progress_at if job.running and job.progress is not None else 0.0
            bar = render.progress_html(job.progress, running=job.running, elapsed_s=end - job.started,
                                       since_s=since, cancelling=job.cancelled,
                                       paused=job.running and background_held())
        return f'<div class="kgs-job" data-kg="{html.escape(job.key)}">{bar}</div>'

    def start_bootstrap(self, budget, model, state: SessionState) -> Iterator[tuple]:
        """Yields (progress html, bootstrap status, kg note, schema summary, corpus table) until the job ends."""
        state = self._ensure(state)
        key = state.kg
        try:
            budget = int(budget) if budget not in (None, "") else None
        except (TypeError, ValueError):
            budget = None
        if budget is not None and budget < 1:
            yield (gr.update(), "The budget must be at least 1 program.", gr.update(), gr.update(), gr.update())
            return
        try:
            job, started = self.hub.start_bootstrap(key, budget, model or None)
        except Exception as err:  # noqa: BLE001
            yield (gr.update(), _note(render.error_text(err)), gr.update(), gr.update(), gr.update())
            return
        status = (f"Bootstrapping **{render.md_escape(key)}** with budget {budget} and model {model}…"
                  if started else f"A bootstrap of **{render.md_escape(key)}** is already running; following it.")
        while job.running:
            yield (self.job_html(job), status, self.kg_note(state), gr.update(), gr.update())
            time.sleep(POLL_S)
        session = self.hub.session(key)
        if job.error:
            status = _note("Bootstrap failed: " + job.error)
        elif job.result is not None and getattr(job.result, "complete", False):
            status = (f"Bootstrap of **{render.md_escape(key)}** complete: "
                      f"{job.result.records:,} questions in the corpus.")
        elif job.result is not None:
            stopped = "Cancelled" if job.cancelled else "Stopped"
            status = (f"{stopped} with {job.result.records:,} of {job.result.programs:,} questions written. "
                      "Press **Start / resume** with the same settings to go on.")
        else:
            status = "Bootstrap ended."
        summary = render.schema_summary(key, session.schema, _has_corpus(session), _corpus_size(session))
        yield (self.job_html(job), status, self.kg_note(state), summary,
               render.corpus_rows(_safe_search(session, "")))

    def cancel_bootstrap(self, state: SessionState) -> tuple:
        """Returns (bootstrap status, progress html): the bar says at once that it is cancelling."""
        state = self._ensure(state)
        job = self.hub.job(state.kg)
        if self.hub.cancel_bootstrap(state.kg):
            return ("Cancelling after the programs under way… (the corpus keeps every finished question)",
                    self.job_html(job))
        return ("No bootstrap is running for this KG.", gr.update() if job is None else self.job_html(job))

    # ================================================================== corpus browser
    def search_corpus(self, text: str, state: SessionState) -> tuple:
        """Returns (rows, status)."""
        state = self._ensure(state)
        session = self._session(state)
        try:
            records = session.search_corpus(text or "", limit=200)
        except Exception as err:  # noqa: BLE001
            return ([], _note(render.error_text(err)))
        if not records:
            if not _has_corpus(session):
                return ([], f"**{render.md_escape(state.kg)}** has no corpus yet; bootstrap it first.")
            return ([], "No explored question or program contains that text.")
        more = " (first 200)" if len(records) >= 200 else ""
        return (render.corpus_rows(records), f"{len(records):,} matches{more}. Select a row to run its program.")

    def pick_corpus_row(self, row_value) -> tuple:
        """(question, program) of a selected corpus row."""
        row = list(row_value or [])
        if len(row) < 2:
            return (gr.update(), gr.update())
        return (str(row[0]), render.pretty_program(str(row[1])))

    def run_corpus_program(self, program: str, state: SessionState) -> tuple:
        """Returns (answer markdown, details markdown)."""
        state = self._ensure(state)
        text = (program or "").strip()
        if not text:
            return ("Select a row of the table, or write a program.", "")
        try:
            execution = self._session(state).run_program(text)
        except Exception as err:  # noqa: BLE001
            if not _is_user_error(err):
                log.warning("running %r failed", text, exc_info=True)
            return (_note(render.error_text(err)), "")
        session = self._session(state)
        lead = self._lead(session, execution.program, execution.answers, execution.count)
        return (render.execution_markdown(execution, lead=lead), render.execution_details(execution))


def _over_quota(name: str, used: int, quota: int) -> str:
    return (f"{name} was not loaded: this session's uploads would take more than its disk quota of "
            f"{quota / 1e6:,.0f} MB ({used / 1e6:,.1f} MB used). The server's operator sets it with "
            "--session-quota-mb.")


# ---------------------------------------------------------------------- small engine readers
def _readings(session, result) -> dict[str, str]:
    """program -> English reading, for the alternatives a reply's details list."""
    alternatives = list(getattr(result, "alternatives", ()) or ())[: render.MAX_ALTERNATIVES]
    return {a.program: session.reading(a.program) for a in alternatives}


def _same_program(a: str, b: str) -> bool | None:
    """Whether two program texts are the same program (None when one does not parse)."""
    from engine.programs.sexpr import ProgramError, parse, to_text

    try:
        return to_text(parse(a)) == to_text(parse(b))
    except (ProgramError, RecursionError, ValueError):
        return None


def _records(table) -> list[list]:
    """A Gradio Dataframe value (pandas frame, dict or list of rows) as a list of rows."""
    if table is None:
        return []
    if hasattr(table, "values") and hasattr(table, "columns"):
        return table.values.tolist()
    if isinstance(table, dict):
        return list(table.get("data", []))
    return [list(row) for row in table]


def _has_corpus(session) -> bool:
    try:
        return bool(session.has_corpus)
    except Exception:  # noqa: BLE001 - an unreadable corpus is no corpus
        return False


def _corpus_size(session) -> int:
    try:
        return len(session.records()) if _has_corpus(session) else 0
    except Exception:  # noqa: BLE001
        return 0


def _manifest(session):
    try:
        return session.corpus.manifest() if session.corpus.exists() else None
    except Exception:  # noqa: BLE001
        return None


def _safe_search(session, text: str, limit: int = 200):
    try:
        return session.search_corpus(text, limit=limit)
    except Exception:  # noqa: BLE001
        return []


def _is_user_error(err: BaseException) -> bool:
    from kg_adapters.base import KGError

    from engine.bootstrap.corpus import CorpusError
    from engine.programs.sexpr import ProgramError

    return isinstance(err, (KGError, ProgramError, CorpusError))
