"""Each process paperkg starts runs one thread per numeric library pool: parallelism is `--jobs`, not BLAS."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from kg.extractors import extract_spec
from kg.run.engines import WorkerSpec, start_pool
from kg.run.threads import thread_report
from tests.support import ROOT


def busy_report(size: int) -> dict[str, int]:
    """In a worker: a matrix product large enough for BLAS to use its pool, then the pools' thread counts."""
    import numpy as np

    matrix = np.ones((size, size))
    assert float((matrix @ matrix)[0, 0]) == size
    return thread_report()


def test_extraction_workers_run_one_thread_per_library_pool() -> None:
    spec = WorkerSpec("blank", extract_spec(("default",)))  # the encoder: numpy's BLAS and onnxruntime loaded
    with start_pool(spec, 2) as pool:
        reports = pool.map(busy_report, [400, 400])
    for report in reports:
        pools = {name: count for name, count in report.items() if name != "os_threads"}
        assert pools and all(count == 1 for count in pools.values()), report
        assert report.get("os_threads", 1) <= 2, report  # the main thread (and at most one helper), no BLAS team


@pytest.mark.parametrize("command", [["build", "--help"], ["query", "--list"]])
def test_every_command_limits_its_own_process_too(command: list[str]) -> None:
    code = ("import sys; from kg.cli.main import app; from kg.run.threads import thread_report; import numpy\n"
            "try:\n    app(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
            "print(thread_report())")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        env.pop(name, None)
    done = subprocess.run([sys.executable, "-c", code, *command], capture_output=True, text=True, env=env,
                          timeout=120, cwd=ROOT)
    report = eval(done.stdout.strip().splitlines()[-1])  # noqa: S307 (our own dict's repr)
    assert all(count == 1 for name, count in report.items() if name != "os_threads"), report
