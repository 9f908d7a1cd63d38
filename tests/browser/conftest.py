"""Browser tests: pip's Playwright (sync API) driving Debian's /usr/bin/chromium against a real server.

The server is the app on 127.0.0.1 (werkzeug's `make_server` on port 0, in a thread). Without
Chromium these tests skip, saying how to get it; in CI (CI=true) a missing Chromium fails them.
Set DESK_SHOTS=<dir> to keep screenshots of the desk and a ruling (desktop and 390 px phone).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# live_server and browser are session fixtures of tests/conftest.py, shared with every browser test.


class PageProblems(list):
    """JavaScript errors, console errors (CSP violations show there) and dialogs seen by a page."""


@pytest.fixture()
def context(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(10_000)
    yield context
    context.close()


@pytest.fixture()
def page(context):
    page = context.new_page()
    problems = PageProblems()
    page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))

    def on_console(msg):
        # failed loads are recorded with their URL below; anything else (CSP violations) counts here
        if msg.type == "error" and not msg.text.startswith("Failed to load resource"):
            problems.append(f"console {msg.type}: {msg.text}")

    def on_response(response):
        if response.status >= 500 or (response.status >= 400 and not response.url.endswith("/favicon.ico")
                                      and response.request.resource_type != "fetch"):
            problems.append(f"HTTP {response.status}: {response.url}")

    page.on("console", on_console)
    page.on("response", on_response)

    def on_dialog(dialog):
        problems.append(f"dialog: {dialog.message}")
        dialog.dismiss()

    page.on("dialog", on_dialog)
    page.problems = problems
    yield page


@pytest.fixture(scope="session")
def shots():
    folder = os.environ.get("DESK_SHOTS")
    if not folder:
        return None
    Path(folder).mkdir(parents=True, exist_ok=True)
    return Path(folder)


# The two sizes the answer-first and dispute-in-words tests run at: a desktop and a phone.
VIEWS = {"desktop": (1280, 800), "phone": (390, 844)}


@pytest.fixture(params=list(VIEWS))
def view(request, browser):
    """A page at each of VIEWS, its JavaScript and console errors in `page.errors`, its size's name in
    `page.view`."""
    width, height = VIEWS[request.param]
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.errors = errors
    page.view = request.param
    yield page
    context.close()
