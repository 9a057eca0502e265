"""Whether a larger value of a measure is better (pure, general knowledge shared by the results step, the graph and
the exporters): `direction` of one metric name, `result_direction` of a result's names in turn."""
from __future__ import annotations

import re

from kg.text.keys import singular

# Whether a larger value is better, for metrics every ML researcher reads the same way (general knowledge);
# matched on the metric's lower-cased words: the longest listed name the metric contains wins.
HIGHER = ("accuracy", "f1", "f1-score", "f-score", "precision", "recall", "auc", "auroc", "roc-auc", "map",
          "miou", "iou", "dice", "bleu", "rouge", "meteor", "cider", "psnr", "ssim", "success rate", "pass@1",
          "pass@k", "pass", "exact match", "em", "top-1", "top-5", "win rate", "reward", "score", "throughput",
          "speedup", "speed-up", "ndcg", "mrr", "hit rate", "hits@1", "hits@10", "r@1", "recall@1", "kappa",
          "correlation", "spearman", "pearson", "r2", "coverage", "fps", "pass rate", "resolve rate", "solve rate", "hit@1",
          "area under the curve", "area under the roc curve", "mcc", "chrf", "bertscore", "sacrebleu", "ap",
          "average precision", "macro-f1", "micro-f1", "weighted-f1", "auprc", "c-index", "inception score",
          "auc-roc", "intersection over union", "mean reciprocal rank", "concordance index", "comet", "srocc", "plcc",
          "krocc", "resolved rate", "acc@1", "acc@5", "area under the precision-recall curve", "sensitivity",
          "specificity")
LOWER = ("error", "error rate", "wer", "cer", "fid", "kid", "lpips", "perplexity", "loss", "mse", "rmse", "mae",
         "latency", "runtime", "cost", "memory", "eer", "fpr", "false positive rate", "chamfer distance",
         "distance", "regret", "time", "ece", "calibration error", "energy", "rfid", "gfid", "fvd", "mpjpe",
         "pa-mpjpe", "cross-entropy", "hallucination rate")
# Measures whose better side depends on who reports them (an attack paper raises it, a defence lowers it).
EITHER = ("attack success rate", "refusal rate")


def direction(metric: str) -> str | None:
    """'higher' or 'lower' is better for a metric named `metric` (its longest known name), None when unknown."""
    words = metric.casefold().replace("_", " ")
    known = [(len(n), "higher") for n in HIGHER if contains(words, n)] + \
            [(len(n), "lower") for n in LOWER if contains(words, n)]
    return max(known)[1] if known else None


def result_direction(*names: str) -> str | None:
    """'higher' or 'lower' is better for the first of a metric's names (label, the wording, aliases) whose
    direction is known, each read with its words in the singular ('task success rates'); None when none is known or
    the first that names a listed measure is one whose better side depends on the paper (attack success rate)."""
    for name in names:
        words = " ".join(singular(w) for w in name.casefold().replace("_", " ").split())
        if any(contains(words, n) for n in EITHER):
            return None
        better = direction(words)
        if better:
            return better
    return None


def contains(words: str, name: str) -> bool:
    """Whether `name` occurs in `words` as whole words, a variant's suffix allowed (BLEU-4, ROUGE-L, pass@5)."""
    return re.search(rf"(?<![\w@-]){re.escape(name)}(?:-\d+\w*|-[a-z](?!\w)|@\w+)?(?![\w@-])", words) is not None
