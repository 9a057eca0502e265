"""Ctrl-C and a busy port, on real processes: one `error:` line, no traceback from the command or its workers."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import psutil

ENV = {**os.environ, "PYTHONIOENCODING": "utf-8"}


def children(pid: int) -> list[int]:
    """The process ids whose parent is `pid`."""
    try:
        return [child.pid for child in psutil.Process(pid).children()]
    except psutil.Error:
        return []


def ignores_sigint(pid: int) -> bool:
    """Whether the process ignores SIGINT now (Linux /proc; False once it has ended)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    ignored = int(next(line for line in status.splitlines() if line.startswith("SigIgn:")).split()[1], 16)
    return bool(ignored & (1 << (signal.SIGINT - 1)))


def test_ctrl_c_on_a_build_with_two_jobs_prints_one_line_and_no_worker_traceback(tmp_path: Path) -> None:
    corpus = tmp_path / "papers.jsonl"
    corpus.write_text("".join(f'{{"id": "p{i}", "abstract": "We propose Net{i}, a model for parsing, evaluated on '
                              f'Corpus{i % 7} with accuracy."}}\n' for i in range(3000)), encoding="utf-8")
    build = subprocess.Popen([sys.executable, "-m", "kg", "build", str(corpus), "--out", str(tmp_path / "out"),
                              "--jobs", "2", "--no-cache", "--quiet", "--model", "blank", "--extractors", "rules"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV, start_new_session=True,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # as a shell starts it
    deadline = time.monotonic() + 120
    while (len(children(build.pid)) < 3 or ignores_sigint(build.pid)) and build.poll() is None \
            and time.monotonic() < deadline:
        time.sleep(0.02)  # the two workers (and multiprocessing's resource tracker) have started, the build listens
    assert build.poll() is None, "the build ended before it could be interrupted"
    time.sleep(0.3)  # the workers are importing or extracting: where an interrupt used to print tracebacks
    os.killpg(build.pid, signal.SIGINT)  # what Ctrl-C in a terminal does: the whole process group
    _, stderr = build.communicate(timeout=120)
    assert build.returncode == 130, stderr
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr
    assert stderr.strip().splitlines() == ["error: interrupted"]


def test_kg_serve_on_a_port_in_use_says_so_in_one_line(tmp_path: Path) -> None:
    export = tmp_path / "graph.nt"
    export.write_bytes(b"<https://x.org/a> <https://x.org/p> <https://x.org/o> .\n")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "kg", "serve", str(export), "--port", str(port), "-q"],
                              capture_output=True, text=True, timeout=120,
                              env={**ENV, "PAPERKG_STORE_DIR": str(tmp_path / "stores")})
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert lines[-1].startswith("error: cannot serve on 127.0.0.1:") and "in use" in lines[-1] and "--port" in lines[-1]
    assert all(line.startswith(("error:", "loading")) for line in lines), lines
