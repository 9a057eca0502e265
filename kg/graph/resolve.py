"""Resolve mentions into corpus-wide entities and paper links.

One entity per concept: a mention's written form is repaired or dropped (`labels.repair`), keyed
(`kg.text.keys.surface_key`: acronyms keep their case; a capital name hyphenated elsewhere than the gazetteer's or
most papers' form is its own key, `hyphens`), read through the paper's own acronym definitions,
the gazetteer's aliases and the corpus's agreed definitions (`acronyms`), then keys naming one concept
are merged (`variants`). Generic names (`ontology/generic-terms.jsonl`) are not entities. The label is
the gazetteer's name for a concept it knows, else the form most papers write (`labels.choose_label`), and the id
`<type>:<slug of the label>`, a function of the concept alone (`ids`).
"""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import replace
from typing import Callable, Iterable, Mapping, Sequence

from kg.graph.acronyms import Definitions, content_words, plausible, read_definitions, same_meaning
from kg.graph.bind import WORDS, bound_pairs, completed
from kg.graph.broader import with_broader
from kg.graph.coinage import MARK, claims, credible, shared, split_coinages
from kg.graph.context import Context, definers, squashed
from kg.graph.concepts import concept_type, defined_votes, known_entry, typed_reading
from kg.graph.evidence import cleaned, coined_here, measured_here
from kg.text.keys import acronym_key, display_form, match_key, surface_key
from kg.graph.hyphens import hyphen_key, standing_apart
from kg.graph.ids import Concept, entity_ids
from kg.graph.knowledge import Knowledge, default_knowledge
from kg.graph.labels import choose_label, lone_adjective, repair, title_cased
from kg.graph.links import Corpus, link_papers, proposal_check, relate
from kg.graph.spellings import family_pairs, same_labels, typo_pairs, written_pairs
from kg.graph.titles import promoted, title_keys
from kg.graph.versions import versioned
from kg.graph.variants import (KINDS, NAMED_TYPES, case_pairs, ending_pairs, inverted_pairs, kind_pairs, modifier_pairs,
                               regroup, word_twins)
from kg.types import Entity, Link, Mention, MentionRelation, Paper, Relation

__all__ = ["resolve", "Resolver"]
Pair = Sequence[str]  # (paper, short, long) or, without a paper, (short, long)


