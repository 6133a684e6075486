"""Exploration: random walks over a KG that yield diverse, executable programs.

A walk starts at a random member of a random class and follows real edges of the
data, choosing each time a schema relation (forward or reverse) that fits the
current node's class. Walking the data rather than the bare schema grounds the
program as it is drawn: the start entity is always an answer, so nothing empty is
ever produced. The walked tree is then read as a program rooted at the start node:
leaves become entities or literals, inner nodes stay variables, and a node with
several branches becomes an AND. With probability `join_back_p` a step attaches to
an earlier node instead of the newest one, which is what makes the ANDs.

Diversity: a program is never kept twice, and at most `per_pattern` programs share
one anonymised form (entities replaced by their class). Relations are kept in that
form on purpose: replacing them too (as the retrieval pattern does) would allow
only a few dozen programs on a KG with nine relations.

The module is a little longer than 400 lines, and stays one: walking the data, reading the walk
as a program and giving it a function (COUNT, a superlative, a comparison with a value drawn from
the data) share the walk's state, and split apart they would pass it back and forth.
"""

from __future__ import annotations

import math
import random
import re
from collections import Counter
from dataclasses import dataclass, field, fields, replace
from typing import Callable, Iterator

from engine.programs.executor import Execution
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
    Program,
    Relation,
    Reverse,
    SetExpr,
    Superlative,
    anonymise,
    is_set,
    pattern,
    subprograms,
    to_text,
    walk,
)
from engine.programs.to_sparql import class_sample, iri, string
from engine.programs.validate import NUMERIC_KINDS
from kg_adapters.base import KGError, Term
from kg_adapters.schema import OBJECT, SUBJECT, ClassInfo, RelationInfo
from kg_adapters.unions import without_unions

_LITERAL_SYNTAX = {
    "integer": re.compile(r"[+-]?\d+"),
    "decimal": re.compile(r"[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?"),
    "date": re.compile(r"\d{4}-\d{2}-\d{2}"),
    "boolean": re.compile(r"true|false"),
}


@dataclass(frozen=True)
class ExploreConfig:
    max_relations: int = 4
    per_pattern: int = 5
    join_back_p: float = 0.5
    function_p: float = 0.5  # chance to apply COUNT, a superlative or a comparative
    # Of those functions, the share given to the operators of issue 13 (negation, yes/no, a ranking by a count,
    # a comparison with an entity, a choice between two, a sum or an average), so that the corpus holds
    # exemplars of each. Not tuned: a quarter, so the shapes people ask most still dominate.
    new_ops_share: float = 0.25
    max_answers: int = 500  # programs with more answers make poor questions
    neighbours: int = 200  # edges fetched per step to choose from
    members: int = 20_000  # class members fetched once to start walks from
    # A class of more members is not listed (every member with its label, sorted) but sampled: the first `members`
    # the store gives, labelled as walks reach them. Above the rows one query keeps (ScoutConfig.max_answers), so
    # no listing that was whole before is sampled now.
    sample_above: int = 100_000


@dataclass(frozen=True)
class ExploredProgram:
    program: str  # the s-expression, entities by label
    anonymised: str  # entities replaced by their class
    pattern: str  # classes, relations and entities replaced too
    subprograms: tuple[str, ...]  # bottom-up decomposition, innermost first
    answers: int
    entities: tuple[tuple[str, str, str], ...]  # (label, IRI, class name)


@dataclass
class _Node:
    cls: ClassInfo
    value: Term
    label: str


@dataclass
class _Walk:
    nodes: list[_Node] = field(default_factory=list)
    edges: list[tuple[int, RelationInfo, int]] = field(default_factory=list)  # (subject node, relation, object node)


