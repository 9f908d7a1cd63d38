"""A search asked again is served like any cached page (judge/web/caching.py): keyed on what selects it
(`q`, `page`), in a cache of its own, with an ETag and 304; what the page does not read neither splits
nor reaches it."""

from __future__ import annotations

import gzip

import pytest

from judge import search as searching
from judge.web import create_app


@pytest.fixture()
def served(app, tmp_path):
    """The app with its production defaults (page and search caches on), the suite's search index."""
    return create_app({"DATABASE": str(tmp_path / "r.sqlite3"), "INDEX_DIR": app.config["INDEX_DIR"]})


@pytest.fixture()
def searches(monkeypatch):
    """The queries the searcher was asked, in order."""
    asked: list[str] = []
    real = searching.Searcher.search

    def counted(self, raw, *args, **kwargs):
        asked.append(raw)
        return real(self, raw, *args, **kwargs)

    monkeypatch.setattr(searching.Searcher, "search", counted)
    return asked


def test_the_production_default_keeps_searches_apart_from_pages(served):
    assert served.config["JUDGE_SEARCH_CACHE"] > 0 and served.config["JUDGE_PAGE_CACHE"] > 0
    client = served.test_client()
    assert client.get("/search?q=shield").status_code == 200
    assert client.get("/rules/11.5.1").status_code == 200
    pages, kept = served.extensions["judge_page_cache"], served.extensions["judge_search_cache"]
    assert len(kept.items) == 1 and len(pages.items) == 1


@pytest.mark.parametrize("url", ["/search?q=shield", "/search.json?q=shield", "/search/suggest?q=shi",
                                 "/search?q=soul&page=2"])
def test_a_search_asked_again_is_served_from_the_cache(served, searches, url):
    client = served.test_client()
    first = client.get(url)
    asked = len(searches)
    again = client.get(url)
    assert first.status_code == again.status_code == 200 and asked >= 1
    assert len(searches) == asked                     # not searched again
    assert again.get_data() == first.get_data() and again.headers["ETag"] == first.headers["ETag"]
    assert again.headers.get("Link") == first.headers.get("Link")
    assert client.get(url, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304


def test_what_selects_a_search_selects_its_entry(served, searches):
    client = served.test_client()
    answers = {url: client.get(url) for url in ("/search?q=shield", "/search?q=cascade",
                                                 "/search?q=soul", "/search?q=soul&page=2",
                                                 "/search.json?q=shield")}
    assert len({a.headers["ETag"] for a in answers.values()}) == len(answers)
    assert len({a.get_data() for a in answers.values()}) == len(answers)
    assert len(searches) == len(answers)
    assert "<mark>Cascade</mark>" in answers["/search?q=cascade"].get_data(as_text=True)


def test_a_parameter_a_search_does_not_read_shares_the_entry_and_never_shows(served, searches):
    client = served.test_client()
    first = client.get("/search?q=soul&made_up=first")
    second = client.get("/search?q=soul&made_up=second")
    assert len(searches) == 1 and first.headers["ETag"] == second.headers["ETag"]
    for response in (first, second):
        assert "made_up" not in response.get_data(as_text=True) and "made_up" not in response.headers["Link"]
    assert 'href="/search?q=soul&amp;page=2"' in first.get_data(as_text=True)   # the pager keeps q


def test_refused_and_redirected_searches_are_not_kept(served, searches):
    client = served.test_client()
    for _ in range(2):
        assert client.get("/search?q=soul&page=x").status_code == 400
        assert client.get("/search?q=11.5.1").status_code == 302
    assert len(served.extensions["judge_search_cache"].items) == 0


def test_a_kept_search_goes_compressed_and_carries_no_secret(served):
    client = served.test_client()
    client.get("/search?q=shield+typed")
    again = client.get("/search?q=shield+typed", headers={"Accept-Encoding": "gzip"})
    assert again.headers["Content-Encoding"] == "gzip"
    body = gzip.decompress(again.data)
    assert b"shield typed" in body and b"csrf_token" not in body


def test_the_test_default_keeps_no_search(client, searches):
    """The suite's app (JUDGE_SEARCH_CACHE 0: tests swap content under one app) searches every time."""
    client.get("/search?q=shield")
    client.get("/search?q=shield")
    assert len(searches) == 2


def test_a_started_app_sets_its_own_data_aside_from_full_collections(served):
    """Production start (JUDGE_WARM_AT_START) loads the data every request reads, then freezes it out of
    the collector's generations (judge/web/warm.py), so no search pays for a walk over the index."""
    import gc

    assert served.config["JUDGE_WARM_AT_START"] and gc.get_freeze_count() > 0
    assert served.test_client().get("/search?q=shield").status_code == 200
