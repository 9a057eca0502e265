/* paperkg page data: the packed parts (kg/exporters/html_pack.py) inflated with the browser's own
   DecompressionStream: nodes and edges on load, an abstract's chunk when its panel first needs it.
   Nothing is fetched: the bytes come from the page's own text, seven bits per character. */
var kgPack = (function () {
  "use strict";
  var ESCAPED = [0, 13, 60], ESCAPE = 0x100;  // NUL, CR, "<" are written as U+0100..U+0102
  var block = null, packed = "", chunks = [], ordinal = [];

  function bytes(part) {
    var start = part[0], end = part[0] + part[1], out = new Uint8Array(part[2]), k = 0, acc = 0, bits = 0;
    for (var i = start; i < end && k < out.length; i++) {
      var c = packed.charCodeAt(i);
      acc = (acc << 7) | (c < 128 ? c : ESCAPED[c - ESCAPE]);
      bits += 7;
      if (bits >= 8) { bits -= 8; out[k++] = acc >> bits; acc &= (1 << bits) - 1; }
    }
    return out;
  }

  function inflate(part) {
    var stream = new Blob([bytes(part)]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    return new Response(stream).text().then(JSON.parse);
  }

  function nodeRecords(columns, types, strings) {
    return columns.label.map(function (label, i) {
      var paper = columns.paper[i] === 1;
      var node = { id: columns.id[i], label: label, kind: paper ? "paper" : "entity", type: types[columns.type[i]],
                   papers: columns.papers[i], x: columns.x[i] / 10, y: columns.y[i] / 10, c: columns.c[i] };
      if (paper) {
        var pid = columns.pid[i], title = columns.title[i];
        if (pid === null) { node.pid = node.id; node.id = "paper:" + node.id; } else node.pid = pid;
        node.title = title === 0 ? label : title;
        node.year = columns.year[i]; node.url = columns.url[i]; node.authors = columns.authors[i];
        node.venue = columns.venue[i] === null ? null : strings[columns.venue[i]];
        node.sources = columns.sources[i].map(function (s) { return strings[s]; });
        ordinal[i] = ordinal.count++;
      } else {
        node.aliases = columns.aliases[i]; node.proposed = columns.proposed[i];
        if (columns.kindOf[i] !== null) node.kindOf = columns.kindOf[i];
      }
      return node;
    });
  }

  function edgeRecords(columns) {
    var source = 0, codes = columns.codes;
    var edges = columns.to.map(function (target, i) {
      source += columns.from[i];
      var code = codes[columns.code[i]];
      return [source, target, code[0], code[1], columns.weight[i]];
    });
    columns.evidence.forEach(function (found) { edges[found[0]].push(found[1], found[2]); });
    return edges;
  }

  function groups(flat) {
    var links = [];
    for (var k = 0; k < flat.length; k += 3) links.push([flat[k], flat[k + 1], flat[k + 2]]);
    return links;
  }

  /* The page data as {meta, nodes, edges, options}, once the core is inflated. */
  function load() {
    block = JSON.parse(document.getElementById("kg-data").textContent);
    packed = document.getElementById("kg-packed").textContent;
    ordinal = []; ordinal.count = 0;
    return inflate(block.parts[0]).then(function (core) {
      var meta = block.meta;
      meta.links = groups(core.links);
      return { meta: meta, nodes: nodeRecords(core.nodes, meta.types, core.strings), edges: edgeRecords(core.edges),
               options: block.options, results: core.results || [] };
    });
  }

  /* A paper's abstract as [text] / [text, entity index] segments (its chunk inflated once). */
  function segments(i) {
    var k = ordinal[i], n = Math.floor(k / block.chunk);
    if (!chunks[n]) chunks[n] = inflate(block.parts[n + 1]);
    return chunks[n].then(function (chunk) { return chunk[k % block.chunk]; });
  }

  return { load: load, segments: segments };
})();
