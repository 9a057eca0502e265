"""From mentions to what the exports read: entity resolution, its frozen hand-off, the networkx graph and views.

Which module decides what (resolution runs in `resolve.resolve`, in this order):
- `evidence`: what an abstract says around a mention (`X, a benchmark`, `we propose X`, a number format's
  precision); `labels`: a written form repaired or dropped (debris, fragments, lone adjectives).
- `bind`: `long form (X)` written between two mentions is that paper's definition (a long form the extractor cut
  short of its acronym's words extended to them first); `acronyms`: the corpus's
  definitions (per paper, the agreed reading, readings that spell alike); `context`: the reading of an acronym a
  paper uses without defining it, from the abstract's own words; `knowledge`: the gazetteer and generic terms.
- `variants`: keys naming one concept (case, kind words, `of` phrases, ending words such as network / neural
  network); `coinage`: one node per coinage of a name, and kinds papers "propose"; `concepts`: a concept's one
  type, the reading of an acronym by type, whether a paper may have proposed it; `links`: paper links and
  entity relations; `broader`: the entity a concept is a kind of; `ids`: stable ids from the concept alone.
- `results`: reported results resolved to entities.

The hand-off (`resolution`): `resolve_corpus` returns one frozen `Resolution` (papers, entities, links, relations,
results); `write_exports` and every exporter take it. `tables` derives, once per resolution, what the writers read
(entity counts, each paper's links and evidence, relation edges, paper labels from `paper_labels`, the results kept):
RDF (and so the SPARQL store loaded from it) is written from those tables with no networkx graph; `build` makes the
networkx graph from the same tables (`graph_of`, built once and shared) for the writers that need one (GraphML,
HTML, the layout and `views`); its docstring is the graph's contract.
"""
