"""Import a whole edition: the raw pages of a new edition's chapters and glossary (the plain format
of `codex/sources/`) become `codex/editions/<version>/`, built on a base edition (by default the
current one) for everything the pages don't carry.

    report = import_edition("0.4.1", [Path("ch10.txt"), Path("glossary.txt")], root)
    report.unplaced      # what could not be placed, each {"file", "what"}

Per page: a numbered chapter (seeds 004, 002) or the glossary (seed 003) is read by
`judge.codex.importer`; a chapter without rule numbers (seed 000, chapter 11) is placed on the
base edition's numbering of the chapter with the same title: its paragraphs are matched to the
base's rules in order, a reworded paragraph keeps the number of the one it replaces, and a
paragraph with no counterpart can't be numbered and is reported. Chapters and the glossary not
given are kept from the base (and reported as kept); so are the interpretations and the edition
data (`EDITION_DATA`), unless a page of that name (`numbers.yaml`, …) is given with the texts.
A chapter the base lacked arrives as present: its cited-but-absent rules become real rules.
"""

from __future__ import annotations

import copy
import difflib
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from judge.codex.book import Codex
from judge.codex.editions import EDITION_DATA, VERSION, editions, write_index
from judge.codex.importer import DEBRIS, detect_format, example_cards, import_page
from judge.codex.loader import read_yaml
from judge.codex.model import CodexError

_ITEM = re.compile(r"^\d+\.\s+([a-z])(.+)$")


@dataclass
class Report:
    version: str
    base: str
    folder: Path
    written: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    unplaced: list[dict[str, str]] = field(default_factory=list)
    problems: list[dict[str, str]] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not self.unplaced and not self.problems


def import_edition(
    version: str,
    files: list[Path],
    root: Path | None = None,
    base: str | None = None,
    date: str = "",
    make_current: bool = False,
) -> Report:
    """Write edition `version` from `files` and add it to editions.yaml. CodexError when it can't
    (a bad version, one we already hold, an unreadable page); what it can't place is in the report."""
    held = editions(root)
    if not VERSION.match(version or ""):
        raise CodexError(f"--edition: expected a version like 0.4.1, got {version!r}")
    if held.get(version) is not None:
        raise CodexError(f"edition {version} exists already ({held.folder(version)}); pick a new version")
    base_ed = held.require(base)
    base_codex = Codex(base_ed.folder)
    report = Report(version=version, base=base_ed.version, folder=held.root / "editions" / version)
    book = copy.deepcopy(read_yaml(base_ed.folder / "codex.yaml"))
    book["version"] = version
    pages = _read_pages(files, base_ed.folder, base_codex, report)
    staging = report.folder.with_name(f".{version}.importing")
    if staging.exists():
        shutil.rmtree(staging)
    try:
        _write(staging, base_ed.folder, book, pages, report)
        new = Codex(staging)
        report.problems.extend(new.problems)
        staging.rename(report.folder)
    finally:
        if staging.exists():
            shutil.rmtree(staging)
    listed = [{"version": e.version, "date": e.date, "sources": list(e.sources)} for e in held.editions]
    listed.append({"version": version, "date": date, "sources": [f.name for f in files]})
    write_index(held.root, listed, version if make_current else held.current)
    return report


@dataclass
class _Pages:
    chapters: dict[int, tuple[str, dict]] = field(default_factory=dict)  # number -> (file name, data)
    glossary: tuple[str, dict] | None = None
    data_files: dict[str, Path] = field(default_factory=dict)


def _read_pages(files: list[Path], base_folder: Path, base: Codex, report: Report) -> _Pages:
    pages = _Pages()
    for path in files:
        if path.suffix in {".yaml", ".yml"}:
            if path.name not in EDITION_DATA:
                what = f"not a Codex page nor edition data ({', '.join(EDITION_DATA)})"
                report.unplaced.append({"file": path.name, "what": what})
            else:
                read_yaml(path)  # refuse what does not read, before anything is written
                pages.data_files[path.name] = path
            continue
        number, data = _read_page(path, base_folder, base, report)
        if number is None:
            pages.glossary = (path.name, data)
        elif number is not False:
            if number in pages.chapters:
                what = f"chapter {number} again (after {pages.chapters[number][0]}); this page is used"
                report.unplaced.append({"file": path.name, "what": what})
            pages.chapters[number] = (path.name, data)
    return pages