class Resolver:
    """The key of the concept a written form names, in a given paper."""

    def __init__(self, definitions: Definitions, knowledge: Knowledge, texts: dict[str, str] | None = None,
                 coins: frozenset[tuple[str, str]] = frozenset(),
                 surface: Callable[[str], str] = surface_key) -> None:
        self.definitions, self.knowledge = definitions, knowledge
        self.surface = surface  # a written form's key before any reading (`hyphens.hyphen_key` in `resolve`)
        self.coins = coins  # (paper, acronym key) a paper coins without defining: its own name, no other's reading
        self.spelled_here: dict[tuple[str, str], str] = {}  # (paper, acronym key) -> its phrase's concept there
        self.context = Context(texts or {})
        self.definers, self.long_keys = definers(definitions.local, self.reading)
        self.readings: dict[str, Counter] = defaultdict(Counter)  # acronym key -> concept keys -> papers
        for (paper, short), long in sorted(definitions.local.items()):
            self.readings[short][self.reading(short, long, paper)] += 1
        self.coined_as: dict[str, set[str]] = defaultdict(set)  # long key -> the names papers coin for it
        for (_, long), name in definitions.coined.items():
            self.coined_as[long].add(name)
        self.cut = {(paper, long): known for (paper, short), long in definitions.local.items()
                    if (known := self.cut_short(short, long, paper))}  # the paper's cut long form reads as its acronym
        self.lone = frozenset(short for short, papers in definitions.agreeing.items() if self.abstracts(papers) < 2)
        for short in list(self.readings):
            if short in knowledge.canonical or short in knowledge.names:
                self.readings[short][self.known(short)] += 1  # the gazetteer's reading

    def typed(self, paper: str, name: str, mention_type: str, type_of: Callable[[str], str | None],
              span: tuple[int, int] | None = None, spelled: Mapping[tuple[str, str], str] | None = None,
              paper_types: frozenset[str] = frozenset()) -> str:
        """The key of a name as `__call__` reads it, except that a form the paper does not define takes the reading
        its own words give (`own_reading`), else the reading one abstract alone gives it where the paper's mentions
        of it (`paper_types`, else the mention's type) have that reading's type (`lone_typed`), else a bare acronym the
        corpus or the gazetteer reads several ways takes a metric reading where the abstract writes it as a measure
        (at `span`, `evidence.measured_here`), else the reading the abstract's words support (`context`), else the
        reading whose concept has the mention's type when its usual reading has another (`typed_reading`)."""
        key = self.key(name, paper)
        default = self.expand(paper, key)
        if (paper, key) in self.definitions.local or (paper, key) in self.coins or (paper, key) in self.spelled_here:
            return default
        if own := self.own_reading(paper, name, mention_type, default, type_of, spelled or {}):
            return own
        if lone := self.lone_typed(paper, key, paper_types or frozenset({mention_type}), type_of):
            return lone
        readings = {k: n for k, n in self.readings.get(key, {}).items()
                    if n >= 2 or k in self.knowledge.types or self.written(k, paper)}
        if len(readings) < 2:
            return default  # a reading one paper gives, unknown to the gazetteer and unwritten here, is too weak
        text = self.context.texts.get(paper)
        if span and text and measured_here(text, *span) and any(type_of(k) == "metric" for k in readings):
            return typed_reading(readings, default, "metric", type_of)
        found = self.definers.get(key, {})
        chosen = self.context.reading(paper, {k: found.get(k, []) for k in readings}, self.long_keys, default)
        if chosen:
            return chosen
        return typed_reading(readings, default, mention_type, type_of)

    def abstracts(self, papers: Iterable[str]) -> int:
        """How many distinct abstracts the papers have (a paper without a known abstract counts as one)."""
        papers = list(papers)
        known = [p for p in papers if p in self.context.texts]
        return len(self.context.distinct(known)) + len(papers) - len(known)

    def lone_reading(self, paper: str, key: str) -> str | None:
        """The concept of a corpus reading only one abstract gives an acronym, in a paper that neither defines the
        acronym nor writes that reading's long form (its own words do not support it there); else None."""
        if not paper or key not in self.lone or (paper, key) in self.definitions.local:
            return None
        reading = self.reading(key, self.definitions.dominant[key])
        return None if self.written(reading, paper) else reading

    def lone_typed(self, paper: str, key: str, paper_types: frozenset[str],
                   type_of: Callable[[str], str | None]) -> str | None:
        """The reading one abstract alone gives a bare acronym (`lone_reading`), where the paper's mentions of it have
        the type of that reading's concept (one of `paper_types`) and the gazetteer does not spell the acronym out as
        another name (ADE: average displacement error, not one paper's adverse drug event; `spelled_otherwise`);
        else None."""
        reading = self.lone_reading(paper, key)
        if not reading or self.known(key) not in (key, reading) or self.spelled_otherwise(key) \
                or type_of(reading) not in paper_types:
            return None
        return reading

    def spelled_otherwise(self, short: str) -> bool:
        """Whether the gazetteer names the acronym itself and lists long forms of it that it spells (`plausible`),
        none of which the corpus's definition matches (key or `same_meaning`): MSVD, the video corpus, is not one
        paper's Maritime Simulated Visibility Dataset; an entry without such long forms cannot tell them apart."""
        forms = [f for f in self.knowledge.forms.get(short, ()) if self.surface(f) != short]
        if short not in self.knowledge.names or not any(plausible(short, f) for f in forms):
            return False
        long = self.definitions.dominant[short]
        written = self.definitions.spelled.get(long, {})
        return not any(self.surface(f) == long or any(same_meaning(w, f) for w in written) for f in forms)

    def written(self, concept: str, paper: str) -> bool:
        """Whether a sentence of the paper writes one of the concept's long forms whole (its words name the reading)."""
        return any(self.context.writes(paper, long) for long in {*self.long_keys.get(concept, ()), concept})

    def own_reading(self, paper: str, name: str, mention_type: str, default: str,
                    type_of: Callable[[str], str | None], spelled: Mapping[tuple[str, str], str]) -> str | None:
        """The gazetteer entry of the mention's type whose `sense` names stand beside the form (`sense`), else, for an
        acronym, the concept of its type the paper names by a phrase with its letters as initials (`spelled`:
        `Einstein World Models` for EWMs; kept in `spelled_here` for the paper's derived forms, `EWM model`) unless
        its usual reading is the gazetteer's (RL beside `representation learning`) or the paper writes that too."""
        sense = self.sense(paper, name)
        if sense and self.knowledge.types.get(sense) == mention_type:
            return sense
        letters = acronym_letters(name)
        found = spelled.get((paper, letters)) if letters else None
        if found and type_of(found) == mention_type and default not in self.knowledge.names \
                and not self.written(default, paper):
            self.spelled_here[paper, self.key(name, paper)] = found
            return found
        return None

    def sense(self, paper: str, name: str) -> str | None:
        """The gazetteer entry a form names by the names beside it in the abstract (the entry's `sense`): `Pubmed` in
        an abstract that also names Cora or CiteSeer is the citation network, not the literature database."""
        for target, beside in self.knowledge.senses.get(squashed(name), ()):  # several: the first in the gazetteer
            if any(self.context.writes(paper, other) for other in beside):
                return target
        return None

    def known(self, key: str) -> str:
        """The gazetteer's canonical key for a key, else the key."""
        return self.knowledge.canonical.get(key, key)

    def expand(self, paper: str, key: str) -> str:
        """A key read as its concept: the paper's own acronym definition, else the corpus's agreed one,
        the name the paper coins for its spelled-out form, then the gazetteer's canonical name; a long form the paper
        defines its acronym by, cut short of the gazetteer's reading (`cut_short`), is that reading there. An acronym
        the paper coins itself (`we propose ICG, a ...`) without defining it is its own name, not another paper's
        reading; so is one whose agreed reading only one abstract gives and the paper's words do not write
        (`lone_reading`: `typed` may still read it so by type)."""
        if (paper, key) in self.spelled_here:
            return self.spelled_here[paper, key]
        if (paper, key) in self.cut:
            return self.cut[paper, key]
        if (paper, key) in self.coins and (paper, key) not in self.definitions.local or self.lone_reading(paper, key):
            return self.known(key)
        long = self.definitions.local.get((paper, key)) or self.definitions.dominant.get(key, key)
        return self.reading(key, long, paper)

    def reading(self, short: str, long: str, paper: str = "") -> str:
        """The concept key of a short form defined as `long`: a definition cut short of the gazetteer's reading
        of the short form (PPO as `policy optimization`, the tail of proximal policy optimization) is that
        reading (`cut_short`); else the name the paper coins for the long form (a definition binds where it is
        written), then the gazetteer's canonical name."""
        return self.cut_short(short, long, paper) or self.known(self.definitions.coined.get((paper, long), long))

    def cut_short(self, short: str, long: str, paper: str = "") -> str | None:
        """The gazetteer's reading of the short form when `long` is its tail and the reading starts with the short
        form's first letter (PPO's `policy optimization`) or the paper writes it (`Person Re-Identification (ReID)`
        detected as `Re-Identification`); a paper writing only `Re-Identification (ReID)` means re-identification,
        not the gazetteer's person re-identification."""
        known = self.knowledge.canonical.get(short)
        if not known or not truncated(long, known):
            return None
        initial = self.knowledge.names.get(known, known)[:1].lower() == short[:1].lower()
        return known if initial or known in self.context.flat(paper) else None

    def __call__(self, paper: str, name: str) -> str:
        """The concept key of a written form in a paper (`key`, then `expand`)."""
        return self.expand(paper, self.key(name, paper))

    def key(self, name: str, paper: str = "") -> str:
        """`surface` (`surface_key`; a capital name hyphenated elsewhere than the gazetteer's or most papers' form,
        A-BCD beside AB-CD, is its own key: `hyphens`), except that an acronym written in another case than a
        gazetteer name is that name (`ReLu`, `MIoU`, `BaBi`: ReLU, mIoU, bAbI) unless the gazetteer knows the form
        names something else (LoRa, the radio protocol, is not LoRA: its key is the form itself), the paper defines or
        coins it, or the corpus agrees on a definition of it."""
        key = self.surface(name)
        if (paper, key) in self.definitions.local:
            return key
        written = name[:-1] if name.endswith("s") and len(name) > 2 and name[-2].isupper() else name
        knowledge = self.knowledge
        if written in knowledge.others:
            return written
        if acronym_key(name) and key not in knowledge.canonical and key not in knowledge.names \
                and key not in self.definitions.dominant and (paper, key) not in self.coins:
            return knowledge.folded.get(key.upper(), key)
        return key

    def known_short(self, word: str) -> str | None:
        """The key of a short name with a digit the gazetteer reads as another (T2I: text-to-image generation)."""
        key = surface_key(word)
        return key if any(c.isdigit() for c in word) and key in self.knowledge.canonical else None

    def spelled_out(self, paper: str, name: str) -> str | None:
        """The key of a name with its acronym words expanded (`KL divergence`; `T2I generation` is text-to-image
        generation, the word the expansion ends with not repeated), None if none expands. An acronym word takes the
        corpus's reading even where one abstract alone gives it (`lone_reading`): the caller joins the name only to
        an expansion some paper writes."""
        words = re.split(r"[\s\-\u2010-\u2015]+", name)
        keys = [(acronym_key(w) or self.known_short(w)) if len(words) > 1 else None for w in words]
        expanded = [self.expand("" if self.lone_reading(paper, k) else paper, k) if k else w
                    for k, w in zip(keys, words)]
        if expanded == [k or w for k, w in zip(keys, words)]:
            return None
        repeated = {i + 1 for i, (k, e) in enumerate(zip(keys, expanded[:-1]))  # `T2I generation`: generation once
                    if k and e != k and len(words[i + 1]) > 3 and e.endswith(match_key(words[i + 1]))}
        return self.expand(paper, match_key(" ".join(e for i, e in enumerate(expanded) if i not in repeated)))


