"""The deal re-done in the browser: static/js/verify.js, written from docs/fairness.md with Web
Crypto, deals every test vector of the document and every hand of a real game as the engine
does; the verify page of a finished game says that everything matches, and a tampered record
is reported as a mismatch.

Run with ``pytest -m browser tests/browser``; the site runs in its own processes (see conftest).
"""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from games.engine import Match, Rules, ShortPack, deal_hand, fingerprint
from games.records import match_record
from tests.helpers.engine import seed, step
from tests.helpers.vectors import VECTORS

from .conftest import Tab
from .helpers import STEP_MS, pass_and_resign, register, start_game

pytestmark = pytest.mark.browser

SCREENSHOT = "/tmp/hearts-browser-verify.png"
DEAL = "args => window.HeartsVerify.dealHand(args)"
CHECK = "record => window.HeartsVerify.checkRecord(record)"


def _with_verify_js(tab: Tab) -> Any:
    """A page of the site with verify.js loaded, as the site serves it."""
    page = tab.page
    page.goto("/verify/")
    page.wait_for_function("() => window.HeartsVerify !== undefined")
    return page


def _played_record(rules: Rules, added: tuple[str, ...] = ()) -> dict[str, Any]:
    match = Match(rules, seed(31), added)
    while not match.is_over:
        step(match)
    names = ["alice", "bob", "carol", "dave", "erin", "frank"]
    return {
        "players": [{"seat": s, "name": names[s], "bot": False} for s in range(rules.players)],
        **match_record(match),
    }


def test_verify_js_deals_every_vector_of_the_document(tab: Tab) -> None:
    page = _with_verify_js(tab)
    for vector in VECTORS:
        args = {
            "players": vector.players,
            "shortPack": vector.short_pack,
            "seed": vector.seed.hex(),
            "added": list(vector.added),
            "hand": vector.hand,
        }
        dealt = page.evaluate(DEAL, args)
        assert dealt["dealer"] == vector.dealer, vector.name
        assert tuple(dealt["shuffled"]) == vector.shuffled, vector.name
        assert tuple(map(tuple, dealt["hands"])) == vector.hands, vector.name
        assert tuple(dealt["kitty"]) == vector.kitty, vector.name
    assert tab.errors == [], "\n".join(tab.errors)


@pytest.mark.parametrize(
    ("rules", "added"),
    [
        (Rules(), ("alice", "", "carol", "dave")),
        (Rules(players=3, short_pack=ShortPack.KITTY), ()),
        (Rules(players=6), ("", "", "", "", "", "ümlaut ")),
    ],
    ids=["standard-with-added-seeds", "three-with-kitty", "six"],
)
def test_verify_js_deals_a_real_game_as_the_engine_and_finds_it_true(
    tab: Tab, rules: Rules, added: tuple[str, ...]
) -> None:
    page = _with_verify_js(tab)
    record = _played_record(rules, added)
    for number in range(1, len(record["hands"]) + 1):
        engine = deal_hand(rules, seed(31), number, added)
        dealt = page.evaluate(
            DEAL,
            {
                "players": rules.players,
                "shortPack": rules.short_pack.value,
                "seed": record["seed"],
                "added": list(added),
                "hand": number,
            },
        )
        assert dealt["hands"] == [[str(card) for card in hand] for hand in engine.hands]
        assert dealt["kitty"] == [str(card) for card in engine.kitty]
    result = page.evaluate(CHECK, record)
    assert result["ok"], result
    assert result["summary"].startswith(f"All {len(record['hands'])} hands match the seed")
    assert tab.errors == [], "\n".join(tab.errors)


def test_verify_js_reports_a_tampered_record_as_a_mismatch(tab: Tab) -> None:
    page = _with_verify_js(tab)
    record = _played_record(Rules())

    swapped = copy.deepcopy(record)
    dealt = swapped["hands"][0]["dealt"]
    alice, bob = dealt[0].split(), dealt[1].split()
    alice[0], bob[0] = bob[0], alice[0]
    dealt[0], dealt[1] = " ".join(alice), " ".join(bob)
    result = page.evaluate(CHECK, swapped)
    assert not result["ok"]
    assert [hand["number"] for hand in result["hands"] if not hand["ok"]] == [1]
    problems = " ".join(result["hands"][0]["problems"])
    assert "seat 1 (alice) was dealt" in problems and "seat 2 (bob) was dealt" in problems
    assert result["summary"].startswith("Mismatch in 1 of")

    other_seed = copy.deepcopy(record)
    other_seed["seed"], other_seed["fingerprint"] = seed(32).hex(), fingerprint(seed(32))
    result = page.evaluate(CHECK, other_seed)
    assert not result["ok"] and result["fingerprintOk"]
    assert not result["hands"][0]["ok"]

    wrong_fingerprint = copy.deepcopy(record)
    wrong_fingerprint["fingerprint"] = fingerprint(seed(32))
    result = page.evaluate(CHECK, wrong_fingerprint)
    assert not result["ok"] and not result["fingerprintOk"]
    assert all(hand["ok"] for hand in result["hands"])
    assert "not the fingerprint shown before the game" in result["summary"]
    assert tab.errors == [], "\n".join(tab.errors)


