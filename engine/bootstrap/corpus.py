"""The exploration corpus: explored programs with their generated questions.

A corpus is a folder:
  manifest.json   KG fingerprint, model, parameters, counts (rewritten atomically)
  programs.jsonl  the explored programs, written once, atomically, before generation
  records.jsonl   one generated record per line, appended and fsynced one at a time

Building is resumable by construction: the programs are fixed before any question
is written, a record is appended only whole, and a restart skips every program
that already has a record. A torn last line (kill -9 mid-write) is cut off before
the next append, so it can never glue itself to a new record; readers skip it. A
write that fails (a full disk) is rolled back to the last whole line and reported
as a CorpusError, so the corpus stays readable. Files written whole (manifest,
programs) go through a temporary file, fsync and rename, and the folder is fsynced
so the rename itself survives. A corpus built for another KG fingerprint is refused.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import threading
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Iterator

from .explorer import ExploredProgram

MANIFEST, PROGRAMS, RECORDS = "manifest.json", "programs.jsonl", "records.jsonl"
LOCK = ".records.lock"  # taken by append and remove, so an undo never races a running bootstrap's append
_THREAD_LOCKS: dict[str, threading.Lock] = {}  # flock is per open file; threads of one process also need this
_THREAD_LOCKS_GUARD = threading.Lock()
CORPUS_VERSION = 1


class CorpusError(Exception):
    """A corpus that cannot be used here (another KG, damaged files); the message says why."""


@dataclass(frozen=True)
class CorpusRecord:
    program: str
    subprograms: tuple[str, ...]
    question: str
    anonymised_question: str
    top_beam_question: str
    ic_score: float
    top_beam_ic_score: float
    beam_score: float
    subquestions: tuple[tuple[str, str], ...]
    anonymised: str
    pattern: str
    answers: int
    entities: tuple[tuple[str, str, str], ...]
    source: str = "explored"  # "user" for answers a user marked correct; "reading" for a stand-in (readings.py)

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False)

    @classmethod
    def from_json(cls, line: str) -> "CorpusRecord":
        data = json.loads(line)
        data["subprograms"] = tuple(data["subprograms"])
        data["subquestions"] = tuple(tuple(p) for p in data["subquestions"])
        data["entities"] = tuple(tuple(e) for e in data["entities"])
        return cls(**data)


@dataclass(frozen=True)
class Removed:
    """Where a removed record's line was: a reader that had read past it moves its offset back by `length`."""

    offset: int
    length: int


@dataclass
class Manifest:
    fingerprint: str
    kg: str
    model: str
    parameters: dict
    counts: dict = field(default_factory=dict)
    version: int = CORPUS_VERSION


