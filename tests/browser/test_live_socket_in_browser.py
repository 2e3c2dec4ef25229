"""A live page's socket in Chromium (static/js/live_socket.js): it drops while the site has news
for it, connects again by itself, and the page then shows what it missed, without a reload. The
socket runs through the test as through a network: the test cuts it (what the site sends
meanwhile is lost), then closes it as a restarting server does (1012, "service restart").

Run with ``pytest -m browser tests/browser``; the site runs in its own processes (see conftest).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Site, Tab, open_tab
from .helpers import STEP_MS, make_arena, register, start_game, wait_for_bot_passes

pytestmark = pytest.mark.browser

SERVICE_RESTART = 1012  # a close code after which htmx's websocket extension connects again


class Line:
    """The sockets of ``page`` whose address matches ``address``, passed on to the site."""

    def __init__(self, page: Any, address: str) -> None:
        self.page = page
        self.cut = False
        self.lost = 0  # what the site sent while the line was cut
        self.open: list[tuple[Any, Any]] = []  # (the page's side, the site's side)
        page.route_web_socket(re.compile(address), self._connect)

    def _connect(self, socket: Any) -> None:
        site = socket.connect_to_server()
        site.on_message(lambda message: self._from_site(socket, message))
        self.open.append((socket, site))

    def _from_site(self, socket: Any, message: str | bytes) -> None:
        if self.cut:
            self.lost += 1
        else:
            socket.send(message)

    def drop_while(self, news: Callable[[], None]) -> None:
        """Cut the line, let ``news`` happen and its message be lost, then close the socket:
        the page connects again."""
        opens = self.page.evaluate("() => window.__wsOpens")
        self.cut = True
        news()
        _until(self.page, lambda: self.lost > 0)
        for socket, site in self.open:
            site.close()
            socket.close(code=SERVICE_RESTART, reason="restart")
        self.open.clear()
        self.cut = False
        self.page.wait_for_function("(n) => window.__wsOpens > n", arg=opens, timeout=STEP_MS)


def _until(page: Any, done: Callable[[], bool]) -> None:
    """Until ``done()``: waiting on ``page`` lets Playwright hand the test the sockets' news."""
    deadline = time.monotonic() + STEP_MS / 1000
    while not done():
        assert time.monotonic() < deadline, "not there in time"
        page.wait_for_timeout(100)


def test_the_queue_page_shows_who_joined_while_its_socket_was_down(
    browser: Any, live_site: str, tab: Tab
) -> None:
    alice = tab.page
    register(tab)
    with open_tab(browser, live_site) as bob:
        register(bob)

        def join(page: Any) -> None:
            page.goto("/queue/")
            # A queue of their own: nobody else here waits for five players of the Club's rules.
            page.get_by_label("Rule set and table size").select_option("club-5")
            page.get_by_role("button", name="Join the rated queue").click()
            page.locator("#queue-waiting").wait_for()

        line = Line(alice, r"/ws/queue/")
        join(alice)
        alice.wait_for_function("() => window.__wsOpens > 0", timeout=STEP_MS)
        waiting = alice.locator("#queue-waiting")
        expect(waiting).to_have_text("You are the only one waiting in this queue so far.")

        line.drop_while(lambda: join(bob.page))
        expect(waiting).to_have_text("2 people are waiting in this queue, you included.")
        for page in (alice, bob.page):
            page.get_by_role("button", name="Leave the queue").click()
            page.wait_for_url(re.compile(r"/$"))
        assert tab.errors == [] and bob.errors == [], tab.errors + bob.errors


def test_an_arena_page_shows_the_standings_it_missed_while_its_socket_was_down(
    site: Site, browser: Any, live_site: str, tab: Tab
) -> None:
    url = make_arena(site, browser, live_site, "Arena of the dropped socket")
    watcher = tab.page
    line = Line(watcher, r"/ws/arena/")
    watcher.goto(url)
    watcher.wait_for_function("() => window.__wsOpens > 0", timeout=STEP_MS)
    expect(watcher.locator("#arena-live")).to_contain_text("No one has joined yet.")

    with open_tab(browser, live_site) as alice:
        name = register(alice)

        def join() -> None:
            alice.page.goto(url)
            alice.page.get_by_role("button", name="Join").click()
            alice.page.get_by_text("You are in.").wait_for()

        line.drop_while(join)
        standings = watcher.locator("#arena-live table.standings")
        expect(standings.get_by_role("link", name=name)).to_be_visible()
        # The page as it came keeps working: its clock still counts.
        clock = watcher.locator("#arena-clock time.countdown")
        expect(clock).to_have_text(re.compile(r"^\d+:\d\d$"))
        assert tab.errors == [] and alice.errors == [], tab.errors + alice.errors


def test_the_lobby_shows_a_table_started_while_its_socket_was_down(
    browser: Any, live_site: str, tab: Tab
) -> None:
    lobby = tab.page
    line = Line(lobby, r"/ws/lobby/")
    lobby.goto("/")
    lobby.wait_for_function("() => window.__wsOpens > 0", timeout=STEP_MS)

    with open_tab(browser, live_site) as bob:
        name = register(bob)
        line.drop_while(lambda: start_game(bob))
        expect(lobby.locator("#table-list")).to_contain_text(f"{name}\u2019s table")
        assert tab.errors == [] and bob.errors == [], tab.errors + bob.errors


def test_a_table_page_shows_the_chat_message_it_missed_while_its_socket_was_down(
    tab: Tab,
) -> None:
    register(tab)
    start_game(tab)
    wait_for_bot_passes(tab.page)  # then the table waits for its player: its version stays
    # The same person's second page at the table: what one page says, the other shows.
    other = tab.page.context.new_page()
    line = Line(other, r"/ws/table/")
    other.goto(tab.page.url)
    other.wait_for_function("() => window.__wsOpens > 0", timeout=STEP_MS)

    def say() -> None:
        box = tab.page.locator("#chat-input")
        box.fill("Back in a minute")
        box.press("Enter")
        expect(tab.page.locator("#chat .chat-text")).to_have_text(["Back in a minute"])

    version = other.locator("#board-state").get_attribute("data-version")
    line.drop_while(say)
    expect(other.locator("#chat .chat-text")).to_have_text(["Back in a minute"])
    assert other.locator("#board-state").get_attribute("data-version") == version
    assert tab.errors == [], tab.errors
