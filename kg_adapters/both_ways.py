"""Relations that hold both ways but are stored once per pair ("borders"): the schema marks them to be read both ways.

A KG exported from a table of borders often holds "A borders B" and never "B borders A", so "which provinces border
A?" finds half of A's neighbours whichever way the program walks, and "how many provinces border A?" counts half.
Such a relation links one class to itself, and its pairs follow no order: somewhere three of them run in a circle
(A borders B, B borders C, C borders A). A relation that does have a direction, parent to child, paper to paper it
cites, employee to manager, runs from older to newer or up a hierarchy, and none of its pairs circle. Where the
stored pairs of a relation that holds both ways do follow an order (a table sorted by name), this rule cannot see
it, and the user ticks the relation in the app's schema table instead (a SchemaEdit).

A relation that stores some pair both ways already is left as it is: its data says which way it is read.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from .base import IRI_FORBIDDEN, KGError, KGStore
from .schema import RelationInfo, Schema

log = logging.getLogger(__name__)

# Relations with more pairs than this are not looked at: the circle query joins the relation with itself twice,
# which a public endpoint holding millions of such pairs would not answer in time. The largest same-class
# relation of the dev KGs has 654 pairs (the default geography KG's `neighbour`, stored both ways).
MAX_PAIRS = 50_000
TIMEOUT_S = 5.0


def with_both_ways(schema: Schema, store: KGStore) -> Schema:
    """The schema with `both_ways` set on each relation whose stored pairs hold it both ways (see above)."""
    found = {r.name for r in schema.relations if _may_hold_both_ways(schema, r) and _stored_once_in_no_order(store, r)}
    if not found:
        return schema
    log.info("read both ways (each pair stored once, in no order): %s", ", ".join(sorted(found)))
    return replace(schema, relations=tuple(replace(r, both_ways=True) if r.name in found else r
                                           for r in schema.relations))


def _may_hold_both_ways(schema: Schema, rel: RelationInfo) -> bool:
    """A relation between things of one class, small enough to look at."""
    return (schema.literal_kind(rel) == "entity" and bool(rel.domain) and set(rel.domain) == set(rel.range)
            and 0 < rel.count <= MAX_PAIRS and not IRI_FORBIDDEN.search(rel.iri))


def _stored_once_in_no_order(store: KGStore, rel: RelationInfo) -> bool:
    """No pair stored both ways, and three pairs that run in a circle; False where the store cannot tell in time."""
    p = f"<{rel.iri}>"
    try:
        if _any(store, f"?a {p} ?b . ?b {p} ?a . FILTER(?a != ?b)"):
            return False
        return _any(store, f"?a {p} ?b . ?b {p} ?c . ?c {p} ?a . FILTER(?a != ?b && ?b != ?c && ?a != ?c)")
    except KGError as err:
        log.warning("could not tell whether %s holds both ways: %s", rel.name, err)
        return False


def _any(store: KGStore, patterns: str) -> bool:
    return bool(store.select(f"SELECT ?a WHERE {{ {patterns} }} LIMIT 1", timeout_s=TIMEOUT_S).rows)
