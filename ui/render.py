"""Turn engine results into what the UI shows: markdown, table rows, CSV, HTML progress.

Pure functions of their arguments (no Gradio, no engine calls), so they are tested
without a browser. Everything the engine hands over is read defensively with
`getattr`, because the reasoner's result type is still growing.
"""

from __future__ import annotations

import csv
import io
import html
import math
from decimal import Decimal, InvalidOperation
from typing import Iterable, Sequence

from engine.programs.sexpr import ProgramError, parse, pretty

MAX_LISTED = 25  # answers listed in a chat reply; the CSV has them all
MAX_ALTERNATIVES = 5

STAGES = {
    "linking": "Linking entities and values in the question",
    "re-ranking": "Re-ranking the best programs (inverse consistency)",
}


# ------------------------------------------------------------------ small helpers
def pretty_program(program: str | None) -> str:
    """The program in its indented, multi-line form; the text as given when it does not parse."""
    if not program:
        return ""
    try:
        return pretty(parse(program))
    except (ProgramError, RecursionError, ValueError):
        return program


def duration(seconds: float | None) -> str:
    if seconds is None or not math.isfinite(seconds):
        return "unknown"
    seconds = max(0.0, float(seconds))
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, secs = divmod(int(round(seconds)), 60)
    if minutes < 60:
        return f"{minutes} min {secs:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def stage_text(stage: str) -> str:
    """A progress line for one reasoner stage ("linking", "step 2", "re-ranking")."""
    stage = (stage or "").strip()
    if stage in STAGES:
        return STAGES[stage]
    if stage.startswith("step"):
        number = stage[4:].strip()
        return f"Search step {number}: building, executing and scoring candidate programs"
    return stage[:1].upper() + stage[1:] if stage else "Working"


def md_escape(text: str) -> str:
    """Escape markdown/HTML specials in KG labels (they are data, not markup)."""
    text = html.escape(str(text), quote=False)
    for ch in "\\`*_[]|#~":
        text = text.replace(ch, "\\" + ch)
    return text


def fence(text: str, lang: str = "") -> str:
    fence = "```"
    while fence in text:
        fence += "`"
    return f"{fence}{lang}\n{text}\n{fence}"


def _score(value) -> str:
    if value is None:
        return "–"
    try:
        return f"{float(value):.3f}"
    except (TypeError, ValueError):
        return "–"


# ------------------------------------------------------------------ answers
_XSD = "http://www.w3.org/2001/XMLSchema#"


def value_text(answer) -> str:
    """One answer as a reader wants it: a yes/no question's "Yes." or "No.", a large number with digit groups
    (a sum: 168,013,326; not a year: 1999), a fraction to two places, anything else its label."""
    datatype = getattr(answer, "datatype", None) or ""
    if datatype == _XSD + "boolean":
        return "Yes." if answer.label == "yes" else "No."
    if datatype in (_XSD + "decimal", _XSD + "integer", _XSD + "double"):
        try:
            number = Decimal(answer.label)
        except InvalidOperation:
            return answer.label
        if number != number.to_integral_value():
            return f"{number:,.2f}"
        return f"{number:,}" if abs(number) >= 10_000 else str(number)
    return answer.label


def answers_markdown(answers: Sequence, count: int | None, limit: int = MAX_LISTED) -> str:
    """The reply itself: the count, one label, or a list of labels."""
    if count is not None:
        return f"**{count:,}**"
    answers = list(answers or ())
    if not answers:
        return "_No answers._"
    if len(answers) == 1:
        return f"**{md_escape(value_text(answers[0]))}**"
    lines = [f"{len(answers):,} answers:"]
    lines += [f"- {md_escape(a.label)}" for a in answers[:limit]]
    if len(answers) > limit:
        lines.append(f"- … and {len(answers) - limit:,} more (download the CSV for all of them)")
    return "\n".join(lines)


