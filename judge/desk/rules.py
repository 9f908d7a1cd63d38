"""Rule links for traces: the Codex pages' `rule_link` filter, kept per rule id."""

from __future__ import annotations

from flask import current_app
from markupsafe import Markup


def rule_link(rule_id: str) -> Markup:
    """An <a> to the rule's page whose hover (title) shows the rule's text: the app's `rule_link`
    filter (judge.web.codex_pages), built once per rule id, since a trace repeats the same few rules
    over hundreds of steps."""
    links = current_app.extensions.setdefault("desk_rule_links", {})
    link = links.get(rule_id)
    if link is None:
        link = links[rule_id] = Markup(current_app.jinja_env.filters["rule_link"](str(rule_id)))
    return link
