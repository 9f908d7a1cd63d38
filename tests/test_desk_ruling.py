"""Ruling pages from the engine's §5 ruling: trace with rule links, a board per step, the saved
outcome compared with today's. The engine's resolve is replaced by a hand-written ruling here, so
these tests check the pages alone (the browser tests run the real engine)."""

from __future__ import annotations

import copy
import re

import pytest
import yaml

from judge import library
from judge.desk import runner
from judge.web import links

SCENARIO = {
    "title": "A knight attacks <b>bold</b>",
    "question": "Does the knight's attack <script>alert(1)</script> capture?",
    "state": {
        "phase": "combat",
        "players": {"A": {"field": {"C3": "Noah"}}, "B": {"field": {"C3": "Harold"}}},
    },
    "actions": [{"attack": "C3", "target": "B:C3"}],
}
BEFORE = SCENARIO["state"]
AFTER = {"phase": "combat", "players": {"A": {"field": {"C3": {"card": "Noah", "attacks_made": 1}}},
                                        "B": {"field": {"C3": {"card": "Harold", "damage": 10}}}}}
RULING = {
    "scenario": "desk",
    "codex": "0.4.0",
    "ok": True,
    "steps": [
        {
            "n": 1,
            "kind": "action",
            "text": "A: Noah (A:C3) attacks Harold (B:C3).",
            "rules": ["glossary/attack"],
            "changes": [{"slot": "A:C3", "attacks_made": [0, 1]}],
            "state": BEFORE,
        },
        {
            "n": 2,
            "kind": "damage",
            "text": "Noah deals 15 - 5 = 10 battle damage to Harold (B:C3).",
            "rules": ["glossary/atk", "glossary/def"],
            "changes": [{"slot": "B:C3", "damage": [0, 10]}],
            "state": AFTER,
        },
    ],
    "rejected": None,
    "final": AFTER,
    "derived": {},
    "winner": None,
}


@pytest.fixture()
def fake_engine(monkeypatch):
    rulings = {"now": copy.deepcopy(RULING)}
    monkeypatch.setattr(
        runner, "resolve",
        lambda data, source="desk", snapshots=True, edition=None: copy.deepcopy(rulings["now"]),
    )
    # the library resolves its scenarios for the rules they cite
    monkeypatch.setattr(library, "resolve_entry", lambda entry: copy.deepcopy(rulings["now"]))
    # an engine whose rulings change is a new engine version: permalinks keep one ruling per version
    monkeypatch.setattr("judge.web.caching.ruling_versions",
                        lambda: "fake " + runner.canonical_json(rulings["now"]))
    return rulings


def share(client, scenario=SCENARIO):
    page = client.get("/desk").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    return client.post("/desk/share", data={"yaml": yaml.safe_dump(scenario), "csrf_token": token})


def test_sharing_stores_the_scenario_under_a_content_id(client, fake_engine):
    response = share(client)
    assert response.status_code == 303
    url = response.headers["Location"]
    assert re.fullmatch(r"/r/[0-9a-f]{12}", url)
    assert share(client).headers["Location"] == url  # the same scenario, the same link
    other = dict(SCENARIO, title="Another")
    assert share(client, other).headers["Location"] != url


def test_the_ruling_page_renders_the_trace_with_rule_links_and_a_board_per_step(client, fake_engine):
    url = share(client).headers["Location"]
    page = client.get(url).get_data(as_text=True)
    assert "Noah deals 15 - 5 = 10 battle damage" in page
    # rule links with the rule's text as the hover
    link = re.search(r'<a [^>]*href="(/glossary/atk)"[^>]*title="([^"]+)"', page)
    assert link and link.group(2)
    # a board picture for each step, without JavaScript, and the final board
    assert page.count('<details class="step-board">') == 2
    assert page.count('aria-label="The board after step') == 2
    assert "The final board" in page
    assert "HP" in page or "dmg" in page or "damage 10" in page
    assert "under Codex 0.4.0" in page
    # the date as people write it ("1 December 2026, 03:12 UTC"), the ISO form only in the machine attribute
    saved_on = re.search(r'Saved on <time datetime="([^"]+)">([^<]+)</time>', page)
    assert saved_on and "T" in saved_on.group(1)
    assert re.fullmatch(r"\d{1,2} [A-Z][a-z]+ \d{4}, \d\d:\d\d( UTC)?", saved_on.group(2)), saved_on.group(2)
    assert "No winner" in page
    assert "open in desk" in page.lower()


def test_user_text_on_the_ruling_page_is_escaped(client, fake_engine):
    page = client.get(share(client).headers["Location"]).get_data(as_text=True)
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<b>bold</b>" not in page


