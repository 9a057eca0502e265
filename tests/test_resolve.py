"""Resolution: one entity per concept, fullest form as label, links per paper."""
from __future__ import annotations

import pytest

from kg.graph.resolve import resolve
from kg.text.keys import normal_form
from kg.types import Mention, Paper


def mention(paper: str, text: str, entity_type: str = "model", role: str = "used") -> Mention:
    return Mention(paper, 0, len(text), text, entity_type, role, name=text)


def test_acronym_and_long_form_are_one_node():
    mentions = [mention("p1", "tiny recurrent network"), mention("p1", "TRN"), mention("p2", "TRN")]
    entities, links, _ = resolve(mentions, [("TRN", "tiny recurrent network")])
    assert len(entities) == 1 and entities[0].label == "tiny recurrent network"
    assert {link.paper_id for link in links} == {"p1", "p2"}


@pytest.mark.parametrize("forms", [
    ("Graph Neural Networks", "graph neural network", "graph-neural network"),
    ("FrobNets", "FrobNet", "frobnet"),
    ("state–space model", "state-space model", "state space models"),
])
def test_variants_are_one_node(forms):
    entities, _, _ = resolve([mention(f"p{i}", f) for i, f in enumerate(forms)])
    assert len(entities) == 1


def test_fullest_form_is_the_label():
    entities, _, _ = resolve([mention("p1", "TRN"), mention("p2", "tiny recurrent networks")],
                             [("TRN", "tiny recurrent networks")])
    assert entities[0].label == "tiny recurrent network"
    assert "TRN" in entities[0].aliases


def test_proposed_in_one_paper_only():
    _, links, _ = resolve([mention("p1", "FrobNet", role="proposed"), mention("p2", "FrobNet")])
    assert {(link.paper_id, link.role) for link in links} == {("p1", "proposed"), ("p2", "used")}


def test_different_concepts_stay_apart():
    entities, _, _ = resolve([mention("p1", "CIFAR-10", "dataset"), mention("p2", "CIFAR-100", "dataset")])
    assert len(entities) == 2


@pytest.mark.parametrize("a, b", [("LLMs", "LLM"), ("analyses", "analysis"), ("Transformers", "transformer")])
def test_normal_form_plural(a, b):
    assert normal_form(a) == normal_form(b)


@pytest.mark.parametrize("a, b", [("20Zorbs", "20ZORBS"), ("Quux3Ds", "quux3ds")])
def test_names_with_digits_keep_their_final_s(a, b):
    assert normal_form(a) == normal_form(b) and normal_form(a).endswith("s")


def test_spacing_variants_are_one_node():
    entities, _, _ = resolve([mention("p1", "back-propagation", "method"), mention("p2", "backpropagation", "method"),
                              mention("p3", "backpropagation", "method")])
    assert len(entities) == 1 and entities[0].id == "method:backpropagation"


# Issue 11 rules, each with invented names.
def labels(entities):
    return {e.label for e in entities}


@pytest.mark.parametrize("form", ["Glimmerscapes", "QuuxLens", "z-means", "QRVS", "ZOPs"])
def test_proper_names_are_not_singularised(form):
    entities, _, _ = resolve([mention("p1", form, "dataset"), mention("p2", form, "dataset")])
    assert labels(entities) == {form}


@pytest.mark.parametrize(("plural", "singular_form"), [
    ("caches", "cache"), ("KV-caches", "KV-cache"), ("niches", "niche"), ("headaches", "headache"),
    ("approaches", "approach"), ("reaches", "reach"), ("patches", "patch"), ("meshes", "mesh"), ("boxes", "box"),
    ("movies", "movie"), ("theories", "theory"), ("biases", "bias"), ("aliases", "alias"), ("lenses", "lens"),
    ("databases", "database"), ("phases", "phase"), ("processes", "process"), ("analyses", "analysis"),
])
def test_singular_never_cuts_a_word(plural, singular_form):
    from kg.text.keys import singular

    assert singular(plural) == singular_form


def test_a_plural_in_che_joins_its_singular_under_the_whole_word():
    entities, _, _ = resolve([mention("p1", "zorb caches", "method"), mention("p2", "zorb cache", "method"),
                              mention("p3", "zorb caches", "method")])
    assert labels(entities) == {"zorb cache"}


def test_lowercase_plural_is_singular_and_of_phrase_keeps_its_tail():
    entities, _, _ = resolve([mention("p1", "wobble networks"), mention("p2", "mixtures of wobblers"),
                              mention("p3", "mixture of wobblers")])
    assert labels(entities) == {"wobble network", "mixture of wobblers"}


def test_label_is_the_form_most_papers_write_and_id_follows_it():
    forms = ["FrobNet", "FrobNet", "Frobnet"]
    entities, _, _ = resolve([mention(f"p{i}", f, "dataset") for i, f in enumerate(forms)],
                             [("p9", "FrobNet", "frobbed graph retrieval network")])
    assert [(e.id, e.label) for e in entities] == [("dataset:frobnet", "FrobNet")]


def test_the_spelling_most_papers_write_wins_whatever_its_case_or_number():
    forms = ["neural net", "neural net", "neural net", "neural network", "Neural Network", "Neural networks",
             "neural networks"]  # one concept (normal_form folds "net"); "neural net" is the commonest single form
    entities, _, _ = resolve([mention(f"p{i}", f) for i, f in enumerate(forms)])
    assert [(e.id, e.label) for e in entities] == [("model:neural-network", "neural network")]


