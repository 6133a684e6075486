"""Turn a user's file into triples, or refuse it with a message the user can act on.

Everything downstream (the embedded store, the schema summary, the fingerprint
that keys execution caches) assumes a complete graph, so a load either yields
every triple of the file or raises `LoadError`; it never returns part of one.

Two families of input are accepted: the standard RDF serializations, which
pyoxigraph parses, and "delimited triples" (`subject|relation|object`, TSV, CSV),
the shape most hand-made or exported KGs (e.g. MoviesKG) arrive in. The latter
carry bare names, so they are minted into stable IRIs via `naming` and labelled,
because the engine finds entities by label.

A public app takes files from anyone, so a file is checked for what would hurt the
server before a parser sees it (`_refuse_hostile`), and every refusal says why: more
than `max_bytes`, read or after gzip decompression; NUL bytes or invalid UTF-8;
a line longer than `MAX_LINE_BYTES` in a line-based format; an RDF/XML DOCTYPE that
declares entities (a 1 KB "billion laughs" file made pyoxigraph grow to 15 GB), or
XML or JSON-LD nested deeper than `MAX_NESTING` (pyoxigraph's JSON-LD parser
crashes the process past a few thousand levels, its RDF/XML one slows quadratically);
more than `max_predicates` distinct predicates.
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import io
import logging
import os
import re
import xml.parsers.expat
import xml.sax
import xml.sax.handler
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import NamedTuple

import defusedxml
import pyoxigraph
from defusedxml.expatreader import DefusedExpatParser

from kg_adapters import naming
from kg_adapters.base import RDFS_LABEL, XSD, LoadError

DEFAULT_MAX_BYTES = 200 * 1024 * 1024
_MB = 1024 * 1024
# Enough to see past a licence header or XML prologue; small enough to sniff fast.
_SNIFF_BYTES = 64 * 1024
# Limits on what a file may make the parser do (module docstring). A statement rarely takes a kilobyte;
# real RDF/XML and JSON-LD nest a few tens of levels deep.
MAX_LINE_BYTES = _MB
MAX_NESTING = 256
DEFAULT_MAX_PREDICATES = 5000
DEFAULT_MAX_TRIPLES = 10_000_000  # past this a KG belongs behind a SPARQL endpoint (issue 28)
_GZIP_MAGIC = b"\x1f\x8b"
# Formats where a line holds one statement: a line of megabytes is no KG.
_LINE_FORMATS = frozenset({"ntriples", "nquads", "turtle", "trig", "delimited"})
# Formats of triples only, which pyoxigraph's bulk loader puts in the default graph as they are; quads formats
# (N-Quads, TriG, JSON-LD) are parsed in Python, which folds named graphs into the default graph.
STREAMED_FORMATS = frozenset({"ntriples", "turtle", "rdfxml"})

_RDF_FORMATS: dict[str, pyoxigraph.RdfFormat] = {
    "ntriples": pyoxigraph.RdfFormat.N_TRIPLES,
    "turtle": pyoxigraph.RdfFormat.TURTLE,
    "rdfxml": pyoxigraph.RdfFormat.RDF_XML,
    "nquads": pyoxigraph.RdfFormat.N_QUADS,
    "trig": pyoxigraph.RdfFormat.TRIG,
    "jsonld": pyoxigraph.RdfFormat.JSON_LD,
}
_FORMAT_NAMES = {
    "ntriples": "N-Triples",
    "turtle": "Turtle",
    "rdfxml": "RDF/XML",
    "nquads": "N-Quads",
    "trig": "TriG",
    "jsonld": "JSON-LD",
    "delimited": "delimited triples",
}
# Extensions that name a format; anything else (.txt, .dat, none) is generic and
# leaves the decision to the content.
_EXTENSION_HINTS = {
    ".nt": "ntriples",
    ".ttl": "turtle",
    ".turtle": "turtle",
    ".rdf": "rdfxml",
    ".owl": "rdfxml",
    ".xml": "rdfxml",
    ".nq": "nquads",
    ".trig": "trig",
    ".jsonld": "jsonld",
    ".json": "jsonld",
    ".tsv": "delimited",
    ".csv": "delimited",
    ".psv": "delimited",
}
_EXTENSION_DELIMITERS = {".tsv": "\t", ".csv": ",", ".psv": "|"}
_DELIMITER_SHAPES = {
    "|": "subject|relation|object",
    "\t": "subject<TAB>relation<TAB>object",
    ",": "subject,relation,object",
}
_HEADER_ROWS = frozenset(
    {
        ("subject", "relation", "object"),
        ("subject", "predicate", "object"),
        ("s", "p", "o"),
        ("head", "relation", "tail"),
    }
)

# --- content sniffing patterns -------------------------------------------------
_IRI = r'<[^<>"{}|^`\\\s]*>'
_BNODE = r'_:[^\s<>"]+'
_LITERAL = r'"(?:[^"\\\n]|\\.)*"(?:\^\^' + _IRI + r"|@[A-Za-z]+(?:-[A-Za-z0-9]+)*)?"
_NT_LINE = re.compile(
    rf"\s*(?:{_IRI}|{_BNODE})\s*{_IRI}\s*(?:{_IRI}|{_BNODE}|{_LITERAL})"
    rf"\s*(?P<graph>{_IRI}|{_BNODE})?\s*\.\s*(?:#.*)?"
)
# Strict enough that a delimited line like "Base jumping|has_genre|Sport" is no directive.
_DIRECTIVE = re.compile(r"@?(?:prefix\s+[\w.-]*:\s*<|base\s+<)", re.IGNORECASE)
_GRAPH_BLOCK = re.compile(
    rf"^\s*(?:GRAPH\s+)?(?:{_IRI}|[\w-]*:[\w.-]*|{_BNODE})?\s*\{{", re.MULTILINE | re.IGNORECASE
)
_XML_ELEMENT = re.compile(r"<[A-Za-z_][\w.-]*(?::[\w.-]+)?[\s/>]")
_DATA_LINE = re.compile(r"^[ \t\r\f\v]*[^\s#]", re.MULTILINE)
_TRIG_DEFAULT_GRAPH = re.compile(r"\{\s*(?:<|_:|\[|\}|[\w-]*:)")
_JSON_START = re.compile(r'\{\s*(?:"|\})|\[\s*(?:\{|\])')

# --- literal typing for delimited objects --------------------------------------
_INTEGER = re.compile(r"[+-]?\d+", re.ASCII)
_DECIMAL = re.compile(r"[+-]?(?:\d+\.\d*|\.\d+)", re.ASCII)
_DOUBLE = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)[eE][+-]?\d+", re.ASCII)
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII)
XSD_INTEGER = XSD + "integer"
XSD_DECIMAL = XSD + "decimal"
XSD_DOUBLE = XSD + "double"
XSD_DATE = XSD + "date"
XSD_BOOLEAN = XSD + "boolean"
# A spreadsheet writes a flag as yes/no or true/false. Kept as entities, "yes" and "no" become a class of two
# members that every "who"/"which" question can land on (the recipes probe's `vegetarian` did just that).
_FLAG_WORDS = {"true": "true", "yes": "true", "false": "false", "no": "false"}
# Share of a relation's objects that may fail to parse as numbers/dates (misfiled rows)
# without turning the whole relation back into entities.
_OUTLIER_SHARE = 0.01

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ParsedGraph:
    """A whole file's triples, with what identifies where they came from."""

    triples: list[pyoxigraph.Triple]  # all triples, default graph
    format: str  # one of _FORMAT_NAMES' keys
    source: str  # the path as given
    sha256: str  # hex digest of the file bytes: the KG fingerprint


