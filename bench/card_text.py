"""Reading each library card's printed text (issue 28: median at most 5 ms): prints the median and
p95 over every card, each read `--rounds` times after one warm-up reading (the grammar is built once).

    python bench/card_text.py [--rounds 20]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from judge.engine import load_library, read_card_text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    cards = [c for c in load_library() if c.text]
    read_card_text(cards[0].text, cards[0].type)   # builds the grammar
    times = []
    for _ in range(args.rounds):
        for card in cards:
            start = time.perf_counter()
            read_card_text(card.text, card.type)
            times.append((time.perf_counter() - start) * 1000)
    times.sort()
    p95 = times[int(len(times) * 0.95) - 1]
    print(f"card text: {len(cards)} cards x {args.rounds}: median {statistics.median(times):.2f} ms, "
          f"p95 {p95:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