@pytest.mark.parametrize("form", ["blend-of-zorps", "blend of zorps"])
def test_the_plural_after_of_stays_in_a_label(form):
    entities, _, _ = resolve([mention("p1", form), mention("p2", form)])
    assert [e.label for e in entities] == [form]


def test_symbols_at_the_end_are_kept_and_the_proposer_is_linked_to_them():
    mentions = [mention("p1", "QuibSVRG+", "method", "proposed"), mention("p2", "QuibSVRG", "method"),
                mention("p3", "GlintNet++", "model")]
    entities, links, _ = resolve(mentions)
    assert {e.id: e.label for e in entities} == {"method:quibsvrg-plus": "QuibSVRG+", "method:quibsvrg": "QuibSVRG",
                                                 "model:glintnet-plus-plus": "GlintNet++"}
    assert ("p1", "method:quibsvrg-plus", "proposed") in {(l.paper_id, l.entity_id, l.role) for l in links}
    assert {l.entity_id for l in links} == {e.id for e in entities}  # no entity without a paper


@pytest.mark.parametrize("name, label", [
    ("glorp- ing detection", "glorping detection"), ("Zint}", "Zint"), ("Blorv&quot;anen score", "Blorvänen score"),
    ("Q_1 measure", "Q1 measure"), ("Frob&#39;s lemma", "Frob's lemma"), ("Wizzle.", "Wizzle"),
    ("Zorp- and-Glorp Network", "Zorp-and-Glorp Network"), ("pre- and post-glorping", "pre- and post-glorping")])
def test_labels_are_repaired(name, label):
    entities, _, _ = resolve([mention("p1", name)])
    assert labels(entities) == {label}


@pytest.mark.parametrize(("name", "kept"), [
    ("novel zorb detector", False), ("competitive zorb accuracy", False),  # an evaluative opener: no name
    ("novel view zorbing", True), ("novel-view zorbing", True), ("novel class zorbing", True),  # novel view synthesis
    ("competitive programming zorbs", True), ("competitive ratio", True),  # terms the adjective is part of
])
def test_an_evaluative_opener_drops_a_span_but_not_a_term_it_is_part_of(name, kept):
    entities, _, _ = resolve([mention("p1", name, "task")])
    assert bool(entities) is kept


@pytest.mark.parametrize("name", ["Zorp (ZP), and Common Glorps in Context", "ZP, IMDz), glorp classification",
                                  "Zorblat 2016", "Zorblat and Quux (2019)", "Zorblat et al. 2021",
                                  "Glorp(GL", "d^2) per zorp instead of O", "glorp, we propose zorp", "&amp;}",
                                  "https://github.com/zorb/glorp", "www.zorb.org", "github.com/zorb/glorp"])
def test_debris_is_dropped(name):
    entities, links, _ = resolve([mention("p1", name)])
    assert entities == [] and links == []


def test_short_form_defined_differently_stays_ambiguous():
    mentions = [mention("p1", "QZL"), mention("p1", "quasi zonal learning"), mention("p2", "QZL"),
                mention("p2", "quick zero labelling"), mention("p3", "QZL")]
    pairs = [("p1", "QZL", "quasi zonal learning"), ("p2", "QZL", "quick zero labelling")]
    entities, links, _ = resolve(mentions, pairs)
    node = {l.paper_id: l.entity_id for l in links}
    assert len(set(node.values())) == 3
    assert labels(entities) >= {"quasi zonal learning", "quick zero labelling"}


def test_one_agreed_definition_links_other_papers():
    pairs = [("p1", "QZL", "quasi zonal learning"), ("p2", "QZL", "quasi-zonal learning")]
    entities, links, _ = resolve([mention("p1", "QZL"), mention("p2", "quasi zonal learning"), mention("p3", "QZLs")],
                                 pairs)
    assert len(entities) == 1 and {l.paper_id for l in links} == {"p1", "p2", "p3"}


@pytest.mark.parametrize("a, b", [("zAP", "ZAP"), ("SFL", "semi-frobbed learning"), ("QRT", "quasi reflexive tensor")])
def test_no_merge_by_lower_casing_or_without_a_definition(a, b):
    entities, _, _ = resolve([mention("p1", a), mention("p2", b)], [("p3", "QRT", "quick random tiling")])
    assert len(entities) == 2


def test_a_lowercase_spelling_joins_its_acronym_only_when_one_acronym_is_spelled_so():
    one, _, _ = resolve([mention("p1", "QRT"), mention("p2", "qrt")])
    two, _, _ = resolve([mention("p1", "zAP"), mention("p2", "ZAP"), mention("p3", "zap", "task")])
    assert len(one) == 1 and len(two) == 3  # (as a model, the word `zap` would name nothing: see below)


@pytest.mark.parametrize(("acronym", "word"), [("ZORB", "zorb"), ("ZORB", "zorbs"), ("ZORB", "Zorb"), ("QRT", "qrt")])
def test_an_all_capital_name_never_takes_the_ordinary_lower_case_word(acronym, word):
    _, links, _ = resolve([mention("p1", acronym), mention("p2", acronym), mention("p3", word)])
    joined = len({link.entity_id for link in links if link.paper_id in ("p1", "p3")}) == 1 and len(links) == 3
    assert joined is (word != word.lower() or word == "qrt")  # `Zorb` capitalised joins; `qrt` reads as no word


