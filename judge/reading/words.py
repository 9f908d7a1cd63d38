"""The reading in words, printed back before the ruling: the board, the queue (in the desk's words), the
questions, and every default the reader chose, marked as chosen."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from judge.desk.words import PHASE_WORDS, queue_words
from judge.reading.compose import Guess
from judge.reading.parts import Mention, Part

OF_WORDS = {
    "atk": "ATK",
    "def": "DEF",
    "hp": "HP",
    "max_hp": "maximum HP",
    "damage": "damage",
    "captured": "captured",
    "keywords": "keywords",
    "line": "line",
    "proactive": "proactive",
}


def _slot_entry(slot: str, entry: Any) -> str:
    if isinstance(entry, str):
        return f"{entry} on {slot}"
    if not isinstance(entry, Mapping):
        return slot
    bits = []
    if entry.get("damage"):
        bits.append(f"{entry['damage']} damage")
    if entry.get("armament"):
        bits.append(f"equipped with {entry['armament']}")
    if entry.get("captured"):
        bits.append("captured")
    if entry.get("recruited") == "this_turn":
        bits.append("recruited this turn")
    for amb in entry.get("ambushes") or []:
        bits.append(f"{amb['card']} set there face down")
    card = entry.get("card") or "no Soul"
    return f"{card} on {slot}" + (f" ({', '.join(bits)})" if bits else "")


def board_words(state: Mapping[str, Any]) -> list[str]:
    lines = []
    tp = state.get("turn_player", "A")
    phase = PHASE_WORDS.get(str(state.get("phase")), str(state.get("phase")))
    lines.append(f"Turn {state.get('turn')}: {tp}'s turn, the {phase}.")
    for player, pdata in (state.get("players") or {}).items():
        field = pdata.get("field") or {}
        cards = [_slot_entry("the altar" if s == "altar" else s, e) for s, e in field.items()]
        cards += [_slot_entry(s, e) for s, e in (pdata.get("realms") or {}).items()]
        hand = pdata.get("hand") or []
        lines.append(
            f"{player}: {'; '.join(cards)}."
            + (f" Hand: {', '.join(hand)}." if hand else " Hand: empty.")
            + f" ({pdata.get('turns_taken')} turns taken.)"
        )
    return lines


def ask_words(ask: Mapping[str, Any], queue: list[str]) -> str:
    if "legal" in ask:
        i = ask["legal"]
        return f"Is action {i} ({queue[i] if i < len(queue) else '?'}) legal?"
    if "resolves" in ask:
        return f"Does {ask['resolves']} resolve?"
    if "happens_to" in ask:
        return f"What happens to the card on {ask['happens_to']}?"
    if "where" in ask:
        return f"Where is {ask['where']} after the queue?"
    if "value" in ask and "player" in ask["value"]:
        return f"How many cards are in {ask['value']['player']}'s {ask['value']['of']} after the queue?"
    if "value" in ask:
        v = ask["value"]
        return f"What is the {OF_WORDS.get(v['of'], v['of'])} of the card on {v['slot']} after the queue?"
    if "winner" in ask:
        return "Does the duel end, and who wins?"
    if "can_attack" in ask:
        return f"May the Soul on {ask['can_attack']} attack now?"
    return str(dict(ask))


def reading_words(scenario: Mapping[str, Any], guesses: list[Guess]) -> str:
    state = scenario.get("state") or {}
    queue = queue_words(scenario)
    lines = ["Board:", *(f"  {line}" for line in board_words(state))]
    lines.append("Queue:" if queue else "Queue: nothing is played.")
    lines += [f"  {i}. {q}" for i, q in enumerate(queue)]
    asks = scenario.get("ask") or []
    if asks:
        lines.append("Question:" if len(asks) == 1 else "Questions:")
        lines += [f"  {ask_words(a, queue)}" for a in asks]
    else:
        lines.append("Question: none asked; the likeliest question about the last action is answered.")
    if guesses:
        lines.append("Chosen by the reader (nothing said decided it):")
        lines += [f"  - {g.words()}" for g in guesses]
    return "\n".join(lines)


def _m(m: Any) -> str:
    if isinstance(m, Mention):
        who = f"{m.player}'s " if m.player in ("A", "B") else ""
        where = f" on {m.slot}" if m.slot and m.name else (m.slot or "")
        return f"{who}{m.name or ''}{where}".strip() or m.words
    if isinstance(m, list):
        return " and ".join(_m(x) for x in m)
    if isinstance(m, Part):
        return parts_words([m])
    return str(m)


def parts_words(parts: list[Part]) -> str:
    """What a sentence was read as, for offering two readings side by side."""
    out = []
    for p in parts:
        facts = ", ".join(f"{k}: {_m(v)}" for k, v in p.data.items() if v not in (None, [], False))
        out.append(f"{p.kind} {p.what} ({facts})" if facts else f"{p.kind} {p.what}")
    return "; ".join(out)
