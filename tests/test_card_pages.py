"""The card pages: /cards and /cards/<slug>, with their JSON twins, built from codex/cards/*.yaml."""

from __future__ import annotations

import pytest

from judge.engine import load_library
from judge.library import card_slug

CARDS = sorted(load_library(), key=lambda c: c.name)


def test_slugs_are_lower_case_words_joined_by_hyphens():
    assert card_slug("Cyber-Wormhole") == "cyber-wormhole"
    assert card_slug("Principle of Stolen Energy") == "principle-of-stolen-energy"
    assert card_slug("Head Nurse Jeanne") == "head-nurse-jeanne"
    assert len({card_slug(c.name) for c in CARDS}) == len(CARDS)


def test_the_index_lists_every_card_by_type(client):
    data = client.get("/cards.json").get_json()
    listed = {c["name"]: c for group in data["groups"] for c in group["cards"]}
    assert set(listed) == {c.name for c in CARDS} and data["total"] == len(CARDS)
    for group in data["groups"]:
        assert all(c["type"] == group["type"] for c in group["cards"])
    html = client.get("/cards").get_data(as_text=True)
    assert html.count("reconstructed from the Codex — not official card text") == \
        sum(1 for c in CARDS if c.reconstructed) >= 10   # codex-gaps §8: ten cards the Codex names
    assert 'href="/cards"' in html   # the header nav


@pytest.mark.parametrize("card", CARDS, ids=[c.name for c in CARDS])
def test_every_card_has_a_page_and_a_json_twin(client, card):
    url = f"/cards/{card_slug(card.name)}"
    page = client.get(url)
    assert page.status_code == 200 and f'<{url}.json>; rel="alternate"' in page.headers["Link"]
    data = client.get(url + ".json").get_json()["card"]
    assert (data["name"], data["type"], data["rank"]) == (card.name, card.type, card.rank)
    # its effects, and a Reinforcement keyword's Timing Effect (glossary Reinforcement: "an optional
    # Timing Effect")
    assert len(data["effects"]) == len(card.effects) + sum(kw.name == "reinforcement" for kw in card.keywords)
    assert data["reconstructed"] == card.reconstructed
    if card.reconstructed:
        assert "not official card text" in page.get_data(as_text=True)
        assert data["sources"] == list(card.sources)


def test_a_reconstructed_card_links_the_rules_it_rests_on(client):
    html = client.get("/cards/noah").get_data(as_text=True)
    assert 'href="/rules/13.6.3"' in html   # Noah's sources (codex/cards/reconstructed.yaml)
    assert "Unyielding." in html and "15 / 5 / 40" in html


def test_effects_are_in_plain_words(client):
    wormhole = client.get("/cards/cyber-wormhole.json").get_json()["card"]
    parts = {p["label"]: p["text"] for p in wormhole["effects"][0]["parts"]}
    assert parts["Cost"] == "discard 1"          # "Cost: Discard 1 card." (11.5.4's example)
    assert "Soul Spot" in parts["Targets"] and "{" not in parts["Does"]


def test_rulings_using_a_card_are_the_scenarios_that_name_it(client):
    from judge.library import LIBRARY

    rulings = client.get("/cards/cyber-wormhole.json").get_json()["rulings"]
    ids = {r["id"] for r in rulings}
    assert "11-effects/cyber-wormhole-pays-while-soul-stays" in ids
    assert all(r["url"] == f"/scenarios/{r['id']}" for r in rulings)
    for entry in LIBRARY.entries():
        text = entry.path.read_text(encoding="utf-8")
        if "cast: Cyber-Wormhole" in text:
            assert entry.pid in ids
        if entry.pid in ids:
            assert "cyber-wormhole" in text.lower()


def test_a_name_redirects_and_an_unknown_card_is_a_404_in_both_forms(client):
    assert client.get("/cards/Noah").location.endswith("/cards/noah")
    assert client.get("/cards/NOAH.json").location.endswith("/cards/noah.json")
    assert client.get("/cards/nobody").status_code == 404
    missing = client.get("/cards/<script>.json")
    assert missing.status_code == 404 and missing.get_json()["ok"] is False
    assert "<script>" not in client.get("/cards/<script>").get_data(as_text=True)


def test_codex_examples_link_the_cards_they_name(client):
    html = client.get("/rules/13.6.3").get_data(as_text=True)
    assert 'href="/cards/noah"' in html and 'href="/cards/mystic-wormhole"' in html


def test_an_inline_scenario_card_never_reaches_the_card_pages(client, tmp_path, monkeypatch):
    from judge import library as desk_library

    evil = '<img src=x onerror=alert(1)>'
    (tmp_path / "evil.yaml").write_text(
        "title: inline card\nstate:\n  players:\n    A:\n      field: {altar: Queen Sol, C3: 'EVIL'}\n"
        "    B:\n      field: {altar: King Umbra}\ncards:\n  - {name: 'EVIL', type: soul, rank: 1}\n"
        .replace("EVIL", evil))
    monkeypatch.setattr(desk_library, "LIBRARY", desk_library.Library(tmp_path))
    monkeypatch.setattr("judge.web.card_pages.LIBRARY", desk_library.LIBRARY)
    html = client.get("/cards").get_data(as_text=True)
    assert evil not in html and "onerror" not in html
    sol = client.get("/cards/queen-sol.json").get_json()["rulings"]
    assert [r["id"] for r in sol] == ["evil"]
    assert "onerror" not in client.get("/cards/queen-sol").get_data(as_text=True)
    assert client.get("/cards/img-src-x-onerror-alert-1").status_code == 404


def test_search_finds_cards_and_rulings_and_links_their_pages(client):
    results = client.get("/search.json", query_string={"q": "kind:card noah"}).get_json()["results"]
    assert results[0]["url"] == "/cards/noah" and results[0]["kind"] == "card"
    html = client.get("/search", query_string={"q": "kind:ruling chrome chains noah"}).get_data(as_text=True)
    assert (
        'href="/scenarios/13-static-and-unyielding/noah-vs-chrome-chains"' in html
        and "Library ruling" in html
    )
    offered = client.get("/search/suggest", query_string={"q": "noa"}).get_json()
    assert any(entry["url"] == "/cards/noah" for entry in offered)


@pytest.mark.parametrize("card", [c for c in load_library() if c.text], ids=lambda c: c.name)
def test_a_card_page_says_its_printed_text_reads_as_its_data(client, card):
    check = client.get(f"/cards/{card_slug(card.name)}.json").get_json()["card"]["text_check"]
    assert check["agrees"] is True and check["differs"] == [] and check["problems"] == []
    assert "reads as this card" in client.get(f"/cards/{card_slug(card.name)}").get_data(as_text=True)


def test_a_card_whose_text_and_data_disagree_is_said_to():
    from judge.engine import check_card_text
    check = check_card_text({"name": "X", "type": "soul", "text": "Defiance 10.",
                             "keywords": [{"defiance": 5}]})
    assert check.agrees is False and check.differs == ("keywords",)
    assert check.words == "Defiance 5."
