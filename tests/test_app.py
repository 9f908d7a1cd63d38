"""The app shell: one error shape for JSON and HTML, security headers on every response."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("path", ["/no-such-page.json", "/api/no-such-endpoint"])
def test_unknown_json_path_gets_the_json_error_shape(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert response.get_json() == {"ok": False, "error": response.get_json()["error"], "status": 404}
    assert response.get_json()["error"]


def test_unknown_html_path_gets_the_error_page(client):
    response = client.get("/no-such-page")
    assert response.status_code == 404
    assert response.mimetype == "text/html"
    assert b"404" in response.data


def test_every_response_carries_a_csp_without_inline_script(client):
    response = client.get("/no-such-page")
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp
    assert "unsafe-inline" not in csp


def test_cli_lists_its_commands(capsys):
    from judge.cli import main

    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for name in ("codex-check", "import-codex", "index", "position", "resolve", "check", "coverage"):
        assert name in out
    assert main(["no-such-command"]) == 2


@pytest.mark.parametrize("path, json_url", [
    ("/rules/11.5.1?rule_id=13.6", "/rules/11.5.1.json"),               # the route's own value: no clash
    ("/rules/11.5.1?_method=POST&_anchor=x", "/rules/11.5.1.json"),      # url_for's options are not ours
    ("/interpretations?_external=1&_scheme=javascript", "/interpretations.json"),
    ("/scenarios?q=frozen&_method=x", "/scenarios.json?q=frozen"),
    ("/search?q=captured&page=1&_method=x", "/search.json?q=captured&page=1"),
])
def test_odd_query_arguments_never_break_the_json_twin_link(client, path, json_url):
    response = client.get(path)
    assert response.status_code == 200
    assert response.headers["Link"] == f'<{json_url}>; rel="alternate"; type="application/json"'


def test_search_pages_link_on_without_url_for_options(client):
    page = client.get("/search?q=soul&_method=x&_external=1").get_data(as_text=True)
    # the link preview's og:url is the one absolute address a page sends (a chat needs it whole)
    preview = '<meta property="og:url" content="http://localhost/search">'
    assert preview in page
    page = page.replace(preview, "")
    assert "page=2" in page and "_method" not in page and "http://" not in page


def test_the_session_key_is_random_per_instance_and_shared_by_its_workers(tmp_path, monkeypatch):
    from judge.web import create_app

    monkeypatch.delenv("JUDGE_SECRET_KEY", raising=False)
    monkeypatch.setenv("JUDGE_INSTANCE", str(tmp_path / "one"))
    first, second = create_app().secret_key, create_app().secret_key   # two workers, one instance folder
    assert first == second and len(first) >= 32
    monkeypatch.setenv("JUDGE_INSTANCE", str(tmp_path / "two"))
    assert create_app().secret_key != first
    monkeypatch.setenv("JUDGE_SECRET_KEY", "set-by-the-operator")
    assert create_app().secret_key == "set-by-the-operator"
