"""What the browser tests share: signing a new player up, starting a game against the bots,
reading and waiting on the table, sending a tab to the background, and making a staff member in
the running site."""

from __future__ import annotations

import base64
import random
import re
import secrets
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from typing import Any

from django_otp.oath import TOTP

from .conftest import BASE_DIR, Site, Tab

STEP_MS = 15_000  # the longest wait for the bots or the server between two of our moves

# wait_for_function is always given a function: a bare expression is run through eval() in the
# page, which the site's Content-Security-Policy (rightly) refuses.

# The end of a predicate of what the page waits for: "play" on our turn with a card to play,
# else an error in #flash, else nothing yet.
PLAY_OR_FLASH = """
  const board = document.getElementById("board-state");
  const mine = document.getElementById("my-hand");
  if (board && board.dataset.phase === "playing" && mine && mine.dataset.myTurn === "1"
      && document.querySelector("#hand .card.legal")) return "play";
  const flash = document.getElementById("flash");
  if (flash && flash.textContent.trim()) return "flash: " + flash.textContent.trim();
  return false;
}
"""

# What the page is waiting for: us to play, us to choose how a moon scores, or nothing more
# because hand 1 has been scored. An error in #flash with nothing else to do is reported too.
TABLE_STATE = (
    """
() => {
  const last = document.querySelector(".last-hand");
  if (last && /Hand 1 scored/.test(last.textContent)) return "scored";
  if (document.querySelector(".moon-choice")) return "moon";"""
    + PLAY_OR_FLASH
)


# For an init script, after conftest's INIT_SCRIPT: the page looks hidden or in view as the test
# says with show_tab() (``document.hidden`` and ``visibilityState`` read a flag it sets).
HIDDEN_PAGE = """
window.__hidden = false;
Object.defineProperty(Document.prototype, "hidden", {
  configurable: true, get: () => window.__hidden,
});
Object.defineProperty(Document.prototype, "visibilityState", {
  configurable: true, get: () => (window.__hidden ? "hidden" : "visible"),
});
"""

# The words under a selector that the screen draws over two lines (split between letters, as a
# column too narrow for them does): each run of letters between spaces and hyphens whose boxes
# lie on more than one line. Text hidden for screen readers only is left out.
BROKEN_WORDS = """
root => {
  const broken = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement.closest(".visually-hidden")) continue;
    for (const word of node.textContent.matchAll(/[^\\s\\-]+/g)) {
      const range = document.createRange();
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      const lines = new Set(Array.from(range.getClientRects())
        .filter((box) => box.width > 0).map((box) => Math.round(box.top)));
      if (lines.size > 1) broken.push(word[0]);
    }
  }
  return broken;
}
"""


def broken_words(page: Any, selector: str) -> list[str]:
    """The words in ``selector`` broken over two lines (see BROKEN_WORDS)."""
    found: list[str] = page.locator(selector).evaluate(BROKEN_WORDS)
    return found


def show_tab(page: Any, *, hidden: bool) -> None:
    """The tab goes to the background (or comes back), as the browser would tell the page (with
    HIDDEN_PAGE in its init script)."""
    page.evaluate(
        """hidden => {
          window.__hidden = hidden;
          document.dispatchEvent(new Event("visibilitychange"));
        }""",
        hidden,
    )


def new_username(length: int = 12) -> str:
    # Consonants only: the site refuses names that read as "bot", "admin" and the like.
    return "guest-" + "".join(random.choices("cdfghjkmnpqrvwxz", k=length - 6))


def site_link(page: Any, name: str) -> Any:
    """A link of the header's, opening its menu first where a narrow screen keeps the links
    behind the Menu button."""
    button = page.locator(".site-header .menu-button")
    if button.is_visible() and button.get_attribute("aria-expanded") != "true":
        button.click()
    return page.get_by_role("navigation", name="Site").get_by_role("link", name=name)


def close_site_menu(page: Any) -> None:
    button = page.locator(".site-header .menu-button")
    if button.is_visible() and button.get_attribute("aria-expanded") == "true":
        button.click()


