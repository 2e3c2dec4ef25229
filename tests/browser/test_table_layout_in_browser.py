"""The table as it looks: on a phone (360 by 740) the status, the trick, whose turn it is, the clock
and the whole hand are on one screen without scrolling, while passing and while playing; on a
desktop (1280 by 800) nothing on the board covers anything else, and the Play and Pass buttons
and the hand just scored are on the screen; the cards you passed are marked until the passes go
round; seats for three to six players sit round the trick; who took a trick is said clear of its
cards; a refused card's tip is readable and covers neither the card nor a clock; before the
game, the host finds Start before the deal's long explanation.

Boxes are measured once the page has settled (its fonts loaded, nothing moving, no update on
its way), all in one go, so that what is measured is one picture of the page, however busy the
machine is.

Screenshots are saved under /tmp/hearts-table-layout/ for a person to look at.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import Tab, open_tab
from .helpers import (
    STEP_MS,
    hand_cards,
    my_seat,
    new_username,
    register,
    start_game,
    unfold_new_table,
    wait_for_bot_passes,
    waiting_table_shown,
)

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/hearts-table-layout")
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
LAPTOP = {"width": 1024, "height": 768}  # a small laptop's: the hand's summary still beside

# Our turn to play, with the page settled on it.
MY_TURN = """
() => {
  const board = document.getElementById("board-state");
  const mine = document.getElementById("my-hand");
  return board !== null && board.dataset.phase === "playing" && mine.dataset.myTurn === "1"
    && document.querySelector("#hand .card.legal") !== null;
}
"""


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


@pytest.fixture
def second_tab(browser: Any, live_site: str) -> Iterator[Tab]:
    """Another person's browser, on a phone."""
    with open_tab(browser, live_site, viewport=PHONE) as opened:
        yield opened


# Waits, in the page, until its fonts are loaded and nothing on it moves (a card sliding in, a
# lifted card, a trick gathered), then for two frames, so that the layout measured next is the
# one on the screen. (An async function given to evaluate: the page's CSP refuses the strings
# wait_for_function would run.)
SETTLE = """
async () => {
  await document.fonts.ready;
  for (let i = 0; i < 50; i++) {
    const moving = document.getAnimations().filter((a) => a.playState === "running");
    if (!moving.length) break;
    await Promise.all(moving.map((a) => a.finished.catch(() => null)));
  }
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
}
"""

# Every box that each selector names, measured in one go: one picture of the page.
MEASURE = """
(selectors) => Object.fromEntries(selectors.map((selector) => [
  selector,
  Array.from(document.querySelectorAll(selector), (el) => {
    const box = el.getBoundingClientRect();
    return {left: box.left, top: box.top, right: box.right, bottom: box.bottom};
  }),
]))
"""


def settle(page: Any) -> None:
    page.evaluate(SETTLE)


def measure(page: Any, selectors: list[str]) -> dict[str, list[dict[str, float]]]:
    """The boxes of what ``selectors`` name, once the page has settled, all from one layout."""
    settle(page)
    found: dict[str, list[dict[str, float]]] = page.evaluate(MEASURE, selectors)
    return found


def boxes(page: Any, selector: str) -> list[dict[str, float]]:
    return measure(page, [selector])[selector]


def overlap(a: dict[str, float], b: dict[str, float], slack: float = 0.5) -> bool:
    return (
        a["left"] < b["right"] - slack
        and b["left"] < a["right"] - slack
        and a["top"] < b["bottom"] - slack
        and b["top"] < a["bottom"] - slack
    )


def assert_on_screen(page: Any, selectors: list[str]) -> None:
    """Each element that ``selectors`` names is there and wholly inside the viewport, and the
    page has not been scrolled to show it."""
    assert page.evaluate("window.scrollY") == 0
    size = page.viewport_size
    for selector, found in measure(page, selectors).items():
        assert found, f"nothing matches {selector}"
        for box in found:
            inside = (
                box["left"] >= 0
                and box["top"] >= 0
                and box["right"] <= size["width"]
                and box["bottom"] <= size["height"]
            )
            assert inside, f"{selector} at {box} is not on the {size} screen"


def assert_apart(page: Any, selectors: list[str]) -> None:
    """No two of the elements that ``selectors`` name overlap on screen."""
    shown = [
        (selector, box)
        for selector, found in measure(page, selectors).items()
        for box in found
        if box["right"] > box["left"] and box["bottom"] > box["top"]
    ]
    for i, (one, a) in enumerate(shown):
        for other, b in shown[i + 1 :]:
            assert not overlap(a, b), f"{one} at {a} overlaps {other} at {b}"


DESKTOP_PARTS = [
    "#status",
    "#seats .seat",
    "#trick",
    "#hand .card",
    ".passed-cards",
    "#controls .button",
    "#controls .hint",
]


