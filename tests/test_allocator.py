"""glibc malloc settings for workers: freed memory is reused instead of faulted in again."""
from __future__ import annotations

import platform
import subprocess
import sys

import pytest

from kg.run import allocator

REALLOCATE = """
import resource, sys
from kg.run.allocator import keep_freed_memory
if sys.argv[1] == "keep":
    assert keep_freed_memory()
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(50):  # a batch's arrays, allocated then all freed, fifty times
    blocks = [bytearray(2**20) for _ in range(16)]
    del blocks
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def page_faults(mode: str) -> int:
    """Minor page faults of the reallocation loop in a fresh interpreter."""
    done = subprocess.run([sys.executable, "-c", REALLOCATE, mode], capture_output=True, text=True, check=True)
    return int(done.stdout)


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="the settings exist only in glibc")
def test_freed_memory_is_reused_not_faulted_in_again() -> None:
    kept, default = page_faults("keep"), page_faults("default")
    assert kept * 10 < default  # 16 MiB touched once, against 50 times


def test_without_glibc_nothing_is_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(allocator.platform, "libc_ver", lambda: ("musl", "1.2"))
    assert allocator.keep_freed_memory() is False
