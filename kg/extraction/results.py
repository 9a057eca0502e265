"""Results as the extraction step finds them (clean-text offsets, candidate mentions), mapped to the abstract."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from kg.types import Mention, ResultKind, ResultMention

if TYPE_CHECKING:  # interface.py imports this module (extract_paper): no cycle at run time
    from kg.extraction.interface import Candidate


@dataclass(frozen=True)
class CandidateResult:
    """A number read as a result: [start, end) the digits in the clean text, the fields the results step read
    (see kg.types.ResultMention); the mentions are the paper's combined candidates."""

    start: int
    end: int
    kind: ResultKind
    unit: str = ""
    metric_name: str = ""
    bound: str | None = None
    setting: str | None = None
    proposal: bool = False
    subject: Candidate | None = None
    metric: Candidate | None = None
    dataset: Candidate | None = None
    task: Candidate | None = None
    against: Candidate | None = None
    score: float = 1.0
    dataset_name: str | None = None  # the words naming the data when no dataset entity does


def to_result(found: CandidateResult, number: Mention, mention_of: Callable[[Candidate], Mention | None]
              ) -> ResultMention:
    """The ResultMention of a candidate result, given the number's span as a Mention (offsets, sentence) and
    the mapping of the paper's candidates to their mentions (a candidate the step dropped: None)."""
    def side(candidate: Candidate | None) -> Mention | None:
        return mention_of(candidate) if candidate is not None else None

    return ResultMention(
        number.paper_id, number.start, number.end, number.text, found.kind, found.unit, number.sentence_start,
        number.sentence_end, found.metric_name, found.bound, found.setting, found.proposal, side(found.subject),
        side(found.metric), side(found.dataset), side(found.task), side(found.against), round(found.score, 4),
        found.dataset_name)
