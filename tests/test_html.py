"""HTML export: offline, escaped, deterministic; and a headless Chromium run over DevTools (pipe)."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

import networkx as nx
import pytest

from kg.exporters.html import render_html, write_html
from kg.registry import exporters
from test_layout_views import PAPERS, assert_stable_output, build_graph

XSS = "<script>alert(1)</script> and <img src=x onerror=alert(1)>"
EVIL = [("p7", "Evil </script> title", f"🚀 We test Snarknet on {XSS}. Snarknet wins.",
         [("Snarknet", "model", "proposed")])]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1280,900"]


def embedded(html: str) -> dict:
    """The JSON data block of a page."""
    match = re.search(r'<script type="application/json" id="kg-data">(.*?)</script>', html, re.S)
    return json.loads(match.group(1))


def page(papers=PAPERS + EVIL, **kwargs) -> str:
    """The page for a test graph."""
    return render_html(build_graph(papers), **kwargs)


def test_no_external_references():
    html = re.sub(r"<!--.*?-->", "", page(), flags=re.S)
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", html, re.I)
    assert not re.search(r"<link\b|<script[^>]*\bsrc\s*=|@import|<iframe", html, re.I)
    assert "default-src 'none'" in html  # CSP: the browser itself refuses any fetch


def test_vis_network_is_inlined():
    html = page()
    assert "vis-network" in html and "new vis.Network(" in html and "9.1.2" in html
    assert len(html) > 400_000


def test_embedded_data_matches_graph_and_has_positions():
    G = build_graph(PAPERS + EVIL)
    data = embedded(render_html(G))
    assert [n["id"] for n in data["nodes"]] == list(G)
    assert [n["label"] for n in data["nodes"]] == [G.nodes[n]["label"] for n in G]
    assert all(isinstance(n["x"], float) and isinstance(n["y"], float) for n in data["nodes"])
    assert sorted(n["rank"] for n in data["nodes"]) == list(range(len(G)))
    assert len(data["edges"]) == G.number_of_edges()
    assert data["options"]["physics"]["enabled"] is False
    assert all("href" not in str(n.get("title", "")) for n in data["nodes"])
    assert data["meta"]["limit"] == 1500 and data["meta"]["counts"]["paper"] == 4


def test_abstract_segments_use_code_points_and_highlight_mentions():
    G = build_graph(PAPERS + EVIL)
    nodes = embedded(render_html(G))["nodes"]
    evil = next(n for n in nodes if n["id"] == "paper:p7")
    assert "".join(s[0] for s in evil["segments"]) == G.nodes["paper:p7"]["abstract"]
    highlighted = [(s[0], nodes[s[1]]["id"]) for s in evil["segments"] if len(s) == 2]
    assert highlighted == [("Snarknet", "model:snarknet")]


def test_hostile_text_appears_only_escaped():
    html = page()
    for needle in ("<script>alert(1)", "<img src=x", "</script> title", "onerror=alert(1)>"):
        assert needle not in html
    assert "\\u003cscript\\u003ealert(1)\\u003c/script\\u003e" in html
    assert "innerHTML" not in re.sub(r"<script>/\*\*.*?</script>", "", html, count=1, flags=re.S)


def test_large_graph_opens_on_top_nodes_by_degree():
    G = nx.DiGraph()
    for i in range(1700):
        G.add_node(f"paper:{i}", kind="paper", label=f"P{i}", papers=1, abstract="x")
        G.add_node(f"task:t{i % 40}", kind="entity", type="task", label=f"T{i % 40}", aliases=(), papers=1)
        G.add_edge(f"paper:{i}", f"task:t{i % 40}", kind="mention", role="used", evidence=(), weight=1)
    data = embedded(render_html(G, limit=100))
    assert data["meta"]["limit"] == 100
    top = sorted(data["nodes"], key=lambda n: n["rank"])[:40]
    assert {n["type"] for n in top} == {"task"}


def test_output_is_byte_identical_across_runs_and_hash_seeds(tmp_path):
    assert_stable_output("kg.exporters.html.write_html", tmp_path, ".html")


def test_registered_as_html():
    assert exporters.get("html") is write_html


class DevTools:
    """A tiny Chrome DevTools Protocol client over --remote-debugging-pipe (fds 3 and 4)."""

    def __init__(self, binary: str, profile: str):
        to_chrome, self.writer = os.pipe()
        self.reader, from_chrome = os.pipe()

        def wire() -> None:
            read, write = os.dup(to_chrome), os.dup(from_chrome)  # above fd 4, so dup2 clears CLOEXEC
            os.dup2(read, 3)
            os.dup2(write, 4)

        self.proc = subprocess.Popen([binary, *FLAGS, f"--user-data-dir={profile}", "--remote-debugging-pipe",
                                      "about:blank"], close_fds=False, preexec_fn=wire,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome)
        os.close(from_chrome)
        self.events: list[dict] = []
        self.replies: dict[int, dict] = {}
        self.count = 0
        self.cond = threading.Condition()
        threading.Thread(target=self.read, daemon=True).start()

    def read(self) -> None:
        """Collect replies and events until Chromium closes the pipe."""
        buffer = b""
        while chunk := os.read(self.reader, 1 << 16):
            buffer += chunk
            *messages, buffer = buffer.split(b"\0")
            with self.cond:
                for raw in messages:
                    message = json.loads(raw)
                    if "id" in message:
                        self.replies[message["id"]] = message
                    else:
                        self.events.append(message)
                self.cond.notify_all()

    def send(self, method: str, session: str | None = None, **params) -> dict:
        """Send a command and wait for its result."""
        with self.cond:
            self.count += 1
            ident = self.count
        message = {"id": ident, "method": method, "params": params, **({"sessionId": session} if session else {})}
        os.write(self.writer, json.dumps(message).encode() + b"\0")
        with self.cond:
            assert self.cond.wait_for(lambda: ident in self.replies, 60), f"no reply to {method}"
            reply = self.replies.pop(ident)
        assert "error" not in reply, reply
        return reply["result"]

    def wait(self, method: str, session: str, start: int = 0, timeout: float = 60) -> None:
        """Wait until an event of a session has arrived after event number `start`."""
        def arrived() -> bool:
            return any(e["method"] == method and e.get("sessionId") == session for e in self.events[start:])

        with self.cond:
            assert self.cond.wait_for(arrived, timeout), method

    def close(self) -> None:
        """Close the browser and the pipes."""
        try:
            self.send("Browser.close")
            self.proc.wait(10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            os.close(self.writer)


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM:
        pytest.skip("chromium is not installed (apt-get install -y chromium)")
    with tempfile.TemporaryDirectory() as profile:
        tools = DevTools(CHROMIUM, profile)
        try:
            yield tools
        finally:
            tools.close()


def open_page(tools: DevTools, path: Path) -> tuple[str, int]:
    """Open a file in a new tab with console, network and page events on; (session, first event)."""
    target = tools.send("Target.createTarget", url="about:blank")["targetId"]
    session = tools.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
    for domain in ("Runtime", "Log", "Network", "Page"):
        tools.send(f"{domain}.enable", session)
    start = len(tools.events)
    tools.send("Page.navigate", session, url=path.as_uri())
    tools.wait("Page.loadEventFired", session, start)
    return session, start


def js(tools: DevTools, session: str, expression: str):
    """Evaluate JavaScript in the page and return its value."""
    result = tools.send("Runtime.evaluate", session, expression=expression, returnByValue=True, awaitPromise=True)
    assert "exceptionDetails" not in result, result
    return result["result"].get("value")


def click(tools: DevTools, session: str, x: float, y: float) -> None:
    """A real left click at page coordinates."""
    for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
        tools.send("Input.dispatchMouseEvent", session, type=kind, x=x, y=y, button="left", clickCount=1)


def problems(events: list[dict], session: str, page_url: str) -> list[str]:
    """Console errors, exceptions, dialogs and any request other than the page itself."""
    found = []
    for event in (e for e in events if e.get("sessionId") == session):
        method, params = event["method"], event.get("params", {})
        if method == "Network.requestWillBeSent" and params["request"]["url"] != page_url:
            found.append(f"request {params['request']['url']}")
        elif method == "Runtime.exceptionThrown" or method == "Page.javascriptDialogOpening":
            found.append(f"{method} {json.dumps(params)[:300]}")
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert", "warning"):
            found.append(f"console {json.dumps(params.get('args'))[:300]}")
        elif method == "Log.entryAdded" and params["entry"]["level"] in ("error", "warning"):
            found.append(f"log {params['entry'].get('text')}")
    return found


CANVAS_PIXELS = """(() => { const c = document.querySelector('#graph canvas');
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i]) n++; return n; })()"""


def test_page_in_headless_chromium(browser, tmp_path):
    path = tmp_path / "graph.html"
    write_html(build_graph(PAPERS + EVIL), path)
    session, start = open_page(browser, path)
    assert js(browser, session, CANVAS_PIXELS) > 500
    # Search: type a query and press Enter; the panel opens on the match.
    js(browser, session, "document.getElementById('search').focus()")
    browser.send("Input.insertText", session, text="quux")
    for kind in ("keyDown", "keyUp"):
        browser.send("Input.dispatchKeyEvent", session, type=kind, key="Enter", code="Enter",
                     windowsVirtualKeyCode=13)
    assert js(browser, session, "document.getElementById('panel').dataset.node") == "dataset:quux-corpus"
    assert "Proposed by" not in js(browser, session, "document.getElementById('details').textContent")
    # Click: a real mouse click on the hostile paper's node opens its panel, text shown literally.
    js(browser, session, "document.getElementById('close').click()")
    x, y = js(browser, session, """(() => { const net = kgApp.network, i = kgApp.nodes.findIndex(n => n.id === 'paper:p7');
        net.focus(i, {scale: 1.5, animation: false}); const p = net.canvasToDOM(net.getPosition(i));
        const r = document.getElementById('graph').getBoundingClientRect(); return [r.left + p.x, r.top + p.y]; })()""")
    click(browser, session, x, y)
    assert js(browser, session, "document.getElementById('panel').hidden") is False
    assert js(browser, session, "document.getElementById('panel').dataset.node") == "paper:p7"
    details = js(browser, session, "document.getElementById('details').textContent")
    assert XSS in details and "🚀" in details
    assert js(browser, session, "document.querySelectorAll('#details img, #details script').length") == 0
    assert js(browser, session, "document.querySelector('#details .mention').textContent") == "Snarknet"
    assert problems(browser.events[start:], session, path.as_uri()) == []


def test_large_page_in_headless_chromium(browser, tmp_path):
    G = nx.DiGraph()
    for i in range(2500):
        G.add_node(f"paper:{i}", kind="paper", label=f"Paper {i}", papers=1, abstract="An abstract.")
    for i in range(2500):
        for j in (i % 97, (i * 7) % 211):
            G.add_node(f"task:t{j}", kind="entity", type="task", label=f"Task {j}", aliases=(f"T{j}",), papers=1)
            G.add_edge(f"paper:{i}", f"task:t{j}", kind="mention", role="used", evidence=(), weight=1)
    path = tmp_path / "large.html"
    write_html(G, path)
    session, start = open_page(browser, path)
    assert js(browser, session, CANVAS_PIXELS) > 500
    note = js(browser, session, "document.getElementById('note').textContent")
    assert note.startswith(f"Showing 1500 of {G.number_of_nodes()} nodes") and "hidden" in note
    assert problems(browser.events[start:], session, path.as_uri()) == []
