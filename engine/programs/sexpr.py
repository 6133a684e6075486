"""Programs as s-expressions: one small tree, a parser, a printer, and tree helpers.

The language (method.md, README "Programs"): JOIN, R, AND, COUNT, ARGMAX/ARGMIN with
chained relations, the comparatives lt/le/gt/ge, and the operators that widen it: NOT
(only inside AND), OR, IN, SUM and AVG, `(COUNT r S)` as a superlative's measure, and an
entity in place of a comparative's number. A bare symbol is read by its position: a
relation where a relation belongs, a class where a set belongs. Entities are written by
label in double quotes or by IRI in angle brackets; literals are bare numbers or dates.

It is longer than 400 lines because the tree, its parser and its printer change together
whenever an operator is added: one file to read, in the order a program flows through.

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
    kind: str  # "integer" | "decimal" | "date" | "boolean"


# Whole numbers read as calendar years, as the linker reads them (engine.answer.mentions).
YEARS = range(1000, 2101)


def calendar_year(node: Node) -> int | None:
    """The year a whole-number literal names, where it can name one: "hired after 2020" compares a date's year."""
    if isinstance(node, Literal) and node.kind == "integer" and node.value.lstrip("+-").isdigit():
        year = int(node.value)
        return year if year in YEARS else None
    return None


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
    """`(gt r 5)`: the subjects whose r value is greater than 5; `(gt (COUNT r) 2)`: those with more than two
    r-neighbours ("clients with more than two projects")."""

    op: str  # "lt" | "le" | "gt" | "ge"
    relation: "RelExpr | Degree"
    value: Literal | Entity  # an entity compares with that entity's own value of the relation


@dataclass(frozen=True)
class Not(Node):
    """The complement of a set, within the other operand of an AND (the validator keeps it there)."""

    arg: "SetExpr"


@dataclass(frozen=True)
class Or(Node):
    """A union. Entities written as its operands are members, so they may be answers."""

    left: "SetExpr"
    right: "SetExpr"


@dataclass(frozen=True)
class Degree(Node):
    """`(COUNT r)` or `(COUNT r S)` as a superlative's or comparison's measure: each member's r-neighbours (in S)."""

    relation: "RelExpr"
    arg: "SetExpr | None" = None


@dataclass(frozen=True)
class In(Node):
    """Yes/no: whether `member` belongs to the set. Outermost only, like COUNT."""

    member: Entity | Literal
    arg: "SetExpr"


@dataclass(frozen=True)
class Aggregate(Node):
    """The total or mean of the members' numeric values of `path`. Outermost only, like COUNT."""

    op: str  # "SUM" | "AVG"
    arg: "SetExpr"
    path: "RelExpr"


RelExpr = Union[Relation, Reverse, Chain]
SetExpr = Union[Entity, Literal, Class, Join, And, Or, Not, Superlative, Compare]
Program = Union[SetExpr, Count, In, Aggregate]
COMPARATIVES = ("lt", "le", "gt", "ge")
SUPERLATIVES = ("ARGMAX", "ARGMIN")
AGGREGATES = ("SUM", "AVG")


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
_IRI_BODY = re.compile(r'[^<>"{}|^`\\\s]*')
MAX_DEPTH = 100  # parentheses a program may nest; real ones nest a dozen, and the parser recurses
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_INTEGER = re.compile(r"[+-]?\d+")
_DECIMAL = re.compile(r"[+-]?(\d+\.\d*|\.\d+)([eE][+-]?\d+)?")
BOOLEANS = ("true", "false")  # xsd:boolean's canonical forms, written bare: (JOIN active true)


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
        tokens = _tokenize(text)
        _check_depth(tokens)
        parser = _Parser(tokens, len(text))
        program = parser.program()
        if parser.i < len(parser.tokens):
            tok = parser.tokens[parser.i]
            problem = "unbalanced parentheses: extra ')'" if tok.kind == "close" else "text after the end of the program"
            raise ProgramError(problem, tok.pos)
        return program
    except ProgramError as err:
        raise err.with_text(text) from None


def _check_depth(tokens: list[_Tok]) -> None:
    """Refuse deep nesting before the recursive parser (and every tree walk after it) meets it."""
    depth = 0
    for tok in tokens:
        depth += (tok.kind == "open") - (tok.kind == "close")
        if depth > MAX_DEPTH:
            raise ProgramError(f"the program nests deeper than {MAX_DEPTH} parentheses", tok.pos)


