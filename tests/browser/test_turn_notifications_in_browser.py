"""The turn's notification as a phone shows it: through the site's service worker
(static/js/service_worker.js), which Chrome on Android requires, since it refuses
``new Notification()``. The browser context has the notifications permission, as after a
"Tell me when it's my turn" a person allowed; the tab is sent to the background as in
test_turn_in_background_in_browser.py (helpers.HIDDEN_PAGE and show_tab).

The button is offered only where a notification could then be shown: not without the
Notification API, nor outside a secure context, nor where neither a service worker nor the
page's own constructor can show one.

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

# The turn notifications the service worker shows, as the page's own registration lists them.
SHOWN = """() => navigator.serviceWorker.ready
  .then(registration => registration.getNotifications({ tag: "hearts-turn" }))
  .then(shown => shown.map(n => ({ title: n.title, body: n.body, url: n.data && n.data.url })))"""

# A constructor that throws, as Chrome on Android's does.
THROWING_CONSTRUCTOR = """
window.Notification = class {
  constructor() { throw new TypeError("Illegal constructor"); }
  static get permission() { return "default"; }
  static requestPermission() { return Promise.resolve("default"); }
};
"""
NO_SERVICE_WORKER = "delete Navigator.prototype.serviceWorker;\n"

# What a browser has, and whether the button is offered in it.
BROWSERS = {
    "this Chromium: a service worker and a working constructor": ("", True),
    "Chrome on Android": (THROWING_CONSTRUCTOR, True),
    "Firefox's private windows": (NO_SERVICE_WORKER, True),
    "neither way to show one": (NO_SERVICE_WORKER + THROWING_CONSTRUCTOR, False),
    "no Notification API": ("delete window.Notification;\n", False),
    "not a secure context": (
        'Object.defineProperty(window, "isSecureContext", { value: false });\n',
        False,
    ),
}


def _resign(page: Any) -> None:
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#resign-button").click()
    page.locator(".result").wait_for(timeout=STEP_MS)


def test_a_turn_in_a_background_tab_is_told_through_the_service_worker_until_looked_at(
    browser: Any, live_site: str
) -> None:
    with open_tab(browser, live_site, init_script=INIT_SCRIPT + HIDDEN_PAGE) as tab:
        page = tab.page
        page.context.grant_permissions(["notifications"], origin=live_site)
        register(tab)
        start_game(tab)
        title = page.title()

        # The table's page has the worker installed, for the whole site, and running.
        worker = page.evaluate(
            """() => navigator.serviceWorker.ready.then(registration => ({
              scope: registration.scope, state: registration.active.state,
              script: registration.active.scriptURL,
            }))"""
        )
        assert worker == {
            "scope": f"{live_site}/",
            "state": "activated",
            "script": f"{live_site}/service-worker.js",
        }
        expect(page.locator("#notify-button")).to_be_hidden()  # allowed already

        # We pass, look away, and the bots pass and play until the first trick comes to us.
        page.locator("#pass-button").wait_for(timeout=STEP_MS)
        for card in hand_cards(page)[:3]:
            page.locator(f'#hand .card[data-card="{card}"]').click()
        show_tab(page, hidden=True)
        page.locator("#pass-button").click()
        expect(page).to_have_title(f"Your turn · {title}", timeout=STEP_MS)

        page.wait_for_function(f"() => ({SHOWN})().then(shown => shown.length > 0)")
        [shown] = page.evaluate(SHOWN)
        assert shown["title"] == "Your turn at Hearts"
        assert re.fullmatch(r"Hand 1: your (lead|turn \(\w+ led\))\.", shown["body"])
        assert shown["url"] == page.url  # where a click on it takes the player back

        show_tab(page, hidden=False)
        expect(page).to_have_title(title)
        page.wait_for_function(f"() => ({SHOWN})().then(shown => shown.length === 0)")

        _resign(page)
        assert tab.errors == []  # the Content-Security-Policy let the worker and manifest in


def test_the_site_can_be_installed_from_its_manifest(browser: Any, live_site: str) -> None:
    with open_tab(browser, live_site) as tab:
        page = tab.page
        page.goto("/")
        cdp = page.context.new_cdp_session(page)

        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"] == f"{live_site}/manifest.webmanifest"
        assert manifest["errors"] == []
        # Chrome names every reason it would not offer to install the site: here only that
        # Playwright's browsing contexts are private ones, which no app is installed from.
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert [error["errorId"] for error in errors if error["errorId"] != "in-incognito"] == []
        assert tab.errors == []


def test_the_button_is_offered_only_where_a_notification_could_be_shown(
    browser: Any, live_site: str
) -> None:
    with open_tab(browser, live_site) as tab:
        register(tab)
        start_game(tab)
        table = tab.page.url

        # The same player's table again, each time in a page made to look like another browser.
        offered = {}
        for name, (script, _) in BROWSERS.items():
            page = tab.page.context.new_page()
            page.on("pageerror", lambda error: tab.errors.append(f"uncaught: {error}"))
            page.add_init_script(script)
            page.goto(table)  # loaded: the button is offered or not (at DOMContentLoaded)
            expect(page.locator("#mute-button")).to_be_visible()  # the table's tools are there
            offered[name] = page.locator("#notify-button").is_visible()
            page.close()

        assert offered == {name: wanted for name, (_, wanted) in BROWSERS.items()}
        _resign(tab.page)
        assert tab.errors == []
