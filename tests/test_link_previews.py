"""Link previews as a chat's crawler reads them: the <head> of the HTML the server sends, no script run.

Discord, WhatsApp and Slack take og:title, og:description, og:url, og:type, og:site_name and
twitter:card from <meta> tags; they show a few hundred characters at most and decode HTML entities.
"""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from judge.codex import load_codex
from judge.library import LIBRARY
from judge.web import create_app

CODEX = load_codex()
TAGS = ("og:title", "og:description", "og:url", "og:type", "og:site_name", "twitter:card")


class Crawler(HTMLParser):
    """Reads the <meta> tags of <head> and stops there, as a link-preview bot does."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.meta: dict[str, str] = {}
        self.count: dict[str, int] = {}
        self.in_head = True

    def handle_starttag(self, tag, attrs):
        if tag == "body":
            self.in_head = False
        if tag != "meta" or not self.in_head:
            return
        found = dict(attrs)
        key = found.get("property") or found.get("name")
        if key and "content" in found:
            self.meta[key] = found["content"] or ""
            self.count[key] = self.count.get(key, 0) + 1

    def handle_endtag(self, tag):
        if tag == "head":
            self.in_head = False


def crawl(client, path: str) -> dict[str, str]:
    response = client.get(path, headers={"User-Agent": "Mozilla/5.0 (compatible; Discordbot/2.0)"})
    assert response.status_code == 200, (path, response.status_code)
    reader = Crawler()
    reader.feed(response.get_data(as_text=True))
    for tag in TAGS:
        assert reader.count.get(tag) == 1, f"{path}: {tag} appears {reader.count.get(tag, 0)} times"
        assert reader.meta[tag].strip(), f"{path}: {tag} is empty"
    assert len(reader.meta["og:title"]) <= 120 and len(reader.meta["og:description"]) <= 300
    assert reader.meta["og:url"] == f"http://localhost{path}"
    assert reader.meta["og:site_name"] == "Codex Judge"
    return reader.meta


def squash(text: str) -> str:
    return " ".join(str(text).split())


RULE_SAMPLE = ["11.5.1", "13.6", "10", "11.6.1b", "13.2.2"]


@pytest.mark.parametrize("rule_id", RULE_SAMPLE)
def test_a_rule_previews_as_its_number_and_its_text(client, rule_id):
    meta = crawl(client, f"/rules/{rule_id}")
    rule = CODEX.rules[rule_id]
    assert rule_id in meta["og:title"]
    start = squash(rule.intro if rule.kind == "chapter" and rule.intro else rule.text)[:60]
    if rule.kind != "chapter" or rule.intro:
        assert meta["og:description"].startswith(start)


def test_every_rule_page_has_its_preview(client):
    for rule_id in list(CODEX.rules)[::7]:   # every seventh: the tags come from one template per kind
        crawl(client, f"/rules/{rule_id}")


def test_a_glossary_entry_previews_as_its_term_and_definition(client):
    entry = CODEX.entry("unyielding")
    meta = crawl(client, f"/glossary/{entry.slug}")
    assert entry.term in meta["og:title"]
    assert meta["og:description"].startswith(squash(entry.short)[:60])


def test_a_card_previews_as_its_name_values_and_text(client):
    meta = crawl(client, "/cards/harold")
    assert meta["og:title"].startswith("Harold")
    assert "ATK" in meta["og:description"] and "Defiance" in meta["og:description"]


def test_a_library_ruling_previews_as_its_question_and_its_answer(client):
    entry = LIBRARY.get("10-card-types/caster-returned-event-fizzles")
    meta = crawl(client, f"/scenarios/{entry.pid}")
    assert meta["og:type"] == "article"
    assert meta["og:title"] == squash(entry.title)
    assert meta["og:description"].startswith(squash(entry.question)[:80])


def test_a_saved_ruling_previews_escaped_and_cut_to_length(client):
    title = 'Does <b>"Firebolt"</b> & co. resolve? ' + "very " * 60
    scenario = {"title": title, "question": "A asks <script>alert(1)</script> & waits.",
                "state": {"players": {"A": {"field": {"altar": "Queen Sol"}},
                                      "B": {"field": {"altar": "King Umbra"}}}},
                "actions": [{"end_phase": True}]}
    saved = client.post("/api/v1/rulings", json=scenario).get_json()
    page = client.get(f"/r/{saved['id']}").get_data(as_text=True)
    head = page.split("</head>")[0]
    assert "<script>alert" not in head and "<b>" not in head       # escaped, never markup
    meta = crawl(client, f"/r/{saved['id']}")
    assert meta["og:title"].startswith('Does <b>"Firebolt"</b> & co. resolve?')   # decoded as a crawler does
    assert meta["og:title"].endswith("…") and len(meta["og:title"]) <= 120
    assert meta["og:description"].startswith("A asks <script>alert(1)</script> & waits.")


def test_an_editions_changes_page_previews_as_what_changed(client):
    meta = crawl(client, "/changes/0.4.0...0.4.0")
    report = client.get("/changes/0.4.0...0.4.0.json").get_json()
    assert "0.4.0" in meta["og:title"]
    assert f"of {len(report['rulings'])} rulings" in meta["og:description"]


def test_previews_with_the_production_defaults(tmp_path, monkeypatch):
    """Rate limits on, as users run it: the tags are the same."""
    monkeypatch.setenv("JUDGE_INSTANCE", str(tmp_path / "instance"))
    app = create_app()
    try:
        meta = crawl(app.test_client(), "/rules/11.5.1")
        assert meta["og:description"].startswith(squash(CODEX.rules["11.5.1"].text)[:40])
    finally:
        app.extensions["rulings"].close()
