"""The lobby in Chromium at 1280 and 360 px: its ways to play (Play now, the rated queue, an
arena) side by side on a laptop and one above the other on a phone, and its count of games
running and its featured game changing live, on both screens, as a game starts; its list of
tables read word by word on both (on a phone each table a block, no word split in a column).

Run with ``pytest -m browser tests/browser``; the site runs in its own processes (see conftest).
"""

from __future__ import annotations

import re
import time
from contextlib import ExitStack
from itertools import pairwise
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Site, Tab, open_tab
from .helpers import STEP_MS, broken_words, make_arena, register, run_in_site, start_game

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}
SHOTS = {"laptop": "/tmp/lobby_1280.png", "phone": "/tmp/lobby_360.png"}

# A strong rating in the site's own database for the person named, so that their game is the
# best-rated one running whatever other tests left running.
STRONG = """
import sys, django
django.setup()
from django.contrib.auth.models import User
from ratings.models import Rating
user = User.objects.get(username=sys.argv[1])
Rating.objects.update_or_create(user=user, defaults={"mu": 90.0, "sigma": 1.0, "games": 40})
"""

# How many games the site's database holds running: the truth the lobby's count follows.
RUNNING = """
import django
django.setup()
from games.selectors import games_running
print(games_running())
"""


def _ways_to_play(page: Any) -> list[dict[str, float]]:
    """The boxes of the ways to play, as the screen lays them out."""
    boxes: list[dict[str, float]] = page.locator("#ways-to-play > *").evaluate_all(
        "boxes => boxes.map(box => box.getBoundingClientRect().toJSON())"
    )
    return boxes


def _games_running(page: Any) -> int:
    found = re.search(r"(\d+) games? running", page.locator("#lobby-counts").inner_text())
    assert found, page.locator("#lobby-counts").inner_text()
    return int(found.group(1))


def _counts_follow_the_site(site: Site, page: Any) -> None:
    """Wait until the lobby shows as many games running as the site's database holds. Other
    tests' games start and end meanwhile on the same site, so the count is compared with the
    database's at the same moment rather than with a number read before."""
    deadline = time.monotonic() + STEP_MS / 1000
    while True:
        truth = run_in_site(site, RUNNING).strip()
        shown = _games_running(page)
        if shown == int(truth):
            return
        assert time.monotonic() < deadline, f"the lobby shows {shown}, the site runs {truth}"
        time.sleep(0.5)


def test_the_ways_to_play_sit_in_a_row_or_a_column_and_the_counts_follow_a_game_starting(
    site: Site, browser: Any, live_site: str
) -> None:
    make_arena(site, browser, live_site, "Lobby arena")  # the third way to play
    with ExitStack() as stack:
        screens: dict[str, Tab] = {
            name: stack.enter_context(open_tab(browser, live_site, viewport=viewport))
            for name, viewport in (("laptop", LAPTOP), ("phone", PHONE))
        }
        for tab in screens.values():
            register(tab)
            tab.page.wait_for_function("() => window.__wsOpens > 0", timeout=STEP_MS)

        laptop, phone = _ways_to_play(screens["laptop"].page), _ways_to_play(screens["phone"].page)
        assert len(laptop) == len(phone) == 3
        assert {round(box["top"]) for box in laptop} == {round(laptop[0]["top"])}, laptop
        assert laptop[0]["right"] <= laptop[1]["left"] and laptop[1]["right"] <= laptop[2]["left"]
        for above, below in pairwise(phone):
            assert below["top"] >= above["bottom"], phone
            assert below["right"] <= PHONE["width"], phone

        with open_tab(browser, live_site) as bob:
            name = register(bob)
            run_in_site(site, STRONG, name)
            start_game(bob)
            for tab in screens.values():
                counts, featured = (
                    tab.page.locator("#lobby-counts"),
                    tab.page.locator("#featured-game"),
                )
                expect(featured).to_contain_text(f"{name} and 3 bots", timeout=STEP_MS)
                expect(counts).to_contain_text("running")
                _counts_follow_the_site(site, tab.page)
                expect(featured.get_by_role("link")).to_have_attribute(
                    "href", re.compile(r"/t/\d+/")
                )
                # The list of tables reads word by word on both screens: none split in two.
                expect(tab.page.locator("#table-list")).to_contain_text(name)
                assert broken_words(tab.page, "#table-list") == []
        for which, tab in screens.items():
            tab.page.screenshot(path=SHOTS[which], full_page=True)
            assert tab.errors == [], tab.errors
