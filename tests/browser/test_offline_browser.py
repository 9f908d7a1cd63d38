"""The site at a venue without a network, in a real Chromium: after one visit the service worker keeps
the Codex; then the server is stopped and the browser context set offline, and a rule never opened, a
glossary entry, a card, the library, a search, a ruling opened before and the desk each show their text.
The update path: a test-only edition (0.4.1, tests/fixtures) made current replaces the kept pages and the
page says so once.

These run the app with its production defaults (service worker on, rate limits on, the page cache), on a
server of their own that can be stopped and started again on the same port; the shared live server of the
other browser tests does not register the service worker (tests/conftest.py)."""

from __future__ import annotations

import json
import threading
import time
import urllib.request

import pytest
from editions_copy import copy_editions, import_fixture
from live import answered_whole
from playwright.sync_api import expect
from werkzeug.serving import make_server

from judge.codex import load_codex, load_edition
from judge.library import LIBRARY
from judge.web import create_app

pytestmark = pytest.mark.browser

KEEP_TIMEOUT = 240_000   # ms: keeping every page, library rulings drawn once each, on a loaded CI machine
SCENARIO = ("title: Offline permalink\nstate:\n  players:\n    A: {field: {altar: Queen Sol, L2: Noah}}\n"
            "    B: {field: {altar: King Umbra}}\nactions:\n  - {end_phase: true}\n")


class Server:
    """The app on 127.0.0.1, stopped and started again on the same port (the network going and coming)."""

    def __init__(self, app):
        self.app = app
        self.port = 0
        self.server = None
        self.thread = None

    def start(self) -> str:
        self.server = make_server("127.0.0.1", self.port, answered_whole(self.app), threaded=True)
        self.port = self.server.server_port
        self.thread = threading.Thread(target=self.server.serve_forever, name="offline-site", daemon=True)
        self.thread.start()
        return self.url

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.thread.join(timeout=5)
            self.server.server_close()
            self.server = None


def production_app(folder):
    """create_app as users run it (no TESTING, limits on), on a temporary instance folder."""
    return create_app({"DATABASE": str(folder / "rulings.sqlite3"), "INDEX_DIR": str(folder / "index")})


class Problems(list):
    def watch(self, page):
        page.on("pageerror", lambda exc: self.append(f"page error: {exc}"))
        page.on("console", lambda msg: self.append(f"console: {msg.text}")
                if msg.type == "error" and not msg.text.startswith("Failed to load resource") else None)
        return page


KEPT = """async () => {
    const hit = await (await caches.open('codex-judge-meta')).match('/offline/kept.json');
    return hit ? await hit.json() : null;
}"""


CACHES = "async () => (await caches.keys()).filter((n) => n.startsWith('codex-judge-'))"


def wait_for(page, test, timeout=KEEP_TIMEOUT):
    """Until `test(page)` holds (page.wait_for_function does not wait for an async function's answer)."""
    deadline = time.monotonic() + timeout / 1000
    while not test(page):
        assert time.monotonic() < deadline, "the service worker did not keep the site in time"
        page.wait_for_timeout(500)


def wait_until_kept(page, timeout=KEEP_TIMEOUT):
    """Until the service worker has kept this page's version (its record in Cache Storage names it) and
    controls the page."""
    want = page.locator("#offline-control").get_attribute("data-version")
    wait_for(page, lambda p: (p.evaluate(KEPT) or {}).get("key") == want
             and p.evaluate("() => Boolean(navigator.serviceWorker.controller)"), timeout)