@pytest.mark.parametrize(("sentence", "kept"), [
    ("We built A Unified Zorb-based Search Engine.", False),  # a title's capital: the word `zorb`
    ("We fine-tune Zorb on the data.", True),  # a capital inside running text: a name (Phi beside PHI)
])
def test_a_capitalised_word_spelled_like_an_acronym_is_the_word_only_where_its_capital_says_nothing(sentence, kept):
    papers = [Paper("p1", "We use ZORB."), Paper("p2", "ZORB helps."), Paper("p3", "A zorb."), Paper("p5", sentence)]
    mentions = []
    for paper, name in zip(papers, ("ZORB", "ZORB", "zorb", "Zorb")):
        start = paper.abstract.index(name)
        mentions.append(Mention(paper.id, start, start + len(name), name, "model", name=name))
    _, links, _ = resolve(mentions, papers=papers)
    assert any(link.paper_id == "p5" for link in links) is kept


@pytest.mark.parametrize(("lower_papers", "kept"), [(2, False), (1, True)])
def test_a_capitalised_word_is_the_word_where_most_papers_write_it_in_lower_case(lower_papers, kept):
    papers = [Paper("p1", "We use ZORB."), Paper("p2", "ZORB helps."), Paper("p3", "On zorb tasks."),
              Paper("p4", "On zorb and code."), Paper("p5", "Two families, Zorb and General domains.")]
    chosen = papers[:2 + lower_papers] + papers[4:]
    mentions = []
    for paper, name in zip(chosen, ("ZORB", "ZORB", "zorb", "zorb")[:2 + lower_papers] + ("Zorb",)):
        start = paper.abstract.index(name)
        mentions.append(Mention(paper.id, start, start + len(name), name, "dataset", name=name))
    _, links, _ = resolve(mentions, papers=papers)
    assert any(link.paper_id == "p5" for link in links) is kept  # one lower-case paper of two: a name, as written


@pytest.mark.parametrize(("entity_type", "kept"), [("model", False), ("dataset", False), ("task", True)])
def test_an_ordinary_word_kept_apart_from_an_acronym_names_no_model_or_dataset(entity_type, kept):
    entities, links, _ = resolve([mention("p1", "ZORB"), mention("p2", "ZORB"), mention("p3", "zorbs", entity_type),
                                  mention("p4", "zorb", entity_type)])
    words = [link for link in links if link.paper_id in ("p3", "p4")]
    assert [e.label for e in entities if e.label == "ZORB"] == ["ZORB"] and bool(words) is kept


@pytest.mark.parametrize(("other", "expected"), [
    ((), [("ZORB", "ZoRB", "ZoRBs", "ZoRb")]),  # another case: a spelling of the name
    (("ZoRb",), [("ZORB", "ZoRB", "ZoRBs"), ("ZoRb",)]),  # a form the gazetteer knows names something else
])
def test_a_name_written_in_another_case_is_the_name_unless_known_as_another(other, expected):
    from kg.graph.knowledge import build_knowledge
    from kg.text.keys import surface_key

    gazetteer = build_knowledge([{"name": "ZoRB", "type": "method", "aliases": [], "other": list(other)}], [],
                                surface_key)
    entities, _, _ = resolve([mention("p1", "ZoRB"), mention("p2", "ZoRBs"), mention("p3", "ZoRb"),
                              mention("p4", "ZORB")], knowledge=gazetteer)
    assert sorted(tuple(sorted((e.label, *e.aliases))) for e in entities) == expected


@pytest.mark.parametrize(("written", "definition", "joined"), [
    ("ZoRB", None, True), ("ZORB", None, True),  # an acronym written in another case: the known name (MIoU, mIoU)
    ("ZoRB", "zonal robust baseline", False),  # unless its paper defines it as something else
])
def test_an_acronym_in_another_case_folds_to_the_known_name(written, definition, joined):
    from kg.graph.knowledge import build_knowledge
    from kg.text.keys import surface_key

    gazetteer = build_knowledge([{"name": "zoRB", "type": "metric", "aliases": []}], [], surface_key)
    pairs = [("p2", written, definition)] if definition else []
    entities, _, _ = resolve([mention("p1", "zoRB"), mention("p2", written)], pairs, knowledge=gazetteer)
    assert (len(entities) == 1) is joined


def test_implausible_definition_is_ignored():
    entities, _, _ = resolve([mention("p1", "Glimnet"), mention("p2", "Glimnet")],
                             [("p1", "SRZC", "sparse coding"), ("p1", "Glimnet", "glass interval modelling on XRT2019")])
    assert labels(entities) == {"Glimnet"}


@pytest.mark.parametrize("forms, entity_type", [
    (("Florp dataset", "Florp", "Florp benchmark"), "dataset"), (("ZBL algorithm", "ZBL"), "method"),
    (("Zorpformer model", "Zorpformer"), "model"), (("zorpy algorithm", "zorpy methods"), "method"),
    (("Florp distances", "Florp divergence"), "metric"), (("Zorbworld games", "Zorbworld", "Zorbworld environments"), "dataset"),
    (("Zorbnet-2 backbone", "Zorbnet-2"), "model"), (("ZorA adaptation", "ZorA", "ZorA fine-tuning"), "method")])
