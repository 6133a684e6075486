"""An entity's usual ties: which relation a question means when it names an entity but not the relation.

"tom hanks movies" and "Spielberg films" name a person and a class, and leave the relation between them to
the reader. The 0.5B scorer, given no relation word, is as happy with Tom Hanks's two directed films as with
the thirty he starred in (moviekg-ops, reasoner v22: "on average, when were tom hanks movies released" went to
`directed_by`, "Which Spielberg film has the most tags?" to `written_by`). A reader takes the usual tie.

So each edge a program walks from a linked entity is charged by how far its relation falls short of the
entity's most common tie to the same kind of thing: 1 - (neighbours it reaches) / (neighbours the most common
tie reaches), counted in the KG itself, so with no word list of any domain. Neighbours are counted distinct,
over both sides of the relation: a symmetric `neighbour` stored either way round is one tie, and a relation
whose pairs are mostly another's too (`main_language` within `language`) is charged only for its shortfall,
not as a rival. Two kinds of edge are not charged:
- a relation the question names ("films directed by Tom Hanks" asks for the rare tie);
- a tie to a literal: a country has one population and one area, and which one a question asks for is
  a question of its words, not of counts. Charging them would push "the population of Canada" back to
  the 507 cities whose `country` is Canada.
"""

from __future__ import annotations

import logging
import threading

from engine.programs.executor import Executor
from engine.programs.sexpr import Entity, Join, Program, Reverse, relation_name, walk
from engine.programs.terms import entity
from kg_adapters.base import KGError
from kg_adapters.schema import Schema

log = logging.getLogger(__name__)

# Weight of the charge beside the forward score, SIMILARITY_WEIGHT * cosine and NAMED_WEIGHT per named word, wherever
# they rank candidates (pruning, the best set, the final re-rank). 0.5 was too little in a trace of "on average, when
# were tom hanks movies released" (the scorer preferred his directed films by 0.9). At 1.0 (BENCHMARKS.md, "reasoner
# v23"), moviekg-ops rose from 54.9 to 66.0 and geography-ops fell from 68.8 to 66.0 (one question). Every KG of
# the quick suite answered as before.
UNUSUAL_WEIGHT = 1.0

# (relation name, the entity's side: "subject" or "object") -> how many distinct entities or values it reaches
Ties = dict[tuple[str, str], int]


class UsualTies:
    """Counts each linked entity's ties once per process (one GROUP BY query) and charges the rare ones."""

    def __init__(self, schema: Schema, executor: Executor):
        self.schema, self.executor = schema, executor
        self._ties: dict[str, Ties] = {}
        self._unions = frozenset(r.name for r in schema.relations if r.either)  # it reaches its members' together
        self._lock = threading.Lock()

    def unusual(self, program: Program, named: frozenset[str] | set[str]) -> float:
        """Sum over the program's edges from a linked entity whose relation the question does not name
        (`named`: relation names) of 1 - the edge's `share`."""
        total = 0.0
        for node in walk(program):
            if not (isinstance(node, Join) and isinstance(node.arg, Entity) and node.arg.iri):
                continue
            name = relation_name(node.relation)
            if name in named:
                continue
            side = "subject" if isinstance(node.relation, Reverse) else "object"
            total += 1.0 - self.share(node.arg.iri, name, side)
        return total

    def share(self, iri: str, name: str, side: str) -> float:
        """How many neighbours the relation gives the entity (on either side) over how many its most common
        relation to the same classes gives it; 1.0 where the far end is a literal or of no known class, or
        the counts are unknown."""
        far = self._far_classes(name, side)
        ties = self.ties(iri)
        if not far or (name, side) not in ties:
            return 1.0
        reach: dict[str, int] = {}
        for (other, other_side), n in ties.items():
            if self._far_classes(other, other_side) & far and (other == name or other not in self._unions):
                reach[other] = max(reach.get(other, 0), n)
        return min(1.0, reach[name] / max(reach.values()))  # a union is measured against the relations stored

    def _far_classes(self, name: str, side: str) -> frozenset[str]:
        """The classes at the other end of an entity-to-entity relation walked from `side`; empty for literals."""
        info = self.schema.relation(name)
        if info is None or self.schema.literal_kind(info) != "entity":
            return frozenset()
        return frozenset(info.range if side == "subject" else info.domain)

    def ties(self, iri: str) -> Ties:
        """The entity's distinct neighbours counted per (relation, side); empty when the store could not answer."""
        with self._lock:
            known = self._ties.get(iri)
        if known is not None:
            return known
        found = incident(self.executor, self.schema, [iri], counted=True)
        if found is None:
            return {}
        with self._lock:
            if len(self._ties) > 50_000:
                self._ties.clear()
            self._ties[iri] = found
        return found


def incident(executor: Executor, schema: Schema, iris: list[str], counted: bool = False) -> Ties | None:
    """(relation name, side) for every schema relation one of the entities takes part in, in one query, with
    the distinct neighbours it gives them where `counted` (else 0); None when the store could not answer (a
    timeout). Mirrors are left out: they are walked as (R primary). A relation read both ways is taken on both sides:
    "Maud's husband" is (JOIN (R spouse) Maud), where only her husband's side states the couple."""
    values = " ".join(entity(iri) for iri in iris)
    head = "?p ?side (COUNT(DISTINCT ?o) AS ?n)" if counted else "DISTINCT ?p ?side"
    sparql = (
        f'SELECT {head} WHERE {{ VALUES ?x {{ {values} }} {{ ?x ?p ?o BIND("subject" AS ?side) }} '
        f'UNION {{ ?o ?p ?x BIND("object" AS ?side) }} }}' + (" GROUP BY ?p ?side" if counted else "")
    )
    try:
        rows = executor.select(sparql)[0].rows
    except KGError as err:
        log.info("relations of %d entities: %s", len(iris), err)
        return None
    found: Ties = {}
    for p, side, *n in rows:
        info = schema.relation(p.value) if p is not None else None
        if info is not None and side is not None and not info.mirror_of:
            found[(info.name, side.value)] = int(n[0].value) if n and n[0] is not None else 0
            if info.both_ways:  # stored on one side, held on both (kg_adapters.both_ways): walked from either
                other = "object" if side.value == "subject" else "subject"
                found[(info.name, other)] = max(found.get((info.name, other), 0), found[(info.name, side.value)])
    return _with_unions(found, schema)


def _with_unions(found: Ties, schema: Schema) -> Ties:
    """`found` with each union (kg_adapters.unions) on each side a member is found on: its neighbours are its
    members' together."""
    for union in (r for r in schema.relations if r.either):
        for side in ("subject", "object"):
            counts = [found[(name, side)] for name in union.either if (name, side) in found]
            if counts:
                found[(union.name, side)] = sum(counts)
    return found
