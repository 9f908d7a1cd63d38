"""What changed between two editions of the Codex: rules and glossary entries added, removed and
changed (with a word-level diff), and the edition data the engine reads (numbers.yaml, field.yaml).

    rules, glossary = compare(old, new)         # lists of Change, in Codex / glossary order
    word_diff("one two", "one three")          # [("same", "one "), ("del", "two"), ("ins", "three")]
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from judge.codex.book import Codex
from judge.codex.editions import EDITION_DATA
from judge.codex.loader import read_yaml
from judge.codex.model import GlossaryEntry, Rule
from judge.codex.refs import sort_key

CHANGES = ("added", "removed", "changed")


@dataclass(frozen=True)
class Change:
    id: str  # a rule id, "glossary/<slug>" or "<file>:<key path>" for edition data
    change: str  # one of CHANGES
    before: Any  # the text (or value) in the older edition; None when added
    after: Any  # the text (or value) in the newer edition; None when removed

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "change": self.change, "before": self.before, "after": self.after}


def rule_text(rule: Rule) -> str:
    """Everything a rule says, as one text: its words, then its examples and notes."""
    parts = [rule.text or ""]
    if rule.intro:
        parts.append(rule.intro)
    parts += [f"Example: {e.text}" for e in rule.examples]
    parts += [f"Note: {n}" for n in rule.notes]
    return "\n\n".join(p for p in parts if p)


def entry_text(entry: GlossaryEntry) -> str:
    """Everything a glossary entry says: its term, names, definition, body, see-also and rules."""
    parts = [
        entry.term + (f" (also: {', '.join(entry.aliases)})" if entry.aliases else ""),
        entry.short,
        *entry.body,
    ]
    if entry.see_also:
        parts.append("See also: " + ", ".join(entry.see_also))
    if entry.rules:
        parts.append("Rules: " + ", ".join(entry.rules))
    return "\n\n".join(parts)


def _changes(before: dict[str, str], after: dict[str, str], order: list[str]) -> list[Change]:
    out = []
    for key in order:
        old, new = before.get(key), after.get(key)
        if old == new:
            continue
        change = "added" if old is None else "removed" if new is None else "changed"
        out.append(Change(key, change, old, new))
    return out


def compare(old: Codex, new: Codex) -> tuple[list[Change], list[Change]]:
    """(rule changes, glossary changes) from `old` to `new`."""
    rules_old = {r.id: rule_text(r) for r in old.rules.values()}
    rules_new = {r.id: rule_text(r) for r in new.rules.values()}
    order = sorted(set(rules_old) | set(rules_new), key=sort_key)
    gloss_old = {e.id: entry_text(e) for e in old.glossary.values()}
    gloss_new = {e.id: entry_text(e) for e in new.glossary.values()}
    terms = {e.id: e.term.lower() for e in (*old.glossary.values(), *new.glossary.values())}
    return (
        _changes(rules_old, rules_new, order),
        _changes(gloss_old, gloss_new, sorted(terms, key=lambda i: (terms[i], i))),
    )


def compare_data(old_folder: Path, new_folder: Path) -> list[Change]:
    """The edition data that differs, one Change per value ("numbers.yaml:damage_step")."""
    out: list[Change] = []
    for name in EDITION_DATA:
        old = _flat(read_yaml(old_folder / name), name) if (old_folder / name).exists() else {}
        new = _flat(read_yaml(new_folder / name), name) if (new_folder / name).exists() else {}
        out += _changes(old, new, list(dict.fromkeys([*old, *new])))
    return out


def _flat(data: Any, prefix: str) -> dict[str, Any]:
    """{"numbers.yaml:recruiting_rounds.A": 4, …}: each scalar or list of scalars by its key path."""
    if isinstance(data, dict):
        out: dict[str, Any] = {}
        for key, value in data.items():
            out.update(_flat(value, f"{prefix}{':' if ':' not in prefix else '.'}{key}"))
        return out
    if isinstance(data, list) and any(isinstance(v, dict | list) for v in data):
        out = {}
        for i, value in enumerate(data):
            name = value.get("name") if isinstance(value, dict) else None
            out.update(_flat(value, f"{prefix}[{name if name is not None else i}]"))
        return out
    return {prefix: data}


_WORDS = re.compile(r"\s+|[^\s]+")


def word_diff(before: str | None, after: str | None) -> list[tuple[str, str]]:
    """The two texts as runs of ("same" | "del" | "ins", text), word by word (spaces kept)."""
    old = _WORDS.findall(before or "")
    new = _WORDS.findall(after or "")
    runs: list[tuple[str, str]] = []
    for op, a1, a2, b1, b2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if op == "equal":
            runs.append(("same", "".join(old[a1:a2])))
            continue
        if a2 > a1:
            runs.append(("del", "".join(old[a1:a2])))
        if b2 > b1:
            runs.append(("ins", "".join(new[b1:b2])))
    return runs
