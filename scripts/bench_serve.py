"""Load-test `kg serve`: throughput and latency under concurrent clients, then what runaway queries cost.

    python scripts/bench_serve.py GRAPH.ttl [--clients 16] [--queries 40] [--runaway 4] [--give-up 5]
                                  [--watch 70] [--runaway-query Q] [--json out.json] [-- kg serve options, e.g. --timeout 30]

Starts the real `kg serve GRAPH --port 0 --quiet` in its own process. Phase 1: --clients threads
each send --queries light queries (a fixed mix of small SELECT/ASK queries and light named
queries), one after another; reports throughput, p50/p99 latency and failures. Phase 2: --runaway
clients each send `SELECT * WHERE { ?a ?b ?c . ?d ?e ?f }` and give up (close the connection)
after --give-up seconds, while one more client sends it and waits up to 90 s for the answer;
4 more clients send 10 light queries each, one after another, starting 1 s after the runaways
(`light_during`: their latency while the runaway queries hold the workers; kg serve's quick lane);
the server's process tree (server and query workers) is sampled every 0.5 s for --watch seconds:
peak resident memory, CPU use over the last 5 s of the watch, and from when on every 2-second
window used under 20% of one CPU (CPU time of killed workers is not seen: /proc forgets it).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

RUNAWAY = "SELECT * WHERE { ?a ?b ?c . ?d ?e ?f }"
LIGHT = ["ASK { ?p a mlkg:Paper }",
         "SELECT (COUNT(*) AS ?n) WHERE { ?p a mlkg:Paper }",
         "SELECT ?label WHERE { ?e a mlkg:Dataset ; rdfs:label ?label } LIMIT 10",
         "SELECT ?p ?title WHERE { ?p a mlkg:Paper ; dcterms:title ?title } LIMIT 20",
         "SELECT ?e WHERE { ?e skos:hiddenLabel \"imagenet\" }"]
NAMED_LIGHT = ("papers-per-year", "entity-types")
TICK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered) + 0.5) - 1))] if ordered else float("nan")


def ask(url: str, query: str, timeout: float) -> tuple[int, float, bytes]:
    """One POSTed query: HTTP status (0: the client gave up or could not connect), seconds, body."""
    data = urllib.parse.urlencode({"query": query}).encode()
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data), timeout=timeout) as response:
            return response.status, time.perf_counter() - started, response.read()
    except urllib.error.HTTPError as error:
        return error.code, time.perf_counter() - started, error.read()
    except OSError as error:
        return 0, time.perf_counter() - started, str(error).encode()


def tree(root: int) -> list[int]:
    """`root` and its descendants (from /proc)."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents.setdefault(int(fields[1]), []).append(int(entry))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(parents.get(pid, []))
    return found


def usage(root: int) -> tuple[int, float]:
    """(resident bytes, CPU seconds) of the process tree; ended processes' CPU is not counted."""
    rss, cpu = 0, 0.0
    for pid in tree(root):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            rss += int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE
        except OSError:
            continue
        cpu += (int(fields[11]) + int(fields[12])) / TICK
    return rss, cpu


def start_server(graph: Path, extra: list[str]) -> tuple[subprocess.Popen, str]:
    """`kg serve` on a free port; returns the process and its URL once it listens."""
    process = subprocess.Popen([sys.executable, "-m", "kg", "serve", str(graph), "--port", "0", "--quiet", *extra],
                               stderr=subprocess.PIPE, text=True)
    for line in process.stderr:
        found = re.search(r"(http://127\.0\.0\.1:\d+/sparql)", line)
        if found:
            threading.Thread(target=process.stderr.read, daemon=True).start()
            return process, found[1]
    raise SystemExit(f"kg serve did not start (exit {process.wait()})")


