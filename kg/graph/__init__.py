"""From mentions to the graph: entity resolution, the networkx graph, views and layout."""
