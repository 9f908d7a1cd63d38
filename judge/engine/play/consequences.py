"""Consequences as steps: after every step of play, what the rules changed as a consequence of it
gets a step of its own, naming the step it follows from (`caused_by`).

Nothing here knows a rule by heart. The derived values of the board (stats.derive) are compared
before and after each step; every value that changed is explained by the contributions that came or
went, each carrying the rule it rests on (13.1.x auras and Static Effects, 13.3.x lasting and slot
effects, 13.5.2 negation, 13.6.x Unyielding, 10.3.3 Armaments, glossary Moral). The words for a
contribution that came or went depend only on its kind and on what became of its source.

    explainer = Explainer(game)        # trace.explainer = explainer; trace.add() calls it
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from judge.engine.data.errors import Reason
from judge.engine.data.keywords import MORAL, TAUNT, UNYIELDING
from judge.engine.data.keywords import words as keyword_words
from judge.engine.play.clauses import Series
from judge.engine.play.sayings import Said, say
from judge.engine.position import condition_words as words
from judge.engine.position import tree
from judge.engine.position.board import Board
from judge.engine.position.state import SlotRef
from judge.engine.position.views import Blocked, Contribution, KeywordSource, RealmView, SoulView
from judge.engine.rules import legality

if TYPE_CHECKING:
    from judge.engine.play.game import Game
    from judge.engine.play.trace import Step

VALUES = (("atk", "ATK"), ("def_", "DEF"), ("max_hp", "max HP"))
MECHANICAL = ("damage", "floor")      # current HP's own parts: the damage step says them
R_AURA_ENDS = ("13.1.2",)             # what an aura gives ends as soon as its card is no longer active
R_NEGATED = ("13.5.2",)
R_REACHES = ("13.6.3", "13.6.7e")             # the source's rank decides whether Unyielding stops it
R_BLOCKED = ("13.6.1", "13.6.3")
R_SLOT_STAYS = ("13.3.3",)
# steps that never change a derived value (a window, the Cascade, a check, a refusal, a non-event):
# nothing to compare after them, which spares a derivation of the board
QUIET = frozenset({"window", "cascade", "resolve", "fizzle", "reject", "limit", "position", "nonevent",
                   "trigger", "error"})


@dataclass(frozen=True)
class Facts:
    """What the rules derive for one active card, in a form that compares."""

    uid: int
    ref: SlotRef
    name: str
    totals: tuple[int, int, int]                               # ATK, DEF, max HP
    parts: Counter[tuple[str, Contribution]]                   # (value key, contribution): a multiset
    keywords: dict[tuple[str, str, str, str], KeywordSource]   # by (keyword, its words, from, kind)
    blocked: frozenset[Any]
    negated: bool
    unyielding: bool
    rank: int


def facts(board: Board, before: Board | None = None,
          known: dict[int, Facts] | None = None) -> dict[int, Facts]:
    """Every active Soul and Realm of `board`, by uid; a card whose view is the one of the board
    `before` (a patched board shares the views it did not derive again) keeps its `known` facts."""
    out: dict[int, Facts] = {}
    views: list[SoulView | RealmView] = [*board.souls.values(), *board.realms.values()]
    for view in views:
        if getattr(view, "captured", False) or getattr(view, "shattered", False):
            continue
        card = board.state.holder_at(view.ref)
        if card is None:
            continue
        if before is not None and known is not None and before.view(view.ref) is view:
            kept = known.get(card.uid)
            if kept is not None and kept.ref == view.ref:
                out[card.uid] = kept
                continue
        parts = Counter((key, c) for key, _ in VALUES for c in getattr(view, key).contributions
                        if c.kind not in MECHANICAL)
        out[card.uid] = Facts(card.uid, view.ref, view.card.name,
                              (view.atk.total, view.def_.total, view.max_hp.total), parts,
                              {_kw_id(k): k for k in view.keywords}, frozenset(getattr(view, "blocked", ())),
                              bool(view.negated), view.has(UNYIELDING.name), view.card.rank)
    return out


def taunts(board: Board) -> dict[int, tuple[SlotRef, bool, tuple[SlotRef, ...]]]:
    """Every active Soul with Taunt in force, by uid: its slot, whether it stands in the Front Line
    (only then does it protect, glossary/taunt), and the other active Souls of its radius."""
    out: dict[int, tuple[SlotRef, bool, tuple[SlotRef, ...]]] = {}
    for ref, view in board.souls.items():
        soul = board.state.soul_at(ref)
        if view.captured or soul is None or not view.has(TAUNT.name):
            continue
        radius = {r for ks in view.instances(TAUNT.name)
                  for r in legality.taunt_radius(board, ref, ks.keyword.value)
                  if r != ref and board.state.active_soul_at(r) is not None}
        out[soul.uid] = (ref, board.is_front_line(ref), tuple(sorted(radius, key=str)))
    return out


def taunt_switches(board: Board, before: dict[int, tuple[SlotRef, bool, tuple[SlotRef, ...]]],
                   now: dict[int, tuple[SlotRef, bool, tuple[SlotRef, ...]]],
                   was_board: Board | None = None) -> list[Reason]:
    """A Taunt Soul already on the field that comes into or leaves the Front Line, with Souls in its
    radius: its protection switches on or off (glossary/taunt), said once, at the step that did it."""
    out: list[Reason] = []
    for uid, (ref, front, radius) in now.items():
        was = before.get(uid)
        if was is None or was[1] == front or not (radius or was[2]):
            continue
        name = board.state.soul(ref).name
        if front:
            cleared = _cleared(board, was_board, ref)
            out.append(Reason.of("taunt_on", card=name, slot=str(ref), radius=_names(board, radius),
                                 protects=[str(r) for r in radius], cleared=cleared,
                                 because=f" ({cleared})" if cleared else ""))
        else:
            ahead = tree.direct_underlings(board.state, ref)
            out.append(Reason.of("taunt_off", card=name, slot=str(ref), front=_names(board, ahead),
                                 in_front=[str(r) for r in ahead]))
    return out


def _cleared(board: Board, was: Board | None, ref: SlotRef) -> str:
    """What left the Front Line in front of the Soul on `ref`: the active Souls directly in front of it
    before, that are no longer (captured on their slot, or gone), in words."""
    if was is None:
        return ""
    fld = board.state.field
    said = []
    for slot in (s for s in fld.slots if fld.parent(s) == ref.slot):
        r = SlotRef(ref.player, slot)
        if was.line(r) is None or board.state.active_soul_at(r) is not None:
            continue
        soul, view = board.state.soul_at(r), was.souls.get(r)
        said.append(f"{soul.name} ({r}), in front of it, was captured" if soul is not None
                    else f"{view.card.name}, in front of it, has left {r}" if view is not None
                    else f"the Soul in front of it has left {r}")
    return " and ".join(said)


def negation_switches(board: Board, was: Board | None) -> list[Reason]:
    """A static negation with a condition whose condition came to hold or stopped holding: it switches
    on or off that moment (13.1.1), said once, naming the condition as it is now and the cards reached."""
    out: list[Reason] = []
    for uid, (ref, cond, holds) in board.conditional_negators.items():
        old = was.conditional_negators.get(uid) if was is not None else None
        if old is None or old[2] == holds:
            continue
        seen = board if holds else was
        assert seen is not None
        found = (board.state.find_uid(t) for t, by in seen.negated_by.items() if uid in by)
        reached = sorted((r for r in found if r is not None and board.state.soul_at(r) is not None), key=str)
        if not reached:
            continue
        # an HP condition of a negation reads HP before effects (interpretation/negation-condition-hp)
        also = ("interpretation/negation-condition-hp",) if "hp_at_most_half" in cond else ()
        out.append(Reason.of("static_condition_on" if holds else "static_condition_off",
                             card=board.state.soul(ref).name, slot=str(ref),
                             now=words.condition_now(board, ref, cond) + (
                                 ", HP before effects, our reading" if also else ""),
                             reached=_names(board, reached), negated=[str(r) for r in reached], also=also))
    return out


def _names(board: Board, refs: tuple[SlotRef, ...] | list[SlotRef]) -> str:
    names = [f"{board.state.soul(r).name} ({r})" for r in refs]
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names) or "nobody"


class Explainer:
    """Watches a Game's trace: consequence steps after each step, `caused_by` for captures and wins."""

    def __init__(self, g: Game) -> None:
        self.g = g
        self.seen: Board | None = None
        self.before: dict[int, Facts] = {}
        self.last_fall: dict[str, int] = {}     # slot -> the consequence step that lowered its max HP
        self.last_capture: int | None = None
        self.count = 0
        self.taunts: dict[int, tuple[SlotRef, bool, tuple[SlotRef, ...]]] = {}
        self.before = self._look()

    def _look(self) -> dict[int, Facts]:
        board = self.g.board()
        before, self.seen = self.seen, board
        self.taunts = taunts(board)
        return facts(board, before, self.before)

    # --- trace hooks
    def cause(self, kind: str, changes: tuple[dict[str, Any], ...]) -> int | None:
        """A capture whose Soul's maximum HP fell follows from that step; a win from the capture."""
        if kind == "win":
            return self.last_capture
        if kind == "capture":
            for change in changes:
                if change.get("captured") == [False, True]:
                    return self.last_fall.get(str(change.get("slot")))
        return None

    def fell(self, ref: SlotRef) -> int | None:
        """The consequence step that lowered the maximum HP of the Soul on `ref`, if no damage came since."""
        return self.last_fall.get(str(ref))

    def after(self, step: Step) -> None:
        if step.kind == "capture":
            self.last_capture = step.n
        for change in step.changes:
            if "damage" in change:   # damage since the fall: a capture now is the damage's, not the fall's
                self.last_fall.pop(str(change.get("slot")), None)
        if step.kind in QUIET or self.g.board_is_current(self.seen):
            return  # nothing that changes a derived value, or nothing touched since the last look
        was_taunts, was_board = self.taunts, self.seen
        now = self._look()
        before, self.before = self.before, now
        for reason in negation_switches(self.g.board(), was_board):
            self.g.trace.add("consequence", say("consequence_reason", step=step.n, reason=reason),
                             reason.rules,
                             caused_by=step.n, reasons=[reason])
            self.count += 1
        for uid, new in now.items():
            old = before.get(uid)
            if old is new:
                continue   # the same view as before: nothing changed on it
            found: list[Reason] = []
            said = explain(old, new, self.g.board(), before, now, found)
            if said is None or (old is not None and already_said(step, old, new)):
                continue
            values, rules = said
            added = self.g.trace.add("consequence", say("consequence_values", step=step.n, change=values),
                                     rules,
                                     caused_by=step.n, what="values_changed", reasons=found,
                                     cards=[(new.ref, new.name), *_sources(old, new, self.g.board())])
            self.count += 1
            if old is not None and new.totals[2] < old.totals[2]:
                self.last_fall[str(new.ref)] = added.n
        for reason in taunt_switches(self.g.board(), was_taunts, self.taunts, was_board):
            self.g.trace.add("consequence", say("consequence_reason", step=step.n, reason=reason),
                             reason.rules,
                             caused_by=step.n, reasons=[reason])
            self.count += 1


