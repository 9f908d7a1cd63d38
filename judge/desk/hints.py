"""Problems made helpful where they are shown: a card name the library does not know gets a
"did you mean" from the library and the scenario's own cards, and a YAML line number is said once."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from judge.engine import load_library, matches

# the engine's message, with its own "did you mean" when it found one (judge.engine.matches)
UNKNOWN_CARD = re.compile(r"no card named '(?P<name>[^']*)'[^;]*?"
                          r"(?:; did you mean (?P<guess>[^?]+)\?)?:?\s*$")


def card_names(data: Mapping[str, Any] | None) -> list[str]:
    names = [card.name for card in load_library()]
    for card in (data or {}).get("cards") or []:
        if isinstance(card, Mapping) and isinstance(card.get("name"), str):
            names.append(card["name"])
    return names


def suggest(name: str, names: list[str]) -> str | None:
    """The closest card name to `name` (case-insensitive), if one is close enough: looser than the
    engine's own hint, since the desk offers it as a one-click fix."""
    found = matches(name, names, n=1, cutoff=0.6)
    return found[0] if found else None


def explain(problems: list[dict[str, Any]], data: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """The problems, each unknown card name followed by its likeliest intended name (`suggest`)."""
    names: list[str] | None = None
    out = []
    for problem in problems:
        problem = dict(problem)
        match = UNKNOWN_CARD.search(str(problem.get("message", "")))
        if match:
            names = names if names is not None else card_names(data)
            # the engine's hint may name two ("X or Y"): the fix offers the closest, named first
            guess = match["guess"].split(" or ")[0] if match["guess"] else suggest(match["name"], names)
            problem["message"] = f"no card named '{match['name']}' in the library or this scenario's cards"
            problem["message"] += f"; did you mean {guess}?" if guess else "; pick one from the card list."
            problem["card"] = match["name"]
            if guess:
                problem["suggest"] = guess
        out.append(problem)
    return out
