"""Resolution rules against issue 30's patterns, on invented names: what a definition binds, variants written with
another ending word, acronyms read by their context, number-format precision, types a researcher disputes."""
from __future__ import annotations

from dataclasses import replace

import pytest

from kg.graph.resolve import resolve
from kg.text.keys import surface_key
from kg.types import Mention, Paper


def at(paper: str, abstract: str, text: str, entity_type: str = "method", occurrence: int = 0) -> Mention:
    """The mention of `text` in `abstract` (its n-th occurrence), sentence starting at 0."""
    start = -1
    for _ in range(occurrence + 1):
        start = abstract.index(text, start + 1)
    return Mention(paper, start, start + len(text), text, entity_type, name=text)


def plain(paper: str, text: str, entity_type: str = "model") -> Mention:
    return Mention(paper, 0, len(text), text, entity_type, name=text)


def entity_of(links, paper: str, entities, label: str) -> bool:
    """Whether the paper links to the entity labelled so."""
    ids = {e.id for e in entities if e.label == label}
    return any(link.paper_id == paper and link.entity_id in ids for link in links)


def test_a_written_long_form_with_a_modifier_the_acronym_leaves_out_is_its_own_concept():
    text = "We train a Quiet Quux Vector Machine (QVM) on scans."
    mentions = [at("p1", text, "Quiet Quux Vector Machine", "model"), at("p1", text, "QVM", "model"),
                plain("p2", "quux vector machine"), plain("p3", "quux vector machine")]
    entities, _, _ = resolve(mentions, [("p1", "QVM", "Quux Vector Machine")],
                             papers=[Paper("p1", text), Paper("p2", "x"), Paper("p3", "x")])
    assert "Quiet Quux Vector Machine" in {e.label for e in entities} and len(entities) == 2


@pytest.mark.parametrize(("short", "long", "spelled"), [
    ("QRQG", "quarq gradient", False),  # four capitals, two words: the long form lost its first words
    ("ZADE", "Zonal Adaptive Debias Ensemble", True), ("DZA", "dual-energy Zorb-ray absorptiometry", True),
    ("ZQ-RNN", "Zippy-Quick RNN", True), ("zLSTM", "zorbic LSTM", True),  # a word in capitals spells its capitals
    ("ZoVR", "ZoVR-R", False), ("ZoVR", "Quux ZoVR", False),  # a variant that has the short name as a word
    ("Offize", "orbject recognition", False),  # a name in brackets after two words, one of whose initials it lacks
    ("Orze", "orbject zecognition", True),
])
def test_a_bound_definition_needs_about_a_word_per_capital(short, long, spelled):
    from kg.graph.bind import spells

    assert spells(short, long) is spelled


@pytest.mark.parametrize(("forms", "entity_type", "nodes"), [
    (("zorbic network", "zorbic neural network"), "model", 1),
    (("zorb rate", "zorb ratio"), "metric", 1),
    (("Q-measure", "Q-score"), "metric", 1),
    (("zorb rate", "zorb ratio"), "model", 2),  # the metric words only join metrics
    (("zorbic gradient", "zorbic gradient descent"), "method", 2),  # stochastic gradients, the estimate: no SGD
    (("zorbic gradient method", "zorbic gradient descent"), "method", 1),
    (("zorbic gradient algorithms", "zorbic gradient descent"), "method", 1),
    (("zorbic gradient", "zorbic gradient descent"), "model", 2),
    (("gradient method", "gradient descent"), "method", 1), (("gradient", "gradient descent"), "method", 2),
])
def test_one_concept_written_with_another_ending_word_is_one_node(forms, entity_type, nodes):
    entities, _, _ = resolve([plain("p1", forms[0], entity_type), plain("p2", forms[1], entity_type)])
    assert len(entities) == nodes


def test_two_gazetteer_entries_differing_in_the_ending_word_stay_two():
    from kg.graph.knowledge import build_knowledge

    gazetteer = [{"name": "zorbic network", "type": "model"}, {"name": "zorbic neural network", "type": "model"}]
    knowledge = build_knowledge(gazetteer, [], surface_key)
    entities, _, _ = resolve([plain("p1", "zorbic network"), plain("p2", "zorbic neural network")], knowledge=knowledge)
    assert len(entities) == 2


