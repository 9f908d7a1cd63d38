"""The desk as the browser tests open and wait for it (one copy for every desk test file)."""

from __future__ import annotations


def open_desk(page, live_server, width=1280, height=800):
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{live_server}/desk")
    page.wait_for_selector("#desk[data-ready='1']")


def settled(page):
    """What can happen next, for the board as it is now (not a redraw still on its way)."""
    page.locator("#next-actions:not([aria-busy]) .next-action").first.wait_for()


def slot(page, ref):
    return page.locator(f'#board g[data-ref="{ref}"]')
