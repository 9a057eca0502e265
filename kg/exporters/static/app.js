/* paperkg map page: entities first, non-overlapping labels, named communities, search, panel, overview.
   Everything is built from the embedded JSON with DOM text nodes only, and nothing is fetched. */
(function () {
  "use strict";
  var timings = { start: performance.now() };
  kgPack.load().then(start);

  function start(data) {
  timings.unpacked = performance.now();
  var meta = data.meta, nodes = data.nodes, edges = data.edges, links = meta.links, groups = meta.communities;
  var LIST_LIMIT = 200, MAX_LABELS = 220, FIRST_LABELS = 12, MAP_NAMES = 14, LABEL_CHARS = 34, CELL = 64;
  var $ = function (id) { return document.getElementById(id); };
  var adjacency = nodes.map(function () { return []; });
  edges.forEach(function (edge, i) { adjacency[edge[0]].push(i); adjacency[edge[1]].push(i); });
  var reported = nodes.map(function () { return []; });  // the results naming each paper and entity
  (data.results || []).forEach(function (r) {
    reported[r[0]].push(r);
    r[2].forEach(function (j) { if (j !== r[0] && reported[j].indexOf(r) < 0) reported[j].push(r); });
  });
  var kinds = nodes.map(function () { return []; });  // entities that are kinds of each one (their kindOf)
  nodes.forEach(function (node, i) { if (node.kindOf !== undefined) kinds[node.kindOf].push(i); });
  kinds.forEach(function (list) { list.sort(function (a, b) { return nodes[b].papers - nodes[a].papers || a - b; }); });
  var priority = nodes.map(function (_, i) { return i; }).sort(function (a, b) {
    var pa = nodes[a].kind === "paper", pb = nodes[b].kind === "paper";
    return (pa - pb) || (nodes[b].papers - nodes[a].papers) || (a - b);
  });
  var state = { types: {}, minPapers: meta.min_papers, papers: false, extra: new Set(), shown: new Set(),
                selected: -1, version: 0, lines: { plain: [], relation: [] } };
  meta.types.forEach(function (type) { state.types[type] = true; });
  state.papers = meta.show_papers;
  var visNodes = new vis.DataSet(), visEdges = new vis.DataSet();
  var container = $("graph");
  timings.parsed = performance.now();
  var network = new vis.Network(container, { nodes: visNodes, edges: visEdges }, data.options);
  timings.network = performance.now();
  var measure = document.createElement("canvas").getContext("2d");
  var widths = new Map();
  var labelCache = { key: "", boxes: [] };

  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (cls) node.className = cls;
    return node;
  }

  function fmt(n) { return Number(n).toLocaleString("en-US"); }
  function plural(n, word) { return fmt(n) + " " + word + (n === 1 ? "" : "s"); }
  function color(type) { return meta.colors[type] || meta.colors.other; }
  function isPaper(i) { return nodes[i].kind === "paper"; }
  function radius(i) { return isPaper(i) ? 3 : 4 + 2.6 * Math.sqrt(Math.max(nodes[i].papers, 1)); }

  function passes(i) {
    var node = nodes[i];
    if (!state.types[node.type]) return false;
    return node.kind === "paper" ? state.papers : node.papers >= state.minPapers;
  }

  function visNode(i) {
    var node = nodes[i], paper = isPaper(i);
    var title = node.label + "\n" + (paper ? "paper" + (node.year ? ", " + node.year : "") :
      node.type + ", " + plural(node.papers, "paper"));
    return { id: i, x: node.x, y: node.y, size: radius(i), title: title, borderWidth: paper ? 0 : 0.5,
             borderWidthSelected: 3,
             color: paper ? { background: "rgba(120,120,120,0.45)", border: "rgba(120,120,120,0.45)",
                              highlight: { background: "#777777", border: "#111111" } }
                          : { background: color(node.type), border: "#ffffff",
                              highlight: { background: color(node.type), border: "#111111" } } };
  }

  function apply() {
    var shown = new Set(), hiddenByType = 0, hiddenByPapers = 0, entities = 0, papers = 0;
    nodes.forEach(function (node, i) {
      if (passes(i) || state.extra.has(i)) { shown.add(i); if (node.kind === "paper") papers++; else entities++; }
      else if (node.kind !== "paper") { if (!state.types[node.type]) hiddenByType++; else hiddenByPapers++; }
    });
    state.shown = shown;
    state.version++;
    var lines = { plain: [], relation: [] };  // [from, to, width] drawn by the page itself: vis edges cost ~0.1 ms each
    var paperView = papers > 0;
    edges.forEach(function (edge) {
      if (!shown.has(edge[0]) || !shown.has(edge[1])) return;
      if (edge[2] === "relation") lines.relation.push([edge[0], edge[1], 1]);
      else if (paperView) lines.plain.push([edge[0], edge[1], 1]);
    });
    if (!paperView) links.forEach(function (link) {
      if (shown.has(link[0]) && shown.has(link[1])) lines.plain.push([link[0], link[1], Math.min(1 + Math.log(link[2]), 4)]);
    });
    state.lines = lines;
    visNodes = new vis.DataSet(Array.from(shown).sort(function (a, b) { return a - b; }).map(visNode));
    var view = network.getViewPosition(), scale = network.getScale();
    network.setData({ nodes: visNodes, edges: visEdges });  // one redraw instead of one per clear/add
    network.moveTo({ position: view, scale: scale, animation: false });
    note(entities, papers, hiddenByType, hiddenByPapers);
  }

  function drawLines(ctx) {
    var scale = network.getScale(), lines = state.lines;
    function stroke(list, color, width, dash, only) {
      ctx.beginPath();
      list.forEach(function (line) {
        if (only >= 0 && line[0] !== only && line[1] !== only) return;
        var a = nodes[line[0]], b = nodes[line[1]];
        ctx.moveTo(a.x, a.y); ctx.lineTo(b.x, b.y);
      });
      ctx.strokeStyle = color; ctx.lineWidth = width / scale; ctx.setLineDash(dash.map(function (d) { return d / scale; }));
      ctx.stroke();
    }
    ctx.save();
    [1, 2, 4].forEach(function (w) {  // three widths by shared papers, one path each
      stroke(lines.plain.filter(function (l) { return l[2] <= w && l[2] > w / 2; }), "rgba(150,150,150,0.28)", 0.4 * w, [], -1);
    });
    stroke(lines.relation, "rgba(140,110,190,0.45)", 0.8, [4, 3], -1);
    if (state.selected >= 0) {
      stroke(lines.plain, "rgba(40,40,40,0.8)", 1.2, [], state.selected);
      stroke(lines.relation, "rgba(100,60,170,0.9)", 1.4, [4, 3], state.selected);
    }
    ctx.restore();
  }

  function note(entities, papers, byType, byPapers) {
    var total = nodes.length - meta.counts.paper, parts = [];
    var text = "Showing " + fmt(entities) + " of " + plural(total, "entity").replace(/entitys$/, "entities") +
      " and " + fmt(papers) + " of " + plural(meta.counts.paper, "paper") + ", " + plural(state.lines.plain.length + state.lines.relation.length, "edge") + ".";
    if (byPapers) parts.push(fmt(byPapers) + (state.minPapers > 1 ? " entities named in fewer than " +
      state.minPapers + " papers" : " entities named in no paper (only in relations)"));
    if (byType) parts.push(fmt(byType) + " entities of unticked types");
    if (papers < meta.counts.paper) parts.push(fmt(meta.counts.paper - papers) + " papers (folded into the entities they name; tick “paper” to draw them)");
    $("note").textContent = text + (parts.length ? " Hidden: " + parts.join("; ") + "." : " Nothing hidden.");
  }

  /* ---- labels: greedy, by importance, measured boxes, no overlaps ---- */
  function fontFor(i, bold) {
    var px = isPaper(i) ? 10 : Math.min(16, 11 + Math.floor(Math.log2(Math.max(1, nodes[i].papers)) / 1.5));
    return (bold ? "bold " : "") + px + "px system-ui, sans-serif";
  }

  function textWidth(text, font) {
    var key = font + "|" + text;
    if (!widths.has(key)) { measure.font = font; widths.set(key, measure.measureText(text).width); }
    return widths.get(key);
  }

  function shortLabel(text) { return text.length <= LABEL_CHARS ? text : text.slice(0, LABEL_CHARS - 1).trimEnd() + "…"; }

  function layoutLabels() {
    var W = container.clientWidth, H = container.clientHeight, scale = network.getScale();
    var view = network.getViewPosition();
    var key = [W, H, scale, view.x, view.y, state.version, state.selected].join(",");
    if (key === labelCache.key) return labelCache.boxes;
    var boxes = [], grid = new Map();
    function dom(x, y) { return [(x - view.x) * scale + W / 2, (y - view.y) * scale + H / 2]; }
    function cells(b, visit) {
      for (var cx = Math.floor(b.x / CELL); cx <= Math.floor((b.x + b.w) / CELL); cx++)
        for (var cy = Math.floor(b.y / CELL); cy <= Math.floor((b.y + b.h) / CELL); cy++)
          if (visit(cx + ":" + cy) === false) return false;
      return true;
    }
    function free(b) {
      if (b.x < 0 || b.y < 0 || b.x + b.w > W || b.y + b.h > H) return false;
      return cells(b, function (cell) {
        var list = grid.get(cell) || [];
        for (var k = 0; k < list.length; k++) {
          var o = list[k];
          if (b.x < o.x + o.w + 2 && o.x < b.x + b.w + 2 && b.y < o.y + o.h + 1 && o.y < b.y + b.h + 1) return false;
        }
      });
    }
    function put(b) { boxes.push(b); cells(b, function (cell) { if (!grid.has(cell)) grid.set(cell, []); grid.get(cell).push(b); }); }
    function tryNode(i, forced) {
      var p = dom(nodes[i].x, nodes[i].y), r = radius(i) * scale, bold = forced;
      var font = fontFor(i, bold), text = shortLabel(nodes[i].label), w = textWidth(text, font);
      var h = parseInt(font.replace(/^bold /, ""), 10) + 4;
      var spots = [[p[0] + r + 3, p[1] - h / 2], [p[0] - r - 3 - w, p[1] - h / 2],
                   [p[0] - w / 2, p[1] + r + 1], [p[0] - w / 2, p[1] - r - 1 - h]];
      for (var k = 0; k < spots.length; k++) {
        var b = { kind: "label", node: i, text: text, font: font, x: spots[k][0], y: spots[k][1], w: w, h: h,
                  color: isPaper(i) ? "#555" : "#1d1d1d" };
        if (forced || free(b)) {
          put(b);
          var d = Math.max(r, 1.5);
          put({ kind: "dot", node: i, x: p[0] - d, y: p[1] - d, w: 2 * d, h: 2 * d });
          return true;
        }
      }
      return false;
    }
    if (state.selected >= 0 && state.shown.has(state.selected)) tryNode(state.selected, true);
    var placed = 0, k = 0;
    function placeEntities(limit) {
      for (; k < priority.length && placed < limit; k++) {
        var i = priority[k];
        if (!state.shown.has(i) || i === state.selected) continue;
        if (isPaper(i) && scale < 1.2) continue;
        var p = dom(nodes[i].x, nodes[i].y);
        if (p[0] < -50 || p[1] < -20 || p[0] > W + 50 || p[1] > H + 20) continue;
        if (tryNode(i, false)) placed++;
      }
    }
    placeEntities(FIRST_LABELS);  // the best-known entities first, then the community names, then the rest
    groups.forEach(function (g) {
      if (!g.name || g.n >= MAP_NAMES || !g.top.some(function (i) { return state.shown.has(i); })) return;
      var rs = g.r * scale;
      if (rs < 25 || rs > Math.max(W, H)) return;
      var text = g.short, font = "600 13px system-ui, sans-serif", w = textWidth(text, font), h = 18;
      var spots = [[0, 0], [0, -0.5], [0, 0.5], [-0.4, -0.25], [0.4, -0.25], [-0.4, 0.25], [0.4, 0.25], [0, -0.8], [0, 0.8]]
        .map(function (d) { return dom(g.x + d[0] * g.r, g.y + d[1] * g.r); });
      for (var k = 0; k < spots.length; k++) {
        var b = { kind: "community", community: g.n, text: text, font: font, x: spots[k][0] - w / 2,
                  y: spots[k][1] - h / 2, w: w, h: h, color: "#3b3b6d" };
        if (free(b)) { put(b); return; }
      }
    });
    placeEntities(MAX_LABELS);
    labelCache = { key: key, boxes: boxes };
    return boxes;
  }

  function drawLabels(ctx) {
    var boxes = layoutLabels(), ratio = ctx.canvas.width / Math.max(1, ctx.canvas.clientWidth);
    ctx.save();
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.textBaseline = "middle";
    ctx.lineJoin = "round";
    boxes.forEach(function (b) {
      if (b.kind === "dot") return;
      ctx.font = b.font;
      ctx.lineWidth = 3;
      ctx.strokeStyle = "rgba(255,255,255,0.92)";
      ctx.strokeText(b.text, b.x, b.y + b.h / 2);
      ctx.fillStyle = b.color;
      ctx.fillText(b.text, b.x, b.y + b.h / 2);
    });
    ctx.restore();
    if (!timings.firstDraw) timings.firstDraw = performance.now();
  }

  function drawCommunities(ctx) {
    groups.forEach(function (g) {
      if (!g.name) return;
      ctx.beginPath();
      ctx.arc(g.x, g.y, g.r, 0, 2 * Math.PI);
      ctx.fillStyle = "rgba(90,90,160,0.045)";
      ctx.fill();
      ctx.lineWidth = 1 / network.getScale();
      ctx.strokeStyle = "rgba(90,90,160,0.18)";
      ctx.stroke();
    });
  }

  function smallestAt(point) {
    var best = -1, slack = 2 / network.getScale();
    state.shown.forEach(function (i) {
      var dx = nodes[i].x - point.x, dy = nodes[i].y - point.y, r = radius(i) + slack;
      if (dx * dx + dy * dy <= r * r && (best < 0 || radius(i) < radius(best))) best = i;
    });
    return best;  // the smallest node under the pointer: a paper dot drawn over an entity stays clickable
  }

  /* ---- focus, panel ---- */
  function focusNode(i) {
    if (!state.shown.has(i)) { state.extra.add(i); apply(); }
    state.selected = i;
    showMap();
    network.selectNodes([i]);
    network.focus(i, { scale: Math.max(network.getScale(), 1.0), animation: false });
    showPanel(i);
  }

  function focusCommunity(n) {
    var g = groups[n];
    showMap();
    var members = nodes.map(function (_, i) { return i; }).filter(function (i) { return nodes[i].c === n && state.shown.has(i); });
    if (members.length) network.fit({ nodes: members, animation: false });
    communityPanel(g);
  }

  function link(i, text) {
    var span = el("span", text === undefined ? nodes[i].label : text, "link");
    span.tabIndex = 0;
    span.addEventListener("click", function () { focusNode(i); });
    return span;
  }

  // [relation, this entity is its head, heading]: the Relations of an entity panel, in reading order
  var RELATION_GROUPS = [["evaluated_on", true, "Evaluated on"], ["applied_to", true, "Used for"],
    ["measured_by", true, "Measured by"], ["based_on", true, "Built on"], ["evaluated_on", false, "Evaluated on it"],
    ["applied_to", false, "Applied to it"], ["measured_by", false, "Measures"], ["based_on", false, "Built on it"]];

  function list(title, items, render, parent) {
    if (!items.length) return;
    parent.appendChild(el("h3", title + " (" + fmt(items.length) + ")"));
    var ul = el("ul");
    items.slice(0, LIST_LIMIT).forEach(function (item) { var li = el("li"); li.appendChild(render(item)); ul.appendChild(li); });
    if (items.length > LIST_LIMIT) ul.appendChild(el("li", "… and " + fmt(items.length - LIST_LIMIT) + " more"));
    parent.appendChild(ul);
  }

  function abstract(i) {
    var p = el("p", null, "abstract");
    p.setAttribute("aria-busy", "true");
    kgPack.segments(i).then(function (segments) { fill(p, segments); });
    return p;
  }

  function fill(p, segments) {
    p.removeAttribute("aria-busy");
    segments.forEach(function (segment) {
      if (segment.length < 2) { p.appendChild(document.createTextNode(segment[0])); return; }
      var entity = nodes[segment[1]];
      var span = el("span", segment[0], "mention");
      span.style.borderColor = color(entity.type);
      span.style.background = color(entity.type) + "22";
      span.title = entity.label + " (" + entity.type + ")";
      span.addEventListener("click", function () { focusNode(segment[1]); });
      p.appendChild(span);
    });
  }

  function field(box, name, value) {
    if (value === null || value === undefined || value === "") return;
    var row = el("div", null, "field");
    row.append(el("span", name, "name"), el("span", value));
    box.appendChild(row);
  }

  function idField(box, id, element) {
    var row = el("div", null, "field"), input = el("input"), button = el("button", "copy");
    input.readOnly = true; input.value = id; input.id = element; input.size = Math.min(40, id.length + 1);
    input.addEventListener("focus", function () { input.select(); });
    button.type = "button";
    button.addEventListener("click", function () {
      input.select();
      var done = function () { button.textContent = "copied"; };
      if (navigator.clipboard) navigator.clipboard.writeText(id).then(done, function () { document.execCommand("copy"); done(); });
      else { document.execCommand("copy"); done(); }
    });
    row.append(el("span", "id", "name"), input, button);
    box.appendChild(row);
  }

  function paperDetails(i, box) {
    var node = nodes[i];
    idField(box, node.pid, "paper-id");
    field(box, "title", node.title || "(none: the label is made from the abstract)");
    field(box, "year", node.year);
    field(box, "venue", node.venue);
    field(box, "authors", node.authors);
    field(box, "url", node.url);
    list("Sources", node.sources || [], function (source) { return el("span", source); }, box);
    box.appendChild(el("h3", "Abstract"));
    box.appendChild(abstract(i));
    var linked = adjacency[i].filter(function (e) { return edges[e][0] === i && edges[e][2] === "mention"; })
      .sort(function (a, b) { return (edges[a][3] > edges[b][3]) - (edges[a][3] < edges[b][3]) || a - b; });
    resultList(i, box);
    list("Entities", linked, function (e) {
      var span = el("span"); span.appendChild(link(edges[e][1]));
      span.appendChild(document.createTextNode(" — " + nodes[edges[e][1]].type + ", " + edges[e][3]));
      return span;
    }, box);
  }

  function perYear(papers, box) {
    var counts = {};
    papers.forEach(function (p) { var y = nodes[p].year; if (y) counts[y] = (counts[y] || 0) + 1; });
    var years = Object.keys(counts).sort();
    if (!years.length) return;
    box.appendChild(el("h3", "Papers per year"));
    var chart = el("div", null, "years"), top = Math.max.apply(null, years.map(function (y) { return counts[y]; }));
    years.forEach(function (y) {
      var col = el("div", null, "year"), bar = el("div", null, "bar");
      bar.style.height = Math.max(2, 48 * counts[y] / top) + "px";
      col.title = y + ": " + plural(counts[y], "paper");
      col.append(el("span", counts[y], "count"), bar, el("span", y, "label"));
      chart.appendChild(col);
    });
    box.appendChild(chart);
  }

  function cooccurring(i) {
    var counts = new Map();
    adjacency[i].forEach(function (e) {
      if (edges[e][1] !== i || edges[e][2] !== "mention") return;
      adjacency[edges[e][0]].forEach(function (f) {
        var other = edges[f][1];
        if (edges[f][0] === edges[e][0] && edges[f][2] === "mention" && other !== i) counts.set(other, (counts.get(other) || 0) + 1);
      });
    });
    return Array.from(counts.keys()).sort(function (a, b) { return counts.get(b) - counts.get(a) || nodes[b].papers - nodes[a].papers || a - b; })
      .slice(0, 20).map(function (j) { return [j, counts.get(j)]; });
  }

  function resultList(i, box) {  // the numbers reported for a paper or an entity, each with its paper
    list("Results", reported[i], function (r) {
      var span = el("span", r[1] + (nodes[i].kind === "paper" ? "" : " — "));
      if (nodes[i].kind !== "paper") span.appendChild(link(r[0]));
      return span;
    }, box);
  }

  function entityDetails(i, box) {
    var node = nodes[i];
    idField(box, node.id, "entity-id");
    field(box, "papers", fmt(node.papers) + " (proposed by " + fmt(node.proposed) + ")");
    if (node.aliases.length) field(box, "aliases", node.aliases.join("; "));
    if (node.kindOf !== undefined) {
      var parent = el("div", null, "field");
      parent.append(el("span", "kind of", "name"), link(node.kindOf));
      box.appendChild(parent);
    }
    var community = groups[node.c];
    if (community && community.name) {
      var row = el("div", null, "field"), go = el("span", community.name, "link");
      go.addEventListener("click", function () { focusCommunity(community.n); });
      row.append(el("span", "community", "name"), go);
      box.appendChild(row);
    }
    var incoming = adjacency[i].filter(function (e) { return edges[e][1] === i && edges[e][2] === "mention"; });
    perYear(incoming.map(function (e) { return edges[e][0]; }), box);
    ["proposed", "used"].forEach(function (role) {
      var papers = incoming.filter(function (e) { return edges[e][3] === role; });
      list(role === "proposed" ? "Proposed by" : "Used by", papers, function (e) { return link(edges[e][0]); }, box);
    });
    list("Co-occurs with", cooccurring(i), function (pair) {
      var span = el("span"); span.appendChild(link(pair[0]));
      span.appendChild(document.createTextNode(" — " + plural(pair[1], "paper")));
      return span;
    }, box);
    list("Kinds of it", kinds[i], function (j) {
      var span = el("span"); span.appendChild(link(j));
      span.appendChild(document.createTextNode(" — " + plural(nodes[j].papers, "paper")));
      return span;
    }, box);
    resultList(i, box);
    var related = adjacency[i].filter(function (e) { return edges[e][2] === "relation"; });
    RELATION_GROUPS.forEach(function (group) {  // read in the relation's direction, most supported first
      var found = related.filter(function (e) { return edges[e][3] === group[0] && (edges[e][0] === i) === group[1]; })
        .sort(function (a, b) { return edges[b][4] - edges[a][4] || a - b; });
      list(group[2], found, function (e) {
        var edge = edges[e], other = edge[0] === i ? edge[1] : edge[0];
        var span = el("span"); span.appendChild(link(other));
        span.appendChild(document.createTextNode(" — " + plural(edge[4], "paper")));
        if (edge[5]) {
          var quote = el("blockquote", edge[5], "evidence");
          if (edge[6] >= 0) { quote.appendChild(document.createTextNode(" — ")); quote.appendChild(link(edge[6])); }
          span.appendChild(quote);
        }
        return span;
      }, box);
    });
  }

  function communityPanel(g) {
    var box = $("details");
    state.selected = -1;
    box.replaceChildren(el("h2", g.name || "Community " + g.n), el("p", "community · " + plural(g.size, "entity")
      .replace(/entitys$/, "entities") + " on the first view, " + plural(g.papers, "paper"), "kind"));
    var members = nodes.map(function (_, i) { return i; }).filter(function (i) { return nodes[i].c === g.n && !isPaper(i); })
      .sort(function (a, b) {  // as the name is made: most papers, then label
        var la = nodes[a].label, lb = nodes[b].label;
        return nodes[b].papers - nodes[a].papers || (la < lb ? -1 : la > lb ? 1 : a - b);
      });
    list("Entities", members, function (i) {
      var span = el("span"); span.appendChild(link(i));
      span.appendChild(document.createTextNode(" — " + nodes[i].type + ", " + plural(nodes[i].papers, "paper")));
      return span;
    }, box);
    $("panel").hidden = false;
    $("panel").dataset.node = "community:" + g.n;
  }

  function showPanel(i) {
    var node = nodes[i], box = $("details");
    box.replaceChildren(el("h2", node.label), el("p", isPaper(i) ? "paper" : "entity · " + node.type, "kind"));
    if (isPaper(i)) paperDetails(i, box); else entityDetails(i, box);
    $("panel").hidden = false;
    $("panel").dataset.node = node.id;
    $("details").scrollTop = 0;
  }

  /* ---- search: exact entity first, then exact paper, prefix, substring; by label, alias, title, id ---- */
  var names = null;
  function searchNames() {
    if (names) return names;
    names = nodes.map(function (node) {
      return [node.label, node.id, node.pid, node.title].concat(node.aliases || [])
        .filter(Boolean).map(function (name) { return String(name).toLowerCase(); });
    });
    return names;
  }

  function matches(query) {
    query = query.trim().toLowerCase();
    if (!query) return [];
    var all = searchNames(), found = [];
    nodes.forEach(function (node, i) {
      var list = all[i], tier = 9;
      for (var k = 0; k < list.length; k++) {
        var name = list[k];
        if (name === query) { tier = Math.min(tier, 0); break; }
        if (name.startsWith(query)) tier = Math.min(tier, 2);
        else if (name.indexOf(query) >= 0) tier = Math.min(tier, 4);
      }
      if (tier < 9) found.push([tier + (node.kind === "paper" ? 1 : 0), -node.papers, i]);
    });
    found.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1] || a[2] - b[2]; });
    return found.slice(0, 20).map(function (f) { return f[2]; });
  }

  function showResults() {
    var found = matches($("search").value), ul = $("results");
    ul.replaceChildren();
    found.forEach(function (i, k) {
      var node = nodes[i], li = el("li", node.label);
      li.appendChild(el("span", " " + (isPaper(i) ? "paper" + (node.year ? " " + node.year : "") :
        node.type + " · " + plural(node.papers, "paper")), "muted"));
      if (k === 0) li.className = "active";
      li.addEventListener("mousedown", function (event) { event.preventDefault(); choose(i); });
      ul.appendChild(li);
    });
    if (!found.length && $("search").value.trim()) ul.appendChild(el("li", "no match"));
    ul.hidden = !ul.children.length;
    return found;
  }

  function choose(i) { $("results").hidden = true; focusNode(i); }

  /* ---- controls ---- */
  function legend() {
    meta.types.forEach(function (type) {
      var label = el("label"), box = el("input");
      box.type = "checkbox"; box.checked = type === "paper" ? state.papers : true; box.dataset.type = type;
      box.addEventListener("change", function () {
        if (type === "paper") state.papers = box.checked; else state.types[type] = box.checked;
        apply();
      });
      var swatch = el("span", null, "swatch");
      swatch.style.background = color(type);
      label.append(box, swatch, type + " (" + fmt(meta.counts[type] || 0) + ")");
      $("legend").appendChild(label);
    });
  }

  function communityLegend() {
    var named = groups.filter(function (g) { return g.name; });
    named.forEach(function (g) {
      var li = el("li"), name = el("span", g.name, "link");
      li.dataset.community = g.n;
      li.title = plural(g.size, "entity").replace(/entitys$/, "entities") + ", " + plural(g.papers, "paper");
      name.addEventListener("click", function () { focusCommunity(g.n); });
      li.append(name, el("span", " " + fmt(g.size), "muted"));
      $("community-list").appendChild(li);
    });
    if (!named.length) $("communities").hidden = true;
  }

  function showTab(name) {  // the map's filters, counts and Show all do nothing on the other tabs: hidden with the map
    ["map", "overview", "leaderboards"].forEach(function (tab) {
      $(tab === "map" ? "map-view" : tab).hidden = tab !== name;
      $("tab-" + tab).setAttribute("aria-selected", String(tab === name));
    });
    $("map-controls").hidden = name !== "map";
  }
  function showMap() { showTab("map"); }
  function showOverview() { showTab("overview"); }

  function controls() {
    $("min-papers").value = state.minPapers;
    $("min-papers").addEventListener("change", function () { state.minPapers = Math.max(0, Math.floor(+this.value) || 0); apply(); });
    $("show-all").addEventListener("click", function () {
      state.minPapers = 0; state.papers = true; $("min-papers").value = 0;
      meta.types.forEach(function (type) { state.types[type] = true; });
      Array.prototype.forEach.call(document.querySelectorAll("#legend input"), function (box) { box.checked = true; });
      apply(); network.fit({ animation: false });
    });
    var active = 0, found = [];
    function highlight() {
      Array.prototype.forEach.call($("results").children, function (li, k) { li.className = k === active ? "active" : ""; });
      var li = $("results").children[active];
      if (li) li.scrollIntoView({ block: "nearest" });
    }
    $("search").addEventListener("input", function () { found = showResults(); active = 0; });
    $("search").addEventListener("keydown", function (event) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        if (!found.length) return;
        active = (active + (event.key === "ArrowDown" ? 1 : found.length - 1)) % found.length;
        highlight();
      } else if (event.key === "Enter") {
        if ($("results").hidden) { found = showResults(); active = 0; }
        if (found.length) choose(found[Math.min(active, found.length - 1)]);
      } else if (event.key === "Escape") {
        $("results").hidden = true;
      }
    });
    $("search").addEventListener("blur", function () { $("results").hidden = true; });
    $("close").addEventListener("click", function () { $("panel").hidden = true; state.selected = -1; network.unselectAll(); network.redraw(); });
    $("tab-map").addEventListener("click", showMap);
    $("tab-overview").addEventListener("click", showOverview);
    $("tab-leaderboards").addEventListener("click", function () { showTab("leaderboards"); });
    ["overview", "leaderboards"].forEach(function (id) {
      $(id).addEventListener("click", function (event) {
        var bar = event.target.closest("[data-node], [data-community]");
        if (!bar) return;
        if (bar.dataset.node !== undefined) focusNode(+bar.dataset.node); else focusCommunity(+bar.dataset.community);
      });
    });
    network.on("click", function (params) {
      var hit = smallestAt(params.pointer.canvas);
      if (hit < 0 && params.nodes.length) hit = params.nodes[0];
      if (hit < 0) return;
      state.selected = hit;
      network.selectNodes([hit]);
      showPanel(hit);
      network.redraw();
    });
    network.on("beforeDrawing", function (ctx) { drawCommunities(ctx); drawLines(ctx); });
    network.on("afterDrawing", drawLabels);
  }

  legend();
  communityLegend();
  controls();
  timings.controls = performance.now();
  apply();
  timings.applied = performance.now();
  network.fit({ animation: false });
  timings.fitted = performance.now();
  window.kgApp = {
    network: network, focusNode: focusNode, focusCommunity: focusCommunity, apply: apply, state: state, nodes: nodes,
    timings: timings, matches: matches,
    labels: function () { return layoutLabels().filter(function (b) { return b.kind !== "dot"; }); }
  };
  requestAnimationFrame(function () { requestAnimationFrame(function () { timings.interactive = performance.now(); }); });
  }
})();