@dataclass(frozen=True)
class CheckedFile:
    """A file that passed every refusal rule, kept as its (decompressed) bytes for the bulk loader."""

    data: bytes
    format: str  # one of _FORMAT_NAMES' keys
    source: str  # the path as given
    name: str  # the path without .gz: what names the format
    sha256: str  # hex digest of the decompressed bytes: the KG fingerprint, as ParsedGraph's


class _Row(NamedTuple):
    """One delimited line, kept as text until every row's relation is known."""

    subject: str
    relation: str
    obj: str
    line: int


def parse_file(
    path: str | os.PathLike, max_bytes: int = DEFAULT_MAX_BYTES, max_predicates: int = DEFAULT_MAX_PREDICATES
) -> ParsedGraph:
    """Load `path` completely, or raise LoadError saying why (and where) it failed.

    A gzip file (by its first bytes) is decompressed first, to at most `max_bytes`; its
    format is read from the name without `.gz`."""
    source = os.fspath(path)
    checked, text = _read_checked(source, max_bytes)
    return _parsed(checked, text, max_predicates)


def load_file(
    path: str | os.PathLike, max_bytes: int = DEFAULT_MAX_BYTES, max_predicates: int = DEFAULT_MAX_PREDICATES
) -> ParsedGraph | CheckedFile:
    """What a store is built from: the checked bytes where pyoxigraph's bulk loader can take the format
    (`STREAMED_FORMATS`: no Python object per triple, see `bulk_load`), else the parsed triples. The same
    refusals as `parse_file` hold before either."""
    checked, text = _read_checked(os.fspath(path), max_bytes)
    if checked.format in STREAMED_FORMATS:
        return checked
    return _parsed(checked, text, max_predicates)