class _Parser:
    """Recursive descent; each operator's arguments are read by the entry for it in `_SET_OPS`/`_OUTERMOST_OPS`."""

    def __init__(self, tokens: list[_Tok], end: int):
        self.tokens, self.i, self.end = tokens, 0, end

    def _next(self, expecting: str) -> _Tok:
        if self.i >= len(self.tokens):
            raise ProgramError(f"unbalanced parentheses: program ended while expecting {expecting}", self.end)
        tok = self.tokens[self.i]
        self.i += 1
        return tok

    def _at(self, kind: str, offset: int = 0) -> bool:
        return self.i + offset < len(self.tokens) and self.tokens[self.i + offset].kind == kind

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
        if self._at("close"):
            plural = "s" * (arity > 1)
            raise ProgramError(f"{op.text} takes {arity} argument{plural}; found {got}", self.tokens[self.i].pos)

    def _args(self, op: _Tok, *readers: "_Reader") -> list:
        """One argument per reader, then ')'; a missing or extra argument is named against the operator."""
        args = []
        for got, read in enumerate(readers):
            self._peek_close(op, len(readers), got)
            args.append(read(self, op))
        self._close(op, len(readers))
        return args

    def program(self) -> Program:
        if self._at("open") and self._at("atom", 1):
            read = _OUTERMOST_OPS.get(self.tokens[self.i + 1].text.upper())
            if read is not None:
                self.i += 2
                return read(self, self.tokens[self.i - 1])
        return self.set_expr()

    def set_expr(self) -> SetExpr:
        tok = self._next("a set: an entity, a class or a program")
        if tok.kind in ("string", "iri"):
            return _entity(tok)
        if tok.kind == "close":
            raise ProgramError("unbalanced parentheses: unexpected ')'", tok.pos)
        if tok.kind == "atom":
            literal = _literal(tok)
            return literal if literal else Class(tok.text, pos=tok.pos)
        op = self._operator()
        upper = op.text.upper()
        if upper in _OUTERMOST_OPS:
            raise ProgramError(f"{upper} may only be the outermost operator", op.pos)
        if upper == "R":
            raise ProgramError("(R ...) is a relation; a set belongs here", op.pos)
        read = _SET_OPS.get(upper) or _SET_OPS.get(op.text)  # comparatives are lower case only
        if read is None:
            raise ProgramError(f"unknown operator {op.text!r}", op.pos)
        return read(self, op)

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

    def measure(self, op: _Tok) -> RelExpr | Degree:
        """A superlative's or comparison's measure: a relation path, or `(COUNT r)` / `(COUNT r S)`."""
        if self._at("open") and self._at("atom", 1) and self.tokens[self.i + 1].text.upper() == "COUNT":
            self.i += 2
            count = self.tokens[self.i - 1]
            usage = "a measure's COUNT takes a relation and may take a set: (COUNT r) or (COUNT r S)"
            if self._at("close"):
                raise ProgramError(usage, self.tokens[self.i].pos)
            relation = self.rel_expr()
            arg = None if self._at("close") else self.set_expr()
            if not self._at("close"):
                raise ProgramError(usage, self.tokens[self.i].pos if self.i < len(self.tokens) else self.end)
            self.i += 1
            return Degree(relation, arg, pos=count.pos)
        return self.rel_expr(allow_chain=True)

    def compared(self, op: _Tok) -> Literal | Entity:
        """What a comparative compares with: a number, a date, or an entity (whose own value is used)."""
        tok = self._next("a number, a date or an entity")
        if tok.kind in ("string", "iri"):
            return _entity(tok)
        literal = _literal(tok) if tok.kind == "atom" else None
        if literal is None:
            raise ProgramError(f"{op.text} compares with a number, a date or an entity, not {tok.text!r}", tok.pos)
        return literal

    def constant(self, op: _Tok) -> Entity | Literal:
        """IN's first argument: the one entity (or value) asked about."""
        tok = self._next("an entity")
        if tok.kind in ("string", "iri"):
            return _entity(tok)
        literal = _literal(tok) if tok.kind == "atom" else None
        if literal is None:
            raise ProgramError(f'{op.text} asks about one entity, such as "Austria"; found {tok.text!r}', tok.pos)
        return literal


_Reader = Callable[[_Parser, _Tok], Node]  # reads one argument of the operator `_Tok`


def _node(make: Callable[..., Node], *readers: _Reader) -> Callable[[_Parser, _Tok], Node]:
    """The parser of one operator: read its arguments in turn, then build the node from them."""
    return lambda parser, op: make(op, *parser._args(op, *readers))


def _set(p: _Parser, op: _Tok) -> Node:
    return p.set_expr()


def _rel(p: _Parser, op: _Tok) -> Node:
    return p.rel_expr()


def _path(p: _Parser, op: _Tok) -> Node:
    return p.rel_expr(allow_chain=True)


