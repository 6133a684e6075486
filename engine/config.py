"""Every setting in one place, with the BYOKG paper's values as defaults.

The CLI turns each field into a `--flag`, the UI exposes the ones a user tunes, and
every benchmark writes `asdict(config)` next to its numbers.
"""

from __future__ import annotations

import argparse
import dataclasses
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Collection


def _default_cache_dir() -> str:
    return str(Path.home() / ".cache" / "kgscout")


@dataclass(frozen=True)
class ScoutConfig:
    # --- storage and execution
    cache_dir: str = field(default_factory=_default_cache_dir, metadata={"help": "stores, schemas, models, caches"})
    max_upload_mb: float = field(default=200.0, metadata={"help": "largest KG file accepted, also after "
                                                          "decompressing a .gz"})
    max_predicates: int = field(default=5000, metadata={"help": "distinct predicates a KG file may have"})
    # N-Triples, Turtle and RDF/XML go through pyoxigraph's bulk loader (no Python object per triple); past
    # this many triples a KG belongs behind a SPARQL endpoint, and the refusal says so (issue 28).
    max_triples: int = field(default=10_000_000, metadata={"help": "triples a KG file may have; larger KGs "
                                                           "belong behind a SPARQL endpoint"})
    query_timeout_s: float = field(default=20.0, metadata={"help": "time limit of every SPARQL query, on the "
                                                            "embedded store and on endpoints"})
    endpoint_retries: int = field(default=2, metadata={"help": "retries for an unreachable endpoint"})
    # Linking reads every label of a KG into a SQLite index on disk once (engine.answer.labels). Behind an endpoint
    # of more triples than this, it asks the endpoint per question instead, with its text search where it has one
    # (engine.answer.remote_labels): never all labels over HTTP.
    endpoint_read_labels_max_triples: int = field(default=2_000_000, metadata={
        "help": "endpoints of more triples are linked per question, never read whole"})
    endpoint_labels_per_word: int = field(default=100, metadata={
        "help": "labels read from a large endpoint per word of a question, the shortest first"})
    endpoint_label_timeout_s: float = field(default=10.0, metadata={
        "help": "time limit of each label lookup on a large endpoint"})
    max_response_mb: float = field(default=256.0, metadata={"help": "largest answer read from an endpoint"})
    exec_cache_mb: int = field(default=512, metadata={"help": "size cap of the execution cache"})
    max_answers: int = field(default=100_000, metadata={"help": "rows kept from one query"})
    # A URL typed into the app is opened by the server, so by default the app refuses endpoints on its own
    # machine or network (kg_adapters.url_guard). The command line always may: it runs as its user.
    allow_private_endpoints: bool = field(default=False, metadata={
        "help": "let the app open SPARQL endpoints on loopback, private, link-local or cloud metadata addresses"})
    # Disk in a public app: every distinct upload builds a store, so each browser session has a quota and stores
    # nobody has used for a while are removed (kg_adapters.store_cache). App only: the command line runs as its user.
    session_quota_mb: float = field(default=1000.0, metadata={
        "help": "disk one browser session's uploads and the stores built for them may take"})
    store_idle_hours: float = field(default=24.0, metadata={
        "help": "stores of uploaded KGs that no session has used for this long are removed (0: never)"})
    # The schema diagram of the "Bring your own KG" tab draws this many relations, most triples first; the
    # others are reached through its filter (a 400-relation schema drawn whole is a wall of lines).
    schema_diagram_relations: int = field(default=30, metadata={
        "help": "relations the app's schema diagram draws, most triples first (app only)"})
    # --- models
    model: str = field(default="qwen2.5-coder-0.5b", metadata={"help": "named model, local dir or hub id"})
    embedder: str = field(default="all-MiniLM-L6-v2", metadata={"help": "sentence embedding model"})
    # --- exploration and question generation (method.md step 1-2)
    # The app's default for an upload and the budget of every bootstrap in bench.kgs (issue 27: the benchmark
    # measures what a user gets). At ~3,300 programs per hour on 2 cores (qgen_batch below) 150 programs are a
    # bootstrap of about three minutes; the paper explores 10K, and found 500 with inverse consistency as good.
    budget: int = field(default=150, metadata={"help": "programs to explore"})
    seed: int = field(default=0, metadata={"help": "random seed of exploration"})
    max_relations: int = field(default=4, metadata={"help": "relations per program, explored or answered"})
    per_pattern: int = field(default=5, metadata={"help": "programs kept per pattern"})
    join_back_p: float = field(default=0.5, metadata={"help": "chance to join back to a node"})
    new_ops_share: float = field(default=0.25, metadata={"help": "share of explored functions that are NOT, IN, "
                                                          "SUM/AVG, choices and count or entity comparisons"})
    # Issue 28: a class of millions is not listed whole to start walks from; the first members the store gives are.
    explore_sample_above: int = field(default=100_000, metadata={
        "help": "classes of more members are sampled when exploring (the first 20,000 the store lists)"})
    # Question generation: 3 beams and one step of least-to-most context wrote MoviesKG questions at 415 per
    # hour against 118 with the paper's 10 beams and every step (same 48 programs, 1 core each; BENCHMARKS.md
    # "Bootstrap throughput (metaqa, budget 48)"). The round trip held (68.8% same answers both); by eye 30 of
    # 40 questions read right against 38 (bench/qgen_sample.md): two-relation programs written in one pass drop a step.
    # On the same 24 WorldCup programs the fast corpus steered the reasoner as well (F1 76.0 against 74.1).
    # The relation lexicon (engine.bootstrap.lexicon): everyday words for each relation's ends, once per KG. On
    # since its words must have one owner (`owners.distinct`): the 347 sampled dev questions that hold one of its
    # words kept their F1 on every KG (BENCHMARKS.md, session 21). Unfiltered, it had taken MetaQA (99 of 200
    # answered) from 92.0 to 83.0 tune and 85.2 to 80.0 check (session 19).
    lexicon: bool = field(default=True, metadata={"help": "ask the LLM for everyday words for each relation"})
    qgen_beams: int = field(default=3, metadata={"help": "beam candidates per question (the paper: 10)"})
    # Batches of 32 programs: 3,325 programs per hour for the full MoviesKG bootstrap (budget 96) against 2,986 at
    # 16 and 2,347 at 8 (budget 48), 3,049 on WorldCup (budget 96), on 2 cores with native bf16 (BENCHMARKS.md,
    # session 9). A batch is also what a kill loses and how often a growing corpus is appended to (~35 s here).
    qgen_batch: int = field(default=32, metadata={"help": "programs whose questions are generated together"})
    qgen_context: int = field(default=1, metadata={"help": "sub-program questions shown as least-to-most "
                                                     "context (-1: all; programs of 1-2 relations: none)"})
    # Readable questions (engine.bootstrap.faithful): a fluent reading in the prompt, and a beam candidate kept only
    # where it says every step of its program and has a main verb, else the reading put as a question. With 2 beams
    # and no context: by eye 210 of 240 sampled questions grammatical and faithful, at least 34 of 40 on every dev KG,
    # against 123 (bench/qgen_eye_<kg>_fast3.md); 8,838 programs an hour on WorldCup against 5,205 (2026-11-27).
    # Off: its budget-150 corpora cost check F1 on 7 of 8 dev KG-and-seed pairs, 0.2-2.0 points on the large check
    # halves, one to three of university's 11 (BENCHMARKS.md, "Readable questions at v40 ..."); at 3 beams and
    # context 1 on 4 of 6 (university and WorldCup at both seeds; BENCHMARKS.md, "... default speed settings ...").
    # At reasoner v78 (2 beams, no context) university and PQL hold, MetaQA +1.1 and PQL-3H +3.1 check, WorldCup -1.0
    # (one of 99); at exploration seed 1 WorldCup +1.7, MetaQA +0.7, university -13.6 (one or two of 11): still off
    # by issue 27's rule; by eye 34-37 of 40 on the five bootstrapped KGs (BENCHMARKS.md, "Readable questions at
    # reasoner v78 ..."). At v86, university over five seeds: check 85.5 against 90.0 (off by the rule), tune 98.9
    # against 97.8, and 94.7 against 91.3 on 45 university questions of our own, higher at every seed
    # (BENCHMARKS.md, "Session 54").
    qgen_readable: bool = field(default=False, metadata={"help": "fluent readings, and keep only questions that say "
                                                        "every step (else the reading as a question)"})
    # --- reasoning (method.md step 3)
    # Off only to measure reasoning itself (bench.load): a load test that repeats questions would time the memo.
    answer_memo: bool = field(default=True, metadata={"help": "keep whole answers on disk for repeated questions"})
    exemplars: int = field(default=5, metadata={"help": "retrieved exemplars per question"})
    prune_k: int = field(default=10, metadata={"help": "candidates kept per step by similarity"})
    beam: int = field(default=4, metadata={"help": "candidates kept per step by the LLM"})
    max_steps: int = field(default=5, metadata={"help": "search steps per question"})
    # The paper weighs the two scores alike (0.5). Our forward scorer is a 0.5B model prompted with generated questions,
    # and leans to the programs its exemplars resemble: a step short of a chain ("how many grandchildren" counting the
    # children) or one more. At 0.4, replayed on every sampled dev question (`python -m bench.replay ROWS --alpha`, exact:
    # which finalists are scored does not depend on it), no check F1 moves and PathQuestion-3H tune goes 85.9 -> 87.9;
    # the blind probes with a budget-150 corpus: lineage 71.3 -> 73.3, dynasty 81.2 -> 85.7, royals 69.9 -> 71.7,
    # hospital 92.5 -> 95.0, consultancy and atlas the same; at 0.35 MetaQA check falls 92.0 -> 90.3 (BENCHMARKS.md,
    # "Session 68"). With no corpus it is 0 (engine.answer.rank).
    ic_alpha: float = field(default=0.4, metadata={"help": "weight of the forward score in re-ranking"})
    repeat_penalty: float = field(default=0.7, metadata={"help": "p: log(p) per repeated relation, per direction"})
    inverse_consistency: bool = field(default=True, metadata={"help": "re-rank finalists"})
    prune: bool = field(default=True, metadata={"help": "prune candidates by similarity"})

    @property
    def max_upload_bytes(self) -> int:
        return int(self.max_upload_mb * 1024 * 1024)

    @property
    def session_quota_bytes(self) -> int:
        return int(self.session_quota_mb * 1024 * 1024)

    def replace(self, **changes) -> "ScoutConfig":
        return dataclasses.replace(self, **changes)


