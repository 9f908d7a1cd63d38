"""Shared fixtures: an app on a temporary instance folder, its in-process client, and for the
browser tests one live server and one Chromium for the whole session (Playwright's sync API
allows a single running instance per thread, so every browser test shares these)."""

from __future__ import annotations

import os

import pytest
from live import CHROMIUM, CHROMIUM_ARGS, serving
from pg import pg_cluster, pg_url  # noqa: F401  (fixtures: a throwaway PostgreSQL cluster)

from judge.web import create_app


@pytest.fixture(scope="session")
def app(tmp_path_factory):
    instance = tmp_path_factory.mktemp("instance")
    app = create_app({
        "TESTING": True,
        "RATELIMIT_ENABLED": False,
        "JUDGE_BUDGET_SECONDS": 60,  # no test depends on the machine's speed (budget tests set their own)
        "DATABASE": str(instance / "rulings.sqlite3"),
        "INDEX_DIR": str(instance / "index"),
    })
    return app


@pytest.fixture()
def client(app):
    return app.test_client()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    """The app served on 127.0.0.1 (a free port) in a thread, with its own instance folder. It does not
    register the service worker (JUDGE_OFFLINE off): one that keeps the whole site in the background
    would load the server during every browser test; tests/browser/test_offline_browser.py runs the production
    default on a server of its own."""
    instance = tmp_path_factory.mktemp("browser-instance")
    app = create_app({"TESTING": True, "RATELIMIT_ENABLED": False, "JUDGE_BUDGET_SECONDS": 60,
                      "JUDGE_OFFLINE": False,
                      "DATABASE": str(instance / "rulings.sqlite3"),
                      "INDEX_DIR": str(instance / "index")})
    with serving(app, "live-server") as url:
        app.config["JUDGE_ORIGIN"] = url  # its absolute links (og:url, the API's examples) name it
        yield url


@pytest.fixture(scope="session")
def base_url(live_server):
    return live_server


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium through pip's Playwright. Skips without it, except in CI, where it fails."""
    if not os.path.exists(CHROMIUM):
        message = (
            f"no Chromium at {CHROMIUM}; install it with `apt-get install chromium` to run the browser tests"
        )
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()
