"""The header on a phone (360x740): one line, the site's name, "Your game" when there is one
and a Menu button, a real disclosure (aria-expanded) that opens the other links by mouse,
touch or keyboard and closes with Escape; on a desktop every link shows and there is no button.

Run with ``pytest -m browser tests/browser``; the site runs in its own processes (see conftest).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import Site, Tab
from .helpers import register, run_in_site, start_game

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/hearts-browser-header")
ONE_LINE_PX = 64  # the name's line with its padding and the border under it


def _header_height(tab: Tab) -> float:
    return float(
        tab.page.locator(".site-header").evaluate("el => el.getBoundingClientRect().height")
    )


def test_on_a_phone_the_header_is_one_line_with_a_menu_button(tab: Tab) -> None:
    page = tab.page
    register(tab)
    start_game(tab)  # so that "Your game" is in the header
    page.goto("/")
    page.set_viewport_size({"width": 360, "height": 740})
    header = page.locator(".site-header")
    button = header.get_by_role("button", name="Menu")
    assert button.get_attribute("aria-expanded") == "false"
    assert header.get_by_role("link", name="Your game").is_visible()
    assert not header.get_by_role("link", name="Arenas").is_visible()
    assert _header_height(tab) <= ONE_LINE_PX, _header_height(tab)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "phone-closed.png"))

    button.click()
    assert button.get_attribute("aria-expanded") == "true"
    assert header.get_by_role("link", name="Arenas").is_visible()
    assert header.get_by_role("button", name="Sign out").is_visible()
    page.screenshot(path=str(SHOTS / "phone-open.png"))
    page.keyboard.press("Escape")
    assert button.get_attribute("aria-expanded") == "false"
    assert button.evaluate("el => el === document.activeElement")

    page.keyboard.press("Enter")  # the button has the focus: the keyboard opens it too
    assert button.get_attribute("aria-expanded") == "true"
    page.keyboard.press("Tab")
    focused = page.evaluate("() => document.activeElement.textContent.trim()")
    assert focused, "the first link of the open menu takes the focus next"
    width, shown = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    assert width <= shown
    assert tab.errors == [], "\n".join(tab.errors)


def test_on_a_desktop_every_link_shows_and_there_is_no_menu_button(tab: Tab) -> None:
    page = tab.page
    page.goto("/")
    header = page.locator(".site-header")
    assert not header.get_by_role("button", name="Menu").is_visible()
    for name in ("Games", "Ratings", "Arenas", "Learn", "Sign in", "Register"):
        assert header.get_by_role("link", name=name).is_visible(), name
    assert _header_height(tab) <= ONE_LINE_PX


def _pages_without_parameters() -> list[str]:
    """Every page of the site's URL configuration that needs no value in its path."""
    from django.urls import reverse

    from tests.helpers.pages import parameters, site_patterns

    return sorted(
        reverse(pattern.name)
        for pattern in site_patterns()
        if pattern.name and not parameters(pattern)
    )


# A rated game of four people whose names are as long as a name may be (20), so that the
# leaderboard and the lists of games have their longest rows.
LONG_NAMES = tuple(letter * 20 for letter in "wxyz")
LONG_NAMED_GAME = f"""
import django
django.setup()
from tests.helpers.finishing import play_out, start
from tests.helpers.tables import people
play_out(start(people(*{LONG_NAMES!r})), 1)
"""


@pytest.fixture(scope="module")
def long_named_players(site: Site) -> None:
    run_in_site(site, LONG_NAMED_GAME)


@pytest.mark.parametrize("who", ["visitor", "player"])
def test_on_a_phone_no_page_scrolls_sideways_and_every_header_is_one_line(
    tab: Tab, who: str, long_named_players: None
) -> None:
    """Every page that needs no value in its path, for a visitor and for a signed-in player,
    with four players of the longest names rated (the pages with a value in their path, a
    table, a game, a profile, are walked by the accessibility test)."""
    page = tab.page
    if who == "player":
        register(tab)
    page.set_viewport_size({"width": 360, "height": 740})
    looked_at, wide, tall = [], {}, {}
    for path in _pages_without_parameters():
        # Asked first with the tab's cookies, so that only pages are opened in the tab: not a
        # POST-only address's 405, the JavaScript catalog, a download, ...
        answer = page.request.get(path, max_redirects=0)
        if answer.status != 200 or "text/html" not in answer.headers.get("content-type", ""):
            continue
        page.goto(path)
        looked_at.append(path)
        width, shown = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
        if width > shown:
            wide[path] = width
        header = page.locator(".site-header")
        if header.count() and _header_height(tab) > ONE_LINE_PX:
            tall[path] = _header_height(tab)
    assert len(looked_at) >= 10, looked_at
    assert wide == {}, wide
    assert tall == {}, tall