def result_markdown(result, asked: str | None = None, lead: str = "") -> str:
    """The chat reply for an `engine.answer.reasoner.QuestionResult`; `asked`: what the user typed, when the
    engine read it differently (a follow-up whose pronoun it resolved); `lead`: the sentence the reply starts
    with (engine.programs.sentence), before the answers themselves."""
    message = getattr(result, "message", None)
    program = getattr(result, "program", None)
    answers = getattr(result, "answers", ()) or ()
    count = getattr(result, "count", None)
    reading = getattr(result, "question", None)
    note = f"_Read as: {md_escape(reading)}_\n\n" if asked and reading and reading != asked else ""
    if program is None or (not answers and count is None):
        return note + (md_escape(message) if message else "I could not find an answer to this question.")
    text = note + lead_markdown(lead) + answers_markdown(answers, count)
    if message:
        text += "\n\n" + md_escape(message)
    return text


def linked_markdown(linked: Iterable) -> str:
    lines = []
    for mention in linked or ():
        cands = list(getattr(mention, "candidates", ()) or ())
        text = md_escape(getattr(mention, "text", ""))
        if not cands:
            lines.append(f"- “{text}” → _nothing in the graph_")
            continue
        parts = []
        for c in cands:
            kind = getattr(c, "kind", "")
            classes = ", ".join(getattr(c, "classes", ()) or ())
            what = f"{kind}{': ' + classes if classes else ''}"
            parts.append(f"{md_escape(getattr(c, 'label', ''))} ({md_escape(what)}, {_score(getattr(c, 'score', None))})")
        lines.append(f"- “{text}” → " + "; ".join(parts))
    return "\n".join(lines) if lines else "_No entity, value or class was linked._"


SCORE_LEGEND = (
    "forward: how likely the language model finds the program as a reading of the question; inverse: how "
    "likely it finds the question given the program; both are mean log-probabilities per token (0 is certain, "
    "more negative is less likely). similarity: how close the program's English reading is to the question "
    "(cosine, 1 is the same). final: the re-ranked score that chose the answer (higher wins). "
    "– marks a score not computed, as it could not change the winner."
)


def alternatives_markdown(alternatives: Iterable, limit: int = MAX_ALTERNATIVES,
                          readings: dict[str, str] | None = None) -> str:
    """The programs the search weighed, best first, said in words; their raw scores behind a toggle."""
    alts = list(alternatives or ())[:limit]
    if not alts:
        return "_None._"
    readings = readings or {}
    rows = ["| # | program | what it asks for | standing |", "|---|---|---|---|"]
    for i, alt in enumerate(alts, 1):
        program = str(getattr(alt, "program", ""))
        reading = md_escape(readings.get(program, "")).replace("|", "\\|")
        rows.append(f"| {i} | `{program.replace('|', chr(92) + '|')}` | {reading} | {_standing(i, alt)} |")
    return "\n".join(rows) + "\n\n" + _scores_toggle(alts)


def _standing(rank: int, alt) -> str:
    """One alternative's place in words."""
    asked = " (answers with what the question asks for)" if getattr(alt, "asked_class", False) else ""
    if getattr(alt, "backwards", False):
        asked += " (reads the question's verb the other way round)"
    if rank == 1:
        return "chosen" + asked
    if getattr(alt, "final", None) is None:
        return "not re-ranked: it could not win" + asked
    return "weighed, and scored lower" + asked


def _scores_toggle(alts: list) -> str:
    """The raw scores in a <details> toggle, with what each column means."""
    rows = ["| # | forward | inverse | similarity | final |", "|---|---|---|---|---|"]
    for i, alt in enumerate(alts, 1):
        rows.append(f"| {i} | {_score(getattr(alt, 'forward', None))} | {_score(getattr(alt, 'inverse', None))} | "
                    f"{_score(getattr(alt, 'similarity', None))} | {_score(getattr(alt, 'final', None))} |")
    return ("<details class=\"kgs-scores\"><summary>Scores (for the curious)</summary>\n\n"
            + SCORE_LEGEND + "\n\n" + "\n".join(rows) + "\n\n</details>")


