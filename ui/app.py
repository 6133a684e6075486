"""The Gradio app: layout and wiring only. Every event goes to a method of ui.handlers.Handlers.

    build(scout) -> gr.Blocks      (one Scout per process, shared by every browser session)
    launch_options(scout) -> dict  (keyword arguments for Blocks.launch: CSS, theme, upload limit)
"""

from __future__ import annotations

import logging

import gradio as gr
import pandas as pd

from . import render
from .handlers import Handlers
from .state import Hub

log = logging.getLogger(__name__)

CHAT_CONCURRENCY = 4  # questions reasoned at once across all sessions (they share one LLM and the CPU)

CSS = """
#program textarea, #corpus-program textarea { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
.kgs-lead { font-size: 1.05em; margin: 0 0 4px 0; }
img.kgs-walk { max-width: 100%; height: auto; margin-top: 6px; }
.kgs-progress { padding: 8px 2px; }
.kgs-progress-title { font-weight: 600; margin-bottom: 6px; }
.kgs-progress-track { height: 14px; border-radius: 7px; background: var(--neutral-200, #e5e7eb); overflow: hidden; }
.kgs-progress-fill { height: 100%; background: var(--color-accent, #f97316); }
.kgs-progress-facts { margin-top: 6px; font-size: 0.92em; color: var(--body-text-color-subdued, #6b7280); }
#kg-note { align-self: center; }
footer { display: none !important; }
"""

# Opening a reply's details panel scrolls it into view: it opens below the answer, often under the chat's fold.
HEAD = """
<script>
document.addEventListener('click', (event) => {
  const title = event.target.closest && event.target.closest('#chat .thought-group .title');
  if (!title) return;
  const group = title.closest('.thought-group');
  setTimeout(() => {
    if (group.innerText.length > title.innerText.length + 20) {  // it opened (a closed one shows its title only)
      group.scrollIntoView({ block: 'start', behavior: 'smooth' });
    }
  }, 150);
});
</script>
"""

INTRO = (
    "# KG Scout\n"
    "Ask questions of **any** knowledge graph in plain language. Each answer comes with the program "
    "(s-expression) and the SPARQL behind it. Bring your own graph in the second tab: "
    "KG Scout explores it once and learns to answer questions about it, with no training data."
)


def _models(config) -> list[str]:
    try:
        from engine.lm.models import REGISTRY

        names = list(REGISTRY)
    except Exception:  # noqa: BLE001 - the dropdown still offers the configured model
        names = []
    if config.model not in names:
        names.insert(0, config.model)
    return names


def _static(columns: list[str]) -> list[int]:
    """Indexes of the columns a user may not edit (all but label and description)."""
    return [i for i, name in enumerate(columns) if name not in render.EDITABLE]


