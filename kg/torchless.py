"""spaCy without torch at run time: thinc imports torch whenever it is installed (1.5 s and about 185 MB in every
build, worker and query process of an environment with the `[train]` extra), though paperkg's pipelines never run
it. `install()` (called by kg/__init__.py) lets `thinc.compat` see no torch; torch itself stays importable, so
training in the same process imports it as before. A process that has already imported torch is left alone."""
from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from types import ModuleType

HIDDEN = "torch"
GUARDED = "thinc.compat"  # the one module that probes for torch when thinc is imported


class TorchlessThinc(importlib.abc.MetaPathFinder):
    """Finds `thinc.compat` as usual, but runs its module code with torch unimportable (then removes itself)."""

    def find_spec(self, name: str, path=None, target: ModuleType | None = None):
        """The spec of thinc.compat with a loader that hides torch; None for every other module."""
        if name != GUARDED:
            return None
        remove()
        if HIDDEN in sys.modules:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path, target)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        spec.loader = HidingLoader(spec.loader)
        return spec


class HidingLoader(importlib.abc.Loader):
    """A loader that executes the wrapped loader's module with `import torch` failing (ImportError)."""

    def __init__(self, loader: importlib.abc.Loader):
        self.loader = loader

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        sys.modules[HIDDEN] = None  # type: ignore[assignment]  (an import of a None entry raises ImportError)
        try:
            self.loader.exec_module(module)
        finally:
            if sys.modules.get(HIDDEN, ...) is None:
                del sys.modules[HIDDEN]


def install() -> None:
    """Hide torch from thinc's first import in this process (no-op when thinc is already imported)."""
    if GUARDED not in sys.modules and not any(isinstance(f, TorchlessThinc) for f in sys.meta_path):
        sys.meta_path.insert(0, TorchlessThinc())


def remove() -> None:
    """Take the finder out of sys.meta_path."""
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, TorchlessThinc)]
