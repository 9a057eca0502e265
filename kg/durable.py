"""Durable files: an fsync of a file or folder, one syncfs for a batch of files, a flushed rename, a file's digest.

Below every package that writes files (kg.run.atomic, kg.cache, kg.query.store), so none imports another for it.
"""
from __future__ import annotations

import errno
import hashlib
import os
from pathlib import Path


def fsync_path(path: Path, directory: bool = False) -> None:
    """Flush a file's (or a folder's entries') data to disk; folders that cannot be opened are skipped."""
    try:
        fd = os.open(path, os.O_RDONLY | (getattr(os, "O_DIRECTORY", 0) if directory else 0))
    except OSError:
        if directory:
            return
        raise
    try:
        os.fsync(fd)
    except OSError as error:
        if not directory or error.errno not in (errno.EINVAL, errno.EBADF):
            raise
    finally:
        os.close(fd)


def file_digest(path: Path) -> str:
    """The SHA-256 of a file's bytes, read in 1 MiB chunks."""
    found = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            found.update(chunk)
    return found.hexdigest()


def sync_filesystem(path: Path) -> None:
    """Flush every file written on the filesystem holding `path` (Linux `syncfs`: one call makes a batch of new
    files durable, where an fsync per file costs milliseconds each; elsewhere `os.sync`)."""
    try:
        import ctypes

        syncfs = ctypes.CDLL(None, use_errno=True).syncfs
    except (OSError, AttributeError):
        os.sync()
        return
    fd = os.open(path, os.O_RDONLY)
    try:
        if syncfs(fd) != 0:
            os.sync()
    finally:
        os.close(fd)


def commit(temporary: Path, target: Path) -> None:
    """Flush `temporary` and rename it over `target`."""
    fsync_path(temporary)
    os.replace(temporary, target)
