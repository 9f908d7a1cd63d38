"""How the engine's cost grows with the board: N Souls, each with a Static Effect of its own and an
Activated Effect, and a queue of N actions (each Soul uses its effect once), for N = 1 … 28; then an
Event with T unnamed targets (T = 1 … 20) cast on a full board. Prints, per size, the steps, the total
time of a resolution (median and p95 of the runs), the time per step (median and p95 over every step of
every run) and, per series, the log-log slope of the total time against N (1 would be a cost per step
that does not grow with the board) and against the steps (the board's series has more steps per Soul
from N = 20 on, where B's Souls act after a turn passes: against the steps, 1 is a flat cost per step).
Times are the process's CPU time: on a shared machine, wall time mostly measures the neighbours. Last,
for the largest board, how many boards each kind of step derived whole and how many it patched (only
the cards it touched derived again, board.Board.patched). The calls column counts the Python function
calls of one (profiled) resolution per step: the work itself, noise-free.

    python bench/engine_growth.py [--runs 9]
"""

from __future__ import annotations

import argparse
import collections
import cProfile
import math
import pstats
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judge.engine import load_field
from judge.engine.driver.resolve import resolve
from judge.engine.driver.scenario import load_scenario
from judge.engine.play import game
from judge.engine.position import board
from judge.engine.position.state import State

SIZES = (1, 2, 4, 7, 10, 14, 20, 28)
TARGETS = (1, 2, 4, 7, 10, 14, 20)
LEADERS = [
    {"name": "Grow Queen", "type": "soul", "rank": 3, "attribute": "light", "leader": True,
     "atk": 20, "def": 10, "hp": 50},
    {"name": "Grow King", "type": "soul", "rank": 3, "attribute": "dark", "leader": True,
     "atk": 20, "def": 10, "hp": 50},
]


def soul_card(k: int) -> dict[str, Any]:
    """Soul k: a Static Effect on itself (while damaged or not: a condition to check) and a 1/Turn
    Activated Effect that gains it ATK until the end of the turn."""
    return {"name": f"Grower {k}", "type": "soul", "rank": 0, "attribute": "light", "atk": 10, "def": 5,
            "hp": 30,
            "effects": [
                {"kind": "static", "gain": {"def": 5}, "to": "self", "condition": {"front_line": True}},
                {"name": f"Surge {k}", "kind": "activated", "limit": "1/Turn",
                 "do": [{"gain": {"atk": 5}, "to": "self", "until": "end_of_turn"}]},
            ]}


def slots() -> list[tuple[str, str]]:
    """Every soul slot but the altars, A's first then B's."""
    names = [s for s in load_field().slots if s != "altar"]
    return [(p, s) for p in ("A", "B") for s in names]


def board_scenario(n: int) -> dict[str, Any]:
    """N Souls (A's slots first, then B's) and N actions: each of A's Souls uses its effect, then the
    turn passes to B, whose Souls use theirs."""
    cards = [*LEADERS, *(soul_card(k) for k in range(n))]
    field: dict[str, dict[str, str]] = {"A": {"altar": "Grow Queen"}, "B": {"altar": "Grow King"}}
    actions: list[dict[str, Any]] = []
    placed = slots()[:n]
    for k, (player, slot) in enumerate(placed):
        field[player][slot] = f"Grower {k}"
    a_side = [(k, s) for k, (p, s) in enumerate(placed) if p == "A"]
    b_side = [(k, s) for k, (p, s) in enumerate(placed) if p == "B"]
    actions += [{"activate": f"Surge {k}", "card": slot} for k, slot in a_side]
    if b_side:
        actions += [{"end_phase": True, "by": "A"}] * 3
        actions += [{"activate": f"Surge {k}", "card": slot, "by": "B"} for k, slot in b_side]
    return {"id": f"growth-{n}", "cards": cards, "actions": actions, "state": {
        "turn_player": "A", "phase": "preparation", "turn": 9,
        "players": {p: {"turns_taken": 8, "field": field[p], "hand": [], "deck": 10} for p in ("A", "B")}}}


def targets_scenario(t: int) -> dict[str, Any]:
    """A full board (28 Souls) and an Event with T selectors, cast without naming its targets."""
    data = board_scenario(28)
    data["cards"].append({"name": f"Volley {t}", "type": "event", "rank": 0, "effects": [
        {"kind": "activated", "targets": [{"soul": "any", "lines": "any"}] * t,
         "do": [{"damage": 5, "to": f"target{i + 1}" if t > 1 else "target"} for i in range(t)]}]})
    data["state"]["players"]["A"]["hand"] = [f"Volley {t}"]
    data["actions"] = [{"cast": f"Volley {t}", "caster": "L0"}]
    return data


