"""Leaderboards from the graph's results: per dataset, metric and unit with at least two scores (a board never
ranks 97.2% against 5.7 cm, nor a fraction against a percent), the scores ranked best first by the metric's
direction (kg.text.directions.result_direction), and the page's Leaderboards tab as HTML (every text escaped; rows carry
`data-node` so a click opens the paper). Values `kg lint` flags as impossible (an accuracy above 100%, a negative
FID) are never ranked, as in the `leaderboard` query. A measure whose direction is unknown (a sparsity, a count of
operations) gets no board: its groups are listed after the boards as not ranked."""
from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Any

import networkx as nx

from kg.graph.results import Result, result_direction, results_of
from kg.text.markup import strip_markup

MIN_ROWS = 2
BOARDS_SHOWN = 300
ROWS_SHOWN = 50


@dataclass(frozen=True)
class Board:
    """One leaderboard: a dataset node, the metric (as worded, or the metric entity's label), the unit its scores
    share ('' for none), its direction ('higher', 'lower' or None: unknown) and the ranked scores."""

    dataset: str
    metric: str
    unit: str
    direction: str | None
    rows: tuple[Result, ...]  # a range's best end stands for the range (its other end in `other_ends`)
    other_ends: tuple[Result | None, ...] = ()

    @property
    def papers(self) -> int:
        """How many papers report its scores (one: a paper's own comparison, not yet a leaderboard across papers)."""
        return len({r.paper_id for r in self.rows})


def metric_of(G: nx.DiGraph, result: Result) -> str:
    """The metric a result is ranked by: its metric entity's label, else the metric as worded."""
    if result.metric and result.metric in G:
        return str(G.nodes[result.metric]["label"])
    return result.metric_name


def all_boards(G: nx.DiGraph, min_rows: int = MIN_ROWS) -> list[Board]:
    """Every (dataset, metric, unit) with at least `min_rows` possible scores, ranked or not (direction None), those
    reported by most papers first, then most scores (ties: dataset, metric, unit)."""
    grouped: dict[tuple[str, str, str], list[Result]] = {}
    names: dict[tuple[str, str, str], str] = {}
    for r in results_of(G):
        metric = metric_of(G, r)
        if r.kind != "score" or not r.dataset or not metric or r.impossible:
            continue
        key = (r.dataset, metric.casefold(), r.unit)
        grouped.setdefault(key, []).append(r)
        names.setdefault(key, metric)
    boards = []
    for key, found in grouped.items():
        node = G.nodes[found[0].metric] if found[0].metric in G else {}
        worded = sorted({r.metric_name for r in found if r.metric_name})
        better = result_direction(*((node["label"],) if node else ()), *worded, *node.get("aliases", ()))
        rows = collapsed(found, better)
        if len(rows) < min_rows:
            continue
        sign = 1 if better == "lower" else -1
        ranked = sorted(rows, key=lambda pair: (sign * pair[0].value, pair[0].paper_id, pair[0].start))
        boards.append(Board(key[0], names[key], key[2], better, tuple(r for r, _ in ranked),
                            tuple(other for _, other in ranked)))
    return sorted(boards, key=lambda b: (-b.papers, -len(b.rows), str(G.nodes[b.dataset]["label"]).casefold(),
                                         b.metric.casefold(), b.unit, b.dataset))


def collapsed(rows: list[Result], better: str | None) -> list[tuple[Result, Result | None]]:
    """One row per statement: a value a paper states twice for one subject once, and a range's two ends (`17.1–17.5%`:
    `at least` 17.1, `up to` 17.5, RESULTS.md's two results) one row led by its better end."""
    out: list[tuple[Result, Result | None]] = []
    seen: set[tuple] = set()
    for r in sorted(rows, key=lambda r: (r.paper_id, r.start)):
        key = (r.paper_id, r.subject, r.proposal, r.value)
        if key in seen:
            continue
        seen.add(key)
        low = out[-1][0] if out and out[-1][1] is None else None
        if (low is not None and low.bound == "at least" and r.bound == "up to" and low.paper_id == r.paper_id
                and (low.subject, low.proposal) == (r.subject, r.proposal) and 0 <= r.start - low.end <= 12):
            out[-1] = (low, r) if better == "lower" else (r, low)
        else:
            out.append((r, None))
    return out


def range_text(r: Result, other: Result) -> str:
    """A range as one would write it: `17.1–17.5%` (low end first)."""
    low, high = sorted((r, other), key=lambda x: x.value)
    return f"{low.text}–{high.written}"


def leaderboards(G: nx.DiGraph, min_rows: int = MIN_ROWS) -> list[Board]:
    """The boards whose metric has a known direction, ranked best first (see all_boards)."""
    return [b for b in all_boards(G, min_rows) if b.direction]


