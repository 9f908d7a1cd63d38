"""Turn a raw Codex page, as copied off the web, into the data of `codex/`.

Two formats are understood:

* a numbered chapter (seeds 004 and 002): section headings run into their titles ("10.1Souls"),
  rule numbers on a line of their own ("1. 10.1.1" or "- 13.1.1"), lists under a rule
  ("1. the Wielder is …" or "- its own controller's effects;"), "Example…" and "Note…" lines;
* the glossary (seed 003): letter headings, "- TermAlso: alias, alias", a first line (the short
  definition), body lines, "- See also" followed by one line of names, "- Rules" followed by rule ids.

Page debris is dropped: "Loading the index…", "Contents", "CodexChapter 10 of 18Rules for game
version 0.4.0", list markers and the glossary's letter headings.

Sub-items of a rule get the rule's id plus a letter in source order: 10.3.4a, 10.3.4b, …
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from judge.codex.model import CodexError

DEBRIS = {"Loading the index…", "Loading the index...", "Contents"}
_BANNER = re.compile(r"^Codex\s*Chapter (\d+) of (\d+)\s*Rules for game version (\S+)$")
_SECTION = re.compile(r"^(\d{1,2}\.\d{1,2})\s*([^\d.\s].*)$")
_RULE = re.compile(r"^(?:\d+\.\s+|-\s+)?(\d{1,2}\.\d{1,2}\.\d{1,2})$")
_ITEM = re.compile(r"^(?:\d+\.\s+|-\s+)(.+)$")
_RANKED_NAME = re.compile(r"((?:[A-Z][\w'-]*)(?:[ -][A-Z][\w'-]*)*) \(rank \d\)")
_LETTER = re.compile(r"^[A-Z]$")
_TERM = re.compile(r"^- (.+?)(?:Also: (.+))?$")
_RULE_ID = re.compile(r"^\d{1,2}(?:\.\d{1,2}){0,2}[a-z]?$")


def slugify(term: str) -> str:
    """`DEF` → `def`, `Soul Spot` → `soul-spot`: lower-cased, each run of other characters a dash."""
    return re.sub(r"[^a-z0-9]+", "-", term.lower()).strip("-")


def example_cards(text: str, known_cards: Iterable[str] = ()) -> list[str]:
    """Card names an example mentions: the known names found in it, and any "Name (rank N)"."""
    found: list[tuple[int, str]] = []
    for name in known_cards:
        match = re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text)
        if match:
            found.append((match.start(), name))
    for match in _RANKED_NAME.finditer(text):
        name = match.group(1)
        if name.split()[0] in {"The", "A", "An"}:
            name = name.split(" ", 1)[1] if " " in name else name
        if all(name != known for _, known in found):
            found.append((match.start(1), name))
    return [name for _, name in sorted(found)]


def detect_format(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if any(_LETTER.match(line) for line in lines) and any("Also: " in line for line in lines):
        return "glossary"
    if any(_RULE.match(line) for line in lines):
        return "chapter"
    raise CodexError(
        "not a numbered chapter page nor the glossary: no rule numbers and no glossary terms found"
    )


def import_page(text: str, known_cards: Iterable[str] = ()) -> dict:
    """Raw page text → the YAML-ready mapping (a chapter or the glossary)."""
    if detect_format(text) == "glossary":
        return import_glossary(text)
    return import_chapter(text, known_cards)


def import_chapter(text: str, known_cards: Iterable[str] = ()) -> dict:
    known_cards = list(known_cards)
    chapter: dict = {"chapter": None}
    head: list[str] = []
    sections: list[dict] = []
    rule: dict | None = None
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line in DEBRIS:
            continue
        banner = _BANNER.match(line)
        if banner:
            chapter["chapter"] = int(banner.group(1))
            continue
        if m := _RULE.match(line):
            if not sections:
                raise CodexError(f"line {lineno}: rule {m.group(1)} before any section heading")
            rule = {"id": m.group(1), "text": ""}
            sections[-1]["rules"].append(rule)
        elif m := _SECTION.match(line):
            sections.append({"id": m.group(1), "title": m.group(2).strip(), "rules": []})
            rule = None
        elif rule is None:
            if sections:
                raise CodexError(f"line {lineno}: text outside any rule: {line[:60]!r}")
            head.append(line)
        else:
            _add_to_rule(rule, line, known_cards)
    return _finish_chapter(chapter, head, sections)


def _add_to_rule(rule: dict, line: str, known_cards: list[str]) -> None:
    """One line of a rule's body: an example, a note, a lettered sub-item, or more of its text."""
    if line.startswith("Example"):
        example_text = line[len("Example"):].strip()
        rule.setdefault("examples", []).append(
            {"text": example_text, "cards": example_cards(example_text, known_cards)})
    elif line.startswith("Note"):
        rule.setdefault("notes", []).append(line[len("Note"):].strip())
    elif (m := _ITEM.match(line)) and rule["text"]:
        # the id gets a letter; how the Codex prints the item ("1." or "-") is kept for readers
        rule.setdefault("item_marker", "bullet" if line.startswith("-") else "number")
        items = rule.setdefault("items", [])
        letter = "abcdefghijklmnopqrstuvwxyz"[len(items)]
        items.append({"id": rule["id"] + letter, "text": m.group(1).strip()})
    elif not rule["text"]:
        rule["text"] = line
    else:
        rule["text"] += "\n\n" + line


