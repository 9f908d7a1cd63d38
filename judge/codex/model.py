"""The typed objects of the Codex: chapters, rules (chapter, section, rule, sub-item), glossary
entries, interpretations and the cross-references between them. All are frozen records."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class CodexError(ValueError):
    """The Codex data can't be read: `.problems` lists what and where."""

    def __init__(self, message: str, problems: list[dict] | None = None):
        super().__init__(message)
        self.problems = problems or [{"path": "", "message": message}]


@dataclass(frozen=True)
class Chapter:
    number: int
    title: str | None
    present: bool
    title_given: bool = True   # False: the title is ours (the source text has none)
    file: str | None = None

    @property
    def id(self) -> str:
        return str(self.number)


@dataclass(frozen=True)
class Example:
    text: str
    cards: tuple[str, ...] = ()


@dataclass(frozen=True)
class Rule:
    """A chapter, section, rule or sub-item, addressed by its Codex id ("10", "13.6", "11.5.1",
    "11.6.1b"). `text` is the rule's words; for a chapter or section it is its title."""

    id: str
    kind: str                       # "chapter" | "section" | "rule" | "item"
    text: str
    chapter: int
    parent: str | None = None
    children: tuple[str, ...] = ()
    examples: tuple[Example, ...] = ()
    notes: tuple[str, ...] = ()
    intro: str = ""                 # chapters: the line under the title
    numbering: str | None = None    # chapter 11: "confirmed" or "inferred" (ours)
    empty_in_source: bool = False   # present in the source, but without text (13.6.4)
    title_given: bool = True        # False for titles that are ours (chapter 11 sections, chapter 13)
    numbered_by: str | None = None  # the interpretation that gave this chapter its numbers (chapter 11)
    item_marker: str | None = None  # a rule with sub-items (and the items): how the Codex prints them,
                                    # "letter" (11.6.1a), "number" (1., 2.) or "bullet" (-); ids keep letters

    @property
    def section(self) -> str | None:
        parts = self.id.rstrip("abcdefghijklmnopqrstuvwxyz").split(".")
        return ".".join(parts[:2]) if len(parts) >= 2 else None

    @property
    def is_heading(self) -> bool:
        return self.kind in {"chapter", "section"}

    def all_text(self) -> str:
        """Every word the rule holds itself: its text, examples and notes (not its children)."""
        return "\n".join([self.text, self.intro, *(e.text for e in self.examples), *self.notes]).strip()


@dataclass(frozen=True)
class GlossaryEntry:
    term: str
    slug: str
    aliases: tuple[str, ...]
    short: str
    body: tuple[str, ...] = ()
    see_also: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        return f"glossary/{self.slug}"

    @property
    def letter(self) -> str:
        return self.term[:1].upper()

    def all_text(self) -> str:
        return "\n".join([self.short, *self.body])


@dataclass(frozen=True)
class Interpretation:
    """A decision of ours where the Codex is silent (codex/editions/<v>/interpretations/<id>.yaml)."""

    id: str
    question: str
    reading: Any
    why: str
    stands_in_for: tuple[str, ...]
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    @property
    def ref(self) -> str:
        return f"interpretation/{self.id}"


@dataclass(frozen=True)
class Reference:
    """One cross-reference: `source` (a rule id, "glossary/<slug>" or "interpretation/<id>")
    cites `target` (a rule id). `sentence` is the citing sentence; `how` is "text" (written in
    the text), "rules" (a glossary "Rules" list) or "stands_in_for" (an interpretation)."""

    source: str
    target: str
    present: bool
    sentence: str = ""
    how: str = "text"
