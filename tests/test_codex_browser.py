"""The Codex pages in a real Chromium at phone width (390 px): no sideways scrolling, hover text
on links, the copy-link button. Skipped when Debian's Chromium is not installed."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from werkzeug.serving import make_server

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's /usr/bin/chromium")]


@pytest.fixture(scope="module")
def base_url(app):
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join()


@pytest.fixture(scope="module")
def phone(base_url):
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM))
        page = browser.new_page(viewport={"width": 390, "height": 844})
        yield page
        browser.close()


@pytest.mark.parametrize("path", ["/", "/rules/11", "/rules/10.4.5", "/rules/9.5.6", "/rules/13.6.4", "/glossary",
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