def test_a_name_and_its_kind_word_merge(forms, entity_type):
    entities, _, _ = resolve([mention(f"p{i}", f, entity_type) for i, f in enumerate(forms)])
    assert len(entities) == 1


@pytest.mark.parametrize("forms, entity_type, label", [
    (("Zorbworld games", "Zorbworld games", "Zorbworld"), "dataset", "Zorbworld"),
    (("Florp corpus", "Florp corpus", "Florp"), "dataset", "Florp"),
    (("Zorbnet-2 backbone", "Zorbnet-2 backbone", "Zorbnet-2"), "model", "Zorbnet-2"),
    (("Blorp model", "Blorp model", "Blorp"), "model", "Blorp model"),  # a model's name may end in `model`
    (("ZBL algorithm", "ZBL algorithm", "ZBL"), "method", "ZBL algorithm")])
def test_a_name_beats_itself_followed_by_a_data_or_proper_kind_word(forms, entity_type, label):
    entities, _, _ = resolve([mention(f"p{i}", f, entity_type) for i, f in enumerate(forms)])
    assert [e.label for e in entities] == [label]


@pytest.mark.parametrize("forms", [("zorpy model", "zorpy"), ("zorp field games", "zorp field"),
                                   ("zorpy encoder", "zorpy model")])
def test_a_lower_case_name_does_not_merge_with_itself_and_a_kind_word(forms):
    entities, _, _ = resolve([mention(f"p{i}", f) for i, f in enumerate(forms)])
    assert len(entities) == 2


def test_a_kind_word_does_not_merge_across_types():
    entities, _, _ = resolve([mention("p1", "Zorpnet", "model"), mention("p2", "Zorpnet score", "metric")])
    assert len(entities) == 2


@pytest.mark.parametrize("forms", [
    ("Blarg score", "Blarg"),
    ("mean squared glorp", "mean square glorp"), ("Zarnov-Quell divergence", "ZQ divergence"),
    ("Fréchet Zorp Distance", "Frechet Zorp Distance"), ("zorp neural nets", "zorp neural network"),
    ("Q_1", "Q1"), ("Glorp-R-CNN", "Glorp-RCNN"), ("zorp neighbour search", "zorp neighbor search"),
    ("rates of zorping", "zorping rate"), ("Zorp of Blarg", "Blarg Zorp"),
])
def test_variants_of_one_concept_merge(forms):
    mentions = [mention(f"p{i}", f, "metric") for i, f in enumerate(forms)]
    entities, _, _ = resolve(mentions, [("p9", "ZQ", "Zarnov-Quell")])
    assert len(entities) == 1


def test_a_counted_of_phrase_is_not_inverted():
    entities, _, _ = resolve([mention("p1", "number of zorps", "metric"), mention("p2", "zorps number", "metric")])
    assert len(entities) == 2


def test_generic_terms_are_not_entities():
    from kg.text.keys import surface_key
    from kg.graph.knowledge import build_knowledge

    knowledge = build_knowledge([], [{"name": "widget science", "aliases": ["WS"]}], surface_key)
    mentions = [mention("p1", "widget science", "method"), mention("p2", "WS"), mention("p3", "WS"),
                mention("p3", "wobble sampling"), mention("p1", "glorp net")]
    entities, links, _ = resolve(mentions, [("p3", "WS", "wobble sampling")], knowledge=knowledge)
    assert labels(entities) == {"wobble sampling", "glorp net"}
    assert {(l.paper_id, l.entity_id) for l in links} == {  # p2's WS, of its type: the corpus's one definition
        ("p1", "model:glorp-net"), ("p2", "model:wobble-sampling"), ("p3", "model:wobble-sampling")}


def test_knowledge_from_an_iterator_equals_knowledge_from_a_list():
    """Bug: build_knowledge read the gazetteer twice, so an iterator left the canonical names (known_alike) empty."""
    from kg.graph.knowledge import build_knowledge
    from kg.text.keys import surface_key

    entries = [{"name": "area under the curve", "type": "metric", "aliases": ["AUC"]},
               {"name": "Zorb corpus", "type": "dataset", "aliases": []}]
    from_list = build_knowledge(entries, [], surface_key)
    assert from_list.names and build_knowledge(iter(entries), iter([]), surface_key) == from_list


def test_generic_policy_is_documented_data():
    from kg.graph.knowledge import default_knowledge
    from kg.ontology.data import CATEGORIES, generic_entries
    from kg.text.keys import surface_key

    rows = generic_entries()
    assert all(r["reason"] and r["category"] in CATEGORIES for r in rows)
    assert {"machine learning", "NP-hard", "learning rate", "PyTorch"} <= {r["name"] for r in rows}
    entities, _, _ = resolve([mention("p1", "Machine Learning", "method"), mention("p2", "NP-hard", "method"),
                              mention("p3", "TensorFlow", "method")])
    assert entities == [] and surface_key("deep learning") in default_knowledge(surface_key).generic


@pytest.mark.parametrize("roles", [("used", "proposed"), ("proposed", "used"), ("used", "proposed", "used")])
def test_a_link_is_proposed_if_any_mention_in_that_paper_is(roles):
    _, links, _ = resolve([mention("p1", "FrobNet", role=role) for role in roles] + [mention("p2", "FrobNet")])
    assert {(link.paper_id, link.role, len(link.mentions)) for link in links} == {
        ("p1", "proposed", len(roles)), ("p2", "used", 1)}


