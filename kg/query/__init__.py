"""SPARQL over exported graphs."""