def sniff_format(path: str | os.PathLike) -> str | None:
    """The format of a file from its first bytes (decompressed where gzipped), or None where that cannot be
    told: what a store's folder is named by before the whole file is read (`load_file` says why it fails)."""
    source = os.fspath(path)
    try:
        with open(source, "rb") as handle:
            head = handle.read(_SNIFF_BYTES)
        if head.startswith(_GZIP_MAGIC):
            with gzip.open(source, "rb") as stream:
                head = stream.read(_SNIFF_BYTES)
        return detect_format(_without_gz(source), head)
    except (OSError, EOFError, zlib.error, LoadError):
        return None


def _without_gz(source: str) -> str:
    """The name a gzipped file's format is read from."""
    return source[:-3] if source.lower().endswith(".gz") else source


def _read_checked(source: str, max_bytes: int) -> tuple[CheckedFile, str]:
    """Read, decompress and decode the file, name its format and apply every refusal rule."""
    try:
        data = _gunzip(_read_bytes(source, max_bytes), max_bytes)
        name = _without_gz(source)
        text = _decode(data)
        if not _DATA_LINE.search(text):  # empty, blank, or only comments
            raise LoadError("the file has no triples")
        fmt = detect_format(name, data[:_SNIFF_BYTES])
        _refuse_hostile(data, text, fmt)
    except LoadError as err:
        if err.path is None:
            err.path = source
        raise
    return CheckedFile(data, fmt, source, name, hashlib.sha256(data).hexdigest()), text


def _parsed(checked: CheckedFile, text: str, max_predicates: int) -> ParsedGraph:
    try:
        if checked.format == "delimited":
            triples = _parse_delimited(text, checked.name, max_predicates)
        else:
            triples = _parse_rdf(text, checked.format, max_predicates)
        if not triples:
            raise LoadError(_no_triples_message(checked.format))
    except LoadError as err:
        if err.path is None:
            err.path = checked.source
        raise
    return ParsedGraph(triples, checked.format, checked.source, checked.sha256)


def bulk_load(checked: CheckedFile, store: pyoxigraph.Store, max_predicates: int = DEFAULT_MAX_PREDICATES,
              on_progress: Callable[[int, int], None] | None = None) -> None:
    """Load a checked file into `store` with pyoxigraph's bulk loader, which parses and writes in Rust without
    a Python object per triple (the list `parse_file` builds took most of a large load's memory).

    One call for the whole file: blank nodes are renamed per call, so chunks would split one node in two.
    `on_progress(bytes read, bytes in all)` follows the parser through the bytes. A syntax error or too many
    predicates raises LoadError as `parse_file` would; the caller drops the store, which holds part of the file.
    """
    data = checked.data.removeprefix(b"\xef\xbb\xbf")  # the UTF-8 BOM `_decode` accepts
    try:
        store.bulk_load(_Progress(data, on_progress), _RDF_FORMATS[checked.format], base_iri=naming.BASE)
    except (SyntaxError, ValueError) as err:
        text = data.decode("utf-8") if checked.format == "rdfxml" else ""
        raise _with_path(_syntax_error(err, text, checked.format), checked.source) from None
    if not bool(store.query("ASK { ?s ?p ?o }")):
        raise _with_path(LoadError(_no_triples_message(checked.format)), checked.source)
    predicates = store.query(f"SELECT DISTINCT ?p WHERE {{ ?s ?p ?o }} LIMIT {max_predicates + 1}")
    if sum(1 for _ in predicates) > max_predicates:
        raise _with_path(_too_many_predicates(max_predicates), checked.source)


def _with_path(err: LoadError, source: str) -> LoadError:
    err.path = err.path or source
    return err


