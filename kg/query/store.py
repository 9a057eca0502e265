"""An on-disk Oxigraph store per RDF export: loaded once, then opened read-only by every query.

Stores live in one directory (`$PAPERKG_STORE_DIR`, else the user cache directory's `stores`):

    <key>/                a complete store, flushed to disk (syncfs), then renamed into place, never written again;
                          removed when the same export path gets a new store and no other export uses it
    <key>.lock            held (flock) by the one process building <key>
    .tmp-<key>-<pid>/     a build in progress (removed when it fails)
    exports/<hash>.json   per export path: the digest last computed and the file stat it was computed from

`key` is the SHA-256 of the export's bytes, its RDF format and the pyoxigraph version, so an edited
export gets a new store and is never answered from the old one. Hashing a large export costs more
than a query, so the digest is remembered with the file's (size, mtime, ctime, inode) and reused
while they are unchanged; it is only remembered when the file was last written more than two seconds
before it was hashed, so a write in the same timestamp tick cannot go unnoticed (git's racy check).
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import threading
import time
from pathlib import Path
from typing import Callable

import pyoxigraph as ox

from kg.errors import UserError
from kg.durable import commit, file_digest, fsync_path, sync_filesystem

STORE_ENV = "PAPERKG_STORE_DIR"
RDF_SUFFIXES = {".ttl": "TURTLE", ".nt": "N_TRIPLES", ".jsonld": "JSON_LD"}
TEMPORARY_PREFIX = ".tmp-"
RACY_SECONDS = 2.0


class StoreError(UserError):
    """An export that cannot be loaded: unsupported suffix, missing file, RDF syntax error."""


def default_store_dir() -> Path:
    """$PAPERKG_STORE_DIR, else `stores` in the user's cache directory for paperkg."""
    if os.environ.get(STORE_ENV):
        return Path(os.environ[STORE_ENV])
    import platformdirs

    return Path(platformdirs.user_cache_dir("paperkg")) / "stores"


def rdf_format(path: Path) -> ox.RdfFormat:
    """The RDF format of an export by its suffix; anything else is a StoreError naming the choices."""
    name = RDF_SUFFIXES.get(path.suffix.lower())
    if path.is_dir():
        raise StoreError(f"{path}: is a folder; kg query reads one .ttl/.nt/.jsonld file (e.g. {path / 'graph.ttl'})")
    if name is None:
        raise StoreError(f"{path}: kg query reads .ttl/.nt/.jsonld (got {path.suffix or 'no suffix'})")
    return getattr(ox.RdfFormat, name)


def open_store(export: str | Path, store_dir: Path | None = None,
               on_build: Callable[[Path], None] | None = None) -> ox.Store:
    """The export's store opened read-only, built first when missing or stale."""
    return ox.Store.read_only(str(ensure_store(Path(export), store_dir or default_store_dir(), on_build)))


class Rebuilding(StoreError):
    """The export changed and its new store is being built in the background: the client should retry."""

    retry_after = 2


class LiveStore:
    """An export's store that follows the file: each call gives the store's folder, or `Rebuilding` while a
    changed export is loaded in a background thread (a request never waits for a load)."""

    def __init__(self, export: str | Path, store_dir: Path | None = None,
                 on_build: Callable[[Path], None] | None = None) -> None:
        self.export, self.store_dir, self.on_build = Path(export), store_dir or default_store_dir(), on_build
        self._lock = threading.Lock()
        self._seen: list[int] | None = None  # the file signature the store (or the error) belongs to
        self._store: Path | None = None
        self._failure: StoreError | None = None
        self._loading: threading.Thread | None = None
        self._load(self._signature())  # the first load happens before the endpoint starts
        if self._failure:
            raise self._failure

    def _signature(self) -> list[int]:
        try:
            return signature(self.export.stat())
        except OSError as error:
            raise StoreError(f"{self.export}: {error.strerror or error}; the endpoint answers only from it") from None

    def __call__(self) -> Path:
        """The store of the export as it is now (one stat per call); Rebuilding while a changed export loads."""
        now = self._signature()
        with self._lock:
            if now == self._seen:
                if self._failure:
                    raise self._failure
                return self._store
            if self._loading is None or not self._loading.is_alive():
                self._loading = threading.Thread(target=self._load, args=(now,), daemon=True)
                self._loading.start()
        raise Rebuilding(f"{self.export} changed and its query store is being rebuilt; "
                         f"retry in {Rebuilding.retry_after} s")

    def _load(self, seen: list[int]) -> None:
        """Build (or find) the store for the export as signed by `seen`, and keep it or the reason it failed."""
        try:
            store, failure = ensure_store(self.export, self.store_dir, self.on_build), None
        except StoreError as error:
            store, failure = None, error
        except Exception as error:  # noqa: BLE001 (a background thread: the reason must reach the next request)
            store, failure = None, StoreError(f"{self.export}: the query store could not be built ({error!r})")
        with self._lock:
            self._seen, self._store, self._failure = seen, store, failure