@pytest.mark.parametrize(("same", "joined"), [(["Zorbset-9K"], True), ([], False)])
def test_an_alias_extending_the_name_is_the_concept_only_when_the_gazetteer_says_so(same, joined):
    from kg.graph.knowledge import build_knowledge

    gazetteer = [{"name": "Zorbset", "type": "dataset", "aliases": ["Zorbset-9K"], "same": same}]
    knowledge = build_knowledge(gazetteer, [], surface_key)
    assert (knowledge.key_of(surface_key("Zorbset-9K")) == surface_key("Zorbset")) is joined


@pytest.mark.parametrize(("abstract", "phrases", "short", "label"), [
    ("Multilayer quantized neural networks are cheap. These QNNs are fast.", ["quantized neural networks"], "QNNs",
     "quantized neural network"),
    ("These QNNs are fast.", [], "QNNs", "quiet neural network"),  # no phrase with its initials: the corpus's reading
    ("Quantized neural networks and queued neural nets differ. QNNs are fast.",
     ["Quantized neural networks", "queued neural nets"], "QNNs", "quiet neural network"),  # two concepts spell it
    ("Unlike the quiet neural network, quantized neural networks are cheap. QNNs are fast.",
     ["quantized neural networks"], "QNNs", "quiet neural network"),  # the usual reading written too
    ("We train quantized neural networks. QNN is fast.", ["quantized neural networks"], "QNN",
     "QNN"),  # the acronym typed otherwise (dataset): neither the phrase nor the one defining paper's reading
    ("We train quantized neural networks. Each QNN model is fast.", ["quantized neural networks"], "QNN model",
     "quantized neural network"),  # a form derived from the acronym reads it alike
])
def test_an_undefined_acronym_is_the_phrase_of_its_type_its_abstract_writes_with_its_initials(abstract, phrases,
                                                                                           short, label):
    papers = [Paper("p1", "We study the quiet neural network (QNN)."), Paper("p2", abstract)]
    first = papers[0].abstract
    mentions = [at("p1", first, "quiet neural network", "model"), at("p1", first, "QNN", "model"),
                at("p2", abstract, short, "dataset" if short == "QNN" else "model"),
                *(at("p2", abstract, phrase, "model") for phrase in phrases)]
    if short == "QNN model":
        mentions.append(at("p2", abstract, "QNN", "model"))
    entities, links, _ = resolve(mentions, [("p1", "QNN", "quiet neural network")], papers=papers)
    qnn = next(link for link in links if link.paper_id == "p2" and any(m.name == short for m in link.mentions))
    assert next(e.label for e in entities if e.id == qnn.entity_id) == label


def test_an_undefined_acronym_the_gazetteer_knows_keeps_its_reading_beside_a_phrase_with_its_initials():
    from kg.graph.knowledge import build_knowledge

    knowledge = build_knowledge([{"name": "quiet neural network", "type": "model", "aliases": ["QNN"]}], [],
                                surface_key)
    abstract = "Multilayer quantized neural networks are cheap. Unlike them, QNNs are fast."
    mentions = [at("p2", abstract, "QNNs", "model"), at("p2", abstract, "quantized neural networks", "model")]
    entities, links, _ = resolve(mentions, knowledge=knowledge, papers=[Paper("p2", abstract)])
    qnn = next(link for link in links if any(m.name == "QNNs" for m in link.mentions))
    assert next(e.label for e in entities if e.id == qnn.entity_id) == "quiet neural network"  # RL beside
    # `representation learning`, PPO beside `process parameter optimization`: well-known readings stand


SENSES = [{"name": "Zorbmed", "type": "dataset", "aliases": []},
          {"name": "Zorbmed citation network", "type": "dataset", "aliases": [],
           "sense": {"written": ["Zorbmed"], "beside": ["Quorra", "Blimseer"]}}]


@pytest.mark.parametrize(("abstract", "entity_type", "label"), [
    ("We search Zorbmed for articles on prion disease.", "dataset", "Zorbmed"),
    ("Node classification on Quorra, Blimseer and Zorbmed improves.", "dataset", "Zorbmed citation network"),
    ("Node classification on Quorraland and Zorbmed improves.", "dataset", "Zorbmed"),  # inside a word: not beside
    ("Node classification on Quorra with Zorbmed improves.", "method", "Zorbmed"),  # not of the sense's type
])
def test_a_form_two_entries_write_alike_names_the_one_whose_company_the_abstract_keeps(abstract, entity_type, label):
    from kg.graph.knowledge import build_knowledge

    knowledge = build_knowledge(SENSES, [], surface_key)
    papers = [Paper("p1", "Zorbmed holds articles."), Paper("p2", abstract)]
    mentions = [at("p1", papers[0].abstract, "Zorbmed", "dataset"), at("p2", abstract, "Zorbmed", entity_type)]
    entities, links, _ = resolve(mentions, knowledge=knowledge, papers=papers)
    assert entity_of(links, "p2", entities, label) and entity_of(links, "p1", entities, "Zorbmed")


