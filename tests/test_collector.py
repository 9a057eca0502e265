"""The garbage collector during a build: stage results frozen out of its scans, handed back when the build ends."""
from __future__ import annotations

import gc

import pytest

import kg.run.pipeline as pipeline
from kg.extractors import build_extract
from kg.io.corpus import Corpus
from kg.run.build import BuildConfig, build
from kg.run.collector import build_scope, paused, settle
from kg.run.engines import ExtractSpec
from kg.types import Paper

PAPERS = [Paper(f"p{i}", f"We propose a graph neural network (GNN{i}) evaluated on QM{i}.") for i in range(4)]


@pytest.fixture(autouse=True)
def unfrozen():
    """Each test starts and ends with nothing frozen (a failing test must not leave the process frozen)."""
    gc.unfreeze()
    yield
    gc.unfreeze()
    gc.enable()


def test_settle_and_pause_do_nothing_outside_a_build() -> None:
    settle()
    with paused():
        assert gc.isenabled()
    assert gc.get_freeze_count() == 0


def test_a_build_resolves_with_the_extractions_frozen_and_the_collector_paused_then_hands_them_back(monkeypatch):
    seen = {}
    resolve = pipeline.resolve_corpus

    def watched(papers, extractions, *args):
        seen.update(frozen=gc.get_freeze_count(), enabled=gc.isenabled())
        return resolve(papers, extractions, *args)

    monkeypatch.setattr(pipeline, "resolve_corpus", watched)
    spec = ExtractSpec(build_extract, args=(("acronyms",),))
    report = build(Corpus(PAPERS), BuildConfig(spec, model="blank", use_cache=False))
    assert report.stats.papers == 4
    assert seen["frozen"] > 0 and seen["enabled"] is False
    assert gc.get_freeze_count() == 0 and gc.isenabled()


def test_a_freeze_made_before_the_build_is_left_to_whoever_made_it() -> None:
    keep = [[] for _ in range(10)]
    gc.freeze()
    before = gc.get_freeze_count()
    with build_scope():
        settle()
        with build_scope():  # a nested build does not end the outer one's freeze either
            settle()
    assert gc.get_freeze_count() >= before > 0 and keep


def test_a_nested_build_leaves_the_outer_builds_freeze_until_the_outer_one_ends() -> None:
    with build_scope():
        settle()
        with build_scope():
            settle()
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0