class Explorer:
    """Draws programs from one KG; seeded and reproducible for a given KG and seed."""

    def __init__(self, kg: KnowledgeGraph, config: ExploreConfig = ExploreConfig(), seed: int = 0):
        # walks go over the triples' relations: a union (kg_adapters.unions) is walked as one of its members
        self.kg, self.schema, self.config = kg, without_unions(kg.schema), config
        self.rng = random.Random(seed)
        self._members: dict[str, list[Term]] = {}
        self._labels: dict[str, str] = {}
        self._unlabelled: set[str] = set()  # sampled members whose labels are read when a walk reaches them
        self.seen: set[str] = set()
        self.per_pattern: Counter[str] = Counter()
        self._named: dict[str, str] = {}  # label -> class of entities a function brought in (not walked to)
        # Years and dates can be answers too ("when was X released?"), so walks may start there.
        self.start_classes = [
            c for c in self.schema.classes
            if c.kind in ("entity", "year", "date") and c.size > 0 and self._edges_from(c)
        ]

    # ------------------------------------------------------------ public
    def explore(
        self, budget: int, max_attempts: int | None = None, on_attempt: Callable[[int, int], None] | None = None
    ) -> Iterator[ExploredProgram]:
        """Yield up to `budget` new programs; stop early when attempts run out."""
        if not self.start_classes:
            return
        found, attempts = 0, 0
        limit = max_attempts if max_attempts is not None else 30 * budget + 100
        while found < budget and attempts < limit:
            attempts += 1
            program = self.sample()
            if program is not None:
                found += 1
                yield program
            if on_attempt:
                on_attempt(attempts, found)

    def remember(self, explored: ExploredProgram) -> None:
        """Count a program drawn in an earlier run, so a resumed run stays diverse."""
        self.seen.add(explored.program)
        self.per_pattern[explored.anonymised] += 1

    def sample(self) -> ExploredProgram | None:
        """One walk; None when it led nowhere new."""
        self._named = {}
        try:
            walk_ = self._walk(self.rng.randint(1, self.config.max_relations))
            if walk_ is None:
                return None
            program = self._with_function(self._read(walk_, 0, None), walk_.nodes[0].cls)
            result = self._execute(program)
            if result is None:
                return None
            program, result = self._drop_idle_branches(program, result)
            return self._keep(program, result, walk_)
        except KGError:
            return None  # a timeout or store hiccup spoils one walk, not the exploration

    # ------------------------------------------------------------ walking
    def _walk(self, n_relations: int) -> _Walk | None:
        # Weighted by log size: a 3-member class still gets walks, but not one in seven.
        weights = [math.log2(c.size + 1) for c in self.start_classes]
        cls = self.rng.choices(self.start_classes, weights)[0]
        members = self._class_members(cls)
        if not members:
            return None
        start = self.rng.choice(members)
        walk_ = _Walk([_Node(cls, start, self._label(start))])
        for step in range(n_relations):
            entity_nodes = [i for i, n in enumerate(walk_.nodes) if not n.cls.is_literal or i == 0]
            joins_back = step > 0 and self.rng.random() < self.config.join_back_p
            at = self.rng.choice(entity_nodes) if joins_back else entity_nodes[-1]
            if not self._extend(walk_, at):
                break
        return walk_ if walk_.edges else None

    def _extend(self, walk_: _Walk, at: int) -> bool:
        node = walk_.nodes[at]
        options = self._edges_from(node.cls)
        self.rng.shuffle(options)
        used = {n.value for n in walk_.nodes}
        for relation, side in options:
            neighbours = [t for t in self._neighbours(node.value, relation, side) if t not in used]
            target_cls = self._class_named(relation.range if side == SUBJECT else relation.domain)
            neighbours = [t for t in neighbours if _fits(t, target_cls)]
            if not neighbours or target_cls is None:
                continue
            value = self.rng.choice(neighbours)
            walk_.nodes.append(_Node(target_cls, value, self._label(value)))
            new = len(walk_.nodes) - 1
            walk_.edges.append((at, relation, new) if side == SUBJECT else (new, relation, at))
            return True
        return False

    def _edges_from(self, cls: ClassInfo) -> list[tuple[RelationInfo, str]]:
        """Relations a node of this class can be followed along, and the side it is on."""
        options = []
        for relation in self.schema.relations:
            if cls.name in relation.domain and not cls.is_literal and self._walkable(relation.range):
                options.append((relation, SUBJECT))
            if cls.name in relation.range and self._walkable(relation.domain):
                options.append((relation, OBJECT))
        return options

    def _walkable(self, class_names: tuple[str, ...]) -> bool:
        """Entities, years, dates and yes/no values ("projects that are active"); other numbers only make sense
        compared or ranked, not matched exactly ("cities with latitude 37.4614" is no question anyone asks)."""
        cls = self._class_named(class_names)
        return cls is not None and cls.kind in ("entity", "year", "date", "boolean")

    def _class_named(self, names: tuple[str, ...]) -> ClassInfo | None:
        return self.schema.class_(names[0]) if names else None

    # ------------------------------------------------------------ reading the walk as a program
    def _read(self, walk_: _Walk, at: int, parent: int | None) -> SetExpr:
        node = walk_.nodes[at]
        branches: list[SetExpr] = []
        for subject, relation, obj in walk_.edges:
            if at == subject and obj != parent:
                branches.append(Join(Relation(relation.name), self._read(walk_, obj, at)))
            elif at == obj and subject != parent:
                branches.append(Join(Reverse(Relation(relation.name)), self._read(walk_, subject, at)))
        if parent is not None and not branches:
            return self._leaf(node)
        program = branches[-1]
        for branch in reversed(branches[:-1]):
            program = And(branch, program)
        return program

    def _leaf(self, node: _Node) -> SetExpr:
        if node.cls.is_literal:
            return Literal(node.value.value, _literal_kind(node.cls))
        return Entity(node.label, iri=node.value.value)

    # ------------------------------------------------------------ functions
    def _with_function(self, program: SetExpr, cls: ClassInfo) -> Program:
        if self.rng.random() >= self.config.function_p:
            return program
        if self.rng.random() < self.config.new_ops_share:
            made = self.rng.choice(_NEW_OPS)(self, program, cls)
            if made is not None:
                return made
        choice = self.rng.choice(["count", "superlative", "comparative"])
        if choice == "count":
            return Count(program)
        numeric = self._numeric_paths(cls)
        if not numeric:
            return Count(program)
        path = self.rng.choice(numeric)
        if choice == "superlative":
            return Superlative(self.rng.choice(["ARGMAX", "ARGMIN"]), program, path)
        if not isinstance(path, Relation):
            return Superlative(self.rng.choice(["ARGMAX", "ARGMIN"]), program, path)
        value = self._sample_value(program, path)
        if value is None:
            return program
        return And(program, Compare(self.rng.choice(["lt", "le", "gt", "ge"]), path, value))

    # One maker per new operator: each returns None where the walk gives it nothing to work with.
    def _negation(self, program: SetExpr, cls: ClassInfo) -> Program | None:
        """(AND S (NOT (JOIN r e))): e is a neighbour of one member, so the NOT removes something."""
        member = self._member_of(program)
        options = [o for o in self._edges_from(cls) if self._walkable(_far_end(*o))] if member else []
        if not options:
            return None
        relation, side = self.rng.choice(options)
        neighbours = [t for t in self._neighbours(member, relation, side) if t.is_iri]
        if not neighbours:
            return None
        other = self.rng.choice(neighbours)
        rel = Relation(relation.name) if side == SUBJECT else Reverse(Relation(relation.name))
        self._named[self._label(other)] = _far_class(self.schema, relation, side).name
        return And(program, Not(Join(rel, Entity(self._label(other), iri=other.value))))

    def _degree(self, program: SetExpr, cls: ClassInfo) -> Program | None:
        """(ARGMAX S (COUNT r)): the member with the most (fewest) neighbours over an entity relation."""
        options = [o for o in self._edges_from(cls) if not _far_class(self.schema, *o).is_literal]
        members = self._size(program) or 0
        if not options or members < 2:
            return None
        relation, side = self.rng.choice(options)
        rel = Relation(relation.name) if side == SUBJECT else Reverse(Relation(relation.name))
        made = Superlative(self.rng.choice(["ARGMAX", "ARGMIN"]), program, Degree(rel))
        # Where every member has as many neighbours (a functional relation: one country per city), all tie
        # and "the city in the most countries" is every city: no question in it.
        return made if (self._size(made) or members) < members else None

    def _yes_no(self, program: SetExpr, cls: ClassInfo) -> Program | None:
        """(IN e S), with e a member (yes) or another of its class (no), half and half."""
        member = self._member_of(program) if self.rng.random() < 0.5 else None
        if member is None:
            members = self._class_members(cls)
            member = self.rng.choice(members) if members and not cls.is_literal else None
        if member is None:
            return None
        self._named[self._label(member)] = cls.name
        return In(Entity(self._label(member), iri=member.value), program)

    def _compare_entity(self, program: SetExpr, cls: ClassInfo) -> Program | None:
        """(AND S (gt r e)): compared with another entity's own value."""
        paths = [p for p in self._numeric_paths(cls) if isinstance(p, Relation)]
        holder = self._holder(cls, self.rng.choice(paths)) if paths else None
        if holder is None:
            return None
        path, entity = holder
        return And(program, Compare(self.rng.choice(["lt", "gt"]), path, entity))

    def _choose(self, program: SetExpr, cls: ClassInfo) -> Program | None:
        """(ARGMAX (OR a b) r): which of two named members has more. The walk's program is not used."""
        paths = [p for p in self._numeric_paths(cls) if isinstance(p, Relation)]
        path = self.rng.choice(paths) if paths else None
        first, second = (self._holder(cls, path) if path else None), (self._holder(cls, path) if path else None)
        if first is None or second is None or first[1] == second[1]:
            return None
        return Superlative(self.rng.choice(["ARGMAX", "ARGMIN"]), Or(first[1], second[1]), path)

    def _aggregate(self, program: SetExpr, cls: ClassInfo) -> Program | None:
        """(SUM S r) or (AVG S r) over a numeric relation of the set's members."""
        paths = [p for p in self._numeric_paths(cls) if isinstance(p, Relation)]
        if not paths or (self._size(program) or 0) < 2:
            return None
        return Aggregate(self.rng.choice(["SUM", "AVG"]), program, self.rng.choice(paths))

    def _member_of(self, program: SetExpr) -> Term | None:
        try:
            answers = [a for a in self.kg.executor.execute(program).answers if a.iri]
        except (KGError, ValueError):
            return None
        if not answers:
            return None
        pick = self.rng.choice(answers)
        self._labels[pick.iri] = pick.label
        return Term("iri", pick.iri)

    def _holder(self, cls: ClassInfo, path: Relation) -> tuple[Relation, Entity] | None:
        """A random member of the class that has a value of the relation, with its label."""
        info = self.schema.relation(path.name)
        sparql = (
            f"SELECT ?e (SAMPLE(?l) AS ?label) WHERE {{ ?e {iri(info.iri)} ?v FILTER(isIRI(?e)) "
            f"OPTIONAL {{ ?e <http://www.w3.org/2000/01/rdf-schema#label> ?l }} }} GROUP BY ?e ORDER BY ?e LIMIT {self.config.neighbours}"
        )
        try:
            rows = [(e, label) for e, label in self.kg.executor.select(sparql)[0].rows if e is not None]
        except (KGError, ValueError):
            return None
        if not rows:
            return None
        pick, label = self.rng.choice(rows)
        if label is not None:
            self._labels[pick.value] = label.value
        self._named[self._label(pick)] = cls.name
        return path, Entity(self._label(pick), iri=pick.value)

    def _numeric_paths(self, cls: ClassInfo) -> list[Relation | Chain]:
        """One- and two-hop paths from the class to a number or date."""
        direct, chains = [], []
        for relation in self.schema.relations:
            if cls.name not in relation.domain:
                continue
            if self.schema.literal_kind(relation) in NUMERIC_KINDS:
                direct.append(Relation(relation.name))
            elif self.schema.literal_kind(relation) == "entity":
                middle = relation.range[0] if relation.range else ""
                for second in self.schema.relations:
                    if middle in second.domain and self.schema.literal_kind(second) in NUMERIC_KINDS:
                        chains.append(Chain(Relation(relation.name), Relation(second.name)))
        return direct + chains

    def _sample_value(self, program: SetExpr, relation: Relation) -> Literal | None:
        """A value of the relation among the program's answers, so the comparison bites."""
        path = Join(Reverse(relation), program)
        try:
            values = self.kg.executor.execute(path).answers
        except (KGError, ValueError):
            return None
        info = self.schema.relation(relation.name)
        kind = _literal_kind(self.schema.class_(info.range[0])) if info and info.range else "integer"
        usable = [a.label for a in values if _LITERAL_SYNTAX[kind].fullmatch(a.label)]
        return Literal(self.rng.choice(usable), kind) if usable else None

    # ------------------------------------------------------------ checking and keeping
    def _size(self, program: Program) -> int | None:
        """How many answers, from a COUNT query: one row, however large the set."""
        try:
            counted = program if isinstance(program, Count) else Count(program)
            return self.kg.executor.execute(counted).count
        except (KGError, ValueError):
            return None

    def _execute(self, program: Program, expected_size: int | None = None) -> Execution | None:
        """The program's execution when it makes a usable question, else None.

        The size is counted first, so a walk that reached thirty thousand cities costs
        one COUNT, not thirty thousand rows with labels.
        """
        if is_set(program):
            size = self._size(program)
            if size is None or size > self.config.max_answers or (expected_size is not None and size != expected_size):
                return None
        try:
            result = self.kg.executor.execute(program)
        except (KGError, ValueError):
            return None
        size = result.count if result.count is not None else len(result.answers)
        if not size or result.truncated or (result.count is None and size > self.config.max_answers):
            return None
        if result.count == 1:  # "how many ..." with one answer reads as a trick question
            return None
        return result

    def _drop_idle_branches(self, program: Program, result: Execution) -> tuple[Program, Execution]:
        """Remove AND branches whose removal leaves the answers unchanged."""
        changed = True
        while changed:
            changed = False
            for node in walk(program):
                if not isinstance(node, And):
                    continue
                for keep in (node.left, node.right):
                    candidate = _replace_node(program, node, keep)
                    other = self._execute(candidate, expected_size=_size_of(result))
                    if other is not None and _same_answers(other, result):
                        program, result, changed = candidate, other, True
                        break
                if changed:
                    break
        return program, result

    def _keep(self, program: Program, result: Execution, walk_: _Walk) -> ExploredProgram | None:
        text = to_text(program)
        classes = {**self._named, **{n.label: n.cls.name for n in walk_.nodes}}
        anonymous = to_text(anonymise(program, lambda e: classes.get(e.ref, "thing")))
        if text in self.seen or self.per_pattern[anonymous] >= self.config.per_pattern:
            return None
        self.seen.add(text)
        self.per_pattern[anonymous] += 1
        entities = tuple(
            (n.ref, n.iri or n.ref, classes.get(n.ref, "thing")) for n in walk(program) if isinstance(n, Entity)
        )
        return ExploredProgram(
            program=text,
            anonymised=anonymous,
            pattern=pattern(program),
            subprograms=tuple(to_text(p) for p in subprograms(program)),
            answers=result.count if result.count is not None else len(result.answers),
            entities=entities,
        )

    # ------------------------------------------------------------ data access
    def _class_members(self, cls: ClassInfo) -> list[Term]:
        if cls.name not in self._members:
            try:
                self._members[cls.name] = self._literal_values(cls) if cls.is_literal else self._entities(cls)
            except (KGError, ValueError):
                self._members[cls.name] = []
        return self._members[cls.name]

    def _entities(self, cls: ClassInfo) -> list[Term]:
        if cls.size > self.config.sample_above:
            rows = self.kg.executor.select(class_sample(cls, self.config.members))[0].rows
            sampled = [Term("iri", x.value) for (x,) in rows if x is not None and x.kind == "iri"]
            self._unlabelled.update(t.value for t in sampled if t.value not in self._labels)
            return sampled
        result = self.kg.executor.execute(Class(cls.name))
        for a in result.answers:
            if a.iri:
                self._labels[a.iri] = a.label
        return [Term("iri", a.iri) for a in result.answers if a.iri][: self.config.members]

    def _literal_values(self, cls: ClassInfo) -> list[Term]:
        """The values the relations into a literal class hold (a year class: the years)."""
        values: set[Term] = set()
        for relation in self.schema.relations:
            if cls.name in relation.range:
                sparql = f"SELECT DISTINCT ?v WHERE {{ ?s {iri(relation.iri)} ?v }} LIMIT {self.config.members}"
                values |= {row[0] for row in self.kg.executor.select(sparql)[0].rows if row[0] is not None}
        return sorted((v for v in values if _fits(v, cls)), key=lambda t: t.value)

    def _neighbours(self, value: Term, relation: RelationInfo, side: str) -> list[Term]:
        term = string(value.value, value.datatype) if value.is_literal else iri(value.value)
        pattern_ = f"{term} <{relation.iri}> ?m" if side == SUBJECT else f"?m <{relation.iri}> {term}"
        sparql = (
            f"SELECT DISTINCT ?m (SAMPLE(?l) AS ?label) WHERE {{ {pattern_} . "
            f"OPTIONAL {{ ?m <http://www.w3.org/2000/01/rdf-schema#label> ?l }} }} GROUP BY ?m LIMIT {self.config.neighbours}"
        )
        rows = self.kg.executor.select(sparql)[0].rows
        for m, label in rows:
            if m is not None and label is not None:
                self._labels[m.value] = label.value
        return [m for m, _ in rows if m is not None and m.kind != "bnode"]

    def _label(self, term: Term) -> str:
        if term.value in self._unlabelled:
            self._unlabelled.discard(term.value)
            sparql = f"SELECT ?l WHERE {{ {iri(term.value)} <http://www.w3.org/2000/01/rdf-schema#label> ?l }} LIMIT 1"
            try:
                rows = self.kg.executor.select(sparql)[0].rows
            except (KGError, ValueError):
                rows = ()
            if rows and rows[0][0] is not None:
                self._labels[term.value] = rows[0][0].value
        return term.value if term.is_literal else self._labels.get(term.value, term.value.rsplit("/", 1)[-1])


