"""A finished game's replay in Chromium: the arrow keys, End and Home step through it without
leaving the page, every step is announced, the page fits a phone's width, and its address
always names the step on screen.

Run with ``pytest -m browser tests/browser``; the site runs in its own processes (see conftest).
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from .conftest import Tab
from .helpers import STEP_MS, pass_and_resign, register, start_game

pytestmark = pytest.mark.browser

SCREENSHOT = "/tmp/hearts-browser-replay.png"


def test_the_replay_steps_by_keyboard_and_fits_a_phone(tab: Tab) -> None:
    page = tab.page
    username = register(tab)
    start_game(tab)
    pass_and_resign(page)  # the game is over and its page public

    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"/games/?player={username}")
    page.locator("a[href^='/g/']").first.click()
    page.locator("#replay-step").wait_for(timeout=STEP_MS)
    page.wait_for_load_state("load")  # its script and htmx listen for the keys: not before
    first = _step(page)
    address = page.url.split("?")[0]

    page.keyboard.press("ArrowRight")
    _wait_step(page, f"step == {first + 1}")
    assert page.locator("#replay-announcer").inner_text().strip() != ""
    page.keyboard.press("End")
    _wait_step(page, f"step > {first + 1}")
    last = _step(page)
    page.keyboard.press("ArrowLeft")
    _wait_step(page, f"step == {last - 1}")
    page.keyboard.press("Home")
    _wait_step(page, f"step == {first}")
    assert page.url.split("?")[0] == address  # the same page, stepped in place

    # Every hand is face up once the game is over: four seats of cards in the replay.
    assert page.locator(".replay-seat").count() == 4
    width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the page scrolls sideways on a phone: {width}"
    page.screenshot(path=SCREENSHOT, full_page=True)
    assert tab.errors == [], "\n".join(tab.errors)


def _step(page: Any) -> int:
    return int(page.locator("#replay-step").get_attribute("data-step"))


def _wait_step(page: Any, condition: str) -> None:
    page.wait_for_function(
        "() => { const step = Number(document.getElementById('replay-step').dataset.step);"
        f" return {condition}; }}",
        timeout=STEP_MS,
    )


def test_the_replays_address_names_the_step_shown_and_reloading_it_shows_that_step(
    tab: Tab,
) -> None:
    page = tab.page
    username = register(tab)
    start_game(tab)
    pass_and_resign(page)
    page.goto(f"/games/?player={username}")
    page.locator("a[href^='/g/']").first.click()
    page.locator("#replay-step").wait_for(timeout=STEP_MS)
    page.wait_for_load_state("load")  # its script and htmx listen for the keys: not before

    def go(action: Any) -> None:
        before = _step(page)
        action()
        _wait_step(page, f"step != {before}")
        shown = _shown_step(page)
        assert _step_in_address(page) == shown, f"{page.url} while showing step {shown}"
        page.reload()
        page.locator("#replay-step").wait_for()
        assert _shown_step(page) == shown, f"{page.url} reloaded shows another step"

    nav = page.get_by_role("navigation", name="Replay steps")
    go(lambda: nav.get_by_role("link", name="Next").click())
    go(lambda: nav.get_by_role("link", name="Next").click())
    go(lambda: page.keyboard.press("ArrowRight"))
    go(lambda: nav.get_by_role("link", name="Previous").click())
    go(lambda: page.keyboard.press("End"))
    go(lambda: page.keyboard.press("ArrowLeft"))
    go(lambda: nav.get_by_role("link", name="First").click())
    go(lambda: nav.get_by_role("link", name="Last").click())
    page.get_by_label("Go to hand").select_option(label="Hand 1")
    go(lambda: page.get_by_role("button", name="Go").click())
    assert _shown_step(page) == 1
    assert tab.errors == [], "\n".join(tab.errors)


def _shown_step(page: Any) -> int:
    """The step the replay says it shows: "Step 5 of 40" is 5."""
    words = page.locator("#replay-step .step-count").inner_text()
    found = re.fullmatch(r"Step (\d+) of \d+", words.strip())
    assert found, words
    return int(found.group(1))


def _step_in_address(page: Any) -> int | None:
    steps = parse_qs(urlsplit(page.url).query).get("step")
    return int(steps[0]) if steps else None
