"""One stylesheet per page (judge/web/styles.py): each page links a single sheet made of the CSS files
its kind of page needs; the desk's CSS is on the desk only; a sheet's address changes with its content."""

from __future__ import annotations

import re

import pytest

from judge.web import styles

LINKS = re.compile(r'<link rel="stylesheet" href="([^"]+)"')


@pytest.fixture(scope="module")
def saved_id(app):
    players = {"A": {"field": {"altar": "Queen Sol", "C3": "Storm Titan"}},
               "B": {"field": {"altar": "King Umbra", "C3": "Noah"}}}
    data = {"title": "plain", "state": {"players": players}}
    response = app.test_client().post("/api/v1/rulings", json=data)
    assert response.status_code == 201
    return response.get_json()["id"]


@pytest.mark.parametrize("url, name", [
    ("/", "codex"), ("/rules/11.5.1", "codex"), ("/glossary/taunt", "codex"), ("/cards", "cards"),
    ("/cards/noah", "cards"), ("/search?q=shield", "site"), ("/scenarios", "ruling"),
    ("/scenarios/13-static-and-unyielding/noah-vs-chrome-chains", "ruling"), ("/desk", "desk"),
    ("/offline", "site"), ("/nowhere", "site"),
])
def test_every_page_links_one_sheet(client, url, name):
    links = LINKS.findall(client.get(url).get_data(as_text=True))
    assert len(links) == 1 and links[0].startswith(f"/styles/{name}.css?v="), links


def test_a_permalink_has_the_ruling_sheet(client, saved_id):
    links = LINKS.findall(client.get(f"/r/{saved_id}").get_data(as_text=True))
    assert len(links) == 1 and links[0].startswith("/styles/ruling.css?v=")


def test_a_sheet_is_its_files_in_order_with_print_rules_for_print(client):
    for name, files in styles.STYLESHEETS.items():
        text = client.get(f"/styles/{name}.css").get_data(as_text=True)
        at = [text.index((styles.CSS / f).read_text()) for f in files]
        assert at == sorted(at), name
        assert "@media print {\n" + (styles.CSS / styles.PRINT).read_text() in text


def test_the_desks_css_is_on_the_desk_only():
    desk = (styles.CSS / "desk.css").read_text()
    assert [name for name in styles.STYLESHEETS if desk in styles.sheet(name)[0]] == ["desk"]
    shared = (styles.CSS / "ruling.css").read_text()
    with_shared = sorted(name for name in styles.STYLESHEETS if shared in styles.sheet(name)[0])
    assert with_shared == ["desk", "ruling"]


def test_a_sheet_at_its_own_address_is_kept_and_a_change_is_a_new_address(client, monkeypatch, tmp_path):
    url = LINKS.findall(client.get("/rules/11.5.1").get_data(as_text=True))[0]
    kept = client.get(url)
    assert kept.status_code == 200 and kept.mimetype == "text/css"
    assert "immutable" in kept.headers["Cache-Control"] and kept.headers["ETag"]
    assert "immutable" not in client.get("/styles/codex.css?v=old").headers["Cache-Control"]
    assert client.get(url, headers={"If-None-Match": kept.headers["ETag"]}).status_code == 304
    for path in styles.CSS.iterdir():
        (tmp_path / path.name).write_bytes(path.read_bytes())
    monkeypatch.setattr(styles, "CSS", tmp_path)
    (tmp_path / "codex.css").write_text((tmp_path / "codex.css").read_text() + "\n.new { color: red; }\n")
    changed = LINKS.findall(client.get("/glossary/taunt").get_data(as_text=True))[0]
    assert changed != url and ".new { color: red; }" in client.get(changed).get_data(as_text=True)


def test_an_unknown_sheet_is_a_404(client):
    assert client.get("/styles/nope.css").status_code == 404


def test_every_sheet_is_kept_offline(client):
    kept = set(client.get("/offline.json").get_json()["cache_first"])
    with client.application.test_request_context("/"):
        assert {styles.stylesheet_url(name) for name in styles.STYLESHEETS} <= kept