QUUX = ("The quux process QP is a prior over partitions for nonparametric mixture clustering with atoms.",
        "We sample the quux process QP, a nonparametric prior over partitions of atoms, for mixture clustering.")
PRIVACY = ("Quantum privacy QP protects records of users in federated hospital databases from attackers.",
           "Under quantum privacy QP, hospital databases keep the records of their users safe from attackers.")


def acronym_corpus(extra: list[tuple[str, str]], copies: bool = False):
    """Two papers defining QP each way (`copies`: one abstract twice), and the `extra` papers using it undefined."""
    quux, privacy = (QUUX[:1] * 2, PRIVACY[:1] * 2) if copies else (QUUX, PRIVACY)
    papers = [Paper(f"q{i}", text.replace("QP", "(QP)")) for i, text in enumerate(quux)]
    papers += [Paper(f"v{i}", text.replace("QP", "(QP)")) for i, text in enumerate(privacy)]
    papers += [Paper(p, t) for p, t in extra]
    pairs = [(p.id, "QP", "quux process" if p.id[0] == "q" else "quantum privacy") for p in papers[:4]]
    mentions = [at(p.id, p.abstract, "QP") for p in papers]
    mentions += [at(p.id, p.abstract, "quux process") for p in papers[:2]]
    mentions += [at(p.id, p.abstract, "privacy") for p in papers[2:4]]
    return resolve(mentions, pairs, papers=papers)


@pytest.mark.parametrize(("abstract", "reading"), [
    ("A scalable sampler: the quux process makes QP inference exact.", "quux process"),  # the long form is written
    ("QP mixture models give a prior over partitions of atoms for nonparametric clustering.", "quux process"),
    ("QP keeps records of users in hospital databases safe from attackers.", "quantum privacy"),
])
def test_an_undefined_acronym_takes_the_reading_its_abstract_supports(abstract, reading):
    entities, links, _ = acronym_corpus([("u1", abstract)])
    by_id = {e.id: e for e in entities}
    read = [by_id[link.entity_id].label.lower() for link in links if link.paper_id == "u1"]
    assert read and all(reading.split()[0] in label for label in read)


def test_copies_of_one_defining_abstract_are_one_context_not_two():
    abstract = "QP keeps records of users in hospital databases safe from attackers."
    readings = set()
    for copies in (False, True):
        entities, links, _ = acronym_corpus([("u1", abstract)], copies)
        by_id = {e.id: e for e in entities}
        readings.add(tuple(by_id[link.entity_id].label.lower() for link in links if link.paper_id == "u1"))
    assert len(readings) == 2  # with each abstract copied, its words are no evidence: the context gives no reading


def test_a_long_form_written_only_inside_a_longer_one_does_not_support_its_reading():
    from kg.graph.knowledge import build_knowledge

    knowledge = build_knowledge([{"name": "zorb translation", "type": "task", "aliases": ["NZT"]}], [], surface_key)
    papers = [Paper(f"d{i}", "We train neural zorb translation (NZT) systems.") for i in range(2)]
    papers += [Paper(f"t{i}", "A nonlinear zonal tensor (NZT) is fit.") for i in range(2)]  # no agreed reading
    papers.append(Paper("u1", "Neural zorb translation is hard; NZT systems fail."))
    mentions = [at(p.id, p.abstract, "NZT", "task") for p in papers]
    pairs = [(p.id, "NZT", "neural zorb translation" if p.id[0] == "d" else "nonlinear zonal tensor") for p in papers[:4]]
    entities, links, _ = resolve(mentions, pairs, knowledge=knowledge, papers=papers)
    label = {e.id: e.label for e in entities}
    assert [label[link.entity_id] for link in links if link.paper_id == "u1"] == ["neural zorb translation"]


