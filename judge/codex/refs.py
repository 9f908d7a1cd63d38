"""Cross-references in Codex text: "(11.5.1)", "(5.3)", "(chapter 12)", "See chapter 6", and bare
rule numbers such as "13.6.2" anywhere in a sentence."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

CHAPTERS = range(1, 19)

# A rule id: chapter, section, rule, and an optional sub-item letter ("11.6.1b").
RULE_ID = re.compile(r"^(\d{1,2})(?:\.(\d{1,2}))?(?:\.(\d{1,2}))?([a-z])?$")
REFERENCE = re.compile(
    r"\b[Cc]hapter (?P<chapter>\d{1,2})\b"
    r"|(?<![\w.·])(?P<rule>\d{1,2}\.\d{1,2}(?:\.\d{1,2})?[a-z]?)(?![\w·]|\.\d)"
)
_SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+(?=[A-Z\"“(])")


@dataclass(frozen=True)
class Found:
    start: int
    end: int
    target: str


def is_rule_id(value: str) -> bool:
    """Well-formed Codex id of chapter 1–18: "10", "13.6", "11.5.1", "11.6.1b"."""
    m = RULE_ID.match(value or "")
    if not m or int(m.group(1)) not in CHAPTERS:
        return False
    return not (m.group(4) and not m.group(3))


def chapter_of(rule_id: str) -> int:
    return int(rule_id.split(".")[0].rstrip("abcdefghijklmnopqrstuvwxyz"))


def find_references(text: str) -> Iterator[Found]:
    """Every reference in `text`, in order, with the span of the words that name it."""
    for m in REFERENCE.finditer(text or ""):
        target = m.group("chapter") or m.group("rule")
        if is_rule_id(target):
            yield Found(m.start(), m.end(), target)


def sentence_at(text: str, position: int) -> str:
    """The sentence of `text` around character `position`."""
    start = 0
    for m in _SENTENCE_END.finditer(text):
        if m.start() >= position:
            return text[start:m.start()].strip()
        start = m.end()
    return text[start:].strip()


def sort_key(rule_id: str) -> tuple:
    """Codex order: 9.5.6 < 10 < 10.1 < 10.1.1 < 10.3.4a < 10.3.5; "glossary/…" after the rules."""
    m = RULE_ID.match(rule_id) if is_rule_id(rule_id) else None
    if m is None:
        return (99, rule_id)
    numbers = tuple(int(g) if g else -1 for g in m.groups()[:3])
    return (*numbers, m.group(4) or "")
