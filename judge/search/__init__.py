"""Search over the Codex: a Whoosh index of rules, examples, section titles and glossary entries.

    from judge.search import ensure_index, search, suggest
    ensure_index("instance/index")            # builds when missing or stale (content hash)
    result = search("instance/index", "unyeilding", page=1)
    result.redirect, result.suggestion, result.total, result.hits
    suggest("instance/index", "shi")          # at most 8 {id, title, kind, parent}

Modules: `analysis` (tokens, stems, synonyms), `sources` (document sources registry), `store`
(build, staleness, atomic publish), `query` (pre-processing, parsing, spelling), `searching`
(ranking, snippets, pages), `cli` (`judge index`). Documents are named by id and kind; the web
builds their URLs (`judge.web.links.doc_url`).
"""

from __future__ import annotations

from pathlib import Path

from judge.search.query import QueryError
from judge.search.searching import Hit, Searcher, SearchResult, searcher
from judge.search.sources import CodexSource, Source
from judge.search.store import BuildInfo, ensure, is_stale

__all__ = ["BuildInfo", "Hit", "QueryError", "SearchResult", "Searcher", "edition_sources", "ensure_index",
           "is_stale", "search", "searcher", "suggest"]


def ensure_index(index_dir: str | Path, force: bool = False,
                 sources: list[Source] | None = None) -> BuildInfo:
    """Build the index into `index_dir` unless a fresh one is there (or `force`); of `sources`
    (default: every registered source)."""
    return ensure(index_dir, sources=sources, force=force)


def edition_sources(version: str) -> list[Source]:
    """What the index of one Codex edition other than the current one holds: that edition's Codex."""
    return [CodexSource(edition=version)]


def search(index_dir: str | Path, q: object, page: int = 1, pagelen: int = 10) -> SearchResult:
    """Search the index; raises QueryError for an empty or over-long query."""
    return searcher(index_dir).search(q, page=page, pagelen=pagelen)


def suggest(index_dir: str | Path, q: object, limit: int = 8) -> list[dict[str, str]]:
    return searcher(index_dir).suggest(q, limit=limit)
