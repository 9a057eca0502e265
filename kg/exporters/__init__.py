"""Exporters: each module registers `write_<format>(G, path)` under its format name."""
from kg.exporters import graphml, html, rdf  # noqa: F401  (registration on import)
