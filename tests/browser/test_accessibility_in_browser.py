"""axe-core (from npm) finds no serious or critical violation on the site's pages, at a desktop's
1280x800 and a phone's 360x740, for a new visitor and for a signed-in player: the lobby, a
table waiting for players and one in play against the bots, a finished game's page and its
replay, the deal check, a profile, and the pages around them; and no page scrolls sideways.

Run with ``pytest -m browser tests/browser``; the site runs in its own processes (see conftest).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from .axe import describe, serious_violations
from .conftest import Site, Tab, open_tab
from .helpers import (
    STEP_MS,
    TABLE_STATE,
    hand_cards,
    pass_and_resign,
    register,
    run_in_site,
    start_game,
    unfold_new_table,
    wait_for_bot_passes,
)

pytestmark = pytest.mark.browser

SCREENSHOTS = Path("/tmp/hearts-browser-accessibility")
VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 360, "height": 740}}

# Two rated games of four people, played out in the site's own database the way the ratings'
# tests play them, so that a profile has its rating chart and the leaderboard its rows.
RATED_PLAYERS = ("annika", "bertil", "cecily", "dorian")
RATED_GAMES = f"""
import django
django.setup()
from tests.helpers.finishing import play_out, start
from tests.helpers.tables import people
players = people(*{RATED_PLAYERS!r})
for number in (1, 2):
    play_out(start(players), number)
"""


@dataclass(frozen=True)
class FinishedGame:
    username: str
    table_url: str
    game_url: str
    waiting_table_url: str  # another table of theirs, waiting for players


@pytest.fixture(scope="module")
def finished_game(browser: Any, live_site: str) -> Iterator[FinishedGame]:
    """A game a new player resigned after passing: over, with a page, a replay and a check;
    and a table of theirs still waiting for players."""
    with open_tab(browser, live_site) as tab:
        page = tab.page
        username = register(tab)
        unfold_new_table(page)
        page.get_by_role("button", name="Create table").click()
        page.wait_for_url(re.compile(r"/t/\d+/"))
        waiting_table_url = page.url
        page.goto("/")
        start_game(tab)
        table_url = page.url
        pass_and_resign(page)
        page.goto(f"/games/?player={username}")
        game_url = page.locator("a[href^='/g/']").first.get_attribute("href")
        assert game_url is not None
        yield FinishedGame(username, table_url, game_url, waiting_table_url)


@pytest.fixture(scope="module")
def rated_player(site: Site) -> str:
    """The name of a player with two rated games, whose profile shows a rating chart."""
    run_in_site(site, RATED_GAMES)
    return RATED_PLAYERS[0]


@pytest.fixture(params=list(VIEWPORTS))
def viewport(tab: Tab, request: pytest.FixtureRequest) -> str:
    """The tab's page at a desktop's or a phone's size, by name."""
    name: str = request.param
    tab.page.set_viewport_size(VIEWPORTS[name])
    # Many pages are loaded one after another here, on a machine that may be busy.
    tab.page.set_default_navigation_timeout(STEP_MS)
    return name


class Findings:
    """What axe found on each page looked at, kept so that one run reports every page."""

    def __init__(self, tab: Tab, who: str, viewport: str) -> None:
        self.page = tab.page
        self.shots = f"{who}-{{}}-{viewport}.png"
        self.found: dict[str, list[dict[str, Any]]] = {}

    def check(self, name: str) -> None:
        self.page.wait_for_load_state("load", timeout=STEP_MS)
        self.found[name] = serious_violations(self.page)
        # Reflow (WCAG 1.4.10), which axe does not check: no page scrolls sideways on a phone.
        width, shown = self.page.evaluate(
            "() => [document.documentElement.scrollWidth, window.innerWidth]"
        )
        if width > shown:
            self.found[name].append(
                {"impact": "serious", "id": "reflow", "help": f"{width} px wide", "targets": []}
            )
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SCREENSHOTS / self.shots.format(name)), full_page=True)

    def visit(self, name: str, url: str) -> None:
        self.page.goto(url)
        self.check(name)

    def assert_none(self) -> None:
        assert len(self.found) > 0
        report = {name: describe(found) for name, found in self.found.items() if found}
        assert report == {}, "\n".join(f"{name}:\n{text}" for name, text in report.items())


def _step_the_replay_to_its_end(page: Any) -> None:
    page.locator("#replay-step").wait_for(timeout=STEP_MS)
    first = page.locator("#replay-step").get_attribute("data-step")
    page.locator("#replay-step").focus()
    page.keyboard.press("End")
    page.wait_for_function(
        "first => document.getElementById('replay-step').dataset.step !== first",
        arg=first,
        timeout=STEP_MS,
    )


