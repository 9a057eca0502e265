"""HTML export: offline, escaped, deterministic; and a headless Chromium run over DevTools (pipe)."""
from __future__ import annotations

import json
import re

import networkx as nx
import pytest

from kg.quality.browser import CANVAS_PIXELS, js, open_page, problems, wait_for
from kg.quality.check import external_references
from kg.exporters.html import render_html, write_html
from kg.exporters.html_pack import page_data
from kg.registry import exporters
from kg.text.markup import strip_markup
from tests.consumers import browser, click_node, search  # noqa: F401  (browser is a fixture)

ABSTRACT_SHOWN = "!!document.querySelector('#details .abstract:not([aria-busy])')"
XSS = "<script>alert(1)</script> and <img src=x onerror=alert(1)>"
EVIL = [("p7", "Evil </script> title", f"🚀 We test Snarknet on {XSS}. Snarknet wins.",
         [("Snarknet", "model", "proposed")])]


def embedded(html: str) -> dict:
    """The data block of a page, unpacked."""
    return page_data(html)


@pytest.fixture
def graph(make_graph) -> nx.DiGraph:
    """The test graph with the hostile paper."""
    return make_graph(EVIL)


@pytest.fixture
def html(graph: nx.DiGraph) -> str:
    """The page for the test graph with the hostile paper."""
    return render_html(graph)


def test_no_external_references(html):
    assert external_references(html) == []
    assert "default-src 'none'" in html  # CSP: the browser itself refuses any fetch


def test_vis_network_is_inlined(html):
    assert "vis-network" in html and "new vis.Network(" in html and "9.1.2" in html
    assert len(html) > 400_000


def test_embedded_data_matches_graph_and_has_positions(graph, html):
    data = embedded(html)
    assert [n["id"] for n in data["nodes"]] == list(graph)
    assert [n["label"] for n in data["nodes"]] == [graph.nodes[n]["label"] for n in graph]
    assert all(isinstance(n["x"], float) and isinstance(n["y"], float) for n in data["nodes"])
    assert len(data["edges"]) == graph.number_of_edges()
    assert data["options"]["physics"]["enabled"] is False
    assert all("href" not in str(n.get("title", "")) for n in data["nodes"])
    assert data["meta"]["min_papers"] == 1 and data["meta"]["counts"]["paper"] == 4
    paper = next(n for n in data["nodes"] if n["id"] == "paper:p1")
    assert (paper["pid"], paper["title"], paper["year"]) == ("p1", "Zorbnet for glimmer parsing", 2024)


def test_relation_edges_carry_their_evidence_sentence(graph, html):
    data = embedded(html)
    ids = [n["id"] for n in data["nodes"]]
    (relation,) = [e for e in data["edges"] if e[2] == "relation"]
    assert (ids[relation[0]], ids[relation[1]], relation[3]) == ("model:zorbnet", "dataset:quux-corpus", "evaluated_on")
    evidence = graph.edges["model:zorbnet", "dataset:quux-corpus"]["relations"]["evaluated_on"]
    assert relation[5] == evidence[0].text and ids[relation[6]] == "paper:p1"


def test_abstract_segments_use_code_points_and_highlight_mentions(graph, html):
    nodes = embedded(html)["nodes"]
    evil = next(n for n in nodes if n["id"] == "paper:p7")
    assert "".join(s[0] for s in evil["segments"]) == strip_markup(graph.nodes["paper:p7"]["abstract"]).text
    highlighted = [(s[0], nodes[s[1]]["id"]) for s in evil["segments"] if len(s) == 2]
    assert highlighted == [("Snarknet", "model:snarknet")]


@pytest.mark.parametrize(("abstract", "surface", "shown"), [
    (r"We train \textbf{Hy}brid\cite{x} on the $\alpha$-Corpus today.", r"$\alpha$-Corpus", "α-Corpus"),
    (r"**Bold** and \emph{Widget} work.", r"\emph{Widget}", "Widget"),
    ("Plain text about Widget here.", "Widget", "Widget"),
])
def test_abstract_is_shown_without_markup_and_mentions_stay_on_their_words(make_graph, abstract, surface, shown):
    G = make_graph([("p8", None, abstract, [(surface, "dataset", "used")])])
    nodes = embedded(render_html(G))["nodes"]
    paper = next(n for n in nodes if n["id"] == "paper:p8")
    text = "".join(s[0] for s in paper["segments"])
    assert "\\" not in text and "**" not in text and "$" not in text
    assert [s[0] for s in paper["segments"] if len(s) == 2] == [shown]


