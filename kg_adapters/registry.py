"""Turn what a user typed (nothing, a file path, an endpoint URL) into a store.

The one place that knows which adapter serves which kind of location, so callers
never branch on store types.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .base import KGStore, LoadError
from .loader import DEFAULT_MAX_PREDICATES, DEFAULT_MAX_TRIPLES
from .oxigraph_store import DEFAULT_MAX_ROWS
from .sparql_endpoint import DEFAULT_MAX_RESPONSE_BYTES


@dataclass(frozen=True)
class StoreLimits:
    """What one store may cost: every query's time and rows, a file's size and predicates, an endpoint's
    answer size, and whether an endpoint may be on this machine or its network (the app: only if allowed)."""

    max_bytes: int
    timeout_s: float = 20.0
    retries: int = 2
    max_rows: int = DEFAULT_MAX_ROWS
    max_predicates: int = DEFAULT_MAX_PREDICATES
    max_triples: int = DEFAULT_MAX_TRIPLES
    max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES
    allow_private_endpoints: bool = False


def is_endpoint(spec: str) -> bool:
    return spec.startswith(("http://", "https://"))


def open_store(spec: str | None, cache_dir: str | Path, limits: StoreLimits) -> KGStore:
    """None means the default geography KG, built on first use."""
    if spec is None or spec == "":
        from .geography import default_kg_path

        spec = str(default_kg_path(Path(cache_dir) / "default"))
    if is_endpoint(spec):
        return _open_endpoint(spec, limits)
    from .oxigraph_store import OxigraphStore

    if not Path(spec).exists():
        raise LoadError(f"no such file: {spec}", path=spec)
    return OxigraphStore.from_file(spec, cache_root=cache_dir, max_bytes=limits.max_bytes,
                                   max_predicates=limits.max_predicates, max_triples=limits.max_triples, timeout_s=limits.timeout_s,
                                   max_rows=limits.max_rows)


def _open_endpoint(url: str, limits: StoreLimits) -> KGStore:
    from .sparql_endpoint import SparqlEndpointStore
    from .url_guard import refusal_reason

    store = SparqlEndpointStore(
        url, timeout_s=limits.timeout_s, retries=limits.retries, max_rows=limits.max_rows,
        max_response_bytes=limits.max_response_bytes,
        address_check=None if limits.allow_private_endpoints else refusal_reason,
    )
    store.check()
    return store
