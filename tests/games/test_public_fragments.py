"""The board's public fragments are the same HTML for every screen at a table: rendered from a
context that knows no viewer (live.table_context.public_context), they show no card of any hand
and name each seat by its number. Each page's CSS (static/css/table_seats.css, written by
scripts/table_seats_css.py) turns the table so that its own seat sits at the bottom and shows it
the words meant for it; only a player's hand and buttons are rendered for their seat."""

from __future__ import annotations

import doctest
import re
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game
from live.table_context import board_view, build_context, private_context, public_context
from scripts import table_seats_css
from tests.helpers.clocks import four_people
from tests.helpers.tables import everyone_passes, fresh, play_one

pytestmark = pytest.mark.django_db

PUBLIC = (
    "board-state",
    "status",
    "hand-end",
    "timed-out",
    "seats",
    "trick",
    "result",
    "scores",
    "fairness",
)
VIEWER = {"me", "user", "csrf_token", "hand_cards", "my_pass_done", "moon_choice", "board_view"}


class Watched(dict[str, Any]):
    """A template context that notes each name a template looks up."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.asked: set[str] = set()

    def __contains__(self, name: object) -> bool:
        self.asked.add(str(name))
        return super().__contains__(name)


def _mid_hand(cards: int = 6) -> Game:
    """Four people after the pass, ``cards`` cards played: a trick taken, one under way."""
    game = four_people()
    everyone_passes(game)
    for _ in range(cards):
        play_one(game)
    return fresh(game)


def _public(game: Game, code: str = "") -> dict[str, str]:
    match = game.live_match()
    players = list(game.players.select_related("user"))
    context = Watched(table=game.table, code=code, **public_context(game, match, players))
    rendered: dict[str, str] = {
        name: render_to_string(f"games/table.html#{name}", context) for name in PUBLIC
    }
    assert not context.asked & VIEWER, context.asked & VIEWER
    return rendered


def _as_seen_by(game: Game, seat: int | None) -> dict[str, str]:
    """The public fragments as the whole-table render for ``seat`` draws them."""
    match = game.live_match()
    players = list(game.players.select_related("user"))
    user = players[seat].user if seat is not None else AnonymousUser()
    context = {
        "table": game.table,
        "code": "",
        "user": user,
        "csrf_token": "a-token-of-its-own",
        **build_context(game, match, players, seat),
    }
    return {name: render_to_string(f"games/table.html#{name}", context) for name in PUBLIC}


def test_the_public_fragments_are_the_same_whoever_looks_and_read_no_viewer() -> None:
    game = _mid_hand()
    public = _public(game)

    for seat in (0, 1, 2, 3, None):
        assert _as_seen_by(game, seat) == public, seat
    assert 'id="last-trick"' in public["trick"]  # the trick taken, to look at again


def test_the_public_fragments_show_no_card_of_any_hand() -> None:
    game = _mid_hand()
    match = game.live_match()
    html = "".join(_public(game).values())

    for seat in range(4):
        for card in match.hand.holding(seat):
            assert f'data-card="{card}"' not in html
            assert card.name not in html
            assert card.display not in html


def test_the_public_fragments_name_each_seat_by_its_number() -> None:
    game = _mid_hand()
    match = game.live_match()
    public = _public(game)

    seats = re.findall(r'<li class="seat at-(\d)[ "]', public["seats"])
    assert seats == ["0", "1", "2", "3"]
    for seat, card in match.hand.current_trick:
        assert re.search(rf'class="played card suit-\w from-at-{seat}"[^>]* data-card="{card}"',
                         public["trick"])  # fmt: skip
    assert not re.search(r"seat-(bottom|left|top|right)|from-(bottom|left|top|right)", str(public))
    turn = match.hand.turn
    assert f'data-turn="{turn}"' in public["board-state"]
    assert "data-my-turn" not in public["board-state"] and "data-seated" not in str(public)


def test_words_for_the_player_to_move_go_out_beside_everyone_elses() -> None:
    game = _mid_hand()
    match = game.live_match()
    turn = match.hand.turn
    name = ["alice", "bob", "carol", "dave"][turn]
    status = _public(game)["status"]

    led = match.hand.current_trick[0][1].suit.plural
    assert (
        f'<span data-for="{turn}">Hand 1: your turn ({led} led).</span>'
        f'<span data-not-for="{turn}">Hand 1: {name} to play.</span></p>'
    ) in status
    for seat in range(4):
        assert f'<span data-for="{seat}"> (you)</span>' in _public(game)["seats"]


def test_while_passing_the_status_asks_those_who_have_not_passed_yet() -> None:
    game = four_people()
    match = fresh(game).match()
    cards = [str(card) for card in match.hand.holding(1)[:3]]
    services.act(game.pk, 1, "pass", version=None, cards=cards)
    status = _public(fresh(game))["status"]

    assert (
        '<span data-for="0 2 3">Hand 1: choose three cards to pass left.</span>'
        '<span data-not-for="0 2 3">Hand 1: waiting for everyone to pass left.</span></p>'
    ) in status


def test_a_seats_own_fragments_say_whose_they_are() -> None:
    game = _mid_hand()
    match = game.live_match()
    players = list(game.players.select_related("user"))
    turn = match.hand.turn

    for seat in (turn, (turn + 1) % 4, None):
        context = {
            "table": game.table,
            "code": "",
            "user": players[seat].user if seat is not None else AnonymousUser(),
            "csrf_token": "token",
            **private_context(game, match, players, seat),
        }
        hand = render_to_string("games/table.html#my-hand", context)
        opening = hand[: hand.index(">") + 1]
        if seat is None:
            assert 'data-seated="0" hidden' in opening and 'data-my-turn="0"' in opening
            assert "data-card" not in hand
        else:
            assert f'data-seated="1" data-seat="{seat}"' in opening
            assert f'data-my-turn="{1 if seat == turn else 0}"' in opening
            assert len(re.findall(r"data-card=", hand)) == len(match.hand.holding(seat))


def test_each_page_turns_the_board_to_its_viewer() -> None:
    game = _mid_hand()
    url = reverse("table", args=[game.table_id])
    bob = Client()
    bob.force_login(User.objects.get(username="bob"))

    assert (
        '<section id="board" class="board players-4 view-1 seated"' in bob.get(url).content.decode()
    )
    assert (
        '<section id="board" class="board players-4 view-0"' in Client().get(url).content.decode()
    )
    assert board_view(None) == "view-0" and board_view(3) == "view-3 seated"


def test_the_seed_form_for_the_next_game_is_a_players_own() -> None:
    game = four_people()
    services.resign(game.pk, 2)
    game = fresh(game)
    url = reverse("table", args=[game.table_id])
    carol = Client()
    carol.force_login(User.objects.get(username="carol"))
    page = carol.get(url).content.decode()

    assert "Add my seed" not in _public(game)["fairness"]
    assert "The next game" in _public(game)["fairness"]
    controls = page[page.index('<div id="controls"') :]
    assert "Add my seed" in controls[: controls.index('<section id="result"')]
    assert "Add my seed" not in Client().get(url).content.decode()


def test_the_seat_rules_are_the_ones_the_script_writes() -> None:
    assert table_seats_css.main(["--check"]) == 0, "run scripts/table_seats_css.py"
    assert doctest.testmod(table_seats_css).failed == 0


def test_the_seat_rules_put_each_viewers_seat_at_the_bottom() -> None:
    css = table_seats_css.css()
    phone = css.index("@media")
    declared: dict[str, str] = {}  # outside the phone's rules: each selector's declarations
    for selectors, declarations in re.findall(r"([^{}]+)\{([^{}]+)\}", css[:phone]):
        for selector in selectors.split(","):
            declared[selector.strip()] = declarations.strip()

    assert declared[".players-4.view-2 .at-2"].startswith("grid-area: bottom;")
    assert declared[".players-4.view-2 .at-3"] == "grid-area: left;"
    assert declared[".players-4.view-0 .at-2"].startswith("grid-area: top;")
    assert declared[".players-3.view-1 .at-0"] == "grid-area: right;"
    assert declared[".players-6.view-5 .from-at-5"] == "grid-area: p-bottom;"
    assert declared[".seated.view-4 .seat.at-4"] == "background: rgb(0 0 0 / 42%);"


def test_a_bots_turn_shows_no_countdown_a_persons_does() -> None:
    alice = User.objects.create_user("alice")
    game = services.play_now(alice)  # everyone to pass: alice and three bots

    seats = re.findall(r'<li class="seat [^>]*data-seat="(\d)".*?</li>', _public(game)["seats"])
    timers = re.findall(
        r'<li class="seat [^>]*data-seat="(\d)"(?:(?!</li>).)*role="timer"', _public(game)["seats"]
    )

    assert seats == ["0", "1", "2", "3"]
    assert timers == ["0"]  # alice's only: a bot's few seconds are no alarm


def test_a_game_ended_mid_trick_lights_no_card_and_explains_no_refusal() -> None:
    game = _mid_hand(cards=2)  # a card led and one followed: the third seat is to play
    match = fresh(game).live_match()
    seat = match.hand.turn
    services.resign(game.pk, seat, "timed out")

    over = fresh(game)
    players = list(over.players.select_related("user"))
    context = {"table": over.table, "user": None, "csrf_token": "", "code": ""}
    context |= private_context(over, over.live_match(), players, seat)
    hand = render_to_string("games/table.html#my-hand", context)

    assert 'data-my-turn="0"' in hand and 'class="card ' in hand
    assert " legal" not in hand and "refusals" not in hand
