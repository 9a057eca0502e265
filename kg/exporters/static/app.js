/* paperkg graph page: filters, search and side panel over the embedded JSON (no network). */
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("kg-data").textContent);
  var meta = data.meta, nodes = data.nodes, edges = data.edges;
  var LIST_LIMIT = 200;
  var $ = function (id) { return document.getElementById(id); };
  var adjacency = nodes.map(function () { return []; });
  edges.forEach(function (edge, i) { adjacency[edge[0]].push(i); adjacency[edge[1]].push(i); });
  var byRank = nodes.map(function (_, i) { return i; })
    .sort(function (a, b) { return nodes[a].rank - nodes[b].rank; });
  var state = { types: {}, minPapers: meta.min_papers, limit: meta.limit, extra: new Set(), shown: new Set() };
  meta.types.forEach(function (type) { state.types[type] = true; });
  var visNodes = new vis.DataSet(), visEdges = new vis.DataSet();
  var network = new vis.Network($("graph"), { nodes: visNodes, edges: visEdges }, data.options);

  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (cls) node.className = cls;
    return node;
  }

  function passes(i) {
    var node = nodes[i];
    return state.types[node.type] && (node.kind === "paper" || node.papers >= state.minPapers);
  }

  function visNode(i) {
    var node = nodes[i];
    var title = node.label + "\n" + node.type + "\n" + node.papers + (node.papers === 1 ? " paper" : " papers");
    return { id: i, label: node.short, x: node.x, y: node.y, size: node.size,
             color: meta.colors[node.type] || meta.colors.other, title: title };
  }

  function visEdge(i) {
    var edge = edges[i];
    return { id: i, from: edge[0], to: edge[1], title: edge[3], width: Math.min(1 + Math.log(edge[4]), 5),
             dashes: edge[2] === "relation" };
  }

  function apply() {
    var shown = new Set();
    for (var k = 0; k < byRank.length && shown.size < state.limit; k++) {
      if (passes(byRank[k])) shown.add(byRank[k]);
    }
    var eligible = byRank.filter(passes).length;
    state.extra.forEach(function (i) { shown.add(i); });
    state.shown = shown;
    var ids = Array.from(shown).sort(function (a, b) { return a - b; });
    var edgeIds = [];
    ids.forEach(function (i) {
      adjacency[i].forEach(function (e) { if (edges[e][0] === i && shown.has(edges[e][1])) edgeIds.push(e); });
    });
    visEdges.clear(); visNodes.clear();
    visNodes.add(ids.map(visNode));
    visEdges.add(edgeIds.map(visEdge));
    note(ids.length, eligible);
  }

  function note(count, eligible) {
    var hidden = nodes.length - count;
    var text = "Showing " + count + " of " + nodes.length + " nodes, " + visEdges.length + " edges.";
    if (hidden > 0) {
      text += " " + hidden + " hidden: " + (nodes.length - eligible) + " by the type/min-papers filters, " +
        Math.max(0, eligible - state.limit) + " beyond the top " + state.limit + " by degree.";
    }
    $("note").textContent = text;
  }

  function focusNode(i) {
    if (!state.shown.has(i)) { state.extra.add(i); apply(); }
    network.selectNodes([i]);
    network.focus(i, { scale: Math.max(network.getScale(), 0.8), animation: false });
    showPanel(i);
  }

  function link(i, text) {
    var span = el("span", text === undefined ? nodes[i].label : text, "link");
    span.addEventListener("click", function () { focusNode(i); });
    return span;
  }

  function list(title, items, render, parent) {
    if (!items.length) return;
    parent.appendChild(el("h3", title + " (" + items.length + ")"));
    var ul = el("ul");
    items.slice(0, LIST_LIMIT).forEach(function (item) { var li = el("li"); li.appendChild(render(item)); ul.appendChild(li); });
    if (items.length > LIST_LIMIT) ul.appendChild(el("li", "… and " + (items.length - LIST_LIMIT) + " more"));
    parent.appendChild(ul);
  }

  function abstract(node) {
    var p = el("p", null, "abstract");
    node.segments.forEach(function (segment) {
      if (segment.length < 2) { p.appendChild(document.createTextNode(segment[0])); return; }
      var entity = nodes[segment[1]];
      var span = el("span", segment[0], "mention");
      span.style.borderColor = meta.colors[entity.type] || meta.colors.other;
      span.title = entity.label + " (" + entity.type + ")";
      span.addEventListener("click", function () { focusNode(segment[1]); });
      p.appendChild(span);
    });
    return p;
  }

  function paperDetails(i, box) {
    var node = nodes[i];
    ["year", "venue", "authors", "url"].forEach(function (field) {
      if (node[field]) box.appendChild(el("div", field + ": " + node[field]));
    });
    list("Sources", node.sources || [], function (source) { return el("span", source); }, box);
    box.appendChild(el("h3", "Abstract"));
    box.appendChild(abstract(node));
    var linked = adjacency[i].filter(function (e) { return edges[e][0] === i && edges[e][2] === "mention"; });
    list("Entities", linked, function (e) {
      var span = el("span"); span.appendChild(link(edges[e][1]));
      span.appendChild(document.createTextNode(" — " + nodes[edges[e][1]].type + ", " + edges[e][3]));
      return span;
    }, box);
  }

  function entityDetails(i, box) {
    var node = nodes[i];
    box.appendChild(el("div", "Named in " + node.papers + (node.papers === 1 ? " paper" : " papers")));
    if (node.aliases.length) box.appendChild(el("div", "Aliases: " + node.aliases.join("; ")));
    var incoming = adjacency[i].filter(function (e) { return edges[e][1] === i && edges[e][2] === "mention"; });
    ["proposed", "used"].forEach(function (role) {
      var papers = incoming.filter(function (e) { return edges[e][3] === role; });
      list((role === "proposed" ? "Proposed by" : "Used by"), papers, function (e) { return link(edges[e][0]); }, box);
    });
    var related = adjacency[i].filter(function (e) { return edges[e][2] === "relation"; });
    list("Relations", related, function (e) {
      var edge = edges[e], other = edge[0] === i ? edge[1] : edge[0];
      var span = el("span", edge[0] === i ? edge[3] + " → " : "← " + edge[3] + " ");
      span.appendChild(link(other));
      return span;
    }, box);
  }

  function showPanel(i) {
    var node = nodes[i], box = $("details");
    box.replaceChildren(el("h2", node.label), el("p", node.kind === "paper" ? "paper" : "entity · " + node.type, "kind"));
    if (node.kind === "paper") paperDetails(i, box); else entityDetails(i, box);
    $("panel").hidden = false;
    $("panel").dataset.node = node.id;
  }

  function matches(query) {
    query = query.trim().toLowerCase();
    if (!query) return [];
    var starts = [], contains = [];
    nodes.forEach(function (node, i) {
      var names = [node.label].concat(node.aliases || []).map(function (name) { return name.toLowerCase(); });
      if (names.some(function (name) { return name.startsWith(query); })) starts.push(i);
      else if (names.some(function (name) { return name.indexOf(query) >= 0; })) contains.push(i);
    });
    return starts.concat(contains).slice(0, 20);
  }

  function showResults() {
    var found = matches($("search").value), ul = $("results");
    ul.replaceChildren();
    found.forEach(function (i) {
      var li = el("li", nodes[i].label + " (" + nodes[i].type + ")");
      li.addEventListener("mousedown", function (event) { event.preventDefault(); choose(i); });
      ul.appendChild(li);
    });
    if (!found.length && $("search").value.trim()) ul.appendChild(el("li", "no match"));
    ul.hidden = !ul.children.length;
    return found;
  }

  function choose(i) { $("results").hidden = true; focusNode(i); }

  function legend() {
    meta.types.forEach(function (type) {
      var label = el("label"), box = el("input");
      box.type = "checkbox"; box.checked = true; box.dataset.type = type;
      box.addEventListener("change", function () { state.types[type] = box.checked; apply(); });
      var swatch = el("span", null, "swatch");
      swatch.style.background = meta.colors[type] || meta.colors.other;
      label.append(box, swatch, type + " (" + (meta.counts[type] || 0) + ")");
      $("legend").appendChild(label);
    });
  }

  function controls() {
    $("min-papers").value = state.minPapers;
    $("limit").value = state.limit;
    $("min-papers").addEventListener("change", function () { state.minPapers = Math.max(1, +this.value || 1); apply(); });
    $("limit").addEventListener("change", function () { state.limit = Math.max(1, +this.value || 1); apply(); });
    $("search").addEventListener("input", showResults);
    $("search").addEventListener("keydown", function (event) {
      if (event.key !== "Enter") return;
      var found = showResults();
      if (found.length) choose(found[0]);
    });
    $("search").addEventListener("blur", function () { $("results").hidden = true; });
    $("close").addEventListener("click", function () { $("panel").hidden = true; network.unselectAll(); });
    network.on("click", function (params) { if (params.nodes.length) showPanel(params.nodes[0]); });
  }

  legend();
  controls();
  apply();
  network.fit();
  window.kgApp = { network: network, focusNode: focusNode, apply: apply, state: state, nodes: nodes };
})();