class _Progress(io.RawIOBase):
    """The file's bytes as a stream the bulk loader reads, telling `on_progress` how far it has read."""

    def __init__(self, data: bytes, on_progress: Callable[[int, int], None] | None):
        self._view, self._at, self._on_progress = memoryview(data), 0, on_progress

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        n = min(len(buffer), len(self._view) - self._at)
        buffer[:n] = self._view[self._at:self._at + n]
        self._at += n
        if self._on_progress and n:
            self._on_progress(self._at, len(self._view))
        return n


def detect_format(path: str | os.PathLike, head: bytes) -> str:
    """Name the format of a file from its first bytes, using the extension to break ties.

    Content wins because users rename files carelessly (`kb.txt`, `export.xml`
    holding Turtle); the extension only decides what content cannot, e.g. Turtle
    versus its N-Triples subset, or a CSV whose first line looks like something else.
    """
    hint = _extension_hint(path)
    text = head.decode("utf-8", errors="ignore").lstrip("\ufeff")
    fmt = _sniff(text, hint) or hint
    if fmt is None:
        raise LoadError(
            "cannot tell the file's format; use one of "
            + ", ".join(_FORMAT_NAMES.values())
            + " (e.g. .nt .ttl .rdf .nq .trig .jsonld .tsv .csv, or subject|relation|object lines)"
        )
    return fmt


# --- reading -------------------------------------------------------------------


def _read_bytes(path: str, max_bytes: int) -> bytes:
    """Read the file, refusing an oversized one before it can exhaust memory."""
    try:
        size = os.stat(path).st_size
        if size > max_bytes:
            raise LoadError(_too_big_message(size, max_bytes))
        with open(path, "rb") as handle:
            # Bounded read: the size on disk may lie (growing file, special file).
            data = _read_at_most(handle, max_bytes + 1)
    except FileNotFoundError:
        raise LoadError(f"no such file: {path}") from None
    except IsADirectoryError:
        raise LoadError(f"not a file (a directory): {path}") from None
    except PermissionError:
        raise LoadError(f"no permission to read: {path}") from None
    except OSError as err:
        raise LoadError(f"cannot read {path}: {err.strerror or err}") from None
    if len(data) > max_bytes:
        raise LoadError(_too_big_message(len(data), max_bytes))
    return data


def _gunzip(data: bytes, max_bytes: int) -> bytes:
    """The decompressed bytes of a gzip file, read no further than the limit (a small file can
    decompress to gigabytes); any other file as it is."""
    if not data.startswith(_GZIP_MAGIC):
        return data
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as stream:
            out = _read_at_most(stream, max_bytes + 1)
    except (OSError, EOFError, zlib.error) as err:
        raise LoadError(f"the gzip file is damaged or cut short ({err})") from None
    if len(out) > max_bytes:
        raise LoadError(f"the file is larger than {_megabytes(max_bytes)} when decompressed, the limit")
    return out


def _read_at_most(stream: io.BufferedIOBase, limit: int, chunk: int = 64 * _MB) -> bytes:
    """Up to `limit` bytes, read in chunks: `read(limit)` allocates the whole limit first, so a limit set for
    a 10^7-triple file (gigabytes) failed with MemoryError on a small file (found by bench.scale)."""
    parts: list[bytes] = []
    left = limit
    while left > 0:
        part = stream.read(min(chunk, left))
        if not part:
            break
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


def _too_big_message(size: int, max_bytes: int) -> str:
    return f"file is {_megabytes(size)}; the limit is {_megabytes(max_bytes)}"


def _megabytes(n: int) -> str:
    """Sizes in MB as users think of them; exact bytes too when MB would read as 0."""
    mb = n / _MB
    if mb >= 0.1:
        return f"{mb:.1f}".removesuffix(".0") + " MB"
    return f"{mb:.6f}".rstrip("0").rstrip(".") + f" MB ({n:,} bytes)"


def _decode(data: bytes) -> str:
    """Text or nothing: every supported format is UTF-8 text, so anything else is refused."""
    nul = data.find(b"\x00")
    if nul >= 0:
        line = data.count(b"\n", 0, nul) + 1
        raise LoadError("the file looks binary (it contains NUL bytes), not a text KG file", line=line)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise LoadError(
            f"the file is not UTF-8 text (invalid byte 0x{data[err.start]:02x}); "
            "it looks binary or uses another encoding - save it as UTF-8",
            line=line,
        ) from None


def _no_triples_message(fmt: str) -> str:
    if fmt == "jsonld":
        return "the file has no triples (JSON without an @context yields no RDF triples)"
    return "the file has no triples"


