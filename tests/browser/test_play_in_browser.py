"""A new player in a real browser: register, start a game against three bots, pass three cards
and play a whole hand by clicking, then pass again with the keyboard alone.

Run with ``pytest -m browser tests/browser``; the site runs in its own processes (see conftest).
"""

from __future__ import annotations

import re

import pytest

from .conftest import Tab
from .helpers import (
    STEP_MS,
    TABLE_STATE,
    hand_cards,
    my_seat,
    parse_summary,
    register,
    start_game,
    wait_card_gone,
    wait_for_bot_passes,
)

pytestmark = pytest.mark.browser

SCREENSHOT = "/tmp/hearts-browser.png"
KEYBOARD_SCREENSHOT = "/tmp/hearts-browser-keyboard.png"


def test_register_pass_and_play_a_full_hand_by_clicking(tab: Tab) -> None:
    page = tab.page
    username = register(tab)
    start_game(tab)

    # Passing: the first hand passes left. Lift three cards by clicking, then press the button.
    pass_button = page.locator("#pass-button")
    pass_button.wait_for()
    assert pass_button.inner_text().strip() == "Pass left"
    assert "choose three cards to pass" in page.locator("#status").inner_text()
    dealt = hand_cards(page)
    assert len(dealt) == 13
    chosen = dealt[:3]
    for card in chosen:
        page.locator(f'#hand .card[data-card="{card}"]').click()
        assert (
            page.locator(f'#hand .card[data-card="{card}"]').get_attribute("aria-pressed") == "true"
        )
    assert page.locator("#hand .card.lifted").count() == 3
    assert pass_button.is_enabled()
    pass_button.click()
    page.wait_for_selector("#board-state[data-phase=playing]", state="attached", timeout=STEP_MS)
    after_pass = hand_cards(page)
    assert len(after_pass) == 13
    assert not set(chosen) & set(after_pass), "passed cards are still in the hand"

    # Play the whole hand: lift a legal card, tap it again to play it, wait for the bots.
    played: list[str] = []
    moon_choice = None
    while True:
        state = page.wait_for_function(TABLE_STATE, timeout=STEP_MS).json_value()
        if state == "scored":
            break
        assert not state.startswith("flash"), f"after playing {played}: {state}"
        if state == "moon":
            moon_choice = "others"
            page.get_by_role("button", name="Add 26 to everyone else").click()
            page.wait_for_selector(".moon-choice", state="detached", timeout=STEP_MS)
            continue
        status = page.locator("#status").inner_text()
        assert re.search(r"your (lead|turn)", status), f"our turn, but the status says {status!r}"
        card = page.locator("#hand .card.legal").first.get_attribute("data-card")
        assert card is not None
        button = page.locator(f'#hand .card[data-card="{card}"]')
        button.click()
        assert "lifted" in (button.get_attribute("class") or "").split()
        assert page.locator("#play-button").is_enabled()
        button.click()
        wait_card_gone(page, card)
        played.append(card)
        assert len(played) <= 13, f"played more than 13 cards: {played}"

    assert len(played) == 13, f"hand scored after we played {played}"
    summary = page.locator(".last-hand").inner_text()
    points = parse_summary(summary)
    assert len(points) == 4 and username in points, summary
    values = sorted(points.values())
    if values == [0, 26, 26, 26]:
        pass  # a moon, scored "add 26 to everyone else"
    elif values == [-26, 0, 0, 0]:
        # A moon scored "take 26 off my total": only a bot chooses that here (games.bots).
        assert moon_choice is None and points[username] == 0, summary
    else:
        assert sum(values) == 26, summary
        assert all(value >= 0 for value in values), summary

    # The scores table agrees with the summary, and a new hand has been dealt.
    # (The table sits in a closed <details>, so its text is read rather than its rendering.)
    row = page.locator("details.scores tbody tr").first.locator("td").all_text_contents()
    assert [int(value) for value in row] == list(points.values()), (row, summary)
    assert page.locator("#hand .card").count() == 13
    fingerprint = page.locator(".fairness .fingerprint")
    assert fingerprint.is_visible()
    assert re.fullmatch(r"[0-9a-f]{64}", fingerprint.inner_text().strip())
    assert "Seed fingerprint" in page.locator(".fairness").inner_text()

    # Hand 2 passes right; the bots pass at once, and the picture shows the table settled.
    wait_for_bot_passes(page)
    max_hand = page.evaluate("window.__maxHand")
    assert 0 < max_hand <= 13, f"#hand showed {max_hand} cards at once"
    page.screenshot(path=SCREENSHOT, full_page=True)
    assert tab.errors == [], "\n".join(tab.errors)


def test_keyboard_lifts_three_cards_and_p_passes(tab: Tab) -> None:
    page = tab.page
    register(tab)
    start_game(tab)
    page.locator("#pass-button").wait_for()
    # The bots pass at once; wait for that so no update arrives while we use the keys.
    wait_for_bot_passes(page)

    # Only our seat still owes a pass: its clock counts down from 30 seconds.
    assert page.locator(".seat .clock").count() == 1
    mine = my_seat(page)
    clock = page.locator(f"{mine} .clock .clock-seconds")
    first = int(clock.inner_text())
    assert 0 < first <= 30
    # A late update may render the clock afresh; either way it shows less within two seconds.
    page.wait_for_function(
        """([mine, first]) => {
          const shown = document.querySelector(`${mine} .clock .clock-seconds`);
          return shown !== null && 0 < Number(shown.textContent)
            && Number(shown.textContent) < first;
        }""",
        arg=[mine, first],
        timeout=3000,
    )
    assert page.locator(f"{mine} .clock").get_attribute("role") == "timer"

    # Tab from the top of the page until the hand has the focus (one tab stop for the hand).
    for _ in range(30):
        page.keyboard.press("Tab")
        if page.evaluate("!!document.activeElement.closest('#hand .card')"):
            break
    else:
        pytest.fail("Tab never reached a card in the hand")
    cards = hand_cards(page)
    focused = page.evaluate("document.activeElement.dataset.card")
    assert focused == cards[0]

    page.keyboard.press("Enter")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    chosen = [cards[0], cards[2], cards[3]]
    lifted = page.locator("#hand .card.lifted").evaluate_all(
        "els => els.map(el => el.dataset.card)"
    )
    assert lifted == chosen
    assert page.evaluate("document.activeElement.dataset.card") == cards[3]
    assert page.locator("#pass-button").is_enabled()

    page.keyboard.press("p")
    page.wait_for_selector("#board-state[data-phase=playing]", state="attached", timeout=STEP_MS)
    after = hand_cards(page)
    assert len(after) == 13
    assert not set(chosen) & set(after), "passed cards are still in the hand"
    assert page.evaluate("window.__maxHand") <= 13
    page.screenshot(path=KEYBOARD_SCREENSHOT, full_page=True)
    assert tab.errors == [], "\n".join(tab.errors)
