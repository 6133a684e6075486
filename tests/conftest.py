"""Shared fixtures: small real KGs built in-process, no network."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.config import ScoutConfig
from engine.programs.kg import KnowledgeGraph

FIXTURES = Path(__file__).parent / "fixtures"


def read_table(name: str) -> list[tuple[str, str]]:
    """Rows of a tab-separated fixture table; '#' lines are comments."""
    rows = []
    for line in (FIXTURES / name).read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip("\n"):
            continue
        program, expected = line.split("\t")
        rows.append((program, expected))
    return rows


# ---------------------------------------------------------------- operator tables
OPS = FIXTURES / "ops"
OPS_KGS = {"geo": FIXTURES / "tiny_geo.ttl", "films": FIXTURES / "tiny_films.psv"}  # a row's first column


def read_ops_rows() -> list[tuple[str, str, str, str]]:
    """(table, kg, program, expected) for every row of tests/fixtures/ops/*.tsv; '#' lines are comments."""
    rows = []
    for path in sorted(OPS.glob("*.tsv")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("#") or not line.strip():
                continue
            kg, program, expected = line.split("\t")
            assert kg in OPS_KGS, f"{path.name}: unknown kg {kg!r}"
            rows.append((path.stem, kg, program, expected))
    return rows


def answers_text(result) -> str:
    """An execution as the tables write it: "count N", "yes"/"no", "number X", "(none)", or sorted labels."""
    if result.count is not None:
        return f"count {result.count}"
    if result.boolean is not None:
        return "yes" if result.boolean else "no"
    if result.number is not None:
        return f"number {result.answers[0].label}"
    if not result.answers:
        return "(none)"
    return " | ".join(sorted(a.label for a in result.answers))


def zero_shot_reasoner(kg: KnowledgeGraph, folder: Path):
    """A reasoner with no corpus over a test KG and the real 0.5B model, as a KG's first question meets it."""
    from engine.answer.linker import LabelIndex
    from engine.answer.reasoner import Reasoner
    from engine.lm.embedder import Embedder
    from engine.lm.llm import LLM

    embedder = Embedder.load()
    return Reasoner(kg, [], LLM.load("qwen2.5-coder-0.5b"), embedder, LabelIndex.build(kg.store, kg.schema, folder,
                    embedder), ScoutConfig(cache_dir=str(folder / "cache")))


def worded_kg(folder: Path, name: str, text: str, lexicon: dict) -> KnowledgeGraph:
    """A test KG written to `folder`/`name` and opened with a relation lexicon ({relation: RelationWords}), as
    engine.bootstrap.lexicon would give it (WordNet's kinds give such words); the caller closes it."""
    (folder / name).write_text(text)
    kg = KnowledgeGraph.open(str(folder / name), ScoutConfig(cache_dir=str(folder / "cache")))
    kg.adopt_lexicon(lexicon)
    return kg


def zero_shot_answer(kg: KnowledgeGraph, folder: Path, question: str):
    """The answer a zero-shot reasoner over a test KG gives (`zero_shot_reasoner`), the reasoner closed after it."""
    reasoner = zero_shot_reasoner(kg, folder)
    try:
        return reasoner.answer(question)
    finally:
        reasoner.close()


@pytest.fixture
def config(tmp_path: Path) -> ScoutConfig:
    return ScoutConfig(cache_dir=str(tmp_path / "cache"))


@pytest.fixture
def small_kg(tmp_path: Path, config: ScoutConfig):
    """Opens a KG written inline in a test, `small_kg("clubs.psv", text)`; every one is closed after the test."""
    opened: list[KnowledgeGraph] = []

    def open_kg(name: str, text: str) -> KnowledgeGraph:
        path = tmp_path / name
        path.write_text(text)
        opened.append(KnowledgeGraph.open(str(path), config))
        return opened[-1]

    yield open_kg
    for kg in opened:
        kg.close()


@pytest.fixture
def geo(config: ScoutConfig) -> KnowledgeGraph:
    """The tiny geography KG (declared classes, numeric relations), as `films` is for films."""
    kg = KnowledgeGraph.open(str(OPS_KGS["geo"]), config)
    yield kg
    kg.close()


# Nothing in a bare film KG (tiny_films, MoviesKG) says its subjects are movies: induction gives them a
# stand-in name, and the app asks the language model for a noun (engine.bootstrap.namer, tested in
# test_namer.py). Tests about everything else name the class themselves, as a user's noun, so that they do not
# hang on the model's wording.
FILM_NAMES = {"thing_with_directed_by": "movie"}


def named(kg: KnowledgeGraph) -> KnowledgeGraph:
    """The KG with its film class named "movie" (a KG without the stand-in is returned as it is)."""
    kg.adopt_names(FILM_NAMES)
    return kg


@pytest.fixture
def films(config: ScoutConfig) -> KnowledgeGraph:
    """The tiny bare-triples film KG, loaded into a real persisted pyoxigraph store."""
    kg = named(KnowledgeGraph.open(str(FIXTURES / "tiny_films.psv"), config))
    yield kg
    kg.close()


# ---------------------------------------------------------------- Virtuoso
@pytest.fixture(scope="session")
def virtuoso(tmp_path_factory: pytest.TempPathFactory):
    """A private Virtuoso server (own database, loopback ports), installed via apt-get if missing.

    Yields a `tests.virtuoso.VirtuosoServer` with `.sparql_url` and
    `.load(path, graph_iri)`. Skips only when Virtuoso cannot be installed at all.
    The server is stopped at the end of the session, and the teardown fails if it
    did not exit.
    """
    from tests.virtuoso import VirtuosoServer, VirtuosoUnavailable, ensure_installed

    try:
        binaries = ensure_installed()
    except VirtuosoUnavailable as err:
        pytest.skip(f"Virtuoso is not available: {err}")
    server = VirtuosoServer(tmp_path_factory.mktemp("virtuoso"), binaries).start()
    try:
        yield server
    finally:
        server.stop()
        assert not server.running, f"virtuoso-t (pid {server.process.pid}) did not exit"