def create_table(tab: Tab, preset: str = "", players: str = "") -> str:
    """From the lobby, start a table (the rule set and size given, or the defaults); returns
    its address."""
    page = tab.page
    unfold_new_table(page)
    if preset:
        page.get_by_label("Rule set", exact=True).select_option(label=preset)
    if players:
        page.get_by_label("Players").select_option(players)
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url(re.compile(r"/t/\d+/"))
    return str(page.url)


def fill_and_start(page: Any) -> None:
    waiting_table_shown(page)
    fill = page.get_by_role("button", name="Fill empty seats with bots")
    fill.click()
    # The page filled, with nothing left to fill: Start is the new page's, not the old one's.
    fill.wait_for(state="detached")
    waiting_table_shown(page)  # the filled page's own socket, as for Fill
    page.get_by_role("button", name="Start the game").click()
    page.locator("#board").wait_for()
    page.wait_for_function("() => window.__wsOpens > 0", timeout=STEP_MS)


def pass_first_three(page: Any) -> list[str]:
    page.locator("#pass-button").wait_for(timeout=STEP_MS)
    chosen = hand_cards(page)[:3]
    for card in chosen:
        page.locator(f'#hand .card[data-card="{card}"]').click()
    page.locator("#pass-button").click()
    return chosen


def play_a_legal_card(page: Any) -> None:
    card = page.locator("#hand .card.legal").first
    card.click()
    card.click()


def test_on_a_phone_the_trick_turn_clock_and_whole_hand_fit_one_screen(tab: Tab) -> None:
    page = tab.page
    page.set_viewport_size(PHONE)
    register(tab)
    start_game(tab)
    page.locator("#pass-button").wait_for()
    wait_for_bot_passes(page)
    page.evaluate("window.scrollTo(0, 0)")

    shot(page, "phone-passing")
    mine = my_seat(page)
    assert_on_screen(page, ["#status", "#trick", f"{mine} .clock", "#hand .card", "#pass-button"])
    assert page.locator("#hand .card").count() == 13
    for box in boxes(page, "#hand .card"):
        assert box["right"] - box["left"] >= 44 and box["bottom"] - box["top"] >= 44

    pass_first_three(page)
    page.wait_for_function(MY_TURN, timeout=STEP_MS)
    assert "your" in page.locator("#status").inner_text()
    assert_on_screen(
        page, ["#status", "#trick", ".seat.to-play", ".seat.to-play .clock", "#hand .card"]
    )
    assert page.locator(".seat.to-play").count() == 1
    assert page.locator(f"{mine}.to-play").count() == 1
    shot(page, "phone-playing")

    # The four-colour deck: clubs turn green and diamonds blue, and it stays so after a reload.
    two_colour = suit_colours(page)
    toggle = page.get_by_role("button", name="Four-colour deck")
    assert toggle.get_attribute("aria-pressed") == "false"
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    four_colour = suit_colours(page)
    assert four_colour["C"] != two_colour["C"] and four_colour["D"] != two_colour["D"]
    assert four_colour["H"] == two_colour["H"] and four_colour["S"] == two_colour["S"]
    page.reload()
    page.locator("#hand .card").first.wait_for()
    assert (
        page.get_by_role("button", name="Four-colour deck").get_attribute("aria-pressed") == "true"
    )
    assert suit_colours(page) == four_colour
    assert tab.errors == [], "\n".join(tab.errors)


def suit_colours(page: Any) -> dict[str, str]:
    """The colour a card of each suit is drawn in (measured on a card made for the purpose,
    since a hand need not hold every suit)."""
    colours: dict[str, str] = page.evaluate(
        """() => {
          const board = document.getElementById("board");
          const colours = {};
          for (const suit of "CDHS") {
            const card = document.createElement("span");
            card.className = `card suit-${suit}`;
            board.appendChild(card);
            colours[suit] = getComputedStyle(card).color;
            card.remove();
          }
          return colours;
        }"""
    )
    return colours


