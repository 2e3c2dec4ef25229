"""Friends and challenges in real browsers: three people in three browsers. Bob blocks Cy. Ann
follows Bob from his profile and invites him to a game while he reads another page; the
invitation shows there at once, Bob accepts from the notice, and both sit at one new table (Ann's
page goes there by itself). Cy, blocked, cannot invite Bob. Ann's list of people she follows shows
Bob playing. On a phone's width (360 px) and a desktop's (1280 px).

Run with ``pytest -m browser tests/browser``; the site runs in its own processes (see conftest).
"""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import open_tab
from .helpers import STEP_MS, register

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/hearts-browser-challenge")


@pytest.mark.parametrize("width", [360, 1280])
def test_one_invites_another_who_accepts_from_the_notice_and_a_blocked_one_cannot(
    browser: Any, live_site: str, width: int
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    viewport = {"width": width, "height": 800}
    with ExitStack() as stack:
        ann, bob, cy = (
            stack.enter_context(open_tab(browser, live_site, viewport=viewport)) for _ in range(3)
        )
        ann_name, bob_name, cy_name = register(ann), register(bob), register(cy)

        # Bob blocks Cy, on Cy's profile.
        bob.page.goto(f"/u/{cy_name}/")
        bob.page.get_by_role("button", name="Block").click()
        assert bob.page.get_by_role("button", name="Unblock").is_visible()

        # Bob reads the list of games; Ann follows him and invites him.
        bob.page.goto("/games/")
        page = ann.page
        page.goto(f"/u/{bob_name}/")
        page.get_by_role("button", name="Follow").click()
        page.get_by_role("link", name="Invite to a game").click()
        page.get_by_label("Players").select_option("4")
        page.get_by_role("button", name="Send the invitation").click()
        page.get_by_text(f"Waiting for {bob_name} to answer").wait_for()

        notice = bob.page.locator(".challenge-notice", has_text=ann_name)
        notice.wait_for(timeout=STEP_MS)
        assert "invites you to a game" in notice.inner_text()
        bob.page.screenshot(path=str(SHOTS / f"notice-{width}.png"))
        box = notice.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        notice.get_by_role("button", name="Accept").click()
        bob.page.wait_for_url("**/t/*/")
        table_url = bob.page.url

        # Ann's page goes to the same table by itself.
        page.wait_for_url(table_url, timeout=STEP_MS)
        for person in (ann, bob):
            # Read as a person reads them, space collapsed (a seat not laid out yet reads raw).
            seats = person.page.locator(".seat-name")
            expect(seats.nth(0)).to_contain_text(f"Seat 1: {ann_name}")
            expect(seats.nth(1)).to_contain_text(f"Seat 2: {bob_name}")
        ann.page.screenshot(path=str(SHOTS / f"table-{width}.png"))

        # Cy, blocked, is refused.
        cy.page.goto(f"/u/{bob_name}/")
        cy.page.get_by_role("link", name="Invite to a game").click()
        cy.page.get_by_role("button", name="Send the invitation").click()
        cy.page.get_by_text(f"{bob_name} does not take invitations from you").wait_for()

        # Ann's list shows Bob, and the way to invite him again.
        page.goto("/accounts/following/")
        row = page.locator(".following-list li", has_text=bob_name)
        assert row.get_by_role("link", name="Invite to a game").is_visible()
        for person in (ann, bob, cy):
            assert not person.errors, person.errors
