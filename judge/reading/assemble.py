"""The composed dispute as a scenario mapping: slots chosen where none was said, the turn and phase set,
the queue written in the contract's verbs (§4), the questions in §7's shapes. Every choice is a Guess."""

from __future__ import annotations

from typing import Any

from judge.engine import VERBS
from judge.reading.compose import (
    ANSWERING,
    DEFAULT_TURN,
    LEADERS,
    PHASE_OF_VERB,
    PHASE_WORDS,
    PHASES,
    Composer,
    Guess,
    Piece,
    Problem,
    other,
)
from judge.reading.parts import Mention

# the order slots are chosen in when none was said: the altar's own branches first (each a Front Line
# Soul), then further out; a slot's rank must be at least the card's (glossary Recruit)


def assemble(c: Composer) -> dict[str, Any]:
    _sides(c)
    turn_player = _turn_player(c)
    for p in (p for p in c.pieces if not p.enters):
        _place(c, p)
    phase = _phase(c, turn_player)
    actions = _queue(c, turn_player, phase)
    for p in (p for p in c.pieces if p.enters):
        _place(c, p)
    players: dict[str, Any] = {}
    for player in ("A", "B"):
        players[player] = _player(c, player, turn_player)
    turn = c.turn or DEFAULT_TURN
    state: dict[str, Any] = {"turn_player": turn_player, "phase": phase, "turn": turn, "players": players}
    asks = [_ask(a) for a in c.asks if "default" not in a]
    scenario: dict[str, Any] = {"state": state, "actions": [_written(a) for a in actions]}
    if asks:
        scenario["ask"] = asks
    return scenario


def _sides(c: Composer) -> None:
    for p in c.pieces:  # a card said to stand behind or in front of another is on its side
        if p.relative is not None:
            anchor = p.relative[1]
            p.player = p.player or anchor.player
            anchor.player = anchor.player or p.player
    for p in c.pieces:
        if p.player is None:
            card = c.card(p.name)
            if card is not None and card.leader:
                continue
            c.problems.append(
                Problem(
                    "whose",
                    f"whose {p.name}, A's or B's? Say “A's {p.name}” or “B's {p.name}”",
                    p.name,
                    options=[f"A's {p.name}", f"B's {p.name}"],
                )
            )


def _turn_player(c: Composer) -> str:
    if c.turn_player:
        return c.turn_player
    c.guesses.append(Guess("it is A's turn", "no turn was said"))
    return "A"


def _free(c: Composer, player: str, rank: int) -> str | None:
    taken = {p.slot for p in c.pieces if p.player == player and not p.realm and p.slot}
    near = sorted(c.field.children(c.field.root), key=lambda s: -c.field.rank(s))   # C3, L2, R2
    order = [*near, *[s for s in c.field.slots if s not in near and s != c.field.root]]
    for s in order:
        parent = c.field.parent(s)
        if s not in taken and c.field.rank(s) >= rank and (parent == c.field.root or parent in taken):
            return s
    return None


def _free_realm(c: Composer, player: str, rank: int) -> str | None:
    taken = {p.slot for p in c.pieces if p.player == player and p.realm and p.slot}
    return next((s for s in c.field.realm_slots if s not in taken and c.field.rank(s) >= rank), None)


def _place(c: Composer, p: Piece) -> None:
    if p.slot is not None or p.player is None:
        return
    card = c.card(p.name)
    rank = card.rank if card else 0
    if p.relative is not None:
        _place_relative(c, p, rank)
        return
    if card is not None and card.leader and not p.enters and not _leader_of(c, p.player):
        p.slot = c.field.root
        return
    p.slot = _free_realm(c, p.player, rank) if p.realm else _free(c, p.player, rank)
    if p.slot is None:
        c.problems.append(
            Problem(
                "no-slot",
                f"no free slot of rank {rank} or more for {p.player}'s {p.name}; say where it stands",
                p.name,
            )
        )
        return
    what = "invoked onto" if p.realm and p.enters else ("recruited onto" if p.enters else "placed on")
    c.guesses.append(
        Guess(f"{p.name} {what} {p.player}'s {p.slot}", "no slot was named", f"{p.player}:{p.slot}")
    )