def test_on_a_desktop_nothing_overlaps_and_the_cards_you_passed_are_marked(
    tab: Tab, second_tab: Tab
) -> None:
    host, guest = tab.page, second_tab.page
    host.emulate_media(reduced_motion="reduce")  # boxes measured where they come to rest
    host.set_viewport_size(DESKTOP)
    register(tab)
    address = create_table(tab)
    register(second_tab)
    guest.goto(address)
    waiting_table_shown(guest)
    guest.get_by_role("button", name="Sit here").first.click()
    guest.locator("#seating").wait_for()
    host.reload()
    fill_and_start(host)
    guest.locator("#board").wait_for(timeout=STEP_MS)

    # The host passes while the guest is still choosing: the passed cards stay in the hand,
    # marked, and "You passed …" sits clear of Resign and everything else.
    chosen = pass_first_three(host)
    host.locator(".passed-cards").wait_for(timeout=STEP_MS)
    assert re.fullmatch(r"You passed .+ left\.", host.locator(".passed-cards").inner_text())
    marked = host.locator("#hand .card.passed").evaluate_all(
        "els => els.map(el => el.dataset.card)"
    )
    assert sorted(marked) == sorted(chosen)
    for card in chosen:
        button = host.locator(f'#hand .card[data-card="{card}"]')
        assert "passed left" in button.locator(".visually-hidden").inner_text()
        assert button.locator(".passed-mark").inner_text().strip().lower() == "passed"
    assert host.locator("#resign-button").is_visible()
    assert_apart(host, DESKTOP_PARTS)
    shot(host, "desktop-passed")

    # Meanwhile on the guest's phone, still choosing: all of it on one screen.
    guest.wait_for_function(
        "() => document.querySelectorAll('.pass-state').length === 4"
        " && document.querySelector('#pass-button') !== null",
        timeout=STEP_MS,
    )
    guest.evaluate("window.scrollTo(0, 0)")
    guest_seat = my_seat(guest)
    assert_on_screen(guest, ["#status", "#trick", f"{guest_seat} .clock", "#hand .card"])
    shot(guest, "phone-choosing")
    pass_first_three(guest)
    host.wait_for_selector("#board-state[data-phase=playing]", state="attached", timeout=STEP_MS)
    assert host.locator("#hand .card.passed").count() == 0
    assert host.locator(".passed-cards").count() == 0

    # Play until the guest's turn (the host plays its own turns), checking both screens.
    for _ in range(30):
        state = guest.wait_for_function(
            """() => {
              const mine = document.getElementById("my-hand");
              if (mine && mine.dataset.myTurn === "1"
                  && document.querySelector("#hand .card.legal")) return "guest";
              const host = Array.from(document.querySelectorAll("#seats .seat.to-play"));
              return host.length && host[0].dataset.seat !== mine.dataset.seat
                && !host[0].querySelector(".bot-badge") ? "host" : false;
            }""",
            timeout=STEP_MS,
        ).json_value()
        if state == "guest":
            break
        host.wait_for_function(MY_TURN, timeout=STEP_MS)
        assert_apart(host, DESKTOP_PARTS)
        shot(host, "desktop-playing")
        play_a_legal_card(host)
        host.wait_for_function("() => document.getElementById('play-button') === null")
    else:
        pytest.fail("the guest never had a turn")
    guest.evaluate("window.scrollTo(0, 0)")
    assert_on_screen(
        guest, ["#status", "#trick", f"{guest_seat}.to-play", ".seat.to-play .clock", "#hand .card"]
    )
    shot(guest, "phone-guest-playing")
    assert tab.errors == [] and second_tab.errors == [], tab.errors + second_tab.errors


def wait_for_others_to_pass(page: Any, players: int) -> None:
    """Until every seat but ours shows "passed": no further update is on its way to change the
    seats' words (and so their size) while the page is measured."""
    page.wait_for_function(
        """(players) => {
          const states = Array.from(document.querySelectorAll(".pass-state"));
          return states.length === players
            && states.filter((el) => el.textContent.trim() === "passed").length === players - 1;
        }""",
        arg=players,
        timeout=STEP_MS,
    )


@pytest.mark.parametrize("players", ["3", "4", "5", "6"])
def test_every_seat_sits_round_the_trick_at_any_table_size(tab: Tab, players: str) -> None:
    page = tab.page
    page.emulate_media(reduced_motion="reduce")  # boxes measured where they come to rest
    register(tab)
    create_table(tab, preset="Encyclopedia", players=players)
    fill_and_start(page)
    page.locator("#pass-button").wait_for(timeout=STEP_MS)
    assert page.locator("#seats .seat").count() == int(players)
    wait_for_others_to_pass(page, int(players))
    mine = my_seat(page)
    others = f"#seats .seat:not({mine.removeprefix('#seats ')})"
    for size, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page.set_viewport_size(size)
        page.evaluate("window.scrollTo(0, 0)")
        shot(page, f"{name}-{players}-players")
        # Choosing what to pass, the whole hand and the Pass button are on the screen.
        assert_on_screen(
            page, ["#status", "#trick", f"{mine} .clock", "#hand .card", "#pass-button"]
        )
        assert_apart(page, ["#seats .seat", "#trick", "#hand .card", "#controls .button"])
        found = measure(page, [mine, "#trick", others])
        me, trick = found[mine][0], found["#trick"][0]
        assert me["top"] >= trick["bottom"] - 1, "your seat is below the trick"
        for box in found[others]:
            assert box["top"] < trick["bottom"], f"a seat at {box} is not beside or above the trick"
    assert tab.errors == [], "\n".join(tab.errors)


