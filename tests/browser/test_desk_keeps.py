"""Work at the desk is never lost: a reload, Back after a rule link and a broken YAML resolve each bring
back exactly what the user had (board, queue, ruling and the step in view, or the user's own text).
Also: rule links open beside the ruling, the board is one tab stop with arrow keys, card typos get a
did-you-mean, and no page logs a console error."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

pytestmark = pytest.mark.browser

pytest.importorskip("judge.engine.driver.api", reason="the rules engine has not landed in this "
                                               "branch")

BROKEN = "title: Mine\nstate:\n  turn_player: A: B\n  phase: combat\nactions: []\n"  # line 3: a second colon


def ready(page):
    page.wait_for_selector("#desk[data-ready='1']")


def redrawn(page):
    return page.expect_response(lambda r: r.url.endswith("/desk/board.json") and r.request.method == "POST")


def kept(page):
    """Wait until this browser's draft holds the desk as it is now (saves are debounced)."""
    page.wait_for_function("""() => {
        const d = JSON.parse(localStorage.getItem('codex-desk:draft') || 'null');
        const desk = window.codexDesk;
        return d && JSON.stringify(d.scenario) === JSON.stringify(desk.scenario) && d.step === desk.step
            && location.hash.startsWith('#s=');
    }""")


def snapshot(page):
    """What the user sees: the queue, the step label, the ruling's steps and every occupied slot."""
    return {
        "queue": page.locator("#queue li .action-text").all_text_contents(),
        "label": (page.locator("#step-label").text_content() if page.locator("#step-nav").is_visible()
                  else None),
        "steps": page.locator("#ruling-out .step .step-text").all_text_contents(),
        "slots": page.locator("#board [data-ref].occupied").evaluate_all("gs => gs.map(g => "
                                                                         "g.getAttribute('aria-label'))"),
        "yaml": page.input_value("#yaml-text"),
    }


def cast_at_harold(page, live_server):
    """A new desk from the "effect" quick start, with A's cast of Firebolt at Harold queued."""
    page.goto(f"{live_server}/desk")
    ready(page)
    with redrawn(page):
        page.click(".start-button[data-start=effect]")
    with redrawn(page):
        page.locator(".next-action", has_text="A casts Firebolt with Noah (C3) at B's Harold (C3)").click()


def effect_and_answer(page, live_server):
    """A cast of Firebolt at Harold, answered by B's Hidden Snare; resolved, then one step back."""
    cast_at_harold(page, live_server)
    answer = page.locator(".next-group.player-B .next-action", has_text="B springs Hidden Snare")
    with redrawn(page):
        answer.first.click()
    page.click("#resolve")
    page.wait_for_selector(".desk.stepping #ruling-out .step")
    page.click("#step-prev")
    kept(page)


def test_a_reload_brings_back_the_board_the_queue_the_ruling_and_the_step(page, live_server):
    effect_and_answer(page, live_server)
    before = snapshot(page)
    assert len(before["queue"]) == 2 and before["steps"] and before["label"].startswith("Step ")
    page.reload()
    ready(page)
    page.wait_for_selector(".desk.stepping #ruling-out .step")
    assert snapshot(page) == before
    assert page.problems == []


def test_share_from_the_ruling_asks_a_title_and_question_prefilled_from_the_queue(page, live_server):
    effect_and_answer(page, live_server)
    page.click("#share-ruling")
    page.wait_for_selector("#share-dialog[open]")
    question = page.input_value("#share-question")
    assert "A casts Firebolt with Noah (C3) at B's Harold (C3)" in question and "Hidden Snare" in question
    page.fill("#share-name", "Snare against Firebolt")
    page.click("#share-form button[type=submit]")
    page.wait_for_url(re.compile(r"/r/[0-9a-f]{12}$"))
    assert page.locator("h1").text_content() == "Snare against Firebolt"
    assert not re.search(r"\d{4}-\d\d-\d\dT", page.locator(".ruling-header .meta").text_content())
    deciding = page.locator(".ruling-trace .step.deciding")
    assert deciding.count() == 1
    answer = page.locator(".ruling-header .answer").first
    box = answer.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]  # opens on the answer
    link = answer.locator("a.to-deciding")
    assert link.get_attribute("href") == f"#{deciding.get_attribute('id')}"   # the deciding step, one click
    assert page.problems == []