@pytest.mark.parametrize("name", ["Glorp Under", "zorp of", "“Wizzle”", "novel zorp framework"])
def test_fragments_and_quotes(name):
    entities, _, _ = resolve([mention("p1", name)])
    assert all(e.label in ("Wizzle",) for e in entities)


def test_a_metric_named_by_a_thing_takes_another_type():
    entities, _, _ = resolve([mention("p1", "zorpic linear unit", "metric"), mention("p2", "zorp error", "metric")])
    assert {(e.label, e.type) for e in entities} == {("zorpic linear unit", "method"), ("zorp error", "metric")}


@pytest.mark.parametrize("name, expected", [("k-shot zorp learning", "task"), ("glimmer question answering", "task"),
                                            ("Zorp Question Answering", "dataset"), ("zorp corpus", "dataset")])
def test_a_dataset_in_lower_case_named_by_a_process_is_a_task(name, expected):
    entities, _, _ = resolve([mention("p1", name, "dataset"), mention("p2", name, "dataset")])
    assert [(e.label, e.type) for e in entities] == [(name, expected)]


def test_corpus_and_gazetteer_readings_of_an_acronym_merge_only_when_they_spell_alike():
    from kg.text.keys import surface_key
    from kg.graph.knowledge import build_knowledge

    gazetteer = [{"name": "zonal area under the glorp curve", "aliases": ["ZAG"]},
                 {"name": "exact wobble", "aliases": ["EW"]}]
    knowledge = build_knowledge(gazetteer, [], surface_key)
    mentions = [mention("p1", "ZAG"), mention("p2", "zonal area under glorp"), mention("p3", "zonal area under the glorp curve"),
                mention("p4", "EW"), mention("p5", "expected warping"), mention("p6", "exact wobble")]
    pairs = [("p1", "ZAG", "zonal area under glorp"), ("p4", "EW", "expected warping")]
    entities, _, _ = resolve(mentions, pairs, knowledge=knowledge)
    assert len(entities) == 3 and "exact wobble" in labels(entities) and "expected warping" in labels(entities)


def test_an_acronym_label_gives_way_to_its_defined_long_form_even_if_never_written_as_a_mention():
    mentions = [mention(f"p{i}", "QZP", "method") for i in range(3)] + [mention("p4", "Quasi-Zonal-Pooling", "method")]
    pairs = [("p1", "QZP", "quasi zonal pooling"), ("p2", "QZP", "quasi zonal pooling")]
    entities, _, _ = resolve(mentions, pairs)
    assert labels(entities) == {"quasi zonal pooling"}


def test_expansions_of_one_acronym_with_different_types_stay_apart():
    mentions = [mention("p1", "ZM", "model"), mention("p1", "zorp model", "model"),
                mention("p2", "ZM", "task"), mention("p2", "zorp modeling", "task")]
    entities, _, _ = resolve(mentions, [("p1", "ZM", "zorp model"), ("p2", "ZM", "zorp modeling")])
    assert labels(entities) == {"zorp model", "zorp modeling"}


def test_a_definition_written_with_markup_debris_defines_the_repaired_name():
    mentions = [mention("p1", "Zorv&#39;asz scan statistic", "method"), mention("p1", "ZSS", "method")]
    entities, _, _ = resolve(mentions, [("p1", "ZSS", "Zorv\\&#39;asz scan statistic")])
    assert [(e.label, e.aliases) for e in entities] == [("Zorvász scan statistic", ("ZSS",))]


@pytest.mark.parametrize("name, alias, same", [
    ("text-to-zorp generation", "T2Z", True),  # the 2 reads "to"
    ("ZorbNet", "ZorbNet-50", False), ("Zorb", "Zorb3", False),  # versions extend the name
    ("zorb for blips", "Z4B", False), ("glimmer network", "GN", True),
])
def test_a_gazetteer_alias_is_a_synonym_unless_it_extends_the_name(name, alias, same):
    from kg.text.keys import surface_key
    from kg.graph.knowledge import synonym

    assert synonym(name, alias, surface_key) is same


def test_a_coined_name_takes_its_spelled_out_form_only_where_a_paper_defines_it():
    mentions = [mention("p1", "medical zorb question answering", "task"), mention("p1", "MedZorbQA", "dataset"),
                mention("p2", "medical zorb question answering", "task"), mention("p3", "medical zorb question answering", "task"),
                mention("p4", "MedZorbQA", "dataset")]
    entities, links, _ = resolve(mentions, [("p1", "MedZorbQA", "medical zorb question answering")])
    of = {(link.paper_id, len(link.mentions)): link.entity_id for link in links}
    assert len(entities) == 2 and of[("p1", 2)] == of[("p4", 1)] != of[("p2", 1)] == of[("p3", 1)]


@pytest.mark.parametrize(("one", "other", "alike"), [
    ("multimodal large language model", "multilingual large language model", False),
    ("large reasoning model", "large reconstruction model", False), ("semi-supervised learning", "self-supervised learning", False),
    ("convolutional neural network", "convolution neural net", True), ("area under the ROC curve", "area under ROC", True),
    ("zorb optimisation", "zorb optimization", True),
])
def test_expansions_read_alike_only_when_their_words_do(one, other, alike):
    from kg.graph.acronyms import same_meaning

    assert same_meaning(one, other) is alike


