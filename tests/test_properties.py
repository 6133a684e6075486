"""Property-based tests (Hypothesis) of what a public app takes from anyone: programs typed in the editor,
labels and IRIs read from a KG, questions, and triples files.

Each property says what must hold for every input, not for a few chosen ones: a program parses, prints and
parses back to the same tree, or is refused with a ProgramError; it compiles to SPARQL that pyoxigraph parses,
whose shape no label or IRI can change; a question gets a result or a message; a file is loaded whole or
refused with a LoadError, and a refused one leaves no store behind. Example counts keep the module under a
minute on two cores; the seed is fixed (`derandomize`), so a failure reproduces.
"""

from __future__ import annotations

import gzip
import tempfile
from pathlib import Path

import pyoxigraph as ox
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from engine.answer.followup import Turn
from engine.answer.reasoner import MAX_QUESTION_CHARS
from engine.config import ScoutConfig
from engine.programs import sexpr
from engine.programs.kg import KnowledgeGraph
from engine.programs.sexpr import (
    Aggregate,
    And,
    Chain,
    Class,
    Compare,
    Count,
    Degree,
    Entity,
    In,
    Join,
    Literal,
    Not,
    Or,
    ProgramError,
    Relation,
    Reverse,
    Superlative,
    parse,
    pretty,
    to_text,
    transform,
)
from engine.programs.terms import iri, string
from engine.programs.resolve import label_lookup_sparql
from engine.programs.to_sparql import to_sparql
from engine.programs.validate import validate
from engine.scout import Scout
from kg_adapters.base import RDFS_LABEL, LoadError
from kg_adapters.loader import parse_file
from kg_adapters.oxigraph_store import OxigraphStore
from tests.conftest import FILM_NAMES

FIXTURES = Path(__file__).parent / "fixtures"
QUICK = settings(max_examples=300, deadline=None, derandomize=True,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


# ------------------------------------------------------------------ programs as trees
# Names as the editor may hold them: schema-like words, prefixed names, and IRIs with odd characters.
NAME = st.from_regex(r"[A-Za-z_][A-Za-z0-9_.-]{0,12}", fullmatch=True).filter(lambda s: s.upper() not in {
    "R", "JOIN", "AND", "OR", "NOT", "COUNT", "IN", "SUM", "AVG", "ARGMAX", "ARGMIN", "LT", "LE", "GT", "GE"})
PREFIXED = st.from_regex(r"[a-z]{1,5}:[A-Za-z0-9_/#-]{1,12}", fullmatch=True)
IRI_BODY = st.text(st.characters(blacklist_characters='<>"{}|^`\\', blacklist_categories=("Cs", "Zs", "Cc")),
                   min_size=1, max_size=20)
LABEL = st.text(max_size=30)  # anything a KG may hold: quotes, backslashes, newlines, RTL text, NUL


@st.composite
def literals(draw) -> Literal:
    kind = draw(st.sampled_from(["integer", "decimal", "date"]))
    if kind == "integer":
        return Literal(str(draw(st.integers(-10**12, 10**12))), "integer")
    if kind == "decimal":
        whole, frac = draw(st.integers(0, 10**6)), draw(st.integers(0, 999))
        return Literal(f"{whole}.{frac}", "decimal")
    day = draw(st.dates())
    return Literal(day.isoformat(), "date") if len(day.isoformat()) == 10 else Literal("2000-01-01", "date")


ENTITIES = st.one_of(
    st.builds(Entity, LABEL),
    st.builds(lambda body: Entity("urn:x:" + body, is_iri=True), IRI_BODY),
)
RELATIONS = st.builds(Relation, st.one_of(NAME, PREFIXED))
REL_EXPRS = st.one_of(RELATIONS, st.builds(Reverse, RELATIONS))
PATHS = st.recursive(REL_EXPRS, lambda inner: st.builds(Chain, inner, inner), max_leaves=3)


def _set_exprs(leaves: st.SearchStrategy) -> st.SearchStrategy:
    return st.recursive(leaves, lambda inner: st.one_of(
        st.builds(Join, REL_EXPRS, inner),
        st.builds(And, inner, inner),
        st.builds(Or, inner, inner),
        st.builds(Not, inner),
        st.builds(Superlative, st.sampled_from(sexpr.SUPERLATIVES), inner,
                  st.one_of(PATHS, st.builds(Degree, REL_EXPRS, st.none() | inner))),
        st.builds(Compare, st.sampled_from(sexpr.COMPARATIVES), PATHS, st.one_of(literals(), ENTITIES)),
    ), max_leaves=8)


SET_EXPRS = _set_exprs(st.one_of(ENTITIES, literals(), st.builds(Class, NAME)))
PROGRAMS = st.one_of(
    SET_EXPRS,
    st.builds(Count, SET_EXPRS),
    st.builds(In, st.one_of(ENTITIES, literals()), SET_EXPRS),
    st.builds(Aggregate, st.sampled_from(sexpr.AGGREGATES), SET_EXPRS, PATHS),
)


@QUICK
@given(PROGRAMS)
def test_every_program_prints_and_parses_back_to_itself(program) -> None:
    assert parse(to_text(program)) == program
    assert parse(pretty(program)) == program


# ------------------------------------------------------------------ programs as text, mutated
def _mutate(text: str, data: st.DataObject) -> str:
    """A few edits a user's typing (or an attacker) could make: cut, insert, duplicate."""
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(text)))
        j = data.draw(st.integers(i, min(len(text), i + 8)))
        edit = data.draw(st.sampled_from(["cut", "insert", "duplicate"]))
        if edit == "cut":
            text = text[:i] + text[j:]
        elif edit == "insert":
            text = text[:i] + data.draw(st.text(alphabet=st.sampled_from('()"<>\\ \n\tx:1.-#\u202e\x00é'), max_size=4)
                                        | st.text(max_size=4)) + text[i:]
        else:
            text = text[:j] + text[i:j] + text[j:]
    return text


