"""Crash-safe outputs: a killed, failing or concurrent build never leaves a broken or mixed export."""
from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import networkx as nx
import pytest

from kg.graph.resolution import Resolution
from kg.run.atomic import LOCK_NAME, TEMP_PREFIX, OutputBusy, OutputLock, atomic_path
from kg.run.manifest import MANIFEST, output_folder
from kg.run.outputs import write_exports

ROOT = Path(__file__).resolve().parents[1]
OLD = "previous export\n"


def old_export(folder: Path, *names: str) -> None:
    """A previous build's files in `folder`."""
    folder.mkdir(exist_ok=True)
    for name in names:
        (folder / name).write_text(OLD, encoding="utf-8")


def slow_writer_script(folder: Path, ready: Path) -> str:
    """A process that starts an export, writes half of it, says so, then hangs mid-write."""
    return textwrap.dedent(f"""
        import time
        from pathlib import Path
        from kg.graph.resolution import Resolution
        from kg.run.manifest import output_folder
        from kg.run.outputs import write_exports

        def write(resolution, path):
            with open(path, "w", encoding="utf-8") as handle:
                handle.write("half of a new export")
                handle.flush()
                Path({str(ready)!r}).touch()
                time.sleep(60)

        with output_folder(Path({str(folder)!r})):
            write_exports(Resolution((), (), ()), Path({str(folder)!r}), [("ttl", write)])
    """)


def start_slow_writer(folder: Path, tmp_path: Path) -> subprocess.Popen:
    """Start `slow_writer_script` and wait until it is in the middle of writing."""
    ready = tmp_path / "ready"
    process = subprocess.Popen([sys.executable, "-c", slow_writer_script(folder, ready)], cwd=ROOT)
    deadline = time.monotonic() + 60
    while not ready.exists():
        assert process.poll() is None, "the writer exited early"
        assert time.monotonic() < deadline, "the writer never started writing"
        time.sleep(0.05)
    return process


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_a_build_killed_mid_write_leaves_the_previous_file_whole(tmp_path: Path, sig: signal.Signals) -> None:
    out = tmp_path / "out"
    old_export(out, "graph.ttl")
    process = start_slow_writer(out, tmp_path)
    process.send_signal(sig)
    process.wait(timeout=30)
    assert (out / "graph.ttl").read_text(encoding="utf-8") == OLD
    with output_folder(out):  # the next build removes what the killed one left and takes the lock
        assert not list(out.glob(f"{TEMP_PREFIX}*"))
        write_exports(Resolution((), (), ()), out, [("ttl", lambda resolution, path: Path(path).write_text("new"))])
    assert (out / "graph.ttl").read_text() == "new"
    assert sorted(p.name for p in out.iterdir()) == [MANIFEST, "graph.ttl"]


def test_a_second_build_into_the_same_folder_fails_naming_the_holder(tmp_path: Path) -> None:
    out = tmp_path / "out"
    old_export(out, "graph.ttl")
    process = start_slow_writer(out, tmp_path)
    try:
        with pytest.raises(OutputBusy, match=rf"another kg build \(pid {process.pid} on .+\) is writing"):
            with output_folder(out):
                pass
    finally:
        process.kill()
        process.wait()
    with output_folder(out):  # a dead holder's lock is free again
        pass
    assert not (out / LOCK_NAME).exists()


@pytest.mark.slow
def test_concurrent_cli_builds_into_one_folder_leave_one_whole_export(tmp_path: Path, listing: Path) -> None:
    """Three `kg build`s at once: each succeeds or fails with one line; the files come from one build."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    command = [sys.executable, "-m", "kg", "build", str(listing), "--out", str(tmp_path / "out"), "--model", "blank",
               "--format", "ttl,graphml", "--quiet"]
    processes = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
                 for _ in range(3)]
    results = [(p.wait(timeout=120), p.stderr.read()) for p in processes]
    assert any(code == 0 for code, _ in results), results
    for code, stderr in results:
        assert code in (0, 1) and "Traceback" not in stderr
        if code == 1:
            assert len(stderr.strip().splitlines()) == 1 and "another kg build (pid" in stderr
    papers = nx.read_graphml(tmp_path / "out" / "graph.graphml")
    assert sum(kind == "paper" for _, kind in papers.nodes(data="kind")) == 3
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [MANIFEST, "graph.graphml", "graph.ttl"]


@pytest.mark.parametrize("processes", [1, 2])
def test_a_full_disk_keeps_every_previous_file_and_names_the_output(tmp_path: Path, processes: int) -> None:
    old_export(tmp_path, "graph.ttl", "graph.graphml")

    def fits(graph, path):
        Path(path).write_text("new")

    def full(graph, path):
        with open(path, "w") as handle:
            handle.write("partial")
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    with pytest.raises(OSError, match="No space left") as raised:
        write_exports(Resolution((), (), ()), tmp_path, [("ttl", fits), ("graphml", full)], processes=processes)
    assert raised.value.filename == str(tmp_path / "graph.graphml")
    assert {p.name: p.read_text() for p in tmp_path.iterdir()} == {"graph.ttl": OLD, "graph.graphml": OLD}


def test_file_size_limit_in_a_real_build_keeps_the_previous_export(tmp_path: Path, listing: Path) -> None:
    """RLIMIT_FSIZE makes writes fail like a full disk (EFBIG): one line, previous files intact."""
    import resource

    out = tmp_path / "out"
    old_export(out, "graph.ttl", "graph.html")

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, 20_000))

    result = subprocess.run([sys.executable, "-m", "kg", "build", str(listing), "--out", str(out), "--model", "blank",
                             "--format", "ttl,html", "--quiet", "--no-cache"], capture_output=True, text=True,
                            preexec_fn=limit)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "previous outputs kept" in result.stderr
    assert {p.name: p.read_text() for p in out.iterdir()} == {"graph.ttl": OLD, "graph.html": OLD}


def test_atomic_path_replaces_a_symlink_instead_of_writing_through_it(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere"
    target.write_text("keep")
    (tmp_path / "graph.ttl").symlink_to(target)
    with atomic_path(tmp_path / "graph.ttl") as temporary:
        temporary.write_text("new")
    assert target.read_text() == "keep" and (tmp_path / "graph.ttl").read_text() == "new"
    assert not (tmp_path / "graph.ttl").is_symlink()


def test_a_failed_block_removes_the_folder_it_created(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        with output_folder(tmp_path / "new"):
            raise ValueError("bad input")
    assert not (tmp_path / "new").exists()


def test_lock_file_is_gone_after_a_build(tmp_path: Path) -> None:
    with OutputLock(tmp_path) as lock:
        assert f"pid {os.getpid()} on " in lock.path.read_text()
    assert list(tmp_path.iterdir()) == []
