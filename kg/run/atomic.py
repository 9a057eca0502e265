"""Crash-safe outputs: files replaced atomically, and one build at a time per output folder.

A file is written to a hidden temporary file in its own folder, flushed to disk (fsync), then
renamed over the old one (`os.replace`, atomic on POSIX): a crash, a `kill -9` or a full disk
leaves the previous file whole, never a truncated one. `OutputLock` holds an advisory lock
(`fcntl.flock`, released by the kernel when the process dies, so a crash leaves no stale lock)
on `<folder>/.kg-build.lock`, which names its holder (pid and host) for the error message of a
second build into the same folder. `kg.run.manifest.output_folder` takes that lock for a build.
"""
from __future__ import annotations

import errno
import os
import socket
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from kg.durable import commit, file_digest, fsync_path, sync_filesystem  # noqa: F401  (re-exported)
from kg.errors import UserError

try:
    import fcntl
except ImportError:  # pragma: no cover  (Windows: no advisory locks; builds are not serialised)
    fcntl = None  # type: ignore[assignment]

LOCK_NAME = ".kg-build.lock"
TEMP_PREFIX = ".kg-tmp-"


class OutputBusy(UserError):
    """Another process holds the output folder's lock; the message names it."""


def temporary_path(target: Path) -> Path:
    """A hidden temporary file beside `target` (same folder, so the rename is atomic)."""
    return target.with_name(f"{TEMP_PREFIX}{os.getpid()}-{target.name}")






def discard(*paths: Path) -> None:
    """Remove temporary files, ignoring those already gone."""
    for path in paths:
        try:
            path.unlink()
        except FileNotFoundError:
            pass


@contextmanager
def atomic_path(target: str | Path) -> Iterator[Path]:
    """A temporary path to write instead of `target`; renamed over it only if the block succeeds."""
    target = Path(target)
    temporary = temporary_path(target)
    try:
        yield temporary
        commit(temporary, target)
    finally:
        discard(temporary)
    fsync_path(target.parent, directory=True)


def remove_leftovers(folder: Path) -> list[Path]:
    """Delete temporary files a crashed build left in `folder` (call with the folder's lock held)."""
    removed = []
    for path in folder.glob(f"{TEMP_PREFIX}*"):
        if path.is_file():
            discard(path)
            removed.append(path)
    return removed


def lock_holder(fd: int, tries: int = 50) -> str:
    """Who holds a lock file: its `pid N on HOST` line, which the holder writes just after taking the lock
    (so an empty file is read again for up to half a second before the holder counts as unknown)."""
    for _ in range(tries):
        holder = os.pread(fd, 200, 0).decode("utf-8", "replace").strip()
        if holder:
            return holder
        time.sleep(0.01)
    return "unknown process"


class OutputLock:
    """An exclusive lock on an output folder for one build; fails at once if another build holds it."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.path = folder / LOCK_NAME
        self._fd: int | None = None

    def __enter__(self) -> "OutputLock":
        if fcntl is None:
            return self
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as error:
                holder = lock_holder(fd)
                os.close(fd)
                if error.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                    raise
                raise OutputBusy(f"{self.folder}: another kg build ({holder}) is writing to this folder; "
                                 "wait for it to finish or choose another --out") from None
            if self._same_file(fd):
                break
            os.close(fd)  # the holder removed the file between our open and lock: lock the new one
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"pid {os.getpid()} on {socket.gethostname()}\n".encode(), 0)
        self._fd = fd
        return self

    def _same_file(self, fd: int) -> bool:
        """Whether the locked descriptor is still the file at self.path."""
        try:
            return os.stat(self.path).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            return False

    def __exit__(self, *exc: object) -> None:
        if self._fd is None:
            return
        discard(self.path)  # removed while still locked, so a waiting build re-checks (see _same_file)
        os.close(self._fd)
        self._fd = None