def _parses_or_refuses(text: str) -> None:
    """Either a ProgramError (with a message), or a program that prints and parses back to itself."""
    try:
        program = parse(text)
    except ProgramError as err:
        assert err.message
        return
    assert parse(to_text(program)) == program


@QUICK
@given(PROGRAMS, st.data())
def test_a_mutated_program_parses_back_or_is_refused_with_a_message(program, data) -> None:
    _parses_or_refuses(_mutate(to_text(program), data))


@QUICK
@given(st.text(alphabet=st.sampled_from('()"<> \\JOINANDRCOUNTargmaxlt1.x:é\n'), max_size=60) | st.text(max_size=60))
def test_any_text_parses_back_or_is_refused_with_a_message(text: str) -> None:
    _parses_or_refuses(text)


@pytest.mark.parametrize("depth", [150, 5000])
def test_deep_nesting_is_refused_with_a_message(depth: int) -> None:
    text = "(NOT " * depth + '"x"' + ")" * depth
    with pytest.raises(ProgramError, match="nests deeper"):
        parse(text)


# ------------------------------------------------------------------ compiled SPARQL
@pytest.fixture(scope="module")
def geo(tmp_path_factory) -> KnowledgeGraph:
    """The tiny geography KG: declared classes, entity-valued and numeric relations."""
    kg = KnowledgeGraph.open(str(FIXTURES / "tiny_geo.ttl"), ScoutConfig(cache_dir=str(tmp_path_factory.mktemp("geo"))))
    yield kg
    kg.close()


def _stores_take(address: str) -> bool:
    """Whether pyoxigraph takes it as an IRI (RFC 3987); iri() is laxer, as endpoints are, and a query with an
    IRI pyoxigraph refuses fails whole, with a QueryError: never a query of another shape."""
    try:
        ox.NamedNode(address)
    except ValueError:
        return False
    return True


# IRIs a KG may hold, with '#', '%', '(', quotes-like letters, RTL text, emoji
HOSTILE_IRIS = st.builds(lambda body: "urn:h:" + body, IRI_BODY).filter(_stores_take)