class Corpus:
    def __init__(self, folder: str | os.PathLike):
        self.folder = Path(folder)

    # ------------------------------------------------------------ manifest
    def exists(self) -> bool:
        return (self.folder / MANIFEST).is_file()

    def manifest(self) -> Manifest:
        try:
            return Manifest(**json.loads((self.folder / MANIFEST).read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError) as err:
            raise CorpusError(f"{self.folder} is not a readable corpus: {err}") from err

    def write_manifest(self, manifest: Manifest) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        _atomic_write(self.folder / MANIFEST, json.dumps(asdict(manifest), indent=1))

    def check_fingerprint(self, fingerprint: str) -> None:
        if self.exists() and self.manifest().fingerprint != fingerprint:
            raise CorpusError(
                f"the corpus in {self.folder} was built for another KG "
                f"({self.manifest().kg}, fingerprint {self.manifest().fingerprint[:40]}...); "
                "choose another --out folder"
            )

    # ------------------------------------------------------------ programs
    def has_programs(self) -> bool:
        return (self.folder / PROGRAMS).is_file()

    def write_programs(self, programs: list[ExploredProgram]) -> None:
        text = "".join(json.dumps(asdict(p), ensure_ascii=False) + "\n" for p in programs)
        self.folder.mkdir(parents=True, exist_ok=True)
        _atomic_write(self.folder / PROGRAMS, text)

    def programs(self) -> list[ExploredProgram]:
        out = []
        for line in (self.folder / PROGRAMS).read_text(encoding="utf-8").splitlines():
            data = json.loads(line)
            data["subprograms"] = tuple(data["subprograms"])
            data["entities"] = tuple(tuple(e) for e in data["entities"])
            out.append(ExploredProgram(**data))
        return out

    # ------------------------------------------------------------ records
    def records(self) -> list[CorpusRecord]:
        return self.records_from(0)[0]

    def records_from(self, offset: int) -> tuple[list[CorpusRecord], int]:
        """The whole records from byte `offset` on, and the offset after the last of them. A reader that
        follows a running bootstrap reads only what was appended since it last looked; a line still being
        appended waits for the next look."""
        path = self.folder / RECORDS
        if not path.is_file():
            return [], offset
        with path.open("rb") as handle:
            handle.seek(offset)
            data = handle.read()
        whole = data[: data.rfind(b"\n") + 1]
        try:
            records = [CorpusRecord.from_json(line) for line in whole.decode("utf-8").splitlines() if line.strip()]
        except (ValueError, TypeError, KeyError) as err:
            raise CorpusError(f"{path} holds a damaged record ({err}); it was not written by KG Scout") from err
        return records, offset + len(whole)

    def repair(self) -> int:
        """Cut a torn last line left by a kill mid-append; returns bytes removed."""
        path = self.folder / RECORDS
        if not path.is_file():
            return 0
        data = path.read_bytes()
        keep = data.rfind(b"\n") + 1
        if keep == len(data):
            return 0
        with path.open("r+b") as handle:
            handle.truncate(keep)
            handle.flush()
            os.fsync(handle.fileno())
        return len(data) - keep

    def append(self, record: CorpusRecord) -> None:
        """Append one whole line and fsync it, so a kill never loses a finished record.

        A torn line a kill left at the end is cut off first (else the new record would be glued to it and
        both lost); a write that fails half way is cut back, and raises CorpusError saying why."""
        self.folder.mkdir(parents=True, exist_ok=True)
        line = (record.to_json() + "\n").encode("utf-8")
        with self._locked():  # a bootstrap, a "mark correct" and its undo may write at once
            fd = os.open(self.folder / RECORDS, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                whole = _whole_length(fd)
                try:
                    _write_all(fd, line)
                    os.fsync(fd)
                except OSError as err:
                    os.ftruncate(fd, whole)
                    raise CorpusError(_write_failure(self.folder, err)) from err
            finally:
                os.close(fd)

    def remove(self, record: CorpusRecord) -> Removed | None:
        """Take back the last line holding exactly this record (a user's "undo"); None when it is not there.

        The file is rewritten whole and swapped in atomically, under the same lock as `append`, so a
        bootstrap appending at the same moment (in this process or another) loses nothing."""
        line = (record.to_json() + "\n").encode("utf-8")
        path = self.folder / RECORDS
        with self._locked():
            if not path.is_file():
                return None
            data = path.read_bytes()
            at = data.rfind(line)
            if at < 0 or (at > 0 and data[at - 1 : at] != b"\n"):
                return None
            tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}-{threading.get_ident()}")
            with tmp.open("wb") as handle:
                handle.write(data[:at] + data[at + len(line):])
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, path)
        return Removed(at, len(line))

    @contextmanager
    def _locked(self) -> Iterator[None]:
        """The records file's lock: a thread lock for this process, an flock for other processes."""
        self.folder.mkdir(parents=True, exist_ok=True)
        key = str(self.folder.resolve())
        with _THREAD_LOCKS_GUARD:
            thread_lock = _THREAD_LOCKS.setdefault(key, threading.Lock())
        with thread_lock, (self.folder / LOCK).open("a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)


def _whole_length(fd: int) -> int:
    """The file's length up to its last newline, after cutting off a torn tail."""
    size = os.fstat(fd).st_size
    if size == 0:
        return 0
    tail = os.pread(fd, min(size, 1 << 16), max(0, size - (1 << 16)))
    if tail.endswith(b"\n"):
        return size
    cut = tail.rfind(b"\n")
    if cut < 0 and size > len(tail):  # one line longer than the window: find its start the slow way
        data = os.pread(fd, size, 0)
        keep = data.rfind(b"\n") + 1
    else:
        keep = size - len(tail) + cut + 1
    os.ftruncate(fd, keep)
    return keep


def _write_all(fd: int, data: bytes) -> None:
    """os.write may write part of a buffer (a disk filling up); the rest is written or an OSError raised."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        if written == 0:
            raise OSError(errno.ENOSPC, "no space left on device")
        view = view[written:]


def _write_failure(folder: Path, err: OSError) -> str:
    if err.errno in (errno.ENOSPC, errno.EDQUOT):
        return (f"the disk holding {folder} is full, so the record was not saved; the corpus keeps every "
                "record saved before. Free some space and try again.")
    return f"could not save the record in {folder}: {err.strerror or err}; the corpus keeps every record saved before"


def _atomic_write(path: Path, text: str) -> None:
    """Write whole or not at all: a kill or a full disk leaves the old file, never half of the new one."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        with tmp.open("w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except OSError as err:
        tmp.unlink(missing_ok=True)
        raise CorpusError(_write_failure(path.parent, err)) from err
    fsync_dir(path.parent)


def fsync_dir(folder: Path) -> None:
    """Make a rename in `folder` durable (a file's own fsync does not cover its directory entry)."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
