"""Read a program aloud: a plain-English noun phrase built from schema labels.

A 0.5B model cannot read s-expressions reliably, but it paraphrases English well,
so question generation shows it this reading next to the program, and the
reasoner embeds readings (not raw s-expressions) to prune candidates.
Readings are clumsy on purpose ("movies whose genre is Drama"); the LLM turns
them into natural questions. Every operator has one: "countries whose continent is
Europe and whose currency is not Euro" (NOT), "is Austria among ...?" (IN), "the total
area of ..." (SUM), "the countries with the most neighbours" (a superlative over COUNT).
"""

from __future__ import annotations

from kg_adapters.readable import object_noun, reading_noun, relation_label, subject_role
from kg_adapters.schema import Schema

from .sexpr import (
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
    Node,
    Not,
    Or,
    Relation,
    Reverse,
    Superlative,
)

_COMPARE = {"lt": "less than", "le": "at most", "gt": "greater than", "ge": "at least"}
# A count compared ("clients with more than 2 projects"), and the same count denied ("with at most 2 projects")
_COUNTED = {"lt": "fewer than", "le": "at most", "gt": "more than", "ge": "at least"}
_NOT_COUNTED = {"lt": "at least", "le": "more than", "gt": "at most", "ge": "fewer than"}
_AGGREGATE = {"SUM": "total", "AVG": "average"}


def verbalize(node: Node, schema: Schema, sure: bool = False, fluent: bool = False) -> str:
    """`sure`: name an entity's class only where the relation allows one ("the capital of the country France"
    but "the population of Canada" where both cities and countries have one), for sentences shown to users;
    prompts and embeddings keep the reading they were measured with. `fluent`: the words a question would use
    (`reading_noun`: "the course of the student X", not "the enrolled of"; "players with the same position as
    the player X"), for question generation, whose 0.5B model copies the reading's words into the question."""
    return _Reader(schema, sure, fluent).read(node)


def _plural(noun: str) -> str:
    if noun.endswith(("s", "x", "ch", "sh")):
        return noun + "es"
    if noun.endswith("y") and noun[-2:-1] not in "aeiou":
        return noun[:-1] + "ies"
    return noun + "s"


