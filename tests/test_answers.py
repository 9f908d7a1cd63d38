"""Every ruling answers its question (contract §7): a dozen disputes of different shapes, each written from
the Codex texts (../shared/seeds/): the verdict, the first word of the answer, and the deciding step,
found by what the rules say decides it (the refusal, the fizzle, the non-event, the step that changed the
value), never by a step number read off a ruling. Then ask: problems (exit 2, HTTP 400), expect: answers,
and the question a ruling answers without ask:."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest
import yaml

from judge import engine

A_ALTAR, B_ALTAR = "Queen Sol", "King Umbra"


def board(a: dict, b: dict, **top) -> dict:
    state = {"players": {"A": {"field": {"altar": A_ALTAR, **a.pop("field", {})}, **a},
                         "B": {"field": {"altar": B_ALTAR, **b.pop("field", {})}, **b}}}
    state.update(top)
    return state


def rule(data: dict) -> dict:
    return engine.resolve(engine.load_scenario(copy.deepcopy(data)))


def step(ruling: dict, n: int | None) -> dict:
    assert n is not None, "the answer names no deciding step"
    return next(s for s in ruling["steps"] if s["n"] == n)


def first_word(text: str) -> str:
    return text.split(":", 1)[0].split()[0].strip(".:").lower()


def touches(s: dict, slot: str) -> bool:
    return any(c.get("slot") == slot for c in s["changes"]) or f"({slot}" in s["text"]


# (id, scenario, expected verdict, a check of the deciding step: what the Codex says decides it)
DISPUTES = [
    # Glossary Attack / Range: only a Soul in the Front Line attacks, unless it has Range. Dusk Lancer on C3
    # stands behind Grey Knight (C2): the attack is refused, and the refusal is the answer.
    ("illegal-attack-from-the-second-line",
     {"state": board({"field": {"C3": "Dusk Lancer", "C2": "Grey Knight"}}, {"field": {"L2": "Shade Scout"}},
                     phase="combat"),
      "actions": [{"attack": "C3", "target": "B:L2"}], "ask": [{"legal": 0}]},
     "no", lambda r, s: s["kind"] == "reject" and r["rejected"]["action"] == 0),
    # Range: "can attack from the Second Line". Hawkeye Archer on C3 behind Grey Knight may attack; the answer
    # rests on the declaration, which is where Range lets it (not on the damage that follows).
    ("range-attacks-from-the-second-line",
     {"state": board({"field": {"C3": "Hawkeye Archer", "C2": "Grey Knight"}},
                     {"field": {"L2": "Shade Scout"}}, phase="combat"),
      "actions": [{"attack": "C3", "target": "B:L2"}], "ask": [{"legal": 0}]},
     "yes", lambda r, s: "glossary/range" in s["rules"] and s["kind"] not in ("damage", "capture")),
    # 10.2.5 / 11.6.1: an Event fizzles if its Caster is no longer active. Mirror Sprite casts Firebolt, is
    # targeted by Hidden Snare and returns itself to the hand: Firebolt fizzles; the fizzle decides.
    ("event-fizzles-when-its-caster-went-back-to-the-hand",
     {"state": board({"field": {"L2": "Mirror Sprite"}, "hand": ["Firebolt"]},
                     {"field": {"L2": {"card": "Shade Scout", "ambushes": [{"card": "Hidden Snare"}]}}}),
      "actions": [{"cast": "Firebolt", "caster": "L2", "targets": ["B:L2"]},
                  {"spring": "Hidden Snare", "at": "L2", "by": "B", "targets": ["A:L2"]},
                  {"use": "Vanish", "card": "L2", "by": "A"}],
      "ask": [{"resolves": "Firebolt"}]},
     "no", lambda r, s: s["kind"] == "fizzle" and "10.2.5" in s["rules"] and "Firebolt" in s["text"]),
    # 10.4.7: an Ambush still resolves when its Ambusher is captured (it fizzles only if the Ambusher went
    # back to the hand). The step that says so is the answer.
    ("ambush-resolves-after-its-ambusher-is-captured",
     {"state": board({"field": {"L2": {"card": "Grey Knight", "damage": 10,
                                       "ambushes": [{"card": "Hidden Snare"}]}}},
                     {"field": {"L2": {"card": "Shade Scout", "ambushes": [{"card": "Hidden Snare"}]}}}),
      "actions": [{"spring": "Hidden Snare", "at": "L2", "targets": ["B:L2"]},
                  {"spring": "Hidden Snare", "at": "L2", "by": "B", "targets": ["A:L2"]}],
      "ask": [{"resolves": 0}]},
     "yes", lambda r, s: "10.4.7" in s["rules"]),
    # 13.2.2 / 13.6.6: Harold (rank 1) grants Defiance; Stubborn Squire (rank 1, Unyielding) attacks Storm
    # Titan: a granted effect comes from its granter, rank 1, no higher than the Squire's, so the Squire takes
    # nothing. The answer is the non-event that kept the damage off, not the battle damage after it.
    ("unyielding-squire-takes-no-granted-defiance",
     {"state": board({"field": {"L2": "Harold", "C3": "Storm Titan"}}, {"field": {"L2": "Stubborn Squire"}},
                     turn_player="B", phase="combat"),
      "actions": [{"attack": "L2", "target": "A:C3"}], "ask": [{"happens_to": "B:L2"}]},
     ["nothing"], lambda r, s: s["kind"] == "nonevent" and {"13.6.6", "13.2.2"} <= set(s["rules"])),
    # The same Defiance against Stubborn Recruit (rank 0): rank 1 is higher, so Unyielding does not stop it
    # (13.6.3) and the Recruit takes 5 damage: the step that deals it to B:L2 decides.
    ("unyielding-recruit-of-lower-rank-takes-the-defiance",
     {"state": board({"field": {"L2": "Harold", "C3": "Storm Titan"}}, {"field": {"L2": "Stubborn Recruit"}},
                     turn_player="B", phase="combat"),
      "actions": [{"attack": "L2", "target": "A:C3"}], "ask": [{"happens_to": "B:L2"}]},
     ["damaged"], lambda r, s: any(c.get("slot") == "B:L2" and c.get("damage", [0, 0])[1] > c["damage"][0]
                                   for c in s["changes"] if "damage" in c)),
    # Glossary Taunt: it protects only while the Taunt Soul stands in the Front Line. Iron Sentinel on C3 is
    # behind Grey Knight (C2): it protects nobody, so Dusk Lancer may attack Shade Scout; the answer rests on
    # the declaration (or a non-event) that checks Taunt.
    ("a-taunt-behind-the-front-line-protects-nobody",
     {"state": board({"field": {"L2": "Dusk Lancer"}},
                     {"field": {"C3": "Iron Sentinel", "C2": "Grey Knight", "R2": "Shade Scout"}},
                     phase="combat"),
      "actions": [{"attack": "L2", "target": "B:R2"}], "ask": [{"legal": 0}]},
     "yes", lambda r, s: "glossary/taunt" in s["rules"] and s["kind"] in ("battle", "action", "nonevent")),
    # Glossary Taunt: in the Front Line it protects the Souls sharing its Direct Superior; the refusal
    # decides.
    ("a-taunt-in-the-front-line-protects-its-neighbour",
     {"state": board({"field": {"L2": "Dusk Lancer"}},
                     {"field": {"L2": "Iron Sentinel", "R2": "Shade Scout"}}, phase="combat"),
      "actions": [{"attack": "L2", "target": "B:R2"}], "ask": [{"legal": 0}]},
     "no", lambda r, s: s["kind"] == "reject" and "glossary/taunt" in s["rules"]),
    # 13.1.2: what a Static Effect gives ends as soon as its card is no longer active. Harold is captured;
    # Storm Titan's keywords lose Defiance, and the step that says why (13.1.2) is the answer.
    ("a-value-after-an-aura-leaves",
     {"state": board({"field": {"L2": {"card": "Harold", "damage": 25}, "C3": "Storm Titan"}},
                     {"field": {"L2": "Dusk Lancer"}}, turn_player="B", phase="combat"),
      "actions": [{"attack": "L2", "target": "A:L2"}],
      "ask": [{"value": {"slot": "A:C3", "of": "keywords"}}]},
     [], lambda r, s: "13.1.2" in s["rules"] and "Storm Titan" in s["text"]),
    # 13.5.1: a negated effect does not resolve. Principle of Stolen Energy answers Cyber-Wormhole aimed at
    # its Ambusher's spot and negates it: the negation is the answer, not the fizzle it leads to.
    ("a-negated-event-does-not-resolve",
     {"state": board({"field": {"C3": "Dusk Lancer"}, "hand": ["Cyber-Wormhole", "Iron Blade"]},
                     {"field": {"L2": {"card": "Grey Knight", "damage": 10,
                                       "ambushes": [{"card": "Principle of Stolen Energy"}]}}}),
      "actions": [{"cast": "Cyber-Wormhole", "caster": "C3", "targets": ["B:L2"], "discard": ["Iron Blade"]},
                  {"spring": "Principle of Stolen Energy", "at": "L2", "by": "B"}],
      "ask": [{"resolves": "Cyber-Wormhole"}]},
     "no", lambda r, s: s["kind"] == "effect" and "13.5.1" in s["rules"] and "negates" in s["text"]),
    # 11.6.1d / 11.5.2: a cost is checked as the effect resolves; Cyber-Wormhole's discard can't be paid from
    # an empty hand: it fizzles.
    ("a-cost-that-cannot-be-paid",
     {"state": board({"field": {"C3": "Dusk Lancer"}, "hand": ["Cyber-Wormhole"]},
                     {"field": {"L2": {"card": "Banner Captain", "damage": 20}}}),
      "actions": [{"cast": "Cyber-Wormhole", "caster": "C3", "targets": ["B:L2"]}],
      "ask": [{"resolves": 0}]},
     "no", lambda r, s: s["kind"] == "fizzle" and "11.6.1d" in s["rules"]),
    # Glossary Leader: when a Leader is captured its player loses at once. Only King Umbra is left in front of
    # B (it stands in the Front Line), with 20 HP left; Storm Titan deals 25 − 5 = 20: A wins.
    ("a-win",
     {"state": board({"field": {"C3": "Storm Titan"}}, {"field": {"altar": {"card": B_ALTAR, "damage": 40}}},
                     phase="combat"),
      "actions": [{"attack": "C3", "target": "B:altar"}], "ask": [{"winner": True}]},
     "A", lambda r, s: s["kind"] == "win"),
    # …and an attack that captures nobody's Leader: no winner, no deciding step.
    ("no-winner",
     {"state": board({"field": {"L2": "Grey Knight"}}, {"field": {"C3": "Storm Titan"}}, phase="combat"),
      "actions": [{"attack": "L2", "target": "B:C3"}], "ask": [{"winner": True}]},
     "none", None),
    # Glossary ATK/DEF: battle damage is ATK minus DEF, never below 0: Shade Scout (10) against Iron Sentinel
    # (DEF 10) deals none; nothing happens to the Sentinel, and the damage step says why.
    ("zero-battle-damage",
     {"state": board({"field": {"L2": "Shade Scout"}}, {"field": {"L2": "Iron Sentinel"}}, phase="combat"),
      "actions": [{"attack": "L2", "target": "B:L2"}], "ask": [{"happens_to": "B:L2"}]},
     ["nothing"], lambda r, s: s["kind"] == "damage" and touches(s, "B:L2")),
    # Recall returns any Soul to its owner's hand (a card that left the field is gone, 15.5.1).
    ("a-card-returned-to-the-hand",
     {"state": board({"field": {"L2": "Grey Knight"}, "hand": ["Recall"]}, {"field": {"L2": "Shade Scout"}}),
      "actions": [{"cast": "Recall", "caster": "L2", "targets": ["B:L2"]}], "ask": [{"happens_to": "B:L2"}]},
     ["returned"], lambda r, s: any(c.get("from") == "B:L2" and "hand" in str(c.get("to"))
                                    for c in s["changes"])),
    # 10.3.3: an Armament's values add to its Wielder's: Dusk Lancer (20) with Iron Blade (+10) has ATK 30,
    # and no step of the queue changes it.
    ("an-armaments-value",
     {"state": board({"field": {"L2": {"card": "Dusk Lancer", "armament": "Iron Blade"}}},
                     {"field": {"L2": "Shade Scout"}}),
      "actions": [{"end_phase": True}], "ask": [{"value": {"slot": "A:L2", "of": "atk"}}]},
     30, None),
]


@pytest.mark.parametrize("name,scenario,verdict,decides", DISPUTES, ids=[d[0] for d in DISPUTES])
def test_a_dispute_is_answered_verdict_first_on_the_step_that_decides_it(name, scenario, verdict, decides):
    ruling = rule({"id": name, **scenario})
    assert len(ruling["answers"]) == 1
    answer = ruling["answers"][0]
    assert answer["ask"] == scenario["ask"][0] and not answer.get("default")
    got = answer["verdict"]
    assert (sorted(got) == sorted(verdict)) if isinstance(verdict, list) else got == verdict, answer["text"]
    want_word = {"yes": "yes", "no": "no", "none": "none"}.get(str(verdict).lower())
    if isinstance(verdict, list):
        want_word = (verdict or ["none"])[0] if verdict != [] else "none"
    elif want_word is None:
        want_word = str(verdict).lower()
    assert first_word(answer["text"]) == want_word, answer["text"]
    if decides is None:
        assert answer["step"] is None or step(ruling, answer["step"])
    else:
        deciding = step(ruling, answer["step"])
        assert decides(ruling, deciding), (answer, deciding)
        assert set(answer["rules"]) <= set(deciding["rules"])
    assert answer["question"].endswith("?")


def test_the_unyielding_answer_names_the_granter_and_both_ranks():
    scenario = dict(DISPUTES[4][1])
    text = rule(scenario)["answers"][0]["text"]
    assert text.startswith("Nothing:") and "Harold" in text and "rank 1" in text and "Unyielding" in text


def test_the_fizzle_answer_gives_the_reason():
    text = rule(dict(DISPUTES[2][1]))["answers"][0]["text"]
    assert text.startswith("No: Firebolt fizzles") and "Caster" in text and "hand" in text


def test_several_questions_are_answered_in_order():
    scenario = copy.deepcopy(DISPUTES[4][1])
    scenario["ask"] = [{"winner": True}, {"happens_to": "A:C3"}, {"value": {"slot": "A:C3", "of": "hp"}}]
    answers = rule(scenario)["answers"]
    assert [a["ask"] for a in answers] == scenario["ask"]
    assert answers[0]["verdict"] == "none"
    assert answers[1]["verdict"] == ["damaged"]   # Stubborn Squire: ATK 15 − Storm Titan's DEF 10 = 5
    assert answers[2]["verdict"] == 45 and answers[2]["text"].startswith("45:")
    assert answers[2]["step"] == answers[1]["step"]   # the same battle damage step changed both


# --- without ask: the likeliest question about the last queued action ---------------------------------

@pytest.mark.parametrize("index,kind", [(0, {"legal": 0}), (2, {"resolves": 2}), (4, {"happens_to": "A:C3"})])
def test_without_ask_the_ruling_answers_the_likeliest_question_and_says_which(index, kind):
    scenario = {k: v for k, v in DISPUTES[index][1].items() if k != "ask"}
    answers = rule(scenario)["answers"]
    assert len(answers) == 1 and answers[0]["default"] is True
    assert answers[0]["ask"] == kind
    # the last action of dispute 2 is Mirror Sprite's Vanish (it resolves); of dispute 4 the attack on
    # Storm Titan; of dispute 0 the refused attack


def test_a_rejected_last_action_is_asked_about_its_legality():
    scenario = {k: v for k, v in DISPUTES[7][1].items() if k != "ask"}
    answer = rule(scenario)["answers"][0]
    assert answer["ask"] == {"legal": 0} and answer["verdict"] == "no" and answer["text"].startswith("No:")


def test_nothing_queued_no_question():
    assert rule({"state": board({}, {})})["answers"] == []


# --- a question that can't be answered as asked ----------------------------------------------------------

BAD_ASKS = [
    ([{"legal": 3}], "ask.0.legal", "no action 3"),
    ([{"resolves": 0}], "ask.0.resolves", "uses no Event"),
    ([{"resolves": "Firebolt"}], "ask.0.resolves", "Firebolt"),
    ([{"happens_to": "B:C3"}], "ask.0.happens_to", "empty"),
    ([{"happens_to": "C3"}], "ask.0.happens_to", "with its player"),
    ([{"value": {"slot": "A:L2", "of": "speed"}}], "ask.0.value.of", "atk"),
    ([{"winner": "A"}], "ask.0.winner", "true"),
    ([{"legal": 0}, {"who": 1}], "ask.1", "one-key mapping"),
    ({"legal": 0}, "ask", "list"),
]


@pytest.mark.parametrize("ask,path,words", BAD_ASKS)
def test_a_question_that_cannot_be_answered_is_a_problem_at_its_key_path(ask, path, words):
    scenario = {"state": board({"field": {"L2": "Dusk Lancer"}}, {"field": {"L2": "Shade Scout"}},
                               phase="combat"),
                "actions": [{"attack": "L2", "target": "B:L2"}], "ask": ask}
    with pytest.raises(engine.ScenarioError) as caught:
        engine.load_scenario(scenario)
    problems = caught.value.problems
    assert [p["path"] for p in problems] == [path] and words in problems[0]["message"]


def test_the_cli_exits_2_and_the_api_answers_400_for_a_bad_question(tmp_path, client):
    scenario = {"state": board({"field": {"L2": "Dusk Lancer"}}, {"field": {"L2": "Shade Scout"}},
                               phase="combat"),
                "actions": [{"attack": "L2", "target": "B:L2"}], "ask": [{"legal": 5}]}
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(scenario))
    done = subprocess.run([sys.executable, "-m", "judge.cli", "resolve", str(path)], capture_output=True,
                          text=True)
    assert done.returncode == 2 and "ask.0.legal" in done.stderr
    response = client.post("/api/v1/resolve", json=scenario)
    assert response.status_code == 400
    assert [p["path"] for p in response.get_json()["problems"]] == ["ask.0.legal"]


# --- the answers on the CLI and the API ------------------------------------------------------------------

def test_judge_resolve_prints_the_answers_before_the_steps_and_json_carries_them(tmp_path):
    path = tmp_path / "squire.yaml"
    path.write_text(yaml.safe_dump(DISPUTES[4][1]))
    text = subprocess.run([sys.executable, "-m", "judge.cli", "resolve", str(path)], capture_output=True,
                          text=True).stdout
    assert text.index("Answer (step") < text.index("Step 1 —")
    assert "Asked: What happens to Stubborn Squire (B:L2)?" in text
    data = json.loads(subprocess.run([sys.executable, "-m", "judge.cli", "resolve", str(path), "--json"],
                                     capture_output=True, text=True).stdout)
    assert data["answers"][0]["verdict"] == ["nothing"]


def test_the_api_resolve_and_a_saved_ruling_carry_the_answers(client):
    scenario = DISPUTES[2][1]
    resolved = client.post("/api/v1/resolve", json=scenario).get_json()
    assert resolved["answers"][0]["verdict"] == "no"
    saved = client.post("/api/v1/rulings", json=scenario).get_json()
    again = client.get(f"/api/v1/rulings/{saved['id']}").get_json()
    assert again["ruling"]["answers"] == resolved["answers"]


# --- expect: answers -------------------------------------------------------------------------------------

def test_expect_answers_holds_and_fails_when_the_answer_changes():
    scenario = copy.deepcopy(DISPUTES[4][1])
    scenario["expect"] = {"answers": [{"verdict": ["nothing"], "rules": ["13.6.6"]}]}
    assert rule(scenario)["expect"] == {"passed": True, "failures": []}
    scenario["expect"] = {"answers": [["damaged"]]}
    failures = rule(scenario)["expect"]["failures"]
    assert len(failures) == 1 and failures[0].startswith("answers[0].verdict: expected")


def test_expect_answers_is_checked_when_the_scenario_loads():
    scenario = copy.deepcopy(DISPUTES[4][1])
    scenario["expect"] = {"answers": [{"verdict": "no", "stp": 3}, "yes"]}
    with pytest.raises(engine.ScenarioError) as caught:
        engine.load_scenario(scenario)
    assert {p["path"] for p in caught.value.problems} == {"expect.answers", "expect.answers.0.stp"}


# --- the desk's questions --------------------------------------------------------------------------------

def test_the_questions_a_position_allows_are_offered_likeliest_first(client):
    scenario = {k: v for k, v in DISPUTES[2][1].items() if k != "ask"}
    offered = client.post("/desk/questions.json", json={"scenario": scenario}).get_json()["questions"]
    asks = [q["ask"] for q in offered]
    assert offered[0]["likely"] and [q for q in offered if q["likely"]] == [offered[0]]
    assert offered[0]["ask"] == rule(scenario)["answers"][0]["ask"]   # what the ruling answers unasked
    assert {"resolves": 0} in asks and {"legal": 1} in asks and {"winner": True} in asks
    assert {"happens_to": "B:L2"} in asks and {"happens_to": "A:L2"} in asks
    assert {"resolves": 1} in asks   # Hidden Snare
    assert all(q["question"].endswith("?") for q in offered)
    for q in offered:   # every offered question can be asked
        rule({**scenario, "ask": [q["ask"]]})


# --- the library: every ruling states its question, and its answers are checked --------------------------

def _library():
    from judge.library import LIBRARY
    return LIBRARY.entries()


def test_every_library_ruling_with_a_question_asks_it_and_expects_its_answers():
    missing = [e.pid for e in _library() if e.question and not e.data.get("ask")]
    assert missing == []
    unchecked = [e.pid for e in _library() if e.data.get("ask")
                 and len((e.data.get("expect") or {}).get("answers") or []) != len(e.data["ask"])]
    assert unchecked == []


def _verdict_word(verdict) -> str:
    if isinstance(verdict, bool):
        return "yes" if verdict else "no"
    if isinstance(verdict, list):
        return str(verdict[0]).lower() if verdict else "none"
    return "none" if verdict is None else str(verdict).lower()


def test_every_library_answer_opens_with_its_verdict_and_rests_on_a_step_of_its_ruling():
    from judge.library import resolve_entry
    for entry in _library():
        ruling = resolve_entry(entry)
        assert ruling["answers"], entry.pid
        steps = {s["n"]: s for s in ruling["steps"]}
        for answer in ruling["answers"]:
            opens = answer["text"].lower().startswith(f"{str(answer['verdict']).lower()} ")  # "B:C3 (…):"
            assert opens or first_word(answer["text"]).replace(",", "") == _verdict_word(answer["verdict"]), \
                (entry.pid, answer["text"])
            if answer["step"] is not None:
                assert answer["step"] in steps, entry.pid
                assert set(answer["rules"]) <= set(steps[answer["step"]]["rules"]), entry.pid


# --- the OpenAPI document ----------------------------------------------------------------------------

def test_the_openapi_document_describes_ask_and_answers_and_a_ruling_with_them_conforms(client):
    import jsonschema
    from openapi_spec_validator import validate

    document = client.get("/api/openapi.json").get_json()
    validate(document)
    schemas = document["components"]["schemas"]
    assert schemas["Scenario"]["properties"]["ask"]["items"] == {"$ref": "#/components/schemas/Ask"}
    assert "answers" in schemas["Ruling"]["required"]
    assert set(schemas["Answer"]["required"]) == {"ask", "verdict", "text", "step", "rules"}

    def conforms(body, name):
        jsonschema.Draft202012Validator({**document, "$ref": f"#/components/schemas/{name}"}).validate(body)

    scenario = copy.deepcopy(DISPUTES[4][1])
    scenario["ask"] = [{"happens_to": "B:L2"}, {"legal": 0}, {"resolves": "Harold"},
                       {"value": {"slot": "A:C3", "of": "keywords"}}, {"winner": True}]
    conforms(scenario, "Scenario")
    ruling = client.post("/api/v1/resolve", json=scenario).get_json()
    conforms(ruling, "Ruling")
    assert [a["ask"] for a in ruling["answers"]] == scenario["ask"]
    with pytest.raises(jsonschema.ValidationError):   # the schema refuses what the engine refuses
        conforms({"winner": "A"}, "Ask")
    with pytest.raises(jsonschema.ValidationError):
        conforms({"value": {"slot": "A:C3", "of": "speed"}}, "Ask")


def test_the_desk_questions_of_a_scenario_that_does_not_load_are_a_400_naming_the_problem(client):
    bad = {"state": board({"field": {"C9": "Dusk Lancer"}}, {}), "actions": []}
    response = client.post("/desk/questions.json", json={"scenario": bad})
    assert response.status_code == 400
    body = response.get_json()
    assert body["ok"] is False and any("C9" in p["path"] for p in body["problems"])
    # a question that no longer fits the queue does not hide the ones that do
    scenario = {**DISPUTES[0][1], "ask": [{"legal": 5}]}
    offered = client.post("/desk/questions.json", json={"scenario": scenario}).get_json()["questions"]
    assert {"legal": 0} in [q["ask"] for q in offered]


# --- answers that rest on a reason record (issue 19's records read by issue 20's answers) -----------------
# Each "nothing" or unchanged value below has a Codex reason the ruling's trace states at a step of its own;
# the answer must rest on that step (its number and rules), not say a generic "no step touches it".

def _answered(scenario: dict, i: int = 0) -> tuple[dict, dict, dict]:
    ruling = rule(scenario)
    answer = ruling["answers"][i]
    return ruling, answer, step(ruling, answer["step"])


NEGATED_RECRUIT = {"state": board({"field": {"C3": "Dusk Lancer"}, "hand": ["Bombardier"]},
                                  {"field": {"C3": "Grey Knight", "L2": "Silence Totem"}}),
                   "actions": [{"recruit": "Bombardier", "to": "Cm1"}]}


def test_nothing_rests_on_the_negation_that_kept_an_opposing_trigger_off():
    # 13.5.2: the effects of a negated card do nothing. Silence Totem negates opposing Souls' effects, so
    # Bombardier's "when recruited: deal 10 damage to an opposing Soul in the Front Line" never reaches Grey
    # Knight, and that is the answer, though the non-event names Bombardier, not the Knight.
    _, answer, deciding = _answered({**NEGATED_RECRUIT, "ask": [{"happens_to": "B:C3"}]})
    assert answer["verdict"] == ["nothing"] and answer["text"].startswith("Nothing: ")
    assert deciding["kind"] == "nonevent" and "13.5.2" in answer["rules"]
    assert [r["reason"] for r in deciding["reasons"]] == ["trigger_negated"]
    assert "Silence Totem" in answer["text"] and "Bombardier" in answer["text"]


def test_a_trigger_aimed_at_the_other_side_is_not_why_nothing_happens_to_its_own_side():
    # Bombardier's effect is aimed at an opposing Soul: its negation says nothing about A's own Dusk Lancer.
    ruling = rule({**NEGATED_RECRUIT, "ask": [{"happens_to": "A:C3"}]})
    answer = ruling["answers"][0]
    assert answer["verdict"] == ["nothing"]
    assert answer["step"] is None or step(ruling, answer["step"])["kind"] != "nonevent", answer


def test_nothing_to_a_target_rests_on_the_fizzle_of_the_effect_that_targeted_it():
    # 11.6.1a: a Soul's effect fizzles when its card is no longer active. Hidden Snare captures Executioner in
    # answer to Behead, so Behead fizzles and its target, Grey Knight, is not captured.
    scenario = {"state": board({"field": {"L2": {"card": "Executioner", "damage": 25}}},
                               {"field": {"L2": {"card": "Grey Knight", "damage": 5,
                                                 "ambushes": [{"card": "Hidden Snare"}]}}}),
                "actions": [{"activate": "Behead", "card": "L2", "targets": ["B:L2"]},
                            {"spring": "Hidden Snare", "at": "L2", "by": "B", "targets": ["A:L2"]}],
                "ask": [{"happens_to": "B:L2"}]}
    _, answer, deciding = _answered(scenario)
    assert answer["verdict"] == ["nothing"] and answer["text"].startswith("Nothing: ")
    assert deciding["kind"] == "fizzle" and "11.6.1a" in answer["rules"]
    assert "Behead" in answer["text"]


def test_nothing_to_the_user_of_a_negated_effect_rests_on_the_negation():
    # 13.5.1, 11.5.3: a negated effect does not resolve and its cost is not paid: Executioner keeps its HP.
    scenario = {"state": board({"field": {"L2": "Executioner"}},
                               {"field": {"L2": {"card": "Grey Knight", "damage": 5,
                                                 "ambushes": [{"card": "Principle of Stolen Energy"}]}}}),
                "actions": [{"activate": "Behead", "card": "L2", "targets": ["B:L2"]},
                            {"spring": "Principle of Stolen Energy", "at": "L2", "by": "B"}],
                "ask": [{"happens_to": "A:L2"}, {"happens_to": "B:L2"}]}
    ruling = rule(scenario)
    for answer in ruling["answers"]:
        assert answer["verdict"] == ["nothing"] and answer["text"].startswith("Nothing: ")
        assert "13.5.1" in answer["rules"] and "Stolen Energy" in answer["text"], answer
        assert step(ruling, answer["step"])["kind"] in ("effect", "fizzle")


def test_an_unchanged_value_rests_on_the_negated_berserk_that_would_have_changed_it():
    # Berserk: Blood Reaver gains 10 ATK when its attack captures; Silence Totem negates it (13.5.2), so its
    # ATK stays its printed 20, and the answer says why.
    scenario = {"state": board({"field": {"C3": "Blood Reaver"}},
                               {"field": {"C3": "Shade Scout", "L2": "Silence Totem"}}, phase="combat"),
                "actions": [{"attack": "C3", "target": "B:C3"}],
                "ask": [{"value": {"slot": "A:C3", "of": "atk"}}]}
    _, answer, deciding = _answered(scenario)
    assert answer["verdict"] == 20 and answer["text"].startswith("20: ")
    assert deciding["kind"] == "nonevent" and "13.5.2" in answer["rules"]
    assert "Silence Totem" in answer["text"]


def test_an_unchanged_value_rests_on_the_used_up_limit():
    # 11.7.4: a Timing Effect whose limit is used up does not trigger: Watch Captain's 1/Turn Shield Wall,
    # used once this turn, gives no DEF at the second attack. Its record names the effect, not the card.
    # The card is the library ruling's own (its `cards:`).
    from pathlib import Path
    library = Path(__file__).resolve().parent.parent / "scenarios/explanations"
    cards = yaml.safe_load((library / "mandatory-timing-limit-used-up.yaml").read_text())["cards"]
    used = [{"card": "B:C3", "effect": "Shield Wall", "this_turn": 1, "this_game": 1}]
    scenario = {"cards": cards,
                "state": board({"field": {"C3": "Dusk Lancer"}}, {"field": {"C3": "Watch Captain"}},
                               phase="combat", used=used),
                "actions": [{"attack": "C3", "target": "B:C3"}],
                "ask": [{"value": {"slot": "B:C3", "of": "def"}}]}
    ruling, answer, deciding = _answered(scenario)
    assert answer["verdict"] == ruling["derived"]["B:C3"]["def"]
    assert deciding["kind"] == "nonevent" and "11.7.4" in answer["rules"]
    assert [r["reason"] for r in deciding["reasons"]] == ["limit_used_up"]


def test_no_winner_rests_on_the_leader_card_captured_off_the_altar():
    # Glossary Leader: a Leader card recruited onto an ordinary slot is an ordinary Soul; capturing it wins
    # nothing, and that is why the duel goes on.
    scenario = {"state": board({"field": {"C3": "Storm Titan"}},
                               {"field": {"C3": {"card": "King Umbra", "damage": 55}}}, phase="combat"),
                "actions": [{"attack": "C3", "target": "B:C3"}], "ask": [{"winner": True}]}
    _, answer, deciding = _answered(scenario)
    assert answer["verdict"] == "none" and answer["text"].startswith("None: the duel goes on")
    assert "glossary/leader" in answer["rules"]
    assert [r["reason"] for r in deciding["reasons"]] == ["leader_card_ordinary"]
    assert "King Umbra" in answer["text"] and "ordinary Soul" in answer["text"]


def test_a_trigger_lost_with_its_captured_card_answers_resolves_by_name():
    # 11.8.1: only active cards' effects trigger. Thorn Warden's Defiance captures Scavenger in the battle,
    # so "after this Soul battles: draw 1 card" never triggers; the non-event's record names the card.
    scenario = {"state": board({"field": {"C3": {"card": "Scavenger", "damage": 10}}, "hand": [], "deck": 10},
                               {"field": {"C3": "Thorn Warden"}}, phase="combat"),
                "actions": [{"attack": "C3", "target": "B:C3"}], "ask": [{"resolves": "Scavenger"}]}
    _, answer, deciding = _answered(scenario)
    assert answer["verdict"] == "no" and answer["text"].startswith("No: ")
    assert deciding["kind"] == "nonevent" and "11.8.1" in answer["rules"]
    assert [r["reason"] for r in deciding["reasons"]] == ["trigger_inactive"]


def test_a_step_with_a_reason_record_is_matched_by_its_facts_not_its_words():
    from judge.engine.data.errors import Reason
    from judge.engine.driver.values import about
    from judge.engine.play.trace import CardAt, Facts, Step

    taunt = Reason.of("taunt_on", card="Iron Sentinel", slot="B:C3", radius="Shade Scout (B:L2)")
    with_record = Step(5, "consequence", f"Because of step 4: {taunt.text}.", (), reasons=(taunt,))
    assert about(with_record, {"B:C3"})
    assert not about(with_record, {"B:L2"})   # named in the words, but the record is about the Taunt Soul
    words = "Storm Titan's Defiance 5 does nothing to Stubborn Squire (B:L2, rank 1)."
    no_record = Step(6, "nonevent", words, (), facts=Facts("kept_off", (CardAt("B:L2", "Stubborn Squire"),)))
    assert about(no_record, {"B:L2"}) and not about(no_record, {"B:C3"})
    # the words alone decide nothing: a step whose facts name no card is about no card
    assert not about(Step(7, "nonevent", words, ()), {"B:L2"})


def test_a_cast_that_waited_for_the_event_slot_says_so_in_its_answer():
    # 10.2.3: only one Event lies on the event slot; Rallying Cry, queued while Firebolt is on the Cascade,
    # is cast once Firebolt has resolved. The answer says it is legal and that it had to wait, and why.
    scenario = {"state": board({"field": {"C3": "Dusk Lancer"}, "hand": ["Firebolt", "Rallying Cry"]},
                               {"field": {"C3": "Grey Knight"}}),
                "actions": [{"cast": "Firebolt", "caster": "C3", "targets": ["B:C3"]},
                            {"cast": "Rallying Cry", "caster": "C3"}],
                "ask": [{"legal": 1}]}
    ruling, answer, deciding = _answered(scenario)
    assert answer["verdict"] == "yes" and answer["text"].startswith("Yes: ")
    assert deciding["kind"] == "cascade" and "Rallying Cry" in deciding["text"]
    assert "10.2.3" in answer["rules"] and "event slot" in answer["text"] and "Firebolt" in answer["text"]
    waits = [s for s in ruling["steps"]
             if any(r["reason"] == "event_slot_taken" for r in s.get("reasons", []))]
    assert waits and f"step {waits[0]['n']}" in answer["text"]