def register(tab: Tab, username: str = "") -> str:
    """Open the lobby, follow Register, sign up (as ``username``, or a new name) and land back
    in the lobby, signed in."""
    page = tab.page
    page.goto("/")
    site_link(page, "Register").click()
    page.wait_for_url("**/accounts/register/")
    username = username or new_username()
    password = secrets.token_urlsafe(12) + "-Qs9"
    page.get_by_label("Username:", exact=True).fill(username)
    page.get_by_label("Password:", exact=True).fill(password)
    page.get_by_label("Password confirmation:", exact=True).fill(password)
    page.get_by_role("button", name="Create account").click()
    page.wait_for_url(re.compile(r"/$"))
    assert site_link(page, username).is_visible()
    close_site_menu(page)
    return username


def unfold_new_table(page: Any) -> None:
    """Open the lobby's "Start a table", which folds its form under one button (once: a second
    click would fold it again)."""
    if page.locator("#new-table").get_attribute("open") is None:
        page.locator("#new-table > summary").click()


def waiting_table_shown(page: Any) -> None:
    """A waiting table's page is settled: its socket sent it whole, as it does on connecting to
    a table without a game. A seating button clicked before that may be on the form the push
    replaces, and its click lost with it (seen once under load)."""
    page.wait_for_function("() => window.__wsMessages > 0", timeout=STEP_MS)


def start_game(tab: Tab) -> None:
    """From the lobby: "Play now against three bots", then wait for the live table."""
    page = tab.page
    page.get_by_role("button", name="Play now against three bots").click()
    page.wait_for_url(re.compile(r"/t/\d+/"))
    page.locator("#board").wait_for()
    # The table socket is open: from now on every move is pushed. (The table may send nothing
    # on connect: a page that shows the latest version, as when the bots passed before it was
    # rendered, is sent nothing until the game moves on.)
    page.wait_for_function("() => window.__wsOpens > 0", timeout=STEP_MS)


def my_seat(page: Any) -> str:
    """The selector of our own seat: the board names its seats by number, the same for every
    screen, and our hand says which number is ours."""
    return f'#seats .seat[data-seat="{page.locator("#my-hand").get_attribute("data-seat")}"]'


def hand_cards(page: Any) -> list[str]:
    return page.locator("#hand .card").evaluate_all("els => els.map(el => el.dataset.card)")


def wait_card_gone(page: Any, card: str) -> None:
    """Wait until the server has taken ``card`` out of our hand, or failed on an error."""
    state = page.wait_for_function(
        """card => {
          if (!document.querySelector(`#hand .card[data-card="${card}"]`)) return "gone";
          // The hand's last card: the next hand is dealt at once, and may hold the same card.
          if (document.querySelector("#board-state[data-phase=passing]")) return "gone";
          const flash = document.getElementById("flash");
          return flash && flash.textContent.trim() ? "flash: " + flash.textContent.trim() : false;
        }""",
        arg=card,
        timeout=STEP_MS,
    ).json_value()
    assert state == "gone", f"playing {card}: {state}"


def wait_for_bot_passes(page: Any) -> None:
    page.wait_for_function(
        """() => {
          const states = Array.from(document.querySelectorAll(".pass-state"));
          return states.length === 4
            && states.filter(el => el.textContent.trim() === "passed").length === 3;
        }""",
        timeout=STEP_MS,
    )


def parse_summary(text: str) -> dict[str, int]:
    """``Hand 1 scored: ann +0, Bot +13, ...`` as {name: points}."""
    match = re.fullmatch(r"Hand 1 scored: (.+)\.", text.strip())
    assert match, f"unexpected hand summary: {text!r}"
    parts = re.findall(r"(.+?) ([+-]\d+)(?:, |$)", match.group(1))
    return {name: int(points) for name, points in parts}


def pass_and_resign(page: Any) -> None:
    """Pass the first three cards, then resign (accepting the confirmation) before any card:
    the game is over against us, with a result, and its seed published."""
    page.locator("#pass-button").wait_for(timeout=STEP_MS)
    for card in hand_cards(page)[:3]:
        page.locator(f'#hand .card[data-card="{card}"]').click()
    page.locator("#pass-button").click()
    page.wait_for_selector("#board-state[data-phase=playing]", state="attached", timeout=STEP_MS)
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#resign-button").click()
    page.locator(".result").wait_for(timeout=STEP_MS)