class _Reader:
    """One reading per node class (`_READINGS`), each built from its children's readings."""

    def __init__(self, schema: Schema, sure: bool = False, fluent: bool = False):
        self.schema, self.sure, self.fluent = schema, sure, fluent

    def read(self, node: Node) -> str:
        reading = _READINGS.get(type(node))
        if reading is None:
            raise TypeError(f"cannot read {node!r}")
        return reading(self, node)

    def _class(self, node: Class) -> str:
        info = self.schema.class_(node.name)
        return _plural((info.label if info else node.name).replace("_", " ").lower())

    def _and(self, node: And) -> str:
        if isinstance(node.left, Not) or isinstance(node.right, Not):
            return self._and_not(*((node.right, node.left) if isinstance(node.left, Not) else (node.left, node.right)))
        left, right = self.read(node.left), self.read(node.right)
        subjects = self._subjects_of(node.left)
        if subjects and subjects == self._subjects_of(node.right) and right.startswith(subjects + " "):
            return f"{left} and {right[len(subjects) + 1:]}"  # movies whose genre is X and whose ...
        return f"{left} that are also {right}"

    def _and_not(self, kept: Node, negated: Not) -> str:
        """"countries whose continent is Europe and whose currency is not Euro", "movies not directed by X"."""
        kept_text, tail = self.read(kept), self._negated(negated.arg)
        subjects = self._subjects_of(negated.arg)
        if tail and subjects and kept_text == subjects:
            return f"{kept_text} {tail}"
        if tail and subjects and subjects == self._subjects_of(kept):
            return f"{kept_text} and {tail}"
        return f"{kept_text} that are not {self.read(negated.arg)}"

    def _negated(self, node: Node) -> str | None:
        """What follows the subjects in a denial: "whose genre is not X", "not directed by X"; None if none fits."""
        if isinstance(node, Join) and not isinstance(node.relation, Reverse):
            words = node.relation.name.lower().split("_")
            if len(words) >= 2 and words[-1] == "by":
                return f"not {' '.join(words)} {self.read(node.arg)}"
            if isinstance(node.arg, Literal) and node.arg.kind == "boolean":
                return self._flag(node.relation, node.arg.value != "true")
            return f"whose {self._noun(node.relation)} is not {self.read(node.arg)}"
        if isinstance(node, Compare) and isinstance(node.relation, Degree):
            return f"with {_NOT_COUNTED[node.op]} {node.value.value} {self._neighbours(node.relation)}"
        if isinstance(node, Compare):
            return f"whose {self._path_noun(node.relation)} is not {self._compared(node)}"
        return None

    def _or(self, node: Or) -> str:
        return f"{self.read(node.left)} or {self.read(node.right)}"

    def _superlative(self, node: Superlative) -> str:
        members = self.read(node.arg).removeprefix("the ")
        members = f"one of {members}" if isinstance(node.arg, Or) else members
        if isinstance(node.path, Degree):
            which = "most" if node.op == "ARGMAX" else "fewest"
            return f"the {members} with the {which} {self._neighbours(node.path)}"
        which = "largest" if node.op == "ARGMAX" else "smallest"
        return f"the {members} with the {which} {self._path_noun(node.path)}"

    def _neighbours(self, degree: Degree) -> str:
        """What `(COUNT r S)` counts, in the plural: "neighbours", "movies among movies directed by X"."""
        rel = degree.relation
        noun = self._domain_label(rel.relation) if isinstance(rel, Reverse) else self._noun(rel)
        counted = _plural(noun)
        return f"{counted} among {self.read(degree.arg)}" if degree.arg is not None else counted

    def _compare(self, node: Compare) -> str:
        if isinstance(node.relation, Degree):
            counted = f"{_COUNTED[node.op]} {node.value.value} {self._neighbours(node.relation)}"
            return f"{self._subjects(node.relation)} with {counted}"
        return f"{self._subjects(node.relation)} whose {self._path_noun(node.relation)} is {self._compared(node)}"

    def _compared(self, node: Compare) -> str:
        if isinstance(node.value, Entity):
            return f"{_COMPARE[node.op]} that of {node.value.ref}"
        return f"{_COMPARE[node.op]} {node.value.value}"

    def _in(self, node: In) -> str:
        return f"is {self.read(node.member)} among {self.read(node.arg)}?"

    def _aggregate(self, node: Aggregate) -> str:
        noun = self._path_noun(node.path)
        if self.fluent and noun == "number":  # "the total number of players" would read as a count
            return f"the {_AGGREGATE[node.op]} of the numbers of {self._counted(node.arg)}"
        return f"the {_AGGREGATE[node.op]} {noun} of {self._counted(node.arg)}"

    def _counted(self, node: Node) -> str:
        """What COUNT counts, in the plural: "directors of the movie Alien", not "the director of ..."."""
        reading = self.read(node)
        first = node.left if isinstance(node, And) else node
        if isinstance(first, Join) and isinstance(first.relation, Reverse):
            noun = self._noun(first.relation.relation)
            if reading.startswith(f"the {noun} of "):
                return _plural(noun) + reading[len(f"the {noun}"):]
        return reading

    def _join(self, node: Join) -> str:
        target = self.read(node.arg)
        rel = node.relation
        if isinstance(rel, Reverse):
            if role := self._role_only(rel.relation):  # "the second level division of X" would turn it about
                what = f"the {self._domain_label(rel.relation)} {target}" if isinstance(node.arg, Entity) else target
                return f"the thing that {what} is a {role} of"
            if isinstance(node.arg, Entity) and not (self.sure and self._domains(rel.relation) > 1):
                # "the genre of the movie Fled": says what Fled is
                return f"the {self._noun(rel.relation)} of the {self._domain_label(rel.relation)} {target}"
            return f"the {self._noun(rel.relation)} of {target}"
        words = rel.name.lower().split("_")
        subjects = self._subjects(rel)
        if isinstance(node.arg, Literal) and node.arg.kind == "boolean":
            return f"{subjects} {self._flag(rel, node.arg.value == 'true')}"
        if self.fluent and _same_relation_back(node):
            # "X whose r is the r of Y": a small model drops the middle step; "the same r as Y" keeps it
            inner = node.arg.arg
            other = f"the {self._domain_label(rel)} {inner.ref}" if isinstance(inner, Entity) else self.read(inner)
            return f"{subjects} with the same {self._noun(rel)} as {other}"
        if len(words) >= 2 and words[-1] == "by":
            return f"{subjects} {' '.join(words)} {target}"
        if role := self._role_only(rel):  # not "divisions whose second level division is Brazil"
            return f"{subjects} that are {_plural(role)} of {target}"
        if self.fluent and _a_set(node.arg):
            return f"{subjects} whose {self._noun(rel)} is among {target}"  # not "whose club is clubs whose ..."
        return f"{subjects} whose {self._noun(rel)} is {target}"

    def _flag(self, rel: Relation, holds: bool) -> str:
        """A yes/no relation read as what its subjects are or have: "projects that are active", "that are not
        active", "hotels that do not have parking" (`has_parking`); "whose active is true" read as no question does."""
        info = self.schema.relation(rel.name)
        words = relation_label(info.iri if info else rel.name).split() or [rel.name]
        if words[0] in ("has", "have") and len(words) > 1:
            return f"that {'have' if holds else 'do not have'} {' '.join(words[1:])}"
        if words[0] in ("is", "are") and len(words) > 1:
            words = words[1:]
        return f"that are {'' if holds else 'not '}{' '.join(words)}"

    def _subjects_of(self, node: Node) -> str | None:
        """The plural subjects a forward join or comparison reads with, else None."""
        if isinstance(node, Join) and not isinstance(node.relation, Reverse):
            return self._subjects(node.relation)
        if isinstance(node, Compare):
            return self._subjects(node.relation)
        return None

    def _domains(self, rel: Relation) -> int:
        info = self.schema.relation(rel.name)
        return len(info.domain) if info else 0

    def _noun(self, rel: Relation) -> str:
        info = self.schema.relation(rel.name)
        if not self.fluent:
            return object_noun(info.iri if info else rel.name)
        cls = self.schema.class_(info.range[0]) if info and info.range else None
        label = cls.label.replace("_", " ").lower() if cls and not cls.is_literal and not cls.provisional else None
        return reading_noun(info.iri if info else rel.name, label)

    def _role_only(self, rel: Relation) -> str | None:
        """In a fluent reading, the noun of a "<noun> of" name (X second_level_division_of Y: X is a division of Y)
        where the objects have no class noun to stand for it: then "the <noun> of X" names the subjects, and the
        reading must say what X is a <noun> of."""
        if not self.fluent:
            return None
        info = self.schema.relation(rel.name)
        role = subject_role(info.iri if info else rel.name)
        return role if role and self._noun(rel) == role else None

    def _subjects(self, rel: Node) -> str:
        """The plural of the relation's domain: "movies", "countries"."""
        return _plural(self._domain_label(rel))

    def _domain_label(self, rel: Node) -> str:
        """What the subjects of a relation expression are: "movie", "country"."""
        if isinstance(rel, Degree):  # the things whose neighbours it counts
            rel = rel.relation
        if isinstance(rel, Chain):
            rel = rel.first
        if isinstance(rel, Reverse):
            info = self.schema.relation(rel.relation.name)
            names = info.range if info else ()
        else:
            info = self.schema.relation(rel.name)
            names = info.domain if info else ()
        cls = self.schema.class_(names[0]) if names else None
        return (cls.label if cls else "thing").replace("_", " ").lower()

    def _path_noun(self, path: Node) -> str:
        if isinstance(path, Chain):
            return f"{self._path_noun(path.second)} of its {self._path_noun(path.first)}"
        if isinstance(path, Reverse):
            return self._noun(path.relation)
        return self._noun(path)


def _same_relation_back(node: Join) -> bool:
    """(JOIN r (JOIN (R r) Y)): the things that share Y's r."""
    arg = node.arg
    return (isinstance(arg, Join) and isinstance(arg.relation, Reverse) and not isinstance(node.relation, Reverse)
            and arg.relation.relation.name == node.relation.name)


def _a_set(node: Node) -> bool:
    """A reading that starts with its members' plural ("clubs whose country is Italy"), not "the X of Y"."""
    if isinstance(node, And):
        return _a_set(node.left)
    return isinstance(node, Compare) or (isinstance(node, Join) and not isinstance(node.relation, Reverse))


_READINGS = {
    Entity: lambda reader, node: node.ref,
    Literal: lambda reader, node: node.value,
    Class: _Reader._class,
    Count: lambda reader, node: f"the number of {reader._counted(node.arg)}",
    Join: _Reader._join,
    And: _Reader._and,
    Or: _Reader._or,
    Superlative: _Reader._superlative,
    Compare: _Reader._compare,
    In: _Reader._in,
    Aggregate: _Reader._aggregate,
}