# Fields that only the app reads: the command line leaves them out of its flags.
APP_ONLY_FIELDS = ("allow_private_endpoints", "session_quota_mb", "store_idle_hours")

# The fields that change how a question is answered, not what is explored or stored: what a benchmark of the
# reasoner may vary on corpora built once.
REASONING_FIELDS = ("exemplars", "prune_k", "beam", "max_steps", "ic_alpha", "repeat_penalty",
                    "inverse_consistency", "prune", "lexicon")


def add_config_flags(parser: argparse.ArgumentParser | argparse._ArgumentGroup,
                     only: Collection[str] | None = None, skip: Collection[str] = ()) -> None:
    """One `--flag` per config field (or per field in `only`, less those in `skip`), typed from its default."""
    for f in fields(ScoutConfig):
        if (only is not None and f.name not in only) or f.name in skip:
            continue
        default = f.default if f.default is not dataclasses.MISSING else f.default_factory()
        flag = "--" + f.name.replace("_", "-")
        help_text = f"{f.metadata.get('help', '')} (default: {default})"
        if isinstance(default, bool):
            parser.add_argument(flag, dest=f.name, action=argparse.BooleanOptionalAction, default=None, help=help_text)
        else:
            parser.add_argument(flag, dest=f.name, type=type(default), default=None, help=help_text)


def given_settings(args: argparse.Namespace, only: Collection[str] | None = None) -> dict:
    """The config fields (or those in `only`) set by a flag, by name."""
    return {f.name: getattr(args, f.name) for f in fields(ScoutConfig)
            if getattr(args, f.name, None) is not None and (only is None or f.name in only)}


def config_from_args(args: argparse.Namespace) -> ScoutConfig:
    return ScoutConfig(**given_settings(args))
