"""Link previews: the OpenGraph and Twitter tags a chat reads from the HTML the server sends.

A crawler (Discord, WhatsApp, Slack) runs no script: it reads `og:title`, `og:description`,
`og:url`, `og:type`, `og:site_name` and `twitter:card` from the page's <head>. Every page gets them
from base.html; a page a person shares (a ruling, a rule, a glossary entry, a card, an edition's
changes) says what it is in its own `preview` block:

    {% block preview %}{{ preview_meta(rule.id ~ ' ' ~ rule.text, description=rule.text) }}{% endblock %}

Text is made plain (whitespace folded), cut at a word to a length a chat shows whole, and escaped.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from flask import Flask, request, url_for
from markupsafe import Markup, escape

from judge.web.links import absolute

SITE_NAME = "Codex Judge"
SITE_DESCRIPTION = ("A rules judge for the Codex: the answer to a dispute in seconds, with the rule "
                    "numbers behind it and a link to paste.")
TITLE_LIMIT = 70         # a chat shows one or two lines of title (70 characters whole in each)
DESCRIPTION_LIMIT = 300  # and two to four lines of description


def plain(text: Any, limit: int) -> str:
    """Folded whitespace, at most `limit` characters, cut at a word with an ellipsis."""
    text = re.sub(r"\s+", " ", str(text or "")).strip()
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if " " in cut[limit // 2:]:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;:.") + "…"


def page_url() -> str:
    """The page's own address, without its query (the one link a chat should keep), on our configured
    origin (judge.web.links.origin), never on the Host a visitor sent."""
    if request.endpoint and request.view_args is not None:
        try:
            return absolute(url_for(request.endpoint, **request.view_args))
        except Exception:  # noqa: BLE001 - an endpoint that can't be rebuilt still has its address
            pass
    return absolute(request.path)


def preview_meta(title: Any, description: Any = None, kind: str = "website",
                 image: Mapping[str, Any] | None = None, image_alt: Any = None) -> Markup:
    """The preview tags of this page; `kind` is og:type (`article` for a ruling, `website` else).
    `image` ({url, width, height}, a PNG) makes the preview a large card with that picture; `image_alt`
    says in words what it shows. Pages without a picture keep a text card (`summary`)."""
    tags = [
        ("property", "og:site_name", SITE_NAME),
        ("property", "og:type", kind),
        ("property", "og:title", plain(title, TITLE_LIMIT) or SITE_NAME),
        ("property", "og:description", plain(description, DESCRIPTION_LIMIT) or SITE_DESCRIPTION),
        ("property", "og:url", page_url()),
        ("name", "twitter:card", "summary_large_image" if image else "summary"),
    ]
    if image:
        alt = plain(image_alt or title, DESCRIPTION_LIMIT)
        tags += [("property", "og:image", image["url"]), ("property", "og:image:type", "image/png"),
                 ("property", "og:image:width", str(image["width"])),
                 ("property", "og:image:height", str(image["height"])),
                 ("property", "og:image:alt", alt),
                 ("name", "twitter:image", image["url"]), ("name", "twitter:image:alt", alt)]
    lines = [f'<meta {attr}="{escape(key)}" content="{escape(value)}">' for attr, key, value in tags]
    lines.append(f'<meta name="description" content="{escape(tags[3][2])}">')
    return Markup("\n  ".join(lines))


def register(app: Flask) -> None:
    app.add_template_global(preview_meta, "preview_meta")
    app.add_template_global(plain, "preview_text")
