"""The per-paper extraction cache: entries, their keys and the code digest (entries.py), `kg cache` (admin.py)."""