def truncated(long: str, known: str) -> bool:
    """Whether a long form's key is a tail of a longer known name's key (`policyoptimization` of
    `proximalpolicyoptimization`): a definition that lost its first words."""
    return long != known and known.endswith(long)


def spelled_label(long: str) -> str:
    """A defined long form as a label candidate ("" when it is not publishable)."""
    repaired = repair(long)
    return display_form(repaired) if repaired else ""


def paired(pairs: Iterable[Pair]) -> list[tuple[str, str, str]]:
    """Definitions as (paper, short, long), both forms repaired like mention names (`Lov&#39;asz`
    reads Lovász on both sides); a pair without a paper counts for the corpus only."""
    triples = [tuple(p) if len(p) == 3 else ("", *p) for p in pairs]
    repaired = ((paper, repair(short), repair(long)) for paper, short, long in triples)  # type: ignore[misc]
    return [(paper, short, long) for paper, short, long in repaired if short and long]


def resolve(
    mentions: Iterable[Mention],
    abbreviation_pairs: Iterable[Pair] = (),
    relations: Iterable[MentionRelation] = (),
    knowledge: Knowledge | None = None,
    papers: Iterable[Paper] = (),
) -> tuple[list[Entity], list[Link], list[Relation]]:
    """Group mentions into entities (one per concept) and paper links (one per paper-entity). `papers` (their
    abstracts and years) lets the abstracts' own words inform types, fragments and proposals."""
    knowledge, papers = knowledge or default_knowledge(surface_key), tuple(papers)
    corpus = Corpus(papers)
    clean, original, raw = completed_forms(*cleaned(mentions, corpus.texts), corpus.texts)
    clean = promoted(clean, (original, raw), title_keys(papers))
    pairs = paired(abbreviation_pairs)
    surface = hyphen_key(standing_apart(knowledge, [*((m.paper_id, m.name) for m in clean), *(p[:2] for p in pairs)]))
    definitions = read_definitions(pairs, surface, spelled_label, bound_pairs(clean, corpus.texts))
    resolver = Resolver(definitions, knowledge, corpus.texts, coined_acronyms(clean, corpus.texts), surface)
    by_key = key_mentions(clean, resolver)
    initial = sentence_initial(by_key, corpus.texts)
    groups, members = merge_variants(by_key, resolver, initial)
    words = ordinary_words(by_key, knowledge, corpus.texts)
    groups = {k: g for k, g in groups.items() if k and not set(members[k]) & knowledge.generic
              and not adjectives_only(g, members[k], knowledge)
              and not (set(members[k]) <= words and concept_type(g) in NAMED_TYPES)}
    groups, members = split_coinages(groups, members, corpus.texts, knowledge, corpus.years)
    made: dict[str, tuple] = {}
    proper = proper_words(groups.values(), corpus.texts)
    entities, entity_of = make_entities(groups, members, resolver, corpus.texts, made, proper)
    groups, members, joined = same_labels(groups, members, entities, entity_of, lambda key: MARK in key)
    if joined:
        entities, entity_of = make_entities(groups, members, resolver, corpus.texts, made, proper)
    generic = {e.id for e in entities if surface_key(e.label) in knowledge.generic}
    entities = [e for e in entities if e.id not in generic]
    groups = {k: g for k, g in groups.items() if entity_of[k] not in generic}
    mention_entity = {raw[m]: entity_of[k] for k, group in groups.items() for m in group}
    check, claimed, kinds = proposal_check(groups, members, knowledge, corpus), claims(groups), shared(groups)

    def named_check(key: str, paper: str, found: list[Mention]) -> bool:  # an unnamed `a novel X` proposes no X
        named = credible(found, corpus.texts.get(paper), claimed.get(key, 0), key in kinds)
        return bool(named) and check(key, paper, named)
    links = link_papers(groups, entity_of, original, named_check)
    entities = with_broader(entities, Counter(link.entity_id for link in links))
    return entities, links, relate(relations, mention_entity)


