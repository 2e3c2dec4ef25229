"""A ban in a real browser: staff ban a player through the admin while the player sits at a
live table; the player's socket is closed, their page reloads and says they are banned and
why, and their game has ended as their resignation.

Run with ``pytest -m browser tests/browser``; the site runs in its own processes (see conftest).
"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Site, Tab
from .helpers import register, sign_in_to_admin, staff_member, start_game

pytestmark = pytest.mark.browser

SCREENSHOT = "/tmp/hearts-browser-banned.png"


def test_a_player_banned_in_the_admin_sees_why_at_once_at_the_table(
    tab: Tab, site: Site, browser: Any, live_site: str
) -> None:
    player = register(tab)
    start_game(tab)
    table_url = tab.page.url
    username, password = staff_member(site)
    staff = browser.new_context(base_url=live_site).new_page()

    sign_in_to_admin(staff, username, password)
    staff.goto(f"/admin/auth/user/?q={player}")
    staff.locator("#result_list tbody tr", has_text=player).locator("input.action-select").check()
    staff.locator("select[name=action]").select_option("ban")
    staff.get_by_role("button", name="Go").click()
    staff.get_by_label("Reason (shown to the person)").fill("Abuse at the table")
    staff.get_by_label("Note for staff (never shown to the person)").fill("(reported by ella)")
    staff.locator("input[type=submit]").click()
    staff.wait_for_selector(".messagelist")

    # The player did nothing: the closed socket reloads their page, which tells them.
    tab.page.wait_for_selector("text=Abuse at the table", timeout=15_000)
    told = tab.page.inner_text("main")
    assert "banned" in told.lower() and "ella" not in told
    tab.page.screenshot(path=SCREENSHOT, full_page=True)
    staff.goto(table_url)
    staff.wait_for_selector("text=The game is over.")
    assert f"{player}" in staff.inner_text("#result") and "resigned" in staff.inner_text("#result")
    staff.context.close()
