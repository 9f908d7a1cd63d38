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

from judge.engine.data import budget
from judge.engine.data.budget import OutOfTime
from judge.engine.data.edition import current_version, under
from judge.engine.data.errors import StepLimit, Violation
from judge.engine.driver import answers, expect, verbs
from judge.engine.driver.scenario import Scenario
from judge.engine.play import cascade, consequences, zones
from judge.engine.play.clauses import Series
from judge.engine.play.game import Game
from judge.engine.play.sayings import Said, say
from judge.engine.play.trace import Trace
from judge.engine.position import board as stats
from judge.engine.position.action import Action
from judge.engine.rules.moment import Window

STEP_CAP = 10_000


def resolve(scenario: Scenario, snapshots: bool = False, cap: int = STEP_CAP,
            observe: Callable[[Game], None] | None = None, edition: str | None = None) -> dict[str, Any]:
    """The ruling under the Codex `edition` (default: the scenario's `codex:`, else the current
    edition). `observe(game)` (for tests) is called after every step."""
    version = edition or scenario.codex or current_version()
    with under(version):
        return _resolve(scenario, snapshots, cap, observe, version)


def _resolve(scenario: Scenario, snapshots: bool, cap: int, observe: Callable[[Game], None] | None,
             version: str) -> dict[str, Any]:
    state = scenario.state.copy()
    trace = Trace(cap=cap, snapshot=state.to_dict if snapshots else None)
    g = Game(state, trace, tuple(scenario.actions), verbs, scenario.on_illegal)
    if snapshots:
        trace.board = g.board     # each step's board, as the game derived it (one derivation per version)
    trace.explainer = consequences.Explainer(g)   # consequences as steps (issue 11)
    if observe is not None:
        trace.observer = lambda: observe(g)
    stopped: dict[str, Any] | None = None
    failed = ""
    try:
        answers.follow(g, scenario.asks or answers.likely_asks(scenario.actions, scenario.state))
        if g.ledger.watchers:   # a step that changes no derived value changes nothing a question follows
            trace.watch = lambda step: None if step.kind in consequences.QUIET else g.ledger.after(step.n)
        if not scenario.actions:
            describe_position(g)
        play(g)
    except (OutOfTime, StepLimit) as exc:
        stopped = _stop(g, exc)
    except Exception as exc:  # noqa: BLE001 - a bug in the engine must show in the ruling, not as a crash
        failed = f"{type(exc).__name__}: {exc}"
        g.stopped = True
        trace.force("error", say("engine_failed", failure=failed))
    looped = stopped is not None
    ruling: dict[str, Any] = {
        "scenario": scenario.id,
        "codex": version,
        "ok": g.rejected is None and not looped and not failed,
        "steps": trace.to_list(),
        "rejected": g.rejected,
        "final": state.to_dict(),
        "derived": _final_derived(g, stopped),
        "winner": state.winner,
        "answers": answers.answers(g, scenario.asks, scenario.actions, scenario.state),
    }
    if looped:
        ruling["loop"] = True
        ruling["stopped"] = stopped
    if failed:
        ruling["error"] = failed
    if scenario.expect is not None:
        failures = _failures(scenario.expect, ruling, stopped, failed)
        ruling["expect"] = {"passed": not failures, "failures": failures}
    return ruling


def _stop(g: Game, exc: OutOfTime | StepLimit) -> dict[str, Any]:
    """The resolution stopped, out of time or in a loop: the step that says so, and why, for the ruling."""
    steps = len(g.trace.steps)
    g.stopped = True
    where = say("at_action", action=g.pos - 1) if g.pos else None
    if isinstance(exc, OutOfTime):
        g.trace.force("limit", say("stopped_out_of_time", steps=steps, where=where, why=str(exc)))
        return {"reason": "time", "at_step": steps}
    g.trace.force("limit", say("stopped_in_a_loop", steps=steps, where=where, why=str(exc)))
    return {"reason": "steps", "at_step": steps}


def _failures(wanted: Any, ruling: dict[str, Any], stopped: dict[str, Any] | None, failed: str) -> list[str]:
    """What the scenario's `expect` finds wrong with the ruling, a stop or an engine failure first."""
    failures = expect.check(wanted, ruling)
    if stopped is not None:
        failures.insert(0, f"the resolution was stopped after {stopped['at_step']} steps "
                           + ("(a loop)" if stopped["reason"] == "steps" else "(out of time)"))
    if failed:
        failures.insert(0, f"the engine failed: {failed}")
    return failures


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
        return {}


