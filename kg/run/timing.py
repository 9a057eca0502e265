"""Wall-time accounting for the build's stages."""
from __future__ import annotations

import time
from contextlib import contextmanager
from typing import Callable, Iterator


@contextmanager
def stage(stages: dict[str, float], name: str) -> Iterator[None]:
    """Add the wall time of the block to `stages[name]`."""
    started = time.perf_counter()
    try:
        yield
    finally:
        stages[name] = stages.get(name, 0.0) + time.perf_counter() - started


def timed(stages: dict[str, float], name: str, call: Callable[[], object]) -> None:
    """Make the call, adding its wall time to `stages[name]`."""
    with stage(stages, name):
        call()
