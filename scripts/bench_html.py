"""Open HTML views in headless Chromium and measure what a person gets: first draw, interactive,
search and abstract answers, size, labelled entities and overlapping labels at the default zoom;
optionally save screenshots.

    python scripts/bench_html.py exports/graph.html [more.html ...] [--shots DIR] [--runs 3]

First draw and interactive are the page's own `performance.now()` marks (milliseconds since
navigation started): the first frame with labels drawn, and two frames after the script set up.
Search is the first query's answer (it builds the name index), typed once the page is
interactive; abstract is the first paper panel's abstract shown (its chunk inflated).
"""
from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

from kg.quality.browser import (LABEL_BOXES, chromium, find_chromium, js, open_page, overlapping, problems,
                        screenshot, wait_for)

TIMED = ("first_draw_ms", "interactive_ms", "search_ms", "abstract_ms")
# The first search (a common word) and the first paper panel, timed in the page.
ANSWERS = """(async () => { let t = performance.now(); kgApp.matches('learning'); const search = performance.now() - t;
  const paper = kgApp.nodes.findIndex(n => n.kind === 'paper'); t = performance.now(); kgApp.focusNode(paper);
  while (document.querySelector('#details .abstract[aria-busy]')) await new Promise(r => setTimeout(r, 1));
  return {search: search, abstract: performance.now() - t}; })()"""


def measure(binary: str, path: Path, shots: Path | None) -> dict:
    """One fresh browser, one page load: timings, label figures, problems."""
    path = path.resolve()
    with chromium(binary) as tools:
        session, start = open_page(tools, path)
        timings = wait_for(tools, session, "window.kgApp && kgApp.timings.interactive && kgApp.timings")
        boxes = js(tools, session, LABEL_BOXES)
        answers = js(tools, session, ANSWERS)
        if shots:
            screenshot(tools, session, shots / f"{path.parent.name}-{path.stem}-map.png")
            js(tools, session, "document.getElementById('tab-overview').click()")
            screenshot(tools, session, shots / f"{path.parent.name}-{path.stem}-overview.png")
            js(tools, session, "(o => o.scrollTop = o.scrollHeight)(document.getElementById('overview'))")
            screenshot(tools, session, shots / f"{path.parent.name}-{path.stem}-overview-end.png")
        return {"first_draw_ms": round(timings["firstDraw"]), "interactive_ms": round(timings["interactive"]),
                "search_ms": round(answers["search"]), "abstract_ms": round(answers["abstract"]),
                "labels": sum(1 for b in boxes if b["kind"] == "label"),
                "community_names": sum(1 for b in boxes if b["kind"] == "community"),
                "overlaps": len(overlapping(boxes)), "problems": problems(tools.events[start:], session, path.as_uri())}


def main() -> None:
    """Measure each page `--runs` times and print medians as JSON lines."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pages", nargs="+", type=Path)
    parser.add_argument("--shots", type=Path, help="directory for map and overview screenshots")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    binary = find_chromium()
    if not binary:
        raise SystemExit("chromium is not installed (apt-get install -y chromium)")
    if args.shots:
        args.shots.mkdir(parents=True, exist_ok=True)
    for page in args.pages:
        runs = [measure(binary, page, args.shots if k == 0 else None) for k in range(args.runs)]
        summary = {key: statistics.median(r[key] for r in runs) for key in TIMED}
        print(json.dumps({"page": str(page), "megabytes": round(page.stat().st_size / 1e6, 2), **summary,
                          **{k: runs[0][k] for k in ("labels", "community_names", "overlaps", "problems")}}))


if __name__ == "__main__":
    main()