def test_axe_runs_under_the_sites_policy_and_finds_what_is_wrong(tab: Tab) -> None:
    page = tab.page
    page.goto("/")
    assert serious_violations(page) == []
    # A button with no name and a field with no label, as a careless template might add them.
    page.evaluate(
        """() => {
          const main = document.getElementById("content");
          main.append(document.createElement("button"), document.createElement("input"));
        }"""
    )
    found = {violation["id"]: violation for violation in serious_violations(page)}
    assert {"button-name", "label"} <= set(found), describe(list(found.values()))
    [target] = found["button-name"]["targets"]
    assert page.locator(target).evaluate("el => el.parentElement.id") == "content"


def test_a_new_visitor_meets_no_serious_accessibility_violation(
    tab: Tab, viewport: str, finished_game: FinishedGame, rated_player: str
) -> None:
    findings = Findings(tab, "visitor", viewport)
    findings.visit("lobby", "/")
    findings.visit("sign-in", "/accounts/login/")
    findings.visit("register", "/accounts/register/")
    findings.visit("finished-table", finished_game.table_url)
    findings.visit("waiting-table", finished_game.waiting_table_url)
    assert tab.page.get_by_text("to take a seat").is_visible()
    findings.visit("game", finished_game.game_url)
    _step_the_replay_to_its_end(tab.page)
    findings.check("replay-end")
    findings.visit("verify", finished_game.game_url + "verify/")
    findings.visit("verify-form", "/verify/")
    findings.visit("profile", f"/u/{finished_game.username}/")
    tab.page.goto(f"/u/{rated_player}/")
    # The ratings are worked out after the game, by the worker.
    tab.page.locator(".rating-chart").wait_for(timeout=STEP_MS)
    findings.check("rated-profile")
    findings.visit("games", "/games/")
    findings.visit("ratings", "/ratings/")
    findings.visit("learn", "/learn/")
    # The hourly arena of the site's schedule, made by beat's first sweep.
    findings.visit("arenas", "/arenas/")
    arena_url = tab.page.locator(".arena-list a").first.get_attribute("href")
    assert arena_url is not None
    findings.visit("arena", arena_url)
    findings.visit("not-found", "/no-such-page/")
    findings.assert_none()
    # The missing page's own 404 is the one error the browser logs.
    assert [error for error in tab.errors if "404" not in error] == []


def test_a_signed_in_player_meets_no_serious_accessibility_violation(
    tab: Tab, viewport: str, finished_game: FinishedGame
) -> None:
    page = tab.page
    username = register(tab)
    findings = Findings(tab, "player", viewport)
    findings.check("lobby")

    findings.visit("queue-join", "/queue/")
    # A queue of its own: nobody else here waits for six players of the Encyclopedia.
    page.get_by_label("Rule set and table size").select_option("encyclopedia-6")
    page.get_by_role("button", name="Join the rated queue").click()
    page.locator("#queue-waiting").wait_for()
    findings.check("queue-waiting")
    page.get_by_role("button", name="Leave the queue").click()
    page.wait_for_url(re.compile(r"/$"))

    unfold_new_table(page)
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url(re.compile(r"/t/\d+/"))
    page.wait_for_function("() => window.__wsMessages > 0", timeout=STEP_MS)
    findings.check("waiting-table")

    page.goto("/")
    start_game(tab)
    page.locator("#pass-button").wait_for(timeout=STEP_MS)
    wait_for_bot_passes(page)
    for card in hand_cards(page)[:3]:
        page.locator(f'#hand .card[data-card="{card}"]').click()
    # The pass button, now enabled, fades to its colours in 0.15 s: check what a person sees
    # once it has, not a colour halfway.
    page.wait_for_function(
        """() => {
          const button = document.getElementById("pass-button");
          return button && !button.disabled && button.getAnimations().length === 0;
        }""",
        timeout=STEP_MS,
    )
    findings.check("passing-table")
    page.locator("#pass-button").click()
    state = page.wait_for_function(TABLE_STATE, timeout=STEP_MS).json_value()
    assert state == "play", state
    findings.check("playing-table")

    findings.visit("profile", f"/u/{username}/")
    findings.visit("others-profile", f"/u/{finished_game.username}/")
    findings.visit("game", finished_game.game_url)
    findings.visit("verify", finished_game.game_url + "verify/")
    findings.visit("password", "/accounts/password/")
    findings.visit("report-form", f"/reports/u/{finished_game.username}/")
    findings.visit("my-reports", "/reports/mine/")
    findings.visit("arenas", "/arenas/")
    page.locator(".arena-list a").first.click()
    page.get_by_role("button", name="Join").click()
    # Their game above is still on: the arena says so.
    page.get_by_text("You are playing a game elsewhere").wait_for()
    findings.check("arena-refused")
    findings.assert_none()
    assert tab.errors == [], "\n".join(tab.errors)
