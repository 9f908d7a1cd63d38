"""What answering costs (contract §7): every library ruling resolved with its answers, and again with the
ledger following nothing (the answers then read only the steps), in alternating rounds; per ruling the
median and p95 of each, and the whole library's median.

    python bench/answers.py [--rounds 7]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judge import engine
from judge.engine.driver import answers
from judge.library import LIBRARY


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args(argv)
    scenarios = [engine.load_scenario(dict(e.data), source=e.path.name) for e in LIBRARY.entries()]
    follow = answers.follow
    per: dict[str, list[float]] = {"with answers": [], "following nothing": []}
    whole: dict[str, list[float]] = {"with answers": [], "following nothing": []}
    for _ in range(args.rounds):
        for label, fn in (("with answers", follow), ("following nothing", lambda g, asks: None)):
            answers.follow = fn
            start = time.perf_counter()
            for scenario in scenarios:
                t = time.perf_counter()
                engine.resolve(scenario)
                per[label].append((time.perf_counter() - t) * 1000)
            whole[label].append((time.perf_counter() - start) * 1000)
    answers.follow = follow
    for label in per:
        print(f"{label:18}: per ruling median {statistics.median(per[label]):.2f} ms, "
              f"p95 {p95(per[label]):.2f} ms; the library ({len(scenarios)}) median "
              f"{statistics.median(whole[label]):.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
