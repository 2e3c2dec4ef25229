"""The table's chat in Chromium, with four people in browsers of their own: ann hosts a table
on a laptop (1280 by 800), bob sits at it on a phone (360 by 740), cara sits at it on a laptop,
and wes watches it. A bot takes the fourth seat.

The players' chat is seen by the three players and the spectators' by wes alone, live and after
a reload; on bob's phone the chat is folded under the table and counts what he has not read;
markup arrives as the letters typed, a 500-character word stays inside the box and 600
characters are refused; C goes to the chat and Escape back to the table; cara mutes bob, and
his next message reaches ann but never cara; the chat tells whoever mutes someone whom they
muted, on the phone and the laptop, and its Unmute (a button, with the keys too) brings the
messages back; ann reports a message of bob's and staff read it in the admin; staff ban cara
from chat, and what she writes is refused with their reason; ann resigns, and the players read
what wes writes then without loading their pages again.

The tests run in this order on the one table (a person's ban, then the game's end, come last).
Screenshots are saved under /tmp/hearts-chat/ for a person to look at.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from .conftest import Site, Tab, open_tab
from .helpers import STEP_MS, register, staff_page, unfold_new_table, waiting_table_shown

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/hearts-chat")
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}
GAP = 1.15  # seconds: one message a second per person and room


@dataclass
class Person:
    tab: Tab
    name: str
    sent_at: float = 0.0

    @property
    def page(self) -> Any:
        return self.tab.page

    def say(self, text: str) -> None:
        """Type ``text`` in the chat and press Enter, a second after this person's last."""
        time.sleep(max(0.0, self.sent_at + GAP - time.monotonic()))
        box = self.page.locator("#chat-input")
        box.fill(text)
        box.press("Enter")
        self.sent_at = time.monotonic()

    def said(self, text: str) -> Any:
        """The messages on this person's screen whose text is ``text``."""
        return self.page.locator("#chat .chat-message").filter(
            has=self.page.locator(".chat-text").get_by_text(text, exact=True)
        )

    def sees(self, text: str) -> None:
        self.said(text).first.wait_for(state="attached", timeout=STEP_MS)  # folded too

    def shot(self, name: str) -> None:
        SHOTS.mkdir(exist_ok=True)
        self.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


@dataclass
class Table:
    url: str
    ann: Person
    bob: Person
    cara: Person
    wes: Person


def _sit(person: Person, url: str) -> None:
    person.page.goto(url)
    waiting_table_shown(person.page)
    person.page.get_by_role("button", name="Sit here").first.click()
    person.page.get_by_role("button", name="Leave my seat").wait_for()


@pytest.fixture(scope="module")
def table(browser: Any, live_site: str) -> Iterator[Table]:
    with ExitStack() as stack:

        def person(viewport: dict[str, int]) -> Person:
            tab = stack.enter_context(open_tab(browser, live_site, viewport=viewport))
            return Person(tab, register(tab))

        ann, bob, cara, wes = person(LAPTOP), person(PHONE), person(LAPTOP), person(LAPTOP)
        unfold_new_table(ann.page)
        ann.page.get_by_role("button", name="Create table").click()
        ann.page.wait_for_url(re.compile(r"/t/\d+/$"))
        url = ann.page.url
        _sit(bob, url)
        _sit(cara, url)
        ann.page.reload()
        waiting_table_shown(ann.page)
        ann.page.get_by_role("button", name="Fill empty seats with bots").click()
        ann.page.get_by_role("button", name="Start the game").click()
        for player in (ann, bob, cara):
            if player is not ann:
                player.page.reload()
            player.page.wait_for_selector("#board-state[data-phase]", state="attached")
            player.page.locator("#chat-input").wait_for(state="attached")
        wes.page.goto(url)
        wes.page.wait_for_selector("#board-state[data-phase]", state="attached")
        yield Table(url, ann, bob, cara, wes)
        for someone in (ann, bob, cara, wes):
            assert someone.tab.errors == [], f"{someone.name}: " + "\n".join(someone.tab.errors)


def _open_chat_on_the_phone(bob: Person) -> None:
    if bob.page.locator("#chat-fold").get_attribute("open") is None:
        bob.page.locator("#chat-fold > summary").click()
    bob.page.locator("#chat-input").wait_for()


