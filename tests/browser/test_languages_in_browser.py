"""The site in German, French and Spanish in a real browser: a new player switches to German
with the footer's menu and plays a whole hand against the bots, and no English sentence of the
table's is on the screen at any point; axe finds nothing serious on the German table at a
phone's 360x740 and it does not scroll sideways; the lobby, a table mid-hand, the Learn pages
and the deal check come in each language (screenshots in /tmp/hearts-browser-languages/).

Run with ``pytest -m browser tests/browser``; the site runs in its own processes (see conftest).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation
from django.utils.translation import gettext

from .axe import describe, serious_violations
from .conftest import BASE_DIR, Tab
from .helpers import PLAY_OR_FLASH, STEP_MS, hand_cards, register, wait_card_gone

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/hearts-browser-languages")
# The table's own files: every sentence they say in English has a German translation.
TABLE_SOURCES = (
    "templates/games/table.html",
    "games/words.py",
    "live/table_words.py",
    "live/table_context.py",
)
STATE = (
    """
() => {
  const last = document.querySelector(".last-hand");
  if (last && last.textContent.trim()) return "scored";
  if (document.querySelector(".moon-choice")) return "moon";"""
    + PLAY_OR_FLASH
)


def english_sentences(language: str) -> set[str]:
    """The English of the table's messages of three words or more, without placeholders,
    whose translation differs: none of them may be on the screen in that language."""
    catalog = BASE_DIR / "locale" / language / "LC_MESSAGES" / "django.po"
    listed = subprocess.run(
        ["msgattrib", "--translated", "--no-wrap", str(catalog)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    found = set()
    for entry in listed.split("\n\n"):
        where = " ".join(line for line in entry.splitlines() if line.startswith("#:"))
        if not any(source in where for source in TABLE_SOURCES):
            continue
        english = re.search(r'^msgid "(.*)"$', entry, re.M)
        german = re.search(r'^msgstr "(.*)"$', entry, re.M)
        if english is None or german is None or "msgid_plural" in entry:
            continue
        text = english.group(1)
        if "%" in text or "{" in text or "<" in text or text == german.group(1):
            continue
        if len(text.split()) >= 3:
            found.add(text.replace('\\"', '"'))
    assert len(found) > 40
    return found


def _no_english(page: Any, sentences: set[str], when: str) -> None:
    shown = " ".join(page.locator("#live-table").inner_text().split())
    english = sorted(sentence for sentence in sentences if sentence in shown)
    assert english == [], f"{when}: English on the table: {english}"


def _switch_to(page: Any, language: str) -> None:
    footer = page.get_by_role("contentinfo")
    footer.locator("select[name=language]").select_option(language)
    footer.locator("form.language-form button[type=submit]").click()
    page.wait_for_function(f"() => document.documentElement.lang === '{language}'")


@pytest.mark.parametrize("language", ["de", "fr", "es"])
def test_a_hand_played_in_another_language_shows_no_english_sentence(
    tab: Tab, language: str
) -> None:
    page = tab.page
    sentences = english_sentences(language)
    register(tab)
    _switch_to(page, language)
    with translation.override(language):
        label = gettext("Language")
    assert page.get_by_role("contentinfo").get_by_text(label).is_visible()
    page.locator("form[action='/play/'] button[type=submit]").click()
    page.wait_for_url(re.compile(r"/t/\d+/"))
    page.locator("#pass-button").wait_for(timeout=STEP_MS)
    if language == "de":
        assert page.locator("#pass-button").inner_text().strip() == "Karten nach links weitergeben"
    _no_english(page, sentences, "the pass")

    for card in hand_cards(page)[:3]:
        page.locator(f'#hand .card[data-card="{card}"]').click()
    page.locator("#pass-button").click()
    page.wait_for_selector("#board-state[data-phase=playing]", state="attached", timeout=STEP_MS)
    played = 0
    while True:
        state = page.wait_for_function(STATE, timeout=STEP_MS).json_value()
        if state == "scored":
            break
        assert not state.startswith("flash"), state
        if state == "moon":
            page.locator(".moon-choice button").first.click()
            page.wait_for_selector(".moon-choice", state="detached", timeout=STEP_MS)
            continue
        if played == 6:
            _no_english(page, sentences, "mid-hand")
            page.set_viewport_size({"width": 360, "height": 740})
            found = serious_violations(page)
            assert found == [], describe(found)
            width, shown = page.evaluate(
                "() => [document.documentElement.scrollWidth, window.innerWidth]"
            )
            assert width <= shown, f"the German table is {width} px wide at {shown}"
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / f"{language}-table-phone.png"), full_page=True)
            page.set_viewport_size({"width": 1280, "height": 800})
            page.screenshot(path=str(SHOTS / f"{language}-table.png"))
        card = page.locator("#hand .card.legal").first.get_attribute("data-card")
        assert card is not None
        page.locator(f'#hand .card[data-card="{card}"]').dblclick()
        wait_card_gone(page, card)
        played += 1
    assert played == 13
    _no_english(page, sentences, "the hand's end")
    page.screenshot(path=str(SHOTS / f"{language}-hand-end.png"), full_page=True)
    with translation.override(language):
        scored = gettext("Hand %(number)s scored: %(scores)s.")
    assert scored != "Hand %(number)s scored: %(scores)s."
    said = scored.split("%(scores)s")[0].replace("%(number)s", "1").strip()
    assert page.locator(".last-hand").inner_text().strip().startswith(said)
    assert tab.errors == [], "\n".join(tab.errors)


@pytest.mark.parametrize("language", ["de", "fr", "es"])
def test_the_pages_come_in_each_language(tab: Tab, language: str) -> None:
    page = tab.page
    page.goto("/")
    _switch_to(page, language)
    with translation.override(language):
        games, learn = gettext("Games"), gettext("Learn to play Hearts")
    assert games != "Games" and learn != "Learn to play Hearts"
    assert games in page.get_by_role("navigation", name=re.compile(".")).first.inner_text()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{language}-lobby.png"), full_page=True)
    page.goto("/learn/")
    assert learn in page.locator("h1").first.inner_text()
    page.screenshot(path=str(SHOTS / f"{language}-learn.png"), full_page=True)
    page.goto("/verify/")
    page.screenshot(path=str(SHOTS / f"{language}-verify.png"), full_page=True)
    for path in ("/", "/learn/", "/learn/rules/", "/verify/"):
        page.goto(path)
        found = serious_violations(page)
        assert found == [], f"{path}: {describe(found)}"
    # On a phone: nothing scrolls sideways, however long the words.
    page.set_viewport_size({"width": 360, "height": 740})
    for name, path in (("lobby", "/"), ("learn", "/learn/"), ("rules", "/learn/rules/")):
        page.goto(path)
        width, shown = page.evaluate(
            "() => [document.documentElement.scrollWidth, window.innerWidth]"
        )
        assert width <= shown, f"{language} {path} is {width} px wide at {shown}"
        page.screenshot(path=str(SHOTS / f"{language}-{name}-phone.png"), full_page=True)
    assert tab.errors == [], "\n".join(tab.errors)