def completed_forms(clean: list[Mention], evidence: dict[Mention, Mention], raw: dict[Mention, Mention],
                    texts: dict[str, str]) -> tuple[list[Mention], dict[Mention, Mention], dict[Mention, Mention]]:
    """The cleaned mentions with long forms the extractor cut short of their acronym's words extended to them
    (`bind.completed`), and model names cut short of their version or size (`versions.versioned`), their evidence
    extended alike."""
    longer = versioned(clean, texts) | completed(clean, texts)
    for short, long in longer.items():
        if long.start < short.start:  # words before: the acronym's
            name = long.name[:len(long.name) - len(short.name)] + evidence[short].name
        else:  # words after: a version or size
            name = evidence[short].name + long.name[len(short.name):]
        evidence[long] = replace(evidence[short], start=long.start, end=long.end, text=long.text, name=name)
        raw[long] = raw[short]
    return [longer.get(m, m) for m in clean], evidence, raw


def coined_acronyms(mentions: list[Mention], texts: dict[str, str]) -> frozenset[tuple[str, str]]:
    """(paper, acronym key) of the acronyms a paper presents as its own (`evidence.coined_here`)."""
    return frozenset((m.paper_id, key) for m in mentions if m.role == "proposed" and (key := acronym_key(m.name))
                     and m.paper_id in texts and coined_here(texts[m.paper_id], m.start, m.end))


