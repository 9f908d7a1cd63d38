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
        self.p.add(path, message)

    def keys(self, data: Mapping[str, Any], allowed: Iterable[str], path: str) -> None:
        allowed = tuple(allowed)
        for key in data:
            if key not in allowed:
                self.bad(f"{path}.{key}" if path else str(key),
                         f"unknown key; expected one of {', '.join(allowed)}")

    def mapping(self, value: Any, path: str) -> Mapping[str, Any] | None:
        if isinstance(value, Mapping):
            return value
        self.bad(path, f"expected a mapping, got {show(value)}")
        return None

    def seq(self, value: Any, path: str) -> list[Any]:
        if value is None:
            return []
        if isinstance(value, list):
            return value
        self.bad(path, f"expected a list, got {show(value)}")
        return []

    def choice(self, value: Any, options: Iterable[str], path: str) -> str | None:
        options = tuple(options)
        if isinstance(value, str) and value.lower() in options:
            return value.lower()
        self.bad(path, f"expected one of {', '.join(options)}, got {show(value)}")
        return None

    def boolean(self, value: Any, path: str) -> bool:
        if isinstance(value, bool):
            return value
        self.bad(path, f"expected true or false, got {show(value)}")
        return False

    def integer(self, value: Any, path: str, lo: int | None = None, hi: int | None = None) -> int | None:
        if isinstance(value, bool) or not isinstance(value, int):
            self.bad(path, f"expected a whole number, got {show(value)}")
            return None
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            rng = f"{lo}..{hi}" if hi is not None else f"at least {lo}"
            self.bad(path, f"expected {rng}, got {value}")
            return None
        return value

    def in_steps(self, value: Any, path: str) -> int | None:
        # 14.x / glossary/damage: damage, healing and values come in steps of 5 (the edition's damage_step)
        step = numbers().damage_step
        if isinstance(value, bool) or not isinstance(value, int):
            self.bad(path, f"expected a multiple of {step}, got {show(value)}")
            return None
        if value % step:
            self.bad(path, f"expected a multiple of {step}, got {value}")
            return None
        if value < 0:
            self.bad(path, f"expected 0 or more, got {value}")
            return None
        return value

    def version(self, value: Any, path: str) -> str:
        """A Codex edition's version ("0.4.1"), as a card's `editions:` names them."""
        text = str(value) if isinstance(value, str | int | float) and not isinstance(value, bool) else ""
        if not VERSION.match(text):
            self.bad(path, f"expected a Codex version such as \"0.4.0\", got {show(value)}")
        return text

    def whole(self, value: Any, path: str, positive: bool = False, signed: bool = False) -> int | None:
        """A card's value, a bonus or an effect's amount: any whole number (glossary/damage: the engine
        rounds damage and healing down to a step of 5 where they are dealt, not here)."""
        if isinstance(value, bool) or not isinstance(value, int):
            self.bad(path, f"expected a whole number, got {show(value)}")
            return None
        if positive and value <= 0:
            self.bad(path, f"expected a whole number above 0, got {value}")
            return None
        if not signed and value < 0:
            self.bad(path, f"expected 0 or more, got {value}")
            return None
        return value

    def text(self, value: Any, path: str) -> str:
        if isinstance(value, str):
            return value
        self.bad(path, f"expected text, got {show(value)}")
        return ""

    # --- pieces of the schema
