"""Short text values as things a question can name: a project's status "On hold", a doctor's specialty "Cardiology".

In a spreadsheet's triples every value is an entity with a label, so "which projects are on hold?" links "On hold"
and walks `status` back from it. The same KG written in Turtle holds the value as a string, and no label index held
strings: the question linked nothing and answered every project. A short string held by a relation to text now
stands in the label index as an entity, under an IRI of this module's scheme that carries the string itself.
Linking, the relations it takes part in and the programs built on it are then an entity's, and the one place an
entity becomes a query term (`engine.programs.terms.entity`) writes the string back, so the SPARQL a user sees
matches the string the KG holds.
"""

from __future__ import annotations

from urllib.parse import quote, unquote

TEXT_SCHEME = "urn:kgscout:text:"
# Strings this short name a thing ("On hold", "Senior Consultant", "Cardiology"); longer ones are descriptions and
# notes, which a question quotes no more than a paragraph. Numbers written as strings are the linker's numbers.
MAX_TEXT_CHARS = 60
MAX_TEXT_WORDS = 6


def names_a_thing(value: str) -> bool:
    """Whether a string is short enough to be asked for by name (and is no number)."""
    text = value.strip()
    return (bool(text) and len(text) <= MAX_TEXT_CHARS and len(text.split()) <= MAX_TEXT_WORDS
            and not text.replace(".", "", 1).replace(",", "").lstrip("+-").isdigit())


def text_value_iri(value: str, lang: str | None = None) -> str:
    """The IRI a text value stands under: the scheme, its language tag (or nothing), ":", the string escaped. Only
    unreserved characters and %-escapes follow the scheme, so it is a valid IRI whatever the string holds."""
    return f"{TEXT_SCHEME}{quote(lang or '', safe='')}:{quote(value, safe='')}"


def text_value(iri: str) -> tuple[str, str | None] | None:
    """(the string, its language tag or None) where `iri` stands for a text value, else None."""
    if not iri.startswith(TEXT_SCHEME):
        return None
    lang, sep, body = iri[len(TEXT_SCHEME):].partition(":")
    if not sep:
        return None
    return unquote(body), unquote(lang) or None
