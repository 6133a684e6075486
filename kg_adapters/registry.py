"""Turn what a user typed (nothing, a file path, an endpoint URL) into a store.

The one place that knows which adapter serves which kind of location, so callers
never branch on store types.
"""

from __future__ import annotations

from pathlib import Path

from .base import KGStore, LoadError


def is_endpoint(spec: str) -> bool:
    return spec.startswith(("http://", "https://"))


def open_store(
    spec: str | None,
    cache_dir: str | Path,
    max_bytes: int,
    timeout_s: float = 20.0,
    retries: int = 2,
) -> KGStore:
    """None means the default geography KG, built on first use."""
    if spec is None or spec == "":
        from .geography import default_kg_path

        spec = str(default_kg_path(Path(cache_dir) / "default"))
    if is_endpoint(spec):
        from .sparql_endpoint import SparqlEndpointStore

        store = SparqlEndpointStore(spec, timeout_s=timeout_s, retries=retries)
        store.check()
        return store
    from .oxigraph_store import OxigraphStore

    if not Path(spec).exists():
        raise LoadError(f"no such file: {spec}", path=spec)
    return OxigraphStore.from_file(spec, cache_root=cache_dir, max_bytes=max_bytes)