def test_an_acronym_defined_two_ways_that_share_first_letters_stays_two_concepts():
    mentions = [mention(f"p{i}", "MZLM") for i in range(6)]
    pairs = [("p0", "MZLM", "multimodal zorb language model"), ("p1", "MZLM", "multimodal zorb language model"),
             ("p2", "MZLM", "multilingual zorb language model")]
    _, links, _ = resolve(mentions, pairs)
    of = {link.paper_id: link.entity_id for link in links}
    assert of["p0"] == of["p1"] != of["p2"]


@pytest.mark.parametrize(("abstract", "short", "long"), [
    ("We propose ZADE (Zonal Adaptive Debias Ensemble) for fairness.", "ZADE", "Zonal Adaptive Debias Ensemble"),
    ("Bone density from dual-energy Zorb-ray absorptiometry (DZA) scans.", "DZA", "dual-energy Zorb-ray absorptiometry"),
])
def test_a_definition_between_two_mentions_binds_them_in_its_paper(abstract, short, long):
    from kg.types import Paper

    def at(paper, text, entity_type):
        start = abstract.index(text)
        return Mention(paper, start, start + len(text), text, entity_type, name=text)

    mentions = [at("p1", short, "method"), at("p1", long, "dataset"), at("p1", long, "dataset")]
    entities, links, _ = resolve(mentions, papers=[Paper("p1", abstract)])
    assert len(entities) == 1 and len(links) == 1
    assert {short, long} == {entities[0].label, *entities[0].aliases}


@pytest.mark.parametrize(("abstract", "first", "second"), [
    ("We train ZorbNet (a CNN) on images.", "ZorbNet", "CNN"), ("We use QRT (Zorb et al.) here.", "QRT", "Zorb et al."),
])
def test_a_bracket_that_does_not_spell_the_name_out_binds_nothing(abstract, first, second):
    from kg.types import Paper

    mentions = [Mention("p1", abstract.index(t), abstract.index(t) + len(t), t, "model", name=t) for t in (first, second)]
    entities, _, _ = resolve(mentions, papers=[Paper("p1", abstract)])
    assert len(entities) == 2


@pytest.mark.parametrize(("forms", "nodes"), [
    (("Zorb-Entropy", "Zorb-Entropy Games"), 2),  # a data word joins only a dataset: a method's name + games is not it
    (("domain zorbing adaptation", "domain zorbing fine-tuning"), 2),  # adaptation is no fine-tuning
    (("domain zorbing algorithm", "domain zorbing method"), 1),
])
def test_a_kind_word_joins_only_a_name_of_its_kind(forms, nodes):
    entities, _, _ = resolve([mention("p1", forms[0], "method"), mention("p2", forms[0], "method"),
                              mention("p3", forms[1], "method")])
    assert len(entities) == nodes


def test_a_leading_modifier_is_not_the_one_word_more_of_an_expansion():
    from kg.graph.acronyms import same_meaning

    assert not same_meaning("zorb vision-language model", "vision-language model")
    assert same_meaning("area under ROC", "area under the ROC curve")


# Issue 30: capital names hyphenated in different places are different names (invented names).
@pytest.mark.parametrize(("form", "hyphenated"), [
    ("QR-ABC", "QR-ABC"), ("QR–ABCs", "QR-ABC"), ("QR - ABC", "QR-ABC"), ("Q-R-ABC", "Q-R-ABC"),
    ("3Q-RABC", "3Q-RABC"),
    ("QRABC", None), ("qr-abc", None), ("Qr-ABC", None), ("QRABC-10", None), ("Zo-QRABC", None), ("QR-", None),
])
def test_a_hyphenation_is_an_all_capital_form_with_capitals_either_side_of_each_hyphen(form, hyphenated):
    from kg.graph.hyphens import hyphenation

    assert hyphenation(form) == hyphenated


def hyphen_gazetteer():
    from kg.graph.knowledge import build_knowledge
    from kg.text.keys import surface_key

    return build_knowledge([{"name": "QR-ABC", "type": "method", "aliases": []}], [], surface_key)


@pytest.mark.parametrize(("written", "joined"), [
    ("Q-RABC", False), ("QRA-BC", False), ("Q-R-ABC", False),  # hyphens elsewhere than the gazetteer's: another name
    ("QR-ABC", True), ("QR–ABCs", True), ("QR - ABC", True),  # the gazetteer's hyphenation: dash, plural, spacing
    ("QRABC", True), ("qr-abc", True), ("Qr-Abc", True),  # no hyphen between capitals: the gazetteer's name, as before
])
def test_a_capital_name_hyphenated_elsewhere_than_the_gazetteer_name_is_another_name(written, joined):
    entities, _, _ = resolve([mention("p1", written, "method"), mention("p2", written, "method")],
                             knowledge=hyphen_gazetteer())
    assert len(entities) == 1 and (entities[0].label == "QR-ABC") is joined


