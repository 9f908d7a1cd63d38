"""The site offline, server side: the web app manifest and its icons, linked from every page; /sw.js and
its version; /offline.json, the list of what the service worker keeps, built from the data; the offline
search's export written with each index build; public answers gzipped; and pages that are never
rate limited, so keeping the whole site in one go is not refused (the browser side is
tests/browser/test_offline_browser.py)."""

from __future__ import annotations

import gzip
import json
import re
import struct

import pytest
from editions_copy import copy_editions, import_fixture

from judge import ROOT
from judge.codex import load_codex
from judge.engine import load_library
from judge.library import LIBRARY, card_slug
from judge.search import export
from judge.search.store import current_build, verify
from judge.web import create_app

PAGES = ["/", "/rules/11.5.1", "/glossary", "/glossary/def", "/cards", "/cards/noah", "/scenarios", "/desk",
         "/interpretations", "/editions", "/search?q=shield", "/offline", "/offline/search", "/api",
         "/rules/99.9"]


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory):
    return str(tmp_path_factory.mktemp("index"))


def png_size(path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", head[16:24])


def test_the_manifest_names_the_app_its_icons_colour_start_and_standalone_display(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200 and response.mimetype == "application/manifest+json"
    manifest = response.get_json()
    assert manifest["name"] == "Codex Judge" and manifest["display"] == "standalone"
    assert manifest["start_url"] == "/" and re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])
    icons = {icon["sizes"]: icon for icon in manifest["icons"]}
    assert icons["any"]["type"] == "image/svg+xml"
    for size in ("192x192", "512x512"):          # what installers ask for
        icon = icons[size]
        served = client.get(icon["src"])
        assert served.status_code == 200 and served.mimetype == "image/png"
        served.close()
        width, height = png_size(ROOT / icon["src"].lstrip("/"))
        assert f"{width}x{height}" == size


@pytest.mark.parametrize("path", PAGES)
def test_every_page_links_the_manifest_the_theme_colour_and_the_offline_control(client, path):
    body = client.get(path).get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest">' in body
    assert 'name="theme-color"' in body and 'id="offline-control"' in body
    assert "/static/js/offline.js" in body


def test_the_service_worker_is_served_from_the_root_with_its_version(client):
    response = client.get("/sw.js")
    assert response.status_code == 200 and response.mimetype == "text/javascript"
    assert response.headers["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response.headers["Cache-Control"]
    config = json.loads(re.match(r"const CONFIG = (.*);\n", response.get_data(as_text=True)).group(1))
    assert config["version"]["codex"] == load_codex().version
    assert config["version"]["key"].startswith(load_codex().version + "-")
    assert config["keep"] == "/offline.json"


def test_a_new_edition_changes_the_service_workers_version(tmp_path, monkeypatch):
    copy_editions(tmp_path, monkeypatch)
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "r.sqlite3"),
                      "INDEX_DIR": str(tmp_path / "ix")})
    client = app.test_client()
    before = client.get("/offline.json").get_json()["version"]
    import_fixture()
    after = client.get("/offline.json").get_json()["version"]
    assert before["codex"] == "0.4.0" and after["codex"] == "0.4.1" and before["key"] != after["key"]
    assert b'"codex": "0.4.1"' in client.get("/sw.js").data


def test_the_keep_list_names_every_codex_glossary_card_and_library_page(client):
    data = client.get("/offline.json").get_json()
    kept = set(data["cache_first"])
    codex = load_codex()
    assert {f"/rules/{r}" for r in codex.rules} <= kept
    assert {f"/rules/{r}" for r in codex.cited_absent} <= kept
    assert {f"/glossary/{slug}" for slug in codex.glossary} <= kept
    assert {f"/interpretations/{i}" for i in codex.interpretations} <= kept
    assert {f"/cards/{card_slug(c.name)}" for c in load_library()} <= kept
    assert {f"/scenarios/{e.pid}" for e in LIBRARY.entries()} <= kept
    assert {"/", "/glossary", "/interpretations", "/cards", "/scenarios", "/offline/search",
            "/offline/search.json", "/offline/missing", "/static/js/offline-search.js"} <= kept
    assert "/static/js/sw.js" not in kept and data["network_first"] == ["/desk"]
    assert len(data["cache_first"]) == len(kept)      # each once


def test_every_kept_codex_glossary_and_card_page_answers_200(client):
    listed = client.get("/offline.json").get_json()["cache_first"]
    urls = [u for u in listed if not u.startswith("/scenarios/")]   # library rulings: the browser test
    bad = []
    for url in urls:
        response = client.get(url)
        if response.status_code != 200:
            bad.append((url, response.status_code))
        response.close()     # static files are streamed from disk
    assert bad == []


def test_the_index_build_writes_the_offline_export_and_verifies_it(app, client):
    build = current_build(app.config["INDEX_DIR"])
    path = build / export.FILE
    data = json.loads(path.read_text())
    assert verify(build) is None and export.FILE in json.loads((build / "meta.json").read_text())["files"]
    ids = {doc["id"] for doc in data["docs"]}
    assert {"11.5.1", "glossary/def", "card/noah"} <= ids
    assert any(i.startswith("ruling/") for i in ids) and any(i.startswith("11.5.4/example") for i in ids)
    def_entry = next(doc for doc in data["docs"] if doc["id"] == "glossary/def")
    assert "_syn_def" in def_entry["names"].split()          # the alias token the index holds
    assert data["synonyms"]["shield"] == "def" and data["stems"]["costs"] == "cost"
    served = client.get("/offline/search.json")
    assert served.status_code == 200 and served.get_json() == data


def test_public_pages_go_gzipped(client):
    page = client.get("/rules/11.5.1", headers={"Accept-Encoding": "gzip"})
    assert page.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in page.headers["Vary"]
    plain = client.get("/rules/11.5.1")
    assert "Content-Encoding" not in plain.headers
    assert gzip.decompress(page.data) == plain.data
    # which pages are never compressed (the desk's token beside what a visitor sent): tests/test_compress.py


def test_pages_are_never_rate_limited_with_the_production_defaults(tmp_path, index_dir):
    """Keeping the site offline asks for every page in a few seconds; reading is never limited (the
    limits of costly work are tests/test_venue.py's)."""
    app = create_app({"DATABASE": str(tmp_path / "r.sqlite3"), "INDEX_DIR": index_dir})
    assert app.config["RATELIMIT_ENABLED"] is True
    client = app.test_client()
    rules = [f"/rules/{r}" for r in list(load_codex().rules)[:40]]
    codes = {client.get(url).status_code for _ in range(4) for url in rules}     # 160 in a second or two
    assert codes == {200}
    # that costly work stays limited (search, the engine) is tests/test_venue.py's part


def test_the_offline_pages_say_what_they_are(client):
    assert "This is the offline search" in client.get("/offline/search").get_data(as_text=True)
    assert "not kept on this device" in client.get("/offline/missing").get_data(as_text=True)
    body = client.get("/offline").get_data(as_text=True)
    assert "Available offline" in body and "Clear site data" in body
    assert client.get("/offline/ping").status_code == 204
