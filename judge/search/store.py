"""Building the index on disk, safely, and knowing when it is stale.

Layout of the index folder (app config `INDEX_DIR`, default `instance/index`, env `JUDGE_INDEX`):

    index/
      .lock                  flock'd while a process checks or builds
      current -> build-…     symlink to the live build, swapped atomically (os.replace)
      build-<hash>-<pid>/    the Whoosh index, plus meta.json, lookup.json and scores.json (each
                             posting's score, so a query is answered by sums from memory)

A build is written into a fresh folder and published by replacing the `current` symlink, so a reader
never sees half an index, and two gunicorn workers starting together build once: the second waits
for the lock, then finds the index fresh. `meta.json` holds the content hash of the data files the
sources read (and the schema version): the index is stale when that hash changes.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import logging
import os
import shutil
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from whoosh import index as whoosh_index
from whoosh.fields import ID, NUMERIC, STORED, TEXT, Schema

from judge.search import analysis, export, query, ranking, scoring, snippets
from judge.search.ranking import NAMES_BOOST
from judge.search.sources import SOURCES, Source

SCHEMA_VERSION = "17"
log = logging.getLogger(__name__)
KEEP_BUILDS = 2


@dataclass(frozen=True)
class BuildInfo:
    path: Path
    data_hash: str
    documents: int
    kinds: dict[str, int]
    seconds: float
    built: bool


def make_schema(groups: dict[str, list[str]]) -> Schema:
    ana = analysis.analyzer(groups)
    return Schema(
        id=ID(stored=True, unique=True),
        kind=ID(stored=True),
        chapter=ID(stored=True),
        parent=ID(stored=True),
        order=NUMERIC(stored=True, sortable=True),
        names=TEXT(analyzer=ana, chars=True, field_boost=NAMES_BOOST),
        title=STORED(),
        text=TEXT(analyzer=ana, stored=True, chars=True),
        section=STORED(),
    )


def data_hash(sources: Sequence[Source] | None = None) -> str:
    """Content hash of every data file the sources read, with the schema version."""
    digest = hashlib.sha256(f"schema {SCHEMA_VERSION}\n".encode())
    for source in SOURCES if sources is None else sources:
        digest.update(f"source {source.name}\n".encode())
        for path in source.files():
            digest.update(f"{path.name}\n".encode())
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def current_build(index_dir: str | os.PathLike) -> Path | None:
    """The live build folder, or None when there is none (or it is unreadable)."""
    link = Path(index_dir) / "current"
    try:
        target = link.resolve(strict=True)
    except (OSError, RuntimeError):
        return None
    return target if (target / "meta.json").is_file() else None


def read_meta(build: Path) -> dict[str, Any]:
    try:
        return json.loads((build / "meta.json").read_text())
    except (OSError, ValueError):
        return {}


def is_stale(index_dir: str | os.PathLike, sources: Sequence[Source] | None = None) -> bool:
    build = current_build(index_dir)
    return build is None or read_meta(build).get("hash") != data_hash(sources) or verify(build) is not None


def _file_digests(build: Path) -> dict[str, list]:
    """Every file of a build but meta.json: name → [size, sha256]."""
    return {p.name: [p.stat().st_size, hashlib.sha256(p.read_bytes()).hexdigest()]
            for p in sorted(build.iterdir()) if p.is_file() and p.name != "meta.json"}


def verify(build: Path, deep: bool = True) -> str | None:
    """None when the build is whole: every file recorded in meta.json is there with its size (and,
    when `deep`, its content hash), and nothing the index needs is missing; else what is wrong."""
    files = read_meta(build).get("files")
    if not isinstance(files, dict) or not files:
        return "the index records no file list (built by an older version or interrupted)"
    for name, (size, digest) in files.items():
        path = build / name
        try:
            if path.stat().st_size != size:
                return f"the index file {name} has the wrong size (corrupt or partial)"
        except OSError:
            return f"the index file {name} is missing"
        if deep and hashlib.sha256(path.read_bytes()).hexdigest() != digest:
            return f"the index file {name} is corrupt (its content changed)"
    return None


@contextmanager
def _locked(index_dir: Path) -> Iterator[None]:
    index_dir.mkdir(parents=True, exist_ok=True)
    with open(index_dir / ".lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def ensure(index_dir: str | os.PathLike, sources: Sequence[Source] | None = None,
           force: bool = False) -> BuildInfo:
    """Build the index unless it is fresh (or `force`). Safe to call from several processes at once."""
    index_dir = Path(index_dir)
    with _locked(index_dir):
        wanted = data_hash(sources)
        build = current_build(index_dir)
        if build is not None and not force:
            meta = read_meta(build)
            problem = verify(build) if meta.get("hash") == wanted else "stale"
            if problem is None:
                return BuildInfo(build, wanted, meta.get("documents", 0), meta.get("kinds", {}), 0.0, False)
            if problem != "stale":
                log.warning("rebuilding the search index in %s: %s", index_dir, problem)
        return _build(index_dir, SOURCES if sources is None else sources, wanted)


def _build(index_dir: Path, sources: Sequence[Source], wanted: str) -> BuildInfo:
    started = time.perf_counter()
    groups: dict[str, list[str]] = {}
    pages: set[str] = set()
    docs: list[dict[str, Any]] = []
    for source in sources:
        for slug, spellings in source.synonyms().items():
            groups.setdefault(slug, list(spellings))
        pages.update(getattr(source, "pages", tuple)())
        docs.extend(source.documents())

    target = index_dir / f"build-{wanted[:12]}-{os.getpid()}-{time.time_ns() % 10**6}"
    target.mkdir(parents=True)
    ix = whoosh_index.create_in(str(target), make_schema(groups))
    writer = ix.writer()
    seen: set[str] = set()
    for n, doc in enumerate(docs):
        if doc["id"] in seen:
            continue
        seen.add(doc["id"])
        writer.add_document(
            id=doc["id"], kind=doc["kind"], chapter=str(doc.get("chapter") or ""),
            parent=str(doc.get("parent") or ""), order=int(doc.get("order", n)),
            names=doc.get("names") or doc["title"], title=doc["title"], text=doc["text"],
            section=doc.get("section") or "",
        )
    writer.commit()
    scores = scoring.term_scores(ix, query.FIELDS)
    (target / scoring.FILE).write_text(json.dumps(scores, separators=(",", ":")))
    ix.close()

    kinds = Counter(doc["kind"] for doc in docs)
    lookup = _lookup(docs, groups, sorted(pages))
    (target / "lookup.json").write_text(json.dumps(lookup))
    (target / export.FILE).write_text(json.dumps(export.offline_document(docs, lookup, groups, {
        "kind_weight": ranking.KIND_WEIGHT, "few": ranking.FEW, "phrase_bonus": ranking.PHRASE_BONUS,
        "names_boost": ranking.NAMES_BOOST, "rule_pattern": query.RULE_PATTERN,
    }), separators=(",", ":")))
    (target / "meta.json").write_text(json.dumps({
        "hash": wanted, "schema": SCHEMA_VERSION, "documents": len(seen), "kinds": dict(kinds),
        "built": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "files": _file_digests(target),
    }))
    link = index_dir / f".current-{os.getpid()}"
    if link.is_symlink() or link.exists():
        link.unlink()
    link.symlink_to(target.name)
    os.replace(link, index_dir / "current")
    _prune(index_dir, keep=target)
    return BuildInfo(target, wanted, len(seen), dict(kinds), time.perf_counter() - started, True)


def _lookup(docs: list[dict[str, Any]], groups: dict[str, list[str]],
            pages: list[str]) -> dict[str, Any]:
    """What queries need besides the index: the vocabulary for did-you-mean, exact-name pins,
    rule numbers with a page, and the entries search-as-you-type offers."""
    vocab = _vocabulary(docs)
    pins = _pins(docs)
    suggest = [
        {"id": doc["id"], "title": doc["title"], "kind": doc["kind"], "parent": str(doc.get("parent") or ""),
         "names": [n.strip() for n in (doc.get("names") or doc["title"]).split(" ; ") if n.strip()]}
        for doc in docs if doc["kind"] in ("glossary", "section", "rule", "card")
    ]
    stems = sorted({stem for word in vocab for stem in analysis.stems(word)})
    ana = analysis.analyzer(groups)
    terms = {doc["id"]: sorted({t.text for part in (doc.get("names") or doc["title"], doc["text"])
                                for t in ana(part, mode="index", chars=True)})
             for doc in docs}
    spans = {doc["id"]: snippets.term_spans(doc["text"], ana) for doc in docs}
    defines = {doc["id"]: list(doc["defines"]) for doc in docs if doc.get("defines")}
    return {
        "vocab": dict(vocab),
        "stems": stems,
        "pins": pins,
        "defines": defines,
        "terms": terms,
        "spans": spans,
        "pages": pages,
        "suggest": suggest,
        "groups": groups,
    }


def _vocabulary(docs: list[dict[str, Any]]) -> Counter[str]:
    """Every word of the documents (titles, names, texts) and how often, for did-you-mean."""
    vocab: Counter[str] = Counter()
    for doc in docs:
        for part in (doc["title"], doc.get("names") or "", doc["text"]):
            vocab.update(word for word in analysis.words(part)
                         if word.isalpha() and word not in analysis.STOP_WORDS)
    return vocab


def _pins(docs: list[dict[str, Any]]) -> dict[str, str]:
    """Each glossary entry's spellings (term and aliases, stemmed) to its id: an exact name pins it."""
    pins: dict[str, str] = {}
    for doc in docs:
        if doc["kind"] != "glossary":
            continue
        for spelling in [doc["title"], *(doc.get("names") or "").split(" ; ")]:
            key = " ".join(analysis.stems(spelling))
            if key:
                pins.setdefault(key, doc["id"])
    return pins


def _prune(index_dir: Path, keep: Path) -> None:
    """Delete old builds, keeping the newest few (a worker may still read the previous one)."""
    builds = sorted((p for p in index_dir.glob("build-*") if p.is_dir() and p != keep),
                    key=lambda p: p.stat().st_mtime, reverse=True)
    for old in builds[KEEP_BUILDS - 1:]:
        shutil.rmtree(old, ignore_errors=True)
