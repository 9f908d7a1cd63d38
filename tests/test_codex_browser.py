"""The Codex pages in a real Chromium at phone width (390 px): no sideways scrolling, hover text
on links, the copy-link button. Skipped when Debian's Chromium is not installed."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def phone(browser, base_url):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    yield page
    page.close()


@pytest.mark.parametrize("path",
                         ["/", "/rules/11", "/rules/10.4.5", "/rules/9.5.6", "/rules/13.6.4", "/glossary",
                                  "/glossary/soul-spot", "/interpretations"])
def test_pages_fit_a_390px_phone(phone, base_url, path):
    response = phone.goto(base_url + path)
    assert response.status == 200
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


def test_links_carry_hover_text_and_rules_a_copy_button(phone, base_url):
    phone.goto(base_url + "/rules/13.6.2")
    link = phone.locator('a.rule-ref[href="/rules/11.4.5"]').first
    assert link.get_attribute("title").startswith("A Soul Spot target that names the Soul on it")
    assert phone.locator('button.copy-link[data-copy="/rules/13.6.2"]').count() == 1
    term = phone.locator('a.term[href="/glossary/unyielding"]').first
    assert term.get_attribute("title").startswith("Unyielding: ")
