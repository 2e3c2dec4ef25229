"""Ratings where people look for them, in a real browser: someone watching a rated game of four
new players sees each player's rating change and new rating appear in the result as the last
card is played; the game's page shows them too and says where a rating starts; and the ratings
page lists the four new players, marked provisional.

The game is played in the site's own database by a script, as the ratings' tests play them,
all but its last card; the page opens, and the script then plays that card through the site's
write path, whose news reaches the page over its socket.

Run with ``pytest -m browser tests/browser``; the site runs in its own processes (see conftest).
"""

from __future__ import annotations

import re
import secrets

import pytest
from playwright.sync_api import expect

from .conftest import Site, Tab
from .helpers import STEP_MS, run_in_site, site_link

pytestmark = pytest.mark.browser

SCREENSHOT = "/tmp/hearts-browser-rated-result.png"
GAME_PAGE_SCREENSHOT = "/tmp/hearts-browser-rated-game-page.png"

# Prints the game's id and its table's address, with all but its last move made (and no clock,
# so that the table does not play that card first).
ALL_BUT_THE_LAST_CARD = """
import sys
import django
django.setup()
from games.engine import Match, Rules, fingerprint
from games.models import Game, MoveRecord
from tests.helpers.engine import seed, step
from tests.helpers.finishing import start
from tests.helpers.tables import people
game = start(people(*sys.argv[1:]))
dealt = seed(47)
Game.objects.filter(pk=game.pk).update(seed=dealt, fingerprint=fingerprint(dealt), added_seeds=[])
match = Match(Rules.from_json(game.rules), dealt)
while not match.is_over:
    step(match)
MoveRecord.objects.bulk_create(
    MoveRecord.of(game, number, move) for number, move in enumerate(match.moves[:-1], start=1)
)
Game.objects.filter(pk=game.pk).update(version=len(match.moves) - 1, deadline=None)
print(game.pk, game.table.get_absolute_url())
"""

THE_LAST_CARD = """
import sys
import django
django.setup()
from games import services
from games.models import Game
from tests.helpers.engine import step
game = Game.objects.get(pk=int(sys.argv[1]))
match = game.match()
step(match)
last = match.moves[-1]
services.act(game.pk, last.seat, last.kind, version=game.version, cards=[str(c) for c in last.cards])
"""

SHOWN_CHANGE = re.compile(r"· rating \d+ \((\+\d+|\N{MINUS SIGN}\d+|±0), provisional\)")


def _change(row: str) -> str:
    """The rating words of a row of a result: "· rating 444 (+144, provisional)"."""
    found = SHOWN_CHANGE.search(row)
    assert found, row
    return found.group(0)


def test_a_rated_game_shows_everyones_rating_change_as_it_ends(tab: Tab, site: Site) -> None:
    page = tab.page
    names = [f"{name}-{secrets.token_hex(2)}" for name in ("ada", "ben", "cal", "dot")]
    game_id, table_url = run_in_site(site, ALL_BUT_THE_LAST_CARD, *names).split()

    page.goto(table_url)
    page.locator("#board").wait_for()
    expect(page.locator("#result")).to_be_hidden()
    page.wait_for_function("() => window.__wsOpens > 0", timeout=STEP_MS)
    run_in_site(site, THE_LAST_CARD, game_id)

    placings = page.locator("#result .placings li")
    expect(placings).to_have_count(4, timeout=STEP_MS)
    rows = placings.all_inner_texts()
    assert rows[0].startswith(f"1st: {names[0]},")
    changes = [_change(row) for row in rows]
    assert "+" in rows[0] and "\N{MINUS SIGN}" in rows[-1]  # the winner gains, the last loses
    page.screenshot(path=SCREENSHOT)

    page.get_by_role("link", name="The game\N{RIGHT SINGLE QUOTATION MARK}s page").click()
    page.wait_for_url(f"**/g/{game_id}/")
    placements = page.locator(".placements li").all_inner_texts()
    assert [_change(row) for row in placements] == changes
    expect(page.get_by_text("Everyone starts at 300")).to_be_visible()
    page.screenshot(path=GAME_PAGE_SCREENSHOT, full_page=True)

    site_link(page, "Ratings").click()
    for name in names:
        row = page.get_by_role("row").filter(has=page.get_by_role("link", name=name, exact=True))
        expect(row).to_contain_text("provisional")
    expect(page.get_by_text("Everyone starts at 300")).to_be_visible()
    assert tab.errors == []