def schema_programs(kg: KnowledgeGraph) -> st.SearchStrategy:
    """Programs over the KG's own names, with resolved entities at hostile IRIs; many are ill-typed on purpose."""
    relations = st.builds(Relation, st.sampled_from([r.name for r in kg.schema.relations]))
    rel_exprs = st.one_of(relations, st.builds(Reverse, relations))
    paths = st.one_of(rel_exprs, st.builds(Chain, rel_exprs, rel_exprs))
    entities = st.builds(lambda label, address: Entity(label, iri=address), LABEL, HOSTILE_IRIS)
    leaves = st.one_of(entities, st.builds(Class, st.sampled_from([c.name for c in kg.schema.classes])))
    sets = st.recursive(leaves, lambda inner: st.one_of(
        st.builds(Join, rel_exprs, inner),
        st.builds(And, inner, inner),
        st.builds(And, inner, st.builds(Not, inner)),
        st.builds(Or, inner, inner),
        st.builds(Superlative, st.sampled_from(sexpr.SUPERLATIVES), inner,
                  st.one_of(paths, st.builds(Degree, rel_exprs, st.none() | inner))),
        st.builds(Compare, st.sampled_from(sexpr.COMPARATIVES), paths, st.one_of(literals(), entities)),
    ), max_leaves=6)
    return st.one_of(sets, st.builds(Count, sets), st.builds(In, entities, sets),
                     st.builds(Aggregate, st.sampled_from(sexpr.AGGREGATES), sets, paths))


def _placeholders(program):
    """The program with each entity IRI replaced by a plain one, in the same sort order (the compiler sorts
    the program's own entities), and the map from each hostile term to its plain one."""
    hostile = sorted({e.iri for e in sexpr.entities(program)})
    plain = {address: f"urn:p:{i:04d}" for i, address in enumerate(hostile)}
    tame = transform(program, lambda n: Entity(n.ref, iri=plain[n.iri]) if isinstance(n, Entity) else n)
    return tame, {iri(a): iri(b) for a, b in plain.items()}


@settings(QUICK, max_examples=250)
@given(data=st.data())
def test_every_valid_program_compiles_to_sparql_that_pyoxigraph_parses(geo, data) -> None:
    """Valid programs compile; SPARQL is never broken, even for a tree the validator would refuse; and the
    query is the same query, term for term, whatever the entities' IRIs hold."""
    program = data.draw(schema_programs(geo))
    try:
        validate(program, geo.schema)
        valid = True
    except ProgramError:
        valid = False
    try:
        sparql = to_sparql(program, geo.schema)
    except ProgramError as err:
        assert not valid and err.message, f"a valid program did not compile: {to_text(program)}"
        event("refused by the validator and the compiler")
        return
    event("compiled" + (", valid" if valid else ", though the validator refuses it"))
    ox.Store().query(sparql)  # raises SyntaxError if pyoxigraph cannot parse it
    tame, terms = _placeholders(program)
    for hostile, plain in terms.items():
        sparql = sparql.replace(hostile, plain)
    assert sparql == to_sparql(tame, geo.schema)


@settings(QUICK, max_examples=100)
@given(st.lists(LABEL.filter(bool), min_size=1, max_size=4, unique=True))
def test_labels_from_a_kg_are_looked_up_as_themselves(labels: list[str]) -> None:
    """A label that holds quotes, braces, backslashes, '\\u0022', newlines or NUL is one string term in the
    lookup, and finds exactly the entity that carries it."""
    store = ox.Store()
    label = ox.NamedNode(RDFS_LABEL)
    for i, text in enumerate(labels):
        store.add(ox.Quad(ox.NamedNode(f"urn:e:{i}"), label, ox.Literal(text)))
    found = {(row["e"].value, row["l"].value) for row in store.query(label_lookup_sparql(labels))}
    assert found == {(f"urn:e:{i}", text) for i, text in enumerate(labels)}


