"""From mentions to the graph: entity resolution, the networkx graph, views and layout.

Which module decides what (resolution runs in `resolve.resolve`, in this order):
- `evidence`: what an abstract says around a mention (`X, a benchmark`, `we propose X`, a number format's
  precision); `labels`: a written form repaired or dropped (debris, fragments, lone adjectives).
- `bind`: `long form (X)` written between two mentions is that paper's definition; `acronyms`: the corpus's
  definitions (per paper, the agreed reading, readings that spell alike); `context`: the reading of an acronym a
  paper uses without defining it, from the abstract's own words; `knowledge`: the gazetteer and generic terms.
- `variants`: keys naming one concept (case, kind words, `of` phrases, ending words such as network / neural
  network); `coinage`: one node per coinage of a name, and kinds papers "propose"; `concepts`: a concept's one
  type, the reading of an acronym by type, whether a paper may have proposed it; `links`: paper links and
  entity relations; `broader`: the entity a concept is a kind of; `ids`: stable ids from the concept alone.
- `results`: reported results resolved to entities; `build`: the networkx graph every exporter reads (its
  contract is that module's docstring); `views`, `paper_labels`: what the exports show.
"""
