"""Every number of an abstract's clean text with its unit and what qualifies it (pure: text in, numbers out).

A number is written digits (`95.12`, `1,000`, `+1.91`, `−0.4`, `.85`); a range gives both ends, the low end
bounded `at least`, the high end `up to`, both with the range's unit. A range is the span of values one quantity
takes: `23.56-26.36 dB`, `6–8`, `between 85% and 96%`, `ranging from 0.73 to 0.92`, and `69% to 109%` (rising, in
a clause without a `from`); `improves P@10 from 0.77 to 0.86` and `falls 20.2% to 12.4%` are a before and an after
(two scores, unbounded), as the gold results read them; words right before a number bound it (`up to 12%`,
`over 90%`, `approximately 3 ms` is `about`, `≥ 0.8` is `at least`: `worded_bound`). Digits inside a name
(`ResNet-18`, `GPT-5.4`, `3D`, `6G`, `F1`, `P@10`, `mAP@0.5`) are not numbers; neither are citation marks or
enumerations (`[12]`, `(ii)`). Units follow the gold conventions (RESULTS.md): `%`,
`points` (percentage points, pp), `x` (times), and the measurement units written after the number."""
from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

NUMBER = re.compile(r"(?<![\w.])([+\-−±]?)(\d{1,3}(?:,\d{3})+(?:\.\d+)?(?!\d)|\d+(?:\.\d+)?|\.\d+)(?!\.\d)")
# Units as written after a number (longest first); each maps to the gold spelling.
UNIT_WORDS = {
    "%": "%", "percent": "%", "per cent": "%", "percentage points": "points", "percentage point": "points",
    "percentage": "%", "pp": "points", "p.p.": "points", "points": "points", "point": "points", "pts": "points",
    "×": "x", "x": "x", "times": "x", "fold": "x", "-fold": "x",
    "db": "dB", "ms": "ms", "milliseconds": "ms", "s": "s", "sec": "s", "seconds": "s", "second": "s",
    "minutes": "min", "min": "min", "hours": "hours", "hour": "hours", "h": "hours", "days": "days",
    "gb": "GB", "mb": "MB", "kb": "KB", "kib": "KiB", "mib": "MiB", "gib": "GiB", "tb": "TB",
    "fps": "FPS", "tokens": "tokens", "m": "m", "cm": "cm", "mm": "mm", "km": "km", "k": "K", "b": "B",
    "gflops": "GFLOPs", "tflops": "TFLOPs", "flops": "FLOPs", "w": "W", "j": "J", "hz": "Hz", "mhz": "MHz",
    "ghz": "GHz", "bits": "bits", "bpp": "bpp", "mw": "mW", "kwh": "kWh", "°c": "°C", "k tokens": "K tokens",
}
UNIT = re.compile(r"\s?(" + "|".join(re.escape(u) for u in sorted(UNIT_WORDS, key=len, reverse=True)) + r")(?![\w%])",
                  re.IGNORECASE)
TIGHT_UNITS = {"%", "×", "x", "-fold"}  # units that may touch the number; the others after a space or not
RANGE = re.compile(r"\s?(?:[-–—]|to|and)\s?$")
FROM = re.compile(r"\bfrom\s+$", re.IGNORECASE)
SPAN_FROM = re.compile(r"\b(?:rang(?:e|es|ed|ing)|var(?:y|ies|ied|ying)|spann?(?:s|ed|ing)?)\s+from\s+$", re.IGNORECASE)
BETWEEN = re.compile(r"\bbetween\s+$", re.IGNORECASE)
CLAUSE = re.compile(r"[.;:!?](?:\s|$)|\n")  # what ends a clause for a 'from' before 'X to Y'
ENUMERATION = re.compile(r"[\[(]\s*$")
LIST = re.compile(r"\s*(?:,|,?\s*and|,?\s*or|/)\s*")
SPREAD = re.compile(r"\s*\(?\s*(?:±|\+-|\+/-|\+/−)\s*")  # `± 2.2`, `+/-0.006`, `(+-0.008)`
# Words that qualify the number right after them, as the gold `bound` writes them ('approximately' is 'about'), and
# symbols read as those words; a symbol after the words ('up to ~66%') leaves the words' bound.
BOUND_WORDS = {w: w for w in ("up to", "at least", "at most", "no more than", "no less than", "more than",
                              "greater than", "less than", "fewer than", "over", "above", "below", "under",
                              "exceeding", "within", "about", "nearly", "almost", "as low as", "as high as",
                              "as little as")}
