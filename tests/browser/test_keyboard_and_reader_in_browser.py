"""A player who uses the keyboard and a screen reader: a whole hand at a table with three bots,
passed and played with keys alone, followed through what the table's live region says; the
list of keys ("?"), and the sound turned off with M, remembered across a reload.

Run with ``pytest -m browser tests/browser``; the site runs in its own processes (see conftest).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from .axe import serious_violations
from .conftest import Tab
from .helpers import (
    STEP_MS,
    TABLE_STATE,
    hand_cards,
    register,
    wait_card_gone,
    wait_for_bot_passes,
)

pytestmark = pytest.mark.browser

SHOTS = "/tmp/hearts-browser-reader"

# Before the page's own scripts: every line the table's log (the polite live region) is given,
# and every tone the page starts (the Web Audio API's oscillators).
LISTEN = """
window.__told = [];
window.__tones = 0;
new MutationObserver((records) => {
  for (const record of records) {
    if (record.target.id !== "table-log") continue;
    for (const node of record.addedNodes) window.__told.push(node.textContent);
  }
}).observe(document, { childList: true, subtree: true });
if (window.AudioContext) {
  const create = AudioContext.prototype.createOscillator;
  AudioContext.prototype.createOscillator = function () {
    window.__tones += 1;
    return create.call(this);
  };
}
"""

CARD_PLAYED = re.compile(r"(You play|(?P<name>.+) plays) the (?P<card>\w+ of \w+)\.")
TRICK_TAKEN = re.compile(r"(You take|.+ takes) the trick(: \d+ points?)?\.")


def told(page: Any) -> list[str]:
    lines: list[str] = page.evaluate("() => window.__told")
    return lines


def start_by_keyboard(tab: Tab) -> None:
    """From the lobby: "Play now against three bots" pressed with Enter, then the live table."""
    page = tab.page
    page.get_by_role("button", name="Play now against three bots").focus()
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/t/\d+/"))
    page.locator("#board").wait_for()
    page.wait_for_function("() => window.__wsOpens > 0", timeout=STEP_MS)


def focus_hand(page: Any) -> None:
    """Tab until a card of the hand has the focus (the hand is one tab stop)."""
    for _ in range(40):
        if page.evaluate("() => !!document.activeElement.closest('#hand .card')"):
            return
        page.keyboard.press("Tab")
    pytest.fail("Tab never reached a card in the hand")


def close_keys(page: Any) -> None:
    """Escape closes the list of keys; back once the page has handled its closing.

    The browser gives the focus back as the dialog closes, and the page's own ``close``
    listener (a task later) may move it again: the next key waits for both.
    """
    page.evaluate(
        """() => {
          window.__keysClosed = false;
          document.getElementById("key-help").addEventListener(
            "close", () => setTimeout(() => { window.__keysClosed = true; }), { once: true });
        }"""
    )
    page.keyboard.press("Escape")
    page.wait_for_function("() => window.__keysClosed", timeout=STEP_MS)


def move_focus_to(page: Any, card: str) -> None:
    """Arrow keys along the hand from the focused card to ``card``."""
    focus_hand(page)
    cards = hand_cards(page)
    here = cards.index(page.evaluate("() => document.activeElement.dataset.card"))
    there = cards.index(card)
    key = "ArrowRight" if there > here else "ArrowLeft"
    for _ in range(abs(there - here)):
        page.keyboard.press(key)
    assert page.evaluate("() => document.activeElement.dataset.card") == card


def resync_after_a_reconnect(page: Any) -> None:
    """The socket drops and connects again, saying its screen is a version behind: the server
    sends the whole table, which shows nothing new, so nothing more is said."""
    before = told(page)
    messages = page.evaluate("() => window.__wsMessages")
    page.evaluate(
        """() => {
          const board = document.getElementById("board-state");
          board.dataset.version = String(Number(board.dataset.version) - 1);
          document.getElementById("table-socket")["htmx-internal-data"].webSocket.init();
        }"""
    )
    page.wait_for_function("(n) => window.__wsMessages > n", arg=messages, timeout=STEP_MS)
    assert told(page) == before


def card_names(page: Any, selector: str) -> list[str]:
    """The names a screen reader reads for the hand's cards matching ``selector``."""
    labels = page.locator(selector).evaluate_all(
        "els => els.map(el => el.querySelector('.visually-hidden').textContent)"
    )
    return [label.split(",")[0].split(".")[0].strip() for label in labels]