def key_mentions(mentions: list[Mention], resolver: Resolver) -> dict[str, list[Mention]]:
    """Mentions by the key of their concept: read by the resolver, then bare acronyms read again by type."""
    first: dict[str, list[Mention]] = defaultdict(list)
    for mention in mentions:
        first[resolver(mention.paper_id, mention.name)].append(mention)
    types = {key: concept_type(group) for key, group in first.items()}

    def type_of(key: str) -> str | None:
        return resolver.knowledge.types.get(key) or types.get(key)

    spelled = phrase_initials(first)
    lone = {resolver.known(short) for short in resolver.lone}  # the only first keys whose types `lone_typed` reads
    in_paper = paper_types({k: group for k, group in first.items() if k in lone}, resolver.context.texts)
    first_key = {m: key for key, group in first.items() for m in group}
    by_key: dict[str, list[Mention]] = defaultdict(list)
    for mention in mentions:
        span, paper = (mention.start, mention.end), mention.paper_id
        by_key[resolver.typed(paper, mention.name, mention.type, type_of, span, spelled,
                              in_paper.get((paper, first_key[mention]), frozenset()))].append(mention)
    return by_key


def paper_types(by_key: Mapping[str, list[Mention]],
                texts: Mapping[str, str]) -> dict[tuple[str, str], frozenset[str]]:
    """(paper, key) -> the types of the paper's mentions of the key (`written_types`)."""
    found: dict[tuple[str, str], list[Mention]] = defaultdict(list)
    for key, group in by_key.items():
        for m in group:
            found[m.paper_id, key].append(m)
    return {(paper, key): written_types(group, texts.get(paper)) for (paper, key), group in found.items()}


def written_types(group: list[Mention], text: str | None) -> frozenset[str]:
    """The type of one paper's mentions of a key (`concept_type`), and metric too where the abstract writes one of
    them where a measure stands (`evidence.measured_here`: `52.5% ZPL`)."""
    measured = text is not None and any(measured_here(text, m.start, m.end) for m in group)
    return frozenset({concept_type(group), *(("metric",) if measured else ())})


def acronym_letters(name: str) -> str | None:
    """A short acronym's letters in lower case, plural dropped (`EWMs`: ewm), else None (`acronym_key`: two to four
    letters, no digits)."""
    key = acronym_key(name)
    return key.lower() if key else None


def phrase_initials(by_key: Mapping[str, list[Mention]]) -> dict[tuple[str, str], str]:
    """(paper, initials) -> the key of the one concept a paper names by a phrase of two or more words with those
    initials (`Einstein World Models`: ewm); initials two of its concepts share (self- and semi-supervised
    learning) read as neither."""
    found: dict[tuple[str, str], set[str]] = defaultdict(set)
    for key, group in by_key.items():
        for mention in group:
            words = content_words(mention.name)
            if len(words) > 1 and all(w[:1].isalpha() for w in words) and not any(  # `TR representation`: no TR
                    acronym_key(word) for word in WORDS.split(mention.name)):
                found[mention.paper_id, "".join(w[0] for w in words)].add(key)
    return {at: next(iter(keys)) for at, keys in found.items() if len(keys) == 1}


