"""The fragments that go out with every move, and their parts (a card of a hand or on the table,
a seat's plate), are made from pieces (live/pieces.py): each partial rendered once a process
for every shape it is shown in, the players' names, facts and clocks put in at their marks.
What a screen is sent must be what the template renders from the whole context, in every
language and at every version, whoever looks; and a text put in at a mark is escaped as the
template escapes it."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from games.engine import Card
from games.models import GamePlayer
from live import fragments, pieces
from live.table_context import (
    PLAYED_CARDS,
    SEAT_PLATES,
    PlayedCard,
    SeatPlate,
    build_context,
)
from tests.helpers.tables import everyone_passes, game_with, play_one

pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "de", "fr", "es")
MADE_OF_PIECES = [fragment for fragment in fragments.FRAGMENTS if fragment.piece is not None]


def test_the_fragments_made_of_pieces_are_what_the_template_renders_from_the_whole_context() -> (
    None
):
    game = game_with(("alice", "bob", "carol", "dave"), preset="custom", options={"target": 30})
    assert {f.id for f in MADE_OF_PIECES} >= {"board-state", "seats", "trick", "my-hand"}
    checked = 0
    for step in range(30):  # the passes, and the first tricks: cards under way, tricks taken
        game.refresh_from_db()
        match = game.live_match()
        players = list(GamePlayer.objects.filter(game=game).select_related("user"))
        for language in LANGUAGES:
            with translation.override(language):
                for me in (None, 0, 1, 2, 3):
                    context = {
                        "table": game.table,
                        "code": "",
                        **build_context(game, match, players, me),
                    }
                    for fragment in MADE_OF_PIECES:
                        direct = render_to_string(fragment.partial, context)
                        assert fragment.render(context) == direct, (fragment.id, language, me)
                        checked += 1
        if step == 0:
            everyone_passes(game)
        else:
            play_one(game)
    assert checked == 30 * len(LANGUAGES) * 5 * len(MADE_OF_PIECES)


NAME = '<b>O\'Neil & "co"</b>'


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_name_put_in_at_its_mark_is_escaped_as_the_template_escapes_it(language: str) -> None:
    queen = Card.parse("QS")
    with translation.override(language):
        for looked_back in (False, True):
            played = PlayedCard(2, NAME, queen, took=True, looked_back=looked_back)
            direct = render_to_string("games/table.html#played-card", {"p": played})
            assert PLAYED_CARDS(played) == direct
            assert "&lt;b&gt;O&#x27;Neil &amp; &quot;co&quot;&lt;/b&gt;" in direct
        plate = SeatPlate(1, NAME, False, "3 · 4", False, True, False, True, "17", "9")
        assert SEAT_PLATES(plate) == render_to_string("games/table.html#seat-plate", {"s": plate})


def test_a_card_played_at_another_table_by_the_same_seat_takes_the_piece_already_rendered() -> None:
    queen = Card.parse("QS")
    before = pieces.renders
    PLAYED_CARDS(PlayedCard(3, "erin", queen))
    PLAYED_CARDS(PlayedCard(3, "frank", queen))
    html = PLAYED_CARDS(PlayedCard(3, "grace", queen))
    assert pieces.renders - before <= 1
    assert 'data-player="grace"' in html and "erin" not in html


def test_a_spectator_and_a_player_see_their_own_hand_fragment() -> None:
    game = game_with(("alice", "bob", "carol", "dave"))
    match = game.live_match()
    players = list(game.players.select_related("user"))
    hand_fragment = next(f for f in MADE_OF_PIECES if f.id == "my-hand")
    alone = hand_fragment.render(build_context(game, match, players, None))
    alices = hand_fragment.render(build_context(game, match, players, 0))
    assert 'data-seated="0" hidden' in alone and "data-card" not in alone
    assert 'data-seat="0"' in alices
    assert alices.count("data-card=") == len(match.hand.holding(0))


def test_a_whole_table_made_of_its_fragments_is_the_page_the_template_renders_whole() -> None:
    """A socket that connects gets the board as this version's fragments have it (rendered once
    for everyone alike): the same HTML as the template over the whole context, for each seat,
    a spectator and a signed-out visitor, in each language, while passing and while playing."""
    from django.contrib.auth.models import AnonymousUser

    from live import table_state

    game = game_with(("alice", "bob", "carol", "dave"), preset="custom", options={"target": 30})
    viewers = [player.user for player in game.players.order_by("seat")] + [AnonymousUser()]
    checked = 0
    for step in range(6):
        state = table_state.load(game.table_id)
        assert state is not None and state.game is not None and state.match is not None
        for language in LANGUAGES:
            for viewer in viewers:
                push = table_state.whole(state, viewer, code="", csrf="token", language=language)
                with translation.override(language):
                    me = state.seat_of(viewer)
                    context = {
                        "table": state.table,
                        "user": viewer,
                        "csrf_token": "token",
                        "code": "",
                        "site": "",
                        **build_context(state.game, state.match, state.players, me),
                    }
                    assert push.html == render_to_string("games/_live.html", context), (
                        step,
                        language,
                        me,
                    )
                checked += 1
        if step == 0:
            everyone_passes(game)
        else:
            play_one(game)
    assert checked == 6 * len(LANGUAGES) * len(viewers)
