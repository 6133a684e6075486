"""What "where" asks for in one schema: a place, which the KG's own relations say.

Where the question spells a relation whose label puts its objects at a place ("works at", "born in"), "where" asks
for those objects: "where does X work?" is X's workplace, not its town. Else it asks for the KG's places: both ends
of the relations that say where their subjects are ("is in", "located in"), persons apart, since a thing that is
located somewhere is itself somewhere to be ("where does <painting> hang?" asks for its museum, not only the museum's
city: a blind museum probe had walked four relations to reach a city); and where no relation says so, the classes
WordNet puts under location. WordNet knows words, not the KG: a noun whose first sense is a place may name a role
there, so the schema's own relations come first.
"""

from __future__ import annotations

import re

from kg_adapters.person_nouns import names_a_place
from kg_adapters.schema import Schema

from .linker import Linking
from .named import Spelling

WHERE_WORD = re.compile(r"^\s*where\b|\bwhere\s*\??\s*$", re.IGNORECASE)
# A relation that says where its subject is: a form of "be" and a place preposition ("is in country", "is
# located in"), or "located", "situated", "lies".
LOCATIVE = re.compile(r"^(is|are|was|were|be)\s+(located\s+|situated\s+)?(in|at|on|within)\b|\b(located|situated|lies)\b")
# A relation label that puts its objects at a place: "works at", "born in", "trained at", "based in".
PLACED = re.compile(r"\b(in|at|on|within|inside)$")


class Where:
    """The classes "where" asks for, in one schema; `persons`: its classes of persons (who.Who.persons)."""

    def __init__(self, schema: Schema, persons: frozenset[str]):
        self.schema, self.persons = schema, persons
        self.places = frozenset(_located(schema) - persons
                                or {c.name for c in schema.classes if not c.is_literal and names_a_place(c.label)})

    def asked(self, order: list[str], linking: Linking, named: dict[str, Spelling]) -> frozenset[str]:
        """`order`: the question's words, names blanked; `named`: the relations it spells (engine.answer.named).
        The objects of the placing relation spelt last before the end where it spells several ("where did the
        doctor treating X study?"); else the places but the kinds of thing the question asks the place of: "where
        is the <club> that X plays for?" asks for a country, not for clubs, though clubs are located and so places."""
        placed = []
        for name, spelling in named.items():
            relation = self.schema.relation(name)
            if relation is None or not PLACED.search(relation.label.lower()):
                continue
            ends = [c for c in relation.range if (info := self.schema.class_(c)) and not info.is_literal]
            at = [i for i, word in enumerate(order) if word in spelling.words]
            if ends and at:
                placed.append((max(at), ends))
        if placed:
            return frozenset(max(placed)[1])
        located = {c for m in linking.mentions for cand in m.candidates
                   for c in ((cand.label,) if cand.kind == "class" else cand.classes if cand.kind == "entity" else ())}
        return (self.places - located or self.places) | (self._placing(located) - located)

    def _placing(self, things: set[str]) -> set[str]:
        """Where the KG says things of these classes are, spelt or not: the entity objects of their placing
        relations ("housed in", "based in"). "where is the history department based?" asks for the department's
        building, though "based" spells no relation and WordNet puts no building under location (a university KG
        of our own had answered with a town its students come from). Persons are left out both ways: a person is
        "in" a course or a team, which is no place."""
        placing = [r for r in self.schema.relations
                   if PLACED.search(r.label.lower()) and set(r.domain) & (things - self.persons)]
        return {c for r in placing for c in r.range
                if c not in self.persons and (info := self.schema.class_(c)) and not info.is_literal}


def _located(schema: Schema) -> set[str]:
    """Both ends of the relations that say where their subjects are: the entity classes."""
    ends = {c for r in schema.relations if LOCATIVE.search(r.label.lower()) for c in (*r.domain, *r.range)}
    return {c for c in ends if (info := schema.class_(c)) is None or not info.is_literal}
