"""What a person gets from an HTML page in headless Chromium: first draw, interactive, the first
search and abstract answers, labels and overlaps at the default zoom (kg bench, scripts/bench_html.py)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from kg.quality.browser import LABEL_BOXES, chromium, js, open_page, overlapping, problems, screenshot, wait_for

TIMED = ("first_draw_ms", "interactive_ms", "search_ms", "abstract_ms")
# The first search (a common word) and the first paper panel, timed in the page.
ANSWERS = """(async () => { let t = performance.now(); kgApp.matches('learning'); const search = performance.now() - t;
  const paper = kgApp.nodes.findIndex(n => n.kind === 'paper'); t = performance.now(); kgApp.focusNode(paper);
  while (document.querySelector('#details .abstract[aria-busy]')) await new Promise(r => setTimeout(r, 1));
  return {search: search, abstract: performance.now() - t}; })()"""


def measure_page(binary: str, path: Path, shots: Path | None = None) -> dict[str, Any]:
    """One fresh browser, one page load: the page's own timings (ms from navigation start), labels, problems."""
    path = path.resolve()
    with chromium(binary) as tools:
        session, start = open_page(tools, path)
        timings = wait_for(tools, session, "window.kgApp && kgApp.timings.interactive && kgApp.timings")
        boxes = js(tools, session, LABEL_BOXES)
        if shots:
            save_shots(tools, session, shots / f"{path.parent.name}-{path.stem}")
        answers = js(tools, session, ANSWERS)
        return {"first_draw_ms": round(timings["firstDraw"]), "interactive_ms": round(timings["interactive"]),
                "search_ms": round(answers["search"]), "abstract_ms": round(answers["abstract"]),
                "labels": sum(1 for b in boxes if b["kind"] == "label"),
                "community_names": sum(1 for b in boxes if b["kind"] == "community"),
                "overlaps": len(overlapping(boxes)), "problems": problems(tools.events[start:], session, path.as_uri())}


def save_shots(tools, session: str, stem: Path) -> None:
    """Screenshots of the map, the overview and the overview's end."""
    screenshot(tools, session, stem.with_name(stem.name + "-map.png"))
    js(tools, session, "document.getElementById('tab-overview').click()")
    screenshot(tools, session, stem.with_name(stem.name + "-overview.png"))
    js(tools, session, "(o => o.scrollTop = o.scrollHeight)(document.getElementById('overview'))")
    screenshot(tools, session, stem.with_name(stem.name + "-overview-end.png"))
    js(tools, session, "document.getElementById('tab-map').click()")
