"""Read `codex/` (codex.yaml, the chapter files, the glossary, the interpretations) into typed
objects. Files that can't be read raise CodexError; what reads but is wrong (a duplicate id, a
reference that lands nowhere) is collected in `Codex.problems` by judge.codex.validate."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml

from judge.codex.model import Chapter, CodexError, Example, GlossaryEntry, Interpretation, Rule


def read_yaml(path: Path) -> Any:
    try:
        with open(path, encoding="utf-8") as handle:
            return yaml.load(
                handle, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)
            )  # libyaml when built with it
    except FileNotFoundError:
        raise CodexError(f"{path}: file not found") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark else ""
        raise CodexError(f"{path}{where}: not valid YAML: {getattr(exc, 'problem', exc)}") from None


def _need(mapping: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(mapping, dict):
        raise CodexError(f"{where}: expected a mapping, got {type(mapping).__name__}")
    if key not in mapping:
        raise CodexError(f"{where}: missing key {key!r}")
    value = mapping[key]
    if not isinstance(value, kind):
        raise CodexError(f"{where}.{key}: expected {getattr(kind, '__name__', kind)}, got {value!r}")
    return value


def read_book(root: Path) -> tuple[dict, list[Chapter]]:
    book = read_yaml(root / "codex.yaml")
    where = f"{root / 'codex.yaml'}"
    _need(book, "version", str, where)
    chapters = []
    for i, item in enumerate(_need(book, "chapters", list, where)):
        at = f"{where}: chapters[{i}]"
        chapters.append(Chapter(
            number=_need(item, "number", int, at),
            title=item.get("title"),
            present=bool(_need(item, "present", bool, at)),
            title_given=bool(item.get("title_given", True)),
            file=item.get("file"),
        ))
    return book, chapters


def read_chapter(path: Path, chapter: Chapter) -> list[Rule]:
    """The rules of one chapter file in Codex order: the chapter, then each section, its rules
    and their sub-items."""
    data = read_yaml(path)
    where = str(path)
    number = _need(data, "chapter", int, where)
    if number != chapter.number:
        raise CodexError(
            f"{where}: says chapter {number}, but codex.yaml lists it as chapter {chapter.number}"
        )
    sections = _need(data, "sections", list, where)
    rules: list[Rule] = []
    numbered_by = data.get("numbering_interpretation")
    section_ids = [_need(s, "id", str, f"{where}: sections[{i}]") for i, s in enumerate(sections)]
    rules.append(Rule(id=str(number), kind="chapter", text=chapter.title or "", chapter=number,
                      children=tuple(section_ids), intro=data.get("intro", "") or "",
                      title_given=chapter.title_given, numbered_by=numbered_by))
    for i, section in enumerate(sections):
        at = f"{where}: sections[{i}] ({section_ids[i]})"
        items = _need(section, "rules", list, at)
        rule_ids = [str(_need(r, "id", (str, int, float), f"{at}.rules[{j}]")) for j, r in enumerate(items)]
        rules.append(Rule(id=section_ids[i], kind="section", text=_need(section, "title", str, at),
                          chapter=number, parent=str(number), children=tuple(rule_ids),
                          numbering=section.get("numbering"), title_given=section.get("title_given", True)))
        for j, raw in enumerate(items):
            rules.extend(_read_rule(raw, rule_ids[j], section_ids[i], number, f"{at}.rules[{j}]"))
    if numbered_by:
        rules = [replace(rule, numbered_by=numbered_by) for rule in rules]
    return rules


def _read_rule(raw: dict, rule_id: str, section: str, number: int, at: str) -> list[Rule]:
    text = raw.get("text") or ""
    if not isinstance(text, str):
        raise CodexError(f"{at}.text: expected text, got {text!r}")
    items = raw.get("items") or []
    examples = tuple(
        Example(text=_need(e, "text", str, f"{at}.examples[{k}]"), cards=tuple(e.get("cards") or ()))
        for k, e in enumerate(raw.get("examples") or [])
    )
    notes = tuple(str(n) for n in raw.get("notes") or [])
    item_ids = [str(_need(it, "id", str, f"{at}.items[{k}]")) for k, it in enumerate(items)]
    numbering = raw.get("numbering")
    marker = raw.get("item_marker", "letter" if items else None)
    if marker not in (None, "letter", "number", "bullet"):
        raise CodexError(f"{at}.item_marker: expected letter, number or bullet, got {marker!r}")
    rule = Rule(id=rule_id, kind="rule", text=text, chapter=number, parent=section,
                children=tuple(item_ids), examples=examples, notes=notes, numbering=numbering,
                empty_in_source=bool(raw.get("empty_in_source")), item_marker=marker)
    subs = [Rule(id=item_ids[k], kind="item", text=_need(it, "text", str, f"{at}.items[{k}]"),
                 chapter=number, parent=rule_id, numbering=numbering, item_marker=marker)
            for k, it in enumerate(items)]
    return [rule, *subs]


def read_glossary(path: Path) -> list[GlossaryEntry]:
    data = read_yaml(path)
    entries = []
    for i, raw in enumerate(_need(data, "glossary", list, str(path))):
        at = f"{path}: glossary[{i}]"
        entries.append(GlossaryEntry(
            term=_need(raw, "term", str, at),
            slug=_need(raw, "slug", str, at),
            aliases=tuple(raw.get("aliases") or ()),
            short=_need(raw, "short", str, at),
            body=tuple(raw.get("body") or ()),
            see_also=tuple(raw.get("see_also") or ()),
            rules=tuple(str(r) for r in raw.get("rules") or ()),
        ))
    return entries


INTERPRETATION_FIELDS = ("id", "question", "reading", "why", "stands_in_for")


def read_interpretations(folder: Path) -> tuple[list[Interpretation], list[dict]]:
    """Every `<id>.yaml` in the folder; a file that can't be used becomes a problem, not a crash
    (other areas add files here)."""
    found: list[Interpretation] = []
    problems: list[dict] = []
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        try:
            raw = read_yaml(path)
        except CodexError as exc:
            problems.append({"path": str(path), "message": str(exc)})
            continue
        missing = [key for key in INTERPRETATION_FIELDS if not isinstance(raw, dict) or key not in raw]
        if missing:
            problems.append({"path": str(path), "message": f"missing field(s): {', '.join(missing)}"})
            continue
        if str(raw["id"]) != path.stem:
            problems.append(
                {
                    "path": f"{path}: id",
                    "message": f"id {raw['id']!r} differs from the file name {path.stem!r}",
                }
            )
        stands = raw["stands_in_for"]
        if not isinstance(stands, list):
            problems.append({"path": f"{path}: stands_in_for", "message": "expected a list of rule ids"})
            stands = []
        extra = {k: v for k, v in raw.items() if k not in INTERPRETATION_FIELDS}
        found.append(
            Interpretation(
                id=str(raw["id"]),
                question=str(raw["question"]),
                reading=raw["reading"],
                why=str(raw["why"]),
                stands_in_for=tuple(str(s) for s in stands),
                extra=extra,
            )
        )
    return found, problems
