"""What the words around a reported number say (issue 35): a signed number against a reference is a change, and
a metric measures only the numbers of its clause that its wording reaches."""
from __future__ import annotations

import pytest

from kg.extractors.results.binding import binds, carries
from kg.extractors.results.numbers import Number, find_numbers
from kg.extractors.results.signs import signed_change


def number_at(text: str, written: str) -> tuple[list[Number], Number]:
    """The numbers of `text` and the one written as `written`."""
    numbers = find_numbers(text)
    return numbers, next(n for n in numbers if n.value == written)


@pytest.mark.parametrize("text, written, change", [
    ("FlurbNet reaches -1.26 FID and +10.19 IS w.r.t. QuillGAN.", "-1.26", True),
    ("FlurbNet reaches -1.26 FID and +10.19 IS w.r.t. QuillGAN.", "+10.19", True),
    ("It improves recall by +3.2 on the Zorbo split.", "+3.2", True),
    ("It improves recall by up to +3.2 on the Zorbo split.", "+3.2", True),
    ("FlurbNet gains +1.91 over the full-data baseline.", "+1.91", True),
    ("a +2.1% improvement in accuracy", "+2.1", True),
    ("a spatial ablation (−0.4 dB penalty) shows it", "−0.4", True),
    ("the correlation is strong (r = -0.56) across splits", "-0.56", False),
    ("it beats a falling index (-15.62%) and the baselines", "-15.62", False),
    ("a peak gain of +0.157, while the others stay", "+0.157", False),
    ("FlurbNet reaches 1.26 FID w.r.t. QuillGAN.", "1.26", False),  # no sign: the model reads it
    ("the score is -0.3; gains elsewhere are small", "-0.3", False),  # the reference is past the clause
])
def test_a_signed_number_against_a_reference_is_a_change(text: str, written: str, change: bool) -> None:
    numbers, number = number_at(text, written)
    assert signed_change(text, number) == change


SEED_LIKE = ("On Zorbo, FlurbNet reaches gender accuracy at 96.0% and re-identification at 97.2% Top-1; on unseen "
             "operators gender holds at 83.4% and height regresses within 5.7 cm.")


@pytest.mark.parametrize("text, written, metric, bound", [
    (SEED_LIKE, "97.2", "Top-1", True),
    (SEED_LIKE, "96.0", "Top-1", False),  # another number, not listed with it, stands between
    (SEED_LIKE, "83.4", "Top-1", False),  # past the clause's end
    (SEED_LIKE, "5.7", "Top-1", False),
    ("FlurbNet reaches 97.2% Top-1 and a height error within 5.7 cm.", "5.7", "Top-1", False),  # another unit
    ("FlurbNet reaches 95.1%, 93.2% and 90.0% accuracy on three splits.", "95.1", "accuracy", True),
    ("FlurbNet reaches 95.1% and 2.3 FID on the split.", "95.1", "FID", False),
    ("an accuracy of 95.1% on Zorbo and 80.2% on Quill", "80.2", "accuracy", True),
    ("an accuracy of 95.1% on Zorbo, 3.2 points over QuillNet", "3.2", "accuracy", True),
    ("an FID of 2.1 at a cost of 30 ms per image", "30", "FID", False),
    ("an accuracy of 95% in the 5-shot setting and 93% in the 1-shot one", "93", "accuracy", True),
    ("an error rate of 15.8% with 1.4 hours of data, and 10.7% with 22.5 hours", "10.7", "error rate", True),
    ("FlurbNet gains 1.5-2.6% in changed-class F1", "1.5", "changed-class F1", True),
    ("it raises QuillNet from 19.06 to 20.05 mIoU", "19.06", "mIoU", True),
    ("FlurbNet reaches 75.0% precision and a 67.0% F1-score", "75.0", "% precision", True),
    ("the best Flurb Score (FS; 3.08) on Zorbo", "3.08", "FS", True),
    ("FlurbNet reaches 75.0% precision and a 67.0% F1-score", "67.0", "% F1-score", True),
    ("generation improves by -1.26 FID and +10.19 IS over QuillNet", "+10.19", "FID", False),  # its own measure
    ("generation improves by -1.26 FID and +10.19 IS over QuillNet", "+10.19", "IS", True),
    ("an accuracy of 95.1% on Zorbo and 80.2% Top-5 on Quill", "80.2", "accuracy", False),
    ("(Pearson r = 0.769, mean absolute error MAE = 0.070)", "0.769", "mean absolute error", False),  # introduces
    ("(Pearson r = 0.769, mean absolute error MAE = 0.070)", "0.070", "MAE", True),
    ("it lifts ROUGE-1 from 41.45 to 62.18 and BLEU-4 from 26.97 to 50.90", "62.18", "BLEU-4", False),
    ("specificity 0.9804, and AUC 0.9853 on Zorbo", "0.9804", "AUC", False),
    ("each sample in 4.31 s, reducing latency by 4.9-fold", "4.31", "latency", True),  # `by` introduces no number
    ("FlurbNet reaches -1.26 FID and +10.19 IS w.r.t. QuillGAN.", "-1.26", "FID", True),
])
def test_a_metric_measures_the_numbers_its_wording_reaches(text: str, written: str, metric: str, bound: bool) -> None:
    numbers, number = number_at(text, written)
    start = text.index(metric)
    assert binds(text, numbers, number, start, start + len(metric)) == bound


