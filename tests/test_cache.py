"""The per-paper cache: round trip, keys that change with the setup, corrupt entries recomputed."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from kg.cache.entries import PaperCache, decode, default_cache_dir, encode, setup_salt
from kg.run.engines import ExtractSpec
from kg.extraction.interface import Extraction
from kg.types import Mention, MentionRelation, Paper

PAPER = Paper("p1", "We train LoRA adapters on GLUE (General Language Understanding Evaluation).")
LORA = Mention("p1", 9, 13, "LoRA", "method", "proposed", 0, 74, "lexicon", "LoRA", 0.75)
GLUE = Mention("p1", 26, 30, "GLUE", "dataset", "used", 0, 74, "acronyms", "GLUE", 0.9)
EXTRACTION = Extraction((LORA, GLUE), (MentionRelation("p1", "evaluated_on", LORA, GLUE),),
                        (("GLUE", "General Language Understanding Evaluation"),))


@pytest.fixture
def cache(tmp_path: Path) -> PaperCache:
    return PaperCache(tmp_path / "cache", setup_salt(version="1"))


def test_extraction_round_trips_exactly() -> None:
    assert decode(encode(EXTRACTION)) == EXTRACTION
    assert decode(encode(Extraction())) == Extraction()


def test_store_then_load_hits(cache: PaperCache) -> None:
    assert cache.load(PAPER) is None
    cache.store(PAPER, EXTRACTION)
    assert cache.load(PAPER) == EXTRACTION
    assert (cache.hits, cache.misses, cache.corrupt) == (1, 1, 0)


def test_store_remakes_a_shard_folder_removed_meanwhile(cache: PaperCache) -> None:
    import shutil

    cache.store(PAPER, EXTRACTION)
    shutil.rmtree(cache.path(cache.key(PAPER)).parent)  # e.g. `kg cache clear` running alongside
    cache.store(PAPER, EXTRACTION)
    assert cache.load(PAPER) == EXTRACTION


def test_key_depends_on_abstract_id_year_and_setup(cache: PaperCache, tmp_path: Path) -> None:
    cache.store(PAPER, EXTRACTION)
    assert cache.load(Paper("p1", PAPER.abstract + " More.")) is None
    assert cache.load(Paper("p2", PAPER.abstract)) is None
    assert cache.load(replace(PAPER, year=2015)) is None  # the span model's threshold depends on the year
    assert PaperCache(cache.directory, setup_salt(version="2")).load(PAPER) is None
    assert PaperCache(cache.directory, setup_salt(version="1")).load(PAPER) == EXTRACTION


def test_extractor_version_and_options_change_the_salt() -> None:
    def salt(spec: ExtractSpec) -> str:
        return setup_salt(extract=spec.fingerprint(), model="m")

    base = ExtractSpec(sorted, version="1")
    assert salt(base) == salt(ExtractSpec(sorted, version="1"))
    assert salt(base) != salt(ExtractSpec(sorted, version="2"))
    assert salt(base) != salt(ExtractSpec(sorted, kwargs=(("threshold", 0.5),), version="1"))
    assert salt(base) != salt(ExtractSpec(sorted, args=(("acronyms",),), version="1"))


@pytest.mark.parametrize("damage", [
    lambda blob: blob[: len(blob) // 2],  # truncated
    lambda blob: blob[:-3] + b"]]]",  # payload changed, checksum not
    lambda blob: b"garbage",
    lambda blob: b"",
    lambda blob: blob.replace(b"paperkg-cache 1", b"paperkg-cache 9", 1),  # another format
])
def test_corrupt_entry_is_never_trusted(cache: PaperCache, damage) -> None:
    cache.store(PAPER, EXTRACTION)
    cache.flush()
    path = cache.path(cache.key(PAPER))
    path.write_bytes(damage(path.read_bytes()))
    assert cache.load(PAPER) is None
    assert cache.corrupt == 1


def test_entry_copied_under_another_key_is_rejected(cache: PaperCache) -> None:
    other = Paper("p2", "Another abstract.")
    cache.store(PAPER, EXTRACTION)
    cache.flush()
    cache.path(cache.key(other)).parent.mkdir(parents=True, exist_ok=True)
    cache.path(cache.key(other)).write_bytes(cache.path(cache.key(PAPER)).read_bytes())
    assert cache.load(other) is None


def test_unwritable_directory_only_logs(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    cache = PaperCache(blocker, "salt")
    cache.store(PAPER, EXTRACTION)  # no exception
    assert cache.load(PAPER) is None


def test_default_directory_is_the_user_cache_or_the_environment(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.delenv("PAPERKG_CACHE_DIR", raising=False)
    assert "paperkg" in str(default_cache_dir())
    monkeypatch.setenv("PAPERKG_CACHE_DIR", str(tmp_path))
    assert default_cache_dir() == tmp_path
