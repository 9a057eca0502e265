"""The fine-tuned transformer encoder (all-MiniLM-L6-v2, pinned) with a span head: the default extractor.
Run time is onnxruntime + tokenizers + numpy (pieces.py, model.py, component.py; pairs.py, relation_head.py, relations.py: the relation head); training and the ONNX export
need torch (the `[train]` extra: training.py, export.py, fine_tune.py) and are imported only by `kg train`."""
from kg.extractors.encoder import component, relations  # noqa: F401  (register the `encoder` combiner and relator)