BOUND_WORDS.update({"approximately": "about", "roughly": "about", "around": "about"})
BOUND_SYMBOLS = {"~": "about", "≈": "about", "∼": "about", "≥": "at least", ">=": "at least", "≤": "at most",
                 "<=": "at most", ">": "over", "<": "below"}
WORDED_BOUND = re.compile(r"(?:(?<![\w-])(" + "|".join(map(re.escape, sorted(BOUND_WORDS, key=len, reverse=True)))
                          + r")\s+)?(" + "|".join(map(re.escape, sorted(BOUND_SYMBOLS, key=len, reverse=True)))
                          + r")?\s*$", re.IGNORECASE)


@dataclass(frozen=True, order=True)
class Number:
    """A number of the clean text: [start, end) the digits (with a written sign), the unit's end, the gold unit,
    `bound` when a range gives it ("at least" low end, "up to" high end), `value` the digits as written."""

    start: int
    end: int
    value: str
    unit: str = ""
    unit_end: int = 0
    bound: str | None = None

    @property
    def decimal(self) -> Decimal:
        """The value as a decimal number (thousands separators dropped, the minus sign read)."""
        return to_decimal(self.value)


def to_decimal(value: str) -> Decimal:
    """A written value as a Decimal ('1,000' -> 1000, '−1.5' -> -1.5, '+2' -> 2, '.85' -> 0.85)."""
    text = value.replace(",", "").replace("−", "-").replace("±", "")
    try:
        return Decimal(text)
    except InvalidOperation:
        return Decimal(0)


def worded_bound(text: str, start: int) -> str | None:
    """The bound the words right before a number at `start` give it ('up to 12%', 'over 90%', '≥ 0.8'), or None."""
    match = WORDED_BOUND.search(text[max(0, start - 20):start])
    if match.group(1):
        return BOUND_WORDS[match.group(1).lower()]
    return BOUND_SYMBOLS.get(match.group(2) or "")


def unit_after(text: str, end: int) -> tuple[str, int]:
    """The unit written right after a number ending at `end` (gold spelling, its end), or ("", end)."""
    match = UNIT.match(text, end)
    if not match:
        return "", end
    written = match.group(1)
    if match.start(1) > end and written.lower() in ("x",):  # "3 x 3" is a product, "3x" a factor
        return "", end
    unit = UNIT_WORDS[written.lower()]
    if unit in ("m", "K", "B", "W", "J") and len(written) == 1 and match.start(1) == end:
        return "", end  # "7B", "5s", "10K" glued to the number name sizes or orders, not measured units
    return unit, match.end(1)


def in_name(text: str, start: int, end: int) -> bool:
    """Whether the digits at [start, end) belong to a name ('ResNet-18', 'GPT-5.4', 'v2', '3D', 'F1', 'P@10')."""
    before = text[max(0, start - 2):start]
    if re.search(r"[A-Za-z]-?$|\w@$", before) and not re.search(r"(?:^|\s)[xX×]$", before):
        return True
    return bool(re.match(r"[A-Za-z]", text[end:end + 1]) and not unit_after(text, end)[0])