def _finish_chapter(chapter: dict, head: list[str], sections: list[dict]) -> dict:
    """The chapter's number (checked against the banner), title, intro and sections."""
    if not sections:
        raise CodexError("no section headings (like '10.1Souls') found")
    numbers = {s["id"].split(".")[0] for s in sections}
    if len(numbers) != 1:
        raise CodexError(f"sections of several chapters in one page: {sorted(numbers)}")
    number = int(numbers.pop())
    if chapter["chapter"] not in (None, number):
        raise CodexError(f"banner says chapter {chapter['chapter']} but the sections are {number}.x")
    chapter["chapter"] = number
    if head:
        chapter["title"] = head[0]
        if head[1:]:
            chapter["intro"] = " ".join(head[1:])
    for section in sections:
        for item in section["rules"]:
            if not item["text"]:
                item["empty_in_source"] = True
    chapter["sections"] = sections
    return chapter


def import_glossary(text: str) -> dict:
    entries: list[dict] = []
    mode = "entry"  # entry | see_also | rules
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line in DEBRIS or _LETTER.match(line):
            continue
        if line == "- See also":
            mode = "see_also"
            continue
        if line == "- Rules":
            mode = "rules"
            continue
        if line.startswith("- "):
            value = line[2:].strip()
            if mode == "see_also":
                _current(entries, lineno)["see_also"] = [name.strip() for name in value.split(",")]
                mode = "entry"
                continue
            if mode == "rules" and _RULE_ID.match(value):
                _current(entries, lineno).setdefault("rules", []).append(value)
                continue
            m = _TERM.match(line)
            assert m is not None  # a stripped line starting "- " has a character after it
            term = m.group(1).strip()
            aliases = [a.strip() for a in m.group(2).split(",")] if m.group(2) else []
            entries.append({"term": term, "slug": slugify(term), "aliases": aliases,
                            "short": "", "body": [], "see_also": [], "rules": []})
            mode = "entry"
            continue
        entry = _current(entries, lineno)
        if not entry["short"]:
            entry["short"] = line
        else:
            entry["body"].append(line)
    if not entries:
        raise CodexError("no glossary entries ('- Term') found")
    return {"glossary": entries}


def _current(entries: list[dict], lineno: int) -> dict:
    if not entries:
        raise CodexError(f"line {lineno}: text before the first glossary term")
    return entries[-1]
