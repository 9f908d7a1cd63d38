"""What keeping the site offline costs a phone: the size kept and the time to keep it, in Chromium.

Serves the app as users run it (production defaults, werkzeug in a thread like the browser tests), opens
the home page in a fresh Chromium context and waits until the service worker has kept every page of
/offline.json. Prints the pages and bytes kept (the service worker's own count, and Chromium's
`navigator.storage.estimate()` for the site's Cache Storage) and the time from the first page to "kept":

  - on the loopback network, the server cold (its first visitor: library rulings drawn once each);
  - on a throttled connection, 1.6 Mbps down, 0.75 Mbps up, 150 ms latency (Chromium's network
    emulation, `Network.emulateNetworkConditions`, applied to the service worker's own target as soon
    as it starts: the page's emulation does not reach the worker's requests), the server warm.

    .venv/bin/python bench/offline_keep.py [--runs N]
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from live import CHROMIUM, CHROMIUM_ARGS, serving

from judge.web import create_app

THROTTLE = {"offline": False, "latency": 150, "downloadThroughput": 1.6e6 / 8, "uploadThroughput": 0.75e6 / 8}
KEPT = """async () => {
    const hit = await (await caches.open('codex-judge-meta')).match('/offline/kept.json');
    const want = document.getElementById('offline-control').dataset.version;
    const record = hit ? await hit.json() : null;
    return record && record.key === want ? record : null;
}"""
PROBE = ("(async () => { const t = performance.now(); "
         "const r = await fetch('/offline/search.json', {cache: 'no-store'}); "
         "const n = (await r.arrayBuffer()).byteLength; return [performance.now() - t, n]; })()")


class WorkerThrottle:
    """Chromium's network emulation on every service worker target, from the moment it is created."""

    def __init__(self, browser) -> None:
        self.cdp = browser.new_browser_cdp_session()
        self.replies: dict[int, dict] = {}
        self.session: str | None = None
        self.cdp.on("Target.targetCreated", self.created)
        self.cdp.on("Target.receivedMessageFromTarget", self.received)
        self.cdp.send("Target.setDiscoverTargets", {"discover": True})

    def created(self, event: dict) -> None:
        info = event["targetInfo"]
        if info["type"] != "service_worker":
            return
        attached = self.cdp.send("Target.attachToTarget", {"targetId": info["targetId"], "flatten": False})
        self.session = attached["sessionId"]
        self.message(1, "Network.enable", {})
        self.message(2, "Network.emulateNetworkConditions", THROTTLE)

    def message(self, n: int, method: str, params: dict) -> None:
        message = json.dumps({"id": n, "method": method, "params": params})
        self.cdp.send("Target.sendMessageToTarget", {"sessionId": self.session, "message": message})

    def received(self, event: dict) -> None:
        message = json.loads(event["message"])
        if "id" in message:
            self.replies[message["id"]] = message

    def probe(self, page) -> list[float] | None:
        """Time one fetch of the offline search data (78 KB compressed) from inside the worker."""
        if self.session is None:
            return None
        params = {"expression": PROBE, "awaitPromise": True, "returnByValue": True}
        self.message(3, "Runtime.evaluate", params)
        for _ in range(100):
            if 3 in self.replies:
                return self.replies[3].get("result", {}).get("result", {}).get("value")
            page.wait_for_timeout(100)
        return None


def keep_once(browser, url: str, throttled: bool) -> dict:
    throttle = WorkerThrottle(browser) if throttled else None
    context = browser.new_context()
    page = context.new_page()
    started = time.perf_counter()
    page.goto(url + "/")
    probe = None
    record = None
    while record is None:
        if throttle is not None and probe is None and throttle.session is not None:
            probe = throttle.probe(page)
        page.wait_for_timeout(250)
        record = page.evaluate(KEPT)
        assert time.perf_counter() - started < 900, "not kept within 15 minutes"
    seconds = time.perf_counter() - started
    usage = page.evaluate("navigator.storage.estimate()")
    context.close()
    return {"seconds": seconds, "pages": record["pages"], "bytes": record["bytes"],
            "caches": usage.get("usageDetails", {}).get("caches"), "probe": probe,
            "throttle_applied": bool(throttle and throttle.replies.get(2, {}).get("result") == {})}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1, help="throttled keeps to time (median, p95)")
    args = parser.parse_args()
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    instance = Path(tempfile.mkdtemp(prefix="offline-keep-"))
    app = create_app({"DATABASE": str(instance / "rulings.sqlite3"), "INDEX_DIR": str(instance / "index")})
    from playwright.sync_api import sync_playwright

    with serving(app, "offline-keep") as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        cold = keep_once(browser, url, throttled=False)
        print(f"kept: {cold['pages']} pages, {cold['bytes'] / 1048576:.2f} MB compressed "
              f"(Cache Storage as Chromium counts it: {cold['caches'] / 1048576:.2f} MB); bound 5 MB")
        print(f"first keep, loopback, cold server: {cold['seconds']:.1f} s")
        runs = [keep_once(browser, url, throttled=True) for _ in range(args.runs)]
        times = sorted(r["seconds"] for r in runs)
        p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
        probe = runs[0]["probe"]
        print(f"keep at 1.6 Mbps / 150 ms, warm server: median {statistics.median(times):.1f} s, "
              f"p95 {p95:.1f} s ({len(times)} run{'s' if len(times) > 1 else ''}; emulation on the worker: "
              f"{'yes' if all(r['throttle_applied'] for r in runs) else 'NOT CONFIRMED'}"
              + (f", one 78 KB fetch from the worker took {probe[0]:.0f} ms" if probe else "") + ")")
        browser.close()
    threading.Event().wait(0.1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