@pytest.mark.parametrize("forms", [
    ("QR-ABC", "QR-ABC", "Q-RABC", "QRABC"),  # a minority's hyphenation apart; unhyphenated, the most papers' one
    ("Q-RABC", "QR-ABC", "QR-ABC", "QRABC"),
])
def test_capital_names_papers_hyphenate_in_different_places_are_different_names(forms):
    _, links, _ = resolve([mention(f"p{i}", form, "method") for i, form in enumerate(forms)])
    of = {link.paper_id: link.entity_id for link in links}
    apart = f"p{forms.index('Q-RABC')}"
    assert len(set(of.values())) == 2 and of[apart] == "method:q-rabc" and of["p3"] == "method:qr-abc"


@pytest.mark.parametrize("forms", [("QR-ABC", "QR–ABCs", "qr-abc", "QRABC"), ("Q-RABC", "Q-RABC", "q-rabc")])
def test_one_hyphenation_in_other_dashes_cases_or_none_is_one_name(forms):
    entities, _, _ = resolve([mention(f"p{i}", form, "method") for i, form in enumerate(forms)])
    assert len(entities) == 1


@pytest.mark.parametrize("detected", [True, False])
def test_a_paper_defining_a_name_hyphenated_elsewhere_than_the_gazetteer_name_keeps_its_own_node(detected):
    abstract = "We study quantile RABC (Q-RABC) for sampling. Q-RABC converges fast."

    def at(text, start=0):
        begin = abstract.index(text, start)
        return Mention("p1", begin, begin + len(text), text, "method", name=text)

    mentions = [at("quantile RABC"), at("Q-RABC"), at("Q-RABC", abstract.index("sampling")), mention("p2", "QR-ABC")]
    pairs = [("p1", "Q-RABC", "quantile RABC")] if detected else []
    entities, links, _ = resolve(mentions, pairs, knowledge=hyphen_gazetteer(),
                                 papers=[Paper("p1", abstract), Paper("p2", "We use QR-ABC.")])
    own = [e for e in entities if "Q-RABC" in (e.label, *e.aliases)]
    assert len(entities) == 2 and len(own) == 1 and "QR-ABC" not in (own[0].label, *own[0].aliases)
    assert {link.paper_id for link in links if link.entity_id == own[0].id} == {"p1"}


# A reading only one abstract gives an acronym binds its bare uses elsewhere only where the paper's own words support
# it (the long form written, or mentions of the reading's type); two distinct defining abstracts bind it everywhere.
LATTICE = "We introduce the Zorvic Photon Lattice (ZPL), a sensing method for dim scenes."


def written_at(paper: str, abstract: str, text: str, entity_type: str = "method") -> Mention:
    start = abstract.index(text)
    return Mention(paper, start, start + len(text), text, entity_type, name=text)


def bare_zpl_links(abstract: str, bare_type: str, definer_type: str = "method", knowledge=None,
                   second: str | None = None) -> tuple[dict[str, str], list]:
    """p1 (and `second`, p3, if given) define ZPL as the Zorvic Photon Lattice; p2 writes `abstract`, ZPL bare."""
    papers = [Paper("p1", LATTICE), Paper("p2", abstract), *([Paper("p3", second)] if second else [])]
    mentions = [written_at(p.id, p.abstract, name, definer_type) for p in papers if p.id != "p2"
                for name in ("Zorvic Photon Lattice", "ZPL")] + [written_at("p2", abstract, "ZPL", bare_type)]
    pairs = [(p.id, "ZPL", "Zorvic Photon Lattice") for p in papers if p.id != "p2"]
    entities, links, _ = resolve(mentions, pairs, knowledge=knowledge, papers=papers)
    return {link.paper_id: link.entity_id for link in links}, entities


@pytest.mark.parametrize(("definer_type", "abstract", "bare_type", "joined"), [
    ("method", "Our agent reaches 52.5% ZPL on the unseen split.", "metric", False),  # another thing: its own node
    ("method", "We evaluate on ZPL and two other corpora.", "dataset", False),
    ("method", "We extend ZPL to moving scenes.", "method", True),  # a follow-up using the method: one node
    ("method", "Unlike a Zorvic Photon Lattice, ZPL variants fail here.", "dataset", True),  # writes the long form
    ("metric", "Our agent reaches 52.5% ZPL on the unseen split.", "dataset", True),  # written as a measure
    ("metric", "We evaluate on ZPL and two other corpora.", "dataset", False),
])
def test_a_reading_one_abstract_gives_binds_a_bare_acronym_where_the_paper_supports_it(definer_type, abstract,
                                                                                       bare_type, joined):
    of, _ = bare_zpl_links(abstract, bare_type, definer_type)
    assert (of["p2"] == of["p1"]) is joined


@pytest.mark.parametrize(("second", "joined"), [
    ("Zorvic Photon Lattice (ZPL) sensors see in the dark.", True),  # two defining abstracts agree
    (LATTICE, False),  # the same abstract twice is one defining abstract
])
def test_two_distinct_defining_abstracts_bind_a_bare_acronym_of_any_type(second, joined):
    of, _ = bare_zpl_links("Our agent reaches 52.5% ZPL on the unseen split.", "metric", second=second)
    assert (of["p2"] == of["p1"] == of["p3"]) is joined


