"""Where the index's documents come from: a small registry of document sources.

A source says which data files it reads (their content hash decides when the index is stale) and
yields documents, plain dicts:

    {"id": "11.5.1", "kind": "rule", "url": "/rules/11.5.1", "title": "11.5.1",
     "names": "words that name the thing (terms, aliases, ids)", "context": "section title",
     "text": "the full plain text", "section": "11.5 Costs", "chapter": "11",
     "parent": "", "order": 1234}

Only `id`, `kind`, `url`, `title` and `text` are required. A source may also offer synonym groups
(slug -> [term, alias, …]); the glossary does. The card library and the scenario library plug in
later as more sources: `register(MySource())`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from judge import CODEX_DIR

KINDS = ("rule", "example", "section", "glossary")


class Source(Protocol):
    name: str

    def files(self) -> list[Path]: ...

    def documents(self) -> Iterable[dict[str, Any]]: ...

    def synonyms(self) -> dict[str, list[str]]: ...


def slugify(term: str) -> str:
    """The contract's slug: lower-case, every run of characters other than a-z and 0-9 -> "-"."""
    return re.sub(r"[^a-z0-9]+", "-", term.lower()).strip("-")


def rule_url(rule_id: str) -> str:
    return f"/rules/{rule_id}"


def glossary_url(slug: str) -> str:
    return f"/glossary/{slug}"


def _get(obj: Any, *names: str, default: Any = None) -> Any:
    """The first attribute (or mapping key) of `obj` among `names` that is present and not None."""
    for name in names:
        value = obj.get(name) if isinstance(obj, dict) else getattr(obj, name, None)
        if value is not None:
            return value
    return default


def _texts(value: Any) -> list[str]:
    """A list of strings from a string, a list of strings, or a list of objects with `.text`."""
    if not value:
        return []
    if isinstance(value, str):
        return [value]
    return [item if isinstance(item, str) else str(_get(item, "text", default="")) for item in value]


@dataclass
class CodexSource:
    """The Codex: chapters and sections (titles), rules and sub-items with their examples and notes,
    examples on their own (kind "example"), and the glossary."""

    name: str = "codex"
    directory: Path = field(default_factory=lambda: CODEX_DIR)

    def files(self) -> list[Path]:
        return sorted(p for p in self.directory.rglob("*.yaml") if "sources" not in p.parts)

    def _codex(self) -> Any:
        from judge.codex import load_codex

        return load_codex()

    def synonyms(self) -> dict[str, list[str]]:
        groups: dict[str, list[str]] = {}
        for slug, entry in self._codex().glossary.items():
            term = str(_get(entry, "term", default=slug))
            groups[slug] = [term, *[str(a) for a in _get(entry, "aliases", default=[])]]
        return groups

    def redirects(self) -> dict[str, str]:
        """Every rule number that has a page: present rules, sections, chapters, cited-but-absent."""
        codex = self._codex()
        ids = list(codex.rules) + list(getattr(codex, "cited_absent", {}) or {})
        ids += [str(_get(chapter, "number", "id")) for chapter in getattr(codex, "chapters", [])]
        return {rule_id: rule_url(rule_id) for rule_id in ids}

    def documents(self) -> Iterator[dict[str, Any]]:
        codex = self._codex()
        titles = {}
        for chapter in getattr(codex, "chapters", []):
            number = str(_get(chapter, "number", "id"))
            titles[number] = str(_get(chapter, "title", default=""))
        order = 0
        for rule_id, rule in codex.rules.items():
            order += 1
            yield from self._rule_documents(codex, rule_id, rule, titles, order)
        for chapter_number, title in titles.items():
            order += 1
            yield {"id": chapter_number, "kind": "section", "url": rule_url(chapter_number),
                   "title": f"Chapter {chapter_number}: {title}", "names": title, "text": title,
                   "section": f"Chapter {chapter_number}", "chapter": chapter_number, "order": order}
        for slug, entry in codex.glossary.items():
            order += 1
            term = str(_get(entry, "term", default=slug))
            aliases = [str(a) for a in _get(entry, "aliases", default=[])]
            short = str(_get(entry, "short", "summary", default=""))
            body = " ".join(_texts(_get(entry, "body", "text", default="")))
            text = " ".join(part for part in (short, body) if part)
            if aliases:
                text += " Also: " + ", ".join(aliases) + "."
            yield {"id": f"glossary/{slug}", "kind": "glossary", "url": glossary_url(slug),
                   "title": term, "names": " ; ".join([term, *aliases]), "text": text,
                   "section": f"Glossary · {term[:1].upper()}", "chapter": "glossary", "order": order}

    def _rule_documents(self, codex: Any, rule_id: str, rule: Any, titles: dict[str, str],
                        order: int) -> Iterator[dict[str, Any]]:
        chapter = rule_id.split(".")[0]
        depth = rule_id.count(".")
        text = str(_get(rule, "text", default="") or "")
        title = str(_get(rule, "title", default="") or "")
        chapter_label = f"Chapter {chapter}: {titles.get(chapter, '')}".rstrip(": ")
        if depth == 0:
            return  # chapters are indexed from codex.chapters
        if depth == 1 and not _texts(_get(rule, "examples", default=[])) and (title or not text):
            yield {"id": rule_id, "kind": "section", "url": rule_url(rule_id),
                   "title": f"{rule_id} {title}".strip(), "names": title, "text": title or text,
                   "section": chapter_label, "chapter": chapter, "order": order * 10}
            return
        section_id = ".".join(rule_id.split(".")[:2])
        section_rule = codex.rules.get(section_id)
        section_title = str(_get(section_rule, "title", default="") or "") if section_rule else ""
        examples = _texts(_get(rule, "examples", default=[]))
        notes = _texts(_get(rule, "notes", default=[]))
        full = " ".join([text, *[f"Note: {n}" for n in notes], *[f"Example: {e}" for e in examples]])
        yield {"id": rule_id, "kind": "rule", "url": rule_url(rule_id), "title": rule_id,
               "names": rule_id, "context": section_title, "text": full.strip(),
               "section": f"{section_id} {section_title}".strip() + f" · {chapter_label}",
               "chapter": chapter, "order": order * 10}
        for n, example in enumerate(examples, start=1):
            yield {"id": f"{rule_id}/example-{n}", "kind": "example", "url": rule_url(rule_id),
                   "title": f"{rule_id} example", "names": rule_id, "context": section_title,
                   "text": example, "section": f"{section_id} {section_title}".strip(),
                   "chapter": chapter, "parent": rule_id, "order": order * 10 + n}


@dataclass
class ListSource:
    """Documents given directly (tests, and a template for new sources)."""

    docs: list[dict[str, Any]]
    groups: dict[str, list[str]] = field(default_factory=dict)
    pages: dict[str, str] = field(default_factory=dict)
    name: str = "list"

    def files(self) -> list[Path]:
        return []

    def documents(self) -> Iterable[dict[str, Any]]:
        return list(self.docs)

    def synonyms(self) -> dict[str, list[str]]:
        return dict(self.groups)

    def redirects(self) -> dict[str, str]:
        return dict(self.pages)


SOURCES: list[Source] = [CodexSource()]


def register(source: Source) -> None:
    """Add a document source (the card library, the scenario library) to every future build."""
    if all(existing.name != source.name for existing in SOURCES):
        SOURCES.append(source)