def test_a_closed_tab_comes_back_on_a_new_desk_with_a_notice(page, context, live_server):
    effect_and_answer(page, live_server)
    before = snapshot(page)
    page.close()
    again = context.new_page()
    again.goto(f"{live_server}/desk")  # no address to go by: this browser's draft
    ready(again)
    again.wait_for_selector(".desk.stepping #ruling-out .step")
    banner = again.locator("#restored")  # the desk asks: continue (shown meanwhile), or start anew
    assert banner.is_visible() and "your desk from" in banner.text_content()
    for choice in ("Continue where you were", "Start with an empty board", "Start from the sample position"):
        assert banner.get_by_role("button", name=choice).is_visible()
    assert snapshot(again) == before


def test_a_rule_link_opens_beside_the_ruling_and_back_after_leaving_restores_the_desk(page, live_server):
    effect_and_answer(page, live_server)
    before = snapshot(page)
    url = page.url
    link = page.locator("#ruling-out .step-rules a[href^='/rules/']").first
    rule_id = link.text_content().strip()
    link.click()
    panel = page.locator("#rule-panel")
    panel.wait_for()
    page.locator("#rule-panel-title", has_text=rule_id).wait_for()
    assert page.url == url  # the desk stayed where it was
    assert panel.locator(".rule-panel-body p").first.text_content().strip()
    assert snapshot(page) == before
    page.keyboard.press("Escape")
    assert panel.is_hidden()
    # the user follows the link out in this tab, then comes Back: the same desk
    page.goto(panel.locator(".rule-panel-out").get_attribute("href"),
              timeout=120_000)  # lists library rulings
    page.locator("h1").first.wait_for()
    page.go_back()
    ready(page)
    page.wait_for_selector(".desk.stepping #ruling-out .step")
    assert snapshot(page) == before
    assert page.problems == []


def test_a_broken_yaml_resolve_keeps_the_text_shows_the_line_once_and_marks_it(page, live_server):
    page.goto(f"{live_server}/desk")
    ready(page)
    board = snapshot(page)["slots"]
    page.fill("#yaml-text", BROKEN)
    page.click("#yaml-resolve")
    problem = page.locator("#yaml-problems li").first
    problem.wait_for()
    text = problem.text_content()
    assert len(re.findall(r"\bline 3\b", text)) == 1, text
    assert page.input_value("#yaml-text") == BROKEN
    assert page.locator("#yaml-backdrop .bad-line").text_content() == BROKEN.splitlines()[2]
    assert page.evaluate("document.activeElement.id") == "yaml-text"
    assert snapshot(page)["slots"] == board  # the desk was not emptied
    # a reload keeps the user's text and shows the error again
    kept(page)
    page.wait_for_function("() => (JSON.parse(localStorage.getItem('codex-desk:draft')).yaml || "
                           "'').includes('A: B')")
    page.reload()
    ready(page)
    assert page.input_value("#yaml-text") == BROKEN
    page.locator("#yaml-problems li", has_text="line 3").wait_for()
    assert page.problems == []


def test_without_javascript_a_broken_yaml_resolve_keeps_the_text_and_the_error_beside_it(browser,
                                                                                         live_server):
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/desk")
        page.fill("#yaml-text", BROKEN)
        page.click("#yaml-resolve")
        page.wait_for_load_state()
        assert page.input_value("#yaml-text") == BROKEN
        text = page.locator("#yaml-problems").text_content()
        assert len(re.findall(r"\bline 3\b", text)) == 1, text
    finally:
        context.close()


def test_a_card_typo_says_did_you_mean_and_one_click_fixes_it(page, live_server):
    page.goto(f"{live_server}/desk")
    ready(page)
    yaml_text = page.input_value("#yaml-text").replace("- Firebolt", "- Firebalt")
    assert "Firebalt" in yaml_text
    page.fill("#yaml-text", yaml_text)
    page.click("#yaml-load")
    problem = page.locator("#board-problems li", has_text="Firebalt")
    problem.wait_for()
    assert "did you mean Firebolt?" in problem.text_content()
    assert page.locator(".player-A .pile-hand .chip.has-problem",
                        has_text="Firebalt").count() == 1  # marked where it is
    with redrawn(page):
        problem.locator("button", has_text="Use Firebolt").click()
    page.locator("#next-actions:not([aria-busy]) .next-action", has_text="casts Firebolt").first.wait_for()
    assert "Firebalt" not in page.input_value("#yaml-text")


