"""A table held in memory works out a viewer's own fragments' keys from what the engine says of
the seat (live/table_context.py, ``seat_shows``), and makes the seat's context (its cards' words,
its buttons) only to render a fragment whose key changed: on a card played, the hands of the
seat that played and of the seat whose turn comes. The keys must be those of the table loaded
anew, at every version of two whole hands and a moon's choice, for each player and a
spectator."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, User

from games import services
from games.engine import MoonRule, Phase
from live import table_context, table_state
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


def test_a_seats_keys_are_those_of_the_table_loaded_anew_and_only_changed_seats_are_rendered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = game_with(FOUR, preset="custom", options={"moon": "choose", "target": 100})
    viewers: list[User | AnonymousUser] = [*people(*FOUR), AnonymousUser()]
    state = table_state.load(game.table_id)
    assert state is not None and state.running is not None
    made: list[int | None] = []
    private_context = table_context.private_context

    def counted(game, match, players, me):
        made.append(me)
        return private_context(game, match, players, me)

    monkeypatch.setattr(table_context, "private_context", counted)
    played = worked_out = 0
    for _ in range(2 * 56 + 1):
        match = state.running.match
        if match.is_over:
            break
        seat, kind, cards, choice = _next_move(match)
        before = {
            viewer: state.keys(state.variant(viewer, "", "token"), viewer) for viewer in viewers
        }
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
        made.clear()
        for viewer in viewers:  # every screen's push, as the relay makes it
            table_state.changed(state, viewer, code="", csrf="token", keys=before[viewer])
        if kind == "play" and match.hand.number > 1:  # once the first hand rendered each way
            played += 1
            worked_out += len(made) <= 2
            assert seat in made, "the hand of the seat that played was not rendered"
        fresh = table_state.load(game.table_id)
        assert fresh is not None
        for viewer in viewers:
            variant = state.variant(viewer, "", "token")
            assert state.keys(variant, viewer) == fresh.keys(variant, viewer), (
                f"version {state.shown}, seat {variant[0]}"
            )
    # The one who played and the one whose turn comes; the seats whose Last trick button comes
    # or goes take theirs from the buttons rendered at this table before (the first time a
    # button is shown a way at the table, at a hand's first tricks, it is rendered).
    assert worked_out >= 0.75 * played, f"{worked_out} of {played} cards made two seats' contexts"
