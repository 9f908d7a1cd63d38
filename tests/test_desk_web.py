"""The desk's pages and endpoints through the in-process client: input limits, errors, escaping, CSRF."""

from __future__ import annotations

import re

import pytest
import yaml

from judge.rulings.sqlite import RulingStore

NASTY = "<script>alert(1)</script>"


def token(client) -> str:
    page = client.get("/desk").get_data(as_text=True)
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def test_the_desk_renders_both_fields_without_javascript(client):
    response = client.get("/desk")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert 'data-ref="A:altar"' in page and 'data-ref="B:altar"' in page
    assert '<form method="post" action="/desk"' in page  # the YAML form works without JS
    assert "<script>" not in page.replace('<script src="/static/js/site.js" defer></script>', "") \
        .replace('<script src="/static/js/desk.js" defer></script>', "")


def test_card_search_is_as_you_type(client):
    data = client.get("/desk/cards.json?q=no").get_json()
    names = [c["name"] for c in data["cards"]]
    assert names[0] == "Noah"  # a name starting with the query comes first
    souls = client.get("/desk/cards.json?q=&type=event").get_json()["cards"]
    assert souls and all(c["type"] == "event" for c in souls)
    assert client.get("/desk/cards.json?q=zzzz-no-such").get_json()["cards"] == []


def test_a_post_over_256_kb_gets_a_413_with_a_clear_message(client):
    big = "title: x\n" + "# " + "x" * (300 * 1024) + "\n"
    response = client.post("/desk/parse.json", json={"yaml": big})
    assert response.status_code == 413
    body = response.get_json()
    assert body["ok"] is False and body["status"] == 413 and "256 KB" in body["error"]
    page = client.post("/desk", data={"yaml": big})
    assert page.status_code == 413 and "256 KB" in page.get_data(as_text=True)


def test_malformed_yaml_is_a_400_naming_the_line(client):
    response = client.post("/desk/parse.json", json={"yaml": "title: x\nstate: [\n  oops: {\n"})
    assert response.status_code == 400
    body = response.get_json()
    assert body["ok"] is False and body["status"] == 400
    assert body["problems"][0]["line"] >= 2


def alias_bomb(levels: int) -> str:
    """A few hundred bytes of YAML whose aliases expand to 10**levels values."""
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, levels + 1)]
    return "\n".join([*lines, f"state: {{turn_player: A, junk: *a{levels}}}", ""])


@pytest.mark.parametrize("url", ["/desk/parse.json", "/desk/board.json", "/desk"])
def test_yaml_aliases_that_expand_past_the_engines_limit_are_a_400(client, url):
    response = client.post(url, data={"yaml": alias_bomb(6)})
    assert response.status_code == 400
    assert "aliases" in response.get_data(as_text=True)


@pytest.mark.parametrize("depth", [900, 5000])
@pytest.mark.parametrize("url", ["/desk/parse.json", "/desk/board.json", "/desk/resolve.json", "/desk"])
def test_deeply_nested_yaml_is_a_400_not_a_crash(client, url, depth):
    response = client.post(url, data={"yaml": "state: " + "[" * depth + "]" * depth + "\n"})
    assert response.status_code == 400
    assert "nested" in response.get_data(as_text=True)


@pytest.mark.parametrize("depth", [900, 5000])
def test_deeply_nested_json_and_actions_are_a_400_not_a_crash(client, depth):
    body = '{"scenario": {"state": ' + "[" * depth + "]" * depth + "}}"
    response = client.post("/desk/board.json", data=body, content_type="application/json")
    assert response.status_code == 400 and "nested" in response.get_json()["error"]
    action = client.post("/desk/parse.json", json={"action": "{pass: " + "[" * depth + "]" * depth + "}"})
    assert action.status_code == 400 and "nested" in action.get_json()["error"]


MISSHAPEN = [  # (state, a key path the problems must name): a half-built scenario may hold anything
    (5, "state"),
    ({"players": 5}, "state.players"),
    ({"players": [1]}, "state.players"),
    ({"players": {"A": 5}}, "state.players.A"),
    ({"players": {"A": {"field": [1, 2]}}}, "state.players.A.field"),
    ({"players": {"A": {"field": {"C2": {"card": "Noah", "damage": "x"}}}}},
     "state.players.A.field.C2.damage"),
    ({"players": {"A": {"field": {}, "proactive": 3}}}, "state.players.A.proactive"),
    ({"players": {"A": {"hand": {"cards": 5, "unnamed": "x"}}}}, "state.players.A.hand.cards"),
    ({"players": {"A": {"field": {"C2": {"card": "Noah", "ambushes": 5}}}}},
     "state.players.A.field.C2.ambushes"),
]