# Counts the updates after which something on the board was moving (a card sliding in, a trick
# sliding to its taker), from this page's own listener, which runs after the table's.
COUNT_MOTION = """
() => {
  window.__moving = 0;
  document.addEventListener("htmx:wsAfterMessage", () => {
    const board = document.getElementById("board");
    const moving = board ? board.getAnimations({ subtree: true }) : [];
    if (moving.some((a) => a.effect && a.effect.target.matches(".played, .gathering"))) {
      window.__moving += 1;
    }
  });
}
"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_cards_slide_in_and_tricks_to_their_taker_unless_motion_is_reduced(
    tab: Tab, motion: str
) -> None:
    page = tab.page
    page.emulate_media(reduced_motion=motion)
    register(tab)
    start_game(tab)
    page.evaluate(COUNT_MOTION)
    pass_first_three(page)
    # A few cards and the first trick taken, then the next lead.
    for _ in range(3):
        page.wait_for_function(MY_TURN, timeout=STEP_MS)
        play_a_legal_card(page)
    page.wait_for_function(MY_TURN, timeout=STEP_MS)
    shot(page, f"desktop-motion-{motion}")
    moving = page.evaluate("window.__moving")
    if motion == "reduce":
        assert moving == 0
    else:
        assert moving > 0
    assert tab.errors == [], "\n".join(tab.errors)


def seat_boxes(page: Any) -> dict[int, dict[str, float]]:
    """Each seat's box on screen, by its number."""
    found: dict[str, dict[str, float]] = page.locator("#seats .seat").evaluate_all(
        """els => Object.fromEntries(els.map(el => {
          const box = el.getBoundingClientRect();
          return [el.dataset.seat, {left: box.left, top: box.top, right: box.right, bottom: box.bottom}];
        }))"""
    )
    return {int(seat): box for seat, box in found.items()}


def assert_seen_from(page: Any, bottom: int) -> None:
    """Seat ``bottom`` sits below the trick, the next in play on the left, the one across at
    the top and the last on the right (four players)."""
    seats = seat_boxes(page)
    trick = boxes(page, "#trick")[0]
    left, top, right = ((bottom + step) % 4 for step in (1, 2, 3))
    assert seats[bottom]["top"] >= trick["bottom"] - 1, (bottom, seats, trick)
    assert seats[left]["right"] <= trick["left"] + 1, (left, seats, trick)
    assert seats[top]["bottom"] <= trick["top"] + 1, (top, seats, trick)
    assert seats[right]["left"] >= trick["right"] - 1, (right, seats, trick)


def status(page: Any) -> str:
    """The status line as the screen shows it (and its live region reads it)."""
    return str(page.locator("#status").inner_text()).strip()