def test_the_board_is_one_tab_stop_with_arrow_keys_and_escape_returns_to_the_slot(page, live_server):
    page.goto(f"{live_server}/desk")
    ready(page)
    stops = page.locator("#board [data-ref][tabindex='0']")
    assert stops.count() == 1
    first = stops.first.get_attribute("data-ref")
    stops.first.focus()
    page.keyboard.press("ArrowUp")
    moved = page.evaluate("document.activeElement.dataset.ref")
    assert moved and moved != first
    assert page.locator("#board [data-ref][tabindex='0']").count() == 1
    assert page.locator("#board [data-ref][tabindex='0']").get_attribute("data-ref") == moved
    page.keyboard.press("Enter")
    page.wait_for_selector("#slot-editor:not([hidden]), #picker:not([hidden])")
    page.keyboard.press("Escape")
    assert page.locator("#slot-editor").is_hidden() and page.locator("#picker").is_hidden()
    assert page.evaluate("document.activeElement.dataset.ref") == moved
    # focus and selection look different: a selected slot's box is filled, a focused one only ringed
    slot = page.locator(f'#board [data-ref="{moved}"]')
    slot.click()
    selected_fill = slot.locator(".slot-box").evaluate("b => getComputedStyle(b).fill")
    page.keyboard.press("Escape")
    focused_box = page.locator(f'#board [data-ref="{moved}"] .slot-box')
    focused_fill = focused_box.evaluate("b => getComputedStyle(b).fill")
    assert selected_fill != focused_fill


def test_the_skip_link_is_the_first_stop_and_leads_past_the_header(page, live_server):
    page.goto(f"{live_server}/desk")
    ready(page)
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip-link"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"


def test_no_page_logs_a_console_error(page, live_server, client_pages):
    seen = []
    page.on("console",
            lambda m: seen.append(f"{m.type}: {m.text} ({page.url})") if m.type == "error" else None)
    page.on("pageerror", lambda e: seen.append(f"page error: {e} ({page.url})"))
    failed = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400
            and r.request.resource_type != "fetch" else None)
    for path in client_pages:
        page.goto(f"{live_server}{path}", timeout=120_000)
        page.wait_for_load_state("load")
        if path.startswith("/desk"):
            ready(page)
    assert seen == [] and failed == []


@pytest.fixture()
def client_pages(live_server, browser):
    """One page of each kind, a shared ruling included (saved through the desk's form)."""
    import urllib.parse
    import urllib.request

    from judge.desk.pages import start

    pages = ["/", "/rules/13.6.2", "/rules/13.6.2b", "/glossary", "/glossary/atk", "/interpretations",
             "/cards", "/search?q=unyielding", "/scenarios", "/desk",
             "/desk?scenario=10-card-types/ambusher-must-be-in-front-line",
             "/scenarios/10-card-types/ambusher-must-be-in-front-line"]
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{live_server}/desk")
        ready(page)
        page.click("#share")
        page.wait_for_selector("#share-dialog[open]")
        page.click("#share-form button[type=submit]")
        page.wait_for_url(re.compile(r"/r/[0-9a-f]{12}$"))
        pages.append(urllib.parse.urlparse(page.url).path)
    finally:
        context.close()
    del urllib, start
    return pages


def test_what_can_happen_next_is_five_keystrokes_from_the_top(page, live_server):
    page.goto(f"{live_server}/desk")
    ready(page)
    page.locator("#next-actions .next-action").first.wait_for()
    for key in ("Tab", "Tab", "Tab"):
        page.keyboard.press(key)
    assert page.evaluate("document.activeElement.textContent") == "Skip to what can happen next"
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert "next-action" in page.evaluate("document.activeElement.className")


def test_on_a_phone_the_board_and_the_current_step_stay_on_screen_together(phone, live_server):
    page = phone
    effect_and_answer(page, live_server)
    for _ in range(4):
        before = page.evaluate("scrollY")
        label = page.locator("#step-label").text_content()
        page.click("#step-prev")
        page.wait_for_function("t => document.querySelector('#step-label').textContent !== t", arg=label)
        assert abs(page.evaluate("scrollY") - before) < 400  # a tap no longer jumps away from the board
        board = page.locator(".desk-board").bounding_box()
        step = page.locator("#ruling-out .step.current").bounding_box()
        assert board["y"] <= 0 + 1 and board["height"] < 844 * 0.7
        assert board["y"] + board["height"] <= step["y"] + 1 and step["y"] < 844