@pytest.mark.parametrize("text, first, second, carried", [
    ("95.1% accuracy for FlurbNet, against 90.5% for QuillNet", "95.1", "90.5", True),
    ("97.2% Top-1; gender holds at 83.4%", "97.2", "83.4", False),
    ("97.2% Top-1 and a height within 5.7 cm", "97.2", "5.7", False),
])
def test_a_measure_carries_to_a_later_number_of_its_clause(text: str, first: str, second: str, carried: bool) -> None:
    numbers, earlier = number_at(text, first)
    assert carries(text, numbers, earlier.start, number_at(text, second)[1]) == carried


@pytest.mark.parametrize("text, pairs", [
    ("FlurbNet raises the pass rate from 59% to 78% on Zorbo.", [("59", "78")]),
    ("It improves QuillNet from about 19.06 to 20.05 mIoU and from 21.4 to 21.9 mIoU.",
     [("19.06", "20.05"), ("21.4", "21.9")]),
    ("Pass rates rise from 40.5% to 61.9%, 23.8% to 38.1%, and 42.9% to 57.1%.",
     [("40.5", "61.9"), ("23.8", "38.1"), ("42.9", "57.1")]),
    ("Scores range from 0.73 to 0.92 across seeds.", []),  # a range: one quantity's span, not a before and after
    ("It reaches 59% and 78% on two splits.", []),
    ("Accuracy went up to 78% from 59% overall.", []),
])
def test_before_and_after_pairs(text: str, pairs: list) -> None:
    from kg.extractors.results.binding import before_and_after

    numbers = find_numbers(text)
    found = [(numbers[i].value, numbers[j].value) for i, j in before_and_after(text, numbers).items()]
    assert found == pairs


@pytest.mark.parametrize("text, written, change", [
    ("FlurbNet has 68% lower latency than QuillNet.", "68", True),
    ("with relative gains of 10.6% and 10.0% over the strongest baseline", "10.6", True),
    ("with relative gains of 10.6% and 10.0% over the strongest baseline", "10.0", True),  # listed with it
    ("a reduction of up to 40% in memory", "40", True),
    ("FlurbNet reaches 95.1% accuracy and 12% lower cost.", "95.1", False),
    ("in more than 90% of cases", "90", False),
    ("FlurbNet scores 80.1% and 82.0% accuracy.", "82.0", False),
])
def test_words_around_an_unsigned_number_can_make_it_a_change(text: str, written: str, change: bool) -> None:
    from kg.extractors.results.signs import worded_change

    numbers, number = number_at(text, written)
    assert worded_change(text, number, numbers) == change


@pytest.mark.parametrize("phrase, measure", [("top-1 accuracy", True), ("sensitivity", True), ("error rate", True),
                                             ("runtime workflow", False), ("score", True), ("leakage", False)])
def test_a_measure_word_names_a_known_measure_at_its_end(phrase: str, measure: bool) -> None:
    from kg.extractors.results.fields import names_measure

    assert names_measure(phrase) == measure
