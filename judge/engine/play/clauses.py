"""Facts that a step's words shape as they go in (sayings.py renders them through `format`):

- `Opening(x)`: a Reason or Said that opens a sentence, its first letter capitalized;
- `Series(items, joint)`: records (or names) said one after another with a joint (", then ", "; ");
- `Words(x)`: a record with words of its own that is no Reason or Said (a Violation).

All keep the records they are made of (`of`, `items`), so a step's facts stay records; their words are
made only when the step's text is rendered.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from judge.engine.play.sayings import words


def _text(value: Any) -> str:
    """A record's words (a Said, a Reason, a Violation, another clause), or a name as it is."""
    said = words(value)
    if isinstance(said, str):
        return said
    return str(getattr(value, "text", said))


@dataclass(frozen=True)
class Opening:
    """A clause that opens a sentence: its words with a capital first letter."""

    of: Any

    @property
    def text(self) -> str:
        said = _text(self.of)
        return said[:1].upper() + said[1:]

    def __format__(self, spec: str) -> str:
        return format(self.text, spec)


@dataclass(frozen=True)
class Series:
    """Records or names said one after another, joined by `joint`."""

    items: tuple[Any, ...]
    joint: str = ", "

    @property
    def text(self) -> str:
        return self.joint.join(_text(item) for item in self.items)

    def __format__(self, spec: str) -> str:
        return format(self.text, spec)

    def __bool__(self) -> bool:
        return bool(self.items)


@dataclass(frozen=True)
class Words:
    """A record that has words of its own but is no Reason or Said (a Violation): its words."""

    of: Any

    @property
    def text(self) -> str:
        return _text(self.of)

    def __format__(self, spec: str) -> str:
        return format(self.text, spec)
