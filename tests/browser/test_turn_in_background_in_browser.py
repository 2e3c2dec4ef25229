"""A turn that comes while the table's tab is in the background: the tab's title says "Your
turn" until the tab is looked at again, and a browser notification says it too once the player
has allowed it with the table's "Tell me when it's my turn" button.

The page is made to look hidden by an init script (helpers.HIDDEN_PAGE and show_tab), and
``window.Notification`` is replaced by one that records what it was asked to show and answers
the permission request with "granted", as a person would. The browser is one without service
workers (Firefox's private windows), so the page makes the notification itself; the way through
the service worker, as on a phone, is tests/browser/test_turn_notifications_in_browser.py.

Run with ``pytest -m browser tests/browser``; the site runs in its own processes (see conftest).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import INIT_SCRIPT, open_tab
from .helpers import HIDDEN_PAGE, STEP_MS, hand_cards, register, show_tab, start_game

pytestmark = pytest.mark.browser

SCREENSHOT = "/tmp/hearts-browser-turn-in-background.png"

HIDDEN_PAGE_AND_NOTIFICATIONS = (
    INIT_SCRIPT
    + HIDDEN_PAGE
    + """
delete Navigator.prototype.serviceWorker;
window.__permission = "default";
window.__notifications = [];
window.Notification = class extends EventTarget {
  constructor(title, options) {
    super();
    // As a browser does: nothing is shown before the permission is given.
    if (window.__permission !== "granted") return;
    window.__notifications.push({ title, body: (options && options.body) || "" });
  }
  static get permission() { return window.__permission; }
  static requestPermission() {
    window.__permission = "granted";
    return Promise.resolve("granted");
  }
  close() {}
};
"""
)


def test_a_turn_in_a_background_tab_shows_in_its_title_and_as_a_notification(
    browser: Any, live_site: str
) -> None:
    with open_tab(browser, live_site, init_script=HIDDEN_PAGE_AND_NOTIFICATIONS) as tab:
        page = tab.page
        register(tab)
        start_game(tab)
        title = page.title()
        assert not title.startswith("Your turn")

        ask = page.get_by_role(
            "button", name="Tell me when it\N{RIGHT SINGLE QUOTATION MARK}s my turn"
        )
        expect(ask).to_be_visible()
        ask.click()
        expect(ask).to_be_hidden()  # granted: nothing more to ask

        # Our pass is due (the page showed it when it loaded): we pass, and look away.
        page.locator("#pass-button").wait_for(timeout=STEP_MS)
        for card in hand_cards(page)[:3]:
            page.locator(f'#hand .card[data-card="{card}"]').click()
        show_tab(page, hidden=True)
        page.locator("#pass-button").click()

        # The bots pass and play until the first trick comes to us.
        expect(page).to_have_title(re.compile(r"^Your turn · "), timeout=STEP_MS)
        assert page.title() == f"Your turn · {title}"
        notifications = page.evaluate("() => window.__notifications")
        assert notifications[0]["title"] == "Your turn at Hearts"
        assert re.fullmatch(r"Hand 1: your (lead|turn \(\w+ led\))\.", notifications[0]["body"])
        page.screenshot(path=SCREENSHOT)

        show_tab(page, hidden=False)
        expect(page).to_have_title(title)

        page.once("dialog", lambda dialog: dialog.accept())
        page.locator("#resign-button").click()
        page.locator(".result").wait_for(timeout=STEP_MS)
        assert tab.errors == []


def test_nothing_is_asked_where_notifications_are_allowed_already(
    browser: Any, live_site: str
) -> None:
    granted = HIDDEN_PAGE_AND_NOTIFICATIONS + 'window.__permission = "granted";\n'
    with open_tab(browser, live_site, init_script=granted) as tab:
        page = tab.page
        register(tab)
        start_game(tab)

        page.locator("#pass-button").wait_for(timeout=STEP_MS)
        expect(page.locator("#notify-button")).to_be_hidden()
        expect(page.locator("#mute-button")).to_be_visible()  # the other tools are there

        page.once("dialog", lambda dialog: dialog.accept())
        page.locator("#resign-button").click()
        page.locator(".result").wait_for(timeout=STEP_MS)
        assert page.evaluate("() => window.__notifications") == []  # nothing was hidden