def skipped_markdown(skipped: Iterable) -> str:
    """One line per reading passed over: the program and why (engine.answer.search.SkippedReading)."""
    return "\n".join(f"- `{getattr(s, 'program', '')}`: {md_escape(getattr(s, 'reason', ''))}" for s in skipped)


def timings_dict(timings) -> dict[str, float]:
    """Stage -> seconds, whatever shape the timings come in (Timings, dict, float or None)."""
    if timings is None:
        return {}
    if isinstance(timings, (int, float)):
        return {"total": float(timings)}
    if isinstance(timings, dict):
        raw = timings
    elif hasattr(timings, "as_dict"):
        raw = timings.as_dict()
    else:
        raw = {k: v for k, v in vars(timings).items() if not k.startswith("_")} if hasattr(timings, "__dict__") else {}
        if not raw and hasattr(timings, "__dataclass_fields__"):
            raw = {k: getattr(timings, k) for k in timings.__dataclass_fields__}
    out = {}
    for key, value in raw.items():
        try:
            out[str(key)] = float(value)
        except (TypeError, ValueError):
            continue
    return out


def timings_markdown(timings, cached: bool = False) -> str:
    stages = timings_dict(timings)
    total = stages.pop("total", None)
    parts = [f"{k} {duration(v)}" for k, v in stages.items() if v > 0]
    text = f"**{duration(total)}** in all" if total is not None else ""
    if parts:
        text += (" — " if text else "") + " · ".join(parts)
    if cached:
        text += " (answered from the cache)"
    return text or "_not measured_"


def corpus_text(questions: int, readings: int) -> str:
    """How large the corpus behind an answer was; while a bootstrap writes questions it is still growing."""
    if not questions and not readings:
        return "no corpus yet: the schema alone steered this answer"
    text = f"a corpus of {questions:,} question{'s' if questions != 1 else ''}"
    if readings:
        text += f" and {readings:,} program reading{'s' if readings != 1 else ''} standing in for questions not written yet"
    return text


def details_markdown(result, waited_s: float | None = None, readings: dict[str, str] | None = None) -> str:
    """The panel under an answer: program, SPARQL, linked entities, alternatives, time spent.

    `waited_s`: how long the user waited in all, models loading included, when more than the reasoning.
    `readings`: program -> its English reading, for the alternatives table."""
    sections = []
    program = getattr(result, "program", None)
    if program:
        sections.append("**Program** (s-expression)\n\n" + fence(pretty_program(program), "lisp"))
    sparql = getattr(result, "sparql", None)
    if sparql:
        sections.append("**SPARQL**\n\n" + fence(sparql, "sparql"))
    sections.append("**Linked**\n\n" + linked_markdown(getattr(result, "linked", ())))
    alternatives = getattr(result, "alternatives", ())
    if alternatives:
        sections.append(
            "**Top alternatives** (the programs weighed, best first; those answering with the kind of thing the "
            "question asks for, such as a year for \"when\", come first)\n\n"
            + alternatives_markdown(alternatives, readings=readings)
        )
    skipped = getattr(result, "skipped", ()) or ()
    if skipped:
        sections.append("**Readings skipped** (they read the question as well or better, but were passed over)\n\n"
                        + skipped_markdown(skipped))
    extra = []
    steps, cands = getattr(result, "steps", None), getattr(result, "candidates", None)
    if steps:
        extra.append(f"{steps} search step{'s' if steps != 1 else ''}")
    if cands:
        extra.append(f"{cands} candidate programs scored")
    exemplars = getattr(result, "exemplars", ()) or ()
    if exemplars:
        extra.append(f"{len(exemplars)} corpus exemplars")
    timing = timings_markdown(getattr(result, "timings", None), bool(getattr(result, "cached", False)))
    total = timings_dict(getattr(result, "timings", None)).get("total", 0.0)
    if waited_s is not None and waited_s > total + 1.0:
        timing = f"**{duration(waited_s)}** waited, loading the models included; reasoning: " + timing
    sections.append("**Time**\n\n" + timing + (f" ({', '.join(extra)})" if extra else ""))
    if getattr(result, "program", None) is not None:
        sections.append("**Corpus**\n\n" + corpus_text(getattr(result, "corpus_questions", 0),
                                                      getattr(result, "corpus_readings", 0)))
    return "\n\n".join(sections)


