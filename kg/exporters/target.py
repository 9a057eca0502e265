"""Where a writer writes: a path (opened and closed here) or an open file object (left open), like networkx."""
from __future__ import annotations

import io
import os
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterator, TextIO, Union

Target = Union[str, Path, IO]


def is_binary(handle: IO) -> bool:
    """Whether an open file takes bytes (a text stream has an `encoding`)."""
    return isinstance(handle, (io.RawIOBase, io.BufferedIOBase)) or "b" in getattr(handle, "mode", "")


@contextmanager
def text_output(target: Target) -> Iterator[TextIO]:
    """A text stream writing UTF-8 with "\\n" line ends to `target`.

    A path is opened here and closed after; an open file (text, or binary such as `BytesIO`) is
    written to and left open for the caller, as networkx's writers do.
    """
    if isinstance(target, (str, os.PathLike)):
        with open(Path(target), "w", encoding="utf-8", newline="\n") as handle:
            yield handle
        return
    if not is_binary(target):
        yield target  # type: ignore[misc]
        return
    wrapper = io.TextIOWrapper(target, encoding="utf-8", newline="\n", write_through=True)  # type: ignore[arg-type]
    try:
        yield wrapper
        wrapper.flush()
    finally:
        wrapper.detach()  # leave the caller's file open