Why = list[Said | Reason]   # what explains a change on a card, each item a clause (sayings.py) or a reason


def explain(old: Facts | None, new: Facts, board: Board, before: dict[int, Facts],
            now: dict[int, Facts], found: list[Reason] | None = None) -> tuple[Said, tuple[str, ...]] | None:
    """The words and rules for what changed on one card, or None when nothing did; the reason records
    behind them are added to `found`."""
    base = old if old is not None else _printed_only(new)
    if old is None and base == new:
        return None
    if (base.totals, base.parts, base.keywords, base.blocked, base.negated) == \
            (new.totals, new.parts, new.keywords, new.blocked, new.negated):
        return None
    changes = [say("value_changed", value=label, before=base.totals[i], after=new.totals[i])
               for i, (_, label) in enumerate(VALUES) if base.totals[i] != new.totals[i]]
    why: Why = []
    rules: list[str] = []
    _negation(old, new, board, before, now, why, rules)
    _contributions(base, new, old is None, board, before, now, why, rules)
    _keywords(base, new, board, now, why, rules)
    for b in sorted(new.blocked - base.blocked, key=str):
        reason = _shrugged(b, new)
        why.append(reason)
        rules += reason.rules
        if found is not None:
            found.append(reason)
    if not changes and not why:
        return None
    arrives = say("card_arrives") if old is None else None
    said = say("values_changed", card=new.name, slot=new.ref, arrives=arrives,
               values=say("values_list", values=Series(tuple(changes))) if changes else None,
               why=say("because_list", why=Series(tuple(why), "; ")) if why else None)
    return said, tuple(dict.fromkeys(rules))


