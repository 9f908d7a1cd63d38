"""Compressed answers (judge/web/compress.py): pages, JSON and static files in gzip, or brotli when
asked and installed; never a page that carries the desk's CSRF token beside what a visitor sent (BREACH)."""

from __future__ import annotations

import gzip

import pytest

from judge.web import compress

GZIP = {"Accept-Encoding": "gzip"}
TYPED = "title: typed by a visitor\nstate: [\n"   # malformed: the desk keeps the text in its editor


def _plain_and_gzipped(client, url):
    plain = client.get(url)
    packed = client.get(url, headers=GZIP)
    body = plain.get_data()
    plain.close()
    packed_body = packed.get_data()
    packed.close()
    return plain, body, packed, packed_body


@pytest.mark.parametrize("url", ["/", "/rules/11.5.1", "/glossary/taunt", "/search?q=shield", "/cards/noah",
                                 "/search.json?q=shield", "/scenarios", "/static/css/site.css",
                                 "/static/js/desk.js", "/offline.json"])
def test_pages_json_and_static_files_go_gzipped(client, url):
    plain, body, packed, packed_body = _plain_and_gzipped(client, url)
    assert plain.status_code == packed.status_code == 200
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed.headers["Vary"]
    assert gzip.decompress(packed_body) == body
    assert len(packed_body) < len(body)


def test_brotli_when_asked_and_installed(client):
    if compress.brotli is None:
        pytest.skip("the brotli package is not installed (optional)")
    plain = client.get("/rules/11.5.1")
    packed = client.get("/rules/11.5.1", headers={"Accept-Encoding": "gzip, deflate, br"})
    assert packed.headers["Content-Encoding"] == "br"
    assert compress.brotli.decompress(packed.data) == plain.data
    preferring_gzip = client.get("/rules/11.5.1", headers={"Accept-Encoding": "br;q=0.5, gzip"})
    assert preferring_gzip.headers["Content-Encoding"] == "gzip"


def test_nothing_the_client_refuses(client):
    for header in ("identity", "gzip;q=0", ""):
        response = client.get("/rules/11.5.1", headers={"Accept-Encoding": header})
        assert "Content-Encoding" not in response.headers, header


def test_a_public_body_is_compressed_once_and_kept(app, client):
    kept = app.extensions["judge_compressed"]
    first = client.get("/rules/11.5.2", headers=GZIP)
    held = len(kept.items)
    again = client.get("/rules/11.5.2", headers=GZIP)
    assert again.data == first.data and len(kept.items) == held
    assert any(key[0] == "/rules/11.5.2" and key[2] == "gzip" for key in kept.items)


def test_the_desk_goes_compressed_only_when_nothing_sent_can_be_on_it(client):
    fresh = client.get("/desk", headers=GZIP)
    assert fresh.status_code == 200 and fresh.headers["Content-Encoding"] == "gzip"
    assert b'name="csrf_token"' in gzip.decompress(fresh.data)       # the token, and nothing a visitor chose
    opened = client.get("/desk?scenario=13-static-and-unyielding/noah-vs-chrome-chains", headers=GZIP)
    assert opened.status_code == 200 and "Content-Encoding" not in opened.headers
    assert b'name="csrf_token"' in opened.data
    posted = client.post("/desk", data={"yaml": TYPED}, headers=GZIP)
    assert b"typed by a visitor" in posted.data and b'name="csrf_token"' in posted.data
    assert "Content-Encoding" not in posted.headers


def test_reflected_input_without_the_token_is_compressed(client):
    """Search repeats what was typed, but no page of search carries a secret."""
    response = client.get("/search?q=shield+typed", headers=GZIP)
    body = gzip.decompress(response.data)
    assert b"shield typed" in body and b"csrf_token" not in body