# --- format detection ----------------------------------------------------------


def _extension_hint(path: str | os.PathLike) -> str | None:
    return _EXTENSION_HINTS.get(Path(path).suffix.lower())


def _sniff(text: str, hint: str | None) -> str | None:
    """The format the content shows, or None when it shows nothing decisive."""
    start = text.lstrip()
    if start.startswith(("<?xml", "<!", "<rdf:RDF")):
        return "rdfxml"
    if _JSON_START.match(start):
        return "jsonld"
    lines = _data_lines(text)
    if not lines:
        return None
    if any(_DIRECTIVE.match(line) for line in lines):
        return "trig" if hint == "trig" or _GRAPH_BLOCK.search(text) else "turtle"
    if hint == "delimited":
        return "delimited"
    return _sniff_lines(lines, start, hint)


def _sniff_lines(lines: list[str], start: str, hint: str | None) -> str | None:
    """Tell RDF line formats from delimited ones when there are no directives."""
    rdf_text = hint in ("ntriples", "nquads", "turtle", "trig")
    matches = [_NT_LINE.fullmatch(line) for line in lines]
    if all(matches):
        if rdf_text:
            return hint  # Turtle/TriG are supersets; an N-Quads file may lack graphs.
        return "nquads" if any(m["graph"] for m in matches) else "ntriples"
    if rdf_text:
        return hint  # let the parser name the bad line
    delimiter = _delimiter_for(lines[0])
    if delimiter in ("|", "\t"):
        return "delimited"  # before the '<' checks: names like "<odd>" or "{x}" exist
    if start.startswith(("<", "_:")) and not _XML_ELEMENT.match(start):
        return "turtle"
    if _TRIG_DEFAULT_GRAPH.match(start):
        return "trig"
    if start.startswith("<"):
        return "rdfxml"
    if delimiter or "|" in lines[0] or "\t" in lines[0]:
        return "delimited"  # a malformed first line is best reported by the delimited reader
    return None


def _delimiter_for(line: str) -> str | None:
    """The delimiter that splits `line` into exactly three fields, pipe and tab first."""
    for delimiter in ("|", "\t"):
        if len(line.split(delimiter)) == 3:
            return delimiter
    try:
        fields = next(csv.reader([line]))
    except csv.Error:  # a lone carriage return inside the line (found by bench.hostile): no CSV line
        return None
    return "," if len(fields) == 3 else None


def _data_lines(text: str, limit: int = 50) -> list[str]:
    """The first non-blank, non-comment lines; the head's last line may be cut, so drop it."""
    raw = text.split("\n")
    if len(raw) > 1:
        raw = raw[:-1]
    lines = [line.rstrip("\r") for line in raw if line.strip() and not line.lstrip().startswith("#")]
    return lines[:limit]


# --- what would hurt the server -------------------------------------------------


def _refuse_hostile(data: bytes, text: str, fmt: str) -> None:
    """Refuse what a parser would choke on (module docstring), before it sees it."""
    if fmt in _LINE_FORMATS:
        _check_line_lengths(data)
    if fmt == "rdfxml":
        _check_xml(data)
    elif fmt == "jsonld":
        _check_json_nesting(text)


def _check_line_lengths(data: bytes, limit: int = MAX_LINE_BYTES) -> None:
    """Refuse a line longer than `limit` bytes, in C-speed jumps: each step goes to the last
    newline within `limit` bytes, so a file is scanned in about 2 * size / limit steps."""
    start, size = 0, len(data)
    while size - start > limit:
        newline = data.rfind(b"\n", start, start + limit + 1)
        if newline < 0:
            line = data.count(b"\n", 0, start) + 1
            raise LoadError(f"the line is longer than {_megabytes(limit)}; a line holds one statement, "
                            "so this is no triples file (or its line breaks are lost)", line=line)
        start = newline + 1


class _XmlChecker(DefusedExpatParser):
    """expat through defusedxml, which refuses every entity declaration and external reference as it
    reads the DOCTYPE, before anything is expanded; element depth is counted without SAX objects."""

    def __init__(self) -> None:
        super().__init__(forbid_dtd=False, forbid_entities=True, forbid_external=True)
        self.setContentHandler(xml.sax.handler.ContentHandler())
        self.depth = 0

    def start_element(self, name: str, attrs: dict) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING:
            line = self._parser.CurrentLineNumber
            raise LoadError(f"the XML nests deeper than {MAX_NESTING} elements", line=line)

    def end_element(self, name: str) -> None:
        self.depth -= 1


