"""A tiny headless-Chromium driver over the DevTools protocol (pipe): open a page, run JS, watch events."""
from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Iterator

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1280,900"]
# Reads a copy, so polling never reads the page's own canvas twice (Chromium warns on that).
CANVAS_PIXELS = """(() => { const c = document.querySelector('#graph canvas');
  const copy = Object.assign(document.createElement('canvas'), {width: c.width, height: c.height});
  const context = copy.getContext('2d', {willReadFrequently: true});
  context.drawImage(c, 0, 0);
  const d = context.getImageData(0, 0, c.width, c.height).data;
  let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i]) n++; return n; })()"""


class BrowserError(RuntimeError):
    """Chromium did not answer, or a command or script failed."""


def find_chromium() -> str | None:
    """The Chromium binary on PATH (Debian's `chromium`), if any."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


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
            if not self.cond.wait_for(lambda: ident in self.replies, 60):
                raise BrowserError(f"no reply to {method}")
            reply = self.replies.pop(ident)
        if "error" in reply:
            raise BrowserError(f"{method}: {reply['error']}")
        return reply["result"]

    def wait(self, method: str, session: str, start: int = 0, timeout: float = 60) -> None:
        """Wait until an event of a session has arrived after event number `start`."""
        def arrived() -> bool:
            return any(e["method"] == method and e.get("sessionId") == session for e in self.events[start:])

        with self.cond:
            if not self.cond.wait_for(arrived, timeout):
                raise BrowserError(f"no {method} within {timeout:.0f}s")

    def close(self) -> None:
        """Close the browser and the pipes."""
        try:
            self.send("Browser.close")
            self.proc.wait(10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            os.close(self.writer)


@contextlib.contextmanager
def chromium(binary: str) -> Iterator[DevTools]:
    """A headless Chromium with a throw-away profile, closed on exit."""
    with tempfile.TemporaryDirectory() as profile:
        tools = DevTools(binary, profile)
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
    tools.wait("Page.loadEventFired", session, start, timeout=120)
    settle(tools, session)
    return session, start


PAGE_SETTLED = """document.readyState === 'complete' && (!document.getElementById('graph')
  || !!(window.kgApp && window.kgApp.timings && window.kgApp.timings.interactive))"""


def settle(tools: DevTools, session: str, timeout: float = 60) -> bool:
    """Wait until the page says it is interactive (a loaded machine draws late); False on timeout."""
    return bool(poll(tools, session, PAGE_SETTLED, timeout))


def poll(tools: DevTools, session: str, expression: str, timeout: float):
    """Evaluate an expression until it is truthy or time runs out; its last value."""
    deadline = time.monotonic() + timeout
    while not (value := js(tools, session, expression)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return value


def js(tools: DevTools, session: str, expression: str):
    """Evaluate JavaScript in the page and return its value."""
    result = tools.send("Runtime.evaluate", session, expression=expression, returnByValue=True, awaitPromise=True)
    if "exceptionDetails" in result:
        raise BrowserError(f"script failed: {json.dumps(result['exceptionDetails'])[:300]}")
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


def drawn_pixels(tools: DevTools, session: str, timeout: float = 20) -> int:
    """Non-transparent pixels of the graph canvas, polled until some are drawn or time runs out."""
    return poll(tools, session, CANVAS_PIXELS, timeout)


def load_and_watch(binary: str, path: Path) -> tuple[int, list[str]]:
    """Open a page offline in a fresh headless Chromium: (drawn canvas pixels, problems seen)."""
    path = path.resolve()
    with chromium(binary) as tools:
        session, start = open_page(tools, path)
        pixels = drawn_pixels(tools, session)
        return pixels, problems(tools.events[start:], session, path.as_uri())


# The labels the map draws, re-measured with a fresh canvas (font and text as drawn), in page pixels.
LABEL_BOXES = """(() => { const c = document.createElement('canvas').getContext('2d');
  const r = document.getElementById('graph').getBoundingClientRect();
  return kgApp.labels().map(b => { c.font = b.font; const w = Math.max(b.w, c.measureText(b.text).width);
    return {kind: b.kind, text: b.text, x: r.left + b.x, y: r.top + b.y, w: w, h: b.h}; }); })()"""


def overlapping(boxes: list[dict]) -> list[tuple[str, str]]:
    """Pairs of label boxes (x, y, w, h) that intersect."""
    found = []
    ordered = sorted(boxes, key=lambda b: b["x"])
    for k, a in enumerate(ordered):
        for b in ordered[k + 1:]:
            if b["x"] >= a["x"] + a["w"]:
                break
            if a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"]:
                found.append((a["text"], b["text"]))
    return found


def screenshot(tools: DevTools, session: str, path: Path) -> None:
    """Save the page as it looks now as a PNG."""
    import base64

    path.write_bytes(base64.b64decode(tools.send("Page.captureScreenshot", session, format="png")["data"]))


def wait_for(tools: DevTools, session: str, expression: str, timeout: float = 60) -> object:
    """Poll a JavaScript expression until it is truthy; its value (BrowserError on timeout)."""
    deadline = time.monotonic() + timeout
    while not (value := js(tools, session, expression)):
        if time.monotonic() > deadline:
            raise BrowserError(f"{expression} still false after {timeout:.0f}s")
        time.sleep(0.05)
    return value