@pytest.mark.parametrize(("abstract", "reading"), [
    ("Binary zorb nets are cheap; we study why BZNs work.", "binary zorb net"),  # the abstract writes one paper's reading
    ("We study why BZNs work on small devices.", "Bayesian zorb net"),  # no words of its own: the gazetteer's reading
    ("Our inputs are binary zorb. Nets of BZNs fail.", "Bayesian zorb net"),  # the words across a sentence's end
    ("Subinary zorb nets of BZNs fail.", "Bayesian zorb net"),  # inside another word
])
def test_one_papers_reading_of_an_acronym_holds_where_an_abstract_writes_its_long_form(abstract, reading):
    from kg.graph.knowledge import build_knowledge

    knowledge = build_knowledge([{"name": "Bayesian zorb net", "type": "model", "aliases": ["BZN"]}], [], surface_key)
    papers = [Paper(f"b{i}", "Bayesian zorb nets (BZNs) give uncertainty.") for i in range(2)]  # the corpus's reading
    papers += [Paper("d1", "Binary zorb nets (BZNs) binarise weights."), Paper("u1", abstract)]
    mentions = [at(p.id, p.abstract, "BZN", "model") for p in papers]
    mentions += [at(p.id, p.abstract, p.abstract.split(" (")[0], "model") for p in papers[:3]]
    pairs = [(p.id, "BZNs", p.abstract.split(" (")[0]) for p in papers[:3]]
    entities, links, _ = resolve(mentions, pairs, knowledge=knowledge, papers=papers)
    label = {e.id: e.label for e in entities}
    assert [label[link.entity_id].lower() for link in links if link.paper_id == "u1"] == [reading.lower()]


@pytest.mark.parametrize(("abstract", "kept"), [
    ("We train with low precision weights and activations.", False),
    ("Weights kept at 8-bit precision lose little.", False),
    ("The precision of the network weights matters.", False),
    ("We report precision and recall on the test set.", True),
    ("We quantize to 8-bit and find the optimal precision per layer.", False),
    ("We quantize to 8-bit; precision and recall stay high.", True),
])
def test_a_number_format_precision_is_not_the_metric(abstract, kept):
    mentions = [at("p1", abstract, "precision", "metric")]
    entities, _, _ = resolve(mentions, papers=[Paper("p1", abstract)])
    assert bool(entities) is kept


@pytest.mark.parametrize(("abstract", "kept"), [
    ("Zorb nets allow reliable learning and recall of many stored patterns.", False),  # remembering
    ("The team acts as one player with imperfect recall.", False),
    ("Zorbnet reaches a recall of 0.93 on the test set.", True),
    ("Zorbnet gives substantial improvements in recall over prior zorbers.", True),
    ("Zorbnet probes fewer items at the same recall.", True),
    ("Zorbnet learns to recall facts, and its precision stays high.", True),  # beside another measure
])
def test_a_recall_that_is_remembering_is_not_the_metric(abstract, kept):
    mentions = [at("p1", abstract, "recall", "metric")]
    entities, _, _ = resolve(mentions, papers=[Paper("p1", abstract)])
    assert bool(entities) is kept


def test_a_no_compound_is_an_adjective():
    from kg.graph.labels import lone_adjective

    assert lone_adjective("no-zorb") and not lone_adjective("zorb") and not lone_adjective("No-Zorb")


def test_a_kind_word_after_a_preposition_does_not_define_the_name():
    from kg.graph.evidence import defined_type

    text = "A zorb memory is a structure learned from a dataset of vectors. Zorbset is a large benchmark."
    assert defined_type(text, 2, 13) is None and defined_type(text, text.index("Zorbset"), text.index(" is a large")) \
        == "dataset"


def test_resolution_hands_off_one_frozen_result_the_graph_is_built_from():
    import dataclasses

    from kg.extraction.interface import Extraction
    from kg.graph.resolution import graph_of, resolve_corpus

    papers = [Paper("p1", "We train ZorbNet on Glimset."), Paper("p2", "ZorbNet again.")]
    extractions = [Extraction((at("p1", papers[0].abstract, "ZorbNet", "model"),
                               at("p1", papers[0].abstract, "Glimset", "dataset")), (), ()),
                   Extraction((at("p2", papers[1].abstract, "ZorbNet", "model"),), (), ())]
    resolution = resolve_corpus(papers, extractions)
    assert {e.label for e in resolution.entities} == {"ZorbNet", "Glimset"} and len(resolution.links) == 3
    with pytest.raises(dataclasses.FrozenInstanceError):
        resolution.entities = ()  # type: ignore[misc]
    graph = graph_of(resolution)
    assert {n for n, d in graph.nodes(data=True) if d["kind"] == "entity"} == {e.id for e in resolution.entities}
    assert graph.number_of_edges() == len(resolution.links) and resolution.mentions == 3
    assert graph_of(resolution) is graph  # built once: the writers that need a graph share it


