"""A per-paper extraction cache: one checksummed JSON file per (paper, extraction setup)."""
from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from dataclasses import astuple, fields
from pathlib import Path
from typing import Any

from kg.cache.admin import TEMPORARY_PREFIX, entry_path
from kg.extraction.interface import Extraction
from kg.durable import sync_filesystem
from kg.types import Mention, MentionRelation, Paper, ResultMention

log = logging.getLogger(__name__)

FORMAT = 1  # bump when the entry layout changes
BATCH = 256  # entries made durable (one syncfs) and renamed into place together
MAGIC = b"paperkg-cache"
APP_NAME = "paperkg"


CACHE_ENV = "PAPERKG_CACHE_DIR"
# the modules that run a paper's extraction (besides the extractors): their imports are followed
EXTRACTION_ROOTS = ("kg.extraction.interface", "kg.nlp.load", "kg.run.worker")
# data that extractors read by resource name, not by import: kg.ontology's gazetteer and generic terms (JSON lines);
# its vocabulary, shapes, named queries and GraphML schema serve the exports, and editing them keeps cached entries
DATA_PACKAGES = {"kg.ontology": (".jsonl",)}


def default_cache_dir() -> Path:
    """$PAPERKG_CACHE_DIR, else the user's cache directory for paperkg (platformdirs)."""
    import platformdirs

    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    return Path(platformdirs.user_cache_dir(APP_NAME)) / "extractions"


def code_digest(*modules: str) -> str:
    """A digest of every file a paper's extraction reads: edits anywhere in them invalidate entries.

    That is the source of the extraction modules and of `modules` (the extractor factory's) and of
    everything they import within kg, the data files of those packages and of kg.ontology, and for
    a factory outside kg (a plug-in), its whole top-level package.
    """
    from kg.cache.sources import import_closure, package_files

    inside = [m for m in modules if m == "kg" or m.startswith("kg.")]
    outside = sorted({m.split(".")[0] for m in modules} - {"kg"})
    digest = hashlib.sha256()
    for name, path in package_files(import_closure(*EXTRACTION_ROOTS, *inside), DATA_PACKAGES, outside):
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def setup_salt(**setup: Any) -> str:
    """A digest of everything besides the paper that the extraction depends on."""
    blob = json.dumps({"format": FORMAT, **setup}, sort_keys=True, default=repr)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def encode(extraction: Extraction) -> bytes:
    """The JSON form of an extraction (mentions as field lists)."""
    data = {
        "mentions": [list(astuple(m)) for m in extraction.mentions],
        "relations": [[r.paper_id, r.relation, list(astuple(r.source)), list(astuple(r.target))]
                      for r in extraction.relations],
        "abbreviations": [list(pair) for pair in extraction.abbreviations],
        "results": [encode_result(r) for r in extraction.results],
    }
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def decode(payload: bytes) -> Extraction:
    """The extraction from its JSON form; raises on anything malformed."""
    data = json.loads(payload.decode("utf-8"))
    mentions = tuple(Mention(*fields) for fields in data["mentions"])
    relations = tuple(MentionRelation(paper_id, relation, Mention(*source), Mention(*target))
                      for paper_id, relation, source, target in data["relations"])
    abbreviations = tuple((short, long) for short, long in data["abbreviations"])
    results = tuple(decode_result(r) for r in data.get("results", ()))
    return Extraction(mentions, relations, abbreviations, results=results)


RESULT_MENTIONS = ("subject", "metric", "dataset", "task", "against")


def encode_result(result: ResultMention) -> dict:
    """A result as JSON data (its mentions as field lists, or null)."""
    data = {f.name: getattr(result, f.name) for f in fields(result)}
    for name in RESULT_MENTIONS:
        data[name] = list(astuple(data[name])) if data[name] is not None else None
    return data


def decode_result(data: dict) -> ResultMention:
    """A result from its JSON data; raises on anything malformed."""
    mentions = {name: Mention(*data[name]) if data[name] is not None else None for name in RESULT_MENTIONS}
    return ResultMention(**{**data, **mentions})