def ordinary_words(by_key: dict[str, list[Mention]], knowledge: Knowledge, texts: dict[str, str]) -> set[str]:
    """Keys written only as an ordinary word spelled like one of the corpus's acronyms (`clip` beside CLIP:
    `variants.word_twins`), unless the gazetteer knows them; as a model or dataset they name nothing. A form whose
    only capital opens it counts in lower case where the capital says nothing: opening a sentence, or in a run of
    title-cased words (`a Unified Clip-based Event Search Engine`), or anywhere when most of the key's papers write
    it in lower case (`math` in five papers, `Math and General domains` in a sixth); `we fine-tune Phi` keeps its name
    unless most papers write `phi`."""
    acronyms = {m.name for g in by_key.values() for m in g if acronym_key(m.name)}
    forms: dict[str, set[str]] = {}
    for key, group in by_key.items():
        if key in knowledge.names or key in knowledge.canonical:
            continue
        lower = 2 * len({m.paper_id for m in group if m.name.islower()}) > len({m.paper_id for m in group})
        forms[key] = {m.name.lower() if m.name[1:].islower() and (lower or capital_says_nothing(m, texts)) else m.name
                      for m in group}
    return word_twins(forms, acronyms)


WORD = re.compile(r"[A-Za-z][\w'-]*|[.!?]")
LINKING = frozenset("a an and as at by for from in of on or the to via with &".split())


def capital_says_nothing(mention: Mention, texts: dict[str, str]) -> bool:
    """Whether a capitalised mention opens its sentence or stands between capitalised words (a title's case:
    `A Unified Clip-based Event Search`; linking words such as `and`, `of` skipped; `Llama and Phi` is a list)."""
    if mention.start == mention.sentence_start:
        return True
    text, opening = texts.get(mention.paper_id, ""), max(mention.sentence_start, mention.start - 60)
    before = [w for i, w in enumerate(WORD.findall(text[opening:mention.start]))  # a sentence's first word: no title
              if w.lower() not in LINKING and not (i == 0 and opening == mention.sentence_start)]
    after = [w for w in WORD.findall(text[mention.end:mention.end + 60]) if w.lower() not in LINKING]
    if text[mention.end:mention.end + 1] == "-":  # `Clip-based`: the word after the hyphenated one
        after = after[1:]
    return all(words and words[0][:1].isupper() for words in (before[-1:], after[:1]))


def adjectives_only(group: list[Mention], members: list[str], knowledge: Knowledge) -> bool:
    """A group every written form of which is a lone adjective (`autoregressive`, `Self-Adaptive`) and that the
    gazetteer does not know."""
    return not any(k in knowledge.names or k in knowledge.canonical for k in members) and all(
        lone_adjective(m.name) for m in group)


def sentence_initial(by_key: dict[str, list[Mention]], texts: dict[str, str]) -> set[tuple[str, str, str]]:
    """(key, paper, name) of the forms whose only capital opens a sentence each time the paper writes them (`Vision
    model` there is the phrase, not a name); read only where the abstract is known."""
    seen: dict[tuple[str, str, str], bool] = {}
    for key, group in by_key.items():
        for m in group:
            if m.paper_id in texts and m.name[:1].isupper() and not any(c.isupper() or c.isdigit() for c in m.name[1:]):
                form = (key, m.paper_id, m.name)
                seen[form] = seen.get(form, True) and m.start == m.sentence_start
    return {form for form, initial in seen.items() if initial}


