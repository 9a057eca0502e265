"""Registries (catalogue, with entry points for plug-ins): extractors, combiners, relators, exporters, engines."""
from __future__ import annotations

from typing import Any, Callable

import catalogue

from kg.errors import UsageError

extractors = catalogue.create("paperkg", "extractors", entry_points=True)
exporters = catalogue.create("paperkg", "exporters", entry_points=True)
combiners = catalogue.create("paperkg", "combiners", entry_points=True)  # candidates -> the mentions of a paper
relators = catalogue.create("paperkg", "relators", entry_points=True)  # relations between the combined mentions
engines = catalogue.create("paperkg", "engines", entry_points=True)


class UnknownNameError(UsageError, ValueError):
    """A name that is not registered; the message lists the valid ones."""


def lookup(registry: catalogue.Registry, name: str) -> Callable[..., Any]:
    """The registered object called `name`, or an error naming the valid choices."""
    if name not in registry:
        kind = registry.namespace[-1].rstrip("s")
        valid = ", ".join(sorted(registry.get_all())) or "none"
        raise UnknownNameError(f"unknown {kind} {name!r} (choose from: {valid})")
    return registry.get(name)
