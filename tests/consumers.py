"""Shared by the tests that drive real consumers: a headless Chromium fixture and page interactions."""
from __future__ import annotations

import json

import pytest

from kg.quality.browser import DevTools, chromium, click, find_chromium, js

CHROMIUM = find_chromium()


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium per test module; skipped when Debian's chromium is not installed."""
    if not CHROMIUM:
        pytest.skip("chromium is not installed (apt-get install -y chromium)")
    with chromium(CHROMIUM) as tools:
        yield tools


def search(tools: DevTools, session: str, text: str) -> str | None:
    """Type into the search box and press Enter; the id of the node whose panel opened."""
    js(tools, session, "document.getElementById('search').focus()")
    tools.send("Input.insertText", session, text=text)
    for kind in ("keyDown", "keyUp"):
        tools.send("Input.dispatchKeyEvent", session, type=kind, key="Enter", code="Enter", windowsVirtualKeyCode=13)
    return js(tools, session, "document.getElementById('panel').dataset.node")


def click_node(tools: DevTools, session: str, node_id: str) -> None:
    """Close the panel, zoom onto a node and click it with a real mouse click."""
    js(tools, session, "document.getElementById('close').click()")
    x, y = js(tools, session, """(() => { const net = kgApp.network, i = kgApp.nodes.findIndex(n => n.id === %s);
        net.focus(i, {scale: 1.5, animation: false}); const p = net.canvasToDOM(net.getPosition(i));
        const r = document.getElementById('graph').getBoundingClientRect(); return [r.left + p.x, r.top + p.y]; })()"""
              % json.dumps(node_id))
    click(tools, session, x, y)
