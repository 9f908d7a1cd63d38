"""A ruling opens on its question and its verdict (issue 20), in real Chromium, on a desktop (1280×800) and
a phone (390×844): the permalink page and the desk's ruling show the answer in the first screen, not
covered by anything, and the step they mark as deciding is the answer's `step`, one click away.
The desk's "What do you want to know?" offers the questions in words, one click each, and the share
dialog's question starts from the one chosen. Set ANSWER_SHOTS=<dir> to keep screenshots."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
PID = "13-static-and-unyielding/harold-defiance-vs-unyielding-rank1"   # asks what happens to the Squire


def shot(page, name: str) -> None:
    folder = os.environ.get("ANSWER_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}-{page.view}.png"))


def uncovered_in_first_screen(page, selector: str) -> bool:
    """The element lies inside the viewport and is what the reader sees at its centre (no sticky board or
    dialog on top of it)."""
    return page.eval_on_selector(selector, """el => {
        const r = el.getBoundingClientRect();
        const outside = r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth;
        if (outside || !r.height) return false;
        const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return top === el || el.contains(top);
    }""")


def test_a_permalink_opens_on_the_question_and_the_verdict(view, live_server):
    page = view
    scenario = yaml.safe_load((ROOT / "scenarios" / f"{PID}.yaml").read_text(encoding="utf-8"))
    saved = page.request.post(f"{live_server}/api/v1/rulings", data=json.dumps(scenario),
                              headers={"Content-Type": "application/json"}).json()
    answer = page.request.get(f"{live_server}/api/v1/rulings/{saved['id']}").json()["ruling"]["answers"][0]
    page.goto(saved["url"])
    page.wait_for_load_state("load")
    assert page.evaluate("scrollY") == 0
    assert uncovered_in_first_screen(page, ".ruling-header .question")
    assert uncovered_in_first_screen(page, ".ruling-header .answer .verdict")
    assert page.locator(".answer .verdict").text_content() == "Nothing:"
    deciding = page.locator(".ruling-trace .step.deciding")
    assert deciding.count() == 1 and deciding.get_attribute("id") == f"step-{answer['step']}"
    assert "the deciding step" in deciding.locator(".deciding-mark").text_content()
    shot(page, "permalink")
    page.click(".answer a.to-deciding")                                    # one click to the deciding step
    page.wait_for_function("() => document.querySelector('.ruling-trace .step.deciding.current')")
    assert uncovered_in_first_screen(page, ".ruling-trace .step.deciding .step-text")
    assert page.errors == []


def test_the_desk_asks_what_you_want_to_know_and_its_ruling_opens_on_the_verdict(view, live_server):
    page = view
    page.goto(f"{live_server}/desk?scenario={PID}")
    page.wait_for_selector("#desk[data-ready='1']")
    page.wait_for_selector("#ask-panel:not([hidden]) #ask-list li")
    labels = page.locator("#ask-list label").all_text_contents()
    chosen = page.locator("#ask-list input:checked + label").text_content()
    assert chosen.startswith("What happens to Stubborn Squire (B:L2)?")   # the scenario's own ask:
    assert any(text.startswith("Does the duel end, and who wins?") for text in labels)
    assert any(text.startswith("Is action 0 (attack L2, target A:C3) legal") for text in labels)
    # one click asks another question: the scenario's ask: follows, and so does the ruling
    page.locator("#ask-list label", has_text="Does the duel end, and who wins?").click()
    page.wait_for_function("() => JSON.stringify(window.codexDesk.scenario.ask) === '[{\"winner\":true}]'")
    page.locator("#ask-list label", has_text="What happens to Stubborn Squire (B:L2)?").click()
    page.wait_for_function("() => window.codexDesk.scenario.ask[0].happens_to === 'B:L2'")
    page.wait_for_selector("#ask-list input:checked")
    with page.expect_response(lambda r: r.url.endswith("/desk/resolve.json")) as resolved:
        page.click("#resolve")
    answer = resolved.value.json()["ruling"]["answers"][0]
    page.wait_for_selector("#ruling-out .answer")
    page.wait_for_timeout(300)   # the smooth scroll to the ruling settles
    assert uncovered_in_first_screen(page, "#ruling-out .answer .verdict")
    assert page.locator("#ruling-out .answer .verdict").text_content() == "Nothing:"
    deciding = page.locator("#ruling-out .step.deciding")
    assert deciding.count() == 1 and deciding.get_attribute("id") == f"step-{answer['step']}"
    shot(page, "desk")
    address = page.evaluate("location.hash")
    page.click("#ruling-out .answer a.to-deciding")                 # one click: the desk steps there
    page.wait_for_function(f"() => document.querySelector('#step-{answer['step']}.current')")
    assert page.evaluate("location.hash").startswith("#s=") and address.startswith("#s=")
    assert page.locator("#step-label").text_content().startswith(f"Step {answer['step']} of")
    page.click("#share-ruling")
    page.wait_for_selector("#share-dialog[open]")
    if not page.input_value("#share-question").strip():
        pytest.fail("the share dialog's question is empty")
    assert page.locator("#share-question").is_editable()
    assert page.errors == []


def test_the_share_dialog_question_comes_from_the_question_chosen(browser, live_server):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        scenario = yaml.safe_load((ROOT / "scenarios" / f"{PID}.yaml").read_text(encoding="utf-8"))
        del scenario["question"], scenario["title"], scenario["ask"], scenario["expect"]
        saved = page.request.post(f"{live_server}/api/v1/rulings", data=json.dumps(scenario),
                                  headers={"Content-Type": "application/json"}).json()
        page.goto(f"{live_server}/desk?r={saved['id']}")
        page.wait_for_selector("#desk[data-ready='1']")
        page.wait_for_selector("#ask-panel:not([hidden]) #ask-list li")
        likeliest = page.locator("#ask-list input:checked + label").text_content()
        assert likeliest.startswith("What happens to Storm Titan (A:C3)?")   # the attack's target
        page.click("#resolve")
        page.wait_for_selector("#ruling-out .answer")
        page.click("#share-ruling")
        page.wait_for_selector("#share-dialog[open]")
        assert page.input_value("#share-question").endswith("What happens to Storm Titan (A:C3)?")
        page.click("#share-cancel")
        page.click("#step-edit")
        page.locator("#ask-list label", has_text="Does the duel end, and who wins?").click()
        page.wait_for_function("() => window.codexDesk.scenario.ask")
        page.wait_for_selector("#ask-list li.chosen label:has-text('who wins')")
        page.click("#share-ruling") if page.locator("#share-ruling").is_visible() else page.click("#share")
        page.wait_for_selector("#share-dialog[open]")
        assert page.input_value("#share-question").endswith("Does the duel end, and who wins?")
    finally:
        context.close()
