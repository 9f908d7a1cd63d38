"""Problems made helpful where they are shown: a card name the library does not know gets a
"did you mean" from the library and the scenario's own cards, and a YAML line number is said once."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from judge.engine import key_path, load_library, matches


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
    """The problems, each unknown card name (code `unknown_card`) followed by its likeliest intended
    name: the engine's closest (its `near`), else the desk's looser `suggest`."""
    names: list[str] | None = None
    out = []
    for problem in problems:
        problem = dict(problem)
        facts = problem.get("facts") or {}
        if problem.get("code") == "unknown_card" and isinstance(facts.get("name"), str):
            names = names if names is not None else card_names(data)
            name, near = facts["name"], facts.get("near") or []
            guess = near[0] if near else suggest(name, names)
            problem["message"] = f"no card named '{name}' in the library or this scenario's cards"
            problem["message"] += f"; did you mean {guess}?" if guess else "; pick one from the card list."
            problem["card"] = name
            if guess:
                problem["suggest"] = guess
        problem.update(in_words(problem, data))
        out.append(problem)
    return out


PILE_WORDS = {"hand": "hand", "deck": "deck", "elysium": "Elysium", "exile": "Exile"}
BOARD_ZONES = ("field", "realms")
# the problems a card on a slot can't be in, whose fix is to take it off (input_problems.PROBLEMS)
TAKE_OFF = ("no_such_field_slot", "soul_rank_over_slot", "armament_rank_over_slot", "ambush_rank_over_slot",
            "realm_rank_over_slot", "altar_not_leader")


def _place(keys: tuple[str | int, ...]) -> tuple[str, str, str | int | None] | None:
    """(player, zone, slot or index) of a key path under `state.players.X.<zone>`, else None."""
    if len(keys) < 4 or keys[:2] != ("state", "players") or keys[2] not in ("A", "B") \
            or keys[3] not in (*BOARD_ZONES, *PILE_WORDS):
        return None
    return str(keys[2]), str(keys[3]), keys[4] if len(keys) > 4 else None


def in_words(problem: Mapping[str, Any], data: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Where a problem is and what to do, in a judge's words, for the board and the side panel (the key
    path stays for the YAML view): {words, ref?, fix?: {do, label, ref?, card?}}. Where it is comes from
    its key path's keys, what to do from its code (never from its words)."""
    message = str(problem.get("message") or "")
    keys = key_path(str(problem.get("path") or ""))
    place = _place(keys)
    if place and place[1] in BOARD_ZONES and isinstance(place[2], str):
        out = _on_slot(problem, place[0], place[2], message)
    elif place:
        player, zone, index = place
        which = f" (card {index + 1})" if isinstance(index, int) else ""
        out = {"words": f"{player}'s {PILE_WORDS.get(zone, zone)}{which}: {message}"}
    elif keys[:1] == ("cards",) and len(keys) > 1 and isinstance(keys[1], int):
        out = _on_card(keys, message, data)
    elif keys[:1] == ("actions",) and len(keys) > 1 and isinstance(keys[1], int):
        out = {"words": f"Action {keys[1] + 1} in the queue: {message}"}
    else:
        out = {"words": message[:1].upper() + message[1:] if message else "The scenario has a problem."}
    if problem.get("suggest") and "fix" not in out:
        out["fix"] = {"do": "rename", "label": f"Use {problem['suggest']}"}
    return out


def _on_slot(problem: Mapping[str, Any], player: str, slot: str, message: str) -> dict[str, Any]:
    """A problem at a slot of the board: its words there and the fix its code calls for."""
    ref = f"{player}:{slot}"
    code = problem.get("code")
    if slot == "altar" and code == "empty_altar":
        return {"ref": ref, "words": f"{player} has no Leader on the altar: choose one "
                                     "(the altar always holds the Leader).",
                "fix": {"do": "pick", "ref": ref, "label": f"Choose {player}'s Leader"}}
    out: dict[str, Any] = {"ref": ref, "words": f"{player}'s {slot}: {message}"}
    if code == "two_ambushes":
        out["fix"] = {"do": "one-ambush", "ref": ref, "label": "Keep only the last Ambush set"}
    elif problem.get("suggest"):
        out["fix"] = {"do": "rename", "label": f"Use {problem['suggest']}"}
    elif code in TAKE_OFF:
        out["fix"] = {"do": "remove", "ref": ref, "label": f"Take the card off {slot}"}
    return out


def _on_card(keys: tuple[str | int, ...], message: str, data: Mapping[str, Any] | None) -> dict[str, Any]:
    """A problem in one of the scenario's own cards: its name and the key, and a fix to edit it."""
    cards = (data or {}).get("cards") if isinstance(data, Mapping) else None
    index = int(keys[1])
    card = cards[index] if isinstance(cards, list) and index < len(cards) else None
    name = card.get("name") if isinstance(card, Mapping) else None
    key = keys[2] if len(keys) > 2 and isinstance(keys[2], str) else None
    out: dict[str, Any] = {"words": f"The card {name or f'number {index + 1}'} made for this scenario"
                                    + (f", its {key.replace('_', ' ')}" if key else "") + f": {message}"}
    if isinstance(name, str):
        out["fix"] = {"do": "edit-card", "card": name, "label": f"Edit {name}"}
    return out
