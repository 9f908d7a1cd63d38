"""The Codex pages and their JSON twins, through the in-process client."""

from __future__ import annotations

import html
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markupsafe import Markup

from judge.codex import load_codex

CODEX = load_codex()
ALL_RULE_IDS = list(CODEX.rules)
ABSENT_IDS = list(CODEX.cited_absent)


def page_text(data: bytes) -> str:
    """The visible text of an HTML page, whitespace collapsed."""
    text = re.sub(r"</?a\b[^>]*>", "", data.decode("utf-8"))   # links are inline: no space for them
    text = re.sub(r"<[^>]+>", " ", text)
    return " ".join(html.unescape(text).split())


def squash(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("rule_id", ALL_RULE_IDS)
def test_every_rule_has_a_page_and_a_json_twin_with_the_same_text(client, rule_id):
    page = client.get(f"/rules/{rule_id}")
    assert page.status_code == 200
    assert f'</rules/{rule_id}.json>; rel="alternate"' in page.headers["Link"]
    twin = client.get(f"/rules/{rule_id}.json")
    assert twin.status_code == 200
    data = twin.get_json()
    rule = CODEX.get(rule_id)
    assert data["rule"]["id"] == rule_id and data["rule"]["text"] == rule.text
    assert squash(rule.text) in page_text(page.data)
    assert f'id="{rule_id}"' in page.get_data(as_text=True)


@pytest.mark.parametrize("rule_id", ABSENT_IDS)
def test_cited_but_absent_rules_have_a_page_listing_their_citers(client, rule_id):
    page = client.get(f"/rules/{rule_id}")
    assert page.status_code == 200
    assert "not in this edition" in page_text(page.data)
    data = client.get(f"/rules/{rule_id}.json").get_json()
    assert data["status"] == "cited-absent"
    citers = {c for c in CODEX.cited_absent[rule_id] if not c.startswith("interpretation/")}
    assert {c["id"] for c in data["cited_by"]} == citers
    body = page.get_data(as_text=True)
    for citer in CODEX.cited_absent[rule_id]:
        assert f'data-ref="{citer}"' in body


def test_9_5_6_lists_defiance_and_battle_as_the_same_subject(client):
    data = client.get("/rules/9.5.6.json").get_json()
    assert data["glossary"]["cite"] == ["defiance"]
    assert "battle" in data["glossary"]["named"]
    assert "9.5.6" in data["cited_by"][0]["sentence"]
    body = client.get("/rules/9.5.6").get_data(as_text=True)
    assert 'href="/glossary/defiance"' in body and 'href="/glossary/battle"' in body


@pytest.mark.parametrize(
    "path",
    [
        "/rules/99.1",
        "/rules/10.9.9",
        "/rules/9.5.7",
        "/rules/glossary",
        "/rules/11.6.1z",
        "/glossary/no-such-term",
        "/interpretations/no-such-thing",
    ],
)
def test_unknown_ids_404_in_both_forms(client, path):
    page = client.get(path)
    assert page.status_code == 404 and page.mimetype == "text/html"
    twin = client.get(path + ".json")
    assert twin.status_code == 404
    body = twin.get_json()
    assert body["ok"] is False and body["status"] == 404 and body["error"]


def test_13_6_4_says_it_is_empty_in_the_source(client):
    data = client.get("/rules/13.6.4.json").get_json()
    assert data["rule"]["text"] == "" and data["rule"]["empty_in_source"] is True
    assert "its text is empty in our source" in page_text(client.get("/rules/13.6.4").data)


def test_a_rule_page_shows_place_neighbours_cites_and_cited_by(client):
    data = client.get("/rules/11.5.1.json").get_json()
    assert data["chapter"]["number"] == 11 and data["section"] == {"id": "11.5", "title": "Costs"}
    assert data["previous"] == "11.4.8" and data["next"] == "11.5.2"
    assert {c["id"] for c in data["cited_by"]} == {"10.2.4", "11.2.1", "glossary/reinforcement"}
    assert data["rule"]["numbering"] == "confirmed"
    assert [i["id"] for i in data["interpretations"]] == ["chapter-11-numbering"]
    text = page_text(client.get("/rules/11.5.1").data)
    assert "Cited by" in text and "confirmed" in text
    cites = client.get("/rules/10.4.5.json").get_json()["cites"]
    assert {c["id"] for c in cites} == {"12.1", "12.2"}


def test_inferred_numbers_are_shown_as_inferred(client):
    assert client.get("/rules/11.7.1.json").get_json()["rule"]["numbering"] == "inferred"
    assert "inferred" in page_text(client.get("/rules/11.7.1").data)


def test_chapter_page_anchors_every_section_rule_and_sub_item(client):
    body = client.get("/rules/10").get_data(as_text=True)
    for rule_id in [r.id for r in CODEX.rules.values() if r.chapter == 10 and r.kind != "chapter"]:
        assert f'id="{rule_id}"' in body
    assert 'class="copy-link"' in body and 'data-copy="/rules/10.4.5"' in body


def test_section_and_sub_item_pages(client):
    section = client.get("/rules/13.6.json").get_json()
    assert [r["id"] for r in section["rule"]["rules"]] == [f"13.6.{n}" for n in range(1, 8)]
    item = client.get("/rules/11.6.1b.json").get_json()
    assert item["parent"] == "11.6.1" and item["rule"]["text"].startswith("An Event fizzles")


def test_index_lists_chapters_glossary_and_version(client):
    data = client.get("/index.json").get_json()
    assert data["version"] == "0.4.0"
    assert [c["number"] for c in data["chapters"] if c["present"]] == [10, 11, 13]
    assert [g["letter"] for g in data["glossary"]][:3] == ["A", "B", "C"]
    text = page_text(client.get("/").data)
    assert "not in this edition" in text and "Card types in detail" in text and "0.4.0" in text


@pytest.mark.parametrize(("alias", "slug"), [("shield", "def"), ("nefarious", "dark"), ("Shield", "def"),
                                             ("spot", "soul-spot"), ("leader-s-altar", "altar")])
def test_an_alias_redirects_to_its_entry(client, alias, slug):
    page = client.get(f"/glossary/{alias}")
    assert page.status_code == 302 and page.headers["Location"].endswith(f"/glossary/{slug}")
    twin = client.get(f"/glossary/{alias}.json")
    assert twin.status_code == 302 and twin.headers["Location"].endswith(f"/glossary/{slug}.json")


def test_glossary_entry_page(client):
    data = client.get("/glossary/def.json").get_json()
    assert data["entry"]["aliases"] == ["Shield", "Defence", "Defense"]
    assert {"10.3.3", "13.4.1"} <= {r["id"] for r in data["used_in"]}
    realm = client.get("/glossary/realm.json").get_json()
    assert {"name": "Invoke", "slug": None} in realm["see_also"]
    assert {"name": "Shatter", "slug": "shatter"} in realm["see_also"]
    body = client.get("/glossary/realm").get_data(as_text=True)
    assert "not an entry of our glossary text" in body and 'href="/glossary/shatter"' in body


def test_interpretations_are_marked_ours_and_link_their_rules(client):
    body = client.get("/interpretations").get_data(as_text=True)
    assert 'class="interpretation ours"' in body and 'href="/rules/11.4.5"' in body
    data = client.get("/interpretations/chapter-11-numbering.json").get_json()
    assert data["interpretation"]["ours"] is True and "11.6.4" in data["interpretation"]["stands_in_for"]


def test_linkify_escapes_html_and_links_terms_and_rule_numbers(app):
    with app.test_request_context():
        linkify = app.jinja_env.filters["linkify"]
        out = linkify(
            '<script>alert("x")</script> A Soul Spot with Shield (11.5.1), see 13.6.2 & chapter 12.'
        )
    assert isinstance(out, Markup)
    assert "<script>" not in out and "&lt;script&gt;" in out and "&amp;" in out
    assert re.search(
        r'<a class="term" href="/glossary/soul-spot" title="Soul Spot: [^"]+"[^>]*>Soul Spot</a>', out
    )
    assert '<a class="term" href="/glossary/def"' in out and ">Shield</a>" in out
    assert re.search(r'href="/rules/11.5.1" title="A Cost is paid just before[^"]*"[^>]*>11.5.1</a>', out)
    assert 'href="/rules/13.6.2"' in out and 'href="/rules/12"' in out


def test_linkify_leaves_unknown_numbers_and_partial_words_alone(app):
    with app.test_request_context():
        out = app.jinja_env.filters["linkify"]("Version 10.9.9 is defenceless; undefined, unshielded.")
    assert "<a" not in out
    assert out == "Version 10.9.9 is defenceless; undefined, unshielded."


def test_rule_link_handles_rules_glossary_and_interpretations(app):
    with app.test_request_context():
        rule_link = app.jinja_env.filters["rule_link"]
        assert str(rule_link("11.5.1")).startswith('<a class="rule-ref" href="/rules/11.5.1" title="A Cost')
        assert '>DEF</a>' in rule_link("glossary/def") and 'href="/glossary/def"' in rule_link("glossary/def")
        assert 'href="/interpretations/chapter-11-numbering"' in rule_link(
            "interpretation/chapter-11-numbering"
        )
        assert "<a" not in rule_link("<b>99.9</b>") and "&lt;b&gt;" in rule_link("<b>99.9</b>")


def test_codex_version_is_a_template_global(app):
    with app.test_request_context():
        from flask import render_template_string
        assert render_template_string("{{ codex_version }}") == "0.4.0"


def test_chapter_11_page_says_its_numbers_are_ours(client):
    data = client.get("/rules/11.json").get_json()
    assert data["numbering_interpretation"] == "chapter-11-numbering"
    body = client.get("/rules/11").get_data(as_text=True)
    assert (
        "no rule numbers" in body and body.count("number confirmed") == 8 + 4
    )  # 8 rules, sections 11.3–11.6
    assert client.get("/rules/10.json").get_json()["numbering_interpretation"] is None


@given(
    st.text(alphabet=st.sampled_from(list("<>&\"' abcdefDEFSoulpt.()1234/\n")) | st.characters(), max_size=80)
)
@settings(max_examples=150, deadline=None)
def test_linkify_only_adds_links_never_changes_or_unescapes_text(app, text):
    with app.test_request_context():
        out = str(app.jinja_env.filters["linkify"](text))
    assert "<" not in re.sub(r"</?a\b[^>]*>", "", out)
    assert html.unescape(re.sub(r"</?a\b[^>]*>", "", out)) == text


def test_glossary_precision_is_listed_among_the_entries_mentioning_def(client):
    # glossary "Precision": "…is not reduced by the target's DEF"; an entry never lists itself
    mentioned_by = client.get("/glossary/def.json").get_json()["mentioned_by"]
    assert "precision" in mentioned_by and "def" not in mentioned_by
    assert load_codex().mentioned_by("def") == mentioned_by