def _read_page(path: Path, base_folder: Path, base: Codex,
               report: Report) -> tuple[int | bool | None, dict]:
    """One raw page → (its chapter number, None for the glossary, False when it could not be
    placed; its data)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CodexError(f"{path}: can't read it: {exc}") from None
    try:
        kind = detect_format(text)
    except CodexError:
        kind = "prose"
    try:
        if kind == "prose":
            return _place_prose(text, path.name, base_folder, base, report)
        data = import_page(text, base.cards_named)
        return data.get("chapter"), data
    except CodexError as exc:
        raise CodexError(f"{path}: {exc}") from None


def _write(folder: Path, base_folder: Path, book: dict, pages: _Pages, report: Report) -> None:
    (folder / "chapters").mkdir(parents=True)
    shutil.copytree(base_folder / "interpretations", folder / "interpretations")
    report.kept.append(f"interpretations/ (from {report.base})")
    for entry in book["chapters"]:
        number = entry["number"]
        if number in pages.chapters:
            name, data = pages.chapters[number]
            title = data.get("title")
            if title and (title != entry.get("title") or not entry.get("title_given", True)):
                entry["title"] = title
                entry.pop("title_given", None)
            entry.update(present=True, file=f"chapters/{number}.yaml")
            _dump(folder / entry["file"], data, f"# From {name} by `judge import-codex`.\n")
            report.written.append(entry["file"])
        elif entry.get("present"):
            shutil.copy2(base_folder / entry["file"], folder / entry["file"])
            report.kept.append(f"{entry['file']} (chapter {number} not given: kept from {report.base})")
    glossary = book.get("glossary", "glossary.yaml")
    if pages.glossary:
        _dump(folder / glossary, pages.glossary[1], f"# From {pages.glossary[0]} by `judge import-codex`.\n")
        report.written.append(glossary)
    else:
        shutil.copy2(base_folder / glossary, folder / glossary)
        report.kept.append(f"{glossary} (no glossary page given: kept from {report.base})")
    for name in EDITION_DATA:
        if name in pages.data_files:
            shutil.copy2(pages.data_files[name], folder / name)
            report.written.append(name)
        elif (base_folder / name).exists():
            shutil.copy2(base_folder / name, folder / name)
            report.kept.append(f"{name} (kept from {report.base})")
    _dump(
        folder / "codex.yaml",
        book,
        f"# The Codex, game version {book['version']}: its chapters and which "
        "texts we have (written by `judge import-codex`).\n",
    )


def _dump(path: Path, data: Any, head: str) -> None:
    path.write_text(
        head + yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100), encoding="utf-8"
    )


# --- chapters without rule numbers ------------------------------------------------------------------


def read_prose(text: str) -> tuple[str, list[dict]]:
    """A chapter page without rule numbers → (its title, its paragraphs in order). A paragraph is
    {"text", "examples", "notes", "items"}; "Example…"/"Note…" lines and lettered list lines
    ("1. aAn effect …") belong to the paragraph before them."""
    title = ""
    paragraphs: list[dict] = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line in DEBRIS:
            continue
        if not title and not paragraphs:
            title = line
            continue
        if line.startswith(("Example", "Note")) or _ITEM.match(line):
            if not paragraphs:
                raise CodexError(f"line {lineno}: {line[:40]!r} before the first paragraph")
            last = paragraphs[-1]
            if m := _ITEM.match(line):
                last["items"].append((m.group(1), m.group(2).strip()))
            elif line.startswith("Example"):
                last["examples"].append(line[len("Example") :].strip())
            else:
                last["notes"].append(line[len("Note") :].strip())
            continue
        paragraphs.append({"text": line, "examples": [], "notes": [], "items": []})
    if not paragraphs:
        raise CodexError("no paragraphs found")
    return title, paragraphs


def _place_prose(
    text: str, name: str, base_folder: Path, base: Codex, report: Report
) -> tuple[int | bool, dict]:
    """Number a chapter without rule numbers on the base's numbering of the chapter with its title."""
    title, paragraphs = read_prose(text)
    chapter = next((c for c in base.chapters if c.present and c.file and c.title == title), None)
    if chapter is None or chapter.file is None:
        report.unplaced.append(
            {
                "file": name,
                "what": f"a chapter without rule numbers titled {title!r}: no chapter "
                f"of {report.base} has that title to number it by",
            }
        )
        return False, {}
    data = copy.deepcopy(read_yaml(base_folder / chapter.file))
    slots = [(section, rule) for section in data["sections"] for rule in section["rules"]]
    matcher = difflib.SequenceMatcher(
        None,
        [" ".join(r.get("text", "").split()) for _, r in slots],
        [" ".join(p["text"].split()) for p in paragraphs],
        autojunk=False,
    )
    dropped = []
    for op, b1, b2, n1, n2 in matcher.get_opcodes():
        pairs = min(b2 - b1, n2 - n1) if op in {"equal", "replace"} else 0
        for k in range(pairs):
            _fill(slots[b1 + k][1], paragraphs[n1 + k], base.cards_named)
        dropped.extend(slots[b1 + pairs : b2])
        for paragraph in paragraphs[n1 + pairs : n2]:
            report.unplaced.append(
                {
                    "file": name,
                    "what": f"a paragraph of chapter {chapter.number} with no "
                    f"counterpart in {report.base} to number it by: "
                    f"{paragraph['text'][:80]!r}",
                }
            )
    for section, rule in dropped:
        section["rules"].remove(rule)
    return chapter.number, data


def _fill(rule: dict, paragraph: dict, known_cards: tuple[str, ...]) -> None:
    """Give a base rule the words of the new paragraph, keeping its number and marks."""
    rule["text"] = paragraph["text"]
    for key, values in (
        ("examples", [{"text": t, "cards": example_cards(t, known_cards)} for t in paragraph["examples"]]),
        ("notes", paragraph["notes"]),
        ("items", [{"id": f"{rule['id']}{letter}", "text": t} for letter, t in paragraph["items"]]),
    ):
        if values:
            rule[key] = values
        else:
            rule.pop(key, None)
