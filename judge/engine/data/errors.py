"""Bad input and illegal actions, kept apart (python-chess habit):

- `ScenarioError`: the input itself is malformed or inconsistent (exit 2, HTTP 400). Its
  `.problems` list every problem with its key path: `{"path": "state.players.A.field.C9",
  "message": "no such slot; …"}`, plus `"line"` for YAML syntax errors.
- `Violation`: the input is fine but a rule forbids the action: a sentence naming cards and
  slots, with the rule ids behind it (the ruling's `rejected.violations`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Violation:
    """Why an action is not legal: a sentence naming cards and slots, plus the rule ids."""

    text: str
    rules: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "rules": list(self.rules)}


class StepLimit(RuntimeError):
    """Raised when a resolution takes more steps than the cap allows (a loop), or runs out of its budget."""


class ScenarioError(ValueError):
    def __init__(self, problems: list[dict[str, Any]], source: str | None = None) -> None:
        self.problems = problems
        self.source = source
        super().__init__(self.describe())

    def describe(self) -> str:
        head = f"{self.source}: " if self.source else ""
        count = len(self.problems)
        lines = [f"{head}{count} problem{'s' if count != 1 else ''} in the scenario:"]
        for p in self.problems:
            where = p.get("path") or "(top)"
            if p.get("line"):
                where += f" (line {p['line']})"
            lines.append(f"  {where}: {p['message']}")
        return "\n".join(lines)


class Problems:
    """Collects problems while loading so that every one is reported, not just the first."""

    def __init__(self) -> None:
        self.items: list[dict[str, Any]] = []

    def add(self, path: str, message: str, line: int | None = None) -> None:
        item: dict[str, Any] = {"path": path, "message": message}
        if line is not None:
            item["line"] = line
        self.items.append(item)

    def __bool__(self) -> bool:
        return bool(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def raise_if_any(self, source: str | None = None) -> None:
        if self.items:
            raise ScenarioError(self.items, source)
