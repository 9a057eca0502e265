"""Frozen records that flow between the pipeline stages."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, get_args

EntityType = Literal["method", "model", "dataset", "task", "metric"]
Role = Literal["proposed", "used"]
RelationType = Literal["evaluated_on", "applied_to", "measured_by", "based_on"]

ENTITY_TYPES: tuple[str, ...] = get_args(EntityType)
ROLES: tuple[str, ...] = get_args(Role)
RELATION_TYPES: tuple[str, ...] = get_args(RelationType)
DEFAULT_BASE_IRI = "https://w3id.org/paperkg/"  # instance IRIs; the vocabulary is always DEFAULT_BASE_IRI + "vocab#"
DEFAULT_FORMATS = ("ttl", "graphml", "html")  # what kg build writes without --format


@dataclass(frozen=True, order=True)
class Source:
    """Where a paper was read: a file and a 1-based position (paragraph or line)."""

    file: str
    position: int

    def __str__(self) -> str:
        return f"{self.file}#{self.position}"


@dataclass(frozen=True)
class Paper:
    """One distinct abstract with its metadata; `abstract` is the text exactly as read."""

    id: str
    abstract: str
    sources: tuple[Source, ...] = ()
    title: str | None = None
    year: int | None = None
    venue: str | None = None
    authors: tuple[str, ...] = ()
    url: str | None = None


@dataclass(frozen=True, order=True)
class Mention:
    """A typed span of one abstract; offsets index the original abstract (end exclusive)."""

    paper_id: str
    start: int
    end: int
    text: str
    type: EntityType
    role: Role = "used"
    sentence_start: int = 0
    sentence_end: int = 0
    extractor: str = ""
    name: str = ""  # the surface form with markup removed
    score: float = 1.0


@dataclass(frozen=True, order=True)
class MentionRelation:
    """An entity-entity relation stated in one sentence of one abstract."""

    paper_id: str
    relation: RelationType
    source: Mention
    target: Mention


@dataclass(frozen=True)
class Entity:
    """One concept across the corpus: `id` like `dataset:imagenet`."""

    id: str
    type: EntityType
    label: str
    aliases: tuple[str, ...] = ()
    broader: tuple[str, ...] = ()  # ids of the entities this one is a kind of (kg.graph.broader)


@dataclass(frozen=True)
class Link:
    """A paper's link to an entity with its role and the mentions that support it."""

    paper_id: str
    entity_id: str
    role: Role
    mentions: tuple[Mention, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class Relation:
    """An entity-entity edge with the papers and sentences that state it."""

    source: str
    relation: RelationType
    target: str
    evidence: tuple[MentionRelation, ...] = ()


ResultKind = Literal["score", "change"]
RESULT_KINDS: tuple[str, ...] = get_args(ResultKind)


@dataclass(frozen=True, order=True)
class ResultMention:
    """A number an abstract reports as a result: [start, end) the number in the original abstract (`text` as
    written), its sentence, `kind`, `unit` (gold spelling), the metric as worded; the mentions it is about
    (None: not known); `proposal` when it is the paper's unnamed contribution's (subject None and proposal
    False: an unnamed baseline); `score` the model's probability that it is a result."""

    paper_id: str
    start: int
    end: int
    text: str
    kind: ResultKind
    unit: str = ""
    sentence_start: int = 0
    sentence_end: int = 0
    metric_name: str = ""
    bound: str | None = None
    setting: str | None = None
    proposal: bool = False
    subject: Mention | None = None
    metric: Mention | None = None
    dataset: Mention | None = None
    task: Mention | None = None
    against: Mention | None = None
    score: float = 1.0
    dataset_name: str | None = None  # the words naming the data when no dataset entity does ('held-out test set')