def test_the_json_and_yaml_twins(client, fake_engine):
    url = share(client).headers["Location"]
    response = client.get(url)
    assert f'<{url}.json>; rel="alternate"' in response.headers["Link"]
    data = client.get(url + ".json").get_json()
    assert data["ruling"]["steps"][1]["kind"] == "damage"
    assert data["scenario"] == SCENARIO and data["changed"] is False
    assert yaml.safe_load(client.get(url + ".yaml").get_data(as_text=True)) == SCENARIO


def test_a_changed_outcome_is_announced_above_the_trace_with_both(client, fake_engine):
    url = share(client).headers["Location"]
    changed = copy.deepcopy(RULING)
    changed["winner"] = "A"
    changed["final"]["players"]["B"]["field"]["C3"]["captured"] = True
    fake_engine["now"] = changed
    page = client.get(url).get_data(as_text=True)
    banner = page.index("The outcome has changed")
    assert banner < page.index('id="trace-h"')
    assert "The final board when saved" in page and "The trace when saved" in page
    table = page[banner:page.index("</table>", banner)]
    assert "Winner" in table and "none" in table and ">A<" in table
    assert client.get(url + ".json").get_json()["changed"] is True


def test_open_in_desk_continues_from_the_saved_scenario(client, fake_engine):
    rid = share(client).headers["Location"].rsplit("/", 1)[1]
    page = client.get(f"/desk?r={rid}").get_data(as_text=True)
    assert "Harold" in page and "attack: C3" in page  # the YAML box holds the saved scenario


def test_library_rulings_open_as_pages_and_are_found_by_the_rules_they_cite(client, fake_engine, tmp_path,
                                                                             monkeypatch):
    (tmp_path / "battle").mkdir()
    (tmp_path / "battle" / "knight.yaml").write_text(yaml.safe_dump(SCENARIO))
    monkeypatch.setattr(library, "LIBRARY", library.Library(tmp_path))
    import judge.web.desk as desk_views
    import judge.web.library_pages as library_views

    monkeypatch.setattr(desk_views, "LIBRARY", library.LIBRARY)
    monkeypatch.setattr(library_views, "LIBRARY", library.LIBRARY)
    page = client.get("/scenarios/battle/knight")
    assert page.status_code == 200 and "battle damage" in page.get_data(as_text=True)
    assert client.get("/scenarios/battle/knight.json").get_json()["id"] == "battle/knight"
    listing = client.get("/scenarios.json?q=glossary/atk").get_json()
    assert [s["id"] for s in listing["scenarios"]] == ["battle/knight"]
    with client.application.test_request_context("/"):
        assert links.rulings_citing("glossary/atk") == [
            {"id": "battle/knight", "title": SCENARIO["title"], "question": SCENARIO["question"].strip(),
             "answer": None, "url": "/scenarios/battle/knight"}]   # this fake engine answers nothing
        assert links.rulings_citing("13.6.2") == []


def test_a_long_ruling_draws_a_bounded_number_of_boards(client, fake_engine):
    from judge.desk.pages import MAX_STEP_BOARDS

    step = RULING["steps"][0]
    many = [dict(step, n=i + 1, text=f"step {i + 1}") for i in range(MAX_STEP_BOARDS + 50)]
    fake_engine["now"] = dict(copy.deepcopy(RULING), steps=many)
    url = share(client).headers["Location"]
    page = client.get(url).get_data(as_text=True)
    assert page.count('<li class="step step-action') == MAX_STEP_BOARDS + 50
    assert page.count('<details class="step-board">') == MAX_STEP_BOARDS + 1  # and the last step's
    data = client.post("/desk/resolve.json", json={"scenario": SCENARIO}).get_json()
    drawn = [b for b in data["boards"] if "<svg" in b]
    assert len(data["boards"]) == MAX_STEP_BOARDS + 50 and len(drawn) == MAX_STEP_BOARDS + 1


def test_rewording_the_engine_explanations_is_not_a_changed_outcome(client, fake_engine):
    fake_engine["now"]["derived"] = {
        "B:C3": {"card": "Harold", "hp": 20, "contributions": {"hp": ["printed 30"]}}
    }
    url = share(client, dict(SCENARIO, title="Reworded")).headers["Location"]  # a link of its own
    fake_engine["now"]["derived"]["B:C3"]["contributions"] = {"hp": ["30, as printed"]}
    assert client.get(url + ".json").get_json()["changed"] is False
    fake_engine["now"]["derived"]["B:C3"]["hp"] = 15
    assert client.get(url + ".json").get_json()["changed"] is True