def test_on_a_phone_the_board_reads_in_words_with_the_touched_slot_marked(phone, live_server):
    page = phone
    effect_and_answer(page, live_server)
    page.locator("#ruling-out .step", has_text="Harold (B:C3) takes 10 damage").click()
    page.locator("#step-text", has_text="Harold (B:C3) takes 10 damage").wait_for()
    rows = page.locator("#board .board-compact li")
    assert rows.count() >= 4 and page.locator("#board .board-scroll").is_hidden()
    touched = page.locator("#board .board-compact li.changed")
    assert touched.count() == 1 and touched.get_attribute("data-slot") == "B:C3"
    assert "Harold" in touched.text_content() and "HP 20/30" in touched.text_content()
    size = float(touched.evaluate("li => getComputedStyle(li).fontSize").removesuffix("px"))
    assert size >= 12   # readable without zoom (the picture's slot text is about 6 px here)
    page.click("#board-picture")
    assert page.locator("#board .board-scroll").is_visible() and rows.first.is_hidden()
    page.click("#board-picture")
    assert page.locator("#board .board-scroll").is_hidden() and rows.first.is_visible()


def test_on_a_wide_screen_the_stepping_board_stays_a_picture(page, live_server):
    page.set_viewport_size({"width": 1280, "height": 800})
    effect_and_answer(page, live_server)
    assert page.locator("#board .board-scroll").is_visible()
    assert page.locator("#board .board-compact").is_hidden() and page.locator("#board-picture").is_hidden()


def test_the_picker_offers_only_what_fits_and_clicks_an_armament_onto_a_soul(page, live_server):
    page.goto(f"{live_server}/desk")
    ready(page)
    page.locator('#board [data-ref="B:R2"]').click()  # an empty rank-2 soul slot off the altar: no Leaders
    page.locator("#card-results button").first.wait_for()
    kinds = page.locator("#card-results .meta").all_text_contents()
    assert kinds and all(" Soul, rank" in k and "Leader" not in k for k in kinds)
    # only cards the slot's rank takes (a rank-3 Soul can't stand on a rank-2 slot)
    assert all(int(re.search(r"rank (\d)", k).group(1)) <= 2 for k in kinds)
    # keywords and effect text are in view: Blood Reaver's Berserk
    reaver = page.locator('#card-results button[data-card="Blood Reaver"]')
    assert "berserk" in reaver.locator(".kw").text_content().lower()
    assert "Berserk" in reaver.locator(".text").text_content()
    page.keyboard.press("Escape")
    page.locator('#board [data-ref="A:altar"]').click()  # Queen Sol: occupied, the slot editor
    page.click("#armament-pick")
    page.locator('#card-results button[data-card="Iron Blade"]').wait_for()
    assert all("Armament" in k for k in page.locator("#card-results .meta").all_text_contents())
    with redrawn(page):
        page.click('#card-results button[data-card="Iron Blade"]')
    page.wait_for_function(
        "() => document.querySelector('#yaml-text').value.includes('armament: Iron Blade')")
    assert page.input_value("#f-armament") == "Iron Blade"


def test_a_card_dragged_from_the_picker_lands_on_a_slot_or_a_pile(page, live_server):
    page.goto(f"{live_server}/desk")
    ready(page)
    page.locator('#board [data-ref="A:L1"]').click()
    source = page.locator('#card-results button[data-card="Harold"]')
    source.wait_for()
    with redrawn(page):
        source.drag_to(page.locator('#board [data-ref="A:R1"]'))
    page.locator('#board [data-ref="A:R1"]', has_text="Harold").wait_for()
    page.set_viewport_size({"width": 1280, "height": 1600})  # the picker and B's piles on one screen
    page.evaluate("window.scrollTo(0, 0)")
    page.locator('#board [data-ref="A:L1"]').click()  # still empty: the picker again
    source = page.locator('#card-results button[data-card="Harold"]')
    source.wait_for()
    with redrawn(page):
        source.drag_to(page.locator(".player-B .pile-elysium"))
    page.locator(".player-B .pile-elysium .chip", has_text="Harold").wait_for()


