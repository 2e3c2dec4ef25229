"""A real Celery worker, fed through Redis, makes the bots' moves after alice's (see
``workers.py`` for how the worker reaches the test database)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth.models import User

from games import services
from games.engine import Match, Phase
from games.models import Game
from tests.helpers.workers import wait_for, worker

pytestmark = [
    pytest.mark.skipif(
        not settings.REDIS_URL,
        reason="needs a real broker: set REDIS_URL (./dev test and CI always do)",
    ),
    pytest.mark.django_db(transaction=True),
]

__all__ = ["worker"]  # a fixture


def _moves_since(game: Game, version: int) -> list[tuple[str, int]]:
    return [(m.kind, m.seat) for m in game.moves.filter(number__gt=version)]


def test_the_worker_makes_the_bots_moves_after_each_of_alices(worker: None) -> None:
    alice = User.objects.create_user("alice")
    game = services.play_now(alice)

    match = wait_for(game, lambda m: m.version == 3)
    assert _moves_since(game, 0) == [("pass", 1), ("pass", 2), ("pass", 3)]
    assert services.seats_to_act(match) == [0]

    mine = [str(card) for card in match.hand.holding(0)[:3]]
    services.act(game.pk, 0, "pass", version=3, cards=mine)
    match = wait_for(game, lambda m: m.hand.phase is Phase.PLAYING and m.hand.turn == 0)
    assert all(kind == "play" and seat != 0 for kind, seat in _moves_since(game, 4))

    for _ in range(3):  # alice plays a card; the bots play on until her turn comes again
        version = match.version
        card = str(match.hand.legal_plays(0)[0])
        services.act(game.pk, 0, "play", version=version, cards=[card])

        def her_turn_again(m: Match, v: int = version) -> bool:
            return m.version > v and m.hand.turn == 0

        match = wait_for(game, her_turn_again)
        played = _moves_since(game, version)
        assert played[0] == ("play", 0)
        assert all(kind == "play" and seat != 0 for kind, seat in played[1:])
    assert game.moves.filter(seat=0, kind="play").count() == 3
