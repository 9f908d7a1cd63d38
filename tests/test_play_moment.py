"""The moment of play is one record with one door (issue 26.8): `Game.moment` (a frozen `PlayMoment`)
changes only through `Game.enter`, which puts the moment before back however its block ends; stopping
at an action count (`state_after`) is a returned outcome (`Game.paused`), not an exception."""

from __future__ import annotations

import dataclasses

import pytest

from judge import ROOT
from judge.engine.driver import verbs
from judge.engine.driver.resolve import play, state_after
from judge.engine.driver.scenario import load_scenario_file
from judge.engine.play.game import Game, PlayMoment
from judge.engine.play.trace import Trace

SCENARIOS = ROOT / "scenarios"


def _game(limit: int | None = None, path: str = "positions/harold-grants-defiance.yaml") -> Game:
    scenario = load_scenario_file(SCENARIOS / path)
    return Game(scenario.state.copy(), Trace(), tuple(scenario.actions), verbs, scenario.on_illegal,
                limit=limit)


def test_enter_puts_the_moment_back_also_on_an_early_exit() -> None:
    g = _game()
    with pytest.raises(RuntimeError), g.enter(window_open=True, priority="A"):
        assert (g.window_open, g.priority) == (True, "A")
        raise RuntimeError("an early exit")
    assert g.moment == PlayMoment() and not g.window_open and g.priority is None


def test_moments_nest_and_each_comes_back() -> None:
    g = _game()
    with g.enter(window_open=True, priority="A"):
        with g.enter(priority="B", resolving=True):
            assert (g.window_open, g.priority, g.resolving) == (True, "B", True)
        assert (g.window_open, g.priority, g.resolving) == (True, "A", False)
        with g.enter(instant_depth=g.instant_depth + 1), g.enter(instant_depth=g.instant_depth + 1):
            assert g.instant_depth == 2
        assert g.instant_depth == 0
    assert g.moment == PlayMoment()


def test_the_moment_is_not_set_by_hand() -> None:
    g = _game()
    for name, value in (("window_open", True), ("priority", "A"), ("resolving", True), ("instant_depth", 1)):
        with pytest.raises(AttributeError):
            setattr(g, name, value)
    with pytest.raises(dataclasses.FrozenInstanceError):
        g.moment.window_open = True  # type: ignore[misc]


def _inside_a_window() -> tuple[str, int]:
    """A library scenario and an action count at which play stands in an open response window."""
    for path in sorted(SCENARIOS.rglob("*.yaml")):
        try:
            scenario = load_scenario_file(path)
        except Exception:  # noqa: BLE001 - not a scenario (a baseline, an input file)
            continue
        for count in range(1, len(scenario.actions) + 1):
            if state_after(scenario, count)[1] is not None:
                return path.relative_to(SCENARIOS).as_posix(), count
    raise AssertionError("no library scenario stands in a window before one of its actions")


def test_stopping_at_a_count_is_an_outcome_and_leaves_no_moment_behind() -> None:
    path, count = _inside_a_window()
    g = _game(limit=count, path=path)
    play(g)   # returns: no exception stops it
    assert g.paused is not None and g.paused.window_open and g.paused.priority in ("A", "B")
    assert g.stopped and g.pos == count
    assert g.moment == PlayMoment()   # every block it stopped in put its moment back
    _, window = state_after(load_scenario_file(SCENARIOS / path), count)
    assert window is not None and window.response and window.priority == g.paused.priority


def test_a_count_past_the_queue_plays_it_all() -> None:
    path, _ = _inside_a_window()
    g = _game(limit=10_000, path=path)
    play(g)
    assert g.paused is None and g.pos == len(g.actions) and g.moment == PlayMoment()
