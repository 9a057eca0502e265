"""One build, one folder: a `kg build` really killed (SIGKILL) at any point of publishing its files leaves,
once the next build or `kg check` has run, all previous files or all new ones, and no temporary file."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kg.cli.main import app
from kg.run.atomic import TEMP_PREFIX
from kg.run.manifest import MANIFEST, digest, read_manifest
from tests.support import ROOT

FORMATS = "ttl,graphml,html"
NAMES = ("graph.graphml", "graph.html", "graph.ttl")
POINTS = ["before-manifest", "after-manifest", "after-rename-1", "after-rename-2", "after-rename-3"]
runner = CliRunner()


# `kg build` that kills itself (SIGKILL, as `kill -9` would) at a point of publishing: before the manifest is
# written, after it, or after the n-th rename; the hooks wrap kg.run.manifest's helpers from outside.
KILLING_BUILD = """
import os, signal, sys
from contextlib import contextmanager
from kg.run import manifest

point, renames = sys.argv[1], []
die = lambda: os.kill(os.getpid(), signal.SIGKILL)
atomic_path, commit = manifest.atomic_path, manifest.commit

@contextmanager
def killing_atomic_path(target):
    if point == "before-manifest":
        die()
    with atomic_path(target) as path:
        yield path
    if point == "after-manifest":
        die()

def killing_commit(temporary, target):
    commit(temporary, target)
    renames.append(target)
    if point == f"after-rename-{len(renames)}":
        die()

manifest.atomic_path, manifest.commit = killing_atomic_path, killing_commit
from kg.cli.main import app
sys.argv = ["kg", *sys.argv[2:]]
app()
"""


def build(inputs: Path, out: Path, kill_at: str | None = None) -> subprocess.CompletedProcess:
    """`kg build` in its own process, killing itself at `kill_at`."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8",
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH", "")]))}
    command = ["build", str(inputs), "--out", str(out), "--model", "blank", "--extractors", "rules",
               "--format", FORMATS, "--quiet", "--no-cache"]
    launcher = ["-c", KILLING_BUILD, kill_at] if kill_at else ["-m", "kg"]
    return subprocess.run([sys.executable, *launcher, *command], capture_output=True, text=True, timeout=300,
                          env=env, cwd=ROOT)


def papers(count: int, folder: Path) -> Path:
    """A JSONL corpus of `count` invented abstracts."""
    path = folder / f"papers-{count}.jsonl"
    lines = [f'{{"id": "p{i}", "abstract": "We propose Net{i}, a model evaluated on ImageNet for image classification."}}'
             for i in range(count)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def snapshot(folder: Path) -> dict[str, str]:
    """The digest of each export file."""
    return {name: digest(folder / name) for name in NAMES}


@pytest.fixture(scope="module")
def builds(tmp_path_factory) -> tuple[Path, dict[str, str], Path, dict[str, str]]:
    """Inputs and the complete file sets of an old (2 papers) and a new (5 papers) build."""
    root = tmp_path_factory.mktemp("builds")
    old, new = papers(2, root), papers(5, root)
    for inputs in (old, new):
        assert build(inputs, root / inputs.stem).returncode == 0
    return old, snapshot(root / old.stem), new, snapshot(root / new.stem)


def previous_build(builds, out: Path) -> None:
    """The old build's folder as `out` (copied: building it again gives the same bytes)."""
    shutil.copytree(builds[0].parent / builds[0].stem, out)


@pytest.mark.parametrize("point, recovery", [(point, "check") for point in POINTS]
                         + [("before-manifest", "build"), ("after-rename-2", "build")])
def test_a_build_killed_while_publishing_leaves_one_build(tmp_path: Path, builds, point: str, recovery: str) -> None:
    old, old_files, new, new_files = builds
    out = tmp_path / "out"
    previous_build(builds, out)
    killed = build(new, out, kill_at=point)
    assert killed.returncode == -signal.SIGKILL
    if recovery == "check":
        runner.invoke(app, ["check", str(out), "--no-shacl"])
        expected = old_files if point == "before-manifest" else new_files
    else:
        assert build(old, out).returncode == 0
        expected = old_files
    assert snapshot(out) == expected
    assert not list(out.glob(f"{TEMP_PREFIX}*")) and not (out / ".kg-build.lock").exists()
    assert read_manifest(out) == expected


def test_a_killed_build_is_mixed_until_recovered(tmp_path: Path, builds) -> None:
    """Right after the kill the folder really is mixed; the next build completes it to the new files."""
    old, old_files, new, new_files = builds
    out = tmp_path / "out"
    previous_build(builds, out)
    assert build(new, out, kill_at="after-rename-1").returncode == -signal.SIGKILL
    now = snapshot(out)
    assert now != old_files and now != new_files
    from kg.run.manifest import output_folder

    with output_folder(out):
        assert snapshot(out) == new_files


def test_kg_check_reports_a_mixed_folder(tmp_path: Path, builds) -> None:
    old, old_files, new, new_files = builds
    out = tmp_path / "out"
    assert build(new, out).returncode == 0
    (out / "graph.html").write_bytes(b"<html>old</html>")
    result = runner.invoke(app, ["check", str(out), "--no-shacl"])
    assert result.exit_code == 1
    line = next(line for line in result.output.splitlines() if "one build" in line)
    assert line.startswith("FAIL") and "mixed folder: graph.html is not what the last build wrote" in line


def test_kg_check_completes_an_interrupted_build_and_says_so(tmp_path: Path, builds) -> None:
    old, old_files, new, new_files = builds
    out = tmp_path / "out"
    previous_build(builds, out)
    assert build(new, out, kill_at="after-rename-2").returncode == -signal.SIGKILL
    result = runner.invoke(app, ["check", str(out), "--no-shacl"])
    line = next(line for line in result.output.splitlines() if "one build" in line)
    assert line.startswith("ok") and "completed the interrupted build: graph.ttl replaced" in line
    assert snapshot(out) == new_files