def test_hostile_text_appears_only_escaped(html):
    for needle in ("<script>alert(1)", "<img src=x", "</script> title", "onerror=alert(1)>"):
        assert needle not in html
    block = re.search(r'id="kg-data">(.*?)</script>', html, re.S).group(1)
    assert "<" not in block  # the hostile text is inside the packed (base64) data, and comes back whole
    paper = next(n for n in embedded(html)["nodes"] if n["id"] == "paper:p7")
    assert paper["title"] == "Evil </script> title" and XSS in "".join(s[0] for s in paper["segments"])
    assert "innerHTML" not in re.sub(r"<script>/\*\*.*?</script>", "", html, count=1, flags=re.S)


def test_overview_escapes_entity_names_and_links_bars_to_nodes(make_graph):
    G = make_graph([("p9", None, "We use <b>Evil&Co</b> here. Nothing else.", [("<b>Evil&Co</b>", "dataset", "used")])])
    html = render_html(G)
    overview = html[html.index('<main id="overview"'):html.index("</main>", html.index('<main id="overview"'))]
    assert "<b>Evil" not in overview and "&lt;b&gt;Evil&amp;Co&lt;/b&gt;" in overview
    nodes = [n["id"] for n in embedded(html)["nodes"]]
    bar = re.search(r'data-node="(\d+)"><title>&lt;b&gt;Evil', overview)
    assert bar and nodes[int(bar.group(1))] == "dataset:b-evil-co-b"
    assert "Top datasets" in overview and "Paper→entity links: proposed vs used" in overview
    assert re.search(r">\d+ proposed, \d+ used</text>", overview) and not re.search(r">\d+ / \d+<", overview)


def test_large_graph_opens_on_entities_named_in_enough_papers():
    G = nx.DiGraph()
    for i in range(1700):
        G.add_node(f"paper:{i}", kind="paper", label=f"P{i}", papers=1, abstract="x")
        for name in (f"t{i % 40}", f"t{i % 40 // 5 * 5}", f"u{i}"):  # eight groups of five tasks named together
            G.add_node(f"task:{name}", kind="entity", type="task", label=name.upper(), aliases=())
            G.add_edge(f"paper:{i}", f"task:{name}", kind="mention", role="used", evidence=(), weight=1)
    for node in G:
        G.nodes[node]["papers"] = G.in_degree(node) or 1
    data = embedded(render_html(G))
    assert data["meta"]["min_papers"] == 2 and data["meta"]["show_papers"] is False  # 1,700 one-paper tasks folded
    named = [c for c in data["meta"]["communities"] if c["name"]]
    assert len(named) == 8 and all(c["size"] == 5 for c in named)
    heads = {f"T{k}" for k in range(0, 40, 5)}
    assert {c["name"].split(" · ")[0] for c in named} == heads  # each named first by its most-named task


def test_output_is_byte_identical_across_runs_and_hash_seeds(stable_output):
    stable_output("kg.exporters.html.write_html", ".html")


def test_registered_as_html():
    assert exporters.get("html") is write_html


def test_page_in_headless_chromium(browser, graph, tmp_path):
    path = tmp_path / "graph.html"
    write_html(graph, path)
    session, start = open_page(browser, path)
    assert js(browser, session, CANVAS_PIXELS) > 500
    # Search: type a query and press Enter; the panel opens on the match.
    assert search(browser, session, "quux") == "dataset:quux-corpus"
    assert "Proposed by" not in js(browser, session, "document.getElementById('details').textContent")
    # Click: a real mouse click on the hostile paper's node opens its panel, text shown literally.
    click_node(browser, session, "paper:p7")
    assert js(browser, session, "document.getElementById('panel').hidden") is False
    assert js(browser, session, "document.getElementById('panel').dataset.node") == "paper:p7"
    wait_for(browser, session, ABSTRACT_SHOWN)  # its chunk is inflated when the panel first opens
    details = js(browser, session, "document.getElementById('details').textContent")
    assert XSS in details and "🚀" in details
    assert js(browser, session, "document.querySelectorAll('#details img, #details script').length") == 0
    assert js(browser, session, "document.querySelector('#details .mention').textContent") == "Snarknet"
    assert problems(browser.events[start:], session, path.as_uri()) == []


