"""Across areas: a rule page lists the library rulings that apply it (issue 6), read from the
scenario files themselves rather than from the page."""

from __future__ import annotations

import pytest
import yaml

from judge import SCENARIOS_DIR


def _rulings_expecting(rule_id: str) -> list[str]:
    found = []
    for path in sorted(SCENARIOS_DIR.rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and rule_id in ((data.get("expect") or {}).get("cites") or []):
            found.append(path.relative_to(SCENARIOS_DIR).with_suffix("").as_posix())
    return found


@pytest.mark.parametrize("rule_id", ["10.4.7", "11.6.3", "13.6.2", "glossary/defiance"])
def test_a_rule_page_lists_the_rulings_whose_expectation_cites_it(client, rule_id):
    expected = _rulings_expecting(rule_id)
    assert expected, f"the library has no ruling citing {rule_id}"
    path = f"/glossary/{rule_id.split('/')[1]}" if rule_id.startswith("glossary/") else f"/rules/{rule_id}"
    listed = {r["id"] for r in client.get(path + ".json").get_json()["rulings"]}
    assert set(expected) <= listed
    html = client.get(path).get_data(as_text=True)
    assert "Rulings that apply it" in html
    assert all(f"/scenarios/{pid}" in html for pid in expected)


def test_a_rule_without_rulings_says_so(client):
    page = client.get("/rules/13.6.4").get_data(as_text=True)   # present but empty in the source
    assert "No ruling in our library cites 13.6.4 yet." in page
