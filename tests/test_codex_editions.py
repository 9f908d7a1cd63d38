"""Codex editions side by side: the registry, `judge import-codex --edition`, `judge changes`, the
pages of another edition and rulings pinned to their edition.

Every test that imports works on a temporary copy of codex/editions (JUDGE_CODEX_DIR); nothing is
written into the project's codex/.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from editions_copy import FIXTURE, copy_editions, import_fixture

from judge import CODEX_DIR, ROOT, engine
from judge.changes.diff import word_diff
from judge.cli import main
from judge.codex import load_edition
from judge.codex.editions import editions
from judge.engine import ScenarioError
from judge.library import LIBRARY

SOURCES = sorted((CODEX_DIR / "sources").glob("*.txt"))


@pytest.fixture()
def root(tmp_path, monkeypatch):
    """A copy of the project's editions in a temporary folder, made the codex root."""
    return copy_editions(tmp_path, monkeypatch)


def data_files(folder: Path) -> dict[str, object]:
    return {
        p.relative_to(folder).as_posix(): yaml.safe_load(p.read_text(encoding="utf-8"))
        for p in sorted(folder.rglob("*.yaml"))
    }


# --- the registry -----------------------------------------------------------------------------------


def test_the_project_holds_one_edition_and_it_is_current():
    held = editions(CODEX_DIR)
    assert held.versions == ["0.4.0"] and held.current == "0.4.0"
    assert load_edition().version == "0.4.0" and load_edition("0.4.0") is load_edition()


def test_an_unknown_edition_is_refused_with_the_ones_we_hold():
    with pytest.raises(Exception, match=r"no Codex edition '9.9.9'; we hold 0.4.0"):
        load_edition("9.9.9")


def test_an_editions_file_naming_a_current_edition_it_does_not_list_is_an_error(root):
    (root / "editions.yaml").write_text(
        'current: "1.0.0"\neditions:\n  - version: "0.4.0"\n', encoding="utf-8"
    )
    assert main(["codex-check"]) == 2


# --- import -----------------------------------------------------------------------------------------


def test_importing_the_four_sources_again_reproduces_the_0_4_0_data(root, capsys):
    assert main(["import-codex", "--edition", "0.4.0-again", *map(str, SOURCES)]) == 0
    out = capsys.readouterr().out
    assert "could not place" not in out
    old = data_files(root / "editions" / "0.4.0")
    new = data_files(root / "editions" / "0.4.0-again")
    assert new["codex.yaml"].pop("version") == "0.4.0-again"
    assert old["codex.yaml"].pop("version") == "0.4.0"
    assert set(new) == set(old)
    for name in old:
        assert new[name] == old[name], name
    assert editions().current == "0.4.0"  # not made current without --current


CHAPTER_12 = """The Cascade
CodexChapter 12 of 18Rules for game version 0.5.0
12.1Response windows
- 12.1.1
After an attack declaration or an effect, each player in turn may respond.
12.2Priority
- 12.2.1
The turn player holds priority first.
12.4Resolving the Cascade
- 12.4.3
The Cascade resolves from the top down.
12.5Instant effects
- 12.5.1
An Instant Effect resolves at once, even inside another effect.
12.6Ending the Cascade
- 12.6.1
When both players pass in turn, the Cascade resolves.
"""


def test_an_arriving_chapter_turns_cited_but_absent_rules_into_rules(root, tmp_path):
    before = load_edition("0.4.0")
    assert "12.5.1" in before.cited_absent and "12.5.1" not in before.rules
    page = tmp_path / "chapter-12.txt"
    page.write_text(CHAPTER_12, encoding="utf-8")
    assert main(["import-codex", "--edition", "0.5.0", "--current", str(page)]) == 0
    after = load_edition("0.5.0")
    assert after.rules["12.5.1"].text.startswith("An Instant Effect resolves at once")
    assert not [rid for rid in after.cited_absent if rid.startswith("12")]
    assert after.chapter(12).present and after.chapter(12).title == "The Cascade"
    cite = next(r for r in after.cited_by("12.5.1") if r.source == "11.1.5")
    assert cite.present  # 11.1.5's "(12.5.1)" now lands on text
    assert editions().current == "0.5.0"
    assert load_edition("0.4.0").rules.keys() == before.rules.keys()  # the older edition is untouched


