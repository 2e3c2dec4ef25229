"""The Learn section in Chromium: each kind of drill answered and scored with the mouse and with
the keyboard alone, on a wide and a narrow screen; the progress kept in this browser survives a
reload and no request carries it; axe-core finds nothing serious on the learn pages.

Run with ``pytest -m browser tests/browser``; the site runs in its own processes (see conftest).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from learn.drills import KINDS, make_drill

from .axe import describe, serious_violations
from .conftest import Tab
from .helpers import (
    STEP_MS,
    TABLE_STATE,
    hand_cards,
    register,
    start_game,
    wait_card_gone,
)

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/hearts-browser-learn")
SIZES = {"wide": (1280, 800), "narrow": (360, 740)}
MAX_SCORE = {"legal": 2, "pass": 6, "moon": 1}
LEARN_PAGES = [
    "/learn/",
    "/learn/rules/",
    "/learn/rules/club/",
    "/learn/rules/?players=5&moon=choose&target=50",
    "/learn/glossary/",
    "/learn/strategy/",
    "/learn/drills/",
    "/learn/drills/legal/1/",
    "/learn/drills/pass/1/",
    "/learn/drills/moon/1/",
]


def _right_answer(kind: str, seed: int) -> tuple[list[str], str | None]:
    """The cards to choose (and for the legal drill the reason), from the engine's own drill."""
    data = make_drill(kind, seed).data
    if kind == "legal":
        return data["legal"], data["answer"]
    if kind == "pass":
        return data["best"], None
    return data["stops"][:1], None


def _wrong_answer(kind: str, seed: int) -> tuple[list[str], str | None]:
    data = make_drill(kind, seed).data
    if kind == "legal":
        wrong = next(choice for choice in data["choices"] if choice != data["answer"])
        return data["legal"], wrong
    if kind == "pass":
        return [card for card in reversed(data["ranked"])][:3], None
    return [next(card for card in data["legal"] if card not in data["stops"])], None


def _open(tab: Tab, url: str, size: str) -> Any:
    page = tab.page
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    page.goto(url)
    page.wait_for_selector("#check-answer")
    return page


def _answer_with_the_mouse(page: Any, cards: list[str], reason: str | None) -> None:
    for card in cards:
        page.click(f'.drill-card[data-card="{card}"]')
    if reason is not None:
        page.get_by_label(reason, exact=True).check()
    page.click("#check-answer")


def _focused(page: Any) -> dict[str, str]:
    found: dict[str, str] = page.evaluate(
        """() => {
          const el = document.activeElement;
          return { id: el.id || "", card: el.dataset.card || "", type: el.type || "",
                   value: el.value || "", checked: String(!!el.checked) };
        }"""
    )
    return found


def _answer_with_the_keyboard(page: Any, cards: list[str], reason: str | None) -> None:
    """From the top of the page: Tab to each card to choose and press Space or Enter on it,
    arrow keys among the reasons, then Enter on "Check my answer"."""
    wanted = set(cards)
    keys = ["Space", "Enter"]
    for _ in range(120):
        page.keyboard.press("Tab")
        here = _focused(page)
        if here["card"] in wanted:
            page.keyboard.press(keys[len(wanted) % 2])
            wanted.discard(here["card"])
        elif here["type"] == "radio" and reason is not None:
            page.keyboard.press("Space")
            for _ in range(5):
                if _focused(page)["value"] == reason:
                    break
                page.keyboard.press("ArrowDown")
            assert _focused(page) == {**_focused(page), "value": reason, "checked": "true"}
            reason = None
        elif here["id"] == "check-answer":
            assert not wanted and reason is None
            page.keyboard.press("Enter")
            return
    raise AssertionError("Tab never reached the check button")


