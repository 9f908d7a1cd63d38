"""How fast a dispute in words is read, and how fast a sentence becomes a verdict on the server.

    .venv/bin/python bench/read_dispute.py [runs]

1. Reading: every dispute of tests/disputes_in_words.yaml read `runs` times in-process (judge.reading):
   median and p95 per reading (the aim: median ≤ 50 ms).
2. Sentence to verdict on the server: the app as served (create_app() with its production defaults, rate
   limits off for the bench's own many requests), POST /api/v1/read then POST /api/v1/resolve for each
   dispute that reads: median and p95 of the two together (the aim: ≤ 1 s).
3. The disputes of bench/desk_time.py posed by text: the sentence a judge would type for each, its clicks
   at the desk (Read it, Resolve: 2) and keys (one per character typed; 0 when pasted from a chat), and the
   verdict it gets.
"""

from __future__ import annotations

import contextlib
import statistics
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from judge.engine import load_scenario, resolve
from judge.reading import Declined, read_dispute
from judge.reading.reader import _shape
from judge.web import create_app

DESK_TIME_BY_TEXT = {
    "an attack": "Noah attacks Harold; B's Iron Sentinel is on L2. Legal?",
    "an effect and a response": (
        "Grey Knight casts Firebolt at Harold; B answers by springing Hidden Snare at "
        "Grey Knight. Does Firebolt resolve?"
    ),
    "defiance against unyielding": (
        "B's Harold is on C3. A's Stubborn Squire attacks B's Dusk Lancer. What happens to Stubborn Squire?"
    ),
    "ambush returns the caster": (
        "Grey Knight casts Firebolt at Harold; B answers with an Ambush that says 'When "
        "the Ambusher is targeted by an Effect: return the Caster to its owner's hand'. "
        "Does Firebolt resolve?"
    ),
    "range from the second line": (
        "Hawkeye Archer stands behind Grey Knight. Can Hawkeye Archer attack Harold?"
    ),
    "chains at noah": "In B's turn, B's Dusk Lancer casts Chrome Chains at A's Noah. Legal?",
}


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


def main(runs: int = 5) -> int:
    cases = yaml.safe_load((ROOT / "tests" / "disputes_in_words.yaml").read_text(encoding="utf-8"))
    texts = [(c["text"], c.get("as")) for c in cases]
    read_dispute(texts[0][0])  # the grammar and the library, once
    cold: list[float] = []
    warm: list[float] = []
    for run in range(runs):
        if run == 0:
            _shape.cache_clear()  # the first pass parses every sentence shape anew
        for text, speaker in texts:
            start = time.perf_counter()
            with contextlib.suppress(Declined):
                read_dispute(text, speaker=speaker)
            (cold if run == 0 else warm).append((time.perf_counter() - start) * 1000)
    for name, times in (
        ("first reading (every sentence shape parsed anew)", cold),
        ("readings again (shapes known)", warm),
    ):
        if times:
            print(
                f"{name}: {len(times)} readings: median {statistics.median(times):.1f} ms, "
                f"p95 {p95(times):.1f} ms, max {max(times):.1f} ms"
            )

    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "RATELIMIT_ENABLED": False,
                "DATABASE": str(Path(folder) / "r.sqlite3"),
                "INDEX_DIR": str(Path(folder) / "index"),
            }
        )
        client = app.test_client()
        total: list[float] = []
        for text, speaker in texts:
            body = {"text": text, **({"as": speaker} if speaker else {})}
            start = time.perf_counter()
            read = client.post("/api/v1/read", json=body)
            if read.status_code != 200:
                continue
            ruled = client.post("/api/v1/resolve", json=read.get_json()["scenario"])
            total.append((time.perf_counter() - start) * 1000)
            assert ruled.status_code == 200, ruled.get_json()
        print(
            f"sentence to verdict on the server: {len(total)} disputes: "
            f"median {statistics.median(total):.1f} ms, "
            f"p95 {p95(total):.1f} ms, max {max(total):.1f} ms"
        )

    print("the disputes of bench/desk_time.py posed by text (clicks: Read it and Resolve):")
    for name, text in DESK_TIME_BY_TEXT.items():
        try:
            reading = read_dispute(text)
        except Declined as exc:
            print(f"  {name}: declined: {exc}")
            continue
        answers = resolve(load_scenario(reading.scenario))["answers"]
        verdict = "; ".join(a["text"].split(":")[0] for a in answers)
        print(
            f"  {name}: 2 clicks, {len(text)} keys typed (0 pasted), {len(reading.guesses)} defaults shown; "
            f"verdict {verdict}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 5))