@pytest.mark.parametrize("state, path", MISSHAPEN)
def test_a_misshapen_state_is_reported_by_key_path_and_never_crashes_the_board(client, state, path):
    board = client.post("/desk/board.json", json={"scenario": {"state": state}})
    assert board.status_code == 200 and board.get_json()["ok"] is False
    assert path in [p["path"] for p in board.get_json()["problems"]]
    assert 'class="board-svg"' in board.get_json()["board"]
    for url in ("/desk/resolve.json", "/desk/legal.json"):
        response = client.post(url, json={"scenario": {"state": state}})
        assert response.status_code == 400 and path in [p["path"] for p in response.get_json()["problems"]]
    page = client.post("/desk", data={"yaml": yaml.safe_dump({"state": state})})
    assert page.status_code == 400 and path in page.get_data(as_text=True)


def test_the_contracts_on_key_stays_on_not_the_boolean_true(client):
    # contract §3: `{lay: frozen, on: target}`; YAML 1.1 would read the key `on` as True
    action = client.post("/desk/parse.json", json={"action": "{lay: frozen, on: target}"}).get_json()
    assert action["action"] == {"lay": "frozen", "on": "target"}
    body = client.post("/desk/parse.json", json={"yaml": "state: {}\ncards: [{on: x, n: no}]\n"}).get_json()
    assert body["scenario"]["cards"] == [{"on": "x", "n": "no"}]


def test_a_library_scenario_downloads_with_its_on_keys(client):
    from judge.library import LIBRARY

    on_key = re.compile(r"(?:^\s*(?:- )?|[{,]\s*)on: ", re.MULTILINE)
    with_on = [e for e in LIBRARY.entries() if on_key.search(e.path.read_text(encoding="utf-8"))]
    assert with_on, "the library has a scenario using the contract's `on:` key"
    text = client.get(f"/scenarios/{with_on[0].pid}.yaml").get_data(as_text=True)
    assert "'on': " in text and not re.search(r"^\s*(?:- )?true: ", text, re.MULTILINE)


def test_a_scenario_that_is_not_a_mapping_is_a_400(client):
    response = client.post("/desk/parse.json", json={"yaml": "- just\n- a list\n"})
    assert response.status_code == 400
    assert "expected a mapping" in response.get_json()["problems"][0]["message"]


def test_too_many_actions_are_refused_with_their_key_path(client):
    scenario = {"state": {}, "actions": [{"pass": True}] * 500}
    response = client.post("/desk/board.json", json={"scenario": scenario})
    assert response.status_code == 400
    assert response.get_json()["problems"][0]["path"] == "actions"


def test_a_hand_written_action_is_parsed_or_refused(client):
    ok = client.post("/desk/parse.json", json={"action": "{attack: C2, target: 'B:L1'}"}).get_json()
    assert ok["action"] == {"attack": "C2", "target": "B:L1"}
    bad = client.post("/desk/parse.json", json={"action": "[1, 2"})
    assert bad.status_code == 400 and bad.get_json()["problems"][0]["path"] == "action"


def test_sharing_without_the_csrf_token_is_refused(client):
    response = client.post("/desk/share", data={"yaml": "state: {}\n"})
    assert response.status_code == 403
    response = client.post("/desk/share", data={"yaml": "state: {}\n", "csrf_token": "forged"})
    assert response.status_code == 403


def test_unknown_rulings_and_scenarios_are_404(client):
    assert client.get("/r/0123456789ab").status_code == 404
    assert client.get("/r/0123456789ab.json").get_json()["status"] == 404
    assert client.get("/r/0123456789ab.yaml").status_code == 404
    assert client.get("/scenarios/no/such/thing").status_code == 404
    assert client.get("/desk?r=nope").status_code == 404


def test_a_saved_scenario_opens_in_the_desk_with_user_text_escaped(app, client):
    scenario = {"title": NASTY, "question": NASTY, "state": {"players": {"A": {"field": {"C3": NASTY}}}}}
    rid = RulingStore(app.config["DATABASE"]).save(scenario, "0.4.0", {}, {})
    page = client.get(f"/desk?r={rid}").get_data(as_text=True)
    assert NASTY not in page
    assert "&lt;script&gt;alert(1)" in page
    assert yaml.safe_load(client.get(f"/r/{rid}.yaml").get_data(as_text=True)) == scenario


