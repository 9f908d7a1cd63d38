"""What did not happen, where it is the question (issue 11, part 2): a keyword of a card a battle
involves that could have applied and did not, said once, with the reason and the rule. Only the
cards the step involves (the attacker and its Attack Target), so the trace stays readable.

Each function adds at most one `nonevent` step per keyword and battle; the battle calls them at the
moment the keyword would have acted (declaration, fight, capture step).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from judge.engine.data.errors import Reason
from judge.engine.data.keywords import BERSERK, DEFIANCE, TAUNT
from judge.engine.position import tree
from judge.engine.rules import legality

if TYPE_CHECKING:
    from judge.engine.play.game import Game
    from judge.engine.position.board import Board
    from judge.engine.position.state import SlotRef

R_TAUNT = ("glossary/taunt",)
R_DEFIANCE = ("glossary/defiance",)
R_BERSERK = ("glossary/berserk",)


def taunt_exceptions(g: Game, board: Board, target: SlotRef) -> None:
    """At the declaration: a Taunt in force whose radius holds the Attack Target but does not protect
    it, because the target has Taunt itself and its own rank is at least the Taunt Soul's."""
    if target.is_realm:
        return
    view = board.souls[target]
    if not view.has(TAUNT.name):
        return
    protecting = {ref for ref, _ in legality.taunts_protecting(board, target)}
    for ref, other in board.souls.items():
        if ref.player != target.player or ref == target or other.captured or ref in protecting \
                or not board.is_front_line(ref):
            continue
        for ks in other.instances(TAUNT.name):
            if target in legality.taunt_radius(board, ref, ks.keyword.value):
                g.trace.add("nonevent", f"The Taunt of {g.name_at(ref)} (rank {other.card.rank}) does not "
                                        f"protect {g.name_at(target)}: the Attack Target has Taunt itself "
                                        f"and its own rank, {view.card.rank}, is at least the Taunt Soul's, "
                                        "so it can be attacked.",
                            R_TAUNT, cards=[g.at(ref), g.at(target)])
                return


def attacker_defiance(g: Game, board: Board, attacker: SlotRef, target: SlotRef,
                      counts_as_attack: bool) -> None:
    """At the fight: the attacker's own Defiance does not trigger (it triggers when its Soul is
    attacked), nor on a Realm's counterblow."""
    if attacker == target:
        return  # Confusion: the Soul is its own attacker, and its Defiance triggers (glossary/defiance)
    view = board.souls.get(attacker)
    if view is None or not view.has(DEFIANCE.name):
        return
    counter = " A Realm's counterblow does not trigger it either." if target.is_realm else ""
    role = "attacks" if counts_as_attack else "battles"
    g.trace.add("nonevent", f"{view.card.name}'s Defiance does not trigger: Defiance triggers when its Soul "
                            f"is attacked, and {view.card.name} ({attacker}) is the one that "
                            f"{role}.{counter}", R_DEFIANCE,
                            cards=[(attacker, view.card.name)], what="trigger_missed", of=view.card.name)


def berserk_not_taken(g: Game, att: Any, attacker: SlotRef, target: SlotRef, captured: list[SlotRef],
                      dealt_by_attack: int, hp_before: int) -> None:
    """At the capture step: the attacker's Berserk does not trigger because the attack did not capture
    the Soul it attacked (a Realm, a Soul left with HP, or one an effect brought down)."""
    if not att.has(BERSERK.name) or attacker == target:
        return
    name, tgt = att.card.name, g.name_at(target)
    if target.is_realm:
        why = f"it attacked {tgt}, a Realm, which shatters and is not a Soul that can be captured"
    elif target not in captured:
        view = g.board().souls.get(target)
        left = f" ({view.hp.total} HP left)" if view is not None else ""
        why = f"its attack did not capture {tgt}{left}"
    elif dealt_by_attack < hp_before or dealt_by_attack == 0:
        why = (f"{tgt} was captured, but the attack damage ({dealt_by_attack}) did not bring it to 0 HP from "
               f"{hp_before}: only a capture by the attack damage itself counts")
    else:
        return
    g.trace.add("nonevent", f"{name}'s Berserk does not trigger: {why}.", (*R_BERSERK, "9.5.8"),
    cards=[g.at(target)], what="trigger_missed", of=name)


def taunt_idle(g: Game, board: Board, target: SlotRef) -> None:
    """At the declaration: a Taunt Soul whose radius holds the Attack Target but which does not stand in
    the Front Line (a Soul in front of it) protects nobody, so the attack may be declared."""
    if target.is_realm:
        return
    for ref, other in board.souls.items():
        if ref.player != target.player or ref == target or other.captured or board.is_front_line(ref):
            continue
        for ks in other.instances(TAUNT.name):
            if target in legality.taunt_radius(board, ref, ks.keyword.value):
                ahead = tree.direct_underlings(board.state, ref)
                names = " and ".join(g.name_at(r) for r in ahead)
                reason = Reason.of("taunt_idle", card=other.card.name, slot=str(ref), front=names,
                                   in_front=[str(r) for r in ahead], target=g.name_at(target))
                g.trace.add("nonevent", f"{reason.text[0].upper()}{reason.text[1:]}.", reason.rules,
                            reasons=[reason])
                return