def _check_xml(data: bytes) -> None:
    """RDF/XML must be well-formed XML without entity declarations, nested at most MAX_NESTING deep."""
    checker = _XmlChecker()
    try:
        checker.feed(data)
        checker.close()
    except defusedxml.DTDForbidden:  # pragma: no cover - DTDs are allowed; only entities are refused
        raise LoadError("the XML has a DOCTYPE, which is not accepted") from None
    except (defusedxml.EntitiesForbidden, defusedxml.ExternalReferenceForbidden) as err:
        raise LoadError(
            "the XML's DOCTYPE declares entities, which are not accepted: expanding them can take gigabytes "
            "(\"billion laughs\") or read other files; write the values out and remove the DOCTYPE",
            line=checker._parser.CurrentLineNumber if checker._parser else None,
        ) from err
    except xml.sax.SAXParseException as err:
        raise LoadError(f"not valid RDF/XML: {err.getMessage()}", line=err.getLineNumber()) from None


_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*+"|[\[{]++|[\]}]++|"')


def _check_json_nesting(text: str) -> None:
    """Refuse JSON nested deeper than MAX_NESTING, counting brackets outside strings.

    Strings are skipped whole; at an unterminated one the scan stops, since the parser
    reads everything after it as that string."""
    depth = 0
    for token in _JSON_TOKEN.finditer(text):
        first = token.group()[0]
        if first in "[{":
            depth += len(token.group())
            if depth > MAX_NESTING:
                line = text.count("\n", 0, token.start()) + 1
                raise LoadError(f"the JSON nests deeper than {MAX_NESTING} levels", line=line)
        elif first in "]}":
            depth -= len(token.group())
        elif len(token.group()) == 1:  # an unterminated string
            return


def _too_many_predicates(limit: int) -> LoadError:
    return LoadError(f"the file has more than {limit:,} distinct predicates (relations), the limit; "
                     "the setting max_predicates (--max-predicates) raises it")


# --- RDF serializations --------------------------------------------------------


def _parse_rdf(text: str, fmt: str, max_predicates: int = DEFAULT_MAX_PREDICATES) -> list[pyoxigraph.Triple]:
    """Parse with pyoxigraph, folding named graphs into the default graph.

    The engine queries one graph; keeping graph names would make triples from
    N-Quads/TriG invisible to queries without GRAPH clauses. Predicates are counted as
    the triples arrive, so a file of millions of them stops at the limit.
    """
    triples: dict[pyoxigraph.Triple, None] = {}
    predicates: set[pyoxigraph.NamedNode] = set()
    try:
        for quad in pyoxigraph.parse(text, _RDF_FORMATS[fmt], base_iri=naming.BASE):
            if quad.predicate not in predicates:
                predicates.add(quad.predicate)
                if len(predicates) > max_predicates:
                    raise _too_many_predicates(max_predicates)
            triples[quad.triple] = None
    except (SyntaxError, ValueError) as err:
        raise _syntax_error(err, text, fmt) from None
    return list(triples)


_PARSER_PREFIX = re.compile(
    r"Parser error (?:at line \d+ (?:between columns (?P<c1>\d+) and \d+|column (?P<c2>\d+))"
    r"|between line \d+ column (?P<c3>\d+) and line \d+ column \d+): "
)


def _syntax_error(err: Exception, text: str, fmt: str) -> LoadError:
    """Restate a parser error as one LoadError with the line where the user should look."""
    message = str(err.msg if isinstance(err, SyntaxError) else err)
    line = err.lineno if isinstance(err, SyntaxError) else None
    prefix = _PARSER_PREFIX.match(message)
    if prefix:
        column = prefix["c1"] or prefix["c2"] or prefix["c3"]
        message = f"{message[prefix.end():]} (column {column})"
    if "LoadDocumentCallback" in message:
        message = "it refers to a remote @context, which is never fetched; inline the context in the file"
    if line is None and fmt == "rdfxml":
        line = _xml_error_line(text)
    return LoadError(f"not valid {_FORMAT_NAMES[fmt]}: {message}", line=line)


def _xml_error_line(text: str) -> int | None:
    """pyoxigraph's RDF/XML errors carry no position; expat can locate well-formedness errors."""
    parser = xml.parsers.expat.ParserCreate()
    try:
        parser.Parse(text.encode("utf-8"), True)
    except xml.parsers.expat.ExpatError as err:
        return err.lineno
    return None


