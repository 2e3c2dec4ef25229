"""The bot's review in a real browser: a person finishes a game against the bots, follows
"Review this game" from the table's result, asks for the review, sees its progress, and then
the figures, the chart and the bot's choice beside the move in the replay, on a phone's width
(360 px) and a desktop's.

Run with ``pytest -m browser tests/browser``; the site runs in its own processes (see conftest).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import Tab
from .helpers import STEP_MS, pass_and_resign, register, start_game

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/hearts-browser-review")


def test_a_person_reviews_their_game_and_reads_it_on_a_phone_and_a_desktop(tab: Tab) -> None:
    page = tab.page
    SHOTS.mkdir(parents=True, exist_ok=True)
    register(tab)
    start_game(tab)
    pass_and_resign(page)

    page.locator(".result").get_by_role("link", name="Review this game").click()
    page.wait_for_url("**/g/*/#review")
    page.get_by_role("button", name="Review this game").click()
    # Its progress, until the page reloads with the review made.
    page.locator("#review-status").wait_for(timeout=STEP_MS)
    page.locator(".review-chart").wait_for(timeout=60_000)
    assert page.locator("#review-status").count() == 0

    table = page.locator(".review-table")
    assert table.get_by_role("rowheader").count() == 1  # the bots' seats are not reviewed
    assert page.get_by_role("img", name="Points lost to the choices").count() == 1
    marks = page.locator(".review-marks li")
    if marks.count():
        marks.first.get_by_role("link").click()
    else:
        assert page.get_by_text("No choice cost a point or more.").is_visible()
        # Step on until the person's pass is made (the bots may pass first).
        for _ in range(6):
            if page.locator(".verdict").count():
                break
            shown = page.locator(".step-count").inner_text()
            page.get_by_role("link", name="Next", exact=True).first.click()
            page.wait_for_function(
                "shown => document.querySelector('.step-count').textContent !== shown", arg=shown
            )
    verdict = page.locator(".verdict")
    verdict.wait_for(timeout=STEP_MS)
    assert "bot" in verdict.inner_text()

    for name, size in (
        ("phone", {"width": 360, "height": 780}),
        ("desktop", {"width": 1280, "height": 900}),
    ):
        page.set_viewport_size(size)
        page.locator("#review").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"review-{name}.png"), full_page=True)
        chart = page.locator(".review-chart").bounding_box()
        assert chart is not None and chart["width"] <= size["width"]
        wider = page.evaluate("() => document.documentElement.scrollWidth > window.innerWidth")
        assert not wider, f"the page is wider than the {name}'s screen"
