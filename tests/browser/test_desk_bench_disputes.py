"""The disputes of bench/desk_time.py written from the Codex for issue 30, run as a judge poses them (a
fresh page, no YAML): each within 12 clicks, its verdict the one the rules in its docstring give, and the
facts behind it on the engine's final board. Two of them on a phone."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import desk_time

pytestmark = pytest.mark.browser

PHONE = ("Taunt refuses an attack", "Defiance on a recruit")


def final_board(page, live_server):
    data = page.evaluate("JSON.parse(JSON.stringify(window.codexDesk.scenario))")
    answer = page.request.post(f"{live_server}/desk/resolve.json", data={"scenario": data})
    return answer.json()["ruling"]


@pytest.mark.parametrize("size,name", [("desktop", n) for n in desk_time.VERDICTS]
                         + [("phone", n) for n in PHONE])
def test_each_dispute_is_posed_within_12_clicks_and_ruled_as_the_codex_says(page, live_server, size, name):
    width, height = desk_time.SIZES["desktop 1280×800" if size == "desktop" else "phone 390×844"]
    page.set_viewport_size({"width": width, "height": height})
    user = desk_time.User(page)
    desk_time.DISPUTES[name](user, live_server)
    assert user.clicks <= 12
    assert desk_time.verdict(user) == desk_time.VERDICTS[name]
    ruling = final_board(page, live_server)
    if name == "Defiance on a recruit":      # the recruit has Harold's Defiance 5 from the moment it stands
        assert "defiance" in ruling["derived"]["A:L1·0"]["keywords"]
    if name == "Cost captures its payer":    # the Caster paid its last HP: captured, the Event resolved
        assert ruling["final"]["players"]["A"]["field"]["L2"].get("captured") is True
        assert ruling["final"]["players"]["B"]["field"]["C3"].get("damage") == 20
    if name == "Ambush when targeted":       # "does Firebolt resolve?" no: negated, Harold untouched
        assert not ruling["final"]["players"]["B"]["field"]["C3"].get("damage")
