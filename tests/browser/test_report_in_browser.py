"""Reporting in Chromium: two people sign up, the second reports the first from the first's
profile and finds the report listed as open on their own reports page.

Run with ``pytest -m browser tests/browser``; the site runs in its own processes (see conftest).
"""

from __future__ import annotations

import re

import pytest

from .conftest import Tab
from .helpers import register, site_link

pytestmark = pytest.mark.browser

COMMENT = "Played the queen of spades on me every hand and then mocked me for it."


def test_a_player_reports_another_from_their_profile_and_sees_it_open(tab: Tab) -> None:
    page = tab.page
    reported = register(tab)
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_url(re.compile(r"/$"))
    reporter = register(tab)

    page.goto(f"/u/{reported}/")
    page.get_by_role("link", name="Report this player").click()
    page.wait_for_url(f"**/reports/u/{reported}/")
    page.get_by_label("Offensive name").check()
    page.get_by_label("What happened").fill(COMMENT)
    page.get_by_role("button", name="Send the report").click()

    page.wait_for_url("**/reports/mine/")
    assert f"Staff will read your report of {reported}." in page.locator(".messages").inner_text()
    row = page.locator("tr", has=page.get_by_role("link", name=reported))
    assert row.locator(".report-status").inner_text() == "Open"
    assert "Offensive name" in row.inner_text()
    # From the reporter's own profile the page is one link away.
    site_link(page, reporter).click()
    page.get_by_role("link", name="Your reports").click()
    page.wait_for_url("**/reports/mine/")
    assert tab.errors == [], "\n".join(tab.errors)