def test_each_screen_sees_its_own_seat_at_the_bottom_and_the_words_meant_for_it(
    browser: Any, live_site: str, tab: Tab
) -> None:
    host = tab.page
    host.emulate_media(reduced_motion="reduce")
    host_name = register(tab)
    address = create_table(tab)
    with (
        open_tab(browser, live_site, viewport=DESKTOP) as guest_tab,
        open_tab(browser, live_site, viewport=DESKTOP) as watcher_tab,
    ):
        guest, watcher = guest_tab.page, watcher_tab.page
        guest_name = register(guest_tab)
        guest.goto(address)
        waiting_table_shown(guest)
        guest.get_by_role("button", name="Sit here").nth(1).click()  # the third seat: seat 2
        guest.locator("#seating").wait_for()
        host.reload()
        fill_and_start(host)
        guest.locator("#pass-button").wait_for(timeout=STEP_MS)
        watcher.goto(address)
        watcher.locator("#board").wait_for(timeout=STEP_MS)
        assert guest.locator("#my-hand").get_attribute("data-seat") == "2"
        for page, bottom in ((guest, 2), (watcher, 0), (host, 0)):
            page.emulate_media(reduced_motion="reduce")
            assert_seen_from(page, bottom)

        # "(you)" by a player's own name only, on their own screen only.
        def names(page: Any) -> dict[str, str]:
            found: dict[str, str] = page.locator("#seats .seat").evaluate_all(
                "els => Object.fromEntries(els.map(el => "
                "[el.dataset.seat, el.querySelector('.name').innerText.trim()]))"
            )
            return found

        assert names(guest)["2"] == f"{guest_name} (you)" and names(guest)["0"] == host_name
        assert names(host)["0"] == f"{host_name} (you)" and names(host)["2"] == guest_name
        assert names(watcher)["0"] == host_name and names(watcher)["2"] == guest_name

        # Passing: each player is asked for their cards until they have passed.
        choose = "Hand 1: choose three cards to pass left."
        wait = "Hand 1: waiting for everyone to pass left."
        assert status(guest) == choose and status(host) == choose and status(watcher) == wait
        pass_first_three(guest)
        guest.wait_for_function(
            "(text) => document.getElementById('status').innerText.trim() === text", arg=wait
        )
        assert status(host) == choose and status(watcher) == wait
        pass_first_three(host)

        # Playing: the player to move reads "your", everyone else who is to move.
        def to_move(page: Any) -> str:
            state: str = page.wait_for_function(
                """() => {
                  const board = document.getElementById("board-state");
                  const mine = document.getElementById("my-hand");
                  if (!board || board.dataset.phase !== "playing") return false;
                  if (mine.dataset.myTurn === "1" && document.querySelector("#hand .card.legal"))
                    return "me";
                  const seat = document.querySelector(`#seats .seat[data-seat="${mine.dataset.seat === "0" ? 2 : 0}"]`);
                  return seat.classList.contains("to-play") ? "other" : false;
                }""",
                timeout=STEP_MS,
            ).json_value()
            return state

        mover, other, mover_name = (
            (host, guest, host_name) if to_move(host) == "me" else (guest, host, guest_name)
        )
        assert to_move(mover) == "me"
        assert re.fullmatch(r"Hand 1: your (lead|turn \(\w+ led\))\.", status(mover)), status(mover)
        said = f"Hand 1: {mover_name} to play."
        other.wait_for_function(
            "(text) => document.getElementById('status').innerText.trim() === text", arg=said
        )
        watcher.wait_for_function(
            "(text) => document.getElementById('status').innerText.trim() === text", arg=said
        )
        for page, bottom in ((guest, 2), (watcher, 0), (host, 0)):
            shot(page, f"desktop-seen-from-{bottom}-{'watcher' if page is watcher else 'player'}")
            assert_seen_from(page, bottom)
        assert guest_tab.errors == [] and watcher_tab.errors == [], (
            guest_tab.errors + watcher_tab.errors
        )
    assert tab.errors == [], "\n".join(tab.errors)


def looks(page: Any, name: str) -> tuple[str, str, str]:
    """A button's fill, the colour of its words and of its border."""
    found: list[str] = page.get_by_role("button", name=name).first.evaluate(
        "el => { const s = getComputedStyle(el);"
        " return [s.backgroundColor, s.color, s.borderTopColor]; }"
    )
    return found[0], found[1], found[2]


DANGER = "rgb(168, 32, 13)"  # the site's warning colour (--danger)
START = "#seating .host-controls button.primary"


def test_the_host_finds_start_before_the_deal_and_closing_set_apart(tab: Tab) -> None:
    page = tab.page
    page.set_viewport_size(PHONE)
    register(tab)
    create_table(tab)
    fill = page.get_by_role("button", name="Fill empty seats with bots")
    assert fill.is_visible()
    assert looks(page, "Fill empty seats with bots")[0] != looks(page, "Start the game")[0]
    fill.click()
    page.locator(".seat-list .bot-badge").first.wait_for()
    # Colours measured at rest: not under the pointer, not halfway through a transition.
    page.mouse.move(0, 0)
    page.emulate_media(reduced_motion="reduce")
    # Every seat is taken: there is nothing left to fill.
    assert page.get_by_role("button", name="Fill empty seats with bots").count() == 0

    # Start is the filled button; Close the table is outlined in the warning colour.
    start, close = looks(page, "Start the game"), looks(page, "Close the table")
    assert close[0] != start[0], "Close the table looks like Start the game"
    assert close[1] == DANGER and close[2] == DANGER

    # On a phone as on a desktop, Start is on the first screen, before the deal's explanation.
    for size, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page.set_viewport_size(size)
        page.evaluate("window.scrollTo(0, 0)")
        shot(page, f"{name}-seating")
        assert_on_screen(page, [START])
        found = measure(page, [START, ".deal-seeds"])
        assert found[START][0]["bottom"] <= found[".deal-seeds"][0]["top"]
    assert tab.errors == [], "\n".join(tab.errors)


# What the host's page waits for in a whole hand: our turn ("took" when the trick on the table
# is one we took, so it stays there until we lead), a moon to score, or the hand scored and the
# next one's passing begun.
HAND_STATE = """
() => {
  if (document.querySelector(".moon-choice")) return "moon";
  const board = document.getElementById("board-state");
  const mine = document.getElementById("my-hand");
  if (board && board.dataset.phase === "passing" && document.querySelector("#hand-end .last-hand")
      && document.getElementById("pass-button")) return "scored";
  if (board && board.dataset.phase === "playing" && mine && mine.dataset.myTurn === "1"
      && document.querySelector("#hand .card.legal")) {
    return document.querySelector("#trick.complete") ? "took" : "play";
  }
  return false;
}
"""


