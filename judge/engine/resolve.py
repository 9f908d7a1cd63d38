"""Resolving a scenario into a ruling (contract §5): the queue of actions is played in order,
response windows take the actions that answer (implicit passing, contract §4), and every step of
play is recorded with the rules behind it.

    resolve(scenario, snapshots=False) -> dict     # {"scenario", "codex", "ok", "steps", "rejected",
                                                   #  "final", "derived", "winner", "expect"}
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from judge.engine import battle, budget, cascade, expect, legality, turns, zones
from judge.engine.budget import OutOfTime
from judge.engine.errors import Violation
from judge.engine.game import Game, Pause
from judge.engine.scenario import Action, Scenario
from judge.engine.state import Ambush, Armament, Realm
from judge.engine.trace import StepLimit, Trace

STEP_CAP = 10_000
CODEX_VERSION = "0.4.0"


def resolve(scenario: Scenario, snapshots: bool = False, cap: int = STEP_CAP,
            observe: Callable[[Game], None] | None = None) -> dict[str, Any]:
    """The ruling. `observe(game)` (for tests) is called after every step."""
    state = scenario.state.copy()
    trace = Trace(cap=cap, snapshot=state.to_dict if snapshots else None)
    g = Game(state, trace, tuple(scenario.actions), scenario.on_illegal)
    if observe is not None:
        trace.observer = lambda: observe(g)
    looped = False
    stopped: dict[str, Any] | None = None
    failed = ""
    try:
        if not scenario.actions:
            describe_position(g)
        play(g)
    except OutOfTime as exc:
        looped, stopped = True, {"reason": "time", "at_step": len(trace.steps)}
        g.stopped = True
        where = f" at action {g.pos - 1}" if g.pos else ""
        trace.force("limit", f"Stopped after {len(trace.steps)} steps{where}: {exc}; this ruling is incomplete.")
    except StepLimit as exc:
        looped, stopped = True, {"reason": "steps", "at_step": len(trace.steps)}
        g.stopped = True
        where = f" at action {g.pos - 1}" if g.pos else ""
        trace.force("limit", f"Stopped after {len(trace.steps)} steps{where}: the resolution does not end (a loop): "
                             f"{exc}")
    except Exception as exc:  # noqa: BLE001 - a bug in the engine must show in the ruling, not as a crash
        failed = f"{type(exc).__name__}: {exc}"
        g.stopped = True
        trace.force("error", f"The engine failed here ({failed}); this ruling is incomplete and must not be relied "
                             "on. Please report the scenario.")
    ruling: dict[str, Any] = {
        "scenario": scenario.id,
        "codex": scenario.codex or CODEX_VERSION,
        "ok": g.rejected is None and not looped and not failed,
        "steps": trace.to_list(),
        "rejected": g.rejected,
        "final": state.to_dict(),
        "derived": _final_derived(g, stopped),
        "winner": state.winner,
    }
    if looped:
        ruling["loop"] = True
        ruling["stopped"] = stopped
    if failed:
        ruling["error"] = failed
    if scenario.expect is not None:
        failures = expect.check(scenario.expect, ruling)
        if looped:
            failures.insert(0, f"the resolution was stopped after {stopped['at_step']} steps "
                               + ("(a loop)" if stopped["reason"] == "steps" else "(out of time)"))
        if failed:
            failures.insert(0, f"the engine failed: {failed}")
        ruling["expect"] = {"passed": not failures, "failures": failures}
    return ruling


def _final_derived(g: Game, stopped: dict[str, Any] | None) -> dict[str, Any]:
    """The final board's derived values; a ruling stopped for time still gets them (one derivation)."""
    if stopped is not None and stopped["reason"] == "time":
        with budget.unlimited():
            return _derived(g)
    return _derived(g)


def _derived(g: Game) -> dict[str, Any]:
    try:
        return g.board().derived(detail=True)
    except Exception:  # noqa: BLE001 - already reported as an engine error step
        g.touch()
        return {}