def _score(page: Any) -> str:
    page.wait_for_selector("#feedback .drill-score")
    text: str = page.inner_text("#feedback .drill-score")
    return text


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("kind", KINDS)
def test_each_drill_is_answered_and_scored_with_the_mouse_and_the_keyboard(
    tab: Tab, kind: str, size: str
) -> None:
    most = MAX_SCORE[kind]
    page = _open(tab, f"/learn/drills/{kind}/2/", size)
    _answer_with_the_mouse(page, *_right_answer(kind, 2))
    assert f"You scored {most} of {most} point" in _score(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{kind}-mouse-{size}.png"), full_page=True)

    page = _open(tab, f"/learn/drills/{kind}/3/", size)
    _answer_with_the_keyboard(page, *_right_answer(kind, 3))
    assert f"You scored {most} of {most} point" in _score(page)
    assert _focused(page)["id"] == "next-drill"
    page.screenshot(path=str(SHOTS / f"{kind}-keyboard-{size}.png"), full_page=True)

    page = _open(tab, f"/learn/drills/{kind}/4/", size)
    _answer_with_the_keyboard(page, *_wrong_answer(kind, 4))
    assert f"You scored {most} of {most} point" not in _score(page)
    assert tab.errors == []


def test_progress_survives_a_reload_and_no_request_carries_it(tab: Tab) -> None:
    page = tab.page
    requests: list[Any] = []
    page.on("request", lambda request: requests.append(request))
    page.goto("/learn/drills/")
    assert "No drills of this kind answered" in page.inner_text("#progress-moon")

    page.goto("/learn/drills/moon/5/")
    _answer_with_the_mouse(page, *_right_answer("moon", 5))
    page.goto("/learn/drills/moon/6/")
    _answer_with_the_mouse(page, *_wrong_answer("moon", 6))
    page.goto("/learn/drills/pass/5/")
    _answer_with_the_mouse(page, *_right_answer("pass", 5))

    page.reload()
    page.wait_for_selector("#check-answer")
    assert "6 of 6 points" in page.inner_text("#earlier-score")
    page.goto("/learn/drills/")
    assert "2 drills answered in this browser: 1 of 2 points" in page.inner_text("#progress-moon")
    assert "1 drill answered in this browser: 6 of 6 points" in page.inner_text("#progress-pass")
    assert page.get_attribute("#start-moon", "href") == "/learn/drills/moon/7/"

    stored = page.evaluate("() => window.localStorage.getItem('hearts-learn-progress')")
    assert '"moon:5"' in stored
    assert requests, "the pages were fetched"
    for request in requests:
        assert request.method == "GET", request.url
        assert request.post_data is None
        assert "score" not in request.url and "moon:5" not in request.url
        assert "hearts-learn" not in str(request.headers)

    page.click("#clear-progress")
    assert "forgotten" in page.inner_text("#clear-status")
    page.reload()
    assert "No drills of this kind answered" in page.inner_text("#progress-moon")


@pytest.mark.parametrize("size", SIZES)
def test_axe_finds_no_serious_violation_on_the_learn_pages(tab: Tab, size: str) -> None:
    page = tab.page
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    found = {}
    for url in LEARN_PAGES:
        page.goto(url)
        found[url] = serious_violations(page)
    page.goto("/learn/drills/legal/1/")
    _answer_with_the_mouse(page, *_wrong_answer("legal", 1))
    _score(page)
    found["after an answer"] = serious_violations(page)
    assert all(not v for v in found.values()), {url: describe(v) for url, v in found.items() if v}


def test_a_table_links_to_its_rules_and_each_refusal_to_the_rule_behind_it(tab: Tab) -> None:
    page = tab.page
    register(tab)
    start_game(tab)
    page.locator("#pass-button").wait_for(timeout=STEP_MS)
    for card in hand_cards(page)[:3]:
        page.locator(f'#hand .card[data-card="{card}"]').click()
    page.locator("#pass-button").click()
    for _ in range(13):
        state = page.wait_for_function(TABLE_STATE, timeout=STEP_MS).json_value()
        assert state == "play", state
        if page.locator("#hand .card.illegal").count():
            break
        card = page.locator("#hand .card.legal").first.get_attribute("data-card")
        page.locator(f'#hand .card[data-card="{card}"]').dblclick()
        wait_card_gone(page, card)
    refused = page.locator("#hand .card.illegal").first.get_attribute("title")
    reason = refused.split(": ", 1)[1]
    link = page.locator("#refusals a", has_text=reason)
    assert link.is_visible()
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"table-refusals-{size}.png"), full_page=True)
    rules_href = page.locator("#rules-link a").get_attribute("href")
    href = link.get_attribute("href")
    assert href.startswith(rules_href + "#rule-")

    page.goto(href)
    anchor = href.split("#", 1)[1]
    assert page.locator(f"#{anchor}").is_visible()
    assert "The rules at this table" in page.inner_text("h1")