def _shrugged(b: Blocked, new: Facts) -> Reason:
    """13.6.1, 13.6.3: an opposing Static Effect of the Soul's rank or lower does not reach it; named
    with its source and both ranks, and where the Soul's Unyielding comes from (its Armament, 10.3.3)."""
    ks = next((k for k in new.keywords.values() if k.keyword.name == UNYIELDING.name), None)
    given = ""
    also: tuple[str, ...] = ()
    if ks is not None and ks.kind == "armament":
        given, also = f", Unyielding through its Armament {ks.source}", ("10.3.3",)
    elif ks is not None and ks.kind != "printed":
        given = f", Unyielding from {ks.label}"
    return Reason.of("unyielding_static", what=b.what, source=b.source, source_rank=b.source_rank,
                     card=new.name, slot=str(new.ref), rank=new.rank, given=given, also=also)


def _sources(old: Facts | None, new: Facts, board: Board) -> list[tuple[str, str]]:
    """The cards on the field whose contributions or keywords came to `new` or left it (the cards a
    consequence step names beside the card itself)."""
    base = old if old is not None else _printed_only(new)
    moved = [c.source for (_, c) in (new.parts - base.parts) + (base.parts - new.parts)]
    moved += [k.source for i, k in new.keywords.items() if i not in base.keywords]
    moved += [k.source for i, k in base.keywords.items() if i not in new.keywords]
    out = []
    for source in dict.fromkeys(moved):
        ref = SlotRef.parse(source) if source and ":" in source else None
        holder = board.state.holder_at(ref) if ref is not None else None
        if ref is not None and holder is not None:
            out.append((str(ref), holder.name))
    return out