@pytest.mark.parametrize(("entry", "reading", "joined"), [
    ({"name": "zeta path length", "type": "metric", "aliases": ["ZPL"]}, "zeta path length", False),  # another name
    ({"name": "ZPL", "type": "method"}, "Zorvic Photon Lattice", True),  # the gazetteer names the acronym itself
    # ... and spells it out otherwise: the known ZPL, the defining paper's its own
    ({"name": "ZPL", "type": "method", "aliases": ["Zeta Path Ledger"]}, "ZPL", False),
    ({"name": "ZPL", "type": "method", "aliases": ["Zorvic Photonic Lattice"]}, "Zorvic Photon Lattice", True),  # alike
    ({"name": "ZPL", "type": "method", "aliases": ["Quux Engine"]}, "Zorvic Photon Lattice", True),  # spells no alias
])
def test_a_bare_acronym_the_gazetteer_spells_out_otherwise_keeps_the_gazetteer_reading(entry, reading, joined):
    from kg.graph.knowledge import build_knowledge
    from kg.text.keys import surface_key

    knowledge = build_knowledge([entry], [], surface_key)
    of, entities = bare_zpl_links("We extend ZPL to moving scenes.", "method", knowledge=knowledge)
    labels = {e.id: {e.label, *e.aliases} for e in entities}
    assert any(reading.lower() == form.lower() for form in labels[of["p2"]])
    assert (of["p2"] == of["p1"]) is joined


@pytest.mark.parametrize(("extra", "known", "joined"), [
    ("flurbing", True, False),  # `quux-of-zorb (QOZ) flurbing`, a known task: the modifier alone is not it
    ("flurbing", False, True),  # neither known: two expansions that read alike stay one concept
])
def test_an_expansion_a_known_name_extends_by_a_word_is_not_that_name(extra, known, joined):
    from kg.graph.knowledge import build_knowledge
    from kg.text.keys import surface_key

    entries = [{"name": f"quux-of-zorb {extra}", "type": "task", "aliases": []}] if known else []
    gazetteer = build_knowledge(entries, [], surface_key)
    mentions = [mention(p, text, "task") for p, text in (("p1", "quux-of-zorb"), ("p2", "QOZ"), ("p3", "QOZ"),
                                                          ("p4", f"quux-of-zorb {extra}"), ("p5", "QOZ"))]
    pairs = [("p1", "QOZ", "quux-of-zorb"), ("p2", "QOZ", "quux-of-zorb"), ("p3", "QOZ", "quux-of-zorb"),
             ("p4", "QOZ", f"quux-of-zorb {extra}"), ("p5", "QOZ", "quux-of-zorb")]
    entities, _, _ = resolve(mentions, pairs, knowledge=gazetteer)
    assert (len(entities) == 1) is joined


@pytest.mark.parametrize(("names", "nodes"), [
    (("artificial neural networks", "neural network"), 1),  # `artificial` adds nothing
    (("artificial recurrent neural network", "recurrent neural network"), 1),
    (("artificial intelligence model", "intelligence model"), 2),  # only before a neural network
    (("Shannon entropy", "entropy"), 1),
    (("Shannon capacity", "capacity"), 2),
])
def test_a_modifier_that_adds_nothing_joins_the_name(names, nodes):
    kind = "metric" if "entropy" in names[1] or "capacity" in names[1] else "model"
    entities, _, _ = resolve([mention(f"p{i}", name, kind) for i, name in enumerate(names)])
    assert len(entities) == nodes


@pytest.mark.parametrize(("third", "label"), [
    ("We define Zorbic Flux Estimation (ZFE) here.", "zorbic flux estimation"),  # its capital only opens sentences
    ("We study Zorbic flux estimation here.", "Zorbic flux estimation"),  # written so inside a sentence: a name
    ("A Zorbic prior helps.", "Zorbic flux estimation"),  # `Zorbic` is a proper word: written so beside lower case
])
def test_a_capital_that_only_opens_sentences_is_not_the_label(third, label):
    papers = [Paper("p1", "Zorbic flux estimation is hard."), Paper("p2", "Zorbic flux estimation matters."),
              Paper("p3", third)]
    mentions = []
    for paper in papers:
        for name in ("Zorbic flux estimation", "Zorbic Flux Estimation", "Zorbic prior", "zorbic flux estimation"):
            if (start := paper.abstract.find(name)) >= 0:
                mentions.append(Mention(paper.id, start, start + len(name), name, "task", name=name))
    entities, _, _ = resolve(mentions, papers=papers)
    assert label in labels(entities)


@pytest.mark.parametrize(("written", "cut", "whole", "joins"), [
    ("We use Zorb-4o mini here.", "Zorb-4o", "Zorb-4o-mini", "p2"),  # cut short of its size word: the whole name's
    ("We use Quux~3 here.", "Quux", "Quux 3", "p2"),  # of its version, after LaTeX's tie
    ("Quux 3 times faster.", "Quux", "Quux 9", "p3"),  # a number no name of the corpus ends with: as cut
])
def test_a_model_name_cut_short_of_its_version_joins_the_whole_name_the_corpus_writes(written, cut, whole, joins):
    papers = [Paper("p1", written), Paper("p2", f"{whole} is small."), Paper("p3", f"We use {cut} too.")]
    mentions = [Mention(p.id, p.abstract.index(name), p.abstract.index(name) + len(name), name, "model", name=name)
                for p, name in zip(papers, (cut, whole, cut))]
    _, links, _ = resolve(mentions, papers=papers)
    node = {link.paper_id: link.entity_id for link in links}
    assert node["p1"] == node[joins] and node["p2"] != node["p3"]
