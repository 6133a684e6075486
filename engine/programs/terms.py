"""SPARQL terms from text: the one place an IRI or a string becomes part of a query.

Labels and IRIs come from a KG or from a program typed in the app's editor, so they are
anyone's text. Every one is written through `iri()` or `string()`, and each either
yields exactly one SPARQL term or raises ProgramError: an IRI that holds a character
that could end it (`>`, a space, a quote) is refused, a string has its quote, backslash
and line breaks escaped. No text can therefore change the shape of a query it is put
into; tests/test_properties.py checks that every such term reads back unchanged.
Operators are looked up in tables (`keyword`), never copied into the query.
"""

from __future__ import annotations

import re

from kg_adapters.base import IRI_FORBIDDEN
from kg_adapters.text_values import text_value

from .sexpr import Node, ProgramError

_SURROGATE = re.compile(r"[\ud800-\udfff]")
_STRING_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_LANGUAGE_TAG = re.compile(r"[A-Za-z]+(-[A-Za-z0-9]+)*")


def iri(value: str) -> str:
    """An IRI term; refuses characters that could end the IRI and start SPARQL."""
    if not value or IRI_FORBIDDEN.search(value):
        raise ProgramError(f"not a valid IRI: {value!r}")
    return f"<{value}>"


def entity(value: str) -> str:
    """An entity's term: its IRI, or the string a text value's IRI carries (kg_adapters.text_values)."""
    text = text_value(value)
    return iri(value) if text is None else string(text[0], lang=text[1])


def string(value: str, datatype: str | None = None, lang: str | None = None) -> str:
    """A literal term, escaped per the SPARQL grammar (ECHAR)."""
    if _SURROGATE.search(value):
        raise ProgramError(f"not a valid string (it holds a lone surrogate): {value!r}")
    body = '"' + "".join(_STRING_ESCAPES.get(ch, ch) for ch in value) + '"'
    if lang:
        if not _LANGUAGE_TAG.fullmatch(lang):
            raise ProgramError(f"not a valid language tag: {lang!r}")
        return f"{body}@{lang}"
    return f"{body}^^{iri(datatype)}" if datatype else body


def keyword(table: dict[str, str], op: str, node: Node, what: str = "operator") -> str:
    """An operator's SPARQL word, looked up, never copied: a tree built in code cannot write SPARQL either."""
    if op not in table:
        raise ProgramError(f"unknown {what} {op!r}", node.pos)
    return table[op]