def already_said(step: Step, old: Facts, new: Facts) -> bool:
    """The step itself already states every new value of the card ("Knight now has DEF 15 = …", its
    `shows`) and changed nothing else on it: a consequence step would say it twice."""
    if (old.keywords.keys() != new.keywords.keys() or old.blocked != new.blocked or old.negated != new.negated
            or old.ref != new.ref):
        return False
    changed = [(label, new.totals[i]) for i,
               (_, label) in enumerate(VALUES) if old.totals[i] != new.totals[i]]
    shown = set(step.facts.shows)
    return bool(changed) and all((new.name, label, value) in shown for label, value in changed)


def _printed_only(new: Facts) -> Facts:
    """A card that just arrived, as it would be with only its printed values (the baseline)."""
    parts = Counter({p: n for p,
                     n in new.parts.items() if p[1].kind == "printed" and p[1].label == "printed"})
    totals = tuple(sum(c.amount * n for (k, c), n in parts.items() if k == key) for key, _ in VALUES)
    keywords = {i: k for i, k in new.keywords.items() if k.kind == "printed"}
    return Facts(new.uid, new.ref, new.name, (totals[0], totals[1], totals[2]), parts, keywords,
                 frozenset(), new.negated, new.unyielding, new.rank)


def _source_status(source: str | None, board: Board, now: dict[int, Facts]) -> str:
    """What became of a contribution's source: "gone", "negated" or "here"."""
    ref = SlotRef.parse(source, None, board.state.field) if source and ":" in source else None
    if ref is None:
        return "here"
    card = board.state.holder_at(ref)
    if card is None or card.uid not in now:
        return "gone"
    return "negated" if now[card.uid].negated else "here"


def _signed(parts: list[tuple[str, Contribution]]) -> Series:
    """What a contribution gives, each value with its sign ("+5 ATK, −5 DEF")."""
    labels = dict(VALUES)
    return Series(tuple(say("amount_plus", amount=c.amount, value=labels[k]) if c.amount >= 0
                        else say("amount_minus", amount=-c.amount, value=labels[k]) for k, c in parts))


