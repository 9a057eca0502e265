"""Model names the extractor cut short of their version or size: `SAM 3` read as `SAM`, `GPT-4o mini` as `GPT-4o`
(the span stopped before the word after the name). Where the corpus names the longer form whole elsewhere (some
model mention's key is its key), the mention extends to it, so that paper's `GPT-4o mini` is GPT-4o-mini's, not
GPT-4o's; a number or word the corpus never writes as part of a name (`BERT 3 times faster`) extends nothing."""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Iterable

from kg.text.keys import surface_key
from kg.text.markup import strip_markup
from kg.types import Mention

# One word after a name: a separator (space, LaTeX's tie ~, a hyphen), then a version or a size word.
NEXT_WORD = re.compile(r"[ ~\-]{1,2}(?:\d+(?:\.\d+)?[A-Za-z]?|mini|nano|micro|tiny|small|base|large|lite|flash|pro|"
                       r"turbo|max|plus|ultra)(?![\w.-]*\w)", re.I)
MAX_WORDS = 2  # `Gemini 2.5 Flash` from `Gemini`


def versioned(mentions: Iterable[Mention], texts: dict[str, str]) -> dict[Mention, Mention]:
    """Model mentions followed by up to MAX_WORDS version or size words that make a name the corpus's model
    mentions write whole, each mapped to the mention extended over the longest such name."""
    mentions = list(mentions)
    whole = {surface_key(m.name) for m in mentions if m.type == "model"}
    longer = {}
    for mention in mentions:
        text = texts.get(mention.paper_id)
        if mention.type != "model" or text is None:
            continue
        end, found = mention.end, None
        for _ in range(MAX_WORDS):
            word = NEXT_WORD.match(text, end)
            if word is None:
                break
            end = word.end()
            if surface_key(mention.name + strip_markup(text[mention.end:end]).text) in whole:
                found = end
        if found is not None:
            name = mention.name + strip_markup(text[mention.end:found]).text
            longer[mention] = replace(mention, end=found, text=text[mention.start:found], name=name)
    return longer