def _place_relative(c: Composer, p: Piece, rank: int) -> None:
    """ "Behind Harold" is the slot Harold's slot hangs under; "in front of Harold" a free slot hanging
    under it (the slot table, docs/scenario-format.md)."""
    kind, anchor = p.relative  # type: ignore[misc]
    if kind == "behind" and anchor.slot is None and anchor.player == p.player:
        # "X behind Y" with Y's slot unsaid is "Y in front of X": X takes its slot, Y one in front of it
        p.relative = None
        _place(c, p)
        anchor.relative = ("in_front", p)
        _place(c, anchor)
        return
    _place(c, anchor)
    if anchor.slot is None or anchor.player != p.player:
        c.problems.append(
            Problem(
                "relative",
                f"{p.name} is said to stand {kind.replace('_', ' ')} of {anchor.name}, on the other side",
                p.name,
            )
        )
        return
    if kind == "behind":
        parent = c.field.parent(anchor.slot)
        if parent is None or parent == c.field.root:
            c.problems.append(
                Problem(
                    "relative",
                    f"nothing but the altar is behind {anchor.name} on "
                    f"{anchor.slot}; say where {p.name} stands",
                    p.name,
                )
            )
            return
        p.slot = parent
    else:
        taken = {q.slot for q in c.pieces if q.player == p.player and not q.realm}
        free = [s for s in c.field.children(anchor.slot) if s not in taken and c.field.rank(s) >= rank]
        if not free:
            c.problems.append(
                Problem(
                    "relative",
                    f"no free slot of rank {rank} or more in front of {anchor.name} on {anchor.slot}",
                    p.name,
                )
            )
            return
        p.slot = free[0]
        if len(free) > 1:
            c.guesses.append(
                Guess(f"{p.name} on {p.player}'s {p.slot}", f"the first free slot in front of {anchor.name}")
            )


def _leader_of(c: Composer, player: str) -> Piece | None:
    return next((p for p in c.pieces if p.player == player and p.slot == c.field.root), None)


def _phase(c: Composer, turn_player: str) -> str:
    if c.phase:
        return c.phase
    first = next(
        (a for a in c.actions if a.get("by") in (None, turn_player) and a["verb"] in PHASE_OF_VERB), None
    )
    if first is None:
        c.guesses.append(Guess("it is the Preparation Phase", "no phase was said"))
        return "preparation"
    phase = PHASE_OF_VERB[first["verb"]]
    c.guesses.append(
        Guess(f"it is {PHASE_WORDS[phase]}", f"{first['verb']} is taken in {PHASE_WORDS[phase]}")
    )
    return phase


def _queue(c: Composer, turn_player: str, phase: str) -> list[dict[str, Any]]:
    """The actions in order, with the phase ends a later action needs (a recruit, then an attack)."""
    out: list[dict[str, Any]] = []
    current = phase
    tp = turn_player
    for a in c.actions:
        by = a.get("by") or (tp if a["verb"] not in ANSWERING or not out else None)
        if by is None:  # a Fast answer without a player: the one who did not act just before
            prev = out[-1]["by"] if out else tp
            by = other(prev)
            c.guesses.append(Guess(f"{by} takes “{a['words']}”", "it answers the other player's play"))
        a["by"] = by
        need = PHASE_OF_VERB.get(a["verb"])
        if by == tp and need and PHASES.index(need) > PHASES.index(current):
            while current != need:
                out.append({"verb": "end_phase", "by": tp, "words": "", "auto": True})
                c.guesses.append(
                    Guess(
                        f"{tp} ends {PHASE_WORDS[current]}", f"“{a['words']}” is taken in {PHASE_WORDS[need]}"
                    )
                )
                current = PHASES[PHASES.index(current) + 1]
        if a["verb"] == "end_phase":
            ends = len(PHASES) - PHASES.index(current) if a.get("turn") else 1
            for _ in range(ends):
                out.append({"verb": "end_phase", "by": tp, "words": a["words"]})
                if current == PHASES[-1]:
                    tp, current = other(tp), PHASES[0]
                else:
                    current = PHASES[PHASES.index(current) + 1]
            continue
        _fill(c, a, out)
        out.append(a)
    final_index = {id(a): i for i, a in enumerate(out)}
    for ask in c.asks:
        if "legal" in ask and isinstance(ask["legal"], int):
            ask["legal"] = final_index[id(c.actions[ask["legal"]])]
    return out


def _fill(c: Composer, a: dict[str, Any], before: list[dict[str, Any]]) -> None:
    """What an action needs on the board that was not said: its card in the hand, an Ambush set."""
    by = a["by"]
    # a card played from the hand: the verb table's verbs of a card that are not Fast (a sprung Ambush is set)
    plays = VERBS[a["verb"]].value == "card" and not VERBS[a["verb"]].fast and a.get("card")
    if plays and a["card"] not in c.hands[by]:
        c.hands[by].append(a["card"])
        c.guesses.append(Guess(f"{a['card']} in {by}'s hand", f"{by} plays it"))
    if a["verb"] == "spring" and not any(s["card"] == a["card"] for s in c.ambushes):
        at = a.get("at")
        slot = at.slot if isinstance(at, Mention) else None
        if slot is None:
            slot = _ambush_slot(c, a, before)
            if slot is None:
                c.problems.append(
                    Problem(
                        "ambush-where",
                        f"where is {a['card']} set? Say “{a['card']} is set at {by}'s C3”",
                        a["card"],
                    )
                )
                return
        where = Mention(slot=slot, slot_player=by, player=by)
        a["at"] = where
        c.ambushes.append({"card": a["card"], "where": where, "player": by, "chosen": at is None})


