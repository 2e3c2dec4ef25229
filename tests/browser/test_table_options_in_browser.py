"""Table options in Chromium: the create-table form offers only what the chosen rule set allows,
a forged option is refused with its reason, the table says its rules in words, a short match
ends with links to its pages, a host closes a waiting table, the lobby's list, pushed alike to
everyone, leaves the signed-in told to start a table while it is empty, and a private table's
invite link is copied whole by its button.

Run with ``pytest -m browser tests/browser``; the site runs in its own processes (see conftest).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from . import axe
from .conftest import Tab, open_tab
from .helpers import (
    PLAY_OR_FLASH,
    STEP_MS,
    hand_cards,
    register,
    unfold_new_table,
    wait_card_gone,
    waiting_table_shown,
)

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/shots/table-options")
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}

# What the page waits for during a match: our pass, our card, our moon choice, or its end.
MATCH_STATE = (
    """
() => {
  const result = document.getElementById("result");
  if (result && !result.hidden) return "over";
  if (document.querySelector(".moon-choice")) return "moon";
  if (document.getElementById("pass-button")) return "pass";"""
    + PLAY_OR_FLASH
)


def _shoot(page: Any, name: str) -> None:
    """A screenshot at desktop and at phone size, the page left at desktop size."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size, label in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page.set_viewport_size(size)
        page.screenshot(path=str(SHOTS / f"{name}-{label}.png"), full_page=True)


def _no_serious_violations(page: Any) -> None:
    found = axe.serious_violations(page)
    assert found == [], axe.describe(found)


def _option_row(page: Any, name: str) -> Any:
    return page.locator(f'#table-form [data-option="{name}"]')


def _choose_set(page: Any, title: str) -> None:
    page.get_by_label("Rule set", exact=True).select_option(label=title)


def test_a_rule_set_offers_only_its_options_and_the_table_says_them_in_words(tab: Tab) -> None:
    page = tab.page
    page.set_viewport_size(DESKTOP)
    register(tab)
    unfold_new_table(page)
    page.locator("#table-options summary").click()

    _choose_set(page, "Club")
    assert _option_row(page, "target").is_visible()
    assert not _option_row(page, "jack_of_diamonds").is_visible()
    assert not _option_row(page, "moon").is_visible()
    assert page.locator("#id_players option[value='3']").is_disabled()
    assert "shooter chooses" in page.locator("#preset-summary").inner_text()
    assert "Club plays to 100 or 50 points" in page.locator("#target-hint").inner_text()

    _choose_set(page, "Standard")
    assert "has no options to change" in page.locator("#options-note").inner_text()
    assert page.locator("#table-form [data-option]:visible").count() == 0

    _choose_set(page, "Encyclopedia")
    for name in ("jack_of_diamonds", "shoot_the_sun", "short_pack", "first_lead", "old_queen"):
        assert _option_row(page, name).is_visible(), name
    for name in ("moon", "ties", "clock", "target", "queen_breaks_hearts"):
        assert not _option_row(page, name).is_visible(), name
    assert page.locator("#id_players option[value='6']").is_enabled()
    _shoot(page, "lobby-form")
    _no_serious_violations(page)

    page.get_by_label("Players").select_option("3")
    page.get_by_label("Jack of diamonds").check()
    page.get_by_label("Odd cards").select_option(label="Deal them to a kitty")
    _create_table(page)

    rules = page.locator("#rules-in-force")
    summary = rules.locator(".rules-summary").inner_text()
    assert summary.startswith("3 players · to 100")
    assert "jack of diamonds \N{MINUS SIGN}10" in summary and "kitty" in summary
    assert not rules.locator("dl").is_visible()
    rules.locator("summary", has_text="Rules at this table").click()
    assert "kitty" in rules.locator("dl").inner_text()
    assert "Whoever takes the J♦ scores" in rules.locator("dl").inner_text()
    assert page.locator("#rules-link").count() == 1
    _shoot(page, "table-rules")
    _no_serious_violations(page)
    assert tab.errors == [], "\n".join(tab.errors)


def test_an_option_the_set_does_not_offer_is_refused_even_if_forged(tab: Tab) -> None:
    page = tab.page
    username = register(tab)
    unfold_new_table(page)
    _choose_set(page, "Club")
    # What the form would not send: the jack of diamonds at a Club table.
    page.evaluate(
        """() => {
          const box = document.getElementById("id_jack_of_diamonds");
          box.disabled = false;
          box.checked = true;
        }"""
    )
    page.get_by_role("button", name="Create table").click()

    refusal = page.get_by_role("alert")
    assert "Club does not offer “Jack of diamonds \N{MINUS SIGN}10”" in refusal.inner_text()
    assert page.url.endswith("/t/new/")
    page.goto("/")
    assert (
        page.locator(
            "#table-list tr", has_text=f"{username}\N{RIGHT SINGLE QUOTATION MARK}s table"
        ).count()
        == 0
    )


def test_a_short_match_ends_with_places_totals_and_links_to_its_pages(tab: Tab) -> None:
    page = tab.page
    page.set_viewport_size(DESKTOP)
    username = register(tab)
    unfold_new_table(page)
    page.locator("#table-options summary").click()
    _choose_set(page, "Custom")
    page.get_by_label("Target").fill("25")
    _create_table(page)
    assert "to 25" in page.locator(".rules-summary").inner_text()
    waiting_table_shown(page)
    fill = page.get_by_role("button", name="Fill empty seats with bots")
    fill.click()
    fill.wait_for(state="detached")  # the filled page's Start, not the one before it
    waiting_table_shown(page)  # the filled page's own socket, as for Fill
    page.get_by_role("button", name="Start the game").click()
    page.locator("#board").wait_for(timeout=STEP_MS)

    _play_to_the_end(page)

    result = page.locator("#result")
    places = result.locator(".placings li").all_inner_texts()
    assert len(places) == 4
    assert places[0].startswith("1st: ")
    assert any(place.split(": ")[1].startswith(username) for place in places)
    for place in places:
        assert re.fullmatch(r"\d(st|nd|rd|th): .+, -?\d+ points", place), place
    totals = [int(place.rsplit(", ", 1)[1].removesuffix(" points")) for place in places]
    assert totals == sorted(totals)
    assert max(totals) >= 25
    assert page.get_by_role("button", name="Rematch").is_visible()
    result.scroll_into_view_if_needed()
    _shoot(page, "match-result")
    _no_serious_violations(page)
    table_url = page.url

    result.get_by_role("link", name="The game\N{RIGHT SINGLE QUOTATION MARK}s page").click()
    page.wait_for_url(re.compile(r"/g/\d+/$"), timeout=STEP_MS)
    assert page.get_by_role("heading", name="Result").is_visible()
    page.goto(table_url)
    page.locator("#result").get_by_role("link", name="Replay it").click()
    page.wait_for_url(re.compile(r"/g/\d+/#replay-heading$"), timeout=STEP_MS)
    assert page.locator("#replay-step").is_visible()
    page.goto(table_url)
    page.locator("#result").get_by_role("link", name="Check its deals").click()
    page.wait_for_url(re.compile(r"/g/\d+/verify/$"), timeout=STEP_MS)
    assert "deal" in page.locator("main").inner_text().lower()
    assert tab.errors == [], "\n".join(tab.errors)


def test_the_host_closes_a_waiting_table_and_it_leaves_the_lobby(
    tab: Tab, browser: Any, live_site: str
) -> None:
    page = tab.page
    page.set_viewport_size(DESKTOP)
    register(tab)
    _create_table(page)
    table_path = re.sub(r"^https?://[^/]+", "", page.url)
    # Bob sits down and waits at the table.
    with open_tab(browser, live_site, viewport=DESKTOP) as bob:
        register(bob)
        assert bob.page.locator(f"#table-list a[href='{table_path}']").count() == 1
        bob.page.goto(table_path)
        waiting_table_shown(bob.page)
        bob.page.get_by_role("button", name="Sit here").first.click()
        bob.page.get_by_role("button", name="Leave my seat").wait_for(timeout=STEP_MS)
        bob.page.wait_for_function("() => window.__wsMessages > 0", timeout=STEP_MS)
        page.reload()
        _shoot(page, "waiting-table")

        page.get_by_role("button", name="Close the table").click()
        page.wait_for_url(re.compile(r"/$"), timeout=STEP_MS)
        assert "Your table is closed" in page.get_by_role("status").first.inner_text()
        assert page.locator(f"#table-list a[href='{table_path}']").count() == 0
        # Bob is told at once, without reloading.
        told = bob.page.locator("#seating .table-closed")
        told.wait_for(timeout=STEP_MS)
        assert "The host has closed this table" in told.inner_text()
        assert bob.page.get_by_role("button", name="Leave my seat").count() == 0
    page.goto(table_path)
    assert page.get_by_role("button", name="Start the game").count() == 0
    _shoot(page, "closed-table")
    assert tab.errors == [], "\n".join(tab.errors)


def _create_table(page: Any) -> None:
    unfold_new_table(page)
    page.get_by_role("button", name="Create table").click()
    try:
        page.wait_for_url(re.compile(r"/t/\d+/"), timeout=STEP_MS)
    except Exception as error:
        shown = page.locator("main").inner_text()[:600]
        raise AssertionError(f"no table made: at {page.url}, showing {shown!r}") from error


def _pass_three(page: Any) -> None:
    """Lift three cards (again, if an update of the hand came between the clicks) and pass."""
    for card in hand_cards(page):
        if page.locator("#hand .card.lifted").count() >= 3:
            break
        button = page.locator(f'#hand .card[data-card="{card}"]')
        if "lifted" not in (button.get_attribute("class") or "").split():
            button.click()
    pass_button = page.locator("#pass-button")
    if pass_button.count() and pass_button.is_enabled():
        pass_button.click()
        page.wait_for_selector("#pass-button", state="detached", timeout=STEP_MS)


def _play_to_the_end(page: Any) -> None:
    """Pass the first three cards and play the first legal card, every time, until the end."""
    for _ in range(400):
        state = page.wait_for_function(MATCH_STATE, timeout=STEP_MS).json_value()
        if state == "over":
            return
        assert not state.startswith("flash"), state
        if state == "moon":
            page.locator(".moon-choice").first.click()
            page.wait_for_selector(".moon-choice", state="detached", timeout=STEP_MS)
        elif state == "pass":
            _pass_three(page)
        else:
            card = page.locator("#hand .card.legal").first.get_attribute("data-card")
            button = page.locator(f'#hand .card[data-card="{card}"]')
            button.click()
            button.click()
            wait_card_gone(page, str(card))
    raise AssertionError("the match did not end")


def test_the_lobby_tells_the_signed_in_to_start_a_table_whenever_its_list_is_empty(
    tab: Tab, browser: Any, live_site: str
) -> None:
    """The list is pushed alike to every lobby when a table opens or closes; "Start one
    below." is said to those signed in whenever it shows no table, pushed or not."""
    page = tab.page
    register(tab)

    def says_start_one_exactly_when_empty() -> None:
        empty = page.locator("#table-list tbody tr").count() == 0
        assert page.get_by_text("Start one below.").is_visible() == empty, empty

    says_start_one_exactly_when_empty()
    with open_tab(browser, live_site, viewport=DESKTOP) as bob:
        register(bob)
        _create_table(bob.page)
        table_path = re.sub(r"^https?://[^/]+", "", bob.page.url)
        listed = page.locator(f"#table-list a[href='{table_path}']")
        listed.wait_for(timeout=STEP_MS)
        says_start_one_exactly_when_empty()
        bob.page.get_by_role("button", name="Close the table").click()
        listed.wait_for(state="detached", timeout=STEP_MS)
    says_start_one_exactly_when_empty()
    with open_tab(browser, live_site, viewport=DESKTOP) as visitor:
        visitor.page.goto("/")
        assert visitor.page.get_by_text("Start one below.").count() == 0
    assert tab.errors == [], "\n".join(tab.errors)


def test_the_copy_button_copies_the_whole_invite_link_and_says_so(
    tab: Tab, browser: Any, live_site: str
) -> None:
    page = tab.page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_site)
    register(tab)
    unfold_new_table(page)
    page.get_by_label("Private (invite link)").check()
    _create_table(page)
    link = page.locator("#invite-link").inner_text().strip()
    parts = urlsplit(link)
    assert parts.scheme in ("http", "https") and parts.netloc == urlsplit(page.url).netloc, link
    assert re.fullmatch(r"/t/join/[^/]+/", parts.path), link

    page.get_by_role("button", name="Copy link").click()
    page.locator(".invite").get_by_role("status").filter(has_text="Link copied").wait_for()
    assert page.evaluate("() => navigator.clipboard.readText()") == link
    _shoot(page, "invite-copied")

    # Bob follows the copied link and sits: the host's seats are pushed again, with the link.
    with open_tab(browser, live_site, viewport=DESKTOP) as bob:
        bob_name = register(bob)
        bob.page.goto(link)
        bob.page.get_by_role("button", name="Sit here").first.click()
        bob.page.get_by_role("button", name="Leave my seat").wait_for(timeout=STEP_MS)
        page.locator(".seat-list").get_by_text(bob_name).wait_for(timeout=STEP_MS)
    # What Copy link said stays through the push: the host may not have read it yet.
    assert page.locator(".invite").get_by_role("status").inner_text() == "Link copied"
    page.evaluate("() => navigator.clipboard.writeText('')")
    page.get_by_role("button", name="Copy link").click()
    page.locator(".invite").get_by_role("status").filter(has_text="Link copied").wait_for()
    assert page.evaluate("() => navigator.clipboard.readText()") == link
    assert tab.errors == [], "\n".join(tab.errors)


def test_without_the_clipboard_the_copy_button_selects_the_invite_link(tab: Tab) -> None:
    page = tab.page
    page.context.add_init_script(
        'Object.defineProperty(navigator, "clipboard", { value: undefined });'
    )
    register(tab)
    unfold_new_table(page)
    page.get_by_label("Private (invite link)").check()
    _create_table(page)
    link = page.locator("#invite-link").inner_text().strip()
    # Once its socket is open, which on opening may draw the seats afresh (and the selection
    # with them) if the page it was sent is behind.
    page.wait_for_function("() => window.__wsOpens > 0", timeout=STEP_MS)

    page.get_by_role("button", name="Copy link").click()
    page.locator(".invite").get_by_role("status").filter(has_text="selected").wait_for()
    assert page.evaluate("() => window.getSelection().toString().trim()") == link
    assert tab.errors == [], "\n".join(tab.errors)
