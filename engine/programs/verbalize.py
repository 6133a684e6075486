"""Read a program aloud: a plain-English noun phrase built from schema labels.

A 0.5B model cannot read s-expressions reliably, but it paraphrases English well,
so question generation shows it this reading next to the program, and the
reasoner embeds readings (not raw s-expressions) to prune candidates.
Readings are clumsy on purpose ("movies whose genre is Drama"); the LLM turns
them into natural questions.
"""

from __future__ import annotations

from kg_adapters.schema import Schema, object_noun

from .sexpr import (
    And,
    Chain,
    Class,
    Compare,
    Count,
    Entity,
    Join,
    Literal,
    Node,
    Relation,
    Reverse,
    Superlative,
)

_COMPARE = {"lt": "less than", "le": "at most", "gt": "greater than", "ge": "at least"}


def verbalize(node: Node, schema: Schema) -> str:
    return _Reader(schema).read(node)


def _plural(noun: str) -> str:
    if noun.endswith(("s", "x", "ch", "sh")):
        return noun + "es"
    if noun.endswith("y") and noun[-2:-1] not in "aeiou":
        return noun[:-1] + "ies"
    return noun + "s"


class _Reader:
    def __init__(self, schema: Schema):
        self.schema = schema

    def read(self, node: Node) -> str:
        if isinstance(node, Entity):
            return node.ref
        if isinstance(node, Literal):
            return node.value
        if isinstance(node, Class):
            info = self.schema.class_(node.name)
            return _plural((info.label if info else node.name).replace("_", " ").lower())
        if isinstance(node, Count):
            return f"the number of {self._counted(node.arg)}"
        if isinstance(node, And):
            left, right = self.read(node.left), self.read(node.right)
            subjects = self._subjects_of(node.left)
            if subjects and subjects == self._subjects_of(node.right) and right.startswith(subjects + " "):
                return f"{left} and {right[len(subjects) + 1:]}"  # movies whose genre is X and whose ...
            return f"{left} that are also {right}"
        if isinstance(node, Join):
            return self._join(node)
        if isinstance(node, Superlative):
            which = "largest" if node.op == "ARGMAX" else "smallest"
            members = self.read(node.arg).removeprefix("the ")
            return f"the {members} with the {which} {self._path_noun(node.path)}"
        if isinstance(node, Compare):
            return f"{self._subjects(node.relation)} whose {self._path_noun(node.relation)} is {_COMPARE[node.op]} {node.value.value}"
        raise TypeError(f"cannot read {node!r}")

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
            if isinstance(node.arg, Entity):  # "the genre of the movie Fled": says what Fled is
                return f"the {self._noun(rel.relation)} of the {self._domain_label(rel.relation)} {target}"
            return f"the {self._noun(rel.relation)} of {target}"
        words = rel.name.lower().split("_")
        subjects = self._subjects(rel)
        if len(words) >= 2 and words[-1] == "by":
            return f"{subjects} {' '.join(words)} {target}"
        return f"{subjects} whose {self._noun(rel)} is {target}"

    def _subjects_of(self, node: Node) -> str | None:
        """The plural subjects a forward join or comparison reads with, else None."""
        if isinstance(node, Join) and not isinstance(node.relation, Reverse):
            return self._subjects(node.relation)
        if isinstance(node, Compare):
            return self._subjects(node.relation)
        return None

    def _noun(self, rel: Relation) -> str:
        info = self.schema.relation(rel.name)
        return object_noun(info.iri if info else rel.name)

    def _subjects(self, rel: Node) -> str:
        """The plural of the relation's domain: "movies", "countries"."""
        return _plural(self._domain_label(rel))

    def _domain_label(self, rel: Node) -> str:
        """What the subjects of a relation expression are: "movie", "country"."""
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