def merge_variants(by_key: dict[str, list[Mention]], resolver: Resolver,
                   initial: set[tuple[str, str, str]] = frozenset()) -> tuple[dict[str, list[Mention]], dict[str, list[str]]]:
    """Join keys that name one concept (acronym case, `X score`, `rate of convergence`, expansions alike, acronym
    words spelled out, one paper's typo of a name, a model's version without its family) under the most used key;
    also the member keys of each. `initial` forms are capitalised only because they open a sentence."""
    keys = set(by_key)
    acronyms = {a for g in by_key.values() for m in g if (a := acronym_key(m.name))}
    forms = sorted({(k, m.paper_id, m.name) for k, g in by_key.items() for m in g})
    defined = {a for a, _ in resolver.definitions.same} | set(resolver.definitions.dominant.values())
    spelled = ((k, resolver.spelled_out(paper, name)) for k, paper, name in forms)
    names = defaultdict(set)
    for key, _, name in forms:
        names[key].add(name)
    pairs = [*case_pairs(keys, acronyms, lambda a: resolver("", a), names.__getitem__),
             *((a, b) for a, b in kind_pairs(forms, keys, resolver, lambda k: concept_type(by_key[k]), initial)
               if not {a, b} <= set(resolver.knowledge.names)),  # two gazetteer entries: cross-entropy method, loss
             *inverted_pairs(forms, keys, resolver),
             *((k, t) for k, t in spelled if t in keys and t != k),
             *defined_spelled_out(resolver, keys),
             *((a, b) for a, b in resolver.definitions.same
               if a in keys and b in keys and not known_apart(resolver, a, b)),
             *known_alike(resolver, keys)]
    types = {k: concept_type(g) for k, g in by_key.items()}
    pairs.extend(ending_pairs(keys, resolver.known, types.__getitem__, resolver.knowledge.names, resolver.knowledge.generic))
    pairs.extend(modifier_pairs(keys, types.__getitem__, resolver.knowledge.generic))
    spelled = resolver.definitions.spelled  # a long form a paper defines its acronym by, written only there
    pairs.extend(typo_pairs({k: [*((m.paper_id, m.name, m.role) for m in g),
                                 *((g[0].paper_id, n, g[0].role) for n in spelled.get(k, ()))]
                             for k, g in by_key.items()}, resolver.knowledge.forms))
    models = {k: (Counter(m.name for m in g).most_common(1)[0][0], len({m.paper_id for m in g}))
              for k, g in by_key.items() if types[k] == "model"}
    known = resolver.knowledge
    families = (n for k, n in known.names.items() if known.types.get(k) == "model" and " " not in n)
    pairs.extend(family_pairs(models, families, lambda name: resolver("", name)))
    pairs.extend(written_pairs(forms, keys, lambda k: types[k], resolver))
    # a defined acronym joins only its own type: LM the model, LM the modeling
    return regroup(by_key, [(a, b) for a, b in pairs if a not in defined or types[a] == types[b]])


def known_apart(resolver: Resolver, a: str, b: str) -> bool:
    """Two expansions of one acronym that read alike (`acronyms.same_meaning`) where one is the other with a whole word
    more at its end that names no kind (`detection`, not `network` or `model`) and the gazetteer names only the
    longer as a concept: `out-of-distribution (OOD)` is the modifier, `out-of-distribution (OOD) detection` the
    task."""
    short, long = sorted((a, b), key=len)
    extra = long[len(short):]
    if not long.startswith(short) or not extra or extra in KINDS or resolver.known(short) == resolver.known(long):
        return False
    written = resolver.definitions.spelled.get(long, {})  # a whole word more (not `question-answer(ing)`)
    if not any(len(words := re.split(r"[\s-]+", form)) > 1 and match_key(words[-1]) == extra for form in written):
        return False
    return resolver.known(long) in resolver.knowledge.names and resolver.known(short) not in resolver.knowledge.names


def defined_spelled_out(resolver: Resolver, keys: set[str]) -> Iterable[tuple[str, str]]:
    """A long form papers define an acronym by, read with its own acronym words spelled out, when that is a key too
    (`RL with Verifiable Rewards (RLVR)`: reinforcement learning with verifiable rewards)."""
    for key in sorted(keys & set(resolver.definitions.spelled)):
        for written in sorted(resolver.definitions.spelled[key]):
            if (target := resolver.spelled_out("", written)) in keys and target != key:
                yield key, target
                break


def known_alike(resolver: Resolver, keys: set[str]) -> Iterable[tuple[str, str]]:
    """The corpus's reading of an acronym and the gazetteer's, when they spell alike (AUC: area under
    ROC / area under the ROC curve); not when they differ (EM: expectation maximization / exact match)."""
    definitions, knowledge = resolver.definitions, resolver.knowledge
    for short, long in sorted(definitions.dominant.items()):
        known = knowledge.canonical.get(short)
        spelled = definitions.spelled.get(long)
        if known and known != long and {known, long} <= keys and spelled and known in knowledge.names \
                and not truncated(long, known):  # `policy optimization` is no proximal policy optimization
            if same_meaning(max(sorted(spelled), key=spelled.get), knowledge.names[known]):
                yield long, known


def make_entities(groups: dict[str, list[Mention]], members: dict[str, list[str]], resolver: Resolver,
                  texts: dict[str, str], made: dict[str, tuple] | None = None,
                  proper: frozenset[str] = frozenset()) -> tuple[list[Entity], dict[str, str]]:
    """One entity per group: its concept type, canonical label and id (`ids.entity_ids`: from the concept, not
    from its rank). `made` keeps each group's concept and entity row by key, so a second call reads again only the
    groups whose member keys changed (a group's concept depends on its mentions and member keys alone)."""
    made = {} if made is None else made
    concepts, rows = [], []
    for key in sorted(groups):
        if key not in made or made[key][0] != members[key]:
            made[key] = (list(members[key]), *concept_row(key, groups[key], members[key], resolver, texts, proper))
        concepts.append(made[key][1])
        rows.append(made[key][2])
    entity_of = {}
    entities = []
    for (key, entity_type, label, aliases), entity_id in zip(rows, entity_ids(concepts)):
        entity_of[key] = entity_id
        entities.append(Entity(entity_id, entity_type, label, aliases))
    return sorted(entities, key=lambda e: e.id), entity_of


