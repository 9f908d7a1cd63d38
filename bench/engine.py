"""Engine benchmark: resolve every scenario under scenarios/ 50 times (median and p95 per scenario),
then random playouts from legal_actions (actions per second). Target: median scenario < 5 ms.

    python bench/engine.py [--runs 50] [--playouts 20] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judge.commands.resolve import is_scenario_file
from judge.engine import Scenario, load_scenario_file
from judge.engine.driver.resolve import extend_with_legal, resolve


def bench_scenarios(runs: int) -> list[float]:
    files = sorted(p for p in (ROOT / "scenarios").rglob("*.yaml") if is_scenario_file(p))
    medians = []
    print(f"{'scenario':60} {'median ms':>10} {'p95 ms':>8}")
    for path in files:
        scenario = load_scenario_file(path)
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            resolve(scenario)
            times.append((time.perf_counter() - t0) * 1000)
        times.sort()
        med = statistics.median(times)
        p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
        medians.append(med)
        print(f"{path.relative_to(ROOT / 'scenarios').as_posix():60} {med:10.2f} {p95:8.2f}")
    return medians


def playout(scenario: Scenario, rng: random.Random, max_actions: int) -> tuple[int, float]:
    """Append random legal actions one at a time (from legal_actions in the position reached) and
    resolve; returns the number of actions played and the time the resolution took."""
    s = extend_with_legal(replace(scenario, actions=()), max_actions, rng.choice)   # from the position alone
    t0 = time.perf_counter()
    resolve(s)
    return len(s.actions), time.perf_counter() - t0


def bench_playouts(count: int, seed: int, max_actions: int = 30) -> None:
    rng = random.Random(seed)
    files = sorted(p for p in (ROOT / "scenarios").rglob("*.yaml") if is_scenario_file(p))
    played = 0
    resolving = 0.0
    t0 = time.perf_counter()
    for i in range(count):
        scenario = load_scenario_file(files[i % len(files)])
        n, dt_resolve = playout(scenario, rng, max_actions)
        played += n
        resolving += dt_resolve
    dt = time.perf_counter() - t0
    print(f"\nrandom playouts: {count} playouts, {played} random legal actions")
    print(f"  resolving the finished queues: {played / resolving:.0f} actions/s")
    print("  building them (legal_actions after each action, re-resolving the queue so far, as the desk "
          f"does): {played / dt:.0f} actions/s")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--playouts", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    medians = bench_scenarios(args.runs)
    overall = statistics.median(medians)
    print(f"\n{len(medians)} scenarios: median of medians {overall:.2f} ms, slowest median "
          f"{max(medians):.2f} ms (target: median under 5 ms: {'met' if overall < 5 else 'NOT met'})")
    bench_playouts(args.playouts, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