def test_the_library_lists_scenarios(client):
    response = client.get("/scenarios")
    assert response.status_code == 200
    data = client.get("/scenarios.json").get_json()
    assert data["total"] == len(data["scenarios"])
    for item in data["scenarios"][:3]:
        assert client.get(item["url"] + ".yaml").status_code == 200


def test_rulings_citing_is_a_jinja_global(app):
    with app.test_request_context("/"):
        app.update_template_context(ctx := {})
        assert callable(ctx["rulings_citing"])
        result = ctx["rulings_citing"]("no-such-rule-99")
    assert result == []


@pytest.fixture()
def no_js_form_posts():
    return {"yaml": "title: x\nstate: {players: {A: {field: {C9: Noah}}}}\n"}


def test_the_no_js_form_shows_problems_with_key_paths(client, no_js_form_posts):
    pytest.importorskip("judge.engine.driver.api")
    response = client.post("/desk", data=no_js_form_posts)
    assert response.status_code == 400
    assert "state.players.A.field.C9" in response.get_data(as_text=True)


def test_loading_into_the_desk_keeps_a_half_built_scenario_and_lists_its_problems(client):
    body = client.post("/desk/parse.json",
                       json={"yaml": "state: {players: {A: {field: {C9: Noah}}}}\n"}).get_json()
    assert body["ok"] is True and body["scenario"]["state"]["players"]["A"]["field"] == {"C9": "Noah"}
    assert "state.players.A.field.C9" in [p["path"] for p in body["problems"]]
    bad = client.post("/desk/parse.json", json={"yaml": "state: 5\nactions: {}\n"})
    assert bad.status_code == 400
    assert [p["path"] for p in bad.get_json()["problems"]] == ["state", "actions"]


LOOP = """
title: Two mirrors fight forever
cards:
  - {name: Test Leader, type: soul, rank: 3, leader: true, attribute: light, atk: 5, def: 100, hp: 60}
  - name: Test Mirror
    type: soul
    rank: 2
    attribute: light
    atk: 5
    def: 100
    hp: 1000
    effects:
      - {kind: timing, trigger: after_battle, mandatory: true,
         do: [{battle: {attacker: self, target: attacker, counts_as_attack: true}}]}
state:
  phase: combat
  players:
    A: {field: {altar: Test Leader, C3: Test Mirror}}
    B: {field: {altar: Test Leader, C3: Test Mirror}}
actions:
  - {attack: C3, target: "B:C3"}
"""


def test_a_resolution_that_never_ends_stops_at_the_web_step_cap(client):
    from judge.desk.pages import MAX_STEP_BOARDS
    from judge.desk.runner import WEB_STEP_CAP

    body = client.post("/desk/resolve.json", json={"yaml": LOOP}).get_json()
    steps = body["ruling"]["steps"]
    assert len(steps) <= WEB_STEP_CAP + 1
    assert steps[-1]["kind"] == "limit"
    assert sum("<svg" in b for b in body["boards"]) == MAX_STEP_BOARDS + 1


ATTACK = """
title: A plain attack
cards:
  - {name: Test Leader, type: soul, rank: 3, leader: true, attribute: light, atk: 20, def: 10, hp: 60}
  - {name: Test Knight, type: soul, rank: 2, attribute: light, atk: 20, def: 5, hp: 30}
state:
  phase: combat
  players:
    A: {field: {altar: Test Leader, C3: Test Knight}}
    B: {field: {altar: Test Leader, C3: Test Knight}}
actions:
  - {attack: C3, target: "B:C3"}
"""


def test_the_no_js_form_resolves_pasted_yaml_into_a_ruling_with_boards(client):
    response = client.post("/desk", data={"yaml": ATTACK})
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert 'class="trace"' in page and "step-damage" in page
    assert page.count('<details class="step-board">') >= 2
    # battle damage is ATK minus the target's DEF (glossary ATK): 20 - 5 = 15 of the Knight's 30 HP
    final = client.post("/desk/resolve.json", json={"yaml": ATTACK}).get_json()["ruling"]["final"]
    assert final["players"]["B"]["field"]["C3"]["damage"] == 15


@pytest.mark.parametrize("path", ["/desk/resolve.json", "/desk/legal.json"])
def test_a_malformed_scenario_posted_to_resolve_is_a_400_with_key_paths(client, path):
    response = client.post(path, json={"yaml": "state: {players: {A: {field: {C9: Noah}}}}\n"})
    assert response.status_code == 400
    body = response.get_json()
    assert body["ok"] is False and body["status"] == 400
    assert "state.players.A.field.C9" in [p["path"] for p in body["problems"]]
