"""Values a measure can take as a score (pure, shared by extraction and the graph): a bounded measure (accuracy, F1) is
never above 100%, an error rate never negative; a change of them may be either. `kg lint` flags such scores, the
leaderboards never rank them, and the results step reads such a value as a change."""
from __future__ import annotations

import re
from decimal import Decimal

PERCENT_BOUNDED = ("accuracy", "precision", "recall", "f1", "success rate", "error rate", "auc", "miou", "iou",
                   "dice", "top-1", "top-5", "exact match", "win rate", "pass@1")
# Measures that cannot be negative as scores (general knowledge); a change of them may be.
NON_NEGATIVE = PERCENT_BOUNDED + ("error", "fid", "perplexity", "latency", "runtime", "wer", "cer", "mse", "rmse",
                                  "mae", "psnr", "bleu", "rouge", "time", "memory", "cost")
# Words that make a measure a ratio to a reference (relative accuracy, normalised score): it may exceed 100%.
RELATIVE = ("relative", "normalized", "normalised", "ratio", "retention", "retained", "recovery", "recovered")


def metric_pattern(names: tuple[str, ...]) -> str:
    """A regex finding any of `names` in a lower-cased metric as whole words, a variant's suffix allowed (as
    `kg.text.directions.contains`), written without lookaround so that SPARQL's REGEX reads it alike (leaderboard.rq
    embeds it)."""
    return r"(^|[^\w@-])(" + "|".join(names) + r")(-[0-9]+\w*|-[a-z]|@\w+)?($|[^\w@-])"


BOUNDED_PATTERN = re.compile(metric_pattern(PERCENT_BOUNDED))
NON_NEGATIVE_PATTERN = re.compile(metric_pattern(NON_NEGATIVE))
RELATIVE_PATTERN = re.compile(metric_pattern(RELATIVE))


def impossible(kind: str, value: Decimal, unit: str, metric: str) -> str | None:
    """Why a result's value is one no measurement can take (a bounded measure above 100%, a negative error
    rate), or None; `metric` as worded. `kg lint` flags these, leaderboards never rank them."""
    metric = metric.casefold()
    if kind != "score":
        return None
    bounded = BOUNDED_PATTERN.search(metric) and not RELATIVE_PATTERN.search(metric)
    if bounded and unit in ("%", "") and value > 100:
        return f"{metric or 'a bounded measure'} of {value}{unit} is above 100%"
    if value < 0 and NON_NEGATIVE_PATTERN.search(metric):
        return f"a negative {metric} ({value}{unit})"
    return None
