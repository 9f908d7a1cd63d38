"""Target legality (11.4): which Souls, Soul Spots and Realms a target selector may choose, and
why a chosen target is not legal.

    candidates(board, spec, source)               # every legal choice for one selector
    verify_targets(board, effect, chosen, source) # violations for a list of chosen slots
    choose_targets(board, effect, given, source)  # (targets, violations, picked_by_engine)

A `Source` says who uses the effect and what its source is for Unyielding (13.6.3: an Event or an
Ambush is its own source; a granted effect's source is its granter, 13.2.2).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from judge.engine.data import budget
from judge.engine.data.cards import CardDef, EffectDef, TargetSpec
from judge.engine.data.errors import Reason, Violation
from judge.engine.position.board import Board
from judge.engine.position.conditions import failed_conditions
from judge.engine.position.state import PLAYERS, SlotRef, opponent

R_DEFAULT = ("11.4.2",)
R_CAPTURED = ("11.4.3",)
R_SPOT = ("11.4.4", "glossary/soul-spot")
R_NAMING = ("11.4.5", "13.6.2")
R_TWICE = ("11.4.6",)
R_UNYIELDING = ("11.4.7", "13.6.2", "13.6.3")
R_CHOSEN = ("11.4.1",)
MAX_COMBINATIONS = 200
# the exclusions a "no legal target" names (11.4.1): a rule that shuts out a Soul the selector would
# otherwise take (Unyielding, 13.6.2; the Front Line, 11.4.2); the rest (a side, captured or not, a
# condition) is what the selector itself asks for, which the effect's own text already says
EXCLUSIONS_SAID = ("target_unyielding", "target_not_front_line")


@dataclass(frozen=True)
class Source:
    """Who uses an effect (its controller) and the card it counts as coming from."""

    controller: str
    name: str
    rank: int
    ref: SlotRef | None = None      # where the source card stands (None for an Event or a card elsewhere)
    granted_by: str | None = None   # a granted effect counts as coming from its granter, its rank (13.2.2)
    type: str | None = None         # the source card's type (soul, event, ambush, realm, armament)

    @classmethod
    def of(cls, controller: str, card: CardDef, ref: SlotRef | None = None) -> Source:
        """The source a card makes for the effects its controller uses (13.6.3)."""
        return cls(controller, card.name, card.rank, ref, type=card.type)


def _side_players(side: str, controller: str) -> tuple[str, ...]:
    if side == "own":
        return (controller,)
    if side == "opposing":
        return (opponent(controller),)
    return PLAYERS


def _soul_label(board: Board, ref: SlotRef) -> str:
    soul = board.state.soul_at(ref)
    return f"{soul.name} ({ref})" if soul else f"the empty slot {ref}"


def why_not(board: Board, spec: TargetSpec, ref: SlotRef | None, source: Source) -> Violation | None:
    """Why `ref` is not a legal choice for `spec`, or None when it is."""
    if ref is None:
        return _refused("target_not_a_slot")
    players = _side_players(spec.side, source.controller)
    sides = {"side": spec.side, "controller": source.controller, "source": source.name}
    if spec.what == "realm":
        if not ref.is_realm or ref.player not in players:
            return _refused("target_not_realm_slot", slot=str(ref), **sides)
        realm = board.state.realm_at(ref)
        if realm is not None and realm.shattered:
            return _refused("target_realm_shattered", card=realm.name, slot=str(ref))
        if realm is None:
            return _refused("target_no_active_realm", slot=str(ref))
        return None
    if ref.is_realm:
        return _refused("target_realm_slot", slot=str(ref), source=source.name, what=spec.what)
    if ref.player not in players:
        soul = board.state.soul_at(ref)
        return _refused("target_wrong_side", card=soul.name if soul else None, slot=str(ref), what=spec.what,
                        **sides)
    if spec.what == "spot":
        return _why_not_spot(board, spec, ref, source)
    return _why_not_soul(board, spec, ref, source)


def _standing(board: Board, ref: SlotRef) -> dict[str, str]:
    """The card standing on `ref` as a fact ({"card": name}), or none where the slot is empty."""
    holder = board.state.realm_at(ref) if ref.is_realm else board.state.soul_at(ref)
    return {"card": holder.name} if holder is not None else {}


def _refused(code: str, **facts: Any) -> Violation:
    """A target refusal: its reason record (errors.REASONS), its words and rules made from it."""
    return Violation.because(Reason.of(code, **facts))


def _why_not_spot(board: Board, spec: TargetSpec, ref: SlotRef, source: Source) -> Violation | None:
    """A Soul Spot: any slot (11.4.4), or one whose active Soul it names (11.4.5)."""
    if spec.naming is None:
        return None  # 11.4.4: any slot will do, empty or not
    soul = board.state.soul_at(ref)
    # 11.4.5: the target names the Soul on it, so it targets that Soul as well
    if soul is None or soul.captured:
        return _refused("target_spot_empty", slot=str(ref), source=source.name, naming=spec.naming)
    if spec.naming == "front" and not board.is_front_line(ref):
        return _refused("target_spot_not_front", card=soul.name, slot=str(ref), line=board.line(ref),
                        source=source.name)
    return _unyielding(board, ref, source, R_NAMING + ("13.6.1", "13.6.3"))


def _why_not_soul(board: Board, spec: TargetSpec, ref: SlotRef, source: Source) -> Violation | None:
    soul = board.state.soul_at(ref)
    if soul is None:
        return _refused("target_no_soul", slot=str(ref))
    card, slot = soul.name, str(ref)
    if spec.captured and not soul.captured:
        return _refused("target_not_captured", card=card, slot=slot, source=source.name)
    if soul.captured and not spec.captured:
        return _refused("target_captured", card=card, slot=slot)
    if not soul.captured and spec.lines == "front" and not board.is_front_line(ref):
        return _refused("target_not_front_line", card=card, slot=slot, line=board.line(ref),
                        source=source.name)
    failed = failed_conditions(board, ref, spec.where) if spec.where else []
    if failed:
        return _refused("target_condition", card=card, slot=slot, failed=" and ".join(failed),
                        source=source.name)
    return _unyielding(board, ref, source, R_UNYIELDING)


def _unyielding(board: Board, ref: SlotRef, source: Source, rules: tuple[str, ...]) -> Violation | None:
    # 13.6.1 / 13.6.2: an Unyielding Soul can't be targeted by its opponent's effects of its rank or lower
    if board.unyielding_against(ref, source.rank, source.controller):
        soul = board.state.soul(ref)
        rank = board.state.known_card(soul.name).rank
        granted = ("13.2.2", "13.6.3") if source.granted_by else ()
        reason = Reason.of("target_unyielding", card=soul.name, slot=str(ref), rank=rank,
                           controller=source.controller, source=source.name, source_rank=source.rank,
                           **({"granted_by": source.granted_by, "also": granted} if granted else {}))
        return Violation(reason.text, (*rules, *granted), reason)
    return None


def excluded(board: Board, effect: EffectDef, source: Source) -> list[Reason]:
    """Why each active Soul (or Realm) a target of `effect` could reach is not a legal choice: the facts
    behind "no legal target" (11.4.1), one reason per card, in slot order."""
    out: list[Reason] = []
    for spec in effect.targets:
        for ref in all_slots(board, spec, source.controller):
            holder = board.state.realm_at(ref) if ref.is_realm else board.state.active_soul_at(ref)
            if holder is None:
                continue
            problem = why_not(board, spec, ref, source)
            reason = problem.reason if problem is not None else None
            if reason is not None and reason.code in EXCLUSIONS_SAID and reason not in out:
                out.append(reason)
    return out


def no_target(board: Board, effect: EffectDef, source: Source, code: str = "no_legal_target") -> Reason:
    """"No legal target", with the candidates excluded and why (11.4.1; 11.8.3 for a lost trigger)."""
    return Reason.of(code, source=source.name, excluded=excluded(board, effect, source))


def all_slots(board: Board, spec: TargetSpec, controller: str) -> list[SlotRef]:
    fld = board.state.field
    names = fld.realm_slots if spec.what == "realm" else fld.slots
    return [SlotRef(p, s) for p in _side_players(spec.side, controller) for s in names]


def candidates(board: Board, spec: TargetSpec, source: Source) -> list[SlotRef]:
    """Every legal choice for one selector."""
    return [r for r in all_slots(board, spec, source.controller) if why_not(board, spec, r, source) is None]


def verify_targets(board: Board, effect: EffectDef, chosen: list[SlotRef | None],
                   source: Source) -> list[Violation]:
    out: list[Violation] = []
    specs = effect.targets
    if len(chosen) != len(specs):
        out.append(_refused("target_count", source=source.name, wanted=len(specs), given=len(chosen)))
    seen: set[SlotRef] = set()
    for spec, ref in zip(specs, chosen, strict=False):
        if ref is not None and ref in seen:
            out.append(_refused("target_chosen_twice", slot=str(ref), **_standing(board, ref)))
            continue
        if ref is not None:
            seen.add(ref)
        problem = why_not(board, spec, ref, source)
        if problem:
            # 11.4.1: each target must be legal at the moment it is chosen
            rules = tuple(dict.fromkeys((*problem.rules, *R_CHOSEN)))
            out.append(Violation(problem.text, rules, problem.reason))
    return out


def combinations(board: Board, effect: EffectDef, source: Source,
                 limit: int = MAX_COMBINATIONS) -> list[list[SlotRef]]:
    """Legal target lists for an effect (11.4.6: no slot twice), at most `limit` of them, in the order
    of `itertools.product` over the selectors' candidates. A depth-first walk that enters a branch only
    when the selectors left can still be given distinct slots (a matching), so every branch it enters
    ends in a list: the work grows with `limit` × targets², never with the product of the pools. It also
    looks at the request's clock (budget.check_time) as it goes. Worked out once per board and version
    of what it reads (state.board_version): checking a cast and then casting it ask twice (board.memo)."""
    key = ("combinations", id(effect), source, limit, board.state.board_version)
    kept = board.memo.get(key)
    if kept is not None and kept[0] is effect:
        return [list(combo) for combo in kept[1]]
    out = _combinations(board, effect, source, limit)
    board.memo[key] = (effect, out)
    return [list(combo) for combo in out]


def _combinations(board: Board, effect: EffectDef, source: Source, limit: int) -> list[list[SlotRef]]:
    pools = [candidates(board, spec, source) for spec in effect.targets]
    out: list[list[SlotRef]] = []
    chosen: list[SlotRef] = []

    def walk(depth: int) -> None:
        if depth == len(pools):
            out.append(list(chosen))
            return
        for ref in pools[depth]:
            if len(out) >= limit:
                return
            if ref in chosen:
                continue
            budget.check_time()
            chosen.append(ref)
            if _distinct_choice(pools[depth + 1:], set(chosen)):
                walk(depth + 1)
            chosen.pop()

    if _distinct_choice(pools, set()):
        walk(0)
    return out


def _distinct_choice(pools: list[list[SlotRef]], taken: set[SlotRef]) -> bool:
    """Whether each pool can get a slot of its own, none of them in `taken` (a bipartite matching,
    by augmenting paths)."""
    owner: dict[SlotRef, int] = {}

    def augment(i: int, visited: set[SlotRef]) -> bool:
        for ref in pools[i]:
            if ref in taken or ref in visited:
                continue
            visited.add(ref)
            if ref not in owner or augment(owner[ref], visited):
                owner[ref] = i
                return True
        return False

    waiting = []
    for i, pool in enumerate(pools):   # a first matching, each pool its first free slot; then augment
        free = next((ref for ref in pool if ref not in taken and ref not in owner), None)
        if free is None:
            waiting.append(i)
        else:
            owner[free] = i
    return all(augment(i, set()) for i in waiting)


def choose_targets(board: Board, effect: EffectDef, given: list[SlotRef | None] | None,
                   source: Source) -> tuple[list[SlotRef], list[Violation], bool]:
    """The targets to use: the given ones if legal, or (none given) the first legal choice, as the
    contract says the engine does when a choice is not given. 11.4.1: without a legal target the
    effect can't be used."""
    if not effect.targets:
        if given:
            return [], [_refused("takes_no_targets", source=source.name)], False
        return [], [], False
    if given:
        problems = verify_targets(board, effect, list(given), source)
        return [r for r in given if r is not None], problems, False
    combos = combinations(board, effect, source, limit=1)
    if not combos:
        return [], [Violation.because(no_target(board, effect, source))], False
    return combos[0], [], True