def _contributions(base: Facts, new: Facts, arrived: bool, board: Board, before: dict[int, Facts],
                   now: dict[int, Facts], why: Why, rules: list[str]) -> None:
    gone = _by_label(base.parts - new.parts)
    came = _by_label(new.parts - base.parts)
    for label, parts in gone.items():
        if label in came and {k for k, _ in came[label]} == {k for k, _ in parts}:
            continue  # the same effect with another amount: said below as it comes
        said, also = _gone(label, parts, base, new, board, now)
        why.append(said)
        rules += (*parts[0][1].rules, *also)
    for label, parts in came.items():
        c = parts[0][1]
        why.append(say("contribution_comes", label=label, amounts=_signed(parts),
                       verb=_comes(c, base, new, arrived, board)))
        rules += c.rules
        _reach(new, c.source, board, why, rules)


def _gone(label: str, parts: list[tuple[str, Contribution]], base: Facts, new: Facts, board: Board,
          now: dict[int, Facts]) -> tuple[Said, tuple[str, ...]]:
    """Why a contribution no longer adds to the card, by its kind and what became of its source, and the
    rules beside the contribution's own."""
    c = parts[0][1]
    amounts = _signed(parts)
    status = _source_status(c.source, board, now)
    if c.kind in ("aura", MORAL.name) and status == "gone":
        return say("contribution_ends_card_gone", label=label, amounts=amounts), R_AURA_ENDS
    if status == "negated" and c.kind not in ("lasting", "slot"):
        return say("contribution_stops_negated", label=label, amounts=amounts), R_NEGATED
    if c.kind == "slot" and base.ref != new.ref:
        return (say("contribution_stays_with_slot", label=label, amounts=amounts, slot=base.ref),
                R_SLOT_STAYS)
    if c.kind == "lasting":
        return say("contribution_ends", label=label, amounts=amounts), ()
    if c.kind == "armament":
        return say("contribution_armament_gone", label=label, amounts=amounts), ()
    if c.kind == MORAL.name:
        return say("contribution_moral_gone", label=label, amounts=amounts), ("glossary/underling",)
    if c.kind == "aura" and any(b.source == c.source for b in new.blocked - base.blocked):
        # 13.6.1: it is now Unyielding against that aura, said by the block below, not "no longer named"
        return say("contribution_no_longer_applies", label=label, amounts=amounts, why=None), ()
    cond = _condition(c.source, board)
    because = (say("condition_no_longer_holds", condition=cond) if cond
               else say("no_longer_named") if c.kind == "aura" else None)
    return say("contribution_no_longer_applies", label=label, amounts=amounts, why=because), ()


def _comes(c: Contribution, base: Facts, new: Facts, arrived: bool, board: Board) -> Said:
    """How a contribution that came applies to the card, by its kind."""
    if c.kind == "slot":
        return say("applies_to_soul_now_on", slot=new.ref) if arrived or base.ref != new.ref \
            else say("applies_to_it")
    if c.kind in ("aura", MORAL.name) and arrived:
        return say("reaches_it_as_it_arrives")
    if c.kind == "lasting":
        return say("applies_from_now")
    if c.kind in ("aura", "printed") and (cond := _condition(c.source, board)):
        return say("applies_condition_holds", condition=cond)
    return say("applies_to_it")


def _condition(source: str | None, board: Board) -> str:
    """13.1.1: a Static Effect applies while its condition holds; the condition of the source card's
    conditional Static Effects, in its own words as it stands now ("" when it has none)."""
    ref = SlotRef.parse(source, None, board.state.field) if source and ":" in source else None
    soul = board.state.soul_at(ref) if ref is not None and not ref.is_realm else None
    if ref is None or soul is None:
        return ""
    card = board.state.known_card(soul.name)
    conds = [e.condition for e in card.effects if e.kind == "static" and e.condition]
    return "; ".join(words.condition_now(board, ref, cond) for cond in conds)


