"""Programs as s-expressions: one small tree, a parser, a printer, and tree helpers.

The language (method.md): JOIN, R, AND, COUNT, ARGMAX/ARGMIN with chained relations,
and the comparatives lt/le/gt/ge. A bare symbol is read by its position: a relation
where a relation belongs, a class where a set belongs. Entities are written by label
in double quotes or by IRI in angle brackets; literals are bare numbers or dates.

Positions are kept on nodes (not compared) so that the validator can point at the
offending token.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields, replace
from typing import Callable, Iterator, Union


class ProgramError(ValueError):
    """A program that cannot be parsed, or does not fit the schema. Points at `pos`."""

    def __init__(self, message: str, pos: int | None = None, text: str | None = None):
        self.message, self.pos, self.text = message, pos, text
        super().__init__(self._render())

    def _render(self) -> str:
        if self.pos is None or self.text is None:
            return self.message
        start = max(0, self.pos - 30)
        snippet = self.text[start : self.pos + 30].replace("\n", " ")
        caret = " " * (self.pos - start) + "^"
        return f"{self.message} (at character {self.pos})\n  {snippet}\n  {caret}"

    def with_text(self, text: str) -> "ProgramError":
        return ProgramError(self.message, self.pos, text)


# ==================================================================== the tree
@dataclass(frozen=True)
class Node:
    pos: int | None = field(default=None, compare=False, repr=False, kw_only=True)

    def children(self) -> tuple["Node", ...]:
        return tuple(getattr(self, f.name) for f in fields(self) if isinstance(getattr(self, f.name), Node))


@dataclass(frozen=True)
class Entity(Node):
    ref: str  # a label, or an IRI when is_iri
    is_iri: bool = False
    iri: str | None = None  # filled in by resolution against a KG


@dataclass(frozen=True)
class Literal(Node):
    value: str  # lexical form
    kind: str  # "integer" | "decimal" | "date"


@dataclass(frozen=True)
class Class(Node):
    name: str


@dataclass(frozen=True)
class Relation(Node):
    name: str


@dataclass(frozen=True)
class Reverse(Node):
    relation: Relation


@dataclass(frozen=True)
class Chain(Node):
    """Two relations followed in turn: the path of a superlative, `(JOIN r1 r2)`."""

    first: "RelExpr"
    second: "RelExpr"


@dataclass(frozen=True)
class Join(Node):
    relation: "RelExpr"
    arg: "SetExpr"


@dataclass(frozen=True)
class And(Node):
    left: "SetExpr"
    right: "SetExpr"


@dataclass(frozen=True)
class Count(Node):
    arg: "SetExpr"


@dataclass(frozen=True)
class Superlative(Node):
    op: str  # "ARGMAX" | "ARGMIN"
    arg: "SetExpr"
    path: "RelExpr"


@dataclass(frozen=True)
class Compare(Node):
    op: str  # "lt" | "le" | "gt" | "ge"
    relation: "RelExpr"
    value: Literal


RelExpr = Union[Relation, Reverse, Chain]
SetExpr = Union[Entity, Literal, Class, Join, And, Superlative, Compare]
Program = Union[SetExpr, Count]
COMPARATIVES = ("lt", "le", "gt", "ge")
SUPERLATIVES = ("ARGMAX", "ARGMIN")


# ==================================================================== parsing
_TOKEN = re.compile(
    r"""\s*(?:
        (?P<open>\() | (?P<close>\)) |
        (?P<string>"(?:[^"\\]|\\.)*") |
        (?P<unterminated>"(?:[^"\\]|\\.)*$) |
        (?P<iri><[^<>"{}|^`\\\s]*>) |
        (?P<atom>[^\s()"]+)
    )""",
    re.VERBOSE,
)
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_INTEGER = re.compile(r"[+-]?\d+")
_DECIMAL = re.compile(r"[+-]?(\d+\.\d*|\.\d+)([eE][+-]?\d+)?")


@dataclass(frozen=True)
class _Tok:
    kind: str
    text: str
    pos: int


def _tokenize(text: str) -> list[_Tok]:
    tokens, i = [], 0
    while i < len(text):
        m = _TOKEN.match(text, i)
        if not m or m.end() == i:
            if text[i:].strip() == "":
                break
            raise ProgramError(f"unexpected character {text[i]!r}", i)
        kind = m.lastgroup
        start = m.start(kind)
        if kind == "unterminated":
            raise ProgramError("unterminated string", start)
        tokens.append(_Tok(kind, m.group(kind), start))
        i = m.end()
    return tokens


def parse(text: str) -> Program:
    """Parse one program; raise ProgramError that names the position on any problem."""
    if not text.strip():
        raise ProgramError("the program is empty")
    try:
        parser = _Parser(_tokenize(text), len(text))
        program = parser.program()
        if parser.i < len(parser.tokens):
            tok = parser.tokens[parser.i]
            problem = "unbalanced parentheses: extra ')'" if tok.kind == "close" else "text after the end of the program"
            raise ProgramError(problem, tok.pos)
        return program
    except ProgramError as err:
        raise err.with_text(text) from None


class _Parser:
    def __init__(self, tokens: list[_Tok], end: int):
        self.tokens, self.i, self.end = tokens, 0, end

    def _next(self, expecting: str) -> _Tok:
        if self.i >= len(self.tokens):
            raise ProgramError(f"unbalanced parentheses: program ended while expecting {expecting}", self.end)
        tok = self.tokens[self.i]
        self.i += 1
        return tok

    def _close(self, op: _Tok, arity: int) -> None:
        tok = self._next("')'")
        if tok.kind != "close":
            raise ProgramError(f"{op.text} takes {arity} argument{'s' * (arity > 1)}; found more", tok.pos)

    def _operator(self) -> _Tok:
        op = self._next("an operator")
        if op.kind != "atom":
            raise ProgramError("expected an operator after '('", op.pos)
        return op

    def _peek_close(self, op: _Tok, arity: int, got: int) -> None:
        if self.i < len(self.tokens) and self.tokens[self.i].kind == "close":
            raise ProgramError(f"{op.text} takes {arity} arguments; found {got}", self.tokens[self.i].pos)

    def program(self) -> Program:
        if self.i < len(self.tokens) and self.tokens[self.i].kind == "open":
            save = self.i
            self.i += 1
            op = self._operator()
            if op.text.upper() == "COUNT":
                self._peek_close(op, 1, 0)
                node = Count(self.set_expr(), pos=op.pos)
                self._close(op, 1)
                return node
            self.i = save
        return self.set_expr()

    def set_expr(self) -> SetExpr:
        tok = self._next("a set: an entity, a class or a program")
        if tok.kind == "string":
            return Entity(_unquote(tok.text), pos=tok.pos)
        if tok.kind == "iri":
            return Entity(tok.text[1:-1], is_iri=True, pos=tok.pos)
        if tok.kind == "close":
            raise ProgramError("unbalanced parentheses: unexpected ')'", tok.pos)
        if tok.kind == "atom":
            literal = _literal(tok)
            return literal if literal else Class(tok.text, pos=tok.pos)
        op = self._operator()
        name = op.text.upper() if op.text.upper() in ("JOIN", "AND", "COUNT", *SUPERLATIVES) else op.text
        if name == "JOIN":
            self._peek_close(op, 2, 0)
            rel = self.rel_expr()
            self._peek_close(op, 2, 1)
            node: SetExpr = Join(rel, self.set_expr(), pos=op.pos)
        elif name == "AND":
            self._peek_close(op, 2, 0)
            left = self.set_expr()
            self._peek_close(op, 2, 1)
            node = And(left, self.set_expr(), pos=op.pos)
        elif name in SUPERLATIVES:
            self._peek_close(op, 2, 0)
            arg = self.set_expr()
            self._peek_close(op, 2, 1)
            node = Superlative(name, arg, self.rel_expr(allow_chain=True), pos=op.pos)
        elif name in COMPARATIVES:
            self._peek_close(op, 2, 0)
            rel = self.rel_expr(allow_chain=True)
            self._peek_close(op, 2, 1)
            value = self._next("a number or date")
            literal = _literal(value) if value.kind == "atom" else None
            if literal is None:
                raise ProgramError(f"{name} compares with a number or date, not {value.text!r}", value.pos)
            node = Compare(name, rel, literal, pos=op.pos)
        elif name == "COUNT":
            raise ProgramError("COUNT may only be the outermost operator", op.pos)
        elif name == "R":
            raise ProgramError("(R ...) is a relation; a set belongs here", op.pos)
        else:
            raise ProgramError(f"unknown operator {op.text!r}", op.pos)
        self._close(op, 2)
        return node

    def rel_expr(self, allow_chain: bool = False) -> RelExpr:
        tok = self._next("a relation")
        if tok.kind == "atom":
            if _literal(tok):
                raise ProgramError(f"expected a relation, found the value {tok.text}", tok.pos)
            return Relation(tok.text, pos=tok.pos)
        if tok.kind == "iri":
            return Relation(tok.text[1:-1], pos=tok.pos)
        if tok.kind != "open":
            raise ProgramError(f"expected a relation, found {tok.text}", tok.pos)
        op = self._operator()
        if op.text.upper() == "R":
            self._peek_close(op, 1, 0)
            inner = self.rel_expr()
            if not isinstance(inner, Relation):
                raise ProgramError("R takes a single relation", inner.pos)
            self._close(op, 1)
            return Reverse(inner, pos=op.pos)
        if op.text.upper() == "JOIN" and allow_chain:
            first = self.rel_expr(allow_chain=True)
            second = self.rel_expr(allow_chain=True)
            self._close(op, 2)
            return Chain(first, second, pos=op.pos)
        raise ProgramError(f"expected a relation, found ({op.text} ...)", op.pos)


def _literal(tok: _Tok) -> Literal | None:
    text = tok.text
    if _DATE.fullmatch(text):
        return Literal(text, "date", pos=tok.pos)
    if _INTEGER.fullmatch(text):
        return Literal(text, "integer", pos=tok.pos)
    if _DECIMAL.fullmatch(text):
        return Literal(text, "decimal", pos=tok.pos)
    return None


def _unquote(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text[1:-1])


# ==================================================================== printing
def to_text(node: Node) -> str:
    """The canonical one-line form; `parse(to_text(p)) == p`."""
    printer = _PRINT.get(type(node))
    if printer is None:
        raise TypeError(f"not a program node: {node!r}")
    return printer(node)


def quote_label(label: str) -> str:
    return '"' + label.replace("\\", "\\\\").replace('"', '\\"') + '"'


_PRINT: dict[type, Callable[[Node], str]] = {
    Entity: lambda n: f"<{n.ref}>" if n.is_iri else quote_label(n.ref),
    Literal: lambda n: n.value,
    Class: lambda n: n.name,
    Relation: lambda n: f"<{n.name}>" if ":" in n.name else n.name,
    Reverse: lambda n: f"(R {to_text(n.relation)})",
    Chain: lambda n: f"(JOIN {to_text(n.first)} {to_text(n.second)})",
    Join: lambda n: f"(JOIN {to_text(n.relation)} {to_text(n.arg)})",
    And: lambda n: f"(AND {to_text(n.left)} {to_text(n.right)})",
    Count: lambda n: f"(COUNT {to_text(n.arg)})",
    Superlative: lambda n: f"({n.op} {to_text(n.arg)} {to_text(n.path)})",
    Compare: lambda n: f"({n.op} {to_text(n.relation)} {to_text(n.value)})",
}


def pretty(node: Node, indent: int = 0, width: int = 60) -> str:
    """Multi-line form for people: a node that fits on one line stays on one line."""
    flat = to_text(node)
    if len(flat) + indent <= width or not isinstance(node, (Join, And, Count, Superlative, Compare)):
        return flat
    head = {Join: "JOIN", And: "AND", Count: "COUNT"}.get(type(node), getattr(node, "op", ""))
    pad = " " * (indent + 2)
    parts = [pretty(c, indent + 2, width) for c in node.children()]
    return f"({head}\n" + "\n".join(pad + p for p in parts) + ")"


# ==================================================================== tree helpers
def walk(node: Node) -> Iterator[Node]:
    """Every node, children before parents (bottom-up)."""
    for child in node.children():
        yield from walk(child)
    yield node


def transform(node: Node, fn: Callable[[Node], Node]) -> Node:
    """Rebuild the tree bottom-up, applying `fn` to every node after its children."""
    changes = {
        f.name: transform(getattr(node, f.name), fn)
        for f in fields(node)
        if isinstance(getattr(node, f.name), Node)
    }
    return fn(replace(node, **changes) if changes else node)


def entities(node: Node) -> list[Entity]:
    return [n for n in walk(node) if isinstance(n, Entity)]


def relations(node: Node) -> list[Relation]:
    return [n for n in walk(node) if isinstance(n, Relation)]


def subprograms(node: Program) -> list[Program]:
    """The bottom-up decomposition: every complete sub-program, innermost first."""
    return [n for n in walk(node) if isinstance(n, (Join, And, Count, Superlative, Compare))]


def anonymise(node: Program, class_of: Callable[[Entity], str]) -> Program:
    """Replace each entity by its class, so that questions about different films look alike."""
    return transform(node, lambda n: Class(class_of(n), pos=n.pos) if isinstance(n, Entity) else n)


def pattern(node: Program) -> str:
    """The shape of a program: `(COUNT (AND #C (JOIN #r #e)))`."""
    placeholders: dict[type, Callable[[Node], Node]] = {
        Entity: lambda n: Class("#e"),
        Literal: lambda n: Class("#v"),
        Class: lambda n: Class("#C") if not n.name.startswith("#") else n,
        Relation: lambda n: Relation("#r"),
    }
    return to_text(transform(node, lambda n: placeholders.get(type(n), lambda m: m)(n)))
