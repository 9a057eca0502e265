"""paperkg: a knowledge graph of research entities built from paper abstracts."""

__version__ = "0.1.0"

from kg.torchless import install as _torchless

_torchless()  # thinc never imports torch at run time (kg/torchless.py)
