"""Each table links to the rules of its own set and options, and when it is a player's turn each
reason a card is refused links to the rule that refuses it."""

from __future__ import annotations

import html

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import services
from games.engine import PRESETS, Phase, fingerprint
from games.models import Game
from learn.rules_pages import rules_url
from tests.helpers.engine import seed
from tests.helpers.finishing import start
from tests.helpers.tables import people

pytestmark = pytest.mark.django_db


def _page_for(user: User, url: str) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def test_a_table_links_to_the_rules_of_its_own_set_and_options() -> None:
    alice = User.objects.create_user("alice")
    table = services.create_table(alice, preset="club", players=5)
    page = _page_for(alice, table.get_absolute_url())
    link = rules_url(table.rules)
    assert f'href="{link}"' in page
    rules_page = _page_for(alice, link)
    assert "5 players, 10 cards each" in rules_page
    assert "you choose whether everybody else takes 26" in rules_page
    assert table.engine_rules == PRESETS["club"].make(5)


def _to_second_card(game: Game) -> int:
    """Dealt from a fixed seed, everybody passes, the 2♣ is led, and the seat after it is to
    play: its seat number."""
    fixed = seed(18)
    Game.objects.filter(pk=game.pk).update(seed=fixed, fingerprint=fingerprint(fixed))
    match = Game.objects.get(pk=game.pk).match()
    for seat in range(4):
        version = Game.objects.get(pk=game.pk).version
        cards = [str(card) for card in match.hand.holding(seat)[:3]]
        services.act(game.pk, seat, "pass", version=version, cards=cards)
    match = Game.objects.get(pk=game.pk).match()
    assert match.hand.phase is Phase.PLAYING
    leader = match.hand.turn
    version = Game.objects.get(pk=game.pk).version
    services.act(game.pk, leader, "play", version=version, cards=["2C"])
    return Game.objects.get(pk=game.pk).match().hand.turn


def test_each_refused_cards_reason_links_to_the_rule_that_refuses_it() -> None:
    players = people("alice", "bob", "carol", "dave")
    game = start(players, rated=False)
    seat = _to_second_card(game)
    match = Game.objects.get(pk=game.pk).match()
    reasons = set(match.hand.reasons(seat).values())
    assert reasons
    page = _page_for(players[seat], game.table.get_absolute_url())
    link = rules_url(game.table.rules)
    refusals = page[page.index('id="refusals"') :].split("</p>")[0]
    anchors = {
        "You must follow clubs": "rule-tricks",
        "No points on the first trick": "rule-points_on_first_trick",
    }
    for reason in reasons:
        assert f'href="{link}#{anchors[reason]}"' in refusals
        assert reason in refusals
    watcher = _page_for(players[(seat + 1) % 4], game.table.get_absolute_url())
    assert 'id="refusals"' not in watcher
