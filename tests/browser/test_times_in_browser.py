"""Times in Chromium: a browser in New York whose own locale is American English reads a German
page. The site's script keeps the browser's time zone in a cookie, and from then on the server
writes the page's times in it; the chat's script writes its times in the page's language with
the same 24 hours ("13:47", never "01:47 PM"), as the server does."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from .conftest import INIT_SCRIPT, Tab
from .helpers import STEP_MS, register, start_game

pytestmark = pytest.mark.browser

ZONE = "America/New_York"


def _in_new_york(iso: str) -> str:
    return datetime.fromisoformat(iso).astimezone(ZoneInfo(ZONE)).strftime("%H:%M")


def test_a_german_page_writes_the_chats_times_in_24_hours_in_the_browsers_time_zone(
    browser: Any, live_site: str
) -> None:
    context = browser.new_context(
        base_url=live_site,
        locale="en-US",
        timezone_id=ZONE,
        viewport={"width": 1280, "height": 900},
    )
    context.add_init_script(INIT_SCRIPT)
    try:
        page = context.new_page()
        tab = Tab(page, [])
        register(tab)
        start_game(tab)
        assert {"name": "hearts_time_zone", "value": ZONE} in [
            {"name": c["name"], "value": c["value"]} for c in context.cookies()
        ]
        context.add_cookies([{"name": "hearts_language", "value": "de", "url": live_site}])
        page.reload()
        page.locator("#chat-input").wait_for()
        assert page.locator("html").get_attribute("lang") == "de"
        page.locator("#chat-input").fill("Viel Glück")
        page.locator("#chat-input").press("Enter")
        said = page.locator("#chat .chat-message .chat-time").first
        said.wait_for(timeout=STEP_MS)
        page.wait_for_function(
            "() => document.querySelector('#chat .chat-time[data-local]') !== null"
        )
        iso = said.get_attribute("datetime")
        assert said.inner_text() == _in_new_york(iso)

        # The page as the server writes it, in the zone the cookie gives: the same time.
        html = page.request.get(page.url).text()
        served = re.search(r'<time class="chat-time" datetime="[^"]+">([^<]+)</time>', html)
        assert served is not None and served.group(1) == _in_new_york(iso)
    finally:
        context.close()
