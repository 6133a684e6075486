"""Relations that hold both ways but are stored once per pair ("borders"): the schema marks them to be read both ways.

A KG exported from a table of borders often holds "A borders B" and never "B borders A", so "which provinces border
A?" finds half of A's neighbours whichever way the program walks, and "how many provinces border A?" counts half.
Such a relation links one class to itself, and its pairs follow no order: somewhere three of them run in a circle
(A borders B, B borders C, C borders A). A relation that does have a direction, parent to child, paper to paper it
cites, employee to manager, runs from older to newer or up a hierarchy, and none of its pairs circle. Where the
stored pairs of a relation that holds both ways do follow an order (a table sorted by name), this rule cannot see
it, and the user ticks the relation in the app's schema table instead (a SchemaEdit).

A relation that stores every pair both ways, or nearly, is left as it is: its data says it holds both ways, and
reading it so finds nothing more. One that stores some of its pairs both ways and the rest once is read both ways too
(`_stored_both_ways_in_part`): a Wikidata-style family extract written blind (bench/probes/lineage.py) states half of
its couples both ways round and half once, so "Maud's husband" was found from one side only. A relation with a
direction stores next to no pair both ways (a parent is not its child's child).
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
# The share of a relation's pairs stored both ways that says it holds both ways but is stored so only in part. On the
# lineage probe `spouse` 0.51 and `sibling` 0.64; every relation with a direction in the dev KGs and the probes 0.00;
# the default geography KG's `neighbour` 0.99 and a transit probe's `adjacentTo` 1.00 (stored both ways: left alone).
PART_BOTH_WAYS = (0.2, 0.9)
# A relation the lexicon calls mutual (`mutual`) whose pairs are stored once each and pair each thing with one other
# is read both ways from this many pairs: a royal probe's `spouse` 15 and a dynasty probe's 14 (each couple once);
# the dev KGs' only such relations (PathQuestion's `neighborhood_of`, 4 pairs; `deity_of`, 1) have a direction.
MIN_MATCHED = 10


def with_both_ways(schema: Schema, store: KGStore) -> Schema:
    """The schema with `both_ways` set on each relation whose stored pairs hold it both ways (see above)."""
    found = {r.name for r in schema.relations if _may_hold_both_ways(schema, r)
             and (_stored_both_ways_in_part(store, r) or _stored_once_in_no_order(store, r))}
    if not found:
        return schema
    log.info("read both ways (pairs stored once, in no order or beside pairs stored both ways): %s",
             ", ".join(sorted(found)))
    return replace(schema, relations=tuple(replace(r, both_ways=True) if r.name in found else r
                                           for r in schema.relations))


def with_mutual_pairs(schema: Schema, store: KGStore) -> Schema:
    """The schema with `both_ways` set, too, on each relation that the lexicon calls mutual (`mutual`: "husband",
    "wife" and no word for the other end) and whose stored pairs pair each thing with one other, each pair once: a
    couple is stored once, either way round, and no circle shows it. Read after the lexicon, which `with_both_ways`
    comes before."""
    found = {r.name for r in schema.relations if not r.both_ways and r.words and mutual(r) and r.count >= MIN_MATCHED
             and _may_hold_both_ways(schema, r) and _pairs_each_thing_once(store, r)}
    if not found:
        return schema
    log.info("read both ways (mutual, each thing in one pair stored once): %s", ", ".join(sorted(found)))
    return replace(schema, relations=tuple(replace(r, both_ways=True) if r.name in found else r
                                           for r in schema.relations))


def mutual(rel: RelationInfo) -> bool:
    """Between members of one class, with lexicon words for its objects only: its words name either end ("spouse",
    "neighbour"). A relation with words for each end ("parent": "father", and "son" for its subjects) has a
    direction, and so has one whose pairs another relation holds reversed (kg_adapters.inverses): the lineage probe's
    `child`, beside `father` and `mother`, had no words for its subjects, and "the grandchildren of X" took X's
    grandchildren's parents' parents, a walk down and back up that "children" spelt both ways."""
    return not rel.reverse_words and not rel.inverse_of and bool(rel.domain) and set(rel.domain) == set(rel.range)


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


def _stored_both_ways_in_part(store: KGStore, rel: RelationInfo) -> bool:
    """Some of its pairs stored both ways, and the others once (`PART_BOTH_WAYS`); False where the store cannot tell."""
    both = _count(store, rel, "COUNT(*)", "?a {p} ?b . ?b {p} ?a . FILTER(?a != ?b)")
    low, high = PART_BOTH_WAYS
    return both is not None and low <= both / rel.count < high


def _pairs_each_thing_once(store: KGStore, rel: RelationInfo) -> bool:
    """Twice as many things in its pairs as pairs: no thing in two, and no pair stored both ways."""
    return _count(store, rel, "COUNT(DISTINCT ?x)", "{{ ?x {p} ?y }} UNION {{ ?y {p} ?x }}") == 2 * rel.count


def _count(store: KGStore, rel: RelationInfo, counted: str, patterns: str) -> int | None:
    """`counted` over the `patterns` (`{p}` standing for the relation); None where the store cannot tell in time."""
    query = f"SELECT ({counted} AS ?n) WHERE {{ {patterns.format(p=f'<{rel.iri}>')} }}"
    try:
        rows = store.select(query, timeout_s=TIMEOUT_S).rows
        return int(getattr(rows[0][0], "value", 0) or 0) if rows else 0
    except (KGError, ValueError) as err:
        log.warning("could not count the pairs of %s: %s", rel.name, err)
        return None


def _any(store: KGStore, patterns: str) -> bool:
    return bool(store.select(f"SELECT ?a WHERE {{ {patterns} }} LIMIT 1", timeout_s=TIMEOUT_S).rows)