def assert_taker_clear(page: Any) -> None:
    """The words saying who took the trick are on the board, over none of the trick's cards
    and none of the seats, and wholly shown in their box."""
    taker = "#trick > .trick-taker"
    found = measure(page, ["#board", taker, "#trick > .played", "#seats .seat"])
    said, board = found[taker][0], found["#board"][0]
    assert board["left"] <= said["left"] and said["right"] <= board["right"]
    assert board["top"] <= said["top"] and said["bottom"] <= board["bottom"]
    for other in found["#trick > .played"] + found["#seats .seat"]:
        assert not overlap(said, other), f"who took the trick ({said}) covers {other}"
    spilt = page.locator(taker).evaluate(
        "el => [el.scrollWidth - el.clientWidth, el.scrollHeight - el.clientHeight]"
    )
    assert spilt[0] <= 1 and spilt[1] <= 1, f"its words do not fit: {spilt}"


def same_trick(host: Any, watcher: Any) -> None:
    """Until the watcher's screen shows the trick the host's shows."""
    key = host.locator("#trick").get_attribute("data-trick")
    watcher.locator(f'#trick[data-trick="{key}"]').wait_for(timeout=STEP_MS)


def play_the_highest_legal_card(page: Any) -> None:
    """The last legal card of the hand (its highest of a suit): likely to take the trick."""
    card = page.locator("#hand .card.legal").last
    name = card.get_attribute("data-card")
    card.click()
    card.click()
    page.wait_for_function(
        """(card) => !document.querySelector(`#hand .card[data-card="${card}"]`)
          || document.querySelector("#board-state[data-phase=passing]")""",
        arg=name,
        timeout=STEP_MS,
    )


@pytest.mark.parametrize(("players", "size"), [("4", "desktop"), ("6", "desktop"), ("4", "laptop")])
def test_a_whole_hand_keeps_play_pass_and_the_score_on_screen_and_the_taker_off_the_cards(
    browser: Any, live_site: str, tab: Tab, players: str, size: str
) -> None:
    """A host with a name as long as names go plays on a laptop (1280 wide, or 1024) while
    someone watches on a phone: the Play button is on the screen at each turn, the hand just
    scored (beside the table, right of the trick) and the Pass button once the next pass
    begins, and who took a trick is said clear of its cards."""
    host = tab.page
    host.set_viewport_size(DESKTOP if size == "desktop" else LAPTOP)
    host.emulate_media(reduced_motion="reduce")
    register(tab, new_username(20))
    address = create_table(tab, preset="Encyclopedia", players=players)
    fill_and_start(host)
    mine = my_seat(host)
    with open_tab(browser, live_site, viewport=PHONE) as watcher_tab:
        watcher = watcher_tab.page
        watcher.emulate_media(reduced_motion="reduce")
        watcher.goto(address)
        watcher.locator("#board").wait_for(timeout=STEP_MS)
        pass_first_three(host)
        taken = scored = False
        for _ in range(3 * 13):
            state = host.wait_for_function(HAND_STATE, timeout=STEP_MS).json_value()
            if state == "moon":
                host.locator(".moon-choice").first.click()
                host.wait_for_selector(".moon-choice", state="detached", timeout=STEP_MS)
                continue
            if state == "scored":
                wait_for_others_to_pass(host, int(players))
                host.evaluate("window.scrollTo(0, 0)")
                shot(host, f"{size}-{players}-hand-scored")
                boxes = measure(host, ["#hand-end", "#trick"])
                assert boxes["#hand-end"][0]["left"] >= boxes["#trick"][0]["right"], boxes
                if size == "laptop":  # its 768 px need not hold all of the table at once
                    scored = True
                    break
                assert_on_screen(host, ["#status", "#hand-end", "#hand .card", "#pass-button"])
                assert_apart(host, ["#hand-end", "#seats .seat", "#trick", *DESKTOP_PARTS[3:]])
                if host.locator("#trick.complete").count():
                    assert_taker_clear(host)
                    same_trick(host, watcher)
                    assert_taker_clear(watcher)
                scored = True
                if taken:
                    break
                pass_first_three(host)
                host.wait_for_selector("#pass-button", state="detached", timeout=STEP_MS)
                continue
            if state == "took" and not taken:
                assert_taker_clear(host)
                same_trick(host, watcher)
                shot(watcher, f"phone-{players}-watching-a-trick-taken")
                assert_taker_clear(watcher)
                taken = True
            host.evaluate("window.scrollTo(0, 0)")
            if size == "desktop":
                assert_on_screen(host, ["#status", f"{mine} .clock", "#hand .card", "#play-button"])
            play_the_highest_legal_card(host)
        assert scored and (taken or size == "laptop"), f"took: {taken}, scored: {scored}"
        assert watcher_tab.errors == [], "\n".join(watcher_tab.errors)
    assert tab.errors == [], "\n".join(tab.errors)


