"""A KG's relation lexicon, kept beside its schema: the words people use for each relation's two ends.

The language model proposes the words once per KG (engine.bootstrap.lexicon); this module only stores them
in `<cache>/schemas/<fingerprint>-lexicon.json` and puts them into a schema (`RelationInfo.words` and
`.reverse_words`). A user's own words for a relation (a SchemaEdit) win over the stored ones.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path

from .schema import Schema, clean_words, schema_file


@dataclass(frozen=True)
class RelationWords:
    words: tuple[str, ...] = ()  # for the objects, seen from a subject
    reverse_words: tuple[str, ...] = ()  # for the subjects, seen from an object


# Bumped when the builder keeps other words, so that a lexicon built by an older rule is built again (2: only
# words with one owner, engine.bootstrap.lexicon.distinct; 3: and the kinds WordNet gives, engine.bootstrap.kinds;
# 5: of the senses nearest each end's own reading. 4 is skipped: a try that did not land wrote lexicon-v4 files. 6: no
# word naming another class; a "<noun> of" name's noun and its kinds for the subjects. 7: nor a word of another
# class's first WordNet sense: "class" for a course. 8: no kinds of a word broader than the end's own noun, or
# holding it: "parent" or "grandfather" for `father`. 9: broader than another relation's noun too. 10: a kind of
# another relation's noun is that relation's; relations alike share words, engine.bootstrap.owners.)
LEXICON_VERSION = 10


def lexicon_path(cache_dir: str | Path, fingerprint: str) -> Path:
    return schema_file(cache_dir, fingerprint, f"lexicon-v{LEXICON_VERSION}")


def read_lexicon(path: Path) -> dict[str, RelationWords] | None:
    """The stored lexicon; None where none was built (or the file is unreadable, so it is built again)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    return {name: RelationWords(clean_words(ends.get("words")), clean_words(ends.get("reverse_words")))
            for name, ends in data.items() if isinstance(name, str) and isinstance(ends, dict)}


def write_lexicon(path: Path, lexicon: dict[str, RelationWords]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    data = {name: {"words": list(w.words), "reverse_words": list(w.reverse_words)} for name, w in lexicon.items()}
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    tmp.replace(path)


def with_lexicon(schema: Schema, lexicon: dict[str, RelationWords]) -> Schema:
    """The schema with each relation's stored words (relations the lexicon does not name keep theirs)."""
    if not lexicon:
        return schema

    def worded(rel):
        found = lexicon.get(rel.name)
        return rel if found is None else replace(rel, words=found.words, reverse_words=found.reverse_words)

    return Schema(schema.classes, tuple(map(worded, schema.relations)), schema.induced, schema.mirrors,
                  schema.shared_members)
