"""An arena in Chromium: staff make one in the admin that is already running; eight people join
it from its page (four on phones), and as soon as four are in, a rated table of theirs starts
and their pages go there: two tables. Two more pages watch the arena (one signed out, on a
phone). A player of the first table resigns: the standings move on both watching pages, and
the first table's four are taken back to the arena and seated together again at a new table.

Screenshots are saved under /tmp/hearts-arena/ for a person to look at.
"""

from __future__ import annotations

import re
import time
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from .conftest import Site, Tab, open_tab
from .helpers import register, staff_page

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/hearts-arena")
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}
SEATED_MS = 30_000  # a join, the worker's seating, the page going to its table


def _make_arena(site: Site, browser: Any, live_site: str) -> str:
    """The admin's form, filled as staff fill it: an arena that started a minute ago."""
    staff = staff_page(site, browser, live_site, viewport=LAPTOP)
    staff.goto("/admin/arenas/arena/add/")
    start = datetime.now(UTC) - timedelta(minutes=1)
    staff.get_by_label("Name").fill("Browser arena")
    staff.get_by_label("Preset").select_option("standard")
    staff.get_by_label("Players").fill("4")
    staff.locator("#id_starts_at_0").fill(start.strftime("%Y-%m-%d"))
    staff.locator("#id_starts_at_1").fill(start.strftime("%H:%M:%S"))
    staff.get_by_label("Minutes").fill("30")
    staff.locator("input[name=_save]").click()
    staff.wait_for_selector(".messagelist")
    staff.goto("/arenas/")
    link = staff.get_by_role("link", name="Browser arena").first
    href = link.get_attribute("href")
    assert href is not None
    staff.context.close()
    return href


def _points(page: Any) -> dict[str, tuple[str, str]]:
    """The standings on ``page``: name to (points, games)."""
    rows = page.locator("#arena-live table.standings tbody tr")
    found = {}
    for row in rows.all():
        name = row.locator("th a").inner_text()
        cells = row.locator("td").all_inner_texts()
        found[name] = (cells[2], cells[3])
    return found


AT_TABLE = re.compile(r"/t/\d+/$")


def _until(page: Any, done: Any) -> None:
    """Until ``done()``, or SEATED_MS: a page that goes from one address to the next is read
    by its address, since Playwright's wait for one navigation fails when another begins.
    (Waiting on ``page`` lets Playwright hear every page's news meanwhile.)"""
    deadline = time.monotonic() + SEATED_MS / 1000
    while not done():
        assert time.monotonic() < deadline, "not there in time"
        page.wait_for_timeout(250)


def _resign(page: Any) -> None:
    page.wait_for_selector("#resign-button")
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#resign-button").click()
    page.locator(".result").wait_for()
    assert page.get_by_role("link", name="Back to the arena").is_visible()
    assert page.get_by_role("button", name="Rematch").count() == 0


def _wait_for_games(page: Any, names: list[str], games: str) -> None:
    """Until the standings on ``page`` show each of ``names`` with ``games`` games."""
    page.wait_for_function(
        """([names, games]) => names.every((name) => {
          const row = [...document.querySelectorAll('#arena-live tbody tr')]
            .find((tr) => tr.querySelector('th a').textContent === name);
          return row && row.querySelectorAll('td')[3].textContent.trim() === games;
        })""",
        arg=[names, games],
        timeout=SEATED_MS,
    )


def test_eight_people_join_two_tables_start_a_result_moves_the_standings_and_they_sit_again(
    site: Site, browser: Any, live_site: str
) -> None:
    url = _make_arena(site, browser, live_site)
    with ExitStack() as stack:

        def tab(viewport: dict[str, int]) -> Tab:
            return stack.enter_context(open_tab(browser, live_site, viewport=viewport))

        watcher, phone_watcher = tab(LAPTOP), tab(PHONE)
        for page in (watcher.page, phone_watcher.page):
            page.goto(url)
            page.wait_for_selector("#arena-live")
        players: list[tuple[str, Tab]] = []
        for number in range(8):
            person = tab(PHONE if number % 2 else LAPTOP)
            name = register(person)
            person.page.goto(url)
            person.page.get_by_role("button", name="Join").click()
            # Told they are in, or (the fourth of a group, seated at once) already at a table.
            person.page.wait_for_function(
                "() => /\\/t\\/\\d+\\/$/.test(location.pathname)"
                " || document.body.innerText.includes('You are in')"
            )
            players.append((name, person))
        _until(watcher.page, lambda: all(AT_TABLE.search(person.page.url) for _, person in players))
        tables = {person.page.url for _, person in players}
        assert len(tables) == 2
        SHOTS.mkdir(exist_ok=True)
        watcher.page.wait_for_function(
            "() => document.querySelectorAll('.arena-games li').length === 2"
        )
        watcher.page.screenshot(path=str(SHOTS / "laptop-two-tables.png"), full_page=True)
        phone_watcher.page.screenshot(path=str(SHOTS / "phone-two-tables.png"), full_page=True)

        first_url = players[0][1].page.url
        first = [(name, person) for name, person in players if person.page.url == first_url]
        second = [(name, person) for name, person in players if person.page.url != first_url]
        assert len(first) == 4 and len(second) == 4
        _resign(first[0][1].page)
        first[0][1].page.screenshot(path=str(SHOTS / "table-over.png"), full_page=True)

        # Both watching pages: the first table's four have played a game, the one who resigned
        # placed last with no points; nobody reloaded.
        for page in (watcher.page, phone_watcher.page):
            _wait_for_games(page, [name for name, _ in first], "1")
            shown = _points(page)
            assert shown[first[0][0]] == ("0", "1")
            assert all(float(shown[name][0]) > 0 for name, _ in first[1:])
        watcher.page.screenshot(path=str(SHOTS / "laptop-standings.png"), full_page=True)
        phone_watcher.page.screenshot(path=str(SHOTS / "phone-standings.png"), full_page=True)

        # A resignation that leaves a rated game counts as leaving it (fairplay/): the two who
        # resigned are barred from rated tables for a while. The six others go back to the arena by themselves, and four
        # of them are seated again at a new table.
        _resign(second[0][1].page)
        quitters = [first[0], second[0]]
        others = [*first[1:], *second[1:]]
        old = {first_url, second[0][1].page.url}

        def seated_again() -> list[Tab]:
            return [p for _, p in others if "/t/" in p.page.url and p.page.url not in old]

        _until(watcher.page, lambda: len(seated_again()) >= 4)
        seated = seated_again()
        assert len(seated) == 4 and len({p.page.url for p in seated}) == 1
        # Barred from rated tables, the two who resigned are never at the new table.
        assert all(person.page.url != seated[0].page.url for _, person in quitters)
        watcher.page.wait_for_function(
            "() => document.querySelectorAll('.arena-games li').length === 1"
        )
        watcher.page.screenshot(path=str(SHOTS / "laptop-seated-again.png"), full_page=True)
        for _, person in [*players, ("", watcher), ("", phone_watcher)]:
            assert person.errors == [], "\n".join(person.errors)
