"""Staff in a real browser: sign in to the admin, find a finished game, void it through the
action with a reason, and see it marked void on the game's page. Every admin page on the way
(sign-in, list, the void form, the game's read-only page) works under the site's
Content-Security-Policy: the browser reports no violation of it.

Run with ``pytest -m browser tests/browser``; the site runs in its own processes (see conftest).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from .conftest import Site, Tab
from .helpers import pass_and_resign, register, sign_in_to_admin, staff_member, start_game

pytestmark = pytest.mark.browser

SCREENSHOT = "/tmp/hearts-browser-admin.png"
# Every violation of the policy, as the page's own event reports it, from before its scripts run.
CSP_WATCH = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", event => {
  window.__cspViolations.push(`${event.violatedDirective} blocked ${event.blockedURI}`);
});
"""


def _finished_game(tab: Tab) -> tuple[str, int]:
    """A new player's game against the bots, over (they resign): their name and the game's id."""
    page = tab.page
    player = register(tab)
    start_game(tab)
    pass_and_resign(page)
    href = page.get_by_role("link", name="Replay this game and download its record")
    found = re.search(r"/g/(\d+)/", href.get_attribute("href") or "")
    assert found, "the finished table links to its game's page"
    return player, int(found.group(1))


def _csp_violations(page: Any, console: list[str]) -> list[str]:
    return [*console, *page.evaluate("() => window.__cspViolations")]


def test_staff_void_a_finished_game_in_the_admin_under_the_content_security_policy(
    tab: Tab, site: Site
) -> None:
    page = tab.page
    page.context.add_init_script(CSP_WATCH)
    console: list[str] = []
    page.on(
        "console",
        lambda message: (
            console.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    player, game_id = _finished_game(tab)
    username, password = staff_member(site)
    page.context.clear_cookies()

    sign_in_to_admin(page, username, password)
    assert _csp_violations(page, console) == []

    page.locator("#games-game").get_by_role("link", name="Games").click()
    page.wait_for_url("**/admin/games/game/")
    page.locator("#searchbar").fill(player)
    page.locator("#changelist-search").get_by_role("button", name="Search").click()
    page.wait_for_url(f"**/admin/games/game/?q={player}")
    row = page.locator("#result_list tbody tr", has_text=player)
    row.wait_for()
    assert row.count() == 1
    row.locator("input.action-select").check()
    # actions.js (the admin's own script) counts the selection: it ran under the policy.
    assert page.locator(".action-counter").inner_text().startswith("1 of 1 selected")
    page.locator("select[name=action]").select_option("void_games")
    page.get_by_role("button", name="Go").click()

    page.wait_for_selector("body.void-games")
    assert f"Game {game_id}" in page.locator(".void-games-list").inner_text()
    page.get_by_label("Reason:").fill("A test of the admin in the browser")
    page.get_by_role("button", name="Void 1 game").click()

    page.wait_for_url("**/admin/games/game/**")
    assert (
        f"Game {game_id} is void; the ratings are recomputed."
        in page.locator(".messagelist").inner_text()
    )
    assert _csp_violations(page, console) == []

    page.goto(f"/admin/games/game/{game_id}/change/")
    assert page.locator("input[name=_save]").count() == 0
    assert page.locator(".field-void img[alt=True]").count() == 1
    page.get_by_role("link", name="Page and replay").click()
    page.wait_for_url(f"**/g/{game_id}/")
    assert "Void: not rated." in page.locator(".void-notice").inner_text()
    page.screenshot(path=SCREENSHOT, full_page=True)
    assert _csp_violations(page, console) == []
    # The admin's pages name no icon, so the browser asks for /favicon.ico, which is not there.
    errors = [error for error in tab.errors if "/favicon.ico" not in error]
    assert errors == [], "\n".join(errors)
