"""The app served for real on 127.0.0.1 (a free port) in a thread, for the browser and API tests.

werkzeug's development server leaves the app's answer unclosed when a client drops the connection
(its clean-up reads the socket before it closes the answer, and the read raises), so a static file
stays open until garbage collection, which the suite's warnings-as-errors reports at random. Each
answer is therefore read whole and closed by the app before it is sent: nothing is left open.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from werkzeug.serving import make_server

from judge.web.fast_reads import read_whole

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def answered_whole(wsgi_app: Any) -> Any:
    def app(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        return [read_whole(wsgi_app(environ, start_response))]
    return app


@contextmanager
def serving(app: Any, name: str) -> Iterator[str]:
    """Serve `app` in a thread named `name`; yields its base URL, and stops it afterwards."""
    server = make_server("127.0.0.1", 0, answered_whole(app), threaded=True)
    thread = threading.Thread(target=server.serve_forever, name=name, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=5)
        server.server_close()