def test_polling_the_canvas_leaves_the_page_without_problems(browser, graph, tmp_path):
    path = tmp_path / "graph.html"
    write_html(graph, path)
    session, start = open_page(browser, path)
    counts = [js(browser, session, CANVAS_PIXELS) for _ in range(3)]  # as kg check polls a slow page
    assert counts[0] > 500 and len(set(counts)) == 1
    assert problems(browser.events[start:], session, path.as_uri()) == []


def test_large_page_in_headless_chromium_counts_what_it_hides_and_shows_all(browser, tmp_path):
    G = nx.DiGraph()
    for i in range(2500):
        G.add_node(f"paper:{i}", kind="paper", label=f"Paper {i}", papers=1, abstract="An abstract.")
    for i in range(2500):
        for j in (i % 97, (i * 7) % 211, 1000 + i):
            G.add_node(f"task:t{j}", kind="entity", type="task", label=f"Task {j}", aliases=(f"T{j}",))
            G.add_edge(f"paper:{i}", f"task:t{j}", kind="mention", role="used", evidence=(), weight=1)
    for node in G:
        G.nodes[node]["papers"] = G.in_degree(node) or 1
    path = tmp_path / "large.html"
    write_html(G, path)
    session, start = open_page(browser, path)
    assert js(browser, session, CANVAS_PIXELS) > 500
    entities = G.number_of_nodes() - 2500
    note = js(browser, session, "document.getElementById('note').textContent")
    assert note.startswith(f"Showing 211 of {entities:,} entities and 0 of 2,500 papers")
    assert f"Hidden: {entities - 211:,} entities named in fewer than 2 papers; 2,500 papers" in note
    js(browser, session, "document.getElementById('show-all').click()")
    note = js(browser, session, "document.getElementById('note').textContent")
    assert note.startswith(f"Showing {entities:,} of {entities:,} entities and 2,500 of 2,500 papers")
    assert "Nothing hidden." in note
    assert js(browser, session, "kgApp.network.body.data.nodes.length") == G.number_of_nodes()
    assert problems(browser.events[start:], session, path.as_uri()) == []


def test_search_ranks_the_exact_entity_first_and_enter_opens_it(browser, make_graph, tmp_path):
    extra = [(f"q{i}", f"Nets of kind {i}", f"We use the Netty thing {i}. Also NetBench {i}.",
              [(f"Netty thing {i}", "method", "used"), (f"NetBench {i}", "dataset", "used")]) for i in range(5)]
    extra.append(("q9", None, "We use Net here.", [("Net", "model", "used")]))
    path = tmp_path / "graph.html"
    write_html(make_graph(extra), path)
    session, start = open_page(browser, path)
    assert search(browser, session, "net") == "model:net"  # exact label beats prefixes, titles and more papers
    js(browser, session, "document.getElementById('search').value = ''")
    js(browser, session, "document.getElementById('search').focus()")
    browser.send("Input.insertText", session, text="netty")
    for key, code in (("ArrowDown", 40), ("ArrowDown", 40), ("ArrowUp", 38), ("Enter", 13)):
        for kind in ("keyDown", "keyUp"):
            browser.send("Input.dispatchKeyEvent", session, type=kind, key=key, code=key, windowsVirtualKeyCode=code)
    second = js(browser, session, "kgApp.nodes[kgApp.matches('netty')[1]].id")
    assert js(browser, session, "document.getElementById('panel').dataset.node") == second
    assert js(browser, session, "document.getElementById('tab-map').getAttribute('aria-selected')") == "true"
    js(browser, session, "document.getElementById('search').value = ''")
    assert search(browser, session, "q3") == "paper:q3"  # a paper id
    js(browser, session, "document.getElementById('search').value = ''")
    assert search(browser, session, "ZORBNET") == "model:zorbnet"  # an alias, any case
    assert js(browser, session, "document.getElementById('paper-id') === null")
    assert problems(browser.events[start:], session, path.as_uri()) == []


