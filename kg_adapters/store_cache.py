"""The disk that stores of uploaded files take: what one store costs, when it was last used, and removing
the ones nobody uses.

A public app builds a store (`<cache>/stores/<hash>-v<N>/`, kg_adapters.oxigraph_store) for every distinct
file anyone uploads, so without a sweep the disk only fills. Each store folder carries a `LAST_USED` marker
whose modification time the app refreshes while a session uses the store; `sweep` removes stores idle for
longer than the configured time, scratch folders that a killed build left behind, and folders without their
`READY` marker (never trusted anyway). A store is first renamed out of the way and then deleted, so a
concurrent open sees either the whole store or none (and rebuilds it).
"""

from __future__ import annotations

import os
import re
import shutil
import time
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

LAST_USED = "LAST_USED"
READY = "READY"
# A scratch folder of a build: ".<target>.tmp-<pid>-<ns>" (oxigraph_store._build).
_SCRATCH = re.compile(r"^\..+\.tmp-(?P<pid>\d+)-\d+$")
_TRASH_PREFIX = ".expired-"
SCRATCH_GRACE_S = 3600.0  # a scratch folder of a live build older than this is abandoned too


@dataclass(frozen=True)
class Sweep:
    """What one sweep removed: store folders (by name) and leftovers of killed builds, and the bytes freed."""

    stores: tuple[str, ...] = ()
    leftovers: int = 0
    freed_bytes: int = 0


def folder_bytes(folder: str | os.PathLike) -> int:
    """Bytes of every file under `folder` (0 when it is gone)."""
    total = 0
    for root, _, files in os.walk(folder):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
            except OSError:  # removed while we looked
                continue
    return total


def touch(folder: str | os.PathLike) -> None:
    """Mark the store in `folder` as used now; a store that has gone is left alone."""
    marker = Path(folder) / LAST_USED
    try:
        marker.touch()
    except OSError:
        pass


def last_used(folder: Path) -> float:
    """When the store was last used: its marker, else when it was built."""
    for name in (LAST_USED, READY):
        try:
            return (folder / name).stat().st_mtime
        except OSError:
            continue
    return 0.0


def sweep(cache_dir: str | os.PathLike, idle_s: float, keep: Collection[str] = (),
          now: float | None = None) -> Sweep:
    """Remove stores under `cache_dir/stores` unused for `idle_s` seconds (none when `idle_s` <= 0), except
    the folders in `keep` (stores open right now), and every leftover of a killed build."""
    root = Path(cache_dir) / "stores"
    if not root.is_dir():
        return Sweep()
    now = time.time() if now is None else now
    kept = {str(Path(k)) for k in keep}
    stores, leftovers, freed = [], 0, 0
    for folder in sorted(root.iterdir()):
        if not folder.is_dir() or str(folder) in kept:
            continue
        if _is_leftover(folder, now):
            freed += remove(folder)
            leftovers += 1
        elif idle_s > 0 and (folder / READY).is_file() and now - last_used(folder) > idle_s:
            freed += remove(folder)
            stores.append(folder.name)
    return Sweep(tuple(stores), leftovers, freed)


def _is_leftover(folder: Path, now: float) -> bool:
    """A scratch folder whose build is dead, a store being removed, or a store folder without READY."""
    if folder.name.startswith(_TRASH_PREFIX):
        return True
    match = _SCRATCH.match(folder.name)
    if match:
        young = now - folder.stat().st_mtime < SCRATCH_GRACE_S
        return not (young and _alive(int(match["pid"])))
    return not folder.name.startswith(".") and not (folder / READY).is_file() and \
        now - folder.stat().st_mtime > SCRATCH_GRACE_S  # a build renames whole folders in: give it time


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove(folder: str | os.PathLike) -> int:
    """Rename out of the way, then delete (a concurrent open sees the whole store or none); the bytes freed."""
    folder = Path(folder)
    size = folder_bytes(folder)
    trash = folder if folder.name.startswith(_TRASH_PREFIX) else \
        folder.with_name(f"{_TRASH_PREFIX}{folder.name}-{time.time_ns()}")
    try:
        if trash != folder:
            os.replace(folder, trash)
    except OSError:
        return 0
    shutil.rmtree(trash, ignore_errors=True)
    return size