def find_numbers(text: str) -> list[Number]:
    """The numbers of a text, in order, with units and range bounds (see the module docstring)."""
    found: list[Number] = []
    for match in NUMBER.finditer(text):
        start, end = match.start(), match.end()
        if in_name(text, start, end) or ENUMERATION.search(text[max(0, start - 2):start]) and \
                text[end:end + 1] in ")]" and "." not in match.group(2):
            continue
        sign = match.group(1)
        if sign in "-−" and sign and start > 0 and (text[start - 1].isdigit() or text[start - 1] in "%x×"):
            sign, start = "", start + 1  # '23.56-26.36': the dash of a range, not a minus sign
        unit, unit_end = unit_after(text, end)
        found.append(Number(start, end, sign + match.group(2), unit, unit_end))
    return with_lists(text, with_ranges(text, without_spreads(text, without_products(text, found))))


PRODUCT = re.compile(r"\s*×\s*|\s+[xX]\s+")  # `224×224`, `512 x 512`: a size's sides, not `2.3× faster`


def without_products(text: str, numbers: list[Number]) -> list[Number]:
    """Numbers without the sides of a product ('224×224' pixels, a '3 x 3' kernel): sizes, never results."""
    joined = {i for i in range(len(numbers) - 1) if not numbers[i].unit
              and PRODUCT.fullmatch(text[numbers[i].end:numbers[i + 1].start])}
    return [n for i, n in enumerate(numbers) if i not in joined and i - 1 not in joined]


def without_spreads(text: str, numbers: list[Number]) -> list[Number]:
    """Numbers without the spread of a mean ('90.85 ± 2.22%', '0.716+/-0.006', '0.991 (+-0.008)': the mean takes the
    unit, the spread goes)."""
    out: list[Number] = []
    for number in numbers:
        sign = number.value[:1] if number.value[:1] in "+-−" else ""  # `+/-0.006`: the minus is the spread's
        if out and not out[-1].unit and SPREAD.fullmatch(text[out[-1].unit_end:number.start] + sign):
            mean = out[-1]
            out[-1] = Number(mean.start, mean.end, mean.value, number.unit, mean.unit_end)
            continue
        out.append(number)
    return out


def with_lists(text: str, numbers: list[Number]) -> list[Number]:
    """A list's unit written once at its end given to each ('3.9, 6.1, and 7.3 percentage points')."""
    out = list(numbers)
    for i in range(len(out) - 2, -1, -1):
        this, after = out[i], out[i + 1]
        if not this.unit and after.unit and LIST.fullmatch(text[this.unit_end:after.start]):
            out[i] = Number(this.start, this.end, this.value, after.unit, this.unit_end, this.bound)
    return out


def is_range(text: str, low: Number, high: Number) -> bool:
    """Whether two numbers in a row are the ends of one range (see the module docstring)."""
    gap = text[low.unit_end:high.start]
    if not RANGE.fullmatch(gap):
        return False
    word, before = gap.strip().lower(), text[max(0, low.start - 24):low.start]
    if word in ("-", "–", "—", ""):
        return True
    if word == "and":
        return bool(BETWEEN.search(before))
    if FROM.search(before):
        return bool(SPAN_FROM.search(before))
    clause = text[max(0, low.start - 300):low.start]
    starts = [m.end() for m in CLAUSE.finditer(clause)]
    return low.decimal < high.decimal and not re.search(r"\bfrom\b", clause[starts[-1] if starts else 0:], re.I)


def with_ranges(text: str, numbers: list[Number]) -> list[Number]:
    """Numbers with the bounds of the ranges they form ('6–8', '20.00-107.77 KiB', 'between 85% and 96%')."""
    out = list(numbers)
    for i in range(len(out) - 1):
        low, high = out[i], out[i + 1]
        if low.bound or (low.unit and high.unit and low.unit != high.unit) or not is_range(text, low, high):
            continue
        unit = low.unit or high.unit
        out[i] = Number(low.start, low.end, low.value, unit, low.unit_end, "at least")
        out[i + 1] = Number(high.start, high.end, high.value, unit, high.unit_end, "up to")
    return out
