"""The API for bots (/api/v1), its OpenAPI document and the /api page whose every example is run."""

from __future__ import annotations

import html
import json
import re
import shlex
import shutil
import subprocess
import urllib.request
from urllib.parse import urlsplit

import jsonschema
import pytest
import yaml
from openapi_spec_validator import validate

from judge.desk.runner import content_id

SCENARIO = {"title": "API test", "state": {"players": {"A": {"field": {"altar": "Queen Sol", "L2": "Noah"}},
                                                       "B": {"field": {"altar": "King Umbra"}}}},
            "actions": [{"end_phase": True}]}
POSTS = ["/api/v1/position", "/api/v1/resolve", "/api/v1/legal", "/api/v1/rulings"]


@pytest.fixture(scope="module")
def document(app):
    return app.test_client().get("/api/openapi.json").get_json()


def conforms(document, body, schema_name):
    """Raise unless `body` matches the document's components/schemas/<schema_name>."""
    root = {**document, "$ref": f"#/components/schemas/{schema_name}"}
    jsonschema.Draft202012Validator(root).validate(body)


def test_the_openapi_document_is_valid_openapi_3_1(document):
    assert document["openapi"] == "3.1.0"
    validate(document)


def test_every_api_v1_route_is_in_the_document_and_nothing_else(app, document):
    routed = set()
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/v1/"):
            path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
            routed |= {(path, method.lower()) for method in rule.methods - {"HEAD", "OPTIONS"}}
    documented = {(path, method) for path, item in document["paths"].items() for method in item}
    assert routed == documented and len(routed) == 11


def test_json_and_yaml_bodies_give_the_same_ruling_and_the_old_paths_are_aliases(client):
    as_json = client.post("/api/v1/resolve", json=SCENARIO)
    as_yaml = client.post("/api/v1/resolve", data=yaml.safe_dump(SCENARIO), content_type="application/yaml")
    old = client.post("/api/resolve", json=SCENARIO)
    assert as_json.status_code == as_yaml.status_code == old.status_code == 200
    assert as_json.get_json() == as_yaml.get_json() == old.get_json()
    assert as_json.get_json()["steps"] and as_json.get_json()["ok"] is True
    for name in ("position", "legal"):
        assert client.post(f"/api/v1/{name}", json=SCENARIO).get_json() == \
            client.post(f"/api/{name}", json=SCENARIO).get_json()


@pytest.mark.parametrize("path", POSTS)
@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", None])
def test_a_post_that_is_not_json_or_yaml_is_a_415_in_the_error_shape(client, path, content_type):
    headers = {"Content-Type": content_type} if content_type else {}
    response = client.post(path, data=json.dumps(SCENARIO), headers=headers)
    assert response.status_code == 415
    body = response.get_json()
    assert body["ok"] is False and body["status"] == 415 and "application/json" in body["error"]


def test_a_bad_scenario_names_its_key_path_in_the_error_shape(client, document):
    bad = {**SCENARIO, "state": {"players": {"A": {"field": {"C9": "Noah"}}}}}
    for path in POSTS:
        response = client.post(path, json=bad)
        assert response.status_code == 400, path
        body = response.get_json()
        conforms(document, body, "Error")
        assert any(p["path"].endswith("field.C9") for p in body["problems"]), (path, body)


def test_a_saved_ruling_needs_no_csrf_token_and_is_served_back(client, document):
    saved = client.post("/api/v1/rulings", json=SCENARIO)
    assert saved.status_code == 201
    body = saved.get_json()
    conforms(document, body, "SavedRef")
    assert body["id"] == content_id(SCENARIO) and urlsplit(body["url"]).path == f"/r/{body['id']}"
    assert saved.headers["Location"] == body["url"]
    again = client.get(f"/api/v1/rulings/{body['id']}")
    conforms(document, again.get_json(), "SavedRuling")
    assert again.get_json()["scenario"] == SCENARIO and again.get_json()["ruling"]["steps"]
    assert client.get(f"/r/{body['id']}").status_code == 200
    # the desk's share form still needs its token: only the JSON/YAML API is exempt
    assert client.post("/desk/share", data={"yaml": yaml.safe_dump(SCENARIO)}).status_code == 403


def test_lookups_answer_in_the_documented_shapes_and_404s_in_the_error_shape(client, document):
    conforms(document, client.get("/api/v1/rules/13.6.2").get_json(), "RulePage")
    conforms(document, client.get("/api/v1/glossary/unyielding").get_json(), "GlossaryEntry")
    conforms(document, client.get("/api/v1/cards/noah").get_json(), "CardPage")
    conforms(document, client.get("/api/v1/search?q=unyielding").get_json(), "SearchResults")
    for path in ("/api/v1/rules/99.9.9", "/api/v1/glossary/no-such-term", "/api/v1/cards/no-such-card",
                 "/api/v1/rulings/0123456789ab", "/api/v1/nothing-here"):
        response = client.get(path)
        assert response.status_code == 404, path
        conforms(document, response.get_json(), "Error")