@settings(QUICK, max_examples=150)
@given(st.text(max_size=40))
def test_any_text_is_one_iri_term_or_refused(text: str) -> None:
    """An IRI read from anywhere is refused by iri(), or is one term: it comes back from the store as the same
    IRI, or (where pyoxigraph holds it no IRI) the store refuses the whole query."""
    address = "urn:t:" + text
    try:
        term = iri(address)
    except ProgramError as err:
        assert "not a valid IRI" in err.message
        return
    query = f"SELECT ?x WHERE {{ VALUES ?x {{ {term} }} }}"
    if not _stores_take(address):
        with pytest.raises(SyntaxError):
            ox.Store().query(query)
        return
    assert [row["x"].value for row in ox.Store().query(query)] == [address]


@pytest.mark.parametrize("text", ["\ud800", "a\udfffb"])
def test_a_lone_surrogate_is_refused_not_sent(text: str) -> None:
    """Such text cannot be encoded for a store or an HTTP request; it is a ProgramError, not a crash there."""
    with pytest.raises(ProgramError, match="surrogate"):
        string(text)
    with pytest.raises(ProgramError, match="not a valid IRI"):
        iri("urn:x:" + text)


def test_a_tree_built_in_code_cannot_write_an_operator(geo) -> None:
    """Operators are looked up, never copied into the query."""
    program = Aggregate("SUM(?x) AS ?n) WHERE {} #", Class("Country"), Relation("population"))
    with pytest.raises(ProgramError, match="unknown operator"):
        to_sparql(program, geo.schema)


# ------------------------------------------------------------------ questions
@pytest.fixture(scope="module")
def films(tmp_path_factory):
    """The real ask path on the tiny films KG, with the tiny SmolLM2 model (no corpus: questions are answered
    without exemplars), its film class named as a user would."""
    scout = Scout(ScoutConfig(cache_dir=str(tmp_path_factory.mktemp("ask")), model="smollm2-135m"))
    session = scout.open(str(FIXTURES / "tiny_films.psv"))
    session.kg.adopt_names(FILM_NAMES)
    yield session
    session.kg.close()


WORDS = st.sampled_from([
    "who", "directed", "Alien", "alien", "Ridley Scott", "movies", "how many", "which", "he", "it", "that movie",
    "[", "]", "[Alien]", "?", "'s", "before", "not", "1982", "-3.5e9", 'The "Quote" } ; DROP GRAPH <x> #1',
    "(JOIN (R directed_by) \"Alien\")", "\u202e", "\u0645\u0646 \u0623\u062e\u0631\u062c", "\u05de\u05d9",
    "\x00", "\x1b[31m", "\u200b", "e\u0301", "\U0001f3ac", "\ufeff", "\\", "%s", "{0}", "\t\n\r",
])
QUESTIONS = st.one_of(st.text(max_size=60), st.lists(st.one_of(WORDS, st.text(max_size=6)), max_size=10).map(" ".join))
PREVIOUS = Turn("who directed Alien?", ("Ridley Scott",), ("Alien",))


def _replied(result) -> None:
    """A result with a program, or a message; never the reply of the reasoner's last-resort catch."""
    assert result.program is not None or result.message
    assert not (result.message or "").startswith("Something went wrong"), result.message


@settings(QUICK, max_examples=100)
@given(QUESTIONS)
def test_any_text_is_read_as_a_question(films, text: str) -> None:
    """The question reader takes any text the ask path passes it (at most MAX_QUESTION_CHARS, spaces joined), and
    reads it as written but for its numbers and dates ("0K" is 0)."""
    text = " ".join(text.split())[:MAX_QUESTION_CHARS]
    reader = films.reasoner().reader
    assert reader.read(text).text == reader.rewritten(text)


@settings(QUICK, max_examples=20)
@given(QUESTIONS, st.booleans())
def test_any_question_gets_a_result_or_a_message(films, text: str, follow_up: bool) -> None:
    _replied(films.ask(text, previous=PREVIOUS if follow_up else None))