def run(data: dict[str, Any], runs: int) -> tuple[int, list[float], list[float]]:
    """(steps, total ms of each run, ms of each step of every run)."""
    scenario = load_scenario(data)
    totals: list[float] = []
    per_step: list[float] = []
    steps = 0
    for _ in range(runs):
        marks: list[float] = []
        start = time.process_time()
        ruling = resolve(scenario, observe=lambda g, marks=marks: marks.append(time.process_time()))
        end = time.process_time()
        assert ruling["rejected"] is None and "error" not in ruling, (data["id"], ruling["rejected"])
        steps = len(ruling["steps"])
        totals.append((end - start) * 1000)
        edges = [start, *marks, end]
        per_step += [(b - a) * 1000 for a, b in zip(edges, edges[1:], strict=False)][:steps]
    return steps, totals, per_step


def calls(data: dict[str, Any]) -> int:
    """The Python function calls of one resolution: its work, which the neighbours on a shared machine
    do not change (a profiled run, apart from the timed ones)."""
    scenario = load_scenario(data)
    profile = cProfile.Profile()
    profile.enable()
    resolve(scenario)
    profile.disable()
    return int(pstats.Stats(profile).total_calls)   # type: ignore[attr-defined]


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def slope(xs: list[int], ys: list[float]) -> float:
    """The least-squares slope of log y against log x."""
    lx, ly = [math.log(x) for x in xs], [math.log(y) for y in ys]
    mx, my = statistics.fmean(lx), statistics.fmean(ly)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly, strict=True)) / sum((a - mx) ** 2 for a in lx)


def series(label: str, sizes: tuple[int, ...], make: Any, runs: int) -> None:
    print(f"\n{label}")
    print(f"{'N':>4} {'steps':>6} {'total ms':>9} {'p95':>8} {'per step ms':>12} {'p95':>8} "
          f"{'calls/step':>11}")
    medians: list[float] = []
    step_counts: list[int] = []
    work: list[float] = []
    for n in sizes:
        steps, totals, per_step = run(make(n), runs)
        medians.append(statistics.median(totals))
        step_counts.append(steps)
        work.append(float(calls(make(n))))
        print(f"{n:>4} {steps:>6} {medians[-1]:>9.2f} {p95(totals):>8.2f} "
              f"{statistics.median(per_step):>12.3f} {p95(per_step):>8.3f} {work[-1] / steps:>11.0f}")
    top = [i for i, n in enumerate(sizes) if n >= 7]   # past the fixed costs of a resolution
    print(f"log-log slope of the total time against N: {slope(list(sizes), medians):.2f}, from N = 7: "
          f"{slope([sizes[i] for i in top], [medians[i] for i in top]):.2f} (steps against N: "
          f"{slope(list(sizes), [float(s) for s in step_counts]):.2f}; aim: total ≤ 1.1)")
    print(f"log-log slope of the total time against the steps: {slope(step_counts, medians):.2f}, "
          f"from N = 7: {slope([step_counts[i] for i in top], [medians[i] for i in top]):.2f} "
          "(1: a flat cost per step)")
    print(f"log-log slope of the calls against N: {slope(list(sizes), work):.2f}, from N = 7: "
          f"{slope([sizes[i] for i in top], [work[i] for i in top]):.2f}; against the steps: "
          f"{slope(step_counts, work):.2f}, from N = 7: "
          f"{slope([step_counts[i] for i in top], [work[i] for i in top]):.2f} (steps against N from N = 7: "
          f"{slope([sizes[i] for i in top], [float(step_counts[i]) for i in top]):.2f})")


def derivations(data: dict[str, Any]) -> collections.Counter[tuple[str, bool]]:
    """(the kind of the step last added, whether its board was patched) for every board derived while
    resolving `data`; "start" before the first step."""
    counts: collections.Counter[tuple[str, bool]] = collections.Counter()
    real_board, real_derive = game.Game.board, board.derive
    playing: list[game.Game] = []

    def kept(g: game.Game) -> board.Board:
        playing[:] = [g]
        return real_board(g)

    def derive(state: State, before: board.Board | None = None,
               changes: list[tuple[Any, str]] | None = None) -> board.Board:
        made = real_derive(state, before, changes)
        steps = playing[0].trace.steps if playing and playing[0].state is state else []
        patched = before is not None and made.souls is not before.souls and made._sources is before._sources
        counts[(steps[-1].kind if steps else "start", patched)] += 1
        return made

    game.Game.board = kept   # type: ignore[method-assign,assignment]
    board.derive = derive
    try:
        resolve(load_scenario(data))
    finally:
        game.Game.board = real_board   # type: ignore[method-assign]
        board.derive = real_derive
    return counts


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    series("N Souls with N Static Effects, N Activated Effects used", SIZES, board_scenario, args.runs)
    series("an Event with T unnamed targets on a board of 28 Souls", TARGETS, targets_scenario, args.runs)
    for label, data in ((f"N = {SIZES[-1]}", board_scenario(SIZES[-1])),
                        (f"T = {TARGETS[-1]}", targets_scenario(TARGETS[-1]))):
        counts = derivations(data)
        kinds = sorted({kind for kind, _ in counts}, key=lambda k: -counts[(k, False)] - counts[(k, True)])
        print(f"\nboards derived at {label}, by the kind of step: " + ", ".join(
            f"{kind} {counts[(kind, False)]} whole / {counts[(kind, True)]} patched" for kind in kinds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
