"""Did-you-mean for names a person typed: card names and slot names (one mistake, one message).

    close("Grey Knigth", ["Grey Knight", "Grunt"])   # -> "did you mean Grey Knight?"
    after("; ", close(...))                           # -> "; did you mean Grey Knight?" or ""
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def matches(typed: str, known: Iterable[str], n: int = 2, cutoff: float = 0.75) -> list[str]:
    """The known names closest to `typed` (case-insensitive), closest first, as they are spelt."""
    names = {k.lower(): k for k in known}
    hits = difflib.get_close_matches(typed.strip().lower(), list(names), n=n, cutoff=cutoff)
    return [names[h] for h in hits]


def close(typed: str, known: Iterable[str], n: int = 2) -> str:
    """The hint to append to a "no such …" message, or "" when nothing is close."""
    hits = matches(typed, known, n)
    return f"did you mean {' or '.join(hits)}?" if hits else ""


def after(sep: str, hint: str, end: str = "") -> str:
    """`hint` wrapped for a message (`sep` before, `end` after), or "" when there is none."""
    return f"{sep}{hint}{end}" if hint else ""
