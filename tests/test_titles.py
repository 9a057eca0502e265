"""A paper's title naming its contribution (`kg/graph/titles.py`)."""
from __future__ import annotations

import pytest

from kg.graph.resolve import resolve
from kg.graph.titles import title_name
from kg.types import Mention, Paper


@pytest.mark.parametrize(("title", "name"), [
    ("Zorbflow: Workflows from Abstracts", "Zorbflow"), ("Quux-Net 2: Faster Nets", "Quux-Net 2"),
    ("Learning to Zorb in a Day: Fast Zorbing", None),  # a phrase of more than four words
    ("Zorbing without a colon", None), (None, None), ("Ratio 3:2 zorbs", None),
])
def test_a_title_opens_with_the_name_before_its_colon(title, name):
    assert title_name(title) == name


@pytest.mark.parametrize(("title", "written", "role"), [
    ("Zorbflow: Workflows from Abstracts", "Zorbflow", "proposed"),
    ("Zorbflow: Workflows from Abstracts", "Quuxbench", "used"),  # another name the abstract uses
    ("Workflows from Abstracts", "Zorbflow", "used"),
])
def test_the_name_a_title_opens_with_is_the_papers_proposal(title, written, role):
    text = f"{written} is evaluated on three corpora."
    mention = Mention("p1", 0, len(written), written, "method", name=written)
    _, links, _ = resolve([mention], papers=[Paper("p1", text, title=title)])
    assert [link.role for link in links] == [role]
