"""The rated queue in real browsers: eight people, each in a browser of their own, join it from
the lobby; two rated tables of four people start, and every page is taken to its table."""

from __future__ import annotations

import re
from contextlib import ExitStack
from typing import Any

import pytest

from .conftest import Tab, open_tab
from .helpers import STEP_MS, register

pytestmark = pytest.mark.browser

PEOPLE = 8


def join_from_the_lobby(tab: Tab) -> None:
    page = tab.page
    page.goto("/")
    panel = page.get_by_role("region", name="Play rated")
    assert panel.get_by_label("Rule set and table size").input_value() == "standard-4"
    panel.get_by_role("button", name="Join the rated queue").click()
    # The queue's page says they wait; for the one who makes a table's four, the sweep may seat
    # them before that page is drawn, and it sends them to their table instead.
    page.wait_for_url(re.compile(r"/queue/$|/t/\d+/$"))
    waiting = page.get_by_role("heading", name="Waiting for a rated table: Standard, 4 players")
    waiting.or_(page.locator("#board")).first.wait_for()


def test_eight_people_in_the_queue_start_two_rated_tables_each_at_exactly_one(
    browser: Any, live_site: str
) -> None:
    with ExitStack() as stack:
        tabs = [
            stack.enter_context(
                open_tab(browser, live_site, viewport={"width": 1000, "height": 700})
            )
            for _ in range(PEOPLE)
        ]
        names = [register(tab) for tab in tabs]
        for tab in tabs:
            join_from_the_lobby(tab)
        tables: dict[str, list[str]] = {}
        for tab, name in zip(tabs, names, strict=True):
            page = tab.page
            page.wait_for_url(re.compile(r"/t/\d+/$"), timeout=STEP_MS)
            page.locator("#board").wait_for()
            heading = page.locator("h1").inner_text()
            assert "rated" in heading and "unless" not in heading, heading
            seated = page.locator("#seats .seat").evaluate_all(
                "seats => seats.map(seat => seat.dataset.name)"
            )
            assert name in seated, (name, seated)
            assert tables.setdefault(page.url, seated) == seated  # all four see the same four
            assert tab.errors == [], tab.errors
        assert len(tables) == 2, tables
        everyone = sorted(name for seated in tables.values() for name in seated)
        assert everyone == sorted(names), tables  # each at exactly one of them