def test_a_whole_hand_by_keyboard_is_followed_through_the_live_region(tab: Tab) -> None:
    page = tab.page
    page.context.add_init_script(LISTEN)
    username = register(tab)
    start_by_keyboard(tab)
    page.locator("#pass-button").wait_for()
    wait_for_bot_passes(page)
    bots = page.locator('#seats .seat:not([data-seat="0"]) .name').evaluate_all(
        "els => els.map(el => el.closest('.seat').dataset.name)"
    )
    assert len(bots) == 3

    # P before three cards are lifted says why nothing happened, on screen and aloud.
    focus_hand(page)
    page.keyboard.press("Enter")
    page.keyboard.press("p")
    hint = page.locator("#pass-hint")
    assert hint.inner_text() == "Choose three cards to pass first: 1 chosen so far."
    page.wait_for_function(
        "() => document.getElementById('announcer').textContent.includes('1 chosen so far')"
    )
    assert page.locator("#board-state").get_attribute("data-phase") == "passing"
    for width, height in ((360, 740), (1280, 800)):
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=f"{SHOTS}-too-few-{width}.png")

    # Two more cards, then P passes them (left: the cards come from the player on our right).
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    page.keyboard.press("p")
    page.wait_for_selector("#board-state[data-phase=playing]", state="attached", timeout=STEP_MS)
    # We sit in seat 0: on our right, in the fourth seat.
    passer = page.locator('#seats .seat[data-seat="3"]').get_attribute("data-name")
    received = card_names(page, "#hand .card.received")
    assert len(received) == 3
    page.wait_for_function(
        "() => window.__told.some(line => line.includes(' passed you '))", timeout=STEP_MS
    )
    passed_lines = [line for line in told(page) if " passed you " in line]
    assert passed_lines == [
        f"{passer} passed you the {received[0]}, the {received[1]} and the {received[2]}."
    ]

    # The hand, by keys alone: each turn is announced with the number of cards we may play.
    played: list[str] = []
    while True:
        state = page.wait_for_function(TABLE_STATE, timeout=STEP_MS).json_value()
        if state == "scored":
            break
        assert state == "play", f"after playing {played}: {state}"
        legal = page.locator("#hand .card.legal").count()
        plural = "card" if legal == 1 else "cards"
        page.wait_for_function(
            "(line) => window.__told.at(-1) === line",
            arg=f"Your turn: {legal} {plural} you may play.",
            timeout=STEP_MS,
        )
        if len(played) == 4:
            resync_after_a_reconnect(page)
        card = page.locator("#hand .card.legal").first.get_attribute("data-card")
        assert card is not None
        move_focus_to(page, card)
        page.keyboard.press("Enter")
        page.keyboard.press("Enter")
        wait_card_gone(page, card)
        played.append(card)
        assert len(played) <= 13, f"played more than 13 cards: {played}"
    assert len(played) == 13
    page.wait_for_function(
        "() => window.__told.some(line => line.startsWith('Hand 1 scored'))", timeout=STEP_MS
    )

    lines = told(page)
    plays = [CARD_PLAYED.fullmatch(line) for line in lines]
    cards_told = [match.group("card") for match in plays if match]
    assert len(cards_told) == len(set(cards_told)), "a card was announced twice"
    mine = [match.group("card") for match in plays if match and match.group("name") is None]
    assert len(mine) == 13, lines
    by_bots = [match.group("name") for match in plays if match and match.group("name")]
    assert set(by_bots) == set(bots), lines
    assert len(by_bots) == 39, lines
    takers = [line for line in lines if TRICK_TAKEN.fullmatch(line)]
    assert len(takers) == 13, lines
    turns = [line for line in lines if line.startswith("Your turn: ")]
    assert len(turns) == 13, lines
    summary = page.locator(".last-hand").inner_text().strip()
    assert lines.count(summary) == 1 and username in summary
    # The order a listener hears: the trick's last card, then who took it.
    last_trick = lines.index(takers[-1])
    assert CARD_PLAYED.fullmatch(lines[last_trick - 1])
    # Some sound was made along the way (the page is not muted).
    assert page.evaluate("() => window.__tones") > 0
    page.screenshot(path=f"{SHOTS}-hand.png", full_page=True)
    assert tab.errors == [], "\n".join(tab.errors)