# --- delimited triples ---------------------------------------------------------


def _parse_delimited(text: str, path: str, max_predicates: int = DEFAULT_MAX_PREDICATES) -> list[pyoxigraph.Triple]:
    lines = _data_lines(text[:_SNIFF_BYTES], limit=1)
    delimiter = _pick_delimiter(path, lines[0] if lines else "")
    rows = _skip_header(_read_rows(text, delimiter))
    if len({row.relation for row in rows}) + 1 > max_predicates:  # + rdfs:label
        raise _too_many_predicates(max_predicates)
    return _build_triples(rows)


def _pick_delimiter(path: str, first_line: str) -> str:
    """The extension decides when it names one; otherwise the first line's shape does."""
    by_extension = _EXTENSION_DELIMITERS.get(Path(path).suffix.lower())
    if by_extension:
        return by_extension
    by_shape = _delimiter_for(first_line)
    if by_shape:
        return by_shape
    return next((d for d in ("|", "\t") if d in first_line), ",")


def _read_rows(text: str, delimiter: str) -> Iterator[_Row]:
    if delimiter == ",":
        return _read_csv_rows(text)
    return _read_split_rows(text, delimiter)


def _read_split_rows(text: str, delimiter: str) -> Iterator[_Row]:
    """Pipe and tab files have no quoting, so a plain split is exact and fast."""
    for number, line in enumerate(text.split("\n"), start=1):
        fields = line.split(delimiter)
        if len(fields) == 3:  # fast path: the shape of nearly every line
            subject, relation, obj = fields[0].strip(), fields[1].strip(), fields[2].strip()
            if subject and relation and obj and subject[0] != "#":
                yield _Row(subject, relation, obj, number)
                continue
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            yield _to_row(fields, number, delimiter)


def _read_csv_rows(text: str) -> Iterator[_Row]:
    """CSV needs the csv module: quoted fields may hold commas and even newlines."""
    reader = csv.reader(_blank_comments(io.StringIO(text, newline="")))
    first_line = 1
    while True:
        try:
            fields = next(reader)
        except StopIteration:
            return
        except csv.Error as err:  # a field past csv's size limit (128 KB), a stray NUL
            raise LoadError(f"not valid CSV: {err}", line=first_line) from None
        if any(field.strip() for field in fields):
            yield _to_row(fields, first_line, ",")
        first_line = reader.line_num + 1


def _blank_comments(lines: Iterable[str]) -> Iterator[str]:
    """Empty out comment lines (keeping the line count) so a quote in one can't open a field."""
    for line in lines:
        yield "\n" if line.lstrip().startswith("#") else line


def _to_row(fields: list[str], line: int, delimiter: str) -> _Row:
    shape = _DELIMITER_SHAPES[delimiter]
    if len(fields) != 3:
        raise LoadError(f"expected {shape}, got {len(fields)} fields", line=line)
    subject, relation, obj = (field.strip() for field in fields)
    for name, value in (("subject", subject), ("relation", relation), ("object", obj)):
        if not value:
            raise LoadError(f"expected {shape}, got an empty {name}", line=line)
    return _Row(subject, relation, obj, line)


def _skip_header(rows: Iterator[_Row]) -> list[_Row]:
    """Drop a `subject,relation,object`-style header: it names columns, not a fact."""
    collected = list(rows)
    if collected and _is_header(collected[0]):
        return collected[1:]
    return collected


def _is_header(row: _Row) -> bool:
    return (row.subject.lower(), row.relation.lower(), row.obj.lower()) in _HEADER_ROWS


def _literal_datatype(value: str) -> str | None:
    """The XSD type of a value that reads as a number or date, else None (an entity)."""
    if _INTEGER.fullmatch(value):
        return XSD_INTEGER
    if _DECIMAL.fullmatch(value):
        return XSD_DECIMAL
    if _DOUBLE.fullmatch(value):
        return XSD_DOUBLE
    if _DATE.fullmatch(value) and _is_real_date(value):
        return XSD_DATE
    return None


def _is_real_date(value: str) -> bool:
    try:
        date.fromisoformat(value)
    except ValueError:
        return False
    return True


