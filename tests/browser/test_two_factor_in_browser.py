"""A moderator's first visit to the admin in a real browser: refused until two-factor sign-in
is on, with a page that says how; turning it on by reading the key off the page and typing the
code it makes (as an authenticator app would); the admin then opens. Signed out, the password
alone no longer signs in: a recovery code does, once; the list of where the account is signed in
shows this browser.

Run with ``pytest -m browser tests/browser``; the site runs in its own processes (see conftest).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import Site
from .helpers import STEP_MS, enrol_two_factor, staff_member

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/hearts-browser-two-factor")


def test_a_moderator_turns_on_two_factor_before_the_admin_opens(
    site: Site, browser: Any, live_site: str
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    username, password = staff_member(site)
    page = browser.new_context(
        base_url=live_site, viewport={"width": 1280, "height": 900}
    ).new_page()

    page.goto("/admin/")
    page.get_by_label("Username:").fill(username)
    page.get_by_label("Password:").fill(password)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("heading", name="Two-factor sign-in needed").wait_for(timeout=STEP_MS)
    page.screenshot(path=str(SHOTS / "needed.png"), full_page=True)
    assert page.get_by_role("link", name="Set up two-factor sign-in").is_visible()

    page.goto("/accounts/two-factor/")
    page.get_by_label("Your password:").fill(password)
    page.get_by_role("button", name="Set up two-factor sign-in").click()
    page.locator(".qr-code svg").wait_for(timeout=STEP_MS)
    page.screenshot(path=str(SHOTS / "scan.png"), full_page=True)
    page.get_by_label("Code:").fill("000000")
    page.get_by_role("button", name="Turn two-factor sign-in on").click()
    assert page.get_by_text("That is not the code the app shows now").is_visible()

    page.wait_for_timeout(1100)  # the wait after a wrong code
    codes = enrol_two_factor(page, password)
    page.screenshot(path=str(SHOTS / "codes.png"), full_page=True)
    assert len(codes) == 10
    page.goto("/admin/")
    page.locator("#site-name").wait_for(timeout=STEP_MS)
    assert page.get_by_role("heading", name="Two-factor sign-in needed").count() == 0

    page.get_by_role("button", name="Sign out").click()
    page.goto("/accounts/login/")
    page.get_by_label("Username:").fill(username)
    page.get_by_label("Password:").fill(password)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/accounts/login/code/")
    page.screenshot(path=str(SHOTS / "code.png"), full_page=True)
    page.get_by_label("Code:").fill(codes[0])
    page.get_by_role("button", name="Sign in").click()
    page.get_by_text("You signed in with a recovery code: 9 are left.").wait_for(timeout=STEP_MS)
    page.goto("/admin/")
    page.locator("#site-name").wait_for(timeout=STEP_MS)

    page.goto("/accounts/signed-in/")
    assert page.get_by_text("(this one)").count() == 1
    page.screenshot(path=str(SHOTS / "signed-in.png"), full_page=True)
    page.get_by_role("button", name="Sign out everywhere else").click()
    page.get_by_text("Signed out of 0 other places.").wait_for(timeout=STEP_MS)
    page.context.close()
