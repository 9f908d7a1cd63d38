"""Time three disputes at the desk as a judge would pose them, in a real Chromium against a real server,
at 1280×800 and 390×844, counting clicks and keystrokes. Prints median and p95 per dispute and size.

    .venv/bin/python bench/desk_time.py [runs]          (default 3 runs of each)

1. An attack: from the "An attack" quick start, swap B's Dusk Lancer (L2) for Iron Sentinel (Taunt),
   queue "A's Noah (C3) attacks B's Harold (C3)" and resolve (the engine says whether Taunt allows it).
2. An effect and a response: from a new desk, set Hidden Snare face down under B's Harold with the card
   picker, queue A's Firebolt at Harold, queue B's Hidden Snare in answer, resolve.
3. A YAML paste: paste a library scenario into the editor and resolve it.

Targets (issue 12): an attack ≤ 8 clicks, an effect with a response ≤ 14 clicks, no typing for either.
The time is the machine's: page load to ruling shown, with no reading time; a person adds their own.
"""

from __future__ import annotations

import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from live import CHROMIUM, CHROMIUM_ARGS, serving  # the tests' live server and Chromium flags

from judge import SCENARIOS_DIR
from judge.web import create_app

SIZES = {"desktop 1280×800": (1280, 800), "phone 390×844": (390, 844)}
PASTED = SCENARIOS_DIR / "11-effects" / "soul-effect-fizzles-when-soul-captured.yaml"


class User:
    """A page, with every click and keystroke counted."""

    def __init__(self, page):
        self.page = page
        self.clicks = 0
        self.keys = 0

    def click(self, selector: str, **kw) -> None:
        self.clicks += 1
        self.page.locator(selector, **kw).first.click()

    def paste(self, selector: str, text: str) -> None:
        self.clicks += 1  # into the field
        self.keys += 2    # select all, paste
        self.page.fill(selector, text)

    def ready(self) -> None:
        self.page.wait_for_selector("#desk[data-ready='1']")

    def offered(self, text: str) -> None:
        """Wait until what can happen next, for the board as it is now, offers `text`."""
        self.page.locator("#next-actions:not([aria-busy]) .next-action", has_text=text).first.wait_for()

    def ruled(self) -> None:
        self.page.wait_for_selector(".desk.stepping #ruling-out .step")


def an_attack(user: User, base: str) -> None:
    user.page.goto(f"{base}/desk")
    user.ready()
    user.click(".start-button[data-start=attack]")
    user.offered("A's Noah (C3) attacks B's Harold (C3)")
    user.click('#board [data-ref="B:L2"]')
    user.click("#slot-remove")
    user.click('#card-results button[data-card="Iron Sentinel"]')
    user.page.locator('#board [data-ref="B:L2"]', has_text="Iron Sentinel").wait_for()
    user.click("#slot-close")
    user.offered("attacks B's")
    user.click("#next-actions .next-action", has_text="A's Noah (C3) attacks B's")
    user.page.locator("#queue li").first.wait_for()
    user.click("#resolve")
    user.ruled()


def an_effect_and_a_response(user: User, base: str) -> None:
    user.page.goto(f"{base}/desk")
    user.ready()
    user.click('#board [data-ref="B:C3"]')
    user.click("#ambush-pick")
    user.click('#card-results button[data-card="Hidden Snare"]')
    user.page.locator("#ambush-list li", has_text="Hidden Snare").wait_for()
    user.click("#slot-close")
    user.offered("A casts Firebolt with Noah (C3) at B's Harold (C3)")
    user.click("#next-actions .next-action", has_text="A casts Firebolt with Noah (C3) at B's Harold (C3)")
    user.offered("B springs Hidden Snare")
    user.click("#next-actions .next-action", has_text="B springs Hidden Snare")
    user.page.locator("#queue li").nth(1).wait_for()
    user.click("#resolve")
    user.ruled()


def a_yaml_paste(user: User, base: str) -> None:
    user.page.goto(f"{base}/desk")
    user.ready()
    user.paste("#yaml-text", PASTED.read_text(encoding="utf-8"))
    user.click("#yaml-resolve")
    user.ruled()


DISPUTES = {"an attack": an_attack, "an effect and a response": an_effect_and_a_response,
            "a YAML paste": a_yaml_paste}


def desk_app():
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    instance = Path(tempfile.mkdtemp(prefix="desk-bench-"))
    return create_app({"DATABASE": str(instance / "rulings.sqlite3"), "INDEX_DIR": str(instance / "index")})


def p95(values: list[float]) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(0.95 * (len(values) - 1)))]


def main(runs: int = 3) -> int:
    if not Path(CHROMIUM).exists():
        print(f"desk_time: no Chromium at {CHROMIUM}; skipped")
        return 0
    from playwright.sync_api import sync_playwright

    with serving(desk_app(), "desk-bench") as base, sync_playwright() as playwright:
        print(f"Desk disputes, {runs} runs each, real server at {base}, Chromium {CHROMIUM}")
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for size, (width, height) in SIZES.items():
            for name, dispute in DISPUTES.items():
                times, counts = [], set()
                for _ in range(runs):
                    context = browser.new_context(viewport={"width": width, "height": height})
                    context.set_default_timeout(30_000)
                    user = User(context.new_page())
                    start = time.perf_counter()
                    dispute(user, base)
                    times.append((time.perf_counter() - start) * 1000)
                    counts.add((user.clicks, user.keys))
                    context.close()
                (clicks, keys), = counts  # the same every run: the path is scripted
                print(f"  {size:17} {name:26} {clicks:2} clicks, {keys} keystrokes; "
                      f"median {statistics.median(times) / 1000:.2f} s, p95 {p95(times) / 1000:.2f} s")
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 3))