def light_phase(url: str, clients: int, queries: int) -> dict:
    """Every client sends its queries one after another; latency of each, throughput of all."""
    from kg.query.sparql import named_queries

    mix = LIGHT + [named_queries()[name].text for name in NAMED_LIGHT]
    results: list[tuple[int, float]] = []
    failures: list[str] = []
    lock = threading.Lock()

    def client(number: int) -> None:
        for index in range(queries):
            status, seconds, body = ask(url, mix[(number + index) % len(mix)], 60)
            with lock:
                results.append((status, seconds))
                if status != 200:
                    failures.append(f"{status}: {body.decode('utf-8', 'replace').strip()[:120]}")

    started = time.perf_counter()
    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - started
    ok = [seconds for status, seconds in results if status == 200]
    return {"clients": clients, "queries": len(results), "failed": len(results) - len(ok),
            "throughput_per_s": round(len(ok) / wall, 1), "p50_ms": round(percentile(ok, 0.5) * 1000, 1),
            "p99_ms": round(percentile(ok, 0.99) * 1000, 1), "max_ms": round(max(ok, default=float("nan")) * 1000, 1),
            "wall_s": round(wall, 1), "failures": sorted(set(failures))}


def runaway_phase(url: str, pid: int, runaway: int, give_up: float, watch: float, query: str = RUNAWAY) -> dict:
    """Runaway queries whose clients give up, one that waits; the server's memory and CPU meanwhile."""
    waited: dict = {}
    threads = [threading.Thread(target=lambda: waited.update(zip(("status", "seconds", "body"),
                                                                  ask(url, query, 90))))]
    threads += [threading.Thread(target=ask, args=(url, query, give_up)) for _ in range(runaway)]
    during: dict = {}
    light = threading.Thread(target=lambda: (time.sleep(1.0), during.update(light_phase(url, 4, 10))))
    started = time.perf_counter()
    for thread in threads:
        thread.start()
        time.sleep(0.2)  # the waiting client first, so it holds a worker
    light.start()
    peak, samples = 0, []
    while time.perf_counter() - started < watch:
        rss, cpu = usage(pid)
        peak = max(peak, rss)
        samples.append((time.perf_counter() - started, cpu))
        time.sleep(0.5)
    for thread in [*threads, light]:
        thread.join()
    recent = [s for s in samples if s[0] >= watch - 5]
    cpu_share = (recent[-1][1] - recent[0][1]) / (recent[-1][0] - recent[0][0]) if len(recent) > 1 else float("nan")
    busy = [later[0] for earlier, later in zip(samples[:-4], samples[4:])  # 2-second windows over 20% of one CPU
            if later[1] - earlier[1] > 0.2 * (later[0] - earlier[0])]
    body = waited.get("body", b"").decode("utf-8", "replace").strip()
    return {"runaway_clients": runaway, "give_up_s": give_up, "waiting_client_status": waited.get("status"),
            "waiting_client_s": round(waited.get("seconds", float("nan")), 1), "waiting_client_answer": body[:200],
            "peak_rss_mb": round(peak / 1e6), "cpu_last_5s_of_watch_pct": round(cpu_share * 100, 1),
            "cpu_under_20pct_from_s": round(busy[-1], 1) if busy else 0.0,
            "watch_s": watch, "rss_after_mb": round(usage(pid)[0] / 1e6),
            "light_during": {key: during.get(key) for key in ("queries", "failed", "p50_ms", "p99_ms", "max_ms",
                                                              "failures")}}


def main() -> None:
    """Run both phases against a fresh `kg serve` and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("graph", type=Path)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--queries", type=int, default=40, help="light queries per client")
    parser.add_argument("--runaway", type=int, default=4)
    parser.add_argument("--give-up", type=float, default=5.0, help="seconds a runaway client waits")
    parser.add_argument("--watch", type=float, default=70.0, help="seconds to watch the server after the runaways")
    parser.add_argument("--runaway-query", default=RUNAWAY, help="what the runaway clients send")
    parser.add_argument("--json", type=Path)
    args, serve_options = parser.parse_known_args()
    process, url = start_server(args.graph, [o for o in serve_options if o != "--"])
    try:
        ask(url, "ASK {}", 60)  # warm up: workers started, store open
        figures = {"load_average": round(os.getloadavg()[0], 1), "cpus": os.cpu_count(),
                   "idle_rss_mb": round(usage(process.pid)[0] / 1e6),
                   "light": light_phase(url, args.clients, args.queries)}
        figures["runaway"] = runaway_phase(url, process.pid, args.runaway, args.give_up, args.watch, args.runaway_query)
        figures["light_after"] = light_phase(url, 4, 10)
    finally:
        process.terminate()
        process.wait(timeout=30)
    print(json.dumps(figures, indent=1))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
