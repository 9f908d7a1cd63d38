"""A dispute typed at the desk (issue "A dispute in words"), in real Chromium on a desktop (1280×800) and a
phone (390×844): the reading fills the board and the queue, a slot the reader chose is marked and opens its
editor in one click, one click resolves and the verdict comes first, and the share dialog starts from the
dispute's own words; a sentence it can't read is declined naming the words and what they could be."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

DISPUTE = ("Grey Knight casts Firebolt at Harold; B answers by springing Hidden Snare at Grey Knight. "
           "Does Firebolt resolve?")


def _open_desk(page, live_server) -> None:
    page.goto(f"{live_server}/desk")
    page.wait_for_function("() => document.querySelector('#desk').dataset.ready === '1'")


def test_a_dispute_typed_is_read_marked_corrected_resolved_and_shared(view, live_server):
    page = view
    _open_desk(page, live_server)
    page.get_by_label("The dispute in words").fill(DISPUTE)
    page.get_by_role("button", name="Read it").click()
    page.wait_for_selector("#describe-out .describe-ok")
    # the reading is the desk's board: Harold stands on B's C3, marked as chosen, with the Snare set there
    # the picture on a desktop, the board in words on a phone: whichever the page shows
    marked = page.locator('#board .slot.guessed[data-ref="B:C3"], '
                          '#board .words-slot.guessed[data-slot-ref="B:C3"] >> visible=true').first
    marked.wait_for()
    assert "Harold" in ((marked.get_attribute("aria-label") or "") + (marked.text_content() or ""))
    assert "Harold placed on B's C3: no slot was named" in page.locator("#describe-out .guesses").inner_text()
    marked.click()                                            # one click on the board corrects a guess
    page.wait_for_selector("#slot-editor:not([hidden])")
    assert "Harold" in page.locator("#slot-card").inner_text()
    page.keyboard.press("Escape")
    page.get_by_role("button", name="Resolve", exact=True).first.click()
    verdict = page.locator("#ruling-out .answer .verdict").first
    verdict.wait_for()
    assert verdict.text_content() == "Yes:"
    assert "Firebolt" in page.locator("#ruling-out .answer").first.inner_text()
    page.click("#share-ruling")
    page.wait_for_selector("#share-dialog[open]")
    assert "Does Firebolt resolve?" in page.input_value("#share-question")
    assert page.errors == []


def test_a_sentence_it_cannot_read_is_declined_naming_the_words(view, live_server):
    page = view
    _open_desk(page, live_server)
    before = page.locator("#board").inner_html()
    page.get_by_label("The dispute in words").fill("Knight attacks Harold. What happens to Harold?")
    page.get_by_role("button", name="Read it").click()
    alert = page.get_by_role("alert")
    alert.wait_for()
    said = page.locator("#describe-out").inner_text()
    assert "“Knight”" in said and "Grey Knight" in said and "Bramble Knight" in said   # what it could be
    assert page.locator("#board").inner_html() == before                              # nothing loaded
    # the 422 of the refusal is the one failed load the browser reports; nothing else went wrong
    assert [e for e in page.errors if "status of 422" not in e] == []