def kept_record(page):
    return page.evaluate(KEPT)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    server = Server(production_app(tmp_path_factory.mktemp("offline-instance")))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def visited(browser, site):
    """One visit online (the home page, a permalink, a library ruling, the desk), the Codex kept; then the
    server stopped and the context offline."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.set_default_timeout(20_000)
    problems = Problems()
    page = problems.watch(context.new_page())
    page.goto(site.url + "/")
    wait_until_kept(page)
    saved = urllib.request.urlopen(urllib.request.Request(      # a ruling someone shared
        site.url + "/api/v1/rulings", data=SCENARIO.encode(), headers={"Content-Type": "application/yaml"}))
    rid = json.loads(saved.read())["id"]
    page.goto(f"{site.url}/r/{rid}")
    page.locator(".step").first.wait_for()
    page.goto(site.url + "/desk")
    page.wait_for_selector("#desk[data-ready='1']")
    online_problems = list(problems)
    record = kept_record(page)
    record["storage"] = page.evaluate("async () => (await navigator.storage.estimate()).usageDetails.caches")
    site.stop()
    context.set_offline(True)
    yield {"context": context, "page": page, "rid": rid, "record": record, "online_problems": online_problems,
           "problems": problems}
    context.close()
    if site.server is None:
        site.start()


def test_keeping_the_site_logs_no_error_and_stays_under_its_bound(visited):
    assert visited["online_problems"] == []
    record = visited["record"]
    assert record["codex"] == load_codex().version
    expected = 1 + len({*load_codex().rules, *load_codex().cited_absent}) + len(load_codex().glossary)
    assert record["pages"] > expected + len(LIBRARY.entries())   # rules, glossary, library, and more
    assert 0 < record["bytes"] <= record["storage"] <= 8 * 1024 * 1024   # the bound the README states


def test_a_rule_never_opened_opens_offline(visited, site):
    page = visited["page"]
    rule = load_codex().get("13.6.7")
    page.goto(site.url + "/rules/13.6.7")
    assert rule.text[:40] in " ".join(page.locator("main").inner_text().split())


def test_a_glossary_entry_and_a_card_open_offline(visited, site):
    page = visited["page"]
    base = site.url
    entry = load_codex().glossary["unyielding"]
    page.goto(base + "/glossary/unyielding")
    assert entry.short[:30] in " ".join(page.locator("main").inner_text().split())
    page.goto(base + "/cards/noah")
    assert page.locator("h1").inner_text().strip().startswith("Noah")


def test_the_library_and_its_rulings_open_offline(visited, site):
    page = visited["page"]
    base = site.url
    page.goto(base + "/scenarios")
    entry = LIBRARY.get("13-static-and-unyielding/noah-vs-chrome-chains")
    assert page.locator("h1").inner_text().startswith("Library rulings")
    link = page.locator(f"a[href='/scenarios/{entry.pid}']").first    # in a group folded shut
    assert link.text_content().strip() == entry.title
    page.goto(base + link.get_attribute("href"))
    assert entry.title in page.locator("h1").inner_text()
    assert page.locator(".step").count() > 0 and page.locator("main svg").count() > 0


def test_a_search_runs_offline_and_says_so(visited, site):
    page = visited["page"]
    base = site.url
    page.goto(base + "/glossary")
    page.fill("#site-q", "unyeilding")
    page.press("#site-q", "Enter")
    page.wait_for_url("**/search?q=unyeilding")
    assert "offline search" in page.locator(".offline-search-note").inner_text()
    page.wait_for_selector("#offline-results li")
    assert "unyielding" in page.locator("#offline-respelled").inner_text()
    titles = page.locator("#offline-results .hit-title").all_inner_texts()[:3]
    assert any(t.strip() == load_codex().glossary["unyielding"].term for t in titles), titles
    page.goto(base + "/search?q=shield")           # an alias: its entry first
    page.wait_for_selector("#offline-results li")
    assert page.locator("#offline-results .hit-title").first.inner_text() == load_codex().glossary["def"].term
    page.goto(base + "/search?q=11.5.1")           # a rule number: straight to the rule
    page.wait_for_url("**/rules/11.5.1")
    assert load_codex().get("11.5.1").text[:30] in " ".join(page.locator("main").inner_text().split())


def test_a_ruling_opened_before_opens_offline_with_its_steps_and_boards(visited, site):
    page = visited["page"]
    base = site.url
    page.goto(f"{base}/r/{visited['rid']}")
    assert "Offline permalink" in page.locator("main").inner_text()
    assert page.locator(".step").count() > 0 and page.locator("main svg").count() > 0


def test_a_page_never_kept_says_so_instead_of_the_browsers_error(visited, site):
    page = visited["page"]
    base = site.url
    page.goto(base + "/editions")
    assert "not kept on this device" in page.locator("h1").inner_text()


def test_the_desk_keeps_the_work_says_resolving_needs_the_network_and_resolves_when_it_is_back(visited, site):
    page = visited["page"]
    base = site.url
    page.goto(base + "/desk")
    page.wait_for_selector("#desk[data-ready='1']")
    notice = page.locator("#desk-offline")
    notice.wait_for()      # the desk asked the server, which is gone
    assert "resolving needs the network" in notice.inner_text()
    assert page.locator("#board svg").count() > 0          # the board is there, not a blank page
    page.click("#resolve")
    page.wait_for_function("() => document.getElementById('queue-msg').textContent"
                           ".includes('did not answer')")
    site.start()
    visited["context"].set_offline(False)
    page.wait_for_selector("#ruling-panel:not([hidden]) .step")
    assert notice.is_hidden()


def test_the_control_offers_to_clear_and_to_keep_again_with_its_size(visited, site):
    page = visited["page"]
    if site.server is None:
        site.start()
        visited["context"].set_offline(False)
    page.goto(site.url + "/offline")
    here = page.locator(".offline-here")
    # the page says "looking…" until its script has asked the service worker what is kept
    expect(here).to_contain_text("is kept on this device", timeout=KEEP_TIMEOUT)
    page.locator(".offline-page .offline-clear").click()
    page.wait_for_function("() => document.querySelector('.offline-here').textContent.includes('not kept')")
    assert page.evaluate(CACHES) == []
    keep = page.locator(".offline-page .offline-keep")
    assert "MB" in keep.inner_text()      # the size it took here before
    keep.click()
    wait_until_kept(page)
    expect(here).to_contain_text("is kept on this device", timeout=KEEP_TIMEOUT)


def test_a_new_edition_replaces_the_kept_pages_and_the_page_says_so_once(browser, tmp_path, monkeypatch):
    copy_editions(tmp_path, monkeypatch)
    server = Server(production_app(tmp_path / "instance"))
    server.start()
    context = browser.new_context()
    context.set_default_timeout(20_000)
    try:
        page = context.new_page()
        page.goto(server.url + "/")
        wait_until_kept(page)
        old = " ".join(load_edition("0.4.0").get("10.1.1").text.split())
        import_fixture()     # 0.4.1 is current now: /sw.js changes
        new = " ".join(load_edition("0.4.1").get("10.1.1").text.split())
        assert old != new
        page.goto(server.url + "/glossary")    # a navigation: the browser looks at /sw.js again
        page.evaluate("async () => (await navigator.serviceWorker.getRegistration()).update()")
        wait_for(page, lambda p: (p.evaluate(KEPT) or {}).get("codex") == "0.4.1")
        page.reload()
        assert page.locator(".offline-updated").inner_text().startswith("Updated to Codex 0.4.1")
        page.reload()
        assert page.locator(".offline-updated").count() == 0      # said once
        server.stop()
        context.set_offline(True)
        page.goto(server.url + "/rules/10.1.1")
        text = " ".join(page.locator("main").inner_text().split())
        assert new in text and old not in text
        names = [n for n in page.evaluate(CACHES) if n.startswith("codex-judge-0")]
        assert len(names) == 1 and names[0].startswith("codex-judge-0.4.1-")   # the old pages are gone
    finally:
        context.close()
        server.stop()
