"""A KG ready to query: its store, its schema and an executor, opened together."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path

from engine.config import ScoutConfig
from kg_adapters.base import KGError, KGStore
from kg_adapters.both_ways import with_both_ways, with_mutual_pairs
from kg_adapters.inverses import with_inverses, with_partner_words
from kg_adapters.lexicon import RelationWords, lexicon_path, read_lexicon, with_lexicon, write_lexicon
from kg_adapters.registry import StoreLimits, open_store
from kg_adapters.schema import (
    InductionConfig,
    Schema,
    SchemaEdit,
    apply_edits,
    cached_schema,
    edits_path,
    names_path,
    read_edits,
    read_names,
    rename_classes,
    write_edits,
    write_names,
)
from kg_adapters.unions import with_unions, without_unions

from .executor import Executor


@dataclass
class KnowledgeGraph:
    store: KGStore
    schema: Schema
    executor: Executor
    edits_file: Path | None = field(default=None, repr=False)  # the user's schema wording, kept across runs
    names_file: Path | None = field(default=None, repr=False)  # nouns for provisional class names (adopt_names)
    lexicon_file: Path | None = field(default=None, repr=False)  # the relation lexicon (adopt_lexicon)

    @property
    def fingerprint(self) -> str:
        return self.store.info.fingerprint

    @classmethod
    def open(cls, spec: str | None, config: ScoutConfig) -> "KnowledgeGraph":
        """Open a file, an endpoint URL, or (None) the default geography KG, within the config's limits."""
        return cls.from_store(open_store(spec, config.cache_dir, store_limits(config)), config)

    @classmethod
    def from_store(cls, store: KGStore, config: ScoutConfig) -> "KnowledgeGraph":
        schema = cached_schema(store, config.cache_dir, InductionConfig(timeout_s=max(60.0, config.query_timeout_s)))
        schema = with_inverses(with_both_ways(schema, store), store)
        names_file = names_path(config.cache_dir, store.info.fingerprint)
        schema = rename_classes(schema, read_names(names_file))
        lexicon_file = lexicon_path(config.cache_dir, store.info.fingerprint) if config.lexicon else None
        schema = with_lexicon(schema, read_lexicon(lexicon_file) or {}) if lexicon_file else schema
        schema = with_unions(with_mutual_pairs(with_partner_words(schema), store))
        edits_file = edits_path(config.cache_dir, store.info.fingerprint)
        schema = _with_edits(schema, read_edits(edits_file))
        executor = Executor(
            store,
            schema,
            cache_dir=Path(config.cache_dir),
            cache_bytes=config.exec_cache_mb * 1024 * 1024,
            timeout_s=config.query_timeout_s,
        )
        return cls(store, schema, executor, edits_file, names_file, lexicon_file)

    def unnamed_classes(self) -> list[str]:
        """Classes whose name is a stand-in, or mixed classes the namer was not asked about yet (ClassInfo.also),
        whose label the user has not written: a namer's work."""
        edited = {e.name for e in (read_edits(self.edits_file) if self.edits_file else ()) if e.label}
        asked = read_names(self.names_file) if self.names_file else {}
        return [c.name for c in self.schema.classes
                if (c.provisional or (c.mixed and c.name not in asked)) and c.name not in edited]

    def adopt_names(self, names: dict[str, str]) -> Schema:
        """Rename provisional classes ({stand-in: noun}), give mixed ones their noun, and keep the nouns, so every
        later opening of this KG, by the app, the CLI or a bootstrap, names the classes alike. Call it before a
        corpus names them."""
        unnamed = set(self.unnamed_classes())
        names = {k: v for k, v in names.items() if k in unnamed and v.strip()}
        if not names:
            return self.schema
        if self.names_file is not None:
            write_names(self.names_file, {**read_names(self.names_file), **names})
        self.schema = self.executor.schema = rename_classes(self.schema, names)
        return self.schema

    def has_lexicon(self) -> bool:
        """Whether the relation lexicon was built for this KG (engine.bootstrap.lexicon builds it once); a KG
        opened without one (ScoutConfig.lexicon off) never gets one."""
        return self.lexicon_file is None or read_lexicon(self.lexicon_file) is not None

    def adopt_lexicon(self, lexicon: dict[str, RelationWords]) -> Schema:
        """Keep the lexicon with the KG and put its words into the schema; the user's own words for a relation
        (edit_schema) stay on top."""
        if self.lexicon_file is not None:
            write_lexicon(self.lexicon_file, lexicon)
        schema = with_partner_words(with_lexicon(without_unions(self.schema), lexicon))
        schema = with_unions(with_mutual_pairs(schema, self.store))
        schema = _with_edits(schema, read_edits(self.edits_file) if self.edits_file else ())
        self.schema = self.executor.schema = schema
        return schema

    def edit_schema(self, edits: list[SchemaEdit]) -> Schema:
        """Apply a user's labels and descriptions, and keep them for the next time this KG is opened."""
        merged = {e.name: e for e in (read_edits(self.edits_file) if self.edits_file else ())}
        for edit in edits:
            old = merged.get(edit.name)
            merged[edit.name] = SchemaEdit(*(
                getattr(edit, f.name) if getattr(edit, f.name) is not None else (getattr(old, f.name) if old else None)
                for f in fields(SchemaEdit)))
        schema = apply_edits(self.schema, list(merged.values()))
        if self.edits_file is not None:
            write_edits(self.edits_file, list(merged.values()))
        self.schema = self.executor.schema = schema
        return schema

    def close(self) -> None:
        self.executor.close()
        self.store.close()


def store_limits(config: ScoutConfig) -> StoreLimits:
    """What a store opened under this config may cost, and whether an endpoint may be inside (kg_adapters.registry)."""
    return StoreLimits(
        max_bytes=config.max_upload_bytes,
        timeout_s=config.query_timeout_s,
        retries=config.endpoint_retries,
        max_rows=config.max_answers,
        max_predicates=config.max_predicates,
        max_triples=config.max_triples,
        max_response_bytes=int(config.max_response_mb * 1024 * 1024),
        allow_private_endpoints=config.allow_private_endpoints,
    )


def _with_edits(schema: Schema, edits: tuple[SchemaEdit, ...]) -> Schema:
    try:
        return apply_edits(schema, edits) if edits else schema
    except KGError:  # edits saved for an older schema: show the schema as read
        return schema
