"""`kg cache info|clear`: counts and removes the cache's own files, and nothing else."""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kg.cache.entries import PaperCache, setup_salt
from kg.cache.admin import cache_info, clear_cache, human_size
from kg.cli.main import app
from kg.extraction.interface import Extraction
from kg.types import Paper

runner = CliRunner()
DAY = 86400.0


def fill(directory: Path, count: int) -> list[Path]:
    """Store `count` empty extractions through PaperCache; the paths of the entries written."""
    cache = PaperCache(directory, setup_salt(version="test"))
    papers = [Paper(f"p{n}", f"Abstract number {n}.") for n in range(count)]
    for paper in papers:
        cache.store(paper, Extraction())
    cache.flush()
    return [cache.path(cache.key(paper)) for paper in papers]


def age(path: Path, days: float) -> None:
    """Set a file's modification time `days` into the past."""
    stamp = time.time() - days * DAY
    os.utime(path, (stamp, stamp))


@pytest.fixture
def foreign(tmp_path: Path) -> list[Path]:
    """Files under (or linked from) the cache directory that are not the cache's: all survive a clear."""
    root, elsewhere = tmp_path / "cache", tmp_path / "elsewhere"
    for folder in (root / "ab", root / "abc", elsewhere):
        folder.mkdir(parents=True)
    outside = elsewhere / ("cd" + "0" * 62 + ".json")
    paths = [root / "README", root / ".tmp-y", root / ("ab" + "1" * 62 + ".json"), root / "ab" / "notes.txt",
             root / "ab" / ("ef" + "2" * 62 + ".json"), root / "abc" / ("ab" + "3" * 62 + ".json"),
             root / "abc" / ".tmp-x", outside]
    for path in paths:
        path.write_text("keep")
    (root / "ab" / ("ab" + "4" * 62 + ".json")).symlink_to(outside)  # a link named like an entry
    (root / "cd").symlink_to(elsewhere, target_is_directory=True)  # a linked shard holding an entry
    return paths


def test_info_counts_entries_and_their_bytes(tmp_path: Path) -> None:
    entries = fill(tmp_path / "cache", 5)
    (entries[0].parent / ".tmp-stray").write_bytes(b"partial")
    tally = cache_info(tmp_path / "cache")
    assert tally.files == 5
    assert tally.bytes == sum(path.stat().st_size for path in entries) > 0


def test_clear_removes_entries_temporaries_and_empty_shards(tmp_path: Path) -> None:
    root = tmp_path / "cache"
    entries = fill(root, 4)
    stray = entries[0].parent / ".tmp-abc123"
    stray.write_bytes(b"partial")
    expected = sum(path.stat().st_size for path in [*entries, stray])
    tally = clear_cache(root)
    assert (tally.files, tally.bytes) == (5, expected)
    assert root.is_dir() and list(root.iterdir()) == []


def test_clear_leaves_every_other_file_alone(tmp_path: Path, foreign: list[Path]) -> None:
    root = tmp_path / "cache"
    entries = fill(root, 3)
    tally = clear_cache(root)
    assert tally.files == 3
    assert not any(path.exists() for path in entries)
    assert all(path.exists() for path in foreign)
    assert (root / "ab").is_dir() and (root / "cd").is_symlink()
    assert cache_info(root).files == 0


def test_older_than_removes_only_old_files(tmp_path: Path) -> None:
    root = tmp_path / "cache"
    entries = fill(root, 6)
    old, new = entries[:3], entries[3:]
    stray_old, stray_new = root / "00" / ".tmp-old", root / "00" / ".tmp-new"
    stray_old.parent.mkdir(exist_ok=True)
    stray_old.write_bytes(b"x" * 10)
    stray_new.write_bytes(b"y" * 10)
    for path in [*old, stray_old]:
        age(path, 10)
    tally = clear_cache(root, older_than_days=7)
    assert tally.files == 4
    assert not any(path.exists() for path in [*old, stray_old])
    assert all(path.exists() for path in [*new, stray_new])
    assert cache_info(root).files == 3


def test_older_than_measures_from_now(tmp_path: Path) -> None:
    entry = fill(tmp_path / "cache", 1)[0]
    age(entry, 2)
    assert clear_cache(tmp_path / "cache", older_than_days=3).files == 0
    assert clear_cache(tmp_path / "cache", older_than_days=3, now=time.time() + 2 * DAY).files == 1


def test_missing_directory_is_empty(tmp_path: Path) -> None:
    assert cache_info(tmp_path / "none").files == 0
    assert clear_cache(tmp_path / "none").files == 0
    assert not (tmp_path / "none").exists()


def test_human_size() -> None:
    assert human_size(0) == "0 bytes"
    assert human_size(1023) == "1023 bytes"
    assert human_size(1536) == "1.5 KiB (1536 bytes)"
    assert human_size(3 * 1024**3) == "3.0 GiB (3221225472 bytes)"


def test_cli_info_then_clear(tmp_path: Path) -> None:
    root = tmp_path / "cache"
    entries = fill(root, 2)
    size = sum(path.stat().st_size for path in entries)
    result = runner.invoke(app, ["cache", "info", "--cache-dir", str(root)])
    assert result.exit_code == 0
    assert result.output.splitlines() == [f"directory: {root}", "entries: 2", f"size: {size} bytes"]
    result = runner.invoke(app, ["cache", "clear", "--cache-dir", str(root)])
    assert result.exit_code == 0
    assert result.output.strip() == f"removed 2 files, freed {size} bytes from {root}"
    assert not any(path.exists() for path in entries)


def test_cli_clear_older_than(tmp_path: Path) -> None:
    root = tmp_path / "cache"
    entries = fill(root, 2)
    age(entries[0], 30)
    result = runner.invoke(app, ["cache", "clear", "--cache-dir", str(root), "--older-than", "7.5"])
    assert result.exit_code == 0 and result.output.startswith("removed 1 files")
    assert not entries[0].exists() and entries[1].exists()
    result = runner.invoke(app, ["cache", "clear", "--cache-dir", str(root), "--older-than", "-1"])
    assert result.exit_code == 2 and entries[1].exists()


def test_cli_defaults_to_the_cache_env_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAPERKG_CACHE_DIR", str(tmp_path / "env-cache"))
    fill(tmp_path / "env-cache", 3)
    result = runner.invoke(app, ["cache", "info"])
    assert result.exit_code == 0 and f"directory: {tmp_path / 'env-cache'}" in result.output
    assert "entries: 3" in result.output


def test_cli_missing_directory_reports_zero(tmp_path: Path) -> None:
    for command in ("info", "clear"):
        result = runner.invoke(app, ["cache", command, "--cache-dir", str(tmp_path / "none")])
        assert result.exit_code == 0
        assert "entries: 0" in result.output or "removed 0 files" in result.output