def test_paper_panel_shows_id_metadata_and_clean_abstract(browser, make_graph, tmp_path):
    G = make_graph([("p8", "Hybrid training", r"We train \textbf{Hy}brid on the Quux corpus.",
                     [("Quux corpus", "dataset", "used")])], p8={"venue": "ICLR"})
    path = tmp_path / "graph.html"
    write_html(G, path)
    session, start = open_page(browser, path)
    js(browser, session, "kgApp.focusNode(kgApp.nodes.findIndex(n => n.id === 'paper:p8'))")
    assert js(browser, session, "document.getElementById('paper-id').value") == "p8"
    js(browser, session, "document.querySelector('#paper-id + button').click()")
    assert js(browser, session, "window.getSelection().toString() || document.activeElement.value") == "p8"
    wait_for(browser, session, ABSTRACT_SHOWN)
    details = js(browser, session, "document.getElementById('details').textContent")
    assert "We train Hybrid on the Quux corpus." in details and "textbf" not in details
    assert "ICLR" in details and "2024" in details and "p8.txt#1" in details and "Hybrid training" in details
    assert js(browser, session, "document.querySelector('#details .mention').textContent") == "Quux corpus"
    js(browser, session, "document.querySelector('#details .mention').click()")
    assert js(browser, session, "document.getElementById('panel').dataset.node") == "dataset:quux-corpus"
    details = js(browser, session, "document.getElementById('details').textContent")
    assert "Used by (3)" in details and "Co-occurs with" in details and "Evaluated on it (1)" in details
    evidence = G.edges["model:zorbnet", "dataset:quux-corpus"]["relations"]["evaluated_on"]
    assert evidence[0].text in details  # the first sentence stating it (of the two its mentions stand in)
    assert problems(browser.events[start:], session, path.as_uri()) == []


def test_entity_panel_links_an_entity_and_its_kinds(browser, make_graph, tmp_path):
    G = make_graph([("p9", None, "We use the deep Quux corpus.", [("deep Quux corpus", "dataset", "used")])])
    G.nodes["dataset:deep-quux-corpus"]["broader"] = ("dataset:quux-corpus",)
    path = tmp_path / "graph.html"
    write_html(G, path)
    session, start = open_page(browser, path)
    js(browser, session, "kgApp.focusNode(kgApp.nodes.findIndex(n => n.id === 'dataset:quux-corpus'))")
    details = js(browser, session, "document.getElementById('details').textContent")
    assert "Kinds of it (1)" in details and "deep Quux corpus" in details and "kind of" not in details
    js(browser, session, "[...document.querySelectorAll('#details li .link')].find(e => e.textContent === "
                         "'deep Quux corpus').click()")
    assert js(browser, session, "document.getElementById('panel').dataset.node") == "dataset:deep-quux-corpus"
    details = js(browser, session, "document.getElementById('details').textContent")
    assert "kind ofQuux corpus" in details and "Kinds of it" not in details
    assert problems(browser.events[start:], session, path.as_uri()) == []


@pytest.mark.parametrize(("spans", "expected"), [
    ([(0, 4, 1), (5, 13, 2)], [["deep", 1], [" "], ["residual", 2], [" network"]]),
    ([(5, 13, 2), (0, 13, 1)], [["deep residual", 1], [" network"]]),  # overlap: the earlier one wins
    ([(0, 4, 1), (0, 13, 2)], [["deep residual", 2], [" network"]]),  # same start: the longer one wins
    ([(0, 4, 1), (4, 13, 2)], [["deep", 1], [" residual", 2], [" network"]]),  # adjacent: both kept
    ([(2, 8, 1), (5, 21, 2)], [["de"], ["ep res", 1], ["idual network"]]),  # partial overlap: the first
    ([(5, 5, 1), (14, 99, 2)], [["deep residual network"]]),  # empty and out of range: dropped
])
def test_overlapping_mentions_are_highlighted_once(spans, expected) -> None:
    from kg.exporters.html import segments

    assert segments("deep residual network", spans) == expected