def test_each_room_sees_only_its_own_and_the_phone_counts_what_is_unread(table: Table) -> None:
    ann, bob, cara, wes = table.ann, table.bob, table.cara, table.wes
    # On the phone the chat is under the table, folded to one line.
    assert bob.page.locator("#chat-fold").get_attribute("open") is None
    board = bob.page.locator("#board").bounding_box()
    folded = bob.page.locator("#chat").bounding_box()
    assert folded["y"] >= board["y"] + board["height"] and folded["height"] < 70
    # Beside the table on a laptop, open.
    beside = ann.page.locator("#chat").bounding_box()
    assert beside["x"] >= ann.page.locator("#board").bounding_box()["x"] + 600
    assert wes.page.get_by_label("Write in the Spectators' chat").is_visible()

    wes.say("Who will take the queen?")
    wes.sees("Who will take the queen?")
    ann.page.get_by_role("button", name="Good luck").click()
    for player in (ann, bob, cara):
        player.sees("Good luck")
    line = cara.said("Good luck").inner_text()
    assert ann.name in line and re.search(r"\d\d:\d\d", line)
    badge = bob.page.locator("#chat-unread")
    badge.wait_for()
    assert badge.inner_text() == "1 new"
    bob.shot("phone-folded-unread")

    cara.say("Good luck to you too")
    bob.page.wait_for_function(
        "() => document.getElementById('chat-unread').textContent === '2 new'"
    )
    _open_chat_on_the_phone(bob)
    bob.page.locator("#chat-unread").wait_for(state="hidden")  # read now
    bob.sees("Good luck to you too")
    bob.shot("phone-open")
    # The players' words never reach the spectator, nor the spectator's the players.
    time.sleep(0.5)
    assert wes.said("Good luck").count() == 0 and wes.said("Good luck to you too").count() == 0
    for player in (ann, bob, cara):
        assert player.said("Who will take the queen?").count() == 0

    # All of it is still there after a reload, each in its own room.
    for someone in (ann, wes):
        someone.page.reload()
    ann.sees("Good luck to you too")
    assert ann.said("Who will take the queen?").count() == 0
    wes.sees("Who will take the queen?")
    assert wes.said("Good luck").count() == 0
    ann.shot("laptop-players")
    wes.shot("laptop-spectators")


def test_markup_is_shown_as_typed_a_long_word_wraps_and_600_characters_are_refused(
    table: Table,
) -> None:
    ann, bob, cara = table.ann, table.bob, table.cara
    _open_chat_on_the_phone(bob)
    markup = '<script>document.title="taken"</script><b>bold</b> https://evil.example/'
    bob.say(markup)
    ann.sees(markup)
    shown = ann.said(markup).locator(".chat-text")
    assert shown.locator("b, a, script").count() == 0
    assert ann.page.title() != "taken" and bob.page.title() != "taken"

    word = "w" * 500
    cara.say(word)
    bob.sees(word)
    fits = """() => {
      const box = document.getElementById("chat");
      return [box.scrollWidth - box.clientWidth,
              document.documentElement.scrollWidth - window.innerWidth];
    }"""
    assert max(bob.page.evaluate(fits)) <= 1
    assert max(ann.page.evaluate(fits)) <= 1
    bob.shot("phone-long-word")

    too_long = "x" * 600
    cara.say(too_long)
    error = cara.page.locator("#chat-error")
    error.wait_for()
    assert error.inner_text() == "A message is at most 500 characters: this one has 600"
    assert cara.page.locator("#chat-input").input_value() == too_long  # kept, to shorten
    time.sleep(0.5)
    assert ann.said(too_long).count() == 0 and cara.said(too_long).count() == 0


def test_c_goes_to_the_chat_escape_back_and_a_new_message_is_told(table: Table) -> None:
    ann, bob = table.ann, table.bob
    ann.page.locator("#status").click()
    ann.page.keyboard.press("c")
    assert ann.page.evaluate("document.activeElement.id") == "chat-input"
    ann.page.keyboard.type("Typed with keys")
    ann.page.keyboard.press("Enter")
    bob.sees("Typed with keys")
    ann.page.keyboard.press("Escape")
    assert ann.page.evaluate("document.activeElement.id") != "chat-input"
    assert ann.page.evaluate("!!document.activeElement.closest('main')")
    told = bob.page.locator("#chat-said")
    assert told.get_attribute("aria-live") == "polite"
    assert f"{ann.name} says: Typed with keys" in told.text_content()


def test_a_muted_person_is_hidden_from_the_muter_alone_and_stays_hidden(table: Table) -> None:
    ann, bob, cara = table.ann, table.bob, table.cara
    _open_chat_on_the_phone(bob)
    bob.say("Before the mute")
    cara.sees("Before the mute")
    cara.said("Before the mute").get_by_role("button", name=f"Mute {bob.name}").click()
    cara.said("Before the mute").wait_for(state="detached")
    bob.say("After the mute")
    ann.sees("After the mute")
    bob.sees("After the mute")
    time.sleep(0.5)
    assert cara.said("After the mute").count() == 0
    cara.page.reload()
    cara.page.locator("#chat-input").wait_for()
    cara.sees("Good luck")  # ann's, still there
    assert cara.said("After the mute").count() == 0 and cara.said("Before the mute").count() == 0
    cara.page.goto(f"/u/{bob.name}/")
    assert cara.page.get_by_role("button", name=re.compile("Unmute")).is_visible()
    cara.page.goto(table.url)


