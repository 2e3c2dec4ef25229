"""Coming back to a game in a real browser: while a player's game runs, the header and the lobby
lead back to it, and Play now takes them back there (saying so) instead of dealing another.

Run with ``pytest -m browser tests/browser``; the site runs in its own processes (see conftest).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import Tab
from .helpers import STEP_MS, pass_and_resign, register, start_game

pytestmark = pytest.mark.browser

SCREENSHOT = "/tmp/hearts-browser-your-game.png"


def test_a_player_finds_their_way_back_to_their_game(tab: Tab) -> None:
    page = tab.page
    register(tab)
    start_game(tab)
    table_url = page.url
    header = page.get_by_role("navigation", name="Site")

    page.goto("/")
    your_game = header.get_by_role("link", name="Your game")
    expect(your_game).to_be_visible()
    page.screenshot(path=SCREENSHOT)
    page.get_by_role("link", name="Back to your game").click()
    page.wait_for_url(table_url)

    page.goto("/")
    page.get_by_role("button", name="Play now against three bots").click()
    page.wait_for_url(table_url)
    expect(page.get_by_text("You are in the middle of a game, so here it is.")).to_be_visible()

    page.goto("/games/")
    header.get_by_role("link", name="Your game").click()
    page.wait_for_url(table_url)
    page.locator("#board").wait_for()
    page.wait_for_function("() => window.__wsOpens > 0", timeout=STEP_MS)

    pass_and_resign(page)
    page.goto("/")
    expect(header.get_by_role("link", name="Your game")).to_have_count(0)
    expect(page.get_by_role("link", name="Back to your game")).to_have_count(0)
    page.get_by_role("button", name="Play now against three bots").click()
    page.wait_for_url(re.compile(r"/t/\d+/"))
    assert page.url != table_url  # a new game, now that the first is over
    assert tab.errors == []
