"""The invented four-paper corpus the SPARQL tests query, and the named queries' expected answers (shared data)."""
from __future__ import annotations

from pathlib import Path

from kg.exporters.rdf import write_jsonld, write_ntriples, write_turtle
import re

from kg.graph.resolution import Resolution, graph_of
from kg.graph.results import Result
from kg.types import Entity, Link, MentionRelation, Paper, Relation
from tests.support import BASE, mention_in

E, P = BASE + "entity/", BASE + "paper/"
ENGINES = ("oxigraph", "rdflib")
PAPERS = [
    Paper("q1", "We propose AlphaNet for toy detection. AlphaNet is evaluated on ShapesSet with mAP. It scores 71.5 there.",
          title="Alpha paper", year=2020),
    Paper("q2", "We propose BetaModel for toy detection. BetaModel is evaluated on ShapesSet and ColorBank with mAP. "
          "It scores 74.0 there, the other one 71.5 there.", title="Beta paper", year=2021),
    Paper("q3", "We introduce NewSet, a dataset for toy segmentation. AlphaNet reaches good IoU on ColorBank. "
          "The gain is 2 points.", title="NewSet paper", year=2021),
    Paper("q4", "BetaModel is evaluated on SS for toy classification with accuracy. Its error is 3.5 percent.",
          title="Delta paper", year=2021),
]
# (paper, number as written, its occurrence, kind, unit, metric as worded, subject, dataset, proposal): invented
RESULTS = [("q1", "71.5", 0, "score", "", "mAP", "method:alphanet", "dataset:shapes_set", False),
           ("q2", "74.0", 0, "score", "", "mAP", "model:betamodel", "dataset:shapes_set", False),
           ("q2", "71.5", 0, "score", "", "mAP", "method:alphanet", "dataset:shapes_set", False),
           ("q3", "2", 0, "change", "points", "IoU", None, "dataset:color_bank", True),
           ("q4", "3.5", 0, "score", "%", "error", "model:betamodel", "dataset:shapes_set", False)]
ENTITIES = {"AlphaNet": "method:alphanet", "BetaModel": "model:betamodel", "ShapesSet": "dataset:shapes_set",
            "SS": "dataset:shapes_set", "ColorBank": "dataset:color_bank", "NewSet": "dataset:new_set",
            "toy detection": "task:toy_detection", "toy segmentation": "task:toy_segmentation",
            "toy classification": "task:toy_classification", "mAP": "metric:map", "IoU": "metric:iou",
            "accuracy": "metric:accuracy"}
PROPOSED = {("q1", "AlphaNet"), ("q2", "BetaModel"), ("q3", "NewSet")}
RELATIONS = [("q1", "AlphaNet", "evaluated_on", "ShapesSet", 1), ("q2", "BetaModel", "evaluated_on", "ShapesSet", 1),
             ("q2", "BetaModel", "evaluated_on", "ColorBank", 0), ("q4", "BetaModel", "evaluated_on", "SS", 0),
             ("q1", "toy detection", "measured_by", "mAP", 0), ("q1", "AlphaNet", "applied_to", "toy detection", 0),
             ("q2", "BetaModel", "applied_to", "toy detection", 0)]


def corpus_graph():
    """The graph of `corpus_resolution`."""
    return graph_of(corpus_resolution())


def corpus_resolution() -> Resolution:
    """The four invented papers: every entity name in an abstract is a mention of its entity."""
    mentions = {}
    for paper in PAPERS:
        for name, entity in ENTITIES.items():
            count = paper.abstract.count(name) if name != "SS" else paper.abstract.count(" SS ")
            for i in range(count):
                role = "proposed" if (paper.id, name) in PROPOSED else "used"
                mentions.setdefault((paper.id, entity), []).append(mention_in(paper, name, entity.split(":")[0], role, i))
    links = [Link(pid, entity, ms[0].role, tuple(ms)) for (pid, entity), ms in mentions.items()]
    entities = {Entity(entity, entity.split(":")[0], name, ("SS",) if name == "ShapesSet" else (),
                       ("task:toy_detection",) if name == "toy segmentation" else ())
                for name, entity in ENTITIES.items() if name != "SS"}  # invented: segmentation a kind of detection
    relations = [Relation(ENTITIES[s], rel, ENTITIES[t], (MentionRelation(pid, rel, mentions[pid, ENTITIES[s]][i],
                                                                          mentions[pid, ENTITIES[t]][0]),))
                 for pid, s, rel, t, i in RELATIONS]
    return Resolution(tuple(PAPERS), tuple(sorted(entities, key=lambda e: e.id)), tuple(links), tuple(merge(relations)),
                      tuple(corpus_results()))