def ensure_store(export: Path, store_dir: Path, on_build: Callable[[Path], None] | None = None) -> Path:
    """The directory of the export's complete store; builds it (once, under a lock) when missing."""
    fmt = rdf_format(export)
    if not export.is_file():
        raise StoreError(f"{export}: no such graph file")
    digest, stat, memorised = export_digest(export, store_dir)
    key = f"{digest[:32]}-{fmt.file_extension}-ox{ox.__version__}"
    final = store_dir / key
    try:
        if not final.is_dir():
            store_dir.mkdir(parents=True, exist_ok=True)
            with open(store_dir / f"{key}.lock", "w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                if not final.is_dir():  # another process may have built it while we waited
                    if on_build:
                        on_build(export)
                    build_store(export, fmt, stat, final)
                    drop_replaced(export, store_dir, key)
        if not memorised and time.time() - stat.st_mtime > RACY_SECONDS:
            remember(export, store_dir, digest, stat, key)
    except OSError as error:
        raise StoreError(f"cannot write the query store in {store_dir} ({error.strerror or error}); "
                         f"choose another folder with --store-dir or ${STORE_ENV}") from None
    return final


def build_store(export: Path, fmt: ox.RdfFormat, stat: os.stat_result, final: Path) -> None:
    """Bulk-load the export into a temporary directory, then rename it into place."""
    temporary = final.with_name(f"{TEMPORARY_PREFIX}{final.name}-{os.getpid()}")
    shutil.rmtree(temporary, ignore_errors=True)
    try:
        store = ox.Store(str(temporary))
        try:
            store.bulk_load(path=str(export), format=fmt)
        except (SyntaxError, ValueError) as error:
            raise StoreError(f"{export}: not valid {fmt.name}: {' '.join(str(error).split())}") from None
        store.optimize()
        store.flush()
        del store
        if signature(export.stat()) != signature(stat):
            raise StoreError(f"{export}: the file changed while it was loaded; run the query again")
        sync_filesystem(temporary)  # its files on disk before the folder gets its final name
        os.rename(temporary, final)
        fsync_path(final.parent, directory=True)
    finally:
        shutil.rmtree(temporary, ignore_errors=True)


def export_digest(export: Path, store_dir: Path) -> tuple[str, os.stat_result, bool]:
    """The SHA-256 of the export's bytes, the stat it belongs to, and whether it came from the memo."""
    stat = export.stat()
    try:
        saved = json.loads(memo_path(export, store_dir).read_text(encoding="utf-8"))
        if saved["stat"] == signature(stat):
            return saved["digest"], stat, True
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return file_digest(export), stat, False


def remember(export: Path, store_dir: Path, digest: str, stat: os.stat_result, key: str) -> None:
    """Write the export's digest memo (atomically)."""
    memo = memo_path(export, store_dir)
    memo.parent.mkdir(parents=True, exist_ok=True)
    temporary = memo.with_name(f"{TEMPORARY_PREFIX}{memo.name}-{os.getpid()}")
    temporary.write_text(json.dumps({"path": str(export.resolve()), "digest": digest, "key": key,
                                     "stat": signature(stat)}), encoding="utf-8")
    commit(temporary, memo)


def drop_replaced(export: Path, store_dir: Path, key: str) -> None:
    """Remove the store this export had before `key`, unless another export's memo still points at it."""
    memo = memo_path(export, store_dir)
    previous = memo_key(memo)
    if not previous or previous == key:
        return
    if not any(memo_key(other) == previous for other in (store_dir / "exports").glob("*.json") if other != memo):
        shutil.rmtree(store_dir / previous, ignore_errors=True)
        (store_dir / f"{previous}.lock").unlink(missing_ok=True)


def memo_key(memo: Path) -> str | None:
    """The store key a memo points at, if it can be read."""
    try:
        return json.loads(memo.read_text(encoding="utf-8")).get("key")
    except (OSError, ValueError, AttributeError):
        return None


def memo_path(export: Path, store_dir: Path) -> Path:
    """Where the digest memo of an export path lives."""
    return store_dir / "exports" / f"{hashlib.sha1(str(export.resolve()).encode('utf-8')).hexdigest()}.json"


def signature(stat: os.stat_result) -> list[int]:
    """What changes whenever a file's bytes may have changed."""
    return [stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino, stat.st_dev]
