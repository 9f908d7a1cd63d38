"""Highlighted snippets from character spans computed when the index is built.

For each document, the build stores where each indexed term of its text sits (`term -> [[start,
end], …]`, synonym tokens included, so "Shield" is marked for a search on DEF). A snippet is then
a window of the text around the densest cluster of matched terms, escaped, with each match in
<mark>…</mark>: no re-analysis of the text at query time.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from html import escape

from judge.search import analysis


def term_spans(text: str, ana: analysis.CompositeAnalyzer) -> dict[str, list[list[int]]]:
    spans: dict[str, list[list[int]]] = {}
    for token in ana(text, mode="index", chars=True):
        spans.setdefault(token.text, []).append([token.startchar, token.endchar])
    return spans


def snippet(text: str, spans: Mapping[str, Sequence[Sequence[int]]], terms: Iterable[str],
            width: int = 240, lead: int = 60) -> str:
    """`text` cut to about `width` characters around the matches of `terms`, as safe HTML."""
    found = sorted({(s, e, term) for term in terms for s, e in spans.get(term, ())})
    # Keep the longest match at each start, and drop matches inside an earlier one.
    marks: list[tuple[int, int, str]] = []
    for start, end, term in sorted(found, key=lambda m: (m[0], -(m[1] - m[0]))):
        if marks and start < marks[-1][1]:
            continue
        marks.append((start, end, term))
    lo, hi = _window(text, marks, width, lead)
    out = ["…" if lo > 0 else ""]
    cursor = lo
    for start, end, _ in marks:
        if start < lo or end > hi:
            continue
        out.append(escape(text[cursor:start], quote=False))
        out.append("<mark>" + escape(text[start:end], quote=False) + "</mark>")
        cursor = end
    out.append(escape(text[cursor:hi], quote=False))
    out.append("…" if hi < len(text) else "")
    return "".join(out)


def _window(text: str, marks: list[tuple[int, int, str]], width: int, lead: int) -> tuple[int, int]:
    """The stretch of about `width` characters that holds the most distinct matched terms."""
    if len(text) <= width:
        return 0, len(text)
    best = (0, -len(text), 0)   # (distinct terms, -start, matches): the most terms, as early as possible
    start_at = 0
    for anchor, _, _ in marks:
        lo = max(0, min(anchor - lead, len(text) - width))
        inside = [m for m in marks if m[0] >= lo and m[1] <= lo + width]
        score = (len({m[2] for m in inside}), -lo, len(inside))
        if score > best:
            best, start_at = score, lo
    lo = start_at
    if len({m[2] for m in marks if m[1] <= width - 20}) >= best[0]:   # as good from the start
        lo = 0
    if lo > 0:   # back to the start of the word, so no match is cut
        lo = text.rfind(" ", 0, lo) + 1
    hi = min(len(text), lo + width)
    if hi < len(text):
        space = text.rfind(" ", lo, hi)
        hi = space if space > lo + width // 2 else hi
    return lo, hi
