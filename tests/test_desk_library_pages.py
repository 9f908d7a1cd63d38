"""Every library scenario opens as a ruling page, rendered on the server (no JavaScript needed)."""

from __future__ import annotations

import pytest

from judge.desk.pages import MAX_STEP_BOARDS
from judge.library import LIBRARY

ENTRIES = LIBRARY.entries()


def test_the_library_is_listed_whole_and_skips_what_is_not_a_scenario(client):
    data = client.get("/scenarios.json").get_json()
    pids = {s["id"] for s in data["scenarios"]}
    assert pids == {e.pid for e in ENTRIES}
    assert not any(pid.endswith(("untestable", "coverage-baseline")) for pid in pids)


@pytest.mark.parametrize("pid", [e.pid for e in ENTRIES])
def test_each_library_ruling_renders(client, pid):
    response = client.get(f"/scenarios/{pid}")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    # the trace with a board per step, or the reason the engine can't resolve it today
    assert 'class="trace"' in page or 'class="problems-box"' in page
    if 'class="trace"' in page:
        steps = page.count('<li class="step ')
        assert page.count('<details class="step-board">') == min(steps, MAX_STEP_BOARDS + 1)
        assert "The final board" in page
    twin = client.get(f"/scenarios/{pid}.json")
    assert twin.status_code == 200 and twin.get_json()["id"] == pid


def test_a_library_scenario_opens_in_the_desk(client):
    entry = ENTRIES[0]
    page = client.get(f"/desk?scenario={entry.pid}")
    assert page.status_code == 200
    assert 'id="desk"' in page.get_data(as_text=True)
    listing = client.get("/scenarios").get_data(as_text=True)
    assert f'href="/desk?scenario={entry.pid}"' in listing.replace("%2F", "/")