def _verify_url_of(tab: Tab, shown_fingerprint: str) -> str:
    """The verify page of the game whose fingerprint the table showed."""
    for game_id in range(1, 200):
        url = f"/g/{game_id}/verify/"
        response = tab.page.request.get(url)
        if response.status == 404:
            break
        if shown_fingerprint in response.text():
            return url
    raise AssertionError(f"no verify page shows the fingerprint {shown_fingerprint}")


def test_the_verify_page_of_a_finished_game_says_everything_matches(tab: Tab) -> None:
    page = tab.page
    register(tab)
    start_game(tab)
    table_url = page.url
    shown = page.locator(".fairness .fingerprint").inner_text().strip()
    assert re.fullmatch(r"[0-9a-f]{64}", shown)
    url = _verify_url_of(tab, shown)

    # While the game runs, the page shows the fingerprint and keeps the seed.
    page.goto(url)
    assert page.locator("#shown-fingerprint").inner_text() == shown
    assert page.locator("#seed").count() == 0
    assert "Kept secret until the game ends" in page.inner_text("main")

    page.goto(table_url)
    pass_and_resign(page)  # the game is over and its seed published

    page.goto(url)
    verdict = page.locator("#verify-verdict")
    page.wait_for_function(
        "() => document.documentElement.dataset.verified !== undefined", timeout=STEP_MS
    )
    assert page.evaluate("document.documentElement.dataset.verified") == "match"
    assert verdict.get_attribute("aria-live") == "polite"
    assert verdict.inner_text().startswith("The one hand matches the seed")
    assert page.locator("#verify-hands li.hand-ok").count() == 1
    assert re.fullmatch(r"[0-9a-f]{64}", page.locator("#seed").inner_text())

    # The same page, handed a tampered copy of its own record, says which hand and seat differ.
    tampered = page.evaluate(
        """() => {
          const record = JSON.parse(document.getElementById("game-record").textContent);
          const [a, b] = [record.hands[0].dealt[2].split(" "), record.hands[0].dealt[3].split(" ")];
          [a[0], b[0]] = [b[0], a[0]];
          record.hands[0].dealt[2] = a.join(" ");
          record.hands[0].dealt[3] = b.join(" ");
          return window.HeartsVerify.checkRecord(record).then(result => {
            window.HeartsVerify.render(result);
            return result;
          });
        }"""
    )
    assert not tampered["ok"]
    assert verdict.inner_text().startswith("Mismatch: hand 1, seat 3")
    assert page.locator("#verify-hands li.hand-bad").count() == 1
    page.screenshot(path=SCREENSHOT, full_page=True)
    assert tab.errors == [], "\n".join(tab.errors)


def test_the_form_deals_a_pasted_seed_again_in_the_browser(tab: Tab) -> None:
    page = tab.page
    page.goto("/verify/")
    page.get_by_label("Seed:").fill(seed(33).hex())
    page.get_by_label("The table used added seeds:").check()
    page.get_by_label("Added seeds, one line per seat:").fill("alice\n\ncarol")
    page.get_by_label("Players:").select_option("3")
    page.get_by_label("Dealt to a kitty").check()
    page.get_by_label("Hands to deal:").fill("3")
    page.get_by_role("button", name="Deal").click()
    status = page.locator("#browser-deal")
    page.wait_for_function(
        "() => document.getElementById('browser-deal').textContent.trim() !== ''",
        timeout=STEP_MS,
    )
    assert status.inner_text() == "Your browser dealt this seed itself and got the same cards."
    rules = Rules(players=3, short_pack=ShortPack.KITTY)
    kitty = deal_hand(rules, seed(33), 3, ("alice", "", "carol")).kitty
    last_table = page.locator(".deal-table").nth(2)
    assert last_table.locator("td.cards").last.inner_text() == " ".join(
        str(card) for card in sorted(kitty, key=lambda card: card.index)
    )
    assert tab.errors == [], "\n".join(tab.errors)
