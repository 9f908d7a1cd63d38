"""Time disputes at the desk as a judge would pose them, in a real Chromium against a real server,
at 1280×800 and 390×844, counting clicks (taps) and keystrokes. Prints median and p95 per dispute and size.

    .venv/bin/python bench/desk_time.py [runs] [name]   (default 3 runs of each; `name`: only those
                                                         whose name contains it)

1. An attack: from the "An attack" quick start, swap B's Dusk Lancer (L2) for Iron Sentinel (Taunt),
   queue "A's Noah (C3) attacks B's Harold (C3)" and resolve (the engine says whether Taunt allows it).
2. An effect and a response: from a new desk, set Hidden Snare face down under B's Harold with the card
   picker, queue A's Firebolt at Harold, queue B's Hidden Snare in answer, resolve.
3. A YAML paste: paste a library scenario into the editor and resolve it.

4. Defiance and Unyielding: a Defiance granted by a rank-1 Soul (Harold's to Dusk Lancer) against a
   rank-1 Unyielding attacker (Stubborn Squire, found by typing "squ" in the picker).
5. An Ambush that returns the Caster: B sets a custom Ambush (made from "Set an Ambush here…": it
   targets an opposing Soul in the Front Line and returns it to its owner's hand) under Harold; A casts
   Firebolt with Grey Knight; B springs the Ambush at Grey Knight, the Caster.
6. Range from the Second Line (the phone's dispute): Hawkeye Archer (Range) on A's L1 with a rank-0
   Soul in front of it on L1·0, attacking.
7. Chrome Chains at Noah, then at a rank-1 variant of Noah: B casts Chrome Chains in B's turn (offered
   beside A's, no turn switch), aimed at Noah, who is not offered as a target (Unyielding), resolve;
   then Noah's panel "Change this card's values…", rank 1, resolve again.
Disputes 4–7 are posed from a fresh page with the picker and the panels only (no YAML).

Targets (issue 12): an attack ≤ 8 clicks, an effect with a response ≤ 14 clicks, no typing for either;
(issue 21) disputes 4–7 ≤ 12 clicks and ≤ 6 keys at 1280×800, the Range one ≤ 12 taps at 390×844.
A choice in a drop-down counts two clicks (open it, pick); typing counts one key per character.
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

    def type(self, selector: str, text: str) -> None:
        self.clicks += 1  # into the field
        self.keys += len(text)
        self.page.locator(selector).first.fill(text)

    def choose(self, selector: str, label: str) -> None:
        self.clicks += 2  # open the list, pick
        self.page.locator(selector).first.select_option(label=label)

    def paste(self, selector: str, text: str) -> None:
        self.clicks += 1  # into the field
        self.keys += 2    # select all, paste
        self.page.fill(selector, text)

    def slot(self, ref: str) -> str:
        """A slot as the screen shows it: its box in the picture, on a phone its row of the board in words."""
        if self.page.viewport_size["width"] < 640:
            return f'#board [data-slot-ref="{ref}"]:visible, #board li[data-slot="{ref}"]:visible'
        return f'#board [data-ref="{ref}"]'

    def ready(self) -> None:
        self.page.wait_for_selector("#desk[data-ready='1']")

    def offered(self, text: str) -> None:
        """Wait until what can happen next, for the board as it is now, offers `text`."""
        self.page.locator("#next-actions:not([aria-busy]) .next-action", has_text=text).first.wait_for()

    def ruled(self) -> None:
        self.page.wait_for_selector(".desk.stepping #ruling-out .step")


def fresh(user: User, base: str) -> None:
    user.page.goto(f"{base}/desk")
    user.ready()


def offered_click(user: User, text: str) -> None:
    user.offered(text)
    user.click("#next-actions .next-action", has_text=text)


def resolve_two(user: User) -> None:
    """Once the queue holds a second entry, resolve it and wait for the ruling."""
    user.page.locator("#queue li").nth(1).wait_for()
    user.click("#resolve")
    user.ruled()


def an_attack(user: User, base: str) -> None:
    fresh(user, base)
    user.click(".start-button[data-start=attack]")
    user.offered("A's Noah (C3) attacks B's Harold (C3)")
    user.click(user.slot("B:L2"))
    user.click("#slot-remove")
    user.click('#card-results button[data-card="Iron Sentinel"]')
    user.page.locator(user.slot("B:L2"), has_text="Iron Sentinel").wait_for()
    user.click("#slot-close")
    user.offered("attacks B's")
    user.click("#next-actions .next-action", has_text="A's Noah (C3) attacks B's")
    user.page.locator("#queue li").first.wait_for()
    user.click("#resolve")
    user.ruled()


def an_effect_and_a_response(user: User, base: str) -> None:
    fresh(user, base)
    user.click(user.slot("B:C3"))
    user.click("#ambush-pick")
    user.click('#card-results button[data-card="Hidden Snare"]')
    user.page.locator("#ambush-list li", has_text="Hidden Snare").wait_for()
    user.click("#slot-close")
    offered_click(user, "A casts Firebolt with Noah (C3) at B's Harold (C3)")
    offered_click(user, "B springs Hidden Snare")
    resolve_two(user)


def a_yaml_paste(user: User, base: str) -> None:
    fresh(user, base)
    user.paste("#yaml-text", PASTED.read_text(encoding="utf-8"))
    user.click("#yaml-resolve")
    user.ruled()


def defiance_against_unyielding(user: User, base: str) -> None:
    fresh(user, base)
    user.click(user.slot("A:L2"))
    user.click("#slot-remove")
    user.type("#card-q", "squ")
    user.click('#card-results button[data-card="Stubborn Squire"]')
    user.page.locator(user.slot("A:L2"), has_text="Stubborn").wait_for()
    offered_click(user, "A's Stubborn Squire (L2) attacks B's Dusk Lancer (L2)")
    resolve_two(user)


def ambush_returns_the_caster(user: User, base: str) -> None:
    fresh(user, base)
    user.click(user.slot("B:C3"))
    user.click("#ambush-pick")
    user.click("#custom-open")
    user.choose("#custom-form select[name=e_do]", "returns whom to its owner's hand")
    user.choose("#custom-form select[name=e_target]", "an opposing Soul in the Front Line")
    user.click("#custom-submit")   # "returns whom": its target, the first choice
    user.page.locator("#ambush-list li", has_text="My Ambush").wait_for()
    offered_click(user, "A casts Firebolt with Grey Knight (L2) at B's Harold (C3)")
    offered_click(user, "B springs My Ambush (set on C3) at A's Grey Knight (L2)")
    resolve_two(user)


def range_from_the_second_line(user: User, base: str) -> None:
    fresh(user, base)
    user.click(user.slot("A:L1"))
    user.type("#card-q", "rang")
    user.click('#card-results button[data-card="Hawkeye Archer"]')
    user.page.locator("#board", has_text="Hawkeye").first.wait_for()
    user.click("#slot-close")
    user.click(user.slot("A:L1·0"))
    user.click("#card-results button.card-option")
    user.page.locator('#board [data-ref="A:L1·0"].occupied').wait_for(state="attached")
    offered_click(user, "A's Hawkeye Archer (L1) attacks")
    resolve_two(user)


def chains_at_noah_then_a_variant(user: User, base: str) -> None:
    fresh(user, base)
    user.click('button[aria-label="Add a card to B\'s Hand"]')
    user.type("#card-q", "chr")
    user.click('#card-results button[data-card="Chrome Chains"]')
    user.offered("B casts Chrome Chains")  # Noah is not offered as a target: aim it there
    user.click("#next-actions .aim-button", has_text="Aim Chrome Chains at another card")
    user.click(user.slot("A:C3"))
    user.page.locator("#queue li", has_text="Noah").first.wait_for()
    user.click("#resolve")
    user.ruled()
    user.click(user.slot("A:C3"))
    user.click("#slot-vary")
    user.choose("#custom-form select[name=rank]", "1")
    user.click("#custom-submit")
    user.page.locator(user.slot("A:C3"), has_text="variant").wait_for()
    user.page.locator("#queue li", has_text="Noah (rank 1)").first.wait_for()
    user.click("#resolve")
    user.ruled()


DISPUTES = {"an attack": an_attack, "an effect and a response": an_effect_and_a_response,
            "a YAML paste": a_yaml_paste, "Defiance v. Unyielding": defiance_against_unyielding,
            "Ambush returns the Caster": ambush_returns_the_caster,
            "Range from the 2nd Line": range_from_the_second_line,
            "Chains at Noah, variant": chains_at_noah_then_a_variant}


def desk_app():
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    instance = Path(tempfile.mkdtemp(prefix="desk-bench-"))
    return create_app({"DATABASE": str(instance / "rulings.sqlite3"), "INDEX_DIR": str(instance / "index")})


def p95(values: list[float]) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(0.95 * (len(values) - 1)))]


def main(runs: int = 3, only: str = "") -> int:
    if not Path(CHROMIUM).exists():
        print(f"desk_time: no Chromium at {CHROMIUM}; skipped")
        return 0
    from playwright.sync_api import sync_playwright

    with serving(desk_app(), "desk-bench") as base, sync_playwright() as playwright:
        print(f"Desk disputes, {runs} runs each, real server at {base}, Chromium {CHROMIUM}")
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for size, (width, height) in SIZES.items():
            for name, dispute in DISPUTES.items():
                if only and only.lower() not in name.lower():
                    continue
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
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 3, sys.argv[2] if len(sys.argv) > 2 else ""))
