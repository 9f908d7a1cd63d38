"""Shared fixtures: an app on a temporary instance folder, and its in-process client."""

from __future__ import annotations

import pytest

from judge.web import create_app


@pytest.fixture(scope="session")
def app(tmp_path_factory):
    instance = tmp_path_factory.mktemp("instance")
    app = create_app({
        "TESTING": True,
        "DATABASE": str(instance / "rulings.sqlite3"),
        "INDEX_DIR": str(instance / "index"),
    })
    return app


@pytest.fixture()
def client(app):
    return app.test_client()
