"""Every link to a page of ours that the lower layers name by id, built with `url_for` in one place.

The library and the search index hold ids and kinds (a scenario's path id, a rule id, "card/noah"),
never URLs; the web turns them into links here.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from flask import current_app, request, url_for
from werkzeug.wsgi import get_host

from judge.library import LIBRARY, Entry
from judge.library import rulings_citing as library_rulings_citing

DEFAULT_ORIGIN = "http://localhost"  # without JUDGE_ORIGIN or trusted proxies: never a visitor's Host


def origin() -> str:
    """The scheme and host of every absolute URL we send (og:url, the API's `url`, the OpenAPI servers):
    `JUDGE_ORIGIN` when set (production); else, behind trusted proxies (`JUDGE_PROXIES`, from an address
    of `JUDGE_PROXY_ADDRESSES`), the host and scheme they forwarded; else DEFAULT_ORIGIN. Never the Host
    a visitor sent straight to us: a cached page made for one visitor is sent to every other."""
    return origin_of(current_app.config.get("JUDGE_ORIGIN"), request.environ)


def origin_of(configured: str | None, environ: dict[str, Any]) -> str:
    """origin(), from the configured `JUDGE_ORIGIN` and a request's WSGI environ (also before Flask:
    judge.web.fast_reads)."""
    if configured:
        return str(configured).rstrip("/")
    if environ.get("judge.trusted_proxy"):
        return f"{environ.get('wsgi.url_scheme', 'http')}://{get_host(environ)}"
    return DEFAULT_ORIGIN


def absolute(path: str) -> str:
    """`path` (from url_for, starting with /) as an absolute URL on our origin."""
    return origin() + path


def scenario_url(pid: str) -> str:
    return url_for("library.scenario", pid=pid)


def answer(entry: Entry) -> dict[str, Any] | None:
    """A library ruling's first answer, to show beside its title: {question, verdict, text}."""
    found = LIBRARY.answers(entry)
    return {k: found[0].get(k) for k in ("question", "verdict", "text")} if found else None


def rulings(entries: Iterable[Entry]) -> list[dict[str, Any]]:
    """Library rulings as links: [{id, title, question, answer, url}]."""
    return [{"id": e.pid, "title": e.title, "question": e.question, "answer": answer(e),
             "url": scenario_url(e.pid)} for e in entries]


def rulings_citing(rule_id: str) -> list[dict[str, str]]:
    """The library rulings whose trace (or expectation) cites `rule_id`: [{id, title, url}]."""
    return rulings(library_rulings_citing(rule_id))


def titles(entries: Iterable[Entry]) -> list[dict[str, Any]]:
    """Library rulings for a list: [{id, title, question, answer, url}]."""
    return rulings(entries)


def doc_url(kind: str, doc_id: str, parent: str = "") -> str:
    """The page of a search document of `kind` with `doc_id` (an example's page is its rule's, `parent`)."""
    if kind == "glossary":
        return url_for("codex.glossary_entry", slug=doc_id.split("/", 1)[1])
    if kind in ("rule", "section"):
        return url_for("codex.rule", rule_id=doc_id)
    if kind == "example":
        return url_for("codex.rule", rule_id=parent or doc_id.split("/", 1)[0])
    if kind == "card":
        return url_for("cards.card", slug=doc_id.split("/", 1)[1])
    if kind == "ruling":
        return scenario_url(doc_id.split("/", 1)[1])
    raise ValueError(f"no page for a search document of kind {kind!r} ({doc_id})")
