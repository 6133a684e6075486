"""A KG ready to query: its store, its schema and an executor, opened together."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from kg_adapters.base import KGStore
from kg_adapters.registry import open_store
from kg_adapters.schema import InductionConfig, Schema, cached_schema

from .config import ScoutConfig
from .executor import Executor


@dataclass
class KnowledgeGraph:
    store: KGStore
    schema: Schema
    executor: Executor

    @property
    def fingerprint(self) -> str:
        return self.store.info.fingerprint

    @classmethod
    def open(cls, spec: str | None, config: ScoutConfig) -> "KnowledgeGraph":
        """Open a file, an endpoint URL, or (None) the default geography KG."""
        store = open_store(
            spec,
            cache_dir=config.cache_dir,
            max_bytes=config.max_upload_bytes,
            timeout_s=config.query_timeout_s,
            retries=config.endpoint_retries,
        )
        return cls.from_store(store, config)

    @classmethod
    def from_store(cls, store: KGStore, config: ScoutConfig) -> "KnowledgeGraph":
        schema = cached_schema(store, config.cache_dir, InductionConfig(timeout_s=max(60.0, config.query_timeout_s)))
        executor = Executor(
            store,
            schema,
            cache_dir=Path(config.cache_dir),
            cache_bytes=config.exec_cache_mb * 1024 * 1024,
            timeout_s=config.query_timeout_s,
        )
        return cls(store, schema, executor)

    def close(self) -> None:
        self.executor.close()
        self.store.close()