@pytest.mark.parametrize(("fmt", "builds_graph"), [("ttl", False), ("nt", False), ("jsonld", False), ("graphml", True)])
def test_exporters_read_the_resolution_and_only_graph_writers_build_networkx(tmp_path, fmt, builds_graph):
    import kg.exporters  # noqa: F401  (registers the built-in exporters)
    from kg.graph.resolution import Resolution
    from kg.registry import exporters
    from kg.types import Entity, Link

    text = "We train ZorbNet on Glimset."
    links = (Link("p1", "model:zorbnet", "used", (at("p1", text, "ZorbNet", "model"),)),)
    resolution = Resolution((Paper("p1", text),), (Entity("model:zorbnet", "model", "ZorbNet"),), links)
    exporters.get(fmt)(resolution, tmp_path / f"graph.{fmt}")
    assert "ZorbNet" in (tmp_path / f"graph.{fmt}").read_text(encoding="utf-8")
    assert ("graph" in vars(resolution)) is builds_graph


def test_a_short_phrase_with_an_acronym_defined_one_way_does_not_carry_that_long_form_to_other_papers():
    mentions = [plain("p1", "deep zorbive neural network"), plain("p1", "deep ZNN"), plain("p2", "deep ZNN"),
                plain("p3", "deep zorbent neural network"), plain("p3", "ZNN")]
    pairs = [("p1", "deep ZNN", "deep zorbive neural network"), ("p3", "ZNN", "zorbent neural network"),
             ("p4", "ZNN", "zorbent neural network")]
    entities, _, _ = resolve(mentions, pairs)
    carrying = [e for e in entities if "deep zorbive neural network" in (e.label, *e.aliases)]
    assert carrying and all("deep zorbent neural network" not in (e.label, *e.aliases) for e in carrying)


@pytest.mark.parametrize(("written", "labels"), [
    ("Zorbset-10/100", ["Zorbset-10", "Zorbset-100"]),  # CIFAR-10/100: two datasets, one node each
    ("QuuxNet-18/34/50", ["QuuxNet-18", "QuuxNet-34", "QuuxNet-50"]),
    ("Zorb-2-7B/13B", ["Zorb-2-7B", "Zorb-2-13B"]),
    ("QuuxNet-B/16", ["QuuxNet-B/16"]),  # a patch size, not a second version
    ("Zorb/Quux", ["Zorb/Quux"]),
])
def test_versions_joined_by_a_slash_are_one_node_each(written, labels):
    text = f"We evaluate on {written} today."
    mention = at("p1", text, written, "dataset")
    entities, links, _ = resolve([mention], papers=[Paper("p1", text)])
    assert sorted(e.label for e in entities) == sorted(labels)
    spans = [(m.start, m.end, m.text) for link in links for m in link.mentions]
    assert all(text[start:end] == part and part for start, end, part in spans) and len(spans) == len(labels)


@pytest.mark.parametrize(("written", "kept"), [
    ("accuracy", False), ("performance", False), ("error", False), ("efficiency", False),  # the guidelines' bare words
    ("top-1 accuracy", True), ("error rate", True), ("balanced accuracy", True),
])
def test_a_bare_measure_word_is_no_metric_node(written, kept):
    text = f"It reaches 95.1% {written} on Zorbset."
    entities, _, _ = resolve([at("p1", text, f"% {written}", "metric"), at("p2", text, written, "metric")],
                             papers=[Paper("p1", text), Paper("p2", text)])
    assert bool(entities) is kept


@pytest.mark.parametrize("forms", [("Amazon product reviews", "Amazon reviews"), ("Amazon Reviews", "Amazon review")])
def test_the_amazon_review_data_is_one_dataset_however_papers_write_it(forms):
    entities, _, _ = resolve([plain("p1", forms[0], "dataset"), plain("p2", forms[1], "dataset")])
    assert len(entities) == 1


@pytest.mark.parametrize(("written", "entity_type", "label"), [
    ("Zorb reviews", "dataset", "Zorb Reviews"), ("zorb Reviews", "dataset", "Zorb Reviews"),
    ("Zorb review", "dataset", "Zorb Reviews"),  # a dataset's name: the gazetteer's spelling, in any case or number
    ("zorb vectors", "method", "zorb vector"), ("Zorb Vector", "method", "zorb vector"),  # any concept the list knows
    ("zorbing", "task", "machine zorbing"),  # the list's name, not the shorter alias most papers write
])
def test_a_label_is_the_gazetteer_spelling_whatever_case_number_or_alias_papers_write(written, entity_type, label):
    from kg.graph.knowledge import build_knowledge

    gazetteer = [{"name": "Zorb Reviews", "type": "dataset"}, {"name": "zorb vector", "type": "method"},
                 {"name": "machine zorbing", "type": "task", "aliases": ["zorbing"]}]
    knowledge = build_knowledge(gazetteer, [], surface_key)
    mentions = [plain("p1", written, entity_type), plain("p2", written, entity_type)]
    assert [e.label for e in resolve(mentions, knowledge=knowledge)[0]] == [label]