def _ambush_slot(c: Composer, a: dict[str, Any], before: list[dict[str, Any]]) -> str | None:
    """Where an Ambush lies when nobody said: at the Soul the play it answers aims at, when that Soul is
    its player's (an Ambush that answers an attack on its Ambusher), else at its player's first Soul."""
    by = a["by"]
    card = c.card(a["card"])
    trigger = card.main_effect.trigger if card is not None and card.main_effect is not None else None
    prev = before[-1] if before else None
    aimed: list[Any] = []
    if prev is not None:
        aimed = [prev.get("target")] if prev["verb"] == "attack" else list(prev.get("targets") or [])
    for p in aimed:
        if isinstance(p, Piece) and p.player == by and p.slot:
            why = (
                "its Ambusher is the Soul that play aims at"
                if trigger
                else "the Soul that play aims at is where it is sprung from"
            )
            c.guesses.append(Guess(f"{a['card']} set at {by}'s {p.slot}", why, f"{by}:{p.slot}"))
            return p.slot
    souls = [p for p in c.pieces if p.player == by and not p.realm and p.slot and p.slot != c.field.root]
    if souls:
        c.guesses.append(
            Guess(f"{a['card']} set at {by}'s {souls[0].slot}", "no slot was named", f"{by}:{souls[0].slot}")
        )
        return souls[0].slot
    return None


def _ref(p: Any) -> str | None:
    if isinstance(p, Piece):
        return f"{p.player}:{p.slot}" if p.player and p.slot else None
    if isinstance(p, Mention) and p.slot:
        return f"{p.slot_player or p.player}:{p.slot}"
    return None


def _slot_of(x: Any) -> str | None:
    return x.slot if isinstance(x, (Piece, Mention)) else None


# what the reader gathered for each key of an action (§4), by key: the slot of a card, or a reference
KEY_SOURCES = {"to": ("piece", "to"), "at": ("at",), "caster": ("caster",), "card": ("holder",)}
VALUE_SOURCES = {"card": lambda a: a.get("card"), "slot": lambda a: _slot_of(a.get("attacker")),
                 "effect": lambda a: a.get("effect_label"), "true": lambda a: True}


def _written(a: dict[str, Any]) -> dict[str, Any]:
    """An action as the contract writes it (§4)."""
    verb = VERBS[a["verb"]]
    out: dict[str, Any] = {verb.name: VALUE_SOURCES[verb.value](a)}
    for key in verb.keys:
        if key == "target":
            out[key] = _ref(a.get("target"))
            continue
        found = next((a[k] for k in KEY_SOURCES.get(key, ()) if a.get(k) is not None), None)
        if found is not None or verb.required == key:
            out[key] = _slot_of(found)
    targets = [t for t in (_ref(p) for p in a.get("targets") or []) if t]
    if targets:
        out["targets"] = targets
    out["by"] = a["by"]
    return out


def _ask(ask: dict[str, Any]) -> dict[str, Any]:
    if "happens_to" in ask:
        return {"happens_to": _ref(ask["happens_to"])}
    if "can_attack" in ask:
        return {"can_attack": _ref(ask["can_attack"])}
    if "value" in ask and "slot" in ask["value"]:
        return {"value": {"slot": _ref(ask["value"]["slot"]), "of": ask["value"]["of"]}}
    return ask


def _player(c: Composer, player: str, turn_player: str) -> dict[str, Any]:
    fieldmap: dict[str, Any] = {}
    realms: dict[str, Any] = {}
    if _leader_of(c, player) is None:
        fieldmap[c.field.root] = LEADERS[player]
        c.guesses.append(Guess(f"{LEADERS[player]} on {player}'s altar", "no Leader was named"))
    for p in c.pieces:
        if p.player != player or p.slot is None or p.enters:
            continue
        entry: dict[str, Any] = {"card": p.name}
        entry.update(
            {k: getattr(p, k) for k in ("damage", "armament", "captured", "recruited") if getattr(p, k)}
        )
        (realms if p.realm else fieldmap)[p.slot] = entry
    for card, slot in _ambushes_of(c, player):
        entry = fieldmap.setdefault(slot, {"card": None})
        if isinstance(entry, str):
            entry = fieldmap[slot] = {"card": entry}
        entry.setdefault("ambushes", []).append({"card": card})
    taken = c.turns_taken.get(player, 5 if player == turn_player else 4)
    out: dict[str, Any] = {"turns_taken": taken, "field": fieldmap, "hand": list(c.hands[player]), "deck": 20}
    if realms:
        out["realms"] = realms
    return out


def _ambushes_of(c: Composer, player: str) -> list[tuple[str, str]]:
    """(card, slot) of each Ambush set on `player`'s side: said to lie at a slot, or on a Soul's slot."""
    out = []
    for s in c.ambushes:
        where = s.get("where")
        if s.get("on") is not None:
            holder = c.piece(s["on"])
            slot, owner = (holder.slot, holder.player) if holder else (None, None)
        else:
            slot = where.slot if isinstance(where, Mention) else None
            owner = c.who(where.slot_player or where.player or s.get("player"), s["card"]) if where else None
        if owner == player and slot is not None:
            out.append((s["card"], slot))
    return out