def test_m_mutes_for_good_and_question_mark_lists_the_keys(tab: Tab) -> None:
    page = tab.page
    page.context.add_init_script(LISTEN)
    register(tab)
    start_by_keyboard(tab)
    page.locator("#pass-button").wait_for()

    # M mutes: the button shows it, a reload remembers it, and the page stays quiet.
    mute = page.get_by_role("button", name="Mute")
    assert mute.get_attribute("aria-pressed") == "false"
    assert "(sounds on)" in mute.inner_text()
    focus_hand(page)
    page.keyboard.press("m")
    assert mute.get_attribute("aria-pressed") == "true"
    assert "(sounds off)" in mute.inner_text()  # in words, not only by its fill
    page.reload()
    page.locator("#pass-button").wait_for()
    assert page.get_by_role("button", name="Mute").get_attribute("aria-pressed") == "true"
    assert "(sounds off)" in page.get_by_role("button", name="Mute").inner_text()
    wait_for_bot_passes(page)
    focus_hand(page)
    for _ in range(3):
        page.keyboard.press("Enter")
        page.keyboard.press("ArrowRight")
    page.keyboard.press("p")
    # A bot's card or our turn, either of which makes a sound when the sound is on.
    page.wait_for_function(
        "() => window.__told.some(line => / plays the |^Your turn/.test(line))", timeout=STEP_MS
    )
    assert page.evaluate("() => window.__tones") == 0

    # "?" from a card opens the list of keys with the focus in it; Escape gives the focus back.
    focus_hand(page)
    card = page.evaluate("() => document.activeElement.dataset.card")
    page.keyboard.press("?")
    dialog = page.get_by_role("dialog", name="Keys at the table")
    dialog.wait_for()
    assert page.evaluate("() => !!document.activeElement.closest('#key-help')")
    close_keys(page)
    assert not dialog.is_visible()
    assert page.evaluate("() => document.activeElement.dataset.card") == card

    # The Keys button opens the same list, which names every key of the table.
    page.get_by_role("button", name="Keys").focus()
    page.keyboard.press("Enter")
    dialog.wait_for()
    keys = dialog.locator("dt").all_inner_texts()
    for key in ("Tab", "Enter", "P", "L", "S", "M", "?", "Escape"):
        assert any(re.search(rf"(^|\s){re.escape(key)}(\s|$)", text) for text in keys), key
    assert serious_violations(page) == []
    for width, height in ((1280, 800), (360, 740)):
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=f"{SHOTS}-keys-{width}.png")
    close_keys(page)
    assert not dialog.is_visible()
    assert page.evaluate("() => document.activeElement.id") == "keys-button"
    for width, height in ((360, 740), (1280, 800)):
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=f"{SHOTS}-table-{width}.png")

    # M again: sound on, and so it stays.
    focus_hand(page)
    page.keyboard.press("m")
    assert page.get_by_role("button", name="Mute").get_attribute("aria-pressed") == "false"
    page.reload()
    page.locator("#board").wait_for()
    assert page.get_by_role("button", name="Mute").get_attribute("aria-pressed") == "false"
    assert tab.errors == [], "\n".join(tab.errors)


# Every live region of the page whose text says it is our turn (or our lead), by its id.
SAYING_OUR_TURN = """
() => Array.from(document.querySelectorAll("[aria-live], [role=log], [role=status], [role=alert]"))
  .filter(el => el.getAttribute("aria-live") !== "off")
  .filter(el => /\\byour (turn|lead)\\b/i.test(el.innerText))
  .map(el => el.id)
"""


def test_our_turn_is_said_by_the_log_alone_and_the_status_line_still_shows_it(tab: Tab) -> None:
    page = tab.page
    page.context.add_init_script(LISTEN)
    register(tab)
    start_by_keyboard(tab)
    page.locator("#pass-button").wait_for()
    for card in hand_cards(page)[:3]:
        page.locator(f'#hand .card[data-card="{card}"]').click()
    page.locator("#pass-button").click()

    state = page.wait_for_function(TABLE_STATE, timeout=STEP_MS).json_value()
    assert state == "play", state
    legal = page.locator("#hand .card.legal").count()
    page.wait_for_function(
        "(line) => window.__told.at(-1) === line",
        arg=f"Your turn: {legal} card{'' if legal == 1 else 's'} you may play.",
        timeout=STEP_MS,
    )
    status = page.locator("#status")
    assert status.is_visible()
    assert re.search(r"\byour (turn|lead)\b", status.inner_text()), status.inner_text()
    assert page.evaluate(SAYING_OUR_TURN) == ["table-log"]

    # What the status line says between the plays (the passes, a moon, the end) the log says.
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#resign-button").click()
    page.wait_for_function("() => window.__told.at(-1) === 'The game is over.'", timeout=STEP_MS)
    assert status.inner_text().strip() == "The game is over."
    assert tab.errors == [], "\n".join(tab.errors)