def describe_position(g: Game) -> None:
    """With nothing queued, the ruling is the position itself: one step naming what the rules derive
    beyond the printed values (Armaments, auras, Moral, lasting and slot effects, granted keywords)."""
    from judge.engine.battle import explain

    board = g.board()
    parts: list[str] = []
    rules: list[str] = ["glossary/line", "glossary/active"]
    for ref, view in board.souls.items():
        if view.captured:
            continue
        bits = []
        for key, value in (("ATK", view.atk), ("DEF", view.def_), ("max HP", view.max_hp)):
            text, why = explain(value, key)
            if why:
                bits.append(text)
                rules += why
        for ks in view.keywords:
            if ks.kind != "printed":
                bits.append(f"{ks.keyword.label()} from {ks.label}")
                rules += ks.rules
                if ks.source_uid is not None and ks.source_uid != g.state.soul_at(ref).uid:
                    rules.append("11.2.3")  # a granted effect counts as coming from the card that grants it
        for blocked in view.blocked:
            bits.append(f"not {blocked.what} (Unyielding, source rank {blocked.source_rank})")
            rules += ["13.6.1", "13.6.3"]
        if bits:
            parts.append(f"{view.card.name} ({ref}, line {view.line}): {'; '.join(bits)}")
    text = "Nothing is queued; the position as given. " + (
        ". ".join(parts) + "." if parts else "Every card has its printed values.")
    g.trace.add("position", text, tuple(dict.fromkeys(rules)))


def state_after(scenario: Scenario, count: int) -> tuple[Any, legality.Window | None]:
    """The state, and the open response window (or None), just before queued action `count` would
    be taken: what `api.legal_actions(scenario, after=count)` asks about."""
    state = scenario.state.copy()
    g = Game(state, Trace(cap=STEP_CAP), tuple(scenario.actions), scenario.on_illegal, limit=count)
    try:
        play(g)
    except Pause:
        return state, (cascade.window(g) if g.window_open else None)
    except OutOfTime:
        raise
    except StepLimit:
        pass
    return state, None


def extend_with_legal(scenario: Scenario, length: int, choose: Callable[[list], Any]) -> Scenario:
    """The scenario with up to `length` more actions, each picked by `choose` from the legal actions
    of the position the queue so far reaches (random playouts: the property test and the bench)."""
    actions = list(scenario.actions)
    for _ in range(length):
        state, window = state_after(replace(scenario, actions=tuple(actions)), len(actions))
        if state.winner:
            break
        legal = legality.legal_actions(state, window)
        if not legal:
            break
        actions.append(legality.as_action(choose(legal), len(actions)))
    return replace(scenario, actions=tuple(actions))


def play(g: Game) -> None:
    """Take the queued actions in order; the answers inside windows are taken by the windows."""
    while not g.stopped:
        action = g.peek()
        if action is None:
            return
        if g.state.winner:
            reject(g, action, [Violation(f"the duel is over: {g.state.winner} has won, so nothing more is played",
                                         ("interpretation/duel-over", "glossary/leader"))])
            return
        violations = legality.verify(g.state, action, cascade.window(g), g.board())
        if violations:
            reject(g, action, violations)
            g.pos += 1
            if g.on_illegal != "continue":
                g.stopped = True
            continue
        g.take()
        apply(g, action)
        zones.check_captures(g)


def reject(g: Game, action: Action, violations: list[Violation]) -> None:
    rules = list(dict.fromkeys(r for v in violations for r in v.rules))
    text = f"{action.describe()} is not legal: " + "; ".join(v.text for v in violations) + "."
    g.trace.add("reject", f"Action {action.index} ({g.actor(action)}): {text}", rules)
    if g.rejected is None:
        g.rejected = {"action": action.index, "text": text, "rules": rules,
                      "violations": [v.to_dict() for v in violations]}


