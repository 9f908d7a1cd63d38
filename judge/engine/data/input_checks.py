"""The checks every reader of user input shares (the card schema, the state and scenario loaders):
each reports what is wrong with a value at its key path (`cards[2].hp: expected 0 or more, got -5`) and
returns what can be used of it, so that one pass lists every mistake.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from judge.codex.editions import VERSION
from judge.engine.data.edition import numbers
from judge.engine.data.errors import Problems


def show(value: Any) -> str:
    """A value as a message quotes it: 'ten', 12, true, nothing, a list, a mapping."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return repr(value)
    return type(value).__name__ if not isinstance(value, (list, dict)) else \
        ("a list" if isinstance(value, list) else "a mapping")


class Checker:
    """Reports what is wrong with a value at its key path and returns what can be used of it."""

    def __init__(self, problems: Problems) -> None:
        self.p = problems
        self.refused: set[str] = set()   # names of cards refused for a bad value

    def bad(self, path: str, message: str) -> None:
        """A problem given as words only (code `input`)."""
        self.p.add(path, message)

    def problem(self, path: str, code: str, **facts: Any) -> None:
        """A problem of input_problems.PROBLEMS at `path`, its words made from `facts`."""
        self.p.problem(path, code, **facts)

    def keys(self, data: Mapping[str, Any], allowed: Iterable[str], path: str) -> None:
        allowed = tuple(allowed)
        for key in data:
            if key not in allowed:
                self.problem(f"{path}.{key}" if path else str(key), "unknown_key", key=str(key),
                             allowed=list(allowed))

    def mapping(self, value: Any, path: str) -> Mapping[str, Any] | None:
        if isinstance(value, Mapping):
            return value
        self.problem(path, "not_a_mapping", got=show(value))
        return None

    def seq(self, value: Any, path: str) -> list[Any]:
        if value is None:
            return []
        if isinstance(value, list):
            return value
        self.problem(path, "not_a_list", got=show(value))
        return []

    def choice(self, value: Any, options: Iterable[str], path: str) -> str | None:
        options = tuple(options)
        if isinstance(value, str) and value.lower() in options:
            return value.lower()
        self.problem(path, "not_a_choice", options=list(options), got=show(value))
        return None

    def boolean(self, value: Any, path: str) -> bool:
        if isinstance(value, bool):
            return value
        self.problem(path, "not_a_bool", got=show(value))
        return False

    def integer(self, value: Any, path: str, lo: int | None = None, hi: int | None = None) -> int | None:
        if isinstance(value, bool) or not isinstance(value, int):
            self.problem(path, "not_a_number", got=show(value))
            return None
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            self.problem(path, "out_of_range", lo=lo, hi=hi, got=value)
            return None
        return value

    def in_steps(self, value: Any, path: str) -> int | None:
        # 14.x / glossary/damage: damage, healing and values come in steps of 5 (the edition's damage_step)
        step = numbers().damage_step
        if isinstance(value, bool) or not isinstance(value, int):
            self.problem(path, "not_a_step", step=step, got=show(value))
            return None
        if value % step:
            self.problem(path, "not_a_step", step=step, got=value)
            return None
        if value < 0:
            self.problem(path, "negative", got=value)
            return None
        return value

    def version(self, value: Any, path: str) -> str:
        """A Codex edition's version ("0.4.1"), as a card's `editions:` names them."""
        text = str(value) if isinstance(value, str | int | float) and not isinstance(value, bool) else ""
        if not VERSION.match(text):
            self.problem(path, "not_a_version", got=show(value))
        return text

    def whole(self, value: Any, path: str, positive: bool = False, signed: bool = False) -> int | None:
        """A card's value, a bonus or an effect's amount: any whole number (glossary/damage: the engine
        rounds damage and healing down to a step of 5 where they are dealt, not here)."""
        if isinstance(value, bool) or not isinstance(value, int):
            self.problem(path, "not_a_number", got=show(value))
            return None
        if positive and value <= 0:
            self.problem(path, "not_positive", got=value)
            return None
        if not signed and value < 0:
            self.problem(path, "negative", got=value)
            return None
        return value

    def text(self, value: Any, path: str) -> str:
        if isinstance(value, str):
            return value
        self.problem(path, "not_text", got=show(value))
        return ""

    # --- pieces of the schema
