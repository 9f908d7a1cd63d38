"""The header search box in a real Chromium: suggestions as you type, keyboard navigation, ARIA
combobox state, and the plain form without JavaScript. Skipped when Debian's Chromium is absent."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def test_typing_offers_suggestions_and_enter_opens_the_highlighted_one(browser, base_url):
    page = browser.new_page()
    errors: list[str] = []   # script errors (a missing favicon is not one)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(base_url + "/glossary")
    box = page.locator("#site-q")
    assert box.get_attribute("role") == "combobox"
    with page.expect_response(lambda r: "/search/suggest?q=shie" in r.url):   # the last keystroke's answer
        box.press_sequentially("shie", delay=30)
    options = page.locator("#site-q-list [role=option]")
    options.first.wait_for()
    assert box.get_attribute("aria-expanded") == "true"
    assert 1 <= options.count() <= 8
    assert "DEF" in options.first.inner_text()          # "Shield" is an alias of DEF
    box.press("ArrowDown")
    assert options.first.get_attribute("aria-selected") == "true"
    assert box.get_attribute("aria-activedescendant") == options.first.get_attribute("id")
    box.press("Enter")
    page.wait_for_url("**/glossary/def")
    assert errors == []
    page.close()


def test_escape_closes_and_enter_without_a_choice_submits_the_form(browser, base_url):
    page = browser.new_page()
    page.goto(base_url + "/rules/11.5.1")
    box = page.locator("#site-q")
    with page.expect_response(lambda r: "/search/suggest?q=13.6" in r.url):
        box.press_sequentially("13.6", delay=30)
    page.locator("#site-q-list [role=option]").first.wait_for()
    box.press("Escape")
    assert page.locator("#site-q-list").is_hidden()
    assert box.get_attribute("aria-expanded") == "false"
    box.fill("unyeilding")
    box.press("Enter")
    page.wait_for_url("**/search?q=unyeilding")
    assert "unyielding" in page.locator(".search-respelled").inner_text()
    page.close()


def test_the_form_works_without_javascript(browser, base_url):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(base_url + "/")
    page.fill("#site-q", "11.5.1")
    page.press("#site-q", "Enter")
    page.wait_for_url("**/rules/11.5.1")
    context.close()
