"""Data named by words, not by a name: the noun phrases of an abstract headed by a data noun ('the held-out test
set', 'six benchmarks', 'a public chest radiograph dataset'), as a result's dataset when no dataset entity is
(RESULTS.md: 'the gold dataset name or alias it was measured on, else the words the abstract uses')."""
from __future__ import annotations

from typing import Sequence

from spacy.tokens import Doc

from kg.extraction.interface import Candidate
from kg.extractors.rules.chunks import noun_chunk_ranges

# Nouns that say a phrase is data (general English, not any abstract's coinage).
DATA_HEADS = frozenset("dataset datasets data benchmark benchmarks set sets corpus corpora split splits suite "
                       "collection collections testbed".split())
LEADING = frozenset({"DET", "PRON", "CCONJ", "PUNCT"})  # 'the', 'our', 'a', 'both' lead a phrase, not its words
PHRASE = "results-phrase"  # the `extractor` of a phrase candidate (it is never an entity mention of the graph)


def data_phrases(doc: Doc, mentions: Sequence[Candidate]) -> list[Candidate]:
    """The data phrases of a Doc not overlapping a dataset mention, leading determiners and possessives dropped,
    as dataset candidates of extractor PHRASE (at least two words: a bare 'dataset' names nothing)."""
    datasets = [m for m in mentions if m.type == "dataset"]
    found = []
    for start, end in noun_chunk_ranges(doc):
        if doc[end - 1].lower_ not in DATA_HEADS:
            continue
        while start < end - 1 and (doc[start].pos_ in LEADING or doc[start].dep_ == "poss"):
            start += 1
        if end - start < 2:
            continue
        first, last = doc[start].idx, doc[end - 1].idx + len(doc[end - 1])
        if any(m.start < last and first < m.end for m in datasets):
            continue
        found.append(Candidate(first, last, "dataset", "used", 0.0, PHRASE))
    return found
