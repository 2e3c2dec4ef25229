"""A table held in memory keeps a viewer's own fragments' keys from one version to the next
while what they show has not changed (live/table_state.py, ``TableState._seat_state``), instead of
working out each seat's hand and buttons again at every move. Kept or worked out afresh, the
keys must be the same: at every version of two whole hands and a moon's choice, for each
player and a spectator, they equal those of the table loaded anew."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from games import services
from games.engine import MoonRule, Phase
from live import table_state
from tests.helpers.tables import FOUR, game_with, people

pytestmark = pytest.mark.django_db


def _next_move(match) -> tuple[int, str, list[str], str]:
    hand = match.hand
    if hand.phase is Phase.PASSING:
        seat = next(s for s in range(match.players) if not hand.has_passed(s))
        return seat, "pass", [str(c) for c in hand.holding(seat)[-3:]], ""
    if hand.phase is Phase.MOON_CHOICE:
        return hand.turn, "moon", [], MoonRule.SELF
    # The highest legal card: now and then a moon, and tricks taken by every seat.
    return hand.turn, "play", [str(hand.legal_plays(hand.turn)[-1])], ""


def test_a_seats_keys_kept_from_the_version_before_are_the_keys_worked_out_afresh() -> None:
    game = game_with(FOUR, preset="custom", options={"moon": "choose", "target": 100})
    viewers = [*people(*FOUR), AnonymousUser()]
    state = table_state.load(game.table_id)
    assert state is not None and state.running is not None
    kept = checked = 0
    for _ in range(2 * 56 + 1):
        match = state.running.match
        if match.is_over:
            break
        seat, kind, cards, choice = _next_move(match)
        services.act(
            game.pk,
            seat,
            kind,
            version=state.running.game.version,
            cards=cards,
            choice=choice,
            held=state.running,
            publish=False,
        )
        state.moved()
        fresh = table_state.load(game.table_id)
        assert fresh is not None
        for viewer in viewers:
            variant = state.variant(viewer, "", "token")
            carried = variant in state._carried
            assert state.keys(variant, viewer) == fresh.keys(variant, viewer), (
                f"version {state.shown}, seat {variant[0]}"
            )
            kept += carried and state._carried[variant][1] is state._keys[variant]
            checked += 1
    assert kept > checked / 4, "a seat's keys were kept where nothing of its own changed"
