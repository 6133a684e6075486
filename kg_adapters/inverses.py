"""Relations that hold each other's pairs reversed: `child` beside `father` and `mother`, `contains` beside `located_in`.

A KG built from Wikidata or Freebase states a kinship or a containment both ways, each under its own relation, and
mostly not every pair both ways. "Who are X's kids?" is then (JOIN (R child) X) or (JOIN father X): the same step,
walked over either relation. Three things follow:

- the wider relation's steps hold the narrower one's pairs reversed, stated or not (`narrower`, read by
  `engine.programs.to_sparql`): "how many children did X have?" counts the children only `father` states;
- a walk that goes out over one and back over the other, (JOIN (R child) (JOIN (R father) X)), X's father's children,
  comes back to where it began as a walk out and back over one relation does (`engine.answer.walk_back`);
- a relation between members of one class takes a wider partner's words for its objects as words for its subjects:
  `father`'s subjects are "child", "son", "daughter" (`with_partner_words`), so that the label of one is read as the
  other walked back.

Read from the data, one query per KG: a relation is another's inverse where the other stores, reversed, at least
MIN_SHARE of the fewer pairs of the two.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from .base import IRI_FORBIDDEN, KGError, KGStore
from .schema import RelationInfo, Schema, clean_words

log = logging.getLogger(__name__)

# Relations with more pairs than this are not looked at, as in `both_ways`: the query walks each pair once. A store
# that cannot answer in TIMEOUT_S (a large public endpoint) is read as holding no inverses.
MAX_PAIRS = 50_000
TIMEOUT_S = 5.0
# The share of the fewer pairs of two relations that the other stores reversed. A blind lineage probe (session 60):
# `father` 60 pairs, `child` 84, 42 of them the same pairs reversed (0.70 of the fewer); `mother` alike.
MIN_SHARE = 0.5
MIN_PAIRS = 3  # fewer shared pairs than this tell nothing


def with_inverses(schema: Schema, store: KGStore) -> Schema:
    """The schema with `inverse_of` set on each relation that another holds reversed (see above)."""
    found = _inverse_pairs(schema, store)
    if not found:
        return schema
    log.info("inverse relations: %s", ", ".join(f"{a}/{b}" for a, b in sorted(found) if a < b))
    partners: dict[str, list[str]] = {}
    for a, b in sorted(found):
        partners.setdefault(a, []).append(b)
    return replace(schema, relations=tuple(replace(r, inverse_of=tuple(partners[r.name])) if r.name in partners else r
                                           for r in schema.relations))


def with_partner_words(schema: Schema) -> Schema:
    """Each relation with an inverse takes, as words for its subjects beside the lexicon's, the labels and object
    words of its partners that hold more pairs: `father`'s subjects are a "child", a "son" (`child` holds a mother's
    pairs too). Not the other way: a "father" is no word for a child's subjects, which are mothers too. Only between
    members of one class: a relation between two has its subjects named by their class's noun, and a capital's
    subjects called "country" (its partner `country` is every city's) cost geography-demo a check question."""
    by_name = {r.name: r for r in schema.relations}

    def worded(rel: RelationInfo) -> RelationInfo:
        wider = [by_name[name] for name in rel.inverse_of if name in by_name and by_name[name].count >= rel.count]
        if not wider or set(rel.domain) != set(rel.range):  # a class of their own names its subjects ("country")
            return rel
        words = [w for partner in wider for w in (partner.label, *partner.words)]
        return replace(rel, reverse_words=clean_words([*rel.reverse_words, *words]))

    return replace(schema, relations=tuple(map(worded, schema.relations)))


def narrower(info: RelationInfo, schema: Schema) -> list[RelationInfo]:
    """The inverses of no more pairs than the relation: their pairs, reversed, are its own, stated or not (`child`
    holds each `father` and `mother` pair reversed; `engine.programs.to_sparql` walks them too). Not the other way: a
    child's parent may be its mother."""
    return [q for name in info.inverse_of if (q := schema.relation(name)) is not None and q.count <= info.count]


def _inverse_pairs(schema: Schema, store: KGStore) -> set[tuple[str, str]]:
    """(name, partner) both ways round for each pair of relations that hold each other's pairs reversed."""
    rels = [r for r in schema.relations if schema.literal_kind(r) == "entity" and 0 < r.count <= MAX_PAIRS
            and not IRI_FORBIDDEN.search(r.iri)]
    if len(rels) < 2:
        return set()
    by_iri = {r.iri: r for r in rels}
    values = " ".join(f"<{iri}>" for iri in by_iri)
    query = (f"SELECT ?r ?s (COUNT(*) AS ?n) WHERE {{ VALUES ?r {{ {values} }} ?a ?r ?b . ?b ?s ?a . "
             f"FILTER(?r != ?s && isIRI(?b)) }} GROUP BY ?r ?s")
    try:
        rows = store.select(query, timeout_s=TIMEOUT_S).rows
    except KGError as err:
        log.warning("could not look for inverse relations: %s", err)
        return set()
    found = set()
    for r, s, n in rows:
        first, second = by_iri.get(getattr(r, "value", "")), by_iri.get(getattr(s, "value", ""))
        shared = int(getattr(n, "value", 0) or 0)
        if first and second and shared >= MIN_PAIRS and shared >= MIN_SHARE * min(first.count, second.count):
            found |= {(first.name, second.name), (second.name, first.name)}
    return found
