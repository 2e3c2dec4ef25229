"""The open API from a browser: the footer's link leads to the docs page, which draws every
endpoint from the schema under the site's Content-Security-Policy and runs one ("Try it out")
against the live site.

Run with ``pytest -m browser tests/browser``; the site runs in its own processes (see conftest).
"""

from __future__ import annotations

import json

import pytest

from tests.helpers.api import ENDPOINTS

from .conftest import Tab
from .helpers import register

pytestmark = pytest.mark.browser

SCREENSHOT = "/tmp/hearts-browser-api-docs.png"


def test_the_footer_leads_to_docs_that_list_and_run_every_endpoint(tab: Tab) -> None:
    page = tab.page
    name = register(tab)  # and back in the lobby
    page.get_by_role("contentinfo").get_by_role("link", name="API").click()
    page.wait_for_url("**/api/docs")
    page.locator(".opblock").first.wait_for()
    shown = page.locator(".opblock-summary-path").all_inner_texts()
    for path in ENDPOINTS:
        assert any(text.replace("\u200b", "") == path for text in shown), (path, shown)

    player = page.locator(".opblock", has_text="/api/v1/players/{name}").first
    player.locator(".opblock-summary").first.click()
    player.get_by_role("button", name="Try it out").click()
    player.locator("input[placeholder='name']").fill(name)
    player.get_by_role("button", name="Execute").click()
    body = player.locator(".live-responses-table .response-col_description pre").first
    body.wait_for()
    page.screenshot(path=SCREENSHOT, full_page=False)
    answer = json.loads(body.inner_text())
    assert answer["name"] == name and answer["closed"] is False
    page.screenshot(path=SCREENSHOT, full_page=False)
    assert tab.errors == []
