"""A shared ruling's link-preview picture (/r/<id>.png): a real 1200×630 PNG with the question, the
verdict and the board, drawn once and kept; the ruling page's raw HTML (what a chat's crawler reads,
no script run) points to it with its size and alt, as a large card. Pages other than rulings keep a
text card."""

from __future__ import annotations

import io
import re
from pathlib import Path

import yaml
from PIL import Image
from test_link_previews import Crawler

from judge.desk.preview_image import VERDICT_COLOURS

ATTACK = {
    "title": "May Noah attack Harold?",
    "state": {"phase": "combat", "turn": 9, "turn_player": "A",
              "players": {"A": {"turns_taken": 5, "field": {"altar": "Queen Sol", "C3": "Noah"}},
                          "B": {"turns_taken": 4, "field": {"altar": "King Umbra", "C3": "Harold"}}}},
    "actions": [{"attack": "C3", "target": "B:C3"}],
    "ask": [{"legal": 0}],
}


def share(client, scenario) -> str:
    page = client.get("/desk").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    response = client.post("/desk/share", data={"yaml": yaml.safe_dump(scenario), "csrf_token": token})
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"]


def crawl(client, path: str) -> dict[str, str]:
    reader = Crawler()
    reader.feed(client.get(path, headers={"User-Agent": "Slackbot-LinkExpanding 1.0"}).get_data(as_text=True))
    return reader.meta


def colours(png: bytes) -> set[tuple[int, int, int]]:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return {c for _, c in image.getcolors(maxcolors=1 << 20) or []}


def verdict_of(client, scenario) -> tuple[str, bytes, dict[str, str]]:
    url = share(client, scenario)
    ruling = client.get(f"{url}.json").get_json()["ruling"]
    response = client.get(f"{url}.png")
    assert response.status_code == 200 and response.mimetype == "image/png"
    return ruling["answers"][0]["verdict"], response.data, crawl(client, url)


def test_a_saved_ruling_has_a_png_preview_whose_pixels_follow_the_verdict(client):
    legal = verdict_of(client, ATTACK)
    refused = verdict_of(client, dict(ATTACK, state=dict(ATTACK["state"], phase="preparation")))
    assert {legal[0], refused[0]} == {"yes", "no"}   # the engine's verdicts differ
    for verdict, png, _ in (legal, refused):
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        image = Image.open(io.BytesIO(png))
        assert image.format == "PNG" and image.size == (1200, 630)
        seen = colours(png)
        other = "no" if verdict == "yes" else "yes"
        assert VERDICT_COLOURS[verdict] in seen and VERDICT_COLOURS[other] not in seen
    assert legal[1] != refused[1]


def test_the_ruling_page_raw_html_points_to_its_picture_as_a_large_card(client, app):
    url = share(client, ATTACK)
    meta = crawl(client, url)
    assert meta["twitter:card"] == "summary_large_image"
    assert meta["og:image"] == f"http://localhost{url}.png"
    assert (meta["og:image:width"], meta["og:image:height"], meta["og:image:type"]) == ("1200", "630",
                                                                                         "image/png")
    assert "Noah" in meta["og:image:alt"] and meta["twitter:image"] == meta["og:image"]
    assert len(meta["og:title"].encode()) <= 70 and len(meta["og:description"]) <= 350
    first = client.get(f"{url}.png")
    kept = list((Path(app.instance_path) / "previews").glob("*.png"))
    assert kept and any(p.read_bytes() == first.data for p in kept)   # drawn once, kept by its id
    again = client.get(f"{url}.png", headers={"If-None-Match": first.headers["ETag"].strip('"')})
    assert again.status_code == 304


def test_a_library_ruling_has_its_picture_and_other_pages_keep_a_text_card(client):
    pid = "10-card-types/ambush-fizzles-when-ambusher-returned"
    meta = crawl(client, f"/scenarios/{pid}")
    assert meta["twitter:card"] == "summary_large_image"
    picture = client.get(meta["og:image"].removeprefix("http://localhost"))
    assert Image.open(io.BytesIO(picture.data)).size == (1200, 630)
    for path in ("/scenarios", "/rules/11.6.1", "/glossary/ambush"):
        meta = crawl(client, path)
        assert meta["twitter:card"] == "summary" and "og:image" not in meta, path


def test_an_unknown_ruling_has_no_picture(client):
    assert client.get("/r/000000000000.png").status_code == 404