def unranked(G: nx.DiGraph, min_rows: int = MIN_ROWS) -> list[Board]:
    """The groups of scores whose measure has no known direction (sparsity, operations): listed, never ranked."""
    return [b for b in all_boards(G, min_rows) if not b.direction]


def subject_label(G: nx.DiGraph, r: Result) -> str:
    """Who reached a result: the subject's label, the paper's proposal or a baseline."""
    if r.subject and r.subject in G:
        return str(G.nodes[r.subject]["label"])
    return "the paper's proposal" if r.proposal else "a baseline"


def row_html(G: nx.DiGraph, rank: int, r: Result, index: dict[Any, int], other: Result | None = None) -> str:
    """One ranked row: rank, subject, value with unit (and its bound: 'up to 12%'; a range as one: `17.1–17.5%`),
    paper (clickable), sentence."""
    paper = f"paper:{r.paper_id}"
    abstract = G.nodes[paper].get("abstract") or ""
    sentence = " ".join(strip_markup(abstract[r.sentence_start:r.sentence_end]).text.split())  # offsets: stored text
    subject = escape(subject_label(G, r))
    if r.subject in index:
        subject = f'<span class="link" data-node="{index[r.subject]}">{subject}</span>'
    value = escape(range_text(r, other) if other is not None else f"{r.bound} {r.written}" if r.bound else r.written)
    return (f'<tr><td class="rank">{rank}</td><td>{subject}</td><td class="value">{value}</td>'
            f'<td><span class="link" data-node="{index[paper]}">{escape(str(G.nodes[paper]["label"]))}</span></td>'
            f'<td class="sentence">{escape(sentence)}</td></tr>')


def unranked_html(G: nx.DiGraph, groups: list[Board], index: dict[Any, int]) -> str:
    """The groups not ranked (direction unknown), one line each: dataset (clickable), measure, unit, how many."""
    if not groups:
        return ""
    items = "".join(f'<li><span class="link" data-node="{index[g.dataset]}">{escape(str(G.nodes[g.dataset]["label"]))}'
                    f'</span> · {escape(g.metric + (f" ({g.unit})" if g.unit else ""))} '
                    f'<span class="muted">({len(g.rows)} values)</span></li>' for g in groups[:BOARDS_SHOWN])
    return ('<section class="board unranked"><h3>Not ranked: whether higher or lower is better is not known</h3>'
            f'<p class="muted">{len(groups):,} more datasets and measures with two or more reported values (sizes, '
            f'sparsities, costs and measures paperkg has no direction for); their values are in the panels.</p>'
            f'<ul>{items}</ul></section>')


def render_leaderboards(G: nx.DiGraph, index: dict[Any, int]) -> str:
    """The Leaderboards tab's HTML (an explanation when there is none)."""
    everything = all_boards(G)
    boards, others = [b for b in everything if b.direction], [b for b in everything if not b.direction]
    if not boards:
        return ('<h2>Leaderboards</h2><p class="muted">No dataset has two or more scores by the same metric (in '
                'one unit, higher or lower known to be better) in these abstracts.</p>' + unranked_html(G, others, index))
    parts = [f'<h2>Leaderboards</h2><p class="muted">{len(boards):,} leaderboards (a dataset, a metric and a unit '
             f'with two or more reported scores){f", the first {BOARDS_SHOWN} shown" if len(boards) > BOARDS_SHOWN else ""}; '
             'those reported by most papers first (a board of one paper ranks that paper\'s own comparisons); '
             'values as the abstracts state them, best first; values no measurement can take (an accuracy above '
             '100%, a negative error) left out.</p>']
    for board in boards[:BOARDS_SHOWN]:
        dataset = escape(str(G.nodes[board.dataset]["label"]))
        metric = escape(board.metric + (f" ({board.unit})" if board.unit else ""))
        parts.append(f'<section class="board"><h3><span class="link" data-node="{index[board.dataset]}">{dataset}'
                     f'</span> · {metric} <span class="muted">({board.direction} is better; {len(board.rows)} scores, '
                     f'{f"{board.papers} papers" if board.papers > 1 else "one paper"})</span></h3><table><thead><tr><th>#</th><th>Subject</th><th>Value</th><th>Paper</th>'
                     '<th>Sentence</th></tr></thead><tbody>')
        ends = board.other_ends or (None,) * len(board.rows)
        parts += [row_html(G, rank, r, index, other)
                  for rank, (r, other) in enumerate(zip(board.rows[:ROWS_SHOWN], ends), start=1)]
        parts.append("</tbody></table></section>")
    return "".join(parts) + unranked_html(G, others, index)
