"""Read a gold annotation file strictly: any problem is one error naming the file, the line and what is wrong.

A gold file is JSON Lines: per line an object with `id` (string or integer), `text` (or
`abstract`: the abstract) and `entities`, a list of objects with `name` (string), `type` (one of
the entity types), optional `role` (proposed/used) and `aliases` (strings). Gold is curated data:
a bad line stops the evaluation rather than being skipped, so scores never silently lose papers.
The gold abstracts become papers, and `build_items` builds them through the one build entry point.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Callable

from kg.errors import UserError
from kg.io.detect import NotText, decode
from kg.io.fields import read_abstract, read_id
from kg.io.jsonline import parse_line
from kg.types import ENTITY_TYPES, ROLES

if TYPE_CHECKING:
    from kg.run.engines import ExtractSpec
    from kg.types import Paper


def read_gold(path: Path) -> list[dict]:
    """The gold records of a JSONL file; raises UserError (file:line: problem) if it is not valid gold."""
    records = []
    for number, record, dropped in read_gold_lines(path):
        problem = gold_problem(record) or (f"{dropped} is nested too deeply" if dropped else None)
        if problem:
            raise UserError(f"{path}:{number}: {problem} (expected {{\"id\", \"text\", \"entities\": [...]}})")
        records.append(record)
    if not records:
        raise UserError(f"{path}: no gold records (the file is empty)")
    return records


def read_gold_lines(path: Path) -> list[tuple[int, object, str | None]]:
    """(line number, parsed JSON value, the first part dropped as nested too deeply or None) of each non-blank
    line of a JSONL gold file; UserError names the file and line of malformed JSON, or an unreadable file."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise UserError(f"{path}: cannot read the gold file ({error.strerror or error})") from None
    try:
        text = decode(data, [], path.name)
    except NotText as error:
        raise UserError(f"{path}:1: {error} (expected gold JSON Lines)") from None
    lines = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            parsed = parse_line(line.lstrip("\ufeff"))
        except ValueError as error:
            raise UserError(f"{path}:{number}: malformed JSON ({getattr(error, 'msg', error)})") from None
        lines.append((number, parsed.value, parsed.dropped[0] if parsed.dropped else None))
    if not lines:
        raise UserError(f"{path}: no gold records (the file is empty)")
    return lines


def gold_problem(record: object) -> str | None:
    """What is wrong with one gold record, or None."""
    if not isinstance(record, dict):
        return f"not a JSON object ({type(record).__name__})"
    if isinstance(record.get("id"), bool) or not isinstance(record.get("id"), (str, int)) or record["id"] == "":
        return "'id' is missing or not a string"
    given, problem = read_id(record["id"])
    if given != str(record["id"]):
        return f"'id' {problem or 'has control characters or surrounding space'} (gold ids must be used as they are)"
    text, problem = read_abstract(record.get("text", record.get("abstract")))
    if text is None:
        return f"'text': {problem}"
    entities = record.get("entities", [])
    if not isinstance(entities, list):
        return "'entities' is not a list"
    for index, entity in enumerate(entities):
        problem = entity_problem(entity)
        if problem:
            return f"entities[{index}] {problem}"
    return None


def entity_problem(entity: object) -> str | None:
    """What is wrong with one gold entity, or None."""
    if not isinstance(entity, dict):
        return "is not an object"
    if not isinstance(entity.get("name"), str) or not entity["name"].strip():
        return "has no 'name' string"
    if entity.get("type") not in ENTITY_TYPES:
        return f"has type {entity.get('type')!r} (choose from: {', '.join(ENTITY_TYPES)})"
    if entity.get("role", "used") not in ROLES:
        return f"has role {entity.get('role')!r} (choose from: {', '.join(ROLES)})"
    aliases = entity.get("aliases", [])
    if not isinstance(aliases, list) or not all(isinstance(alias, str) for alias in aliases):
        return "has 'aliases' that are not a list of strings"
    return None


def gold_papers(records: list[dict], file: str) -> list[Paper]:
    """The gold abstracts as papers whose ids equal the gold ids."""
    from kg.io.readers import Skipped, record_to_paper

    papers = []
    for line, record in enumerate(records, start=1):
        paper = record_to_paper({"id": record["id"], "year": record.get("year"), "title": record.get("title"),
                                 "abstract": record.get("text", record.get("abstract"))}, file, line)
        if not isinstance(paper, Skipped):
            papers.append(paper)
    return papers


def read_files(golds: list[Path]) -> dict[Path, list[dict]]:
    """The records of each gold file, every file read (and checked) before any work starts."""
    return {gold: read_gold(gold) for gold in golds}


def gold_items_of(files: dict[Path, list[dict]]) -> list[tuple[str, dict, Paper]]:
    """(file name, record, paper) of every usable gold record, file by file."""
    found = []
    for gold, records in files.items():
        by_id = {r["id"]: r for r in records}
        found += [(gold.name, by_id[p.id], p) for p in gold_papers(records, gold.name)]
    return found


def build_items(papers: list[Paper], model: str, spec: ExtractSpec, warn: Callable[[str], None],
                use_cache: bool = True, jobs: int = 1) -> list:
    """The predicted items of a graph built from `papers` with the extraction `spec` through the one build
    entry point (`warn` gets each warning)."""
    from kg.quality.evaluate import graph_items

    return graph_items(build_graph(papers, model, spec, warn, use_cache, jobs))


def build_graph(papers: list[Paper], model: str, spec: ExtractSpec, warn: Callable[[str], None],
                use_cache: bool = True, jobs: int = 1):
    """The graph built from `papers` with the extraction `spec` through the one build entry point (`jobs`
    extraction processes)."""
    from kg.io.corpus import Corpus
    from kg.run.build import BuildConfig, BuildHooks, build

    return build(Corpus(papers), BuildConfig(spec, model=model, use_cache=use_cache, jobs=jobs), hooks=BuildHooks(warn=warn)).graph


def read_relations(path: Path) -> dict[str, list[dict]]:
    """Gold relations by paper id from a JSONL file of `{"id", "relations": [{"head", "relation", "tail"}]}`
    (RELATIONS.md); any problem is a UserError naming the file and line."""
    from kg.types import RELATION_TYPES

    found: dict[str, list[dict]] = {}
    try:
        lines = decode(path.read_bytes(), [], path.name).splitlines()
    except OSError as error:
        raise UserError(f"{path}: cannot read the relation gold ({error.strerror or error})") from None
    except NotText as error:
        raise UserError(f"{path}:1: {error} (expected relation gold JSON Lines)") from None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = parse_line(line.lstrip("\ufeff")).value
        except ValueError as error:
            raise UserError(f"{path}:{number}: malformed JSON ({getattr(error, 'msg', error)})") from None
        relations = record.get("relations") if isinstance(record, dict) else None
        if not isinstance(record, dict) or not isinstance(record.get("id"), (str, int)) or not isinstance(relations, list):
            raise UserError(f"{path}:{number}: expected {{\"id\", \"relations\": [...]}}")
        for index, relation in enumerate(relations):
            if not (isinstance(relation, dict) and isinstance(relation.get("head"), str)
                    and isinstance(relation.get("tail"), str) and relation.get("relation") in RELATION_TYPES):
                raise UserError(f"{path}:{number}: relations[{index}] needs 'head' and 'tail' strings and a "
                                f"'relation' of {', '.join(RELATION_TYPES)}")
        found[str(record["id"])] = relations
    if not found:
        raise UserError(f"{path}: no relation records (the file is empty)")
    return found
