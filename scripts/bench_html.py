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

from kg.quality.browser import find_chromium
from kg.quality.page_bench import TIMED, measure_page


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
        runs = [measure_page(binary, page, args.shots if k == 0 else None) for k in range(args.runs)]
        summary = {key: statistics.median(r[key] for r in runs) for key in TIMED}
        print(json.dumps({"page": str(page), "megabytes": round(page.stat().st_size / 1e6, 2), **summary,
                          **{k: runs[0][k] for k in ("labels", "community_names", "overlaps", "problems")}}))


if __name__ == "__main__":
    main()