def corpus_results() -> list[Result]:
    """The invented results (RESULTS) with offsets: the number's span and its sentence (from the last '. ')."""
    abstracts = {p.id: p.abstract for p in PAPERS}
    found = []
    for pid, text, occurrence, kind, unit, metric, subject, dataset, proposal in RESULTS:
        abstract = abstracts[pid]
        start = [m.start() for m in re.finditer(rf"(?<![\d.]){re.escape(text)}(?![\d])", abstract)][occurrence]
        sentence = abstract.rfind(". ", 0, start) + 2
        found.append(Result(pid, start, start + len(text), text, kind, unit, sentence, len(abstract), metric,
                            proposal=proposal, subject=subject, metric="metric:map" if metric == "mAP" else None,
                            dataset=dataset))
    return found


def merge(relations: list[Relation]) -> list[Relation]:
    """One Relation per (source, relation, target) with all its evidence, as resolution makes them."""
    merged: dict[tuple[str, str, str], Relation] = {}
    for r in relations:
        old = merged.get((r.source, r.relation, r.target))
        merged[r.source, r.relation, r.target] = Relation(r.source, r.relation, r.target,
                                                          (old.evidence if old else ()) + r.evidence)
    return list(merged.values())


Q1_S2 = "AlphaNet is evaluated on ShapesSet with mAP."
Q2_S2 = "BetaModel is evaluated on ShapesSet and ColorBank with mAP."
Q4 = "BetaModel is evaluated on SS for toy classification with accuracy."
Q2_S3 = "It scores 74.0 there, the other one 71.5 there."
Q4_S2 = "Its error is 3.5 percent."
CASES = [
    ("entity-kinds", {"entity": ["Toy Detection"]}, [(E + "task/toy_segmentation", "toy segmentation", "Task", 1)]),
    ("entity-kinds", {"entity": ["toy segmentation"]}, []),
    ("top-datasets", {}, [(E + "dataset/shapes_set", "ShapesSet", 3), (E + "dataset/color_bank", "ColorBank", 2),
                          (E + "dataset/new_set", "NewSet", 1)]),
    ("task-methods", {"task": ["TOY detection"]}, [(P + "q1", "Alpha paper", E + "method/alphanet", "AlphaNet"),
                                                   (P + "q2", "Beta paper", E + "model/betamodel", "BetaModel")]),
    ("task-methods", {"task": ["task:toy_detection"], "kind": ["mlkg:Model"]},
     [(P + "q2", "Beta paper", E + "model/betamodel", "BetaModel")]),
    ("dataset-tasks", {"dataset": ["ss"]}, [(E + "task/toy_detection", "toy detection", 2),
                                            (E + "task/toy_classification", "toy classification", 1)]),
    ("dataset-models", {"dataset": ["ShapesSet"]}, [(E + "model/betamodel", "BetaModel", 2)]),
    ("dataset-models", {"dataset": [f"<{E}dataset/color_bank>"]}, [(E + "model/betamodel", "BetaModel", 1)]),
    ("similar-papers", {"paper": ["q1"]}, [(P + "q2", "Beta paper", 3), (P + "q4", "Delta paper", 1),
                                           (P + "q3", "NewSet paper", 1)]),
    ("cooccurring-entities", {"entity": ["ShapesSet"]},
     [(E + "model/betamodel", "BetaModel", "Model", 2), (E + "metric/map", "mAP", "Metric", 2),
      (E + "task/toy_detection", "toy detection", "Task", 2), (E + "method/alphanet", "AlphaNet", "Method", 1),
      (E + "dataset/color_bank", "ColorBank", "Dataset", 1), (E + "metric/accuracy", "accuracy", "Metric", 1),
      (E + "task/toy_classification", "toy classification", "Task", 1)]),
    ("cooccurring-entities", {"entity": ["alphanet"], "class": ["mlkg:Dataset"]},
     [(E + "dataset/color_bank", "ColorBank", "Dataset", 1), (E + "dataset/new_set", "NewSet", "Dataset", 1),
      (E + "dataset/shapes_set", "ShapesSet", "Dataset", 1)]),
    ("paper-proposals", {"paper": ["q3"]}, [(E + "dataset/new_set", "NewSet", "Dataset")]),
    ("paper-proposals", {"paper": ["q4"]}, []),
    ("task-metrics", {}, [(E + "task/toy_classification", "toy classification", E + "metric/accuracy", "accuracy", False, 1),
                          (E + "task/toy_detection", "toy detection", E + "metric/map", "mAP", True, 2),
                          (E + "task/toy_segmentation", "toy segmentation", E + "metric/iou", "IoU", False, 1)]),
    ("link-evidence", {"paper": ["q4"], "entity": ["ShapesSet"]},
     [("uses", E + "dataset/shapes_set", BASE + "mention/q4/26-28", "SS", 26, 28, Q4)]),
    ("link-evidence", {"paper": ["q1"], "entity": ["AlphaNet"]},
     [("proposes", E + "method/alphanet", BASE + "mention/q1/11-19", "AlphaNet", 11, 19,
       "We propose AlphaNet for toy detection."),
      ("proposes", E + "method/alphanet", BASE + "mention/q1/39-47", "AlphaNet", 39, 47, Q1_S2)]),
    ("task-datasets", {}, [(E + "dataset/shapes_set", "ShapesSet", 2), (E + "dataset/color_bank", "ColorBank", 1)]),
    ("task-datasets", {"text": ["SEGMENT"]}, [(E + "dataset/color_bank", "ColorBank", 1)]),
    ("entity-types", {}, [("Dataset", 3, 4), ("Method", 1, 2), ("Metric", 3, 4), ("Model", 1, 2), ("Task", 3, 4)]),
    ("papers-per-year", {}, [(2020, 1, 1), (2021, 3, 2)]),
    ("top-entities", {}, [("Dataset", E + "dataset/shapes_set", "ShapesSet", 3, 0),
                          ("Dataset", E + "dataset/color_bank", "ColorBank", 2, 0),
                          ("Dataset", E + "dataset/new_set", "NewSet", 1, 1), ("Method", E + "method/alphanet", "AlphaNet", 2, 1),
                          ("Metric", E + "metric/map", "mAP", 2, 0), ("Metric", E + "metric/iou", "IoU", 1, 0),
                          ("Metric", E + "metric/accuracy", "accuracy", 1, 0), ("Model", E + "model/betamodel", "BetaModel", 2, 1),
                          ("Task", E + "task/toy_detection", "toy detection", 2, 0),
                          ("Task", E + "task/toy_classification", "toy classification", 1, 0),
                          ("Task", E + "task/toy_segmentation", "toy segmentation", 1, 0)]),
    ("entity-papers-per-year", {"entity": ["ALPHANET"]}, [(2020, 1, 1), (2021, 1, 0)]),
    ("entity-papers-per-year", {"entity": ["Shapes  set"]}, []),
    ("rising-entities", {}, [(E + "model/betamodel", "BetaModel", "Model", 2021, 2, 0, 2),
                             (E + "dataset/color_bank", "ColorBank", "Dataset", 2021, 2, 0, 2),
                             (E + "dataset/shapes_set", "ShapesSet", "Dataset", 2021, 2, 1, 1),
                             (E + "metric/iou", "IoU", "Metric", 2021, 1, 0, 1),
                             (E + "dataset/new_set", "NewSet", "Dataset", 2021, 1, 0, 1),
                             (E + "metric/accuracy", "accuracy", "Metric", 2021, 1, 0, 1),
                             (E + "task/toy_classification", "toy classification", "Task", 2021, 1, 0, 1),
                             (E + "task/toy_segmentation", "toy segmentation", "Task", 2021, 1, 0, 1)]),
    ("rising-entities", {"year": ["2020"], "class": ["mlkg:Method", "mlkg:Task"]},
     [(E + "method/alphanet", "AlphaNet", "Method", 2020, 1, 0, 1),
      (E + "task/toy_detection", "toy detection", "Task", 2020, 1, 0, 1)]),
    ("methods-proposed-in-year", {}, []),
    ("methods-proposed-in-year", {"year": ["2020"]}, [(2020, E + "method/alphanet", "AlphaNet", "Method", P + "q1", "Alpha paper")]),
    ("methods-proposed-in-year", {"kind": ["mlkg:Model", "mlkg:Dataset"]},
     [(2021, E + "model/betamodel", "BetaModel", "Model", P + "q2", "Beta paper"),
      (2021, E + "dataset/new_set", "NewSet", "Dataset", P + "q3", "NewSet paper")]),
    ("papers-by-title", {"text": ["PAPER"]}, [(P + "q1", "q1", "Alpha paper", 2020), (P + "q2", "q2", "Beta paper", 2021),
                                              (P + "q4", "q4", "Delta paper", 2021), (P + "q3", "q3", "NewSet paper", 2021)]),
    ("papers-by-title", {"text": ["newset"]}, [(P + "q3", "q3", "NewSet paper", 2021)]),
    ("entity-neighbourhood", {"entity": ["shapesset"]},
     [("in", "evaluatedOn", E + "model/betamodel", "BetaModel", "Model", 2),
      ("in", "evaluatedOn", E + "method/alphanet", "AlphaNet", "Method", 1),
      ("in", "uses", P + "q1", "Alpha paper", "Paper", 1), ("in", "uses", P + "q2", "Beta paper", "Paper", 1),
      ("in", "uses", P + "q4", "Delta paper", "Paper", 1)]),
    ("entity-neighbourhood", {"entity": [f"<{E}model/betamodel>"]},
     [("out", "appliedTo", E + "task/toy_detection", "toy detection", "Task", 1), ("out", "evaluatedOn", E + "dataset/shapes_set", "ShapesSet", "Dataset", 2),
      ("out", "evaluatedOn", E + "dataset/color_bank", "ColorBank", "Dataset", 1),
      ("in", "proposes", P + "q2", "Beta paper", "Paper", 2), ("in", "uses", P + "q4", "Delta paper", "Paper", 1)]),
    ("similar-papers", {"paper": ["beta PAPER"]}, [(P + "q1", "Alpha paper", 3), (P + "q4", "Delta paper", 2),
                                                   (P + "q3", "NewSet paper", 1)]),
    ("evaluated-on", {"entity": ["betamodel"]}, [(E + "dataset/shapes_set", "ShapesSet", 2),
                                               (E + "dataset/color_bank", "ColorBank", 1)]),
    ("evaluated-on", {"entity": ["toy detection"]}, []),
    ("built-on", {"entity": ["alphanet"]}, []),
    ("task-methods-datasets", {"task": ["Toy Detection"]},
     [(E + "method/alphanet", "AlphaNet", 1, "ShapesSet", 1), (E + "model/betamodel", "BetaModel", 1, "ShapesSet", 2),
      (E + "model/betamodel", "BetaModel", 1, "ColorBank", 1)]),
    ("leaderboard", {"dataset": ["SHAPESSET"], "metric": ["map"]},
     [(E + "model/betamodel", "BetaModel", 74.0, None, "mAP", "higher", P + "q2", "Beta paper", Q2_S3,
       BASE + "result/q2/110-114"),
      (E + "method/alphanet", "AlphaNet", 71.5, None, "mAP", "higher", P + "q1", "Alpha paper", "It scores 71.5 there.",
       BASE + "result/q1/94-98"),
      (E + "method/alphanet", "AlphaNet", 71.5, None, "mAP", "higher", P + "q2", "Beta paper", Q2_S3,
       BASE + "result/q2/136-140")]),
    ("leaderboard", {"dataset": ["ss"], "metric": ["Error"]},
     [(E + "model/betamodel", "BetaModel", 3.5, "%", "error", "lower", P + "q4", "Delta paper", Q4_S2,
       BASE + "result/q4/80-83")]),
    ("leaderboard", {"dataset": ["ColorBank"], "metric": ["iou"]}, []),
    ("results-of", {"entity": ["ColorBank"]},
     [("dataset", "change", "2", "points", "IoU", "(the paper's proposal)", "ColorBank", P + "q3", "NewSet paper",
       "The gain is 2 points.", BASE + "result/q3/105-106")]),
    ("results-of", {"entity": ["AlphaNet"]},
     [("subject", "score", "71.5", None, "mAP", "AlphaNet", "ShapesSet", P + "q1", "Alpha paper",
       "It scores 71.5 there.", BASE + "result/q1/94-98"),
      ("subject", "score", "71.5", None, "mAP", "AlphaNet", "ShapesSet", P + "q2", "Beta paper", Q2_S3,
       BASE + "result/q2/136-140")]),
    ("relation-evidence", {"entity": ["dataset:shapes_set"]},
     [("AlphaNet", "evaluatedOn", "ShapesSet", 1, Q1_S2), ("BetaModel", "evaluatedOn", "ShapesSet", 2, Q4),
      ("BetaModel", "evaluatedOn", "ShapesSet", 2, Q2_S2)]),
]


def write_graph_files(out: Path) -> dict[str, Path]:
    """The corpus exported as Turtle, N-Triples and JSON-LD into `out`."""
    resolution = corpus_resolution()
    for suffix, write in (("ttl", write_turtle), ("nt", write_ntriples), ("jsonld", write_jsonld)):
        write(resolution, out / f"graph.{suffix}")
    return {path.suffix[1:]: path for path in out.iterdir()}
