"""A CSV record broken by its quotes or its field count is listed as skipped with its line and reason, and every
record after it is read: nothing vanishes."""
from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from kg.cli.main import app
from kg.io.readers import Skipped, read_file

HEADER = "id,title,abstract"
ROWS = {"a1": "a1,First,We propose FooNet for image classification on ImageNet.",
        "a3": "a3,Third,We evaluate BazNet on GLUE for language understanding.",
        "a4": 'a4,Fourth,"We fine-tune BERT with LoRA on SQuAD, reporting F1."',
        "a6": "a6,Sixth,Large language models are evaluated on MMLU."}


def read(tmp_path: Path, *lines: str) -> tuple[list[str], list[Skipped], list[str]]:
    """Ids read, records skipped and warnings of a CSV made of `lines`."""
    path = tmp_path / "papers.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    warnings: list[str] = []
    records = list(read_file(path, warnings))
    return ([r.id for r in records if not isinstance(r, Skipped)], [r for r in records if isinstance(r, Skipped)],
            warnings)


@pytest.mark.parametrize("broken", [
    'a2,"Broken title,We study BarNet for object detection on COCO.',  # closed only by a quote on a later line
    'a2,Title,"We study BarNet for object detection on COCO.',          # a quote in the last field
])
def test_a_quote_that_is_never_closed_costs_only_its_row(tmp_path: Path, broken: str) -> None:
    ids, skipped, _ = read(tmp_path, HEADER, ROWS["a1"], broken, ROWS["a3"], ROWS["a4"], ROWS["a6"])
    assert ids == ["a1", "a3", "a4", "a6"]
    assert [(s.line, s.reason.split(":")[0]) for s in skipped] == [(3, "unterminated quote")]


def test_an_unterminated_quote_in_the_last_row_is_listed(tmp_path: Path) -> None:
    ids, skipped, _ = read(tmp_path, HEADER, ROWS["a1"], ROWS["a3"], 'a9,"Never closed,We study things.')
    assert ids == ["a1", "a3"] and [s.line for s in skipped] == [4] and "unterminated quote" in skipped[0].reason


def test_a_row_with_too_many_fields_is_listed_and_the_next_rows_read(tmp_path: Path) -> None:
    ids, skipped, _ = read(tmp_path, "id,abstract,title", "a1,We propose FooNet on ImageNet.,First",
                           "a2,We study BarNet,on COCO,Second,extra", "a3,We evaluate BazNet on GLUE.,Third")
    assert ids == ["a1", "a3"] and [s.line for s in skipped] == [3] and "5 fields, the header has 3" in skipped[0].reason


def test_a_quoted_abstract_over_several_lines_is_still_one_record(tmp_path: Path) -> None:
    ids, skipped, _ = read(tmp_path, HEADER, 'a1,First,"We propose FooNet.\n\nIt classifies ImageNet, fast."', ROWS["a3"])
    assert ids == ["a1", "a3"] and not skipped


def test_stray_quotes_inside_a_field_keep_the_row_with_a_note(tmp_path: Path) -> None:
    ids, skipped, warnings = read(tmp_path, HEADER, 'a1,First,"We propose "FooNet" for ImageNet."', ROWS["a3"])
    assert ids == ["a1", "a3"] and not skipped and any("papers.csv:2: stray quotes" in w for w in warnings)


def test_the_build_summary_lists_the_skipped_row(tmp_path: Path) -> None:
    source = tmp_path / "papers.csv"
    source.write_text("\n".join([HEADER, ROWS["a1"], 'a2,"Broken,We study BarNet.', ROWS["a3"], ROWS["a4"]]) + "\n")
    result = CliRunner().invoke(app, ["build", str(source), "--out", str(tmp_path / "out"), "--model", "blank",
                                      "--extractors", "rules", "--format", "ttl", "--quiet", "--no-cache"])
    assert result.exit_code == 0, result.output
    assert "papers: 3 built from 4 records, 1 skipped" in result.output
    assert "skipped papers.csv:3: unterminated quote" in result.output