@pytest.mark.parametrize(("forms", "entity_type", "labels"), [
    (("Dice similarity coefficient", "Dice score", "Dice score"), "metric", {"Dice score"}),  # one measure, two names
    (("citation network", "Cora"), "dataset", {"Cora"}),  # a kind of data, no named dataset
])
def test_the_gazetteer_joins_names_of_one_concept_and_drops_kinds_of_data(forms, entity_type, labels):
    mentions = [plain(f"p{i}", form, entity_type) for i, form in enumerate(forms)]
    entities, _, _ = resolve(mentions)
    assert {e.label for e in entities} == labels


@pytest.mark.parametrize(("right", "typo", "papers", "role", "joined"), [
    ("stochastic zorbing descent", "stochastic zorbing decent", 3, "used", True),  # a letter missing
    ("multi-zorbed bandit", "mutli-zorbed bandit", 3, "used", True),  # two letters swapped
    ("Zorbade Learning Environment", "Zoraabade Learning Environment", 3, "used", False),  # two letters extra
    ("stochastic zorbing descent", "stochastic zorbing decent", 2, "used", False),  # too rare to tell which is right
    ("stochastic zorbing descent", "stochastic zorbing decent", 3, "proposed", False),  # a paper's own name
    ("stochastic zorbing descent", "ztochastic zorbing descent", 3, "used", False),  # the first letter: another word
    ("zorb glob descent", "zorb gleb descent", 3, "used", False),  # a short word
])
def test_one_papers_typo_of_a_name_many_papers_write_joins_it(right, typo, papers, role, joined):
    found = [plain(f"p{i}", right, "method") for i in range(papers)]
    entities, _, _ = resolve([*found, replace(plain("px", typo, "method"), role=role)])
    assert (len(entities) == 1) is joined


@pytest.mark.parametrize(("right", "typo", "typo_papers", "joined"), [
    (["stochastic zorbing descent"] * 15, "stochastic zorbing decent", 3, True),  # a typo a few papers repeat
    (["stochastic zorbing descent"] * 10, "stochastic zorbing decent", 3, False),  # not rare enough beside it
    (["stochastic zorbing descent"] * 40, "stochastic zorbing decent", 4, False),  # too many papers: a name
    (["multi-zorbed bandits"] * 3 + ["multi-zorbed bandit"], "mutli-zorbed bandit", 1, True),  # any name of it
])
def test_a_typo_some_papers_repeat_joins_a_name_many_more_papers_write(right, typo, typo_papers, joined):
    found = [plain(f"p{i}", name, "task") for i, name in enumerate(right)]
    typos = [plain(f"x{i}", typo, "task") for i in range(typo_papers)]
    entities, _, _ = resolve([*found, *typos])
    assert (len(entities) == 1) is joined


@pytest.mark.parametrize(("right", "typo"), [("Zpider", "ZIDER"), ("Zorb Zpider", "Zorb ZIDER"), ("ZoCo", "ZroCo")])
def test_an_acronym_or_one_word_name_is_no_typo(right, typo):
    found = [plain(f"p{i}", right, "dataset") for i in range(3)]
    entities, _, _ = resolve([*found, plain("px", typo, "dataset")])
    assert len(entities) == 2


def test_a_typo_word_another_paper_writes_too_is_a_word():
    found = [plain(f"p{i}", "zorbing descent", "method") for i in range(3)]
    others = [plain("px", "zorbing decent", "method"), plain("py", "decent zorbs", "method")]
    entities, _, _ = resolve([*found, *others])
    assert len(entities) == 3


def at_text(paper: str, text: str, name: str, entity_type: str = "method") -> Mention:
    start = text.index(name)
    return Mention(paper, start, start + len(name), name, entity_type, name=name)


@pytest.mark.parametrize(("long", "short"), [("Truncated zorbagation backward through time", "TZBTT"), ("Zorbinel-2", "Z2")])
def test_a_long_form_one_paper_binds_to_its_acronym_is_still_the_concept_others_write(long, short):
    defining = f"We train with {long} ({short}) here. {short} is fast."
    others = [f"{long} is classic.", f"We also use {long}."]
    mentions = [at_text("p1", defining, long), at_text("p1", defining, short),
                *(at_text(f"p{i}", text, long) for i, text in enumerate(others, 2))]
    papers = [Paper("p1", defining), *(Paper(f"p{i}", text) for i, text in enumerate(others, 2))]
    entities, links, _ = resolve(mentions, [("p1", short, long)], papers=papers)
    assert len(entities) == 1 and len({link.paper_id for link in links}) == 3