def _by_label(parts: Counter[tuple[str, Contribution]]) -> dict[str, list[tuple[str, Contribution]]]:
    out: dict[str, list[tuple[str, Contribution]]] = {}
    for key, c in sorted(parts.elements(), key=lambda p: (p[1].label, p[0])):
        out.setdefault(c.label, []).append((key, c))
    return out


def _reach(new: Facts, source: str | None, board: Board, why: Why, rules: list[str]) -> None:
    """13.6.3: an opposing effect of a higher rank than an Unyielding Soul reaches it: say so."""
    if not new.unyielding or not source or ":" not in source:
        return
    ref = SlotRef.parse(source, None, board.state.field)
    card = None
    if ref is not None:
        card = board.state.holder_at(ref)
    if ref is None or card is None or ref.player == new.ref.player:
        return
    rank = board.state.known_card(card.name).rank
    why.append(say("unyielding_reached", card=new.name, rank=new.rank, source=card.name, source_rank=rank))
    rules += R_REACHES


def _keywords(base: Facts, new: Facts, board: Board, now: dict[int, Facts], why: Why,
              rules: list[str]) -> None:
    for key in sorted(base.keywords.keys() - new.keywords.keys()):
        ks = base.keywords[key]
        if new.negated and not base.negated and ks.kind not in ("slot", "armament"):
            continue  # said with the negation
        if ks.kind == "slot" and base.ref != new.ref:
            why.append(say("keyword_stays_with_slot", keyword=_kw(ks), source=ks.label, slot=base.ref))
            rules += (*ks.rules, *R_SLOT_STAYS)
            continue
        status = _source_status(ks.source, board, now) if ks.kind == "aura" else "here"
        tail = (say("keyword_card_gone") if status == "gone" else say("keyword_card_negated")
                if status == "negated" else say("keyword_effect_ends") if ks.kind == "lasting" else None)
        why.append(say("keyword_lost", keyword=_kw(ks), source=ks.label, why=tail))
        rules += (*ks.rules, *(R_AURA_ENDS if status == "gone" else R_NEGATED if status == "negated" else ()))
    for key in sorted(new.keywords.keys() - base.keywords.keys()):
        ks = new.keywords[key]
        moved = ks.kind == "slot" and base.ref != new.ref
        why.append(say("keyword_gained", keyword=_kw(ks), source=ks.label,
                       slot=say("keyword_applies_to_new_soul") if moved else None))
        rules += ks.rules
        _reach(new, ks.source, board, why, rules)


def _kw_id(ks: KeywordSource) -> tuple[str, str, str, str]:
    return (ks.keyword.name, ks.keyword.label(), ks.label, ks.kind)


def _kw(ks: KeywordSource) -> str:
    return keyword_words(ks.keyword)


def _negation(old: Facts | None, new: Facts, board: Board, before: dict[int, Facts], now: dict[int, Facts],
              why: Why, rules: list[str]) -> None:
    """13.5.2 said when it happens: negated now, or no longer, and why."""
    was = old.negated if old is not None else False
    if new.negated and not was:
        by = [_name(uid, board) for uid in board.negated_by.get(new.uid, [])]
        lost = sorted({_kw(k) for k in (old.keywords.values() if old else ())
                       if k.kind not in ("slot", "armament")})
        negators = say("negated_by", negators=Series(tuple(by), " and ")) if by else None
        why.append(say("negated_now", by=negators,
                       lost=say("negated_keywords_included", keywords=Series(tuple(lost))) if lost else None))
        rules += R_NEGATED
    elif was and not new.negated:
        void = [_name(uid, board) for uid in sorted(board.void_negators)]
        newer = sorted({_name(by, board) for uid in board.void_negators for by in board.negated_by.get(uid,
                                                                                                       [])})
        if void:
            why.append(say("negation_void", void=Series(tuple(void), " and "),
                           newer=Series(tuple(newer), " and ") if newer else say("a_newer_effect")))
            rules += (*R_NEGATED, "interpretation/negation-order")
        else:
            why.append(say("negation_ended"))
            rules += R_NEGATED


def _name(uid: int, board: Board) -> str:
    ref = board.state.find_uid(uid)
    if ref is None:
        return "an effect"
    card = board.state.holder_at(ref)
    return f"{card.name} ({ref})" if card is not None else "an effect"
