"""Where the index's documents come from: a small registry of document sources.

A source says which data files it reads (their content hash decides when the index is stale) and
yields documents, plain dicts:

    {"id": "11.5.1", "kind": "rule", "title": "11.5.1",
     "names": "11.5.1 ; Costs",            # what names it: ids, terms, aliases, titles (boosted)
     "text": "the full plain text", "section": "11.5 Costs · Chapter 11: Effects",
     "chapter": "11", "parent": "", "order": 1234, "defines": []}

Only `id`, `kind`, `title` and `text` are required; a document holds no URL (the web builds its
page's from the kind and id, and from `parent` for an example). A source may also offer synonym groups
(slug -> [term, alias, …]); the glossary does. The card library and the scenario library are
sources too (`library_sources`: kinds "card" and "ruling"); more plug in with `register(MySource())`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from judge.codex import editions, load_edition
from judge.codex.editions import codex_root
from judge.search.library_sources import CardSource, RulingSource


class Source(Protocol):
    name: str

    def files(self) -> list[Path]: ...

    def documents(self) -> Iterable[dict[str, Any]]: ...

    def synonyms(self) -> dict[str, list[str]]: ...


@dataclass
class CodexSource:
    """The Codex: chapters and sections (titles), rules and sub-items with their examples and notes,
    examples on their own (kind "example"), and the glossary."""

    name: str = "codex"
    directory: Path | None = None  # the codex root (editions.yaml, editions/); None: codex_root()
    edition: str | None = None     # one edition (its own index); None: the current edition

    def files(self) -> list[Path]:
        folder = editions().folder(self.edition) if self.edition else self.directory or codex_root()
        return sorted(p for p in folder.rglob("*.yaml") if "sources" not in p.parts)

    def _codex(self) -> Any:
        return load_edition(self.edition)

    def synonyms(self) -> dict[str, list[str]]:
        groups: dict[str, list[str]] = {}
        for slug, entry in self._codex().glossary.items():
            groups[slug] = [entry.term, *entry.aliases]
        return groups

    def pages(self) -> list[str]:
        """Every rule number that has a page: present rules, sections, chapters, cited-but-absent."""
        codex = self._codex()
        return [*codex.rules, *codex.cited_absent, *(str(chapter.number) for chapter in codex.chapters)]

    def documents(self) -> Iterator[dict[str, Any]]:
        codex = self._codex()
        for order, rule in enumerate(codex.rules.values()):
            yield from self._rule_documents(codex, rule, order * 10)
        base = len(codex.rules) * 10
        for order, entry in enumerate(codex.glossary.values(), start=base):
            text = " ".join([entry.short, *entry.body])
            if entry.aliases:
                text += " Also: " + ", ".join(entry.aliases) + "."
            yield {"id": entry.id, "kind": "glossary", "title": entry.term,
                   "names": " ; ".join([entry.term, *entry.aliases]), "text": text,
                   "defines": [r for r in entry.rules if r in codex.rules],
                   "section": f"Glossary · {entry.letter}", "chapter": "glossary", "order": order}

    def _rule_documents(self, codex: Any, rule: Any, order: int) -> Iterator[dict[str, Any]]:
        chapter = str(rule.chapter)
        chapter_rule = codex.get(chapter)
        chapter_label = f"Chapter {chapter}" + (f": {chapter_rule.text}" if chapter_rule else "")
        if rule.kind in ("chapter", "section"):
            yield _section_document(rule, chapter, chapter_label, order)
            return
        section = codex.get(rule.section) if rule.section else None
        section_label = f"{section.id} {section.text}" if section else ""
        where = " · ".join(part for part in (section_label, chapter_label) if part)
        # shown as a reader finds it ("13.6.7, 3rd point", "11.3.1 (inferred)"); the id stays the key
        yield {"id": rule.id, "kind": "rule", "title": codex.label(rule.id),
               "names": " ; ".join(n for n in _rule_names(codex, rule, section) if n),
               "text": " ".join(b for b in _rule_body(codex, rule) if b),
               "section": where, "chapter": chapter, "order": order}
        for n, example in enumerate(rule.examples, start=1):
            yield {"id": f"{rule.id}/example-{n}", "kind": "example",
                   "title": f"{rule.id}, example {n}" if len(rule.examples) > 1 else f"{rule.id}, example",
                   "names": rule.id, "text": example.text, "section": where,
                   "chapter": chapter, "parent": rule.id, "order": order + n}


def _section_document(rule: Any, chapter: str, chapter_label: str, order: int) -> dict[str, Any]:
    title = f"Chapter {rule.id}: {rule.text}" if rule.kind == "chapter" else f"{rule.id} {rule.text}"
    return {"id": rule.id, "kind": "section", "title": title,
            "names": f"{rule.id} ; {rule.text}", "text": rule.intro or rule.text,
            "section": chapter_label if rule.kind == "section" else "Codex",
            "chapter": chapter, "order": order}


def _rule_names(codex: Any, rule: Any, section: Any) -> list[str]:
    """A rule is named by its section's title; a sub-item also by its rule's lead-in
    ("Unyielding does not protect against:"), without which it is half a sentence."""
    names = [rule.id, section.text if section else ""]
    parent = codex.get(rule.parent) if rule.parent else None
    if rule.kind == "item" and parent is not None:
        names.append(parent.text)
    return names


def _rule_body(codex: Any, rule: Any) -> list[str]:
    """A rule's text, its sub-items', its notes and its examples."""
    items = [codex.get(child) for child in rule.children]
    body = [rule.text or "", *(item.text for item in items if item is not None)]
    body += [f"Note: {note}" for note in rule.notes]
    body += [f"Example: {example.text}" for example in rule.examples]
    return body


@dataclass
class ListSource:
    """Documents given directly (tests, and a template for new sources)."""

    docs: list[dict[str, Any]]
    groups: dict[str, list[str]] = field(default_factory=dict)
    rule_pages: list[str] = field(default_factory=list)
    name: str = "list"

    def files(self) -> list[Path]:
        return []

    def documents(self) -> Iterable[dict[str, Any]]:
        return list(self.docs)

    def synonyms(self) -> dict[str, list[str]]:
        return dict(self.groups)

    def pages(self) -> list[str]:
        return list(self.rule_pages)


SOURCES: list[Source] = [CodexSource(), CardSource(), RulingSource()]


def register(source: Source) -> None:
    """Add a document source (the card library, the scenario library) to every future build."""
    if all(existing.name != source.name for existing in SOURCES):
        SOURCES.append(source)