@pytest.fixture()
def phone(browser):
    """A page 390 px wide, as on a phone."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


def offers(page):
    page.locator("#next-actions:not([aria-busy]) .next-action").first.wait_for()
    return page.locator("#next-actions .next-action").all_text_contents()


def test_what_could_happen_before_a_queued_action_is_offered_and_goes_in_there(page, live_server):
    cast_at_harold(page, live_server)
    after_the_cast = offers(page)
    with redrawn(page):
        page.locator(".next-group.player-B .next-action", has_text="B springs Hidden Snare").first.click()
    queue = page.locator("#queue li .action-text")
    queue.filter(has_text="B springs Hidden Snare").wait_for()   # in words once the redraw has answered
    answer = queue.nth(1).text_content()
    assert answer not in offers(page) or after_the_cast != offers(page)  # the end of the queue has moved on

    page.locator("#queued-1 button[title^='What could happen before']").click()
    assert page.locator("#queued-1.insert-before").count() == 1
    assert page.locator("#next-title").text_content().startswith(f"What can happen before “{answer}”")
    before_the_answer = offers(page)
    assert before_the_answer == after_the_cast   # the same point of the game, asked from the middle
    other = next(w for w in before_the_answer if w != answer)
    with redrawn(page):
        page.locator("#next-actions .next-action", has_text=other).first.click()
    page.locator("#next-actions:not([aria-busy])").wait_for()   # the redraw, words included, is done

    def gist(words):  # "B springs X (set on C3) in answer to Y": what is done, not what it answers
        return words.split(" in answer")[0]

    assert [gist(w) for w in queue.all_text_contents()[1:]] == [gist(other), gist(answer)]
    page.click("#offer-end")
    page.locator("#next-title", has_text="What can happen next").wait_for()
    assert page.locator("#queue li.insert-before").count() == 0


def test_the_turn_bar_poses_a_setup_position_with_its_recruiting_round(page, live_server):
    """Contract §2: phase setup goes with turn 0 and a round; the engine then offers only recruits."""
    page.goto(f"{live_server}/desk")
    ready(page)
    assert page.locator("#s-round").is_hidden()
    assert any(" attacks " in words for words in offers(page))   # a new desk opens where attacks are legal
    with redrawn(page):
        page.select_option("#s-phase", "setup")
    assert page.locator("#s-round").is_visible() and page.locator("#s-turn").is_disabled()
    with redrawn(page):
        page.fill("#s-round", "2")
        page.locator("#s-round").dispatch_event("change")
    page.wait_for_function("() => document.querySelector('#yaml-text').value.includes('round: 2')")
    state = yaml.safe_load(page.input_value("#yaml-text"))["state"]
    assert (state["phase"], state["turn"], state["round"]) == ("setup", 0, 2)
    offered = offers(page)   # the new desk's A holds no Soul in hand: only the end of the round
    assert offered == ["A ends their recruiting round"], offered
    assert page.title().startswith("Desk: setup, A's recruiting round 2")
    with redrawn(page):
        page.select_option("#s-phase", "combat")
    page.wait_for_function("() => !document.querySelector('#yaml-text').value.includes('round:')")
    state = yaml.safe_load(page.input_value("#yaml-text"))["state"]
    assert (state["phase"], state["turn"]) == ("combat", 1) and "round" not in state
    assert page.locator("#s-round").is_hidden() and page.problems == []


def test_a_shared_ruling_on_a_phone_says_its_boards_in_words_that_fit_the_width(phone, live_server):
    page = phone
    path = Path(__file__).resolve().parents[2] / "scenarios/mechanics/zones-aura-ends-max-hp-captures.yaml"
    scenario = json.dumps(yaml.safe_load(path.read_text(encoding="utf-8")))
    saved = page.request.post(f"{live_server}/api/v1/rulings", data=scenario,
                              headers={"Content-Type": "application/json"})
    page.goto(saved.json()["url"])
    deciding = page.locator(".ruling-trace .step.deciding")
    touched = deciding.locator(".board-compact li.changed")
    assert touched.count() == 1 and touched.is_visible()
    assert touched.get_attribute("data-slot") == "A:C3" and "(captured)" in touched.text_content()
    words = deciding.locator(".board-compact").bounding_box()
    assert words["x"] >= 0 and words["x"] + words["width"] <= 390   # within the screen's width
    # the picture (wider than a phone, its text too small scaled down) gives way to the words: nothing
    # on the page scrolls sideways
    assert not deciding.locator(".board-scroll").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