def test_acronym_labels_alike_are_not_joined_by_their_label():
    from kg.graph.spellings import label_pairs

    labelled = {"a": ("method", "ZQ"), "b": ("method", "ZQ"), "c": ("method", "zorb net"), "d": ("method", "Zorb-Net"),
                "e|p1": ("method", "zorb net"), "f": ("model", "zorb net")}
    assert list(label_pairs(labelled, lambda key: "|" in key)) == [("c", "d")]


@pytest.mark.parametrize(("form", "kind_type", "base_type", "nodes"), [
    ("zorbic information method", "method", "metric", 2), ("zorbic variation distance", "metric", "method", 2),
    ("zorbic attention score", "metric", "method", 2), ("zorbic set model", "model", "dataset", 2),
    ("ZL divergence", "metric", "method", 1),  # a name some papers' extractor typed method: still the one concept
    ("zorbic information method", "method", "method", 1), ("zorbic variation distance", "metric", "metric", 1),
    ("zorbic attention mechanism", "method", "method", 1), ("zorb-attention module", "model", "method", 1),
    ("zorbic detection strategy", "method", "task", 2),  # a strategy for a task is no task
    ("Zorbian mechanism", "method", "method", 2),  # one capitalised word and a part word: a name of its own
    ("zorbic match accuracy", "metric", "metric", 1), ("zorbic success rate", "metric", "metric", 1),
    ("zorbic detection accuracy", "metric", "task", 2), ("zorbic net accuracy", "metric", "model", 2),
])
def test_a_name_and_its_kind_word_join_only_a_thing_of_that_kind(form, kind_type, base_type, nodes):
    base = form.rsplit(" ", 1)[0]
    mentions = [plain("p1", form, kind_type), *(plain(f"p{i}", base, base_type) for i in (2, 3))]
    entities, _, _ = resolve(mentions)
    assert len(entities) == nodes


def test_a_typo_of_a_gazetteer_alias_joins_its_entry():
    from kg.graph.knowledge import build_knowledge

    knowledge = build_knowledge([{"name": "Zorbari", "type": "dataset", "aliases": ["Zorcade Learning Environment"]}],
                                [], surface_key)
    mentions = [plain("p1", "Zorbari", "dataset"), plain("p3", "Zorbari", "dataset"),
                plain("p2", "Zoracade Learning Environment", "dataset")]
    entities, _, _ = resolve(mentions, knowledge=knowledge)
    assert [e.label for e in entities] == ["Zorbari"]


@pytest.mark.parametrize(("short", "joined"), [("Zonnet 4.6", True), ("Zonnet", False), ("Zorbo Zonnet 4.6", False),
                                               ("v4.6", False)])
def test_a_model_version_written_without_its_family_is_the_family_model(short, joined):
    from kg.graph.knowledge import build_knowledge

    knowledge = build_knowledge([{"name": "Zlaude", "type": "model", "aliases": []}], [], surface_key)
    mentions = [plain("p1", "Zlaude Zonnet 4.6"), plain("p2", "Zlaude Zonnet 4.6"), plain("p3", short)]
    entities, _, _ = resolve(mentions, knowledge=knowledge)
    assert (len(entities) == 1) is joined


def test_a_family_model_written_by_more_papers_is_not_a_tool_variant_of_it():
    from kg.graph.knowledge import build_knowledge

    knowledge = build_knowledge([{"name": "Zodex", "type": "model", "aliases": []}], [], surface_key)
    mentions = [plain("p1", "Zodex ZPT-5.5"), *(plain(f"p{i}", "ZPT-5.5") for i in (2, 3))]
    entities, _, _ = resolve(mentions, knowledge=knowledge)
    assert len(entities) == 2


def test_a_typo_in_the_long_form_beside_an_acronym_joins_the_name():
    found = [plain(f"p{i}", "multi-zorbed bandit", "task") for i in range(3)]
    typo = [plain("px", "Mutli-zorbed Bandit", "task"), plain("px", "MZB", "task"), plain("px", "MZB", "task")]
    entities, _, _ = resolve([*found, *typo], [("px", "MZB", "Mutli-zorbed Bandit")])
    assert len(entities) == 1