def _refused_cards_by_the_right_edge(page: Any, width: int) -> list[dict[str, float]]:
    """The refused cards at the first turn of the player's that has one near the right edge of
    the screen, playing the first legal card at each turn until then. Most deals have one in the
    first hand; a deal whose right-hand cards are always playable goes on to the next hands."""
    for _ in range(3):  # hands 1 to 3 all pass
        pass_first_three(page)
        for _ in range(13):
            page.wait_for_function(MY_TURN, timeout=STEP_MS)
            page.evaluate("window.scrollTo(0, 0)")
            refused = measure(page, ["#hand .card.illegal"])["#hand .card.illegal"]
            if refused and max(box["right"] for box in refused) > width - 60:
                return refused
            play_a_legal_card(page)
    pytest.fail("no refused card by the right edge of the screen in three hands")


def test_on_a_phone_a_refused_cards_tip_is_readable_and_covers_neither_card_nor_clock(
    tab: Tab,
) -> None:
    page = tab.page
    page.set_viewport_size(PHONE)
    page.emulate_media(reduced_motion="reduce")
    register(tab)
    start_game(tab)
    width = PHONE["width"]
    refused = _refused_cards_by_the_right_edge(page, width)
    # The refused card nearest the right edge, tapped.
    index = max(range(len(refused)), key=lambda i: refused[i]["right"])
    # (Forced: a refused card says it is disabled, which Playwright would wait out.)
    page.locator("#hand .card.illegal").nth(index).click(force=True)
    page.locator("#card-tip").wait_for()
    shot(page, "phone-refused-tip")
    found = measure(page, ["#card-tip", ".clock"])
    tip, card = found["#card-tip"][0], refused[index]
    assert tip["left"] >= 0 and tip["right"] <= width, f"the tip {tip} leaves the screen"
    line = page.locator("#card-tip").evaluate("el => parseFloat(getComputedStyle(el).lineHeight)")
    assert tip["bottom"] - tip["top"] < 2.5 * line, f"the tip {tip} is squeezed into a column"
    assert not overlap(tip, card), f"the tip {tip} covers its card {card}"
    for clock in found[".clock"]:
        assert not overlap(tip, clock), f"the tip {tip} covers a clock {clock}"
    assert tab.errors == [], "\n".join(tab.errors)


SIZES = {"phone": PHONE, "desktop": DESKTOP}


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_cards_tip_never_covers_your_own_name_bar(tab: Tab, size: str) -> None:
    """The card's name, shown on hover (or focus, or a long press), sits clear of your own
    seat's plate, which lies just over your hand, and clear of the card itself."""
    page = tab.page
    page.set_viewport_size(SIZES[size])
    page.emulate_media(reduced_motion="reduce")
    register(tab)
    start_game(tab)
    pass_first_three(page)
    page.wait_for_function(MY_TURN, timeout=STEP_MS)
    page.evaluate("window.scrollTo(0, 0)")
    mine = my_seat(page)
    cards = page.locator("#hand .card")
    for index in range(cards.count()):
        cards.nth(index).hover()
        page.locator("#card-tip").wait_for()
        found = measure(page, ["#card-tip", mine, "#hand .card"])
        tip, me, card = found["#card-tip"][0], found[mine][0], found["#hand .card"][index]
        if index == 0:
            shot(page, f"{size}-card-tip")
        assert not overlap(tip, me), f"the tip {tip} of card {index} covers your name bar {me}"
        assert not overlap(tip, card), f"the tip {tip} covers its card {card}"
        assert tip["left"] >= 0 and tip["right"] <= SIZES[size]["width"], tip
    assert tab.errors == [], "\n".join(tab.errors)


