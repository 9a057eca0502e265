"""The extraction interface: candidates, contexts and per-paper extractions."""