def test_a_chapter_that_arrives_without_the_rules_others_cite_is_reported(root, tmp_path, capsys):
    page = tmp_path / "chapter-12.txt"
    page.write_text(CHAPTER_12.split("12.6Ending")[0], encoding="utf-8")
    assert main(["import-codex", "--edition", "0.5.0", str(page)]) == 1
    out = capsys.readouterr().out
    assert "problem:" in out and "12.6.1" in out  # cited by our texts, not in the chapter that came
    assert "12.5.1" in load_edition("0.5.0").rules


def test_a_paragraph_with_no_counterpart_in_an_unnumbered_chapter_is_reported(root, tmp_path, capsys):
    text = (CODEX_DIR / "sources" / "000_4863627476eb32f6.txt").read_text(encoding="utf-8")
    anchor = "A triggered effect whose limit is used up does not trigger."
    page = tmp_path / "effects.txt"
    page.write_text(
        text.replace(
            anchor,
            anchor + "\n\nA brand-new paragraph, and then another new one right after.\n\n"
            "And one more that shares nothing at all with any old text.",
        ),
        encoding="utf-8",
    )
    assert main(["import-codex", "--edition", "0.4.2", str(page)]) == 1
    captured = capsys.readouterr()
    assert "could not place: effects.txt" in captured.out and "A brand-new paragraph" in captured.out
    codex = load_edition("0.4.2")
    assert codex.rules["11.7.4"].text == anchor  # the rest keeps its numbers
    assert codex.rules["11.8.1"].text == load_edition("0.4.0").rules["11.8.1"].text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--edition", "0.4.0"], "exists already"),
        (["--edition", "../up"], "expected a version"),
        (["--edition", "0.4.3", "--from", "0.1.0"], "no Codex edition '0.1.0'"),
    ],
)
def test_import_refuses_a_bad_edition_with_exit_2(root, capsys, args, message):
    assert main(["import-codex", *args, str(SOURCES[0])]) == 2
    assert message in capsys.readouterr().err
    assert editions().versions == ["0.4.0"]


def test_import_of_an_unreadable_page_writes_nothing(root, tmp_path, capsys):
    assert main(["import-codex", "--edition", "0.4.3", str(tmp_path / "missing.txt")]) == 2
    assert "missing.txt" in capsys.readouterr().err
    assert not (root / "editions" / "0.4.3").exists() and editions().versions == ["0.4.0"]


# --- what changed -----------------------------------------------------------------------------------


@pytest.fixture()
def fixture_edition(root):
    """The test-only edition 0.4.1 of tests/fixtures/codex-0.4.1, imported and made current."""
    import_fixture()
    return root