def lead_markdown(lead: str) -> str:
    """The lead sentence as the reply's first paragraph (its labels are data, not markup)."""
    return f'<p class="kgs-lead">{html.escape(lead)}</p>\n\n' if lead else ""


def lead_texts(answers: Sequence, count: int | None, n: int = 3) -> tuple[list[str], int]:
    """(display texts of the first answers, how many there are) for the lead sentence."""
    if count is not None:
        return [f"{count:,}"], 1
    answers = list(answers or ())
    return [value_text(a) for a in answers[:n]], len(answers)


def execution_markdown(execution, lead: str = "") -> str:
    """The reply for a program the user ran (an `engine.programs.executor.Execution`)."""
    text = lead_markdown(lead) + answers_markdown(execution.answers, execution.count)
    if getattr(execution, "truncated", False):
        text += "\n\n_The result was truncated at the answer limit._"
    return text


def execution_details(execution) -> str:
    sections = [
        "**Program** (s-expression)\n\n" + fence(pretty_program(execution.program), "lisp"),
        "**SPARQL**\n\n" + fence(execution.sparql, "sparql"),
    ]
    elapsed = getattr(execution, "elapsed_ms", None)
    if elapsed is not None:
        timing = duration(elapsed / 1000)
        if getattr(execution, "cached", False):
            timing += " (from the execution cache)"
        sections.append("**Time**\n\n" + timing)
    return "\n\n".join(sections)


# ------------------------------------------------------------------ CSV
def answers_csv(answers: Sequence, count: int | None = None) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    if count is not None:
        writer.writerow(["count"])
        writer.writerow([count])
        return out.getvalue()
    writer.writerow(["label", "iri"])
    for a in answers or ():
        writer.writerow([_csv_cell(a.label), a.iri or ""])
    return out.getvalue()


def _csv_cell(value: str) -> str:
    """Neutralise spreadsheet formulas in KG labels."""
    value = str(value)
    return "'" + value if value[:1] in ("=", "+", "-", "@") and not _is_number(value) else value


def _is_number(value: str) -> bool:
    try:
        float(value)
        return True
    except ValueError:
        return False


# ------------------------------------------------------------------ schema and corpus
CLASS_COLUMNS = ["name", "label", "kind", "members", "description"]
# The relation lexicon (engine.bootstrap.lexicon): the everyday words for each end, comma-separated.
OBJECT_WORDS, SUBJECT_WORDS = "words for its object", "words for its subject"
# "yes" where the relation is read both ways (kg_adapters.both_ways: each pair stored once, as "borders" often is)
BOTH_WAYS = "both ways"
RELATION_COLUMNS = ["name", "label", "domain", "range", "triples", "description", OBJECT_WORDS, SUBJECT_WORDS,
                    BOTH_WAYS]
CORPUS_COLUMNS = ["question", "program", "source"]


def class_rows(schema) -> list[list]:
    classes = sorted(getattr(schema, "classes", ()) or (), key=lambda c: (-getattr(c, "size", 0), c.name))
    return [
        [c.name, c.label, getattr(c, "kind", ""), getattr(c, "size", 0), getattr(c, "description", "")]
        for c in classes
    ]