def create_temporary(folder: Path) -> tuple[int, str]:
    """A new temporary file in `folder`; the folder is made only when missing (mkdir is slow)."""
    try:
        return tempfile.mkstemp(dir=folder, prefix=TEMPORARY_PREFIX)
    except FileNotFoundError:
        folder.mkdir(parents=True, exist_ok=True)
        return tempfile.mkstemp(dir=folder, prefix=TEMPORARY_PREFIX)


class PaperCache:
    """Extractions on disk under `directory`, keyed by paper and extraction setup."""

    def __init__(self, directory: Path, salt: str) -> None:
        self.directory = Path(directory)
        self.salt = salt
        self.hits = self.misses = self.corrupt = 0
        self._pending: list[tuple[Path, Path]] = []  # (temporary, final) entries written but not yet renamed

    def key(self, paper: Paper) -> str:
        """sha256 of the setup salt, the paper id, the abstract and the year (extraction reads it)."""
        digest = hashlib.sha256(self.salt.encode("ascii"))
        for part in (paper.id, paper.abstract, str(paper.year)):
            digest.update(b"\0" + part.encode("utf-8"))
        return digest.hexdigest()

    def path(self, key: str) -> Path:
        """Where an entry lives: sharded by the key's first two hex digits."""
        return entry_path(self.directory, key)

    def load(self, paper: Paper) -> Extraction | None:
        """The cached extraction of `paper`, or None when absent or not intact."""
        key = self.key(paper)
        self.flush()
        try:
            blob = self.path(key).read_bytes()
        except OSError:
            self.misses += 1
            return None
        extraction = self._verify(blob, key)
        if extraction is None:
            self.corrupt += 1
            self.misses += 1
            log.warning("cache entry %s is corrupt: recomputing", key[:12])
        else:
            self.hits += 1
        return extraction

    def _verify(self, blob: bytes, key: str) -> Extraction | None:
        """Check header, key and checksum, then decode; None when anything is off."""
        header, _, payload = blob.partition(b"\n")
        parts = header.split(b" ")
        if len(parts) != 4 or parts[0] != MAGIC or parts[1] != str(FORMAT).encode():
            return None
        if parts[2] != key.encode() or parts[3] != hashlib.sha256(payload).hexdigest().encode():
            return None
        try:
            return decode(payload)
        except (ValueError, TypeError, KeyError):
            return None

    def store(self, paper: Paper, extraction: Extraction) -> None:
        """Write an entry to a temporary file; `flush` (every BATCH entries, and at the end) makes the batch durable,
        then renames it into place, so no entry ever appears under its name before its bytes are on disk."""
        key = self.key(paper)
        payload = encode(extraction)
        header = b" ".join([MAGIC, str(FORMAT).encode(), key.encode(),
                            hashlib.sha256(payload).hexdigest().encode()])
        target = self.path(key)
        try:
            fd, tmp = create_temporary(target.parent)
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(header + b"\n" + payload)
            except OSError:
                Path(tmp).unlink(missing_ok=True)
                raise
        except OSError as error:
            log.warning("cannot write cache entry %s: %s", target, error)
            return
        self._pending.append((Path(tmp), target))
        if len(self._pending) >= BATCH:
            self.flush()

    def flush(self) -> None:
        """Flush the written entries to disk (one syncfs), then rename them into place; failures only log."""
        pending, self._pending = self._pending, []
        if not pending:
            return
        try:
            sync_filesystem(self.directory)
        except OSError as error:
            log.warning("cannot flush cache entries in %s: %s", self.directory, error)
            for tmp, _ in pending:
                tmp.unlink(missing_ok=True)
            return
        for tmp, target in pending:
            try:
                os.replace(tmp, target)
            except OSError as error:
                tmp.unlink(missing_ok=True)
                log.warning("cannot write cache entry %s: %s", target, error)
