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
    cards = (data or {}).get("cards")
    for card in cards if isinstance(cards, list) else []:
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
        problem.update(in_words(problem, data))
        out.append(problem)
    return out


PLACE = re.compile(r"^state\.players\.(?P<player>[AB])\.(?P<zone>field|realms|hand|deck|elysium|exile)"
                   r"(?:\.(?P<slot>[^.\[]+)|\[(?P<index>\d+)\])?(?P<rest>.*)$")
CARD_PATH = re.compile(r"^cards\[(?P<index>\d+)\](?:\.(?P<key>\w+))?")
ACTION_PATH = re.compile(r"^actions\[(?P<index>\d+)\]")
PILE_WORDS = {"hand": "hand", "deck": "deck", "elysium": "Elysium", "exile": "Exile"}


def in_words(problem: Mapping[str, Any], data: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Where a problem is and what to do, in a judge's words, for the board and the side panel (the key
    path stays for the YAML view): {words, ref?, fix?: {do, label, ref?, card?}}."""
    path, message = str(problem.get("path") or ""), str(problem.get("message") or "")
    place = PLACE.match(path)
    out: dict[str, Any] = {}
    if place and place["slot"] and place["zone"] in ("field", "realms"):
        player, slot = place["player"], place["slot"]
        ref = f"{player}:{slot}"
        out["ref"] = ref
        if slot == "altar" and message.startswith("empty"):
            out["words"] = f"{player} has no Leader on the altar: choose one " \
                           "(the altar always holds the Leader)."
            out["fix"] = {"do": "pick", "ref": ref, "label": f"Choose {player}'s Leader"}
            return out
        out["words"] = f"{player}'s {slot}: {message}"
        if "more than one Ambush" in message:
            out["fix"] = {"do": "one-ambush", "ref": ref, "label": "Keep only the last Ambush set"}
        elif problem.get("suggest"):
            out["fix"] = {"do": "rename", "label": f"Use {problem['suggest']}"}
        elif "no such slot" in message or " is rank " in message or "Leader" in message:
            out["fix"] = {"do": "remove", "ref": ref, "label": f"Take the card off {slot}"}
        return out
    if place:
        pile = PILE_WORDS.get(place["zone"], place["zone"])
        which = f" (card {int(place['index']) + 1})" if place["index"] else ""
        out["words"] = f"{place['player']}'s {pile}{which}: {message}"
    elif match := CARD_PATH.match(path):
        cards = (data or {}).get("cards") if isinstance(data, Mapping) else None
        index = int(match["index"])
        card = cards[index] if isinstance(cards, list) and index < len(cards) else None
        name = card.get("name") if isinstance(card, Mapping) else None
        out["words"] = f"The card {name or f'number {index + 1}'} made for this scenario" + \
                       (f", its {match['key'].replace('_', ' ')}" if match["key"] else "") + f": {message}"
        if isinstance(name, str):
            out["fix"] = {"do": "edit-card", "card": name, "label": f"Edit {name}"}
    elif match := ACTION_PATH.match(path):
        out["words"] = f"Action {int(match['index']) + 1} in the queue: {message}"
    else:
        out["words"] = message[:1].upper() + message[1:] if message else "The scenario has a problem."
    if problem.get("suggest") and "fix" not in out:
        out["fix"] = {"do": "rename", "label": f"Use {problem['suggest']}"}
    return out
