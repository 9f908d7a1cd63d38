"""The Codex edition a resolution runs under (codex/editions.yaml; judge.codex.editions).

A scenario's `codex:` names its edition; `judge resolve --edition V` and `resolve(..., edition=V)`
override it; without either, the current edition rules. `under(version)` makes an edition the
active one for the code that runs inside it, and `active()` is how that code asks which it is.

    with under("0.4.1"):
        active().version          # "0.4.1"
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from judge.codex.editions import editions


@dataclass(frozen=True)
class EditionRules:
    """What the engine takes from one edition."""

    version: str


_active: ContextVar[EditionRules | None] = ContextVar("judge_edition", default=None)


def current_version() -> str:
    return editions().current


def known(version: str) -> bool:
    return editions().get(version) is not None


def held() -> list[str]:
    return editions().versions


def rules_of(version: str | None = None) -> EditionRules:
    """The edition `version` (the current one when None); UnknownEdition for one we don't hold."""
    return EditionRules(version=editions().require(version).version)


def active() -> EditionRules:
    """The edition of the resolution running now; outside one, the current edition."""
    return _active.get() or rules_of(None)


@contextmanager
def under(version: str | None) -> Iterator[EditionRules]:
    token = _active.set(rules_of(version))
    try:
        yield _active.get()  # type: ignore[misc]
    finally:
        _active.reset(token)