def changes_json(capsys, *args) -> dict:
    assert main(["changes", "0.4.0", "0.4.1", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_changes_list_exactly_the_rule_and_glossary_changes_of_the_fixture(fixture_edition, capsys, tmp_path):
    report = changes_json(capsys, "--db", str(tmp_path / "none.sqlite3"))
    assert list(report)[:5] == ["from", "to", "rules", "glossary", "rulings"]
    assert (report["from"], report["to"]) == ("0.4.0", "0.4.1")
    rules = {(c["id"], c["change"]) for c in report["rules"]}
    assert rules == {("10.1.1", "changed"), ("10.4.8", "removed"), ("10.5.5", "added")}
    reworded = next(c for c in report["rules"] if c["id"] == "10.1.1")
    assert "onto a soul slot" in reworded["before"] and "onto an empty soul slot" in reworded["after"]
    assert [(c["id"], c["change"]) for c in report["glossary"]] == [("glossary/taunt", "changed")]
    assert next(c for c in report["rules"] if c["id"] == "10.4.8")["after"] is None
    assert next(c for c in report["rules"] if c["id"] == "10.5.5")["before"] is None


def test_word_diff_marks_only_the_words_that_changed():
    runs = word_diff("onto a soul slot in", "onto an empty soul slot in")
    assert [r for r in runs if r[0] != "same"] == [("del", "a"), ("ins", "an empty")]
    assert "".join(t for op, t in runs if op != "ins") == "onto a soul slot in"


def test_changes_of_an_edition_we_do_not_hold_exit_2(capsys):
    assert main(["changes", "0.4.0", "7.0.0"]) == 2
    assert "no Codex edition '7.0.0'" in capsys.readouterr().err


def cited_under_0_4_0(entry) -> tuple[set[str], bool]:
    """What a library ruling rests on, read here from the engine's own ruling under 0.4.0: every rule
    its steps and its rejection cite and the rules its expectation names; and whether its derived
    values show a slot the Escalation Spiral still keeps asleep (`proactive: false`)."""
    ruling = engine.resolve(engine.load_scenario(dict(entry.data), source=entry.pid), edition="0.4.0")
    cited = {r for step in ruling["steps"] for r in step["rules"]}
    cited |= set((ruling.get("rejected") or {}).get("rules", []))
    cited |= set(entry.expected_cites)
    asleep = any(isinstance(v, dict) and v.get("proactive") is False for v in ruling["derived"].values())
    return cited, asleep


def test_changes_flag_what_the_changed_number_flips_and_what_cites_a_changed_rule(
    fixture_edition, capsys, tmp_path
):
    report = changes_json(capsys, "--db", str(tmp_path / "none.sqlite3"))
    assert [(d["id"], d["before"], d["after"]) for d in report["data"]] == [
        ("numbers.yaml:spiral_turns.value", 4, 2)
    ]
    number_rules = set(
        yaml.safe_load((FIXTURE / "numbers.yaml").read_text(encoding="utf-8"))["spiral_turns"]["rules"]
    )
    changed_ids = {c["id"] for c in [*report["rules"], *report["glossary"]]}
    status = {r["id"]: r for r in report["rulings"]}
    entries = LIBRARY.entries()
    assert set(status) == {e.pid for e in entries}  # every library ruling, each once
    read = {e.pid: cited_under_0_4_0(e) for e in entries}
    cites = {pid: cited for pid, (cited, _) in read.items()}
    flipped = {pid for pid, r in status.items() if r["status"] == "outcome-changed"}
    assert flipped, "the Spiral's turns (4 -> 2) flip the rulings that rest on the Spiral"
    assert any(cites[pid] & number_rules for pid in flipped)
    for pid in flipped:  # a ruling rests on the Spiral by citing it or by showing a slot it keeps asleep
        assert cites[pid] & number_rules or read[pid][1], (
            f"{pid} changed outcome without resting on the Spiral"
        )
        assert status[pid]["before"] != status[pid]["after"] and status[pid]["before"] is not None
    for pid, cited in cites.items():
        if pid in flipped:
            continue
        expected = "cites-changed-rule" if cited & changed_ids else "same"
        assert status[pid]["status"] == expected, pid
        assert set(status[pid]["changed_rules"]) == cited & changed_ids, pid
    assert any(status[pid]["status"] == "cites-changed-rule" for pid, c in cites.items() if "10.1.1" in c)
    assert any(
        status[pid]["status"] == "cites-changed-rule" for pid, c in cites.items() if "glossary/taunt" in c
    )
    assert all(r["url"] == f"/scenarios/{r['id']}" for r in report["rulings"])


def test_a_card_says_which_editions_it_is_legal_in(fixture_edition):
    card = {
        "name": "Newcomer",
        "type": "soul",
        "rank": 1,
        "attribute": "light",
        "atk": 10,
        "def": 5,
        "hp": 15,
        "editions": ["0.4.1"],
    }
    leaders = [
        {
            "name": f"Leader {p}",
            "type": "soul",
            "rank": 3,
            "attribute": "dark",
            "leader": True,
            "atk": 20,
            "def": 10,
            "hp": 50,
        }
        for p in "AB"
    ]
    scenario = {
        "cards": [card, *leaders],
        "state": {
            "players": {
                "A": {"field": {"altar": "Leader A", "C3": "Newcomer"}},
                "B": {"field": {"altar": "Leader B"}},
            }
        },
    }
    assert engine.load_scenario({**scenario, "codex": "0.4.1"}).codex == "0.4.1"
    with pytest.raises(ScenarioError) as caught:
        engine.load_scenario({**scenario, "codex": "0.4.0"})
    assert caught.value.problems == [
        {
            "path": "state.players.A.field.C3.card",
            "message": "Newcomer is not legal in Codex 0.4.0; it is legal in 0.4.1",
            "code": "not_in_edition",
            "facts": {"card": "Newcomer", "version": "0.4.0", "editions": ["0.4.1"]},
        }
    ]
    with pytest.raises(ScenarioError) as caught:
        engine.load_scenario({**scenario, "cards": [{**card, "editions": ["four"]}, *leaders]})
    assert caught.value.problems[0]["path"] == "cards[0].editions[0]"


def test_an_editions_recruits_per_turn_is_what_the_engine_applies(root, tmp_path, capsys):
    """An edition allowing two recruits a turn: the library rulings that 0.4.0 rejects for a second
    recruit (picked by their rejection's rule, 10.1.1) are no longer rejected for it."""
    numbers = yaml.safe_load((editions().folder("0.4.0") / "numbers.yaml").read_text(encoding="utf-8"))
    numbers["recruits_per_turn"]["value"] = 2
    (tmp_path / "numbers.yaml").write_text(yaml.safe_dump(numbers), encoding="utf-8")
    assert main(["import-codex", "--edition", "0.4.9", str(tmp_path / "numbers.yaml")]) == 0
    second: list = []
    for entry in LIBRARY.entries():
        ruling = engine.resolve(engine.load_scenario(dict(entry.data), source=entry.pid), edition="0.4.0")
        rejected = ruling.get("rejected") or {}
        if "10.1.1" in rejected.get("rules", []) and "already recruited" in rejected.get("text", ""):
            second.append(entry)
    assert second
    for entry in second:
        now = engine.resolve(engine.load_scenario(dict(entry.data), source=entry.pid), edition="0.4.9")
        assert "already recruited" not in (now.get("rejected") or {}).get("text", ""), entry.pid


def edition_with(numbers_changed: dict[str, int], folder: Path, version: str = "0.4.9") -> str:
    """Import an edition that is 0.4.0 with `numbers_changed` (name -> value) in its numbers.yaml."""
    numbers = yaml.safe_load((editions().folder("0.4.0") / "numbers.yaml").read_text(encoding="utf-8"))
    for name, value in numbers_changed.items():
        numbers[name]["value"] = value
    (folder / "numbers.yaml").write_text(yaml.safe_dump(numbers), encoding="utf-8")
    assert main(["import-codex", "--edition", version, str(folder / "numbers.yaml")]) == 0
    return version


def library_scenario(path: str) -> dict:
    return yaml.safe_load((ROOT / "scenarios" / path).read_text(encoding="utf-8"))


def test_an_editions_recruiting_rounds_are_what_the_engine_applies(root, tmp_path):
    """glossary Player A: 4 recruiting rounds. In an edition giving A only 3, setup ends after B's
    third round, so A's recruit that 0.4.0 allows in her fourth round comes in B's turn 1 and is refused;
    and a position in A's fourth round is refused at load, naming `state.round`."""
    data = library_scenario("inputs/setup-recruiting-rounds.yaml")
    version = edition_with({"recruiting_rounds_a": 3}, tmp_path)
    before = engine.resolve(engine.load_scenario(dict(data)), edition="0.4.0")
    after = engine.resolve(engine.load_scenario(dict(data)), edition=version)
    assert before.get("rejected") is None
    assert any("recruiting round 4 of 4 begins" in s["text"] for s in before["steps"])
    ended = [s["text"] for s in after["steps"] if "the last before the first turn" in s["text"]]
    # glossary Player B: the first turn is B's, whoever recruited last
    assert ended == ["Setup: Player B ends recruiting round 3 of 3, the last before the first turn; setup is "
                     "over and Player B takes the first turn."]
    assert after["rejected"]["action"] == 3            # A's recruit of Grey Knight, now in B's turn 1
    fourth = {**data, "codex": version, "state": {**data["state"], "turn_player": "A", "round": 4}}
    with pytest.raises(ScenarioError) as caught:
        engine.load_scenario(fourth)
    assert [p["path"] for p in caught.value.problems] == ["state.round"]
    assert "expected 1..3" in caught.value.problems[0]["message"]
    engine.load_scenario({**fourth, "codex": "0.4.0"})    # 0.4.0 has a fourth round for A


def test_an_editions_ambushes_per_setter_is_what_the_engine_applies(root, tmp_path):
    """10.4.2: one set Ambush per Soul. In an edition allowing two, the second set is legal."""
    data = library_scenario("10-card-types/one-set-ambush-per-soul.yaml")
    version = edition_with({"ambushes_per_setter": 2}, tmp_path)
    before = engine.resolve(engine.load_scenario(dict(data)), edition="0.4.0")
    after = engine.resolve(engine.load_scenario(dict(data)), edition=version)
    assert "10.4.2" in before["rejected"]["rules"]
    assert after.get("rejected") is None
    slot = after["final"]["players"]["A"]["field"]["L2"]
    assert {a["card"] for a in slot["ambushes"]} == {"Hidden Snare", "Iron Will"}


def test_a_player_whose_recruiting_rounds_run_out_is_skipped(root, tmp_path):
    """An edition giving A 2 rounds and B 3: after B's second round B recruits again (A has none left)."""
    version = edition_with({"recruiting_rounds_a": 2}, tmp_path)
    data = {"codex": version, "state": {"phase": "setup", "turn": 0, "round": 2, "turn_player": "B",
                                        "players": {"A": {"field": {"altar": "Queen Sol"}},
                                                    "B": {"field": {"altar": "King Umbra"}}}},
            "actions": [{"end_phase": True}, {"end_phase": True}]}
    texts = [s["text"] for s in engine.resolve(engine.load_scenario(data))["steps"] if s["kind"] == "turn"]
    assert texts[0] == ("Setup: Player B ends recruiting round 2 of 3; "
                        "Player B's recruiting round 3 of 3 begins.")
    assert texts[1].startswith("Setup: Player B ends recruiting round 3 of 3, the last before the first turn")


def test_judge_check_takes_an_edition_and_fails_only_rulings_the_change_touches(fixture_edition, capsys,
                                                                                tmp_path):
    """`judge check DIR --edition V` judges the library under V: under the current 0.4.1 (the Spiral's
    turns 4 -> 2) some expectations fail, each one a ruling `judge changes` says is not the same;
    `--edition 0.4.0` passes them all; an edition we don't hold is a usage error."""
    report = changes_json(capsys, "--db", str(tmp_path / "none.sqlite3"))
    touched = {r["id"] for r in report["rulings"] if r["status"] != "same"}
    folder = str(ROOT / "scenarios")
    assert main(["check", folder, "--edition", "0.4.0"]) == 0
    capsys.readouterr()
    assert main(["check", folder, "--edition", "0.4.1"]) == 1
    failed = {line.split()[1].removesuffix(".yaml") for line in capsys.readouterr().out.splitlines()
              if line.startswith("FAIL")}
    assert failed and failed <= touched
    assert main(["check", folder, "--edition", "9.9"]) == 2
    assert "no Codex edition '9.9'" in capsys.readouterr().err


def test_judge_changes_reads_saved_rulings_from_postgresql_when_database_url_is_set(
    fixture_edition, pg_url, tmp_path, monkeypatch, capsys
):
    """A deployment on PostgreSQL: `judge changes` re-judges the rulings saved there, as the site does."""
    from judge.web import create_app

    site = create_app({"TESTING": True, "DATABASE_URL": pg_url, "DATABASE": str(tmp_path / "unused.sqlite3"),
                       "INDEX_DIR": str(tmp_path / "index"), "RATELIMIT_ENABLED": False})
    scenario = yaml.safe_load((ROOT / "scenarios/10-card-types/one-set-ambush-per-soul.yaml").read_text())
    saved = site.test_client().post("/api/v1/rulings", json=scenario).get_json()
    site.extensions["rulings"].close()
    monkeypatch.setenv("DATABASE_URL", pg_url)
    monkeypatch.setenv("JUDGE_INSTANCE", str(tmp_path / "no-instance"))
    report = changes_json(capsys)
    assert [r["url"] for r in report["rulings"] if r["url"].startswith("/r/")] == [f"/r/{saved['id']}"]
