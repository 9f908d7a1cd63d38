"""What checking one action costs (`judge.engine.can`) against building the list of every legal action
and looking it up (`action in legal_actions(...)`), at the start of every library ruling with a queue,
for its first queued action: per position the time of each, and the median and p95 over the library.

    python bench/can.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judge.commands.resolve import is_scenario_file
from judge.engine import can, legal_actions, load_scenario_file


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


def time_can(scenario: Any, action: Any) -> float:
    started = time.perf_counter()
    can(scenario, action, 0)
    return (time.perf_counter() - started) * 1000


def time_listed(scenario: Any, action: Any) -> float:
    started = time.perf_counter()
    _ = action.to_dict() in legal_actions(scenario, 0)
    return (time.perf_counter() - started) * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    files = sorted(p for p in (ROOT / "scenarios").rglob("*.yaml") if is_scenario_file(p))
    one, listed = [], []
    for path in files:
        scenario = load_scenario_file(path)
        if not scenario.actions:
            continue
        action = scenario.actions[0]
        alone = [time_can(scenario, action) for _ in range(args.rounds)]
        whole = [time_listed(scenario, action) for _ in range(args.rounds)]
        one.append(statistics.median(alone))
        listed.append(statistics.median(whole))
    print(f"{len(one)} positions, {args.rounds} rounds each (ms per check)")
    print(f"can(position, action):            median {statistics.median(one):.2f}  p95 {p95(one):.2f}")
    print(f"action in legal_actions(position): median {statistics.median(listed):.2f}  p95 {p95(listed):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