def build(scout, kg: str | None = None, corpus: str | None = None, preload: bool = False,
          hub: Hub | None = None) -> gr.Blocks:
    """The app for one Scout. `kg`/`corpus`: the KG opened at start (default: the geography KG)."""
    hub = hub or Hub(scout, kg, corpus)
    h = Handlers(hub)
    if preload:
        hub.warm_up()
    hub.start_sweeping()
    config = scout.config

    def table(rows, columns):
        return pd.DataFrame(rows, columns=columns)

    def with_tables(view):
        view = list(view)
        view[5] = table(view[5], render.CLASS_COLUMNS)
        view[6] = table(view[6], render.RELATION_COLUMNS)
        view[10] = table(view[10], render.CORPUS_COLUMNS)
        return tuple(view)

    # Gradio's copies of uploaded files go with the stores built from them (kg_adapters.store_cache).
    idle_s = int(config.store_idle_hours * 3600)
    delete_cache = (max(60, min(3600, idle_s // 4)), idle_s) if idle_s > 0 else None
    with gr.Blocks(title="KG Scout", analytics_enabled=False, delete_cache=delete_cache) as demo:
        state = gr.State(None)
        browser = gr.BrowserState(None, storage_key="kgscout-browser")  # this browser's token (ui.state.Hub)
        gr.Markdown(INTRO)
        with gr.Row(equal_height=True):
            kg_select = gr.Dropdown(label="Knowledge graph", choices=[hub.default_key], value=hub.default_key,
                                    scale=2, elem_id="kg-select", interactive=True)
            kg_note = gr.Markdown(elem_id="kg-note")
        with gr.Tabs():
            # ---------------------------------------------------------------- chat
            with gr.Tab("Chat", id="chat", elem_id="tab-chat"):
                chatbot = gr.Chatbot(elem_id="chat", height=560, feedback_options=None, buttons=["copy_all"],
                                     show_label=False, placeholder="Loading…")
                with gr.Row():
                    question = gr.Textbox(show_label=False, placeholder="Ask a question about the graph…",
                                          scale=8, elem_id="question", autofocus=True, max_length=2000)
                    ask_btn = gr.Button("Ask", variant="primary", scale=1, elem_id="ask")
                status = gr.Markdown(elem_id="chat-status")
                with gr.Accordion("Program: edit it and run it again", open=True, elem_id="program-panel"):
                    program = gr.Textbox(label="s-expression", lines=4, max_lines=16, elem_id="program",
                                         placeholder='(JOIN (R capital) "France")')
                    with gr.Row():
                        run_btn = gr.Button("▶ Run program", elem_id="run-program")
                        correct_btn = gr.Button("✓ Mark as correct", elem_id="mark-correct")
                        download = gr.DownloadButton("⬇ Answers (CSV)", value=None, interactive=False,
                                                     elem_id="download-csv")
                        clear_btn = gr.Button("New chat", elem_id="clear-chat")
                    with gr.Group(visible=False, elem_id="mark-confirm") as confirm_panel:
                        confirm_pair = gr.Markdown(elem_id="mark-pair")
                        confirm_question = gr.Textbox(label="The question this program answers",
                                                      elem_id="mark-question", max_length=2000)
                        with gr.Row():
                            confirm_add = gr.Button("Add to the corpus", variant="primary", elem_id="mark-add")
                            confirm_cancel = gr.Button("Cancel", elem_id="mark-cancel")
                    undo_btn = gr.Button("↶ Undo: take it out of the corpus", visible=False, elem_id="mark-undo",
                                         size="sm")
            # ---------------------------------------------------------------- bring your own KG
            with gr.Tab("Bring your own KG", id="byokg", elem_id="tab-byokg"):
                with gr.Row():
                    with gr.Column(scale=3):
                        upload = gr.File(
                            label="Upload triples: N-Triples, Turtle, RDF/XML, N-Quads, TriG, JSON-LD, "
                                  "subject|relation|object, TSV or 3-column CSV, gzipped or not "
                                  f"(up to {config.max_upload_mb:g} MB)",
                            file_count="single", type="filepath", elem_id="kg-upload", height=140,
                        )
                    with gr.Column(scale=2):
                        endpoint = gr.Textbox(label="…or a SPARQL endpoint URL", elem_id="endpoint",
                                              placeholder="https://example.org/sparql")
                        connect_btn = gr.Button("Connect", elem_id="connect")
                kg_status = gr.Markdown(elem_id="kg-status")
                schema_summary = gr.Markdown(elem_id="schema-summary")
                with gr.Accordion("Schema: edit labels and descriptions before bootstrapping", open=True):
                    with gr.Row():
                        with gr.Column(scale=3):
                            classes_df = gr.Dataframe(headers=render.CLASS_COLUMNS, interactive=True, wrap=True,
                                                      label="Classes", elem_id="classes", max_height=320,
                                                      static_columns=_static(render.CLASS_COLUMNS))
                            relations_df = gr.Dataframe(headers=render.RELATION_COLUMNS, interactive=True,
                                                        wrap=True, label="Relations", elem_id="relations",
                                                        max_height=320,
                                                        static_columns=_static(render.RELATION_COLUMNS))
                        with gr.Column(scale=2, elem_id="schema-diagram-column"):
                            diagram_filter = gr.Textbox(label="Draw the relations whose name, label or classes "
                                                        "hold…", placeholder="e.g. film", elem_id="schema-filter")
                            diagram_caption = gr.Markdown(elem_id="schema-diagram-caption")
                            diagram = gr.HTML(elem_id="schema-diagram", max_height=660)
                    with gr.Row():
                        save_schema_btn = gr.Button("Save schema edits", elem_id="save-schema", scale=0)
                        schema_status = gr.Markdown(elem_id="schema-status")
                gr.Markdown(
                    "### Bootstrap\nExplore the graph with random walks and have the language model write a "
                    "question for every explored program. The corpus makes answers much better; it is saved "
                    "as it grows, so you can cancel and resume."
                )
                with gr.Row():
                    budget = gr.Number(label="Budget (programs to explore)", value=config.budget, precision=0,
                                       minimum=1, elem_id="budget")
                    model = gr.Dropdown(label="Question-writing model", choices=_models(config),
                                        value=config.model, allow_custom_value=True, elem_id="model")
                    start_btn = gr.Button("Start / resume", variant="primary", elem_id="bootstrap-start")
                    cancel_btn = gr.Button("Cancel", variant="stop", elem_id="bootstrap-cancel")
                progress = gr.HTML(render.progress_html(None, running=False), elem_id="bootstrap-progress")
                boot_status = gr.Markdown(elem_id="bootstrap-status")
            # ---------------------------------------------------------------- corpus browser
            with gr.Tab("Corpus", id="corpus", elem_id="tab-corpus"):
                with gr.Row():
                    corpus_search = gr.Textbox(show_label=False, placeholder="Search questions and programs…",
                                               scale=8, elem_id="corpus-search")
                    search_btn = gr.Button("Search", scale=1, elem_id="corpus-search-btn")
                corpus_status = gr.Markdown(elem_id="corpus-status")
                corpus_table = gr.Dataframe(headers=render.CORPUS_COLUMNS, interactive=False, wrap=True,
                                            elem_id="corpus-table", max_height=420,
                                            column_widths=["48%", "42%", "10%"])
                corpus_question = gr.Textbox(label="Question", interactive=False, elem_id="corpus-question")
                corpus_program = gr.Textbox(label="Program", lines=3, elem_id="corpus-program")
                corpus_run = gr.Button("▶ Run", elem_id="corpus-run")
                corpus_answer = gr.Markdown(elem_id="corpus-answer")
                corpus_details = gr.Markdown(elem_id="corpus-details")

        # -------------------------------------------------------------------- wiring
        kg_outputs = [kg_select, kg_status, kg_note, chatbot, schema_summary, classes_df, relations_df,
                      budget, model, progress, corpus_table, state]

        def on_load(token):
            view = h.load(token)
            return (*with_tables(view[:-1]), view[-1])

        demo.load(on_load, [browser], kg_outputs + [browser], show_progress="hidden")

        ask_outputs = [chatbot, question, program, download, status, state]
        ask_args = dict(fn=h.ask, inputs=[question, state], outputs=ask_outputs, show_progress="hidden",
                        concurrency_limit=CHAT_CONCURRENCY, concurrency_id="reason")
        ask_btn.click(**ask_args)
        question.submit(**ask_args)
        run_btn.click(h.run_program, [program, state], [chatbot, download, status, state],
                      concurrency_limit=8, show_progress="minimal")
        correct_btn.click(h.confirm_mark, [program, state],
                          [confirm_panel, confirm_pair, confirm_question, status, state])
        confirm_add.click(h.mark_correct, [confirm_question, program, state], [status, confirm_panel, undo_btn, state],
                          concurrency_limit=4)
        confirm_cancel.click(h.cancel_mark, None, [confirm_panel, status])
        undo_btn.click(h.undo_mark, [state], [status, undo_btn, state], concurrency_limit=4)
        clear_btn.click(h.clear_chat, [state], [chatbot, program, download, status, state])

        def kg_event(fn):
            def run(*args):
                for view in fn(*args):
                    yield with_tables(view)
            return run

        upload.upload(kg_event(h.open_file), [upload, state], kg_outputs, concurrency_limit=2,
                      show_progress="minimal")
        connect_btn.click(kg_event(h.open_endpoint), [endpoint, state], kg_outputs, concurrency_limit=2)
        endpoint.submit(kg_event(h.open_endpoint), [endpoint, state], kg_outputs, concurrency_limit=2)
        kg_select.input(lambda key, s: with_tables(h.switch_kg(key, s)), [kg_select, state], kg_outputs)

        def bootstrap(budget_value, model_value, s):
            for prog, message, note, summary, rows in h.start_bootstrap(budget_value, model_value, s):
                if isinstance(rows, list):
                    rows = table(rows, render.CORPUS_COLUMNS)
                yield prog, message, note, summary, rows

        start_btn.click(bootstrap, [budget, model, state], [progress, boot_status, kg_note, schema_summary,
                                                            corpus_table],
                        concurrency_limit=None, concurrency_id="bootstrap-poll", show_progress="hidden")
        cancel_btn.click(h.cancel_bootstrap, [state], [boot_status, progress], concurrency_limit=None)

        def save_schema(classes, relations, s):
            message, class_rows, relation_rows = h.save_schema(classes, relations, s)
            return (message, table(class_rows, render.CLASS_COLUMNS), table(relation_rows, render.RELATION_COLUMNS))

        save_schema_btn.click(save_schema, [classes_df, relations_df, state], [schema_status, classes_df, relations_df])
        # The diagram follows the relation table: whatever refills the table (another KG, saved edits) redraws it.
        relations_df.change(h.schema_diagram, [diagram_filter, state], [diagram, diagram_caption],
                            show_progress="hidden")
        diagram_filter.change(h.schema_diagram, [diagram_filter, state], [diagram, diagram_caption],
                              show_progress="hidden")

        def search(text, s):
            rows, message = h.search_corpus(text, s)
            return table(rows, render.CORPUS_COLUMNS), message

        search_btn.click(search, [corpus_search, state], [corpus_table, corpus_status])
        corpus_search.submit(search, [corpus_search, state], [corpus_table, corpus_status])

        def pick(evt: gr.SelectData):
            return h.pick_corpus_row(getattr(evt, "row_value", None))

        corpus_table.select(pick, None, [corpus_question, corpus_program])
        corpus_run.click(h.run_corpus_program, [corpus_program, state], [corpus_answer, corpus_details])

    demo.queue(default_concurrency_limit=4)
    demo.kgscout_hub = hub  # for tests and app.py
    demo.kgscout_handlers = h
    return demo


def launch_options(scout) -> dict:
    """Keyword arguments for `Blocks.launch` that belong to the UI (look, upload limit)."""
    return dict(
        css=CSS,
        head=HEAD,
        theme=gr.themes.Soft(),
        max_file_size=scout.config.max_upload_bytes,
        show_error=False,
        ssr_mode=False,
        footer_links=[],
    )
