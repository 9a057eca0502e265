"""Markup stripping keeps an exact map back to the original characters."""
import pytest

from kg.text.markup import normalise_whitespace, remove_control_characters, strip_markup


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        (r"We propose \textbf{FooNet} here.", "We propose FooNet here."),
        (r"an \emph{adaptive} \textit{rule} and \textsc{Bar}", "an adaptive rule and Bar"),
        (r"as shown by \citet{smith2020} we", "as shown by  we"),
        (r"the \FOO method", "the FOO method"),
        (r"gains of 5\% --- large", "gains of 5% — large"),
        ("**Bold-Bench** and *it*", "Bold-Bench and it"),
        ("**_Both_** marks", "Both marks"),
        (r"error $O(\sqrt{n})$ bound", "error O(√n) bound"),
        ("snake_case_name stays", "snake_case_name stays"),
        ("pages 3--5", "pages 3–5"),
        (r"high dimensions ($n\ll p$) and $N\gg m$", "high dimensions (n ≪ p) and N ≫ m"),  # not `nll`, a metric
        (r"with $x\foo y$ and $\foo$", "with x foo y and foo"),  # an unknown command apart from the letter before
        ("convolutional neural net- works", "convolutional neural networks"),
        ("pre- and post-training, first- or second-order", "pre- and post-training, first- or second-order"),
    ],
)
def test_strip_markup(raw: str, clean: str) -> None:
    assert strip_markup(raw).text == clean


@pytest.mark.parametrize(
    ("raw", "word"),
    [(r"We propose \textbf{FooNet} here.", "FooNet"), ("a **Bold-Bench** set", "Bold-Bench"),
     (r"\emph{Über} model", "Über"), ("plain 😀 NameX end", "NameX")],
)
def test_offsets_point_at_original_characters(raw: str, word: str) -> None:
    clean = strip_markup(raw)
    start = clean.text.index(word)
    begin, end = clean.original_span(start, start + len(word))
    assert raw[begin:end] == word


@pytest.mark.parametrize(
    ("raw", "emphasised"),
    [(r"We propose \textbf{FooNet}.", ["FooNet"]), ("the **Bar** and *Baz* sets", ["Bar", "Baz"]),
     ("no marks here", [])],
)
def test_emphasis_spans(raw: str, emphasised: list[str]) -> None:
    clean = strip_markup(raw)
    assert [clean.text[a:b] for a, b in clean.emphasis] == emphasised


def test_control_characters_removed_but_newlines_kept() -> None:
    assert remove_control_characters("a\x00b\x0bc\nd\te\x7f") == "abc\nd\te"


def test_normalise_whitespace() -> None:
    assert normalise_whitespace("  a \n\t b  ") == "a b"


def test_truncate_cuts_at_a_sentence_end_and_keeps_the_offset_map() -> None:
    from kg.text.markup import truncate

    clean = strip_markup(r"First \textbf{one}. Second sentence here. Third.")
    short = truncate(clean, 35)
    assert short.text == "First one. Second sentence here."
    assert truncate(clean, 14).text == "First one."
    assert truncate(strip_markup("no sentence ends in this text"), 12).text == "no sentence"
    assert short.spans == clean.spans[: len(short.text)] and short.emphasis == clean.emphasis
    assert truncate(clean, 1000) is clean