# The schema columns a user may edit; names are what programs use.
EDITABLE = ("label", "description", OBJECT_WORDS, SUBJECT_WORDS, BOTH_WAYS)


def schema_edits(schema, class_table: list[list], relation_table: list[list]) -> list:
    """SchemaEdits for the rows whose label, description or (for a relation) words differ from the schema's."""
    from kg_adapters.schema import SchemaEdit

    edits = []
    for rows, columns, lookup in ((class_table, CLASS_COLUMNS, schema.class_),
                                  (relation_table, RELATION_COLUMNS, schema.relation)):
        at = {name: columns.index(name) for name in ("name", *EDITABLE) if name in columns}
        for row in rows:
            item = lookup(str(row[at["name"]])) if len(row) == len(columns) else None
            if item is None:
                continue
            cell = {c: str(row[at[c]] if row[at[c]] is not None else "") for c in EDITABLE if c in at}
            label, description = cell["label"], cell["description"]
            changed = {}
            if label != item.label:
                changed["label"] = label
            if description != (item.description or ""):
                changed["description"] = description
            for column, field in ((OBJECT_WORDS, "words"), (SUBJECT_WORDS, "reverse_words")):
                if column in cell and word_list(cell[column]) != tuple(getattr(item, field)):
                    changed[field] = word_list(cell[column])
            if BOTH_WAYS in cell and is_yes(cell[BOTH_WAYS]) != item.both_ways:
                changed["both_ways"] = is_yes(cell[BOTH_WAYS])
            if changed:
                edits.append(SchemaEdit(item.name, **changed))
    return edits


def word_list(cell: str) -> tuple[str, ...]:
    """A table cell of comma-separated words, as the schema holds them."""
    from kg_adapters.schema import clean_words

    return clean_words(cell.split(","))


def is_yes(cell: str) -> bool:
    """A yes/no table cell as a user types it: "yes", "y", "true", "x" or "1" (any case) say yes; anything else no."""
    return cell.strip().lower() in ("yes", "y", "true", "x", "1")


def relation_rows(schema) -> list[list]:
    relations = sorted(getattr(schema, "relations", ()) or (), key=lambda r: r.name)
    return [
        [r.name, r.label, " | ".join(r.domain) or "?", " | ".join(r.range) or "?", getattr(r, "count", 0),
         getattr(r, "description", ""), ", ".join(getattr(r, "words", ())), ", ".join(getattr(r, "reverse_words", ())),
         "yes" if getattr(r, "both_ways", False) else ""]
        for r in relations
    ]


def schema_summary(name: str, schema, has_corpus: bool, corpus_size: int = 0) -> str:
    classes = len(getattr(schema, "classes", ()) or ())
    relations = len(getattr(schema, "relations", ()) or ())
    origin = "induced from the data" if getattr(schema, "induced", False) else "read from the graph"
    corpus = (
        f"an exploration corpus of {corpus_size:,} questions" if has_corpus
        else "no exploration corpus yet (answers are zero-shot until you bootstrap it)"
    )
    return f"**{md_escape(name)}** — {classes} classes, {relations} relations (schema {origin}); {corpus}."


def corpus_rows(records: Iterable) -> list[list]:
    return [[r.question, r.program, getattr(r, "source", "")] for r in records]


# ------------------------------------------------------------------ bootstrap progress
PHASES = {
    "explore": "Exploring the graph (random walks)",
    "naming": "Naming the classes the data leaves unnamed",
    "loading": "Loading the language model",
    "questions": "Writing questions for the explored programs",
    "done": "Done",
    "stopped": "Cancelled",
}
# What the question phase is doing right now (engine.bootstrap.qgen reports it): the title says it.
STAGES = {
    "writing questions": "Writing questions for the explored programs",
    "checking them": "Checking the written questions (inverse consistency)",
}


