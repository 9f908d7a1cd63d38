"""The pages of Codex editions: `/editions`, any edition's pages under `/editions/<v>/` with a banner
when the current edition reads otherwise, `/changes/<from>...<to>`, and saved rulings judged under
the edition they were saved under. The test-only edition 0.4.1 (tests/fixtures/codex-0.4.1) is
imported into a temporary copy of the editions; nothing is written into codex/."""

from __future__ import annotations

import json
import re

import pytest
from editions_copy import FIXTURE, copy_editions, import_fixture

from judge.cli import main
from judge.codex import load_edition
from judge.desk import runner
from judge.library import LIBRARY
from judge.rulings.sqlite import RulingStore
from judge.search import ensure_index, is_stale
from judge.web import create_app


@pytest.fixture()
def site(tmp_path, monkeypatch):
    """An app whose codex root is a temporary copy of the editions, with its own saved rulings."""
    copy_editions(tmp_path, monkeypatch)
    app = create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "rulings.sqlite3"), "INDEX_DIR": str(tmp_path / "index"),
         "RATELIMIT_ENABLED": False}  # /changes is prepared over several requests (tests/test_solid.py)
    )
    return app


def prepared(client, url: str):
    """GET `url` until the report is ready: each 503 "being prepared" judged a few more rulings."""
    for _ in range(500):
        response = client.get(url)
        if response.status_code != 503:
            return response
        assert "being prepared" in response.get_data(as_text=True) and response.headers["Retry-After"]
    raise AssertionError(f"{url} never became ready")


def text_of(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.get_data(as_text=True)))


def test_with_one_edition_the_plain_pages_are_as_before_and_an_edition_path_serves_the_same_rule(client):
    plain = client.get("/rules/10.1.1.json").get_json()
    pinned = client.get("/editions/0.4.0/rules/10.1.1.json").get_json()
    assert pinned["rule"] == plain["rule"] and "edition" not in plain
    assert pinned.get("edition") is None  # 0.4.0 is current: no banner
    assert client.get("/editions/0.3.9/rules/10.1.1").status_code == 404


def test_links_on_an_edition_page_stay_in_that_edition(client):
    body = client.get("/editions/0.4.0/rules/10.1").get_data(as_text=True)
    links = set(re.findall(r'href="(/(?:rules|glossary|interpretations)[^"]*)"', body))
    assert not links  # every Codex link is under /editions/0.4.0/
    assert 'href="/editions/0.4.0/rules/10.1.1"' in body


def test_the_editions_page_lists_each_edition_with_its_date_and_counts(site):
    import_fixture()
    client = site.test_client()
    data = client.get("/editions.json").get_json()
    assert data["current"] == "0.4.1"
    rows = {e["version"]: e for e in data["editions"]}
    assert set(rows) == {"0.4.0", "0.4.1"} and rows["0.4.0"]["date"] == "2026-11-29"
    old, new = load_edition("0.4.0"), load_edition("0.4.1")
    for version, codex in (("0.4.0", old), ("0.4.1", new)):
        assert rows[version]["rules"] == sum(r.kind == "rule" for r in codex.rules.values())
        assert rows[version]["glossary"] == len(codex.glossary)
    assert rows["0.4.1"]["changes_url"] == "/changes/0.4.0...0.4.1"
    assert "current" in text_of(client.get("/editions"))


def test_an_older_editions_rule_carries_a_banner_with_the_words_that_changed(site):
    import_fixture()
    client = site.test_client()
    assert "onto an empty soul slot" in text_of(client.get("/rules/10.1.1"))
    response = client.get("/editions/0.4.0/rules/10.1.1")
    body = response.get_data(as_text=True)
    assert "onto a soul slot" in text_of(response)
    assert "reads differently in 0.4.1" in text_of(response)
    assert re.search(r"<ins>\s*an empty\s*</ins>", body) and re.search(r"<del>\s*a\s*</del>", body)
    banner = client.get("/editions/0.4.0/rules/10.1.2.json").get_json()["edition"]
    assert banner == {"version": "0.4.0", "current": "0.4.1", "status": "same"}
    assert client.get("/editions/0.4.0/rules/10.4.8.json").get_json()["edition"]["status"] == "absent-now"
    entry = client.get("/editions/0.4.0/glossary/taunt.json").get_json()["edition"]
    assert entry["status"] == "changed" and {"op": "ins", "text": "stands"} in entry["diff"]


def test_a_link_to_a_rule_the_current_edition_dropped_lands_on_the_last_edition_that_has_it(site):
    import_fixture()
    client = site.test_client()
    response = client.get("/rules/10.4.8")
    assert response.status_code == 302 and response.headers["Location"].endswith(
        "/editions/0.4.0/rules/10.4.8"
    )
    assert client.get("/rules/10.9.9").status_code == 404


def test_the_changes_page_and_its_json_match_the_command(site, capsys, tmp_path):
    import_fixture()
    capsys.readouterr()
    client = site.test_client()
    data = prepared(client, "/changes/0.4.0...0.4.1.json").get_json()
    assert main(["changes", "0.4.0", "0.4.1", "--json", "--db", site.config["DATABASE"]]) == 0
    assert json.loads(capsys.readouterr().out) == data
    page = client.get("/changes/0.4.0...0.4.1").get_data(as_text=True)
    assert "10.5.5" in page and "glossary/taunt" in page and re.search(r"<ins>\s*an empty\s*</ins>", page)
    assert client.get("/changes/0.4.0...5.0.0").status_code == 404


