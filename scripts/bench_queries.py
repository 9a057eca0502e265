"""Time SPARQL over an export: building its query store, every named query in-process, `kg query` from the shell.

    python scripts/bench_queries.py GRAPH.ttl [--runs 20] [--shell-runs 10] [--builds 1] [--json out.json]

Parameters that name a paper or an entity are set from the graph itself (the most-mentioned entity
of the right type, the paper with the most mentions), so every query has rows on any corpus.
Figures (wall time, and the CPU time the process used, which a busy shared machine inflates less):
p50/p95 over --runs runs of each query on the warm store, opened read-only as `kg query`
opens it; whether `kg serve` answers each exactly as `kg query` does; `kg query` wall time per run
including process start; store build time from scratch.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from kg.query.sparql import bind_params, named_queries, run_store
from kg.query.store import ensure_store, open_store

PREFIXES = """PREFIX mlkg: <https://w3id.org/paperkg/vocab#> PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
"""
MOST = PREFIXES + "SELECT ?label WHERE {{ ?node a {cls} ; rdfs:label ?label ; mlkg:paperCount ?n }} ORDER BY DESC(?n) ?label LIMIT 1"
PAPER = PREFIXES + """SELECT ?node ?label WHERE { { SELECT ?node (COUNT(?e) AS ?n) WHERE { ?node mlkg:mentions ?e }
GROUP BY ?node ORDER BY DESC(?n) ?node LIMIT 1 } ?node rdfs:label ?label }"""
XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"
ITS_ENTITY = PREFIXES + """SELECT ?label WHERE {{ <{paper}> mlkg:mentions ?e . ?e rdfs:label ?label ; mlkg:paperCount ?n }}
ORDER BY DESC(?n) ?label LIMIT 1"""


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered) + 0.5) - 1))]


def bench_params(store) -> dict[str, list[str]]:
    """Values for the paper/entity parameters that exist in this graph: the paper with most entities
    (by title), its most-mentioned entity, the most-mentioned dataset and task."""
    def first(query: str, column: int = 0) -> str:
        rows = run_store(store, query)[1]
        return str(rows[0][column]) if rows else "none"

    paper = run_store(store, PAPER)[1]
    most = {kind: first(MOST.format(cls=f"mlkg:{kind.title()}")) for kind in ("dataset", "task")}
    return {"paper": [str(paper[0][1]) if paper else "none"],
            "entity": [first(ITS_ENTITY.format(paper=paper[0][0])) if paper else "none"],
            "dataset": [most["dataset"]], "task": [most["task"]]}


def time_builds(graph: Path, builds: int) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds (all threads) to build the store from scratch, each time in a fresh directory."""
    walls, cpus = [], []
    for _ in range(builds):
        with tempfile.TemporaryDirectory(prefix="kg-store-bench-") as folder:
            start, cpu = time.perf_counter(), time.process_time()
            ensure_store(graph, Path(folder))
            walls.append(time.perf_counter() - start)
            cpus.append(time.process_time() - cpu)
    return walls, cpus


def time_queries(store, params: dict[str, list[str]], runs: int) -> dict[str, dict]:
    """Per named query: rows, p50 and p95 milliseconds on the open store."""
    table = {}
    for name, named in named_queries().items():
        text = bind_params(named.text, {k: v for k, v in params.items() if k in named.params})
        rows = len(run_store(store, text)[1])  # warm-up, and the row count
        times, cpu_times = [], []
        for _ in range(runs):
            start, cpu = time.perf_counter(), time.process_time()
            run_store(store, text)
            times.append((time.perf_counter() - start) * 1000)
            cpu_times.append((time.process_time() - cpu) * 1000)
        table[name] = {"rows": rows, "p50_ms": statistics.median(times), "p95_ms": percentile(times, 0.95),
                       "cpu_p50_ms": statistics.median(cpu_times)}
    return table


def endpoint_equality(store_dir: Path, params: dict[str, list[str]]) -> dict[str, bool]:
    """Per named query: whether `kg serve` (SPARQL JSON over HTTP) answers exactly what `kg query` does."""
    import threading
    import urllib.parse
    import urllib.request

    from kg.query.endpoint import Endpoint
    from kg.query.sparql import literal_value

    server = Endpoint(lambda: store_dir, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    verdicts = {}
    try:
        for name, named in named_queries().items():
            text = bind_params(named.text, {k: v for k, v in params.items() if k in named.params})
            request = urllib.request.Request(server.url, data=urllib.parse.urlencode({"query": text}).encode(),
                                             headers={"Accept": "application/sparql-results+json"})
            with urllib.request.urlopen(request, timeout=120) as response:
                answer = json.load(response)
            columns = answer["head"]["vars"]
            rows = [tuple(None if c not in b else literal_value(b[c]["value"], b[c].get("datatype", XSD_STRING))
                          if b[c]["type"] == "literal" else b[c]["value"] for c in columns)
                    for b in answer["results"]["bindings"]]
            verdicts[name] = (columns, rows) == run_store(store, text)
    finally:
        server.shutdown()
        server.server_close()
    return verdicts


def time_shell(graph: Path, store_dir: Path, runs: int) -> dict[str, tuple[float, float]]:
    """Median wall and CPU seconds of `kg query GRAPH top-datasets` and of `kg --help`, process start included."""
    env = {**os.environ, "PAPERKG_STORE_DIR": str(store_dir)}
    kg = [sys.executable, "-m", "kg"]
    result = {}
    for label, args in (("kg query", [*kg, "query", str(graph), "top-datasets", "-f", "csv"]), ("kg --help", [*kg, "--help"])):
        walls, cpus = [], []
        for _ in range(runs):
            start, before = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run(args, check=True, capture_output=True, env=env)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            walls.append(time.perf_counter() - start)
            cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        result[label] = (statistics.median(walls), statistics.median(cpus))
    return result


def main() -> None:
    """Run the three measurements and print a Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("graph", type=Path)
    parser.add_argument("--runs", type=int, default=20, help="runs of each named query")
    parser.add_argument("--shell-runs", type=int, default=10, help="runs of `kg query` from the shell")
    parser.add_argument("--builds", type=int, default=1, help="store builds from scratch")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON")
    args = parser.parse_args()
    builds = time_builds(args.graph, args.builds)
    with tempfile.TemporaryDirectory(prefix="kg-store-bench-") as folder:
        store = open_store(args.graph, Path(folder))
        params = bench_params(store)
        queries = time_queries(store, params, args.runs)
        equal = endpoint_equality(ensure_store(args.graph, Path(folder)), params)
        shell = time_shell(args.graph, Path(folder), args.shell_runs)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; parameters: {json.dumps(params, ensure_ascii=False)}\n\n"
          "| query | rows | p50 ms | p95 ms | CPU p50 ms | kg serve = kg query |\n|---|---|---|---|---|---|")
    for name, f in queries.items():
        print(f"| {name} | {f['rows']} | {f['p50_ms']:.1f} | {f['p95_ms']:.1f} | {f['cpu_p50_ms']:.1f} | {equal[name]} |")
    print(f"\nstore build: {statistics.median(builds[0]):.1f} s wall, {statistics.median(builds[1]):.1f} s CPU "
          f"(medians of {len(builds[0])})")
    print("\n".join(f"{label}: {wall:.2f} s wall p50, {cpu:.2f} s CPU ({args.shell_runs} runs)"
                    for label, (wall, cpu) in shell.items()))
    if args.json:
        args.json.write_text(json.dumps({"params": params, "queries": queries, "build_s": builds, "shell_s": shell,
                                         "endpoint_equal": equal},
                                        indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