def concept_row(key: str, group: list[Mention], members: list[str], resolver: Resolver, texts: dict[str, str],
                proper: frozenset[str] = frozenset()) -> tuple[Concept, tuple[str, str, str, tuple[str, ...]]]:
    """A group's concept and its entity row (key, type, label, aliases). The label candidates are the written forms
    and the long forms papers define the group's acronyms by, or the gazetteer's name for a concept it knows."""
    knowledge, spelled = resolver.knowledge, resolver.definitions.spelled
    known = known_entry(members, knowledge)
    entity_type = concept_type(group, knowledge.types.get(known or ""), defined_votes(group, texts))
    opening = [opens_sentence(m, texts) and entity_type != "dataset" for m in group]
    inside = {m.name for m, opens in zip(group, opening) if not opens}  # forms written inside a sentence
    written = [as_written(m, opens, inside, proper) for m, opens in zip(group, opening)]
    forms = Counter(written)
    papers = Counter(form for form, _ in set(zip(written, (m.paper_id for m in group))))
    if not any(" " in form for form in forms):  # only acronyms written: the defined long form
        for member in members:
            papers.update(spelled.get(member, {}))
    descriptive = entity_type in ("method", "task", "metric") and not any(m.role == "proposed" for m in group)
    label = choose_label(forms, papers, proper=entity_type == "dataset", known=knowledge.names.get(known or ""),
                         descriptive=descriptive)
    aliases = tuple(sorted(({display_form(m.name) for m in group} | {m.name for m in group}) - {label}))
    return concept_of(entity_type, label, key, members, resolver), (key, entity_type, label, aliases)


def opens_sentence(mention: Mention, texts: dict[str, str]) -> bool:
    """Whether a name of several words opens its sentence with its only capital (`Composed image retrieval is`);
    read only where the abstract is known."""
    name = mention.name
    return (mention.paper_id in texts and mention.start == mention.sentence_start and " " in name and name[:1].isupper()
            and not any(c.isupper() or c.isdigit() for c in name[1:]))


def proper_words(groups: Iterable[list[Mention]], texts: dict[str, str]) -> frozenset[str]:
    """Words the corpus's names write with a capital inside a sentence, beside words in lower case, more often than
    in lower case (`Gaussian`, `Chinese`; not `Visual`, which only title-cased names write so)."""
    capital, lower = Counter(), Counter()
    for group in groups:
        for m in group:
            if title_cased(m.name):
                continue
            for word in (m.name.split() if not opens_sentence(m, texts) else m.name.split()[1:]):
                part = word.split("-")[0]
                if part[:1].isupper() and part[1:].islower():
                    capital[part] += 1
                elif part.islower():
                    lower[part] += 1
    return frozenset(w for w, n in capital.items() if n > lower[w.lower()])


def as_written(mention: Mention, opens: bool, inside: set[str], proper: frozenset[str] = frozenset()) -> str:
    """A mention's form for its label: a name whose only capital opens its sentence (`opens`) counts in lower case
    unless a paper writes it so inside a sentence too (`inside`: `Dice score` keeps its capital, `On-policy
    distillation` does not) or its first word is a proper one (`proper_words`: `Chinese word segmentation`)."""
    form = display_form(mention.name)
    if not opens or mention.name in inside or form.split()[0].split("-")[0] in proper:
        return form
    return form[:1].lower() + form[1:]


def concept_of(entity_type: str, label: str, key: str, members: list[str], resolver: Resolver) -> Concept:
    """What the entity's id derives from: the concept owns its label when the label's key, or the corpus's reading
    of it (an acronym's agreed definition, the gazetteer's name), is a member key, and that key is the concept's;
    else the concept's first member key (a label borrowed from another reading). A coinage (`name|paper`) never
    owns its label: its key names the coining paper."""
    if MARK in key:
        return Concept(entity_type, label, key, False)
    label_key = surface_key(label)
    readings = (label_key, resolver("", label), *sorted(resolver.coined_as.get(label_key, ())))
    owned = [k for k in readings if k in members]  # the last: a long form a paper defines its coined name by
    key = owned[0] if owned else min(members)
    standing = (key not in resolver.knowledge.names) * 2 + (key != label_key)
    return Concept(entity_type, label, key, bool(owned), standing)