def run_in_site(site: Site, script: str, *args: str) -> str:
    """``script`` run by Python with ``args`` in the running site's environment (its database),
    from the checkout: what it printed. Its errors go to the test's output."""
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        env=site.env,
        cwd=BASE_DIR,
        check=True,
        stdout=subprocess.PIPE,
        text=True,
        timeout=120,
    )
    return done.stdout


def staff_member(site: Site) -> tuple[str, str]:
    """A superuser in the running site's database, made as an operator makes one."""
    username = "staff-" + secrets.token_hex(3)
    password = secrets.token_urlsafe(12) + "-Qs9"
    command = ["manage.py", "createsuperuser", "--noinput", "--username", username]
    subprocess.run(
        [sys.executable, *command, "--email", f"{username}@example.com"],
        env={**site.env, "DJANGO_SUPERUSER_PASSWORD": password},
        cwd=BASE_DIR,
        check=True,
        capture_output=True,
    )
    return username, password


def code_from(secret: str) -> str:
    """The code an authenticator app shows now for the key shown on the set-up page."""
    key = base64.b32decode("".join(secret.split()))
    return f"{TOTP(key).token():06d}"


def enrol_two_factor(page: Any, password: str) -> list[str]:
    """Two-factor sign-in turned on from its page as a person does, the app's part played by
    reading the key off the page: the recovery codes it shows."""
    if "/accounts/two-factor/" not in page.url:
        page.goto("/accounts/two-factor/")
    if page.get_by_label("Your password:").count():  # not begun already
        page.get_by_label("Your password:").fill(password)
        page.get_by_role("button", name="Set up two-factor sign-in").click()
    secret = page.locator("#two-factor-secret")
    secret.wait_for(timeout=STEP_MS)
    page.get_by_label("Code:").fill(code_from(secret.inner_text()))
    page.get_by_role("button", name="Turn two-factor sign-in on").click()
    page.locator("#recovery-codes").wait_for(timeout=STEP_MS)
    return page.locator("#recovery-codes code").all_inner_texts()


def sign_in_to_admin(page: Any, username: str, password: str) -> None:
    """A new member of staff signs in at the admin's page and, as the admin asks of them
    (tests/browser/test_two_factor_in_browser.py), turns on two-factor sign-in before it opens."""
    page.goto("/admin/login/?next=/accounts/two-factor/")
    page.get_by_label("Username:").fill(username)
    page.get_by_label("Password:").fill(password)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/accounts/two-factor/")
    enrol_two_factor(page, password)
    page.goto("/admin/")
    page.locator("#site-name").wait_for(timeout=STEP_MS)


def staff_page(site: Site, browser: Any, live_site: str, **context: Any) -> Any:
    """A page of a new staff member (``staff_member``), signed in to the admin, in a browser
    context of its own (``context``: its viewport, …)."""
    username, password = staff_member(site)
    staff = browser.new_context(base_url=live_site, **context).new_page()
    sign_in_to_admin(staff, username, password)
    return staff


def make_arena(site: Site, browser: Any, live_site: str, name: str) -> str:
    """The admin's form, filled as staff fill it: an arena called ``name`` that started a minute
    ago, for four players; returns its page's address."""
    page = staff_page(site, browser, live_site, viewport={"width": 1280, "height": 800})
    page.goto("/admin/arenas/arena/add/")
    start = datetime.now(UTC) - timedelta(minutes=1)
    page.get_by_label("Name").fill(name)
    page.get_by_label("Preset").select_option("standard")
    page.get_by_label("Players").fill("4")
    page.locator("#id_starts_at_0").fill(start.strftime("%Y-%m-%d"))
    page.locator("#id_starts_at_1").fill(start.strftime("%H:%M:%S"))
    page.get_by_label("Minutes").fill("30")
    page.locator("input[name=_save]").click()
    page.wait_for_selector(".messagelist")
    page.goto("/arenas/")
    href = page.get_by_role("link", name=name).first.get_attribute("href")
    assert href is not None
    page.context.close()
    return href
