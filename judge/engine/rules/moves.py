"""The candidate actions of each verb: every action the acting player could try now, as contract
§4 dicts. The verb table (verbs.py) names one function here per verb and keeps the candidates
that `verify` finds nothing wrong with (one function decides, python-chess/pokerkit style).

Targets are concrete: each target combination is its own action (at most `PER_EFFECT` of them for
one effect, so a board full of Soul Spots stays listable).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from judge.engine.data.cards import CardDef, EffectDef
from judge.engine.position.board import Board
from judge.engine.position.state import PLAYERS, Realm, SlotRef, Soul, State
from judge.engine.position.targets import Source, combinations
from judge.engine.rules.moment import Window

PER_EFFECT = 60

Candidates = Iterator[dict[str, Any]]


@dataclass(frozen=True)
class Moment:
    """Who may act now, and in what position: what every candidate function reads."""

    state: State
    window: Window | None
    player: str
    board: Board
    own_souls: list[SlotRef]

    def hand(self, ctype: str) -> list[CardDef]:
        """The distinct cards of type `ctype` in the acting player's hand, in hand order."""
        seen: dict[str, CardDef] = {}
        for name in self.state.players[self.player].hand:
            card = self.state.card(name)
            if card is not None and card.type == ctype:
                seen.setdefault(card.name, card)
        return list(seen.values())

    def rel(self, ref: SlotRef) -> str:
        """A slot reference as an action writes it: unprefixed for the actor's own slots."""
        return ref.slot if ref.player == self.player else str(ref)

    def target_lists(self, eff: EffectDef | None, source: Source) -> list[list[str]]:
        if eff is None or not eff.targets:
            return [[]]
        return [[str(r) for r in combo]
                for combo in combinations(self.board, eff, source, limit=PER_EFFECT)]


def _with_targets(base: dict[str, Any], targets: list[str]) -> dict[str, Any]:
    return {**base, "targets": targets} if targets else dict(base)


def recruit(m: Moment) -> Candidates:
    for card in m.hand("soul"):
        for slot in m.state.field.slots:
            yield {"recruit": card.name, "to": slot}


def cast(m: Moment) -> Candidates:
    for card in m.hand("event"):
        eff = card.main_effect
        for caster in m.own_souls:
            for targets in m.target_lists(eff, Source.of(m.player, card)):
                yield _with_targets({"cast": card.name, "caster": m.rel(caster)}, targets)


def equip(m: Moment) -> Candidates:
    for card in m.hand("armament"):
        for ref in m.own_souls:
            yield {"equip": card.name, "to": m.rel(ref)}


def invoke(m: Moment) -> Candidates:
    for card in m.hand("realm"):
        for slot in m.state.field.realm_slots:
            yield {"invoke": card.name, "to": slot}


def set_ambush(m: Moment) -> Candidates:
    for card in m.hand("ambush"):
        for ref in m.own_souls:
            yield {"set": card.name, "at": m.rel(ref)}


def spring(m: Moment) -> Candidates:
    state = m.state
    for ref in m.own_souls:
        for amb in dict.fromkeys(a.name for a in state.slot(ref).ambushes if a.owner == m.player):
            card = state.known_card(amb)
            for targets in m.target_lists(card.main_effect, Source.of(m.player, card)):
                yield _with_targets({"spring": amb, "at": m.rel(ref)}, targets)


def activate(m: Moment) -> Candidates:
    state = m.state
    for ref in [*m.own_souls, *state.realm_refs(m.player)]:
        holder: Realm | Soul = state.realm(ref) if ref.is_realm else state.soul(ref)
        card = state.known_card(holder.name)
        for eff in card.effects:
            if eff.kind == "activated":
                for targets in m.target_lists(eff, Source.of(m.player, card, ref)):
                    yield _with_targets({"activate": eff.label, "card": m.rel(ref)}, targets)


def use(m: Moment) -> Candidates:
    state = m.state
    for offer in (m.window.offered if m.window else ()):
        if offer.player != m.player:
            continue
        holder = state.realm_at(offer.card) if offer.card.is_realm else state.soul_at(offer.card)
        card = state.card(holder.name) if holder else None
        eff = (offer.effect_def or card.effect(offer.effect)) if card else None
        source = offer.source(card) if card else None
        for targets in (m.target_lists(eff, source) if source else [[]]):
            yield _with_targets({"use": offer.effect, "card": m.rel(offer.card)}, targets)


def attack(m: Moment) -> Candidates:
    state = m.state
    if state.phase != "combat":
        return
    opp = [p for p in PLAYERS if p != m.player]
    foes = [r for p in opp for r in state.soul_refs(p)] + [r for p in opp for r in state.realm_refs(p)]
    for ref in m.own_souls:
        for target in foes:
            yield {"attack": m.rel(ref), "target": str(target)}


def pass_(m: Moment) -> Candidates:
    yield {"pass": True}


def end_phase(m: Moment) -> Candidates:
    yield {"end_phase": True}
