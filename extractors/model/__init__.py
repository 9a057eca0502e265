"""The trained linear span model: candidate spans -> features -> linear layers -> decoding -> the combiner
component; its weights file, and training and cross-validation (`kg train`, `kg eval --cv`)."""
from kg.extractors.model import component  # noqa: F401  (registers the `span_model` combiner)