_NEW_OPS: tuple[Callable[["Explorer", SetExpr, ClassInfo], Program | None], ...] = (
    Explorer._negation, Explorer._degree, Explorer._yes_no, Explorer._compare_entity, Explorer._choose,
    Explorer._aggregate,
)


def _far_end(relation: RelationInfo, side: str) -> tuple[str, ...]:
    """The classes at the other end of a relation followed from `side`."""
    return relation.range if side == SUBJECT else relation.domain


def _far_class(schema, relation: RelationInfo, side: str) -> ClassInfo:
    ends = _far_end(relation, side)
    cls = schema.class_(ends[0]) if ends else None
    return cls if cls is not None else ClassInfo("", "", "", kind="text")


def _fits(term: Term, cls: ClassInfo | None) -> bool:
    if cls is None:
        return False
    if not cls.is_literal:
        return term.is_iri
    return term.is_literal and bool(_LITERAL_SYNTAX[_literal_kind(cls)].fullmatch(term.value))


def _literal_kind(cls: ClassInfo | None) -> str:
    """The program literal kind for a literal class: years are integers."""
    if cls is None:
        return "integer"
    return {"year": "integer", "integer": "integer", "decimal": "decimal", "date": "date",
            "boolean": "boolean"}.get(cls.kind, "integer")


def _size_of(result: Execution) -> int | None:
    """Answers of a set program; None for a COUNT (whose variants are compared in full)."""
    return None if result.count is not None else len(result.answers)


def _same_answers(a: Execution, b: Execution) -> bool:
    return a.count == b.count and a.answers == b.answers


def _replace_node(program: Program, old: SetExpr, new: SetExpr) -> Program:
    """The program with one node (by identity) replaced."""
    if program is old:
        return new
    changes = {}
    for f in fields(program):
        child = getattr(program, f.name)
        if hasattr(child, "children"):
            updated = _replace_node(child, old, new)
            if updated is not child:
                changes[f.name] = updated
    return replace(program, **changes) if changes else program
