"""Candidates from rules: the gazetteer, acronyms, name shapes, noun chunks and proposal cues (registered
extractors), the word lists and typing cues they share, the rules' combiner and the sentence relator."""
from kg.extractors.rules import acronyms, chunks, combine, gazetteer, proposals, relations, shapes  # noqa: F401

RULES = ("gazetteer", "acronyms", "shapes", "chunks", "proposals")  # the registered rule extractors, in order
