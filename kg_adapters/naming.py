"""Stable IRIs for graphs that arrive as plain names (delimited triples).

The same name always maps to the same IRI, so a re-load of the same file, or a
program written by label, finds the same entity.
"""

from __future__ import annotations

from urllib.parse import quote, unquote

BASE = "http://kgscout.local/"
ENTITY_NS = BASE + "entity/"
RELATION_NS = BASE + "relation/"
CLASS_NS = BASE + "class/"


def entity_iri(name: str) -> str:
    return ENTITY_NS + quote(name, safe="")


def relation_iri(name: str) -> str:
    return RELATION_NS + quote(name, safe="")


def class_iri(name: str) -> str:
    return CLASS_NS + quote(name, safe="")


def local_name(iri: str) -> str:
    """The readable tail of an IRI: after the last '#', else after the last '/'."""
    tail = iri.rstrip("/")
    for sep in ("#", "/", ":"):
        if sep in tail:
            tail = tail.rsplit(sep, 1)[1]
            break
    return unquote(tail) or iri