def test_a_glossary_alias_redirects_within_the_api(client):
    response = client.get("/api/v1/glossary/Defense")
    assert response.status_code == 302 and response.headers["Location"].endswith("/api/v1/glossary/def")


# --- the /api page: every example it shows is run -------------------------------------------------

def page_commands(page: str) -> list[str]:
    return [html.unescape(c) for c in re.findall(r'<code class="curl">(.*?)</code>', page, re.DOTALL)]


def parse_curl(command: str) -> tuple[str, str, dict[str, str], bytes | None]:
    """One curl command of the page → (method, url, headers, body)."""
    words = shlex.split(command.replace("\\\n", " "))
    assert words[:2] == ["curl", "-s"], command
    method, headers, data, url = "GET", {}, None, ""
    it = iter(words[2:])
    for word in it:
        if word == "-X":
            method = next(it)
        elif word == "-H":
            name, value = next(it).split(": ", 1)
            headers[name] = value
        elif word == "--data-binary":
            data = next(it).encode()
        else:
            url = word
    return method, url, headers, data


def run_example(command: str) -> tuple[int, dict]:
    """Run the command as pasted into a shell when curl is here; else the same request with urllib."""
    if shutil.which("curl"):
        done = subprocess.run(["bash", "-c", command + " -w '\\n%{http_code}'"], capture_output=True,
                              text=True, timeout=60, check=True)
        text, status = done.stdout.rsplit("\n", 1)
        return int(status), json.loads(text)
    method, url, headers, data = parse_curl(command)
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    with urllib.request.urlopen(request) as response:
        return response.status, json.load(response)


def test_every_example_on_the_api_page_runs_and_answers_as_documented(live_server, document):
    with urllib.request.urlopen(f"{live_server}/api") as page:
        commands = page_commands(page.read().decode())
    assert len(commands) == 10 and all(live_server in c for c in commands)
    operations = {(m.upper(), p): op for p, item in document["paths"].items() for m, op in item.items()}
    for command in commands:
        status, body = run_example(command)
        assert status in (200, 201), (command, status, body)
        method, url, _, _ = parse_curl(command)
        path = urlsplit(url).path
        template = next(p for (m,
                               p) in operations if m == method and re.fullmatch(re.sub(r"\{\w+\}", "[^/]+",
                                                                                       p), path))
        schema = operations[(method,
                             template)]["responses"][str(status)]["content"]["application/json"]["schema"]
        conforms(document, body, schema["$ref"].rsplit("/", 1)[1])


@pytest.mark.parametrize(("method", "path", "status"), [
    ("GET", "/api/v1/resolve", 405), ("DELETE", "/api/v1/rulings/0123456789ab", 405),
    ("POST", "/api/v1/rules/13.6.2", 405), ("POST", "/api/v1/resolve", 413)])
def test_every_api_error_is_the_one_shape(client, document, method, path, status):
    body = b"x" * (300 * 1024) if status == 413 else None
    response = client.open(path, method=method, data=body, content_type="application/json")
    assert response.status_code == status
    conforms(document, response.get_json(), "Error")
    assert response.get_json()["status"] == status


def test_a_429_says_when_to_retry_as_documented(tmp_path, document):
    from judge.web import create_app

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "r.sqlite3"),
                      "INDEX_DIR": str(tmp_path / "i"),
                      "JUDGE_LIMIT_API": "1/minute"})
    client = app.test_client()
    assert client.post("/api/v1/position", json=SCENARIO).status_code == 200
    refused = client.post("/api/v1/position", json=SCENARIO)
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    conforms(document, refused.get_json(), "Error")
    assert "Retry-After" in document["paths"]["/api/v1/position"]["post"]["responses"]["429"]["headers"]


def test_a_card_text_reads_through_the_api_and_an_unreadable_one_is_a_422(client):
    shadow = {"text": "Ambusher: Any Dark Soul. When the Ambusher is attacked: deal 15 damage to the "
                      "attacker.",
              "type": "ambush"}
    answer = client.post("/api/v1/cards/read", json=shadow)
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["ambusher"] == {"attribute": "dark"}
    assert body["effects"] == [{"kind": "timing", "fast": True, "trigger": "attacked",
                                "do": [{"damage": 15, "to": "attacker"}]}]
    assert body["reading"] == shadow["text"]
    bad = client.post("/api/v1/cards/read", json={"text": "Deal 10 damage to every opposing Soul this trunn.",
                                                  "type": "event"})
    assert bad.status_code == 422
    problem = bad.get_json()["problems"][0]
    assert problem["facts"]["phrase"] == "this trunn" and problem["facts"]["nearest"] == "this Turn"
    assert client.post("/api/v1/cards/read", json={"text": "x" * 2001}).status_code == 400
    assert client.post("/api/v1/cards/read", json={"text": "Frozen.", "type": "planet"}).status_code == 400