def library_scenario_citing(rule_id: str) -> dict:
    """The first library scenario (in path order) whose ruling cites `rule_id`."""
    entry = next(e for e in LIBRARY.entries() if rule_id in LIBRARY.cites(e))
    return dict(entry.data)


def test_a_ruling_saved_under_0_4_0_is_judged_under_0_4_0_when_0_4_1_is_current(site):
    scenario = library_scenario_citing("10.1.1")
    scenario.pop("codex", None)  # the saved record, not the scenario, names the edition
    ruling = runner.resolve(scenario, snapshots=False)
    assert ruling["codex"] == "0.4.0"
    rid = RulingStore(site.config["DATABASE"]).save(scenario, "0.4.0", runner.outcome(ruling), ruling)
    import_fixture()
    client = site.test_client()
    page = client.get(f"/r/{rid}.json").get_json()
    assert page["codex"] == "0.4.0" and page["codex_saved"] == "0.4.0" and not page["changed"]
    assert page["current_edition"]["version"] == "0.4.1"
    assert "Judged under Codex 0.4.0, the edition it was saved under" in text_of(client.get(f"/r/{rid}"))
    body = client.get(f"/r/{rid}").get_data(as_text=True)
    assert "/editions/0.4.0/" in body  # the trace links to the rules it was judged under


def test_search_takes_an_edition_and_its_hits_link_to_that_editions_pages(site):
    import_fixture()
    assert is_stale(site.config["INDEX_DIR"])  # a new current edition: `judge index` builds again
    ensure_index(site.config["INDEX_DIR"])
    client = site.test_client()
    words = "Afterwards the Ambush goes face up to its owner's Elysium"
    older = client.get("/search.json", query_string={"q": f"edition:0.4.0 {words}"}).get_json()
    hit = next(r for r in older["results"] if r["id"] == "10.4.8")  # 0.4.1 dropped 10.4.8
    assert hit["url"] == "/editions/0.4.0/rules/10.4.8"
    now = client.get("/search.json", query_string={"q": words}).get_json()
    assert "10.4.8" not in [r["id"] for r in now["results"]]
    assert all(not r["url"].startswith("/editions/") for r in now["results"])
    refused = client.get("/search.json", query_string={"q": "edition:9.9.9 ambush"})
    assert refused.status_code == 400 and "9.9.9" in refused.get_json()["error"]
    # as you type: 10.4.8 is suggested only under the edition that has it, linking to its page
    suggested = client.get("/search/suggest", query_string={"q": "edition:0.4.0 10.4.8"}).get_json()
    assert {"id": "10.4.8", "url": "/editions/0.4.0/rules/10.4.8"}.items() <= suggested[0].items()
    current = client.get("/search/suggest", query_string={"q": "10.4.8"}).get_json()
    assert "10.4.8" not in [e["id"] for e in current]
    assert client.get("/search/suggest", query_string={"q": "edition:9.9 ambush"}).get_json() == []


def test_a_saved_ruling_the_new_edition_flips_keeps_its_outcome_and_says_what_it_is_now(site):
    """A ruling saved under 0.4.0 whose outcome 0.4.1's Spiral (4 -> 2 turns) changes: picked from the
    library rulings that cite the Spiral, by judging each under both editions with the engine."""
    import_fixture(current=False)
    outcome = {}
    for entry in LIBRARY.entries():
        if "glossary/escalation-spiral" not in LIBRARY.cites(entry):
            continue
        scenario = dict(entry.data)
        scenario.pop("codex", None)
        before, after = (runner.resolve(scenario, snapshots=False, edition=v) for v in ("0.4.0", "0.4.1"))
        if runner.outcome(before) != runner.outcome(after):
            outcome = {"scenario": scenario, "ruling": before}
            break
    assert outcome, "some library ruling that cites the Spiral is flipped by 0.4.1"
    ruling = outcome["ruling"]
    rid = RulingStore(site.config["DATABASE"]).save(
        outcome["scenario"], "0.4.0", runner.outcome(ruling), ruling
    )
    assert (
        main(
            [
                "import-codex",
                "--edition",
                "0.4.2",
                "--from",
                "0.4.1",
                "--current",
                str(FIXTURE / "numbers.yaml"),
            ]
        )
        == 0
    )  # 0.4.2: 0.4.1 again, now current
    client = site.test_client()
    page = client.get(f"/r/{rid}.json").get_json()
    assert page["codex"] == "0.4.0" and not page["changed"]  # still its 0.4.0 outcome
    assert page["outcome"] == runner.outcome(ruling)
    assert page["current_edition"]["version"] == "0.4.2" and page["current_edition"]["differs"]
    text = text_of(client.get(f"/r/{rid}"))
    assert "Under Codex 0.4.2 the outcome is different" in text and "proactive: False → True" in text
    changes = prepared(client, "/changes/0.4.0...0.4.2.json").get_json()
    saved = next(r for r in changes["rulings"] if r["id"] == rid)
    assert saved["status"] == "outcome-changed" and saved["url"] == f"/r/{rid}"
