"""Rule links for traces: the Codex pages' `rule_link` filter when it is there, else a plain link."""

from __future__ import annotations

from functools import lru_cache
from urllib.parse import quote

from flask import current_app, url_for
from markupsafe import Markup
from werkzeug.routing import BuildError


def rule_link(rule_id: str) -> Markup:
    """An <a> to the rule's page whose hover (title) shows the rule's text (built once per rule id)."""
    links = current_app.extensions.setdefault("desk_rule_links", {})
    link = links.get(rule_id)
    if link is None:
        link = links[rule_id] = _rule_link(str(rule_id))
    return link


def _rule_link(rule_id: str) -> Markup:
    codex_filter = current_app.jinja_env.filters.get("rule_link")
    if codex_filter is not None and codex_filter is not rule_link:
        return Markup(codex_filter(rule_id))
    return Markup('<a class="rule-link" href="{href}" title="{title}">{rid}</a>').format(
        href=rule_href(rule_id), title=rule_title(rule_id), rid=rule_id)


def rule_href(rule_id: str) -> str:
    try:
        return url_for("codex.rule", rule_id=rule_id)
    except BuildError:
        return "/rules/" + quote(rule_id, safe="/")


@lru_cache(maxsize=2048)
def rule_title(rule_id: str) -> str:
    try:
        from judge.codex import load_codex

        return load_codex().short(rule_id) or rule_id
    except Exception:  # noqa: BLE001 - if the Codex data fails to load, the id is the best hover we have
        return rule_id
