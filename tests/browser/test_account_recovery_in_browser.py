"""Getting an account back in a real browser, with the mail the site writes as files in its
``var/mail/`` (no mail server, as ``./dev serve`` runs): register with an address, confirm it
from the mail, sign out, forget the password, set a new one from the mail's link and sign in
with it.

Run with ``pytest -m browser tests/browser``; the site runs in its own processes (see conftest).
"""

from __future__ import annotations

import re
import secrets
import time
from email import message_from_bytes
from email.message import Message
from pathlib import Path

import pytest

from .conftest import Site, Tab
from .helpers import STEP_MS, new_username, site_link

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/hearts-browser-recovery")


def _mail_to(site: Site, address: str, seen: int) -> Message:
    """The first mail to ``address`` after the ``seen`` first ones, waited for."""
    deadline = time.monotonic() + STEP_MS / 1000
    while time.monotonic() < deadline:
        files = sorted((site.var_dir / "mail").glob("*.log"), key=lambda path: path.stat().st_mtime)
        mails = [message_from_bytes(path.read_bytes()) for path in files]
        found = [mail for mail in mails if mail["To"] == address]
        if len(found) > seen:
            return found[seen]
        time.sleep(0.1)
    raise AssertionError(f"no mail to {address} in {site.var_dir / 'mail'}")


def _link(mail: Message) -> str:
    body = mail.get_payload(decode=True)
    assert isinstance(body, bytes)
    found = re.search(r"https?://\S+", body.decode())
    assert found, body
    return found.group(0)


def test_a_person_gets_the_account_back_from_the_mail_file(tab: Tab, site: Site) -> None:
    page = tab.page
    SHOTS.mkdir(parents=True, exist_ok=True)
    name, address = new_username(), f"{secrets.token_hex(4)}@example.org"
    password, new_password = secrets.token_urlsafe(12) + "-Qs9", secrets.token_urlsafe(12) + "-Hx4"

    page.goto("/accounts/register/")
    page.get_by_label("Username:", exact=True).fill(name)
    page.get_by_label("Password:", exact=True).fill(password)
    page.get_by_label("Password confirmation:", exact=True).fill(password)
    page.get_by_label("E-mail address (optional):", exact=True).fill(address)
    page.screenshot(path=str(SHOTS / "register.png"), full_page=True)
    page.get_by_role("button", name="Create account").click()
    page.wait_for_url(re.compile(r"/$"))
    assert page.get_by_text(f"We sent a link to {address}").is_visible()

    page.goto(_link(_mail_to(site, address, 0)))
    page.get_by_role("button", name="Confirm the address").click()
    page.wait_for_url("**/accounts/email/")
    assert page.get_by_text(f"Your confirmed address is {address}").is_visible()
    page.screenshot(path=str(SHOTS / "address.png"), full_page=True)

    page.context.clear_cookies()  # another day, signed out
    page.goto("/accounts/login/")
    page.get_by_role("link", name="Forgot your password?").click()
    page.wait_for_url("**/accounts/password/forgot/")
    page.get_by_label("E-mail address:", exact=True).fill(address.upper())
    page.screenshot(path=str(SHOTS / "forgot.png"), full_page=True)
    page.get_by_role("button", name="Send the link").click()
    page.wait_for_url("**/accounts/password/forgot/sent/")
    assert page.get_by_role("heading", name="Look in your mail").is_visible()

    page.goto(_link(_mail_to(site, address, 1)))
    page.wait_for_url("**/set-password/")  # the token is out of the address at once
    page.get_by_label("New password:", exact=True).fill(new_password)
    page.get_by_label("New password confirmation:", exact=True).fill(new_password)
    page.screenshot(path=str(SHOTS / "set.png"), full_page=True)
    page.get_by_role("button", name="Set the password").click()
    page.wait_for_url("**/accounts/password/reset/done/")

    page.get_by_role("link", name="Sign in").last.click()
    page.get_by_label("Username:", exact=True).fill(name)
    page.get_by_label("Password:", exact=True).fill(new_password)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(re.compile(r"/$"))
    assert site_link(page, name).is_visible()
    assert tab.errors == []