_SET_OPS: dict[str, Callable[[_Parser, _Tok], Node]] = {
    "JOIN": _node(lambda op, r, s: Join(r, s, pos=op.pos), _rel, _set),
    "AND": _node(lambda op, a, b: And(a, b, pos=op.pos), _set, _set),
    "OR": _node(lambda op, a, b: Or(a, b, pos=op.pos), _set, _set),
    "NOT": _node(lambda op, a: Not(a, pos=op.pos), _set),
    **dict.fromkeys(
        SUPERLATIVES, _node(lambda op, s, m: Superlative(op.text.upper(), s, m, pos=op.pos), _set, _Parser.measure)
    ),
    **dict.fromkeys(COMPARATIVES, _node(lambda op, r, v: Compare(op.text, r, v, pos=op.pos), _Parser.measure,
                                        _Parser.compared)),
}
_OUTERMOST_OPS: dict[str, Callable[[_Parser, _Tok], Node]] = {
    "COUNT": _node(lambda op, s: Count(s, pos=op.pos), _set),
    "IN": _node(lambda op, e, s: In(e, s, pos=op.pos), _Parser.constant, _set),
    **dict.fromkeys(AGGREGATES, _node(lambda op, s, r: Aggregate(op.text.upper(), s, r, pos=op.pos), _set, _path)),
}


def _entity(tok: _Tok) -> Entity:
    if tok.kind == "iri":
        return Entity(tok.text[1:-1], is_iri=True, pos=tok.pos)
    return Entity(_unquote(tok.text), pos=tok.pos)


def _literal(tok: _Tok) -> Literal | None:
    text = tok.text
    if _DATE.fullmatch(text):
        return Literal(text, "date", pos=tok.pos)
    if _INTEGER.fullmatch(text):
        return Literal(text, "integer", pos=tok.pos)
    if _DECIMAL.fullmatch(text):
        return Literal(text, "decimal", pos=tok.pos)
    if text in BOOLEANS:
        return Literal(text, "boolean", pos=tok.pos)
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


def _relation_text(name: str) -> str:
    """A relation's name as it parses back: `<ex:p>` for a prefixed name or an IRI, else bare. A name
    typed bare that holds what an IRI may not (`a:b>`) stays bare, as it was typed."""
    iri_ok = _IRI_BODY.fullmatch(name) is not None
    if iri_ok and (":" in name or not _is_bare(name)):
        return f"<{name}>"
    return name


def _is_bare(name: str) -> bool:
    """Whether the name reads back, unquoted, as this one relation name (one atom, not a number)."""
    try:
        tokens = _tokenize(name)
    except ProgramError:
        return False
    return len(tokens) == 1 and tokens[0].kind == "atom" and tokens[0].text == name and _literal(tokens[0]) is None


# The head each operator is written with; Superlative, Compare and Aggregate write their `op`.
_HEAD: dict[type, str] = {
    Reverse: "R", Chain: "JOIN", Join: "JOIN", And: "AND", Or: "OR", Not: "NOT",
    Count: "COUNT", Degree: "COUNT", In: "IN", Superlative: "", Compare: "", Aggregate: "",
}


def _head(node: Node) -> str:
    return _HEAD[type(node)] or node.op


def _operator_text(node: Node) -> str:
    """`(HEAD child ...)`: every operator prints its children in field order."""
    return f"({_head(node)} {' '.join(to_text(c) for c in node.children())})"


_PRINT: dict[type, Callable[[Node], str]] = {
    Entity: lambda n: f"<{n.ref}>" if n.is_iri else quote_label(n.ref),
    Literal: lambda n: n.value,
    Class: lambda n: n.name,
    Relation: lambda n: _relation_text(n.name),
    **dict.fromkeys(_HEAD, _operator_text),
}


def pretty(node: Node, indent: int = 0, width: int = 60) -> str:
    """Multi-line form for people: a node that fits on one line stays on one line, and so do relations."""
    flat = to_text(node)
    if len(flat) + indent <= width or type(node) not in _HEAD or isinstance(node, (Reverse, Chain)):
        return flat
    pad = " " * (indent + 2)
    parts = [pretty(c, indent + 2, width) for c in node.children()]
    return f"({_head(node)}\n" + "\n".join(pad + p for p in parts) + ")"


# ==================================================================== tree helpers
def is_set(program: Program) -> bool:
    """Whether a program answers with a set, which other programs may build on (not COUNT, IN, SUM, AVG)."""
    return not isinstance(program, (Count, In, Aggregate))


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


def relation_name(rel: Relation | Reverse) -> str:
    """The relation walked, either way round."""
    return rel.relation.name if isinstance(rel, Reverse) else rel.name


def members(node: Node) -> list[Entity]:
    """Entities written as members of the answer rather than as anchors: the operands of OR and the
    entity IN asks about. They may be answers (`(ARGMAX (OR "Brazil" "Argentina") area)`); other
    entities never are (see to_sparql)."""
    found = []
    for n in walk(node):
        if isinstance(n, Or):
            found += [c for c in (n.left, n.right) if isinstance(c, Entity)]
        elif isinstance(n, In) and isinstance(n.member, Entity):
            found.append(n.member)
    return found


# Operators that make a complete program on their own; NOT and `(COUNT r)` only exist inside another.
_SUBPROGRAMS = (Join, And, Or, Superlative, Compare, Count, In, Aggregate)


def subprograms(node: Program) -> list[Program]:
    """The bottom-up decomposition: every complete sub-program, innermost first."""
    return [n for n in walk(node) if isinstance(n, _SUBPROGRAMS)]


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
