"""Every card seen: a player and a spectator (a second browser, on a phone's width) watch a
whole hand, and each of its thirteen tricks shows its four cards and who took it; the last
trick can be looked at again by its button and by the L key; the hand's end shows what each
took.

Run with ``pytest -m browser tests/browser``; the site runs in its own processes (see conftest).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import Tab, open_tab
from .helpers import STEP_MS, TABLE_STATE, register, start_game, wait_card_gone

pytestmark = pytest.mark.browser

SCREENSHOT = "/tmp/hearts-every-card.png"
LAST_TRICK_SCREENSHOT = "/tmp/hearts-last-trick.png"
PHONE_SCREENSHOT = "/tmp/hearts-every-card-phone.png"
HAND_END_SCREENSHOT = "/tmp/hearts-hand-end.png"

# Every completed trick the page has shown on the table, from before its own scripts run:
# its key ("1-5": hand 1, trick 5), the most cards it showed and who took it.
WATCH_TRICKS = """
window.__tricks = {};
new MutationObserver(() => {
  const trick = document.querySelector("#trick.complete");
  if (!trick) return;
  const seen = window.__tricks[trick.dataset.trick] || { cards: 0, taker: "" };
  const cards = trick.querySelectorAll(".played").length;
  const taker = trick.querySelector(".trick-taker");
  window.__tricks[trick.dataset.trick] = {
    cards: Math.max(seen.cards, cards),
    taker: taker ? taker.innerText.trim() : seen.taker,
  };
}).observe(document, { childList: true, subtree: true });
"""

SEEN = """
([key, cards]) => !!window.__tricks[key] && window.__tricks[key].cards >= cards
"""


@pytest.fixture
def spectator(browser: Any, live_site: str) -> Iterator[Tab]:
    """An anonymous visitor in a browser of its own, on a phone's width."""
    phone = {"width": 390, "height": 844}
    with open_tab(browser, live_site, viewport=phone, init_script=WATCH_TRICKS) as opened:
        yield opened


def completed_key(page: Any) -> str | None:
    trick = page.locator("#trick.complete")
    return trick.get_attribute("data-trick") if trick.count() else None


def look_at_the_last_trick(page: Any) -> None:
    """The button and the L key show the last trick over the one under way, and put it away."""
    button = page.locator("#last-trick-button")
    panel = page.locator("#last-trick")
    assert button.get_attribute("aria-expanded") == "false"
    assert not panel.is_visible()
    button.click()
    assert panel.is_visible()
    assert button.get_attribute("aria-expanded") == "true"
    assert panel.locator(".played").count() == 4
    assert re.match(r"Last trick: .+ takes? the trick", panel.locator(".trick-taker").inner_text())
    page.screenshot(path=LAST_TRICK_SCREENSHOT, full_page=True)
    # A screen reader hears the four cards, whose they were and who took them.
    page.wait_for_function(
        """() => {
          const said = document.getElementById("announcer");
          return said !== null && / from .*Last trick: .+ takes? the trick/.test(said.textContent);
        }"""
    )
    page.keyboard.press("l")
    assert not panel.is_visible()
    assert button.get_attribute("aria-expanded") == "false"
    page.locator("#hand .card.legal").first.focus()
    page.keyboard.press("L")
    assert panel.is_visible()
    page.keyboard.press("Escape")
    assert not panel.is_visible()


def test_a_player_and_a_spectator_see_four_cards_in_every_trick_and_who_took_it(
    tab: Tab, spectator: Tab
) -> None:
    page = tab.page
    page.context.add_init_script(WATCH_TRICKS)
    username = register(tab)
    start_game(tab)
    watcher = spectator.page
    watcher.goto(page.url)
    watcher.locator("#board").wait_for()

    page.locator("#pass-button").wait_for()
    for card in [el.get_attribute("data-card") for el in page.locator("#hand .card").all()[:3]]:
        page.locator(f'#hand .card[data-card="{card}"]').click()
    page.locator("#pass-button").click()
    page.wait_for_selector("#board-state[data-phase=playing]", state="attached", timeout=STEP_MS)

    looked = False
    while True:
        state = page.wait_for_function(TABLE_STATE, timeout=STEP_MS).json_value()
        # Before each lead of ours, the trick just taken is still on the table, and the
        # spectator has seen it too (a person leads when they like).
        key = completed_key(page)
        if key:
            watcher.wait_for_function(SEEN, arg=[key, 4], timeout=STEP_MS)
        if state == "scored":
            break
        assert not state.startswith("flash"), state
        if state == "moon":
            page.get_by_role("button", name="Add 26 to everyone else").click()
            page.wait_for_selector(".moon-choice", state="detached", timeout=STEP_MS)
            continue
        if key and key != "1-1" and not looked:
            page.screenshot(path=SCREENSHOT, full_page=True)
        if page.locator("#last-trick-button").count() and not looked:
            look_at_the_last_trick(page)
            looked = True
        card = page.locator("#hand .card.legal").first.get_attribute("data-card")
        button = page.locator(f'#hand .card[data-card="{card}"]')
        button.click()
        button.click()
        wait_card_gone(page, card)

    # Hand 1's last trick stays on the table through hand 2's pass, with what each took.
    assert completed_key(page) == "1-13"
    watcher.wait_for_function(SEEN, arg=["1-13", 4], timeout=STEP_MS)
    watcher.wait_for_selector(".hand-taken", timeout=STEP_MS)
    mine = page.evaluate("() => window.__tricks")
    theirs = watcher.evaluate("() => window.__tricks")
    keys = [f"1-{number}" for number in range(1, 14)]
    for key in keys:
        assert mine[key]["cards"] == 4, (key, mine[key])
        assert theirs[key]["cards"] == 4, (key, theirs[key])
        taker = re.fullmatch(r"(.+) takes the trick(: \d+ points?)?", theirs[key]["taker"])
        assert taker, theirs[key]
        if taker.group(1) == username:
            assert mine[key]["taker"] == "You take the trick" + (taker.group(2) or "")
        else:
            assert mine[key]["taker"] == theirs[key]["taker"]
    assert looked, "the last trick was never offered while a trick was under way"
    for screen in (page, watcher):
        rows = screen.locator(".hand-taken li")
        assert rows.count() == 4
        assert rows.locator(".taken-card").count() == 52
        assert screen.locator(".hand-taken").is_visible()
    watcher.screenshot(path=PHONE_SCREENSHOT, full_page=True)
    page.screenshot(path=HAND_END_SCREENSHOT, full_page=True)
    assert tab.errors == [], "\n".join(tab.errors)
    assert spectator.errors == [], "\n".join(spectator.errors)
