"""Self-contained interactive HTML view (work in progress)."""
from __future__ import annotations