def apply(g: Game, action: Action) -> None:
    verb = action.verb
    player = g.actor(action)
    if verb == "recruit":
        recruit(g, action, player)
    elif verb == "cast":
        cascade.cast(g, action)
        cascade.run_window(g, f"{action.value} went on the Cascade")
    elif verb in cascade.RESPONSE_VERBS:
        cascade.RESPOND[verb](g, action)
        cascade.run_window(g, "a new entry on the Cascade")
    elif verb == "attack":
        battle.declare(g, action)
    elif verb == "equip":
        equip(g, action, player)
    elif verb == "invoke":
        invoke(g, action, player)
    elif verb == "set":
        set_ambush(g, action, player)
    elif verb == "end_phase":
        turns.end_phase(g)


def recruit(g: Game, action: Action, player: str) -> None:
    ref = action.ref("to", g.state)
    card = g.card(action.value)
    zones.take_from_hand(g, player, card.name)
    zones.place_soul(g, player, ref.slot, card.name)
    statics = any(e.kind == "static" for e in card.effects) or any(k.kind == "static" for k in card.keywords)
    g.trace.add("action", f"{player} recruits {card.name} (rank {card.rank}) onto {ref}. It is active at once"
                          f"{', and its Static Effects apply from now' if statics else ''}; a card put on the field is "
                          "a new card.", ("10.1.1", "10.1.2", "glossary/recruit", "15.5.1",
                                          *(("11.1.4", "13.1.1") if statics else ())),
                [{"card": card.name, "from": f"{player}.hand", "to": str(ref)}])
    cascade.triggered(g, "recruited", ref, {}, f"{card.name} ({ref}) is recruited")
    if cascade.flush_pending(g):
        cascade.run_window(g, f"the recruit of {card.name}, whose Timing Effects triggered")


def equip(g: Game, action: Action, player: str) -> None:
    ref = action.ref("to", g.state)
    card = g.card(action.value)
    zones.take_from_hand(g, player, card.name)
    soul = g.state.soul_at(ref)
    soul.armament = Armament(g.state.new_uid(), card.name)
    g.touch()
    view = g.board().souls[ref]
    parts, rules = [], []
    for key, value in (("ATK", view.atk), ("DEF", view.def_), ("max HP", view.max_hp)):
        text, why = battle.explain(value, key)
        parts.append(text)
        rules += why
    g.trace.add("action", f"{player} equips {card.name} to {soul.name} ({ref}); its values add to the Wielder's "
                          f"(equipping is not an effect and can't be answered). {soul.name} now has "
                          f"{', '.join(parts)}.", ("10.3.1", "10.3.3", *rules),
                [{"card": card.name, "from": f"{player}.hand", "to": str(ref)}])


def invoke(g: Game, action: Action, player: str) -> None:
    ref = action.ref("to", g.state)
    card = g.card(action.value)
    zones.take_from_hand(g, player, card.name)
    g.state.players[player].realms[ref.slot] = Realm(g.state.new_uid(), card.name, player)
    g.touch()
    g.trace.add("action", f"{player} invokes {card.name} (rank {card.rank}) onto {ref}.", ("10.5.1", "10.5.2"),
                [{"card": card.name, "from": f"{player}.hand", "to": str(ref)}])


def set_ambush(g: Game, action: Action, player: str) -> None:
    ref = action.ref("at", g.state)
    card = g.card(action.value)
    zones.take_from_hand(g, player, card.name)
    setter = g.state.soul_at(ref)
    already = len(g.state.slot(ref).ambushes)
    g.state.slot(ref).ambushes.append(Ambush(g.state.new_uid(), card.name, player, setter.uid))
    two = (f" {already + 1} Ambushes now lie at this slot: an Ambush belongs to the slot, and a new Soul there may "
           "set its own.") if already else ""
    g.trace.add("action", f"{player} sets an Ambush face down at {ref}; {setter.name} is its Setter. Setting is not "
                          f"an effect and can't be answered.{two}",
                ("10.4.1", "10.4.2", "glossary/setter", *(("10.4.4",) if already else ())),
                [{"card": card.name, "from": f"{player}.hand", "to": f"{ref} (face down)"}])


def resolve_scenario_text(text: str, source: str | None = None, snapshots: bool = False) -> dict[str, Any]:
    """Convenience for callers holding YAML text."""
    from judge.engine.scenario import load_scenario

    return resolve(load_scenario(text, source=source), snapshots=snapshots)
