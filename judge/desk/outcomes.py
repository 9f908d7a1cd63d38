"""What differs between two outcomes of one scenario (`runner.outcome`): the saved ruling and today's,
or a ruling under two editions (judge.changes)."""

from __future__ import annotations

from typing import Any

from judge.desk import runner


def outcome_differences(before: dict[str, Any] | None, after: dict[str, Any] | None) -> list[str]:
    """What differs between two outcomes, one short line each ("winner: none → A",
    "B:L1 hp: 15 → 10", "rejected: action 2 (10.1.1) → none")."""
    before, after = before or {}, after or {}
    lines = []
    for key in ("problems", "winner", "rejected"):
        if runner.canonical_json(before.get(key)) != runner.canonical_json(after.get(key)):
            lines.append(f"{key}: {_value(key, before.get(key))} → {_value(key, after.get(key))}")
    old, new = before.get("derived") or {}, after.get("derived") or {}
    for ref in sorted(set(old) | set(new)):
        a, b = old.get(ref) or {}, new.get(ref) or {}
        for key in sorted(set(a) | set(b)):
            if runner.canonical_json(a.get(key)) != runner.canonical_json(b.get(key)):
                lines.append(f"{ref} {key}: {_value(key, a.get(key))} → {_value(key, b.get(key))}")
    if not lines and runner.canonical_json(before.get("final")) != runner.canonical_json(after.get("final")):
        lines.append("the final board (piles, proactive slots or lasting effects) differs")
    return lines


def _value(key: str, value: Any) -> str:
    if value is None:
        return "none"
    if key == "rejected":
        return f"action {value.get('action')} ({', '.join(value.get('rules') or [])})"
    if key == "problems":
        return "; ".join(p.get("message", "") for p in value)
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "none"
    return str(value)