# Where a seat's total ends and its pass state begins: the boxes of the last letter of the one
# and the first of the other, the pass state's size of letters and whether it has a ring.
TOTAL_AND_STATE = """
(seat) => {
  const letter = (node, at) => {
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + 1);
    return range.getBoundingClientRect().toJSON();
  };
  const facts = seat.querySelector(".facts").firstChild;
  const state = seat.querySelector(".pass-state");
  const style = getComputedStyle(state);
  return {
    end: letter(facts, facts.length - 1),
    start: letter(state.firstChild, 0),
    em: parseFloat(style.fontSize),
    ring: style.borderTopStyle !== "none" && parseFloat(style.borderTopWidth) > 0,
  };
}
"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_each_seat_says_its_total_and_whether_it_has_passed_apart(tab: Tab, size: str) -> None:
    """ "total 0" and "passed" (or "choosing") never run together: on the screen the pass
    state is a ring of its own, at least most of a letter's width from the total or on a line
    of its own, and a screen reader hears a comma between them."""
    page = tab.page
    page.set_viewport_size(SIZES[size])
    register(tab)
    start_game(tab)
    page.locator("#pass-button").wait_for(timeout=STEP_MS)
    wait_for_bot_passes(page)
    settle(page)
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, f"{size}-seats-passing")
    seats = page.locator("#seats .seat")
    assert seats.count() == 4
    for index in range(4):
        seat = seats.nth(index)
        read = " ".join(seat.text_content().split())
        assert re.search(r"total -?\d+, (passed|choosing)", read), read
        found = seat.evaluate(TOTAL_AND_STATE)
        end, start = found["end"], found["start"]
        own_line = start["top"] >= end["bottom"] - 1
        assert own_line or start["left"] - end["right"] >= 0.7 * found["em"], (read, found)
        assert found["ring"], f"the pass state of {read!r} is not marked off"
    assert tab.errors == [], "\n".join(tab.errors)


# How many lines the total's words ("total 0", from "total" to the end of the facts) take on
# the screen.
TOTAL_LINES = """
(seat) => {
  const facts = seat.querySelector(".facts").firstChild;
  const range = document.createRange();
  range.setStart(facts, facts.data.lastIndexOf("total"));
  range.setEnd(facts, facts.length);
  return new Set([...range.getClientRects()].map((box) => Math.round(box.top))).size;
}
"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_screen_reader_hears_each_seats_name_badge_and_facts_apart(tab: Tab, size: str) -> None:
    """The accessibility tree reads a seat as "Bot 3, bot, 13 cards · 0 points · total 0", not
    "Bot 3 BOT13 cards", and your own as "alice (you), 13 cards …"; and on the screen "total 0"
    is never broken over two lines, not even on a phone's narrow side seats."""
    page = tab.page
    page.set_viewport_size(SIZES[size])
    name = register(tab)
    start_game(tab)
    page.locator("#pass-button").wait_for(timeout=STEP_MS)
    settle(page)
    shot(page, f"{size}-seats-read")
    # Each seat's words: a line of its own, or a text beside the timer of the seat on the clock
    # (the tree puts a space where one element ends: " ," reads as ",").
    tree = page.locator("#seats").aria_snapshot()
    seats_read = re.findall(r"- (?:listitem|text): (.*)", tree)
    read = [re.sub(r" ([,.])", r"\1", line) for line in seats_read]
    assert len(read) == 4, read
    facts = r"\d+ cards? · \d+ points? · total -?\d+"
    assert re.match(rf"{re.escape(name)} \(you\), {facts}", read[0]), read
    for seat, heard in enumerate(read[1:], start=2):
        assert re.match(rf"Bot {seat}, bot, {facts}", heard), read
    seats = page.locator("#seats .seat")
    for index in range(4):
        assert seats.nth(index).evaluate(TOTAL_LINES) == 1, seats.nth(index).inner_text()
    # A plate narrower still (larger letters, a longer total or word): "total" and its number
    # stay on one line however the rest of the facts wraps.
    for index in range(4):
        seats.nth(index).evaluate("(seat) => { seat.style.width = '2.6rem'; }")
        assert seats.nth(index).evaluate(TOTAL_LINES) == 1, seats.nth(index).inner_text()
    assert tab.errors == [], "\n".join(tab.errors)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_tables_own_tools_and_rules_come_before_the_chat(tab: Tab, size: str) -> None:
    """On a phone: the board, then the table's tools (four-colour deck, sound, keys), then its
    rules, and the chat last. On a desktop the tools and the rules are over the board, the
    chat beside it, under the tools."""
    page = tab.page
    page.set_viewport_size(SIZES[size])
    register(tab)
    start_game(tab)
    page.locator("#pass-button").wait_for(timeout=STEP_MS)
    page.get_by_role("button", name="Four-colour deck").wait_for()
    parts = [".table-tools", "#rules-in-force", "#board", "#chat"]
    found = {name: boxes[0] for name, boxes in measure(page, parts).items()}
    tools, rules, board, chat = (found[name] for name in parts)
    page.screenshot(path=str(SHOTS / f"{size}-tools-and-chat.png"), full_page=True)
    if size == "phone":
        assert board["bottom"] <= tools["top"], (board, tools)
        assert tools["bottom"] <= rules["top"], (tools, rules)
        assert rules["bottom"] <= chat["top"], f"the chat {chat} comes before the rules {rules}"
    else:
        assert tools["bottom"] <= board["top"] and rules["bottom"] <= board["top"]
        assert tools["bottom"] <= chat["top"] and chat["left"] >= board["right"], (chat, board)
    for part in found.values():
        assert part["right"] <= SIZES[size]["width"] + 0.5, part
    assert tab.errors == [], "\n".join(tab.errors)