@pytest.mark.parametrize(("forms", "nodes"), [
    (("zorbic gradient algorithm", "zorbic gradient descent", "zorbic gradient"), 2),  # the estimate stays apart
    (("zorbic search algorithm", "zorbic search"), 1),
    (("zorbic gradient algorithm", "zorbic gradient method", "zorbic gradient"), 1),  # conditional gradient: no descent
])
def test_an_algorithm_named_after_the_gradient_it_computes_is_not_that_gradient(forms, nodes):
    entities, _, _ = resolve([plain(f"p{i}", form, "method") for i, form in enumerate(forms)])
    assert len(entities) == nodes


def test_a_defined_long_form_with_an_acronym_word_is_the_concept_spelled_out():
    from kg.graph.knowledge import build_knowledge

    knowledge = build_knowledge([{"name": "zorbic learning", "type": "method", "aliases": ["ZL"]},
                                 {"name": "zorbic learning with quux rewards", "type": "method", "aliases": []}],
                                [], surface_key)
    text = "We use ZL with Quux Rewards (ZLQR). ZLQR helps."
    mentions = [at_text("p1", text, "ZLQR"), at_text("p1", text.replace("(ZLQR)", "(....)"), "ZLQR"),
                plain("p2", "zorbic learning with quux rewards", "method")]
    entities, _, _ = resolve(mentions, [("p1", "ZLQR", "ZL with Quux Rewards")], knowledge=knowledge,
                             papers=[Paper("p1", text), Paper("p2", "zorbic learning with quux rewards")])
    assert len(entities) == 1


@pytest.mark.parametrize(("forms", "entity_type", "nodes"), [
    (("ZIME 2025", "ZIME25"), "dataset", 1), (("ZIME-2024", "ZIME24"), "dataset", 1),
    (("ZIME 2025", "ZIME24"), "dataset", 2),  # another year
    (("Zohen's zappa", "Zohen zappa"), "metric", 1),
])
def test_a_name_written_another_way_is_one_node(forms, entity_type, nodes):
    entities, _, _ = resolve([plain(f"p{i}", form, entity_type) for i, form in enumerate(forms)])
    assert len(entities) == nodes


def test_an_acronym_before_the_word_its_expansion_ends_with_reads_once():
    from kg.graph.knowledge import build_knowledge

    knowledge = build_knowledge([{"name": "text-to-zorb generation", "type": "task", "aliases": ["T2Z"]}], [],
                                surface_key)
    mentions = [plain("p1", "text-to-zorb generation", "task"), plain("p2", "T2Z generation", "task")]
    entities, _, _ = resolve(mentions, knowledge=knowledge)
    assert len(entities) == 1


@pytest.mark.parametrize(("forms", "label"), [
    (("zorbic attention mechanism", "zorbic attention"), "zorbic attention"),  # the name, not the name and its part
    (("zorbic success rate", "zorbic success"), "zorbic success rate"),  # a metric's fuller name
    (("zorbic fusion module", "zorbic fusion module", "zorbic fusion"), "zorbic fusion module"),  # most papers
])
def test_a_name_and_its_part_word_are_labelled_by_the_name_on_ties(forms, label):
    entity_type = "metric" if "rate" in forms[0] else "method"
    entities, _, _ = resolve([plain(f"p{i}", form, entity_type) for i, form in enumerate(forms)])
    assert [e.label for e in entities] == [label]


@pytest.mark.parametrize(("role", "label"), [("used", "zorbic data analysis"), ("proposed", "Zorbic Data Analysis")])
def test_a_descriptive_name_is_labelled_as_running_text_writes_it_unless_a_paper_coins_it(role, label):
    mentions = [replace(plain("p1", "Zorbic Data Analysis", "method"), role=role),
                plain("p2", "Zorbic Data Analysis", "method"), plain("p3", "zorbic data analysis", "method")]
    entities, _, _ = resolve(mentions)
    assert [e.label for e in entities] == [label]


@pytest.mark.parametrize(("forms", "label"), [
    (("ZOrbic Flurb exPansion", "ZOrbic Flurb exPansion", "Zorbic Flurb Expansion"), "Zorbic Flurb Expansion"),
    (("zuScenes", "zuScenes", "ZuScenes"), "zuScenes"),  # one inner capital: how the name is written
])
def test_capitals_marking_an_acronyms_letters_are_not_the_label(forms, label):
    entities, _, _ = resolve([plain(f"p{i}", form, "method") for i, form in enumerate(forms)])
    assert [e.label for e in entities] == [label]
