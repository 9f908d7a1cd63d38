"""Bytes and first paint of three pages on a phone on a slow link: `/`, a rule page and a permalink.

    .venv/bin/python bench/phone.py [--runs 5]

The app is served on a loopback port (its production defaults; rate limits off, and the service
worker that keeps the whole site offline not offered, as its downloads would share the link with
the next visit) and Debian's Chromium,
driven by pip's Playwright, opens each page as a first visit (a fresh browser context, caches off) on
a phone's screen with the link emulated through the DevTools protocol: 1.6 Mbps down, 750 kbps up,
150 ms round trip. Printed per page (medians over the runs): the bytes that crossed the link (headers
and bodies, as sent: compressed or not), the requests made, first paint and first contentful paint,
and the page's own answer (its HTML) in bytes. Run it on an older checkout (copy this file there) for
the "before".
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from live import CHROMIUM, CHROMIUM_ARGS, serving

from judge import SCENARIOS_DIR
from judge.engine import safe_load
from judge.web import create_app

PERMALINK_FROM = SCENARIOS_DIR / "13-static-and-unyielding" / "noah-vs-chrome-chains.yaml"
LINK = {"offline": False, "latency": 150, "downloadThroughput": 1_600_000 / 8,
        "uploadThroughput": 750_000 / 8}
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3, "is_mobile": True,
         "has_touch": True,
         "user_agent": ("Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) "
                        "Chrome/120.0 Mobile Safari/537.36")}


def visit(browser: Any, url: str) -> dict[str, float]:
    """One first visit: bytes over the link, requests, the document's bytes, first (contentful) paint."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    cdp.send("Network.emulateNetworkConditions", LINK)
    sizes: dict[str, float] = {}
    document: dict[str, str] = {}

    def response(event: dict[str, Any]) -> None:
        if event.get("type") == "Document" and not document:
            document["id"] = event["requestId"]

    cdp.on("Network.responseReceived", response)
    cdp.on("Network.loadingFinished", lambda e: sizes.__setitem__(e["requestId"], e["encodedDataLength"]))
    page.goto(url, wait_until="load")
    page.wait_for_timeout(300)
    paints = page.evaluate("Object.fromEntries(performance.getEntriesByType('paint')"
                           ".map(p => [p.name, p.startTime]))")
    context.close()
    return {"bytes": sum(sizes.values()), "requests": len(sizes),
            "document": sizes.get(document.get("id", ""), 0.0),
            "first paint": paints.get("first-paint", float("nan")),
            "first contentful paint": paints.get("first-contentful-paint", float("nan"))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    print(f"load average {Path('/proc/loadavg').read_text().split()[0]}; code of {ROOT}")
    with tempfile.TemporaryDirectory() as tmp:
        logging.getLogger("werkzeug").setLevel(logging.ERROR)
        app = create_app({"RATELIMIT_ENABLED": False, "JUDGE_OFFLINE": False,
                          "DATABASE": str(Path(tmp) / "rulings.sqlite3"),
                          "INDEX_DIR": str(Path(tmp) / "index")})
        saved = app.test_client().post("/api/v1/rulings", json=safe_load(PERMALINK_FROM.read_text()))
        if saved.status_code != 201:
            raise SystemExit(f"could not save the permalink's ruling: {saved.status_code} "
                             f"{saved.data[:300]!r}")
        pages = {"/": "/", "rule 11.5.1": "/rules/11.5.1", "permalink": f"/r/{saved.get_json()['id']}"}
        with serving(app, "phone-bench") as base, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for path in pages.values():                # warm the server (its page cache, the library)
                visit(browser, base + path)
            results: dict[str, list[dict[str, float]]] = {name: [] for name in pages}
            for _ in range(args.runs):
                for name, path in pages.items():
                    results[name].append(visit(browser, base + path))
            browser.close()
    print(f"phone: 390x844, link {LINK['downloadThroughput'] * 8 / 1e6:.1f} Mbps down, "
          f"{LINK['latency']} ms round trip; medians of {args.runs} first visits")
    for name, runs in results.items():
        med = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
        print(f"{name:<12} {med['bytes'] / 1024:7.1f} KB over the link in {med['requests']:.0f} requests "
              f"(the page itself {med['document'] / 1024:6.1f} KB)   "
              f"first paint {med['first paint']:6.0f} ms   "
              f"first contentful paint {med['first contentful paint']:6.0f} ms")


if __name__ == "__main__":
    main()
