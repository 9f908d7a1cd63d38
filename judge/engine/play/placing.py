"""The verbs that put a card from hand onto the field and are not effects (nothing answers them
on the Cascade): recruit a Soul, equip an Armament, invoke a Realm, set an Ambush. Each is the
`do` of its verb in the verb table (verbs.py); legality.verify_<verb> has checked it first.
"""

from __future__ import annotations

from judge.engine.data.cards import CardDef
from judge.engine.play import cascade, zones
from judge.engine.play.clauses import Series
from judge.engine.play.game import Game
from judge.engine.play.sayings import say
from judge.engine.position import board as stats
from judge.engine.position.action import Action
from judge.engine.position.state import Ambush, Armament, Realm, SlotRef


def _from_hand(g: Game, action: Action, key: str) -> tuple[str, SlotRef, CardDef]:
    """The acting player, the slot named by `key` and the card, taken from that player's hand."""
    player = g.actor(action)
    ref = action.slot(key, g.state)
    card = g.card(action.value)
    zones.take_from_hand(g, player, card.name)
    return player, ref, card


def recruit(g: Game, action: Action) -> None:
    """10.1.1: a Soul from hand onto an empty slot under an active Soul."""
    player, ref, card = _from_hand(g, action, "to")
    zones.place_soul(g, player, ref.slot, card.name)
    g.state.players[player].recruits.append(card.name)   # 10.1.1: one per turn counts recruits made
    statics = any(e.kind == "static" for e in card.effects) or any(k.kind == "static" for k in card.keywords)
    g.trace.add("action", say("recruited", player=player, card=card.name, rank=card.rank, slot=ref,
                              statics=say("recruit_statics_apply") if statics else None),
                ("10.1.1", "10.1.2", "glossary/recruit", "15.5.1",
                                          *(("11.1.4", "13.1.1") if statics else ())),
                [{"card": card.name, "from": f"{player}.hand", "to": str(ref)}])
    # the occasions go in as words until the Cascade takes them as records (issue 26)
    cascade.triggered(g, "recruited", ref, {}, say("on_recruited", card=card.name, slot=ref))
    if cascade.flush_pending(g):
        cascade.run_window(g, say("window_after_recruit", card=card.name))


def equip(g: Game, action: Action) -> None:
    """10.3.1: an Armament from hand to one of the player's Souls, its Wielder."""
    player, ref, card = _from_hand(g, action, "to")
    soul = g.state.soul(ref)
    soul.armament = Armament(g.state.new_uid(), card.name)
    view = g.board().souls[ref]
    parts: list[str] = []
    rules: list[str] = []
    for key, value in (("ATK", view.atk), ("DEF", view.def_), ("max HP", view.max_hp)):
        text, why = stats.explain(value, key)
        parts.append(text)
        rules += why
    g.trace.add("action", say("equipped", player=player, card=card.name, wielder=soul.name, slot=ref,
                              values=Series(tuple(parts))), ("10.3.1", "10.3.3", *rules),
                [{"card": card.name, "from": f"{player}.hand", "to": str(ref)}],
                shows=[(soul.name, key, value.total) for key, value in
                       (("ATK", view.atk), ("DEF", view.def_), ("max HP", view.max_hp))])


def invoke(g: Game, action: Action) -> None:
    """10.5.1: a Realm from hand onto an empty realm slot."""
    player, ref, card = _from_hand(g, action, "to")
    g.state.players[player].realms[ref.slot] = Realm(g.state.new_uid(), card.name, player)
    # 10.5.1: onto an empty realm slot of at least its rank; 10.5.2: the Escalation Spiral does not limit it
    g.trace.add("action", say("invoked", player=player, card=card.name, rank=card.rank, slot=ref,
                              slot_rank=g.state.field.rank(ref.slot)),
                ("10.5.1", "10.5.2"),
                [{"card": card.name, "from": f"{player}.hand", "to": str(ref)}])


def set_ambush(g: Game, action: Action) -> None:
    """10.4.1: an Ambush from hand, face down, at the slot of one of the player's Souls, its Setter."""
    player, ref, card = _from_hand(g, action, "at")
    setter = g.state.soul(ref)
    already = len(g.state.slot(ref).ambushes)
    g.state.slot(ref).ambushes.append(Ambush(g.state.new_uid(), card.name, player, setter.uid))
    two = say("ambushes_share_slot", count=already + 1) if already else None
    g.trace.add("action", say("ambush_set", player=player, slot=ref, setter=setter.name, more=two),
                ("10.4.1", "10.4.2", "glossary/setter", *(("10.4.4",) if already else ())),
                [{"card": card.name, "from": f"{player}.hand", "to": f"{ref} (face down)"}])