def progress_html(progress, running: bool = True, elapsed_s: float | None = None, since_s: float = 0.0,
                  cancelling: bool = False, paused: bool = False) -> str:
    """A progress bar with programs done, rate and ETA, for an `engine.bootstrap.Progress`.

    `elapsed_s`: the whole job's time so far (Progress.elapsed_s restarts with each phase). `since_s`: how long
    ago the progress was reported, so the ETA counts down between reports instead of standing still.
    `cancelling`: Cancel was pressed and the job finishes its batch; no ETA then, it will not run to the end.
    `paused`: the bootstrap waits while people chat (engine.lm.compute); no ETA then, it would only climb.
    """
    if progress is None:
        facts = f"{duration(elapsed_s)} elapsed" if elapsed_s else ""
        return bar(0.0, "Starting…" if running else "Not started.", facts)
    done, total = int(getattr(progress, "done", 0)), int(getattr(progress, "total", 0))
    phase = getattr(progress, "phase", "")
    share = 1.0 if phase == "done" else (done / total if total else 0.0)
    message = getattr(progress, "message", "") or ""
    title = STAGES.get(message) or PHASES.get(phase, phase.capitalize() or "Working")
    if message in STAGES or (phase in ("loading", "naming", "stopped") and message):
        message = ""  # already the title
    if cancelling and running:
        title, message = "Cancelling: finishing the programs under way…", ""
    elif paused and running:
        title, message = "Paused while questions are answered: chat goes first", ""
    rate = getattr(progress, "rate_per_hour", 0.0) or 0.0
    eta = getattr(progress, "eta_s", None)
    facts = [f"{done:,} / {total:,} programs"]
    if phase in ("questions", "stopped", "done") and rate:
        facts.append(f"{rate:,.0f} per hour")
    if phase in ("explore", "questions") and running and not cancelling and not paused:
        facts.append(f"ETA {duration(max(0.0, eta - since_s))}" if eta is not None else "ETA estimating…")
    elapsed = elapsed_s if elapsed_s is not None else getattr(progress, "elapsed_s", None)
    if elapsed is not None:
        facts.append(f"{duration(elapsed)} elapsed")
    return bar(share, title, " · ".join(facts) + (f" — {html.escape(message)}" if message else ""))


def result_html(result, elapsed_s: float | None = None, cancelled: bool = False) -> str:
    """The bar for a finished bootstrap (an `engine.bootstrap.BootstrapResult`)."""
    programs, records = int(getattr(result, "programs", 0)), int(getattr(result, "records", 0))
    complete = bool(getattr(result, "complete", False))
    facts = f"{records:,} / {programs:,} programs have a question"
    if elapsed_s is not None:
        facts += f" · {duration(elapsed_s)} elapsed"
    share = 1.0 if complete else (records / programs if programs else 0.0)
    stopped = "Cancelled" if cancelled else "Stopped"
    return bar(share, "Done" if complete else f"{stopped} (press Start / resume to go on)", facts)


def bar(share: float, title: str, facts: str) -> str:
    pct = max(0.0, min(1.0, share)) * 100
    return (
        '<div class="kgs-progress">'
        f'<div class="kgs-progress-title">{html.escape(title)}</div>'
        f'<div class="kgs-progress-track"><div class="kgs-progress-fill" style="width:{pct:.1f}%"></div></div>'
        f'<div class="kgs-progress-facts">{facts} <span class="kgs-progress-pct">({pct:.0f}%)</span></div>'
        "</div>"
    )


def error_text(err: BaseException) -> str:
    """A user-facing message for an error: adapter and program errors are written for users."""
    from kg_adapters.base import KGError

    if isinstance(err, (KGError, ProgramError)):
        return str(err)
    try:
        from engine.bootstrap.corpus import CorpusError

        if isinstance(err, CorpusError):
            return str(err)
    except ImportError:  # pragma: no cover
        pass
    text = str(err).strip().splitlines()[0] if str(err).strip() else ""
    return f"Something went wrong ({type(err).__name__}{': ' + text if text else ''})."
