"""Listing legal actions: every candidate action of the player who may act, kept when
`legality.verify` finds nothing wrong with it (one function decides, python-chess/pokerkit style).

Targets are concrete: each target combination is its own action (at most `PER_EFFECT` of them for
one effect, so a board full of Soul Spots stays listable).
"""

from __future__ import annotations

from typing import Any

from judge.engine import legality
from judge.engine.cards import CardDef, EffectDef
from judge.engine.state import PLAYERS, SlotRef, State
from judge.engine.stats import derive
from judge.engine.targets import Source, combinations

PER_EFFECT = 60


def _hand_cards(state: State, player: str, ctype: str) -> list[CardDef]:
    seen: dict[str, CardDef] = {}
    for name in state.players[player].hand:
        card = state.card(name)
        if card is not None and card.type == ctype:
            seen.setdefault(card.name, card)
    return list(seen.values())


def _rel(ref: SlotRef, player: str) -> str:
    """A slot reference as an action writes it: unprefixed for the actor's own slots."""
    return ref.slot if ref.player == player else str(ref)


def _target_lists(board, eff: EffectDef | None, source: Source, self_ref: SlotRef | None) -> list[list[str]]:
    if eff is None or not eff.targets:
        return [[]]
    return [[str(r) for r in combo] for combo in combinations(board, eff, source, self_ref, limit=PER_EFFECT)]


def _with_targets(base: dict[str, Any], targets: list[str]) -> dict[str, Any]:
    return {**base, "targets": targets} if targets else dict(base)


def generate(state: State, window: legality.Window | None = None) -> list[dict[str, Any]]:
    player = legality.actor(state, window)
    board = derive(state)
    fld = state.field
    candidates: list[dict[str, Any]] = []
    own_souls = state.soul_refs(player)

    for card in _hand_cards(state, player, "soul"):
        for slot in fld.slots:
            candidates.append({"recruit": card.name, "to": slot})
    for card in _hand_cards(state, player, "event"):
        eff = legality._main_effect(card)
        for caster in own_souls:
            for targets in _target_lists(board, eff, Source(player, card.name, card.rank), None):
                candidates.append(_with_targets({"cast": card.name, "caster": _rel(caster, player)}, targets))
    for card in _hand_cards(state, player, "armament"):
        for ref in own_souls:
            candidates.append({"equip": card.name, "to": _rel(ref, player)})
    for card in _hand_cards(state, player, "realm"):
        for slot in fld.realm_slots:
            candidates.append({"invoke": card.name, "to": slot})
    for card in _hand_cards(state, player, "ambush"):
        for ref in own_souls:
            candidates.append({"set": card.name, "at": _rel(ref, player)})
    for ref in own_souls:
        for amb in dict.fromkeys(a.name for a in state.slot(ref).ambushes if a.owner == player):
            card = state.card(amb)
            eff = legality._main_effect(card)
            for targets in _target_lists(board, eff, Source(player, card.name, card.rank), ref):
                candidates.append(_with_targets({"spring": amb, "at": _rel(ref, player)}, targets))
    for ref in [*own_souls, *state.realm_refs(player)]:
        holder = state.realm_at(ref) if ref.is_realm else state.soul_at(ref)
        card = state.card(holder.name)
        for eff in card.effects:
            if eff.kind == "activated":
                for targets in _target_lists(board, eff, Source(player, card.name, card.rank, ref), ref):
                    candidates.append(_with_targets({"activate": eff.label, "card": _rel(ref, player)}, targets))
    for offer in (window.offered if window else ()):
        if offer.player != player:
            continue
        holder = state.realm_at(offer.card) if offer.card.is_realm else state.soul_at(offer.card)
        card = state.card(holder.name) if holder else None
        eff = card.effect(offer.effect) if card else None
        source = Source(player, card.name, card.rank, offer.card) if card else None
        for targets in (_target_lists(board, eff, source, offer.card) if source else [[]]):
            candidates.append(_with_targets({"use": offer.effect, "card": _rel(offer.card, player)}, targets))
    if state.phase == "combat":
        opp = [p for p in PLAYERS if p != player]
        foes = [r for p in opp for r in state.soul_refs(p)] + [r for p in opp for r in state.realm_refs(p)]
        for ref in own_souls:
            for target in foes:
                candidates.append({"attack": _rel(ref, player), "target": str(target)})
    candidates.append({"pass": True})
    candidates.append({"end_phase": True})

    out = []
    seen: set[str] = set()
    for data in candidates:
        data = {**data, "by": player}
        key = repr(sorted(data.items(), key=lambda kv: kv[0]))
        if key in seen:
            continue
        seen.add(key)
        if not legality.verify(state, legality.as_action(data), window, board):
            out.append(data)
    return out
