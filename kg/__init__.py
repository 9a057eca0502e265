"""paperkg: a knowledge graph of research entities built from paper abstracts."""

__version__ = "0.1.0"