def _literal_relations(rows: list[_Row]) -> set[str]:
    """Relations whose objects are numbers or dates, to be stored as typed literals.

    Decided per relation, not per value, so one relation never mixes entities and
    numbers: `has_tags` with a stray tag "1" stays entity-valued, while
    `release_year` becomes comparable integers. Real exports carry a few misfiled
    rows (MoviesKG has 4 tags among 16,073 years), so up to 1% of a relation's
    objects may be non-numeric; below 100 objects that tolerance is zero.
    """
    totals = Counter(row.relation for row in rows)
    allowed = {rel: int(total * _OUTLIER_SHARE) for rel, total in totals.items()}
    outlier_lines: dict[str, list[int]] = {rel: [] for rel in totals}
    for row in rows:
        lines = outlier_lines[row.relation]
        if len(lines) <= allowed[row.relation] and _literal_datatype(row.obj) is None:
            lines.append(row.line)
    chosen = {rel for rel, lines in outlier_lines.items() if len(lines) <= allowed[rel]}
    for rel in sorted(rel for rel in chosen if outlier_lines[rel]):
        lines = outlier_lines[rel]
        _log.warning(
            "relation %r: %d of %d objects are not numbers or dates (lines %s); kept as plain strings",
            rel, len(lines), totals[rel], ", ".join(map(str, lines[:5])) + (", ..." if len(lines) > 5 else ""),
        )
    return chosen


def _flag_relations(rows: list[_Row]) -> set[str]:
    """Relations whose every object is a yes/no word, to be stored as xsd:boolean. Unlike numbers no object
    may be off: MoviesKG's `has_tags` has three "no" tags among thousands and stays entity-valued."""
    others = {row.relation for row in rows if row.obj.lower() not in _FLAG_WORDS}
    return {row.relation for row in rows} - others


_LABEL = pyoxigraph.NamedNode(RDFS_LABEL)
_DATATYPES = {iri: pyoxigraph.NamedNode(iri) for iri in (XSD_INTEGER, XSD_DECIMAL, XSD_DOUBLE, XSD_DATE, XSD_BOOLEAN)}

_Fact = tuple[str, str, str]


def _build_triples(rows: list[_Row]) -> list[pyoxigraph.Triple]:
    """Mint each name once (comprehensions, not per-row calls: this is the hot path)."""
    flag_relations = _flag_relations(rows)
    literal_relations = _literal_relations(rows) - flag_relations
    facts = dict.fromkeys((row.subject, row.relation, row.obj) for row in rows)  # de-duplicated, in order
    entities = _entity_nodes(facts, literal_relations | flag_relations)
    relations = {rel: pyoxigraph.NamedNode(naming.relation_iri(rel)) for rel in dict.fromkeys(r for _, r, _ in facts)}
    literals = {o: _typed_literal(o) for _, r, o in facts if r in literal_relations}
    flags = {o: pyoxigraph.Literal(_FLAG_WORDS[o.lower()], datatype=_DATATYPES[XSD_BOOLEAN])
             for _, r, o in facts if r in flag_relations}
    triples = [
        pyoxigraph.Triple(entities[s], relations[r],
                          literals[o] if r in literal_relations else flags[o] if r in flag_relations else entities[o])
        for s, r, o in facts
    ]
    return triples + _labels(entities, relations)


def _entity_nodes(facts: Iterable[_Fact], literal_relations: set[str]) -> dict[str, pyoxigraph.NamedNode]:
    """Subjects are always entities; objects only where their relation is not literal-valued."""
    names: dict[str, None] = {}
    for s, r, o in facts:
        names[s] = None
        if r not in literal_relations:
            names[o] = None
    return {name: pyoxigraph.NamedNode(naming.entity_iri(name)) for name in names}


def _typed_literal(value: str) -> pyoxigraph.Literal:
    datatype = _literal_datatype(value)
    if datatype is None:  # a tolerated outlier in a numeric relation
        return pyoxigraph.Literal(value)
    return pyoxigraph.Literal(value, datatype=_DATATYPES[datatype])


def _labels(
    entities: dict[str, pyoxigraph.NamedNode], relations: dict[str, pyoxigraph.NamedNode]
) -> list[pyoxigraph.Triple]:
    """One rdfs:label per minted IRI: the engine finds entities and relations by label."""
    labels = [pyoxigraph.Triple(node, _LABEL, pyoxigraph.Literal(name)) for name, node in entities.items()]
    labels += [
        pyoxigraph.Triple(node, _LABEL, pyoxigraph.Literal(name.replace("_", " "))) for name, node in relations.items()
    ]
    return labels
