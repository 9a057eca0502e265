"""Bounded cost per abstract: degenerate runs shortened with offsets kept exact, huge texts parsed in part.

Timing is the benchmark's job; these tests check the mechanisms (what is dropped, what maps where).
"""
from __future__ import annotations

import pytest

from kg.extraction.interface import MAX_PARSE_CHARS, parse_view, too_long
from kg.text.bounded import MAX_PARSE_TOKENS, RUN_KEPT, drop_long_runs, strip_prefix, token_limit
from kg.text.markup import strip_markup
from kg.types import Paper, Source


@pytest.mark.parametrize("run", ["{" * 10_000 + "x" + "}" * 10_000, "(" * 5000, "$" * 999, "-" * 3000, "a/" * 5000,
                                 "{[(<$*_-~`>)]}" * 500, "😀" * 500, "x" * 50_000, "http://x.org/" + "a/" * 2000])
def test_degenerate_runs_are_shortened_and_offsets_stay_exact(run: str) -> None:
    raw = f"We propose **FooNet** on ImageNet. {run} Then **BarNet** wins."
    clean = drop_long_runs(strip_markup(raw))
    assert max(len(word) for word in clean.text.split()) <= max(RUN_KEPT, len("ImageNet."))
    for start, end in clean.emphasis:
        original = raw[slice(*clean.original_span(start, end))]
        assert original == clean.text[start:end]
    assert [clean.text[s:e] for s, e in clean.emphasis] == ["FooNet", "BarNet"]
    assert all(raw[a:b] == ch for ch, (a, b) in zip(clean.text, clean.spans) if ch.isalnum())


def test_real_text_is_unchanged() -> None:
    clean = strip_markup("We fine-tune BERT (see https://github.com/org/some-long-repository-name) on GLUE --- and win.")
    assert drop_long_runs(clean) is clean


def test_token_limit_cuts_only_texts_with_too_many_tokens() -> None:
    assert token_limit("word " * 1000) is None
    cut = token_limit("a, " * MAX_PARSE_TOKENS)
    assert cut is not None and len(("a, " * MAX_PARSE_TOKENS)[:cut].split()) == MAX_PARSE_TOKENS // 2


def test_strip_prefix_reads_only_as_much_as_it_needs() -> None:
    raw = "word " * 200_000
    clean = strip_prefix(raw, 1000)
    assert 1000 < len(clean.text) < len(raw) and raw.startswith(clean.text)
    markup_dense = "\\textbf{" * 50_000 + "end"
    assert strip_prefix(markup_dense, 1000).text == strip_markup(markup_dense).text


def test_a_huge_abstract_is_parsed_in_part_with_a_warning() -> None:
    paper = Paper("p", "word " * (MAX_PARSE_CHARS // 2), (Source("big.jsonl", 1),))
    clean, cut = parse_view(paper)
    assert cut and len(clean.text) <= MAX_PARSE_CHARS
    assert too_long(paper).startswith("big.jsonl#1: abstract of 250,000 characters; entities are extracted")
    assert too_long(Paper("q", "word " * 100)) is None
