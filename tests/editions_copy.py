"""Codex editions for tests: a temporary copy of codex/ made the codex root (nothing is written into
codex/), and the test-only edition 0.4.1 of tests/fixtures/codex-0.4.1 imported into it."""

from __future__ import annotations

import shutil
from pathlib import Path

from judge import CODEX_DIR, ROOT
from judge.cli import main
from judge.codex.editions import ENV

FIXTURE = ROOT / "tests" / "fixtures" / "codex-0.4.1"


def copy_editions(folder: Path, monkeypatch) -> Path:
    """codex/'s editions copied under `folder`, and made the codex root for this test."""
    root = folder / "codex"
    root.mkdir()
    shutil.copy2(CODEX_DIR / "editions.yaml", root / "editions.yaml")
    shutil.copytree(CODEX_DIR / "editions", root / "editions")
    monkeypatch.setenv(ENV, str(root))
    return root


def import_fixture(current: bool = True) -> None:
    """`judge import-codex --edition 0.4.1` from the fixture's pages (made current unless told)."""
    pages = sorted(str(p) for p in FIXTURE.iterdir() if p.suffix in {".txt", ".yaml"})
    assert main(["import-codex", "--edition", "0.4.1", *(["--current"] if current else []), *pages]) == 0