def _mute_and_unmute_with_keys(muter: Person, muted: Person, text: str) -> None:
    """``muter`` mutes ``muted`` from the message ``text`` with the keyboard: the chat says so
    (and tells a screen reader), with an Unmute button that has the focus; pressing it brings
    the messages back and says so too."""
    page = muter.page
    muter.said(text).get_by_role("button", name=f"Mute {muted.name}").focus()
    page.keyboard.press("Enter")
    notice = page.locator("#chat .chat-muted")
    unmute = page.get_by_role("button", name=f"Unmute {muted.name}")
    unmute.wait_for()
    assert notice.text_content() == f"You muted {muted.name} (Unmute {muted.name})"
    assert muter.said(text).count() == 0
    told = page.locator("#chat-said")
    assert f"You muted {muted.name}" in told.text_content()
    assert page.evaluate("document.activeElement.classList.contains('chat-unmute')")
    inside, box = notice.bounding_box(), page.locator("#chat").bounding_box()
    assert box["x"] <= inside["x"] and inside["x"] + inside["width"] <= box["x"] + box["width"]
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 1
    muter.shot(f"muted-{page.viewport_size['width']}")

    page.keyboard.press("Enter")
    muter.sees(text)
    notice.wait_for(state="detached")
    assert f"You unmuted {muted.name}" in told.text_content()
    assert page.evaluate("document.activeElement.id") == "chat-input"


def test_the_muter_is_told_whom_they_muted_and_unmute_brings_the_messages_back(
    table: Table,
) -> None:
    """At 360 px (bob, on his phone, mutes ann) and at 1280 (ann mutes cara; the chat still
    names cara after a reload)."""
    ann, bob, cara = table.ann, table.bob, table.cara
    _open_chat_on_the_phone(bob)
    ann.say("Before ann is muted")
    bob.sees("Before ann is muted")
    _mute_and_unmute_with_keys(bob, ann, "Before ann is muted")

    cara.say("Before cara is muted")
    ann.sees("Before cara is muted")
    ann.said("Before cara is muted").get_by_role("button", name=f"Mute {cara.name}").click()
    unmute = ann.page.get_by_role("button", name=f"Unmute {cara.name}")
    unmute.wait_for()
    ann.page.reload()
    unmute.wait_for()
    assert ann.said("Before cara is muted").count() == 0
    unmute.click()
    ann.sees("Before cara is muted")
    ann.page.locator("#chat .chat-muted").wait_for(state="detached")
    cara.say("Cara is heard again")
    ann.sees("Cara is heard again")
    _mute_and_unmute_with_keys(ann, cara, "Cara is heard again")


def test_a_report_of_a_message_reaches_staff_with_its_text_and_a_chat_ban_refuses(
    table: Table, site: Site, browser: Any, live_site: str
) -> None:
    ann, bob, cara = table.ann, table.bob, table.cara
    rude = "You play like a potato"
    _open_chat_on_the_phone(bob)
    bob.say(rude)
    ann.sees(rude)
    with ann.page.context.expect_page() as opened:
        ann.said(rude).get_by_role("link", name=re.compile("^Report")).click()
    form = opened.value
    form.wait_for_load_state()
    assert rude in form.locator(".chat-reported").inner_text()
    form.get_by_label("Abuse").check()
    form.get_by_label("What happened").fill("Insults in the players' chat.")
    form.get_by_role("button", name="Send the report").click()
    form.wait_for_url("**/reports/mine/")
    assert f"Staff will read your report of {bob.name}." in form.locator(".messages").inner_text()
    form.close()

    staff = staff_page(site, browser, live_site, viewport=LAPTOP)
    staff.goto("/admin/reports/report/")
    staff.locator("#result_list tbody tr", has_text=bob.name).locator("th a, td a").first.click()
    shown = staff.locator(".chat-reported")
    assert shown.inner_text() == rude
    assert "players" in staff.locator(".field-chat_message_shown").inner_text()
    staff.screenshot(path=str(SHOTS / "admin-report.png"), full_page=True)

    staff.goto(f"/admin/auth/user/?q={cara.name}")
    row = staff.locator("#result_list tbody tr", has_text=cara.name)
    row.locator("input.action-select").check()
    staff.locator("select[name=action]").select_option("chat_ban")
    staff.get_by_role("button", name="Go").click()
    staff.get_by_label("Reason (shown to the person)").fill("Spam in the chat")
    staff.locator("input[type=submit]").click()
    staff.wait_for_selector(".messagelist")
    staff.context.close()

    cara.say("Can I still talk?")
    error = cara.page.locator("#chat-error")
    error.wait_for()
    assert "Spam in the chat" in error.inner_text()
    time.sleep(0.5)
    assert ann.said("Can I still talk?").count() == 0
    # Her earlier message stays, for the reports.
    ann.sees("Good luck to you too")


def test_once_the_game_is_over_the_players_read_the_spectators_without_a_reload(
    table: Table,
) -> None:
    ann, bob, wes = table.ann, table.bob, table.wes
    ann.page.once("dialog", lambda dialog: dialog.accept())
    ann.page.locator("#resign-button").click()
    for player in (ann, bob):
        player.page.locator(".result").wait_for(timeout=STEP_MS)
        player.page.locator("#chat-log-spectators").wait_for(state="attached", timeout=STEP_MS)

    said = [f"Well played, all {n}" for n in range(3)]
    for text in said:
        wes.say(text)
    for player in (ann, bob):
        for text in said:
            player.sees(text)
    assert ann.said(said[0]).count() == 1
    ann.shot("after-the-game-laptop")
    bob.shot("after-the-game-phone")
