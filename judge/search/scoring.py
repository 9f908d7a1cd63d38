"""Scores: BM25F with one rarity per word, worked out for every (field, term, document) when the index
is built, so that answering a query adds numbers from memory instead of walking Whoosh's matchers.

Every part of a document's score for one term — the word's rarity, its frequency (the `names` field's
boost included) and the field's length against the average — is fixed once the index is written; only
the sum over the query's terms depends on the query. `term_scores` asks Whoosh itself for each
posting's score when the index is built (so both agree to the last bit), and `Scores.evaluate` sums
them for a query tree of terms, ORs and ANDs, as Whoosh's matchers do. A query with anything else in it
(a phrase, NOT, ANDNOT, ANDMAYBE) gets `None`, and the searcher asks Whoosh.
"""

from __future__ import annotations

from typing import Any

from whoosh.query import And, Or, Query, Term
from whoosh.scoring import BM25F

FILE = "scores.json"


class SharedIdf(BM25F):
    """BM25F, but every field weighs a word by its rarity in the text field.

    Per-field IDF would make "soul" rare in the short `names` field (few entries are named after
    it) and let the glossary entry Soul win every question that mentions a Soul."""

    def scorer(self, searcher: Any, fieldname: str, text: bytes, qf: int = 1) -> Any:
        scorer = super().scorer(searcher, fieldname, text, qf=qf)
        if fieldname != "text" and hasattr(scorer, "idf"):
            parent = searcher.get_parent()
            if parent.doc_frequency("text", text):
                scorer.idf = parent.idf("text", text)
        return scorer


def term_scores(ix: Any, fields: tuple[str, ...]) -> dict[str, dict[str, list[list[float]]]]:
    """{field: {term: [[docnum, …], [score, …]]}}: each posting's score as Whoosh gives it."""
    out: dict[str, dict[str, list[list[float]]]] = {}
    with ix.searcher(weighting=SharedIdf()) as searcher:
        for field in fields:
            per: dict[str, list[list[float]]] = {}
            for raw in searcher.reader().lexicon(field):
                text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
                matcher = Term(field, text).matcher(searcher, searcher.context())
                docs: list[float] = []
                scores: list[float] = []
                while matcher.is_active():
                    docs.append(matcher.id())
                    scores.append(matcher.score())
                    matcher.next()
                per[text] = [docs, scores]
            out[field] = per
    return out


class Scores:
    """The precomputed scores of one build, and the sum for a query."""

    def __init__(self, stored: dict[str, dict[str, list[list[float]]]]) -> None:
        self.postings: dict[str, dict[str, dict[int, float]]] = {
            field: {term: dict(zip((int(d) for d in docs), scores, strict=True))
                    for term, (docs, scores) in per.items()}
            for field, per in stored.items()
        }

    def evaluate(self, q: Query) -> dict[int, float] | None:
        """Document number -> score for a tree of Term, Or and And (boosts applied), as Whoosh sums
        them; None when the tree holds any other kind of query."""
        if type(q) is Term:
            found = self.postings.get(q.fieldname, {}).get(_text(q.text), {})
            return {n: s * q.boost for n, s in found.items()} if q.boost != 1.0 else found
        if type(q) is Or:
            total: dict[int, float] = {}
            for child in q.subqueries:
                part = self.evaluate(child)
                if part is None:
                    return None
                for n, s in part.items():
                    total[n] = total.get(n, 0.0) + s
            return _boosted(total, q.boost)
        if type(q) is And:
            parts = []
            for child in q.subqueries:
                part = self.evaluate(child)
                if part is None:
                    return None
                parts.append(part)
            if not parts:
                return {}
            common = set(parts[0]).intersection(*parts[1:])
            return _boosted({n: sum(part[n] for part in parts) for n in common}, q.boost)
        return None


def _boosted(scores: dict[int, float], boost: float) -> dict[int, float]:
    return scores if boost == 1.0 else {n: s * boost for n, s in scores.items()}


def _text(term: str | bytes) -> str:
    return term.decode("utf-8") if isinstance(term, bytes) else term