def describe_position(g: Game) -> None:
    """With nothing queued, the ruling is the position itself: one step naming what the rules derive
    beyond the printed values (Armaments, auras, Moral, lasting and slot effects, granted keywords)."""
    board = g.board()
    cards: list[Said] = []
    named: list[tuple[Any, str]] = []
    rules: list[str] = ["glossary/line", "glossary/active"]
    for ref, view in board.souls.items():
        if view.captured:
            continue
        bits = _derived_bits(g, ref, view, rules)
        if bits:
            cards.append(say("position_card", card=view.card.name, slot=str(ref), line=view.line,
                             derived=Series(tuple(bits), "; ")))
            named.append((ref, view.card.name))
    derived = say("position_cards", cards=Series(tuple(cards), ". ")) if cards else say("printed_values_only")
    g.trace.add("position", say("position_as_given", derived=derived), tuple(dict.fromkeys(rules)),
                cards=named)


def _derived_bits(g: Game, ref: Any, view: Any, rules: list[str]) -> list[str | Said]:
    """What the rules derive for one active Soul beyond its printed values (its rules added to `rules`)."""
    bits: list[str | Said] = []
    for key, value in (("ATK", view.atk), ("DEF", view.def_), ("max HP", view.max_hp)):
        text, why = stats.explain(value, key)
        if why:
            bits.append(text)
            rules += why
    for ks in view.keywords:
        if ks.kind != "printed":
            bits.append(say("keyword_from", keyword=ks.keyword.label(), source=ks.label))
            rules += ks.rules
            if ks.source_uid is not None and ks.source_uid != g.state.soul(ref).uid:
                rules.append("11.2.3")  # a granted effect counts as coming from the card that grants it
    for blocked in view.blocked:
        bits.append(say("blocked_by_unyielding", what=blocked.what, source=blocked.source,
                        rank=blocked.source_rank, card_rank=view.card.rank))
        rules += ["13.6.1", "13.6.3"]
    return bits


def state_after(scenario: Scenario, count: int) -> tuple[Any, Window | None]:
    """The state, and the open response window (or None), just before queued action `count` would
    be taken: what `api.legal_actions(scenario, after=count)` asks about."""
    state = scenario.state.copy()
    g = Game(state, Trace(cap=STEP_CAP), tuple(scenario.actions), verbs, scenario.on_illegal, limit=count)
    try:
        play(g)
    except OutOfTime:
        raise
    except StepLimit:
        return state, None
    if g.paused is None or not g.paused.window_open:
        return state, None   # the queue ended before `count`, or play stopped outside a window
    with g.enter(g.paused):
        return state, cascade.window(g)


def extend_with_legal(scenario: Scenario, length: int, choose: Callable[[list[Action]], Action]) -> Scenario:
    """The scenario with up to `length` more actions, each picked by `choose` from the legal actions
    of the position the queue so far reaches (random playouts: the property test and the bench)."""
    actions = list(scenario.actions)
    for _ in range(length):
        state, window = state_after(replace(scenario, actions=tuple(actions)), len(actions))
        if state.winner:
            break
        legal = verbs.legal_actions(state, window)
        if not legal:
            break
        actions.append(replace(choose(legal), index=len(actions)))
    return replace(scenario, actions=tuple(actions))


def play(g: Game) -> None:
    """Take the queued actions in order; the answers inside windows are taken by the windows."""
    while not g.stopped:
        action = g.peek()
        if action is None:
            return
        if g.state.outcome is not None:
            reject(g, action, [g.state.outcome.refusal(", so nothing more is played")])
            return
        violations = verbs.verify(g.state, action, cascade.window(g), g.board())
        if violations:
            reject(g, action, violations)
            g.pos += 1
            if g.on_illegal != "continue":
                g.stopped = True
            continue
        g.take()
        verbs.apply(g, action)
        if g.paused is not None:
            return   # stopped inside the action, before the next queued one (state_after)
        zones.check_captures(g)


def reject(g: Game, action: Action, violations: list[Violation]) -> None:
    rules = list(dict.fromkeys(r for v in violations for r in v.rules))
    because = Series(tuple(violations), "; ")
    refused = say("not_legal", action=action.describe(), why=because)
    places = [action.ref(key, g.state) for key in action.places] + action.target_refs(g.state)
    step = g.trace.add("reject", say("action_refused", action=action.index, player=g.actor(action),
                                     refused=refused), rules,
                       reasons=[v.reason for v in violations if v.reason is not None],
                       cards=[g.at(ref) for ref in dict.fromkeys(places) if ref is not None],
                       what="action_refused", action=action.index, player=g.actor(action),
                       because=tuple(v.text for v in violations))
    g.ledger.refused(action.index, step.n, because.text)
    if g.rejected is None:
        g.rejected = {"action": action.index, "text": refused.text, "rules": rules,
                      "violations": [v.to_dict() for v in violations]}