@pytest.mark.parametrize("text", [
    "x" * 100_000, "\u0645\u0646 " * 33_000, "he " * 33_000, "\x00\x01\x02\x1b\x7f", "[" * 600, "]" * 600,
    "\u202e" * 1000 + "who directed Alien?", "\n" * 10_000, "",
], ids=["100kB", "100kB-rtl", "100kB-follow-up", "controls", "open-brackets", "close-brackets", "rtl-override",
        "newlines", "empty"])
def test_hostile_question_gets_a_message(films, text: str) -> None:
    result = films.ask(text, previous=PREVIOUS)
    _replied(result)
    assert result.program is None or len(text) <= MAX_QUESTION_CHARS


# ------------------------------------------------------------------ triples files
SAMPLES = {
    ".nt": '<http://ex.org/a> <http://ex.org/p> "x\\"y"@en .\n<http://ex.org/a> <http://ex.org/q> <http://ex.org/b> .\n',
    ".ttl": '@prefix ex: <http://ex.org/> .\nex:a ex:p ex:b ; ex:q [ ex:r ( 1 2 ) ] .\n',
    ".rdf": '<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
            'xmlns:ex="http://ex.org/">\n<rdf:Description rdf:about="http://ex.org/a"><ex:p>x</ex:p>'
            '</rdf:Description>\n</rdf:RDF>\n',
    ".jsonld": '{"@context": {"ex": "http://ex.org/"}, "@id": "ex:a", "ex:p": [{"@id": "ex:b"}, "x"]}',
    ".trig": '@prefix ex: <http://ex.org/> .\nex:g { ex:a ex:p ex:b . }\n',
    ".psv": "Alien|directed_by|Ridley Scott\nAlien|release_year|1979\n",
    ".csv": 'subject,relation,object\n"A, B",r,C\n',
    ".tsv": "A\tr\tB\n",
}


@st.composite
def triples_files(draw) -> tuple[str, bytes]:
    """(name, bytes): a sample of each format, cut, spliced and sprinkled with what breaks parsers; or noise;
    sometimes gzipped."""
    ext = draw(st.sampled_from(sorted(SAMPLES)))
    text = SAMPLES[ext]
    for _ in range(draw(st.integers(0, 3))):
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 10)))
        text = text[:i] + draw(st.text(alphabet=st.sampled_from('<>"\\{}[]()|\t\n,@:#&;!DOCTYPE ENTITY\x00é\u202e'),
                                       max_size=8) | st.text(max_size=8)) + text[j:]
    data = draw(st.sampled_from([text.encode("utf-8", "surrogatepass")]) | st.binary(max_size=200))
    data = data * draw(st.integers(1, 3))
    name = draw(st.sampled_from([f"kb{ext}", "kb.txt", "kb"]))
    if draw(st.integers(0, 4)) == 0:
        data, name = gzip.compress(data), name + ".gz"
    return name, data


@settings(QUICK, max_examples=300)
@given(triples_files())
def test_any_file_loads_whole_or_is_refused(file) -> None:
    name, data = file
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(data)
        try:
            graph = parse_file(path, max_bytes=64 * 1024, max_predicates=50)
        except LoadError as err:
            assert str(err) and err.path == str(path)
            event("refused")
            return
        event(f"loaded as {graph.format}")
        assert graph.triples and all(isinstance(t, ox.Triple) for t in graph.triples)


@settings(QUICK, max_examples=25)
@given(triples_files())
def test_a_refused_file_leaves_no_store_and_a_loaded_one_keeps_every_triple(file) -> None:
    name, data = file
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(data)
        cache = Path(folder) / "cache"
        try:
            store = OxigraphStore.from_file(path, cache_root=cache, max_bytes=64 * 1024)
        except LoadError:
            assert not (cache / "stores").exists() or not any((cache / "stores").iterdir())
            return
        assert store.info.triples == len(set(parse_file(path, max_bytes=64 * 1024).triples))
        store.close()
