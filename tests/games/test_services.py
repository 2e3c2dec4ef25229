"""The write path: tables, seats, starting, moves by people and bots, resigning, rematches."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from fairplay.models import Abandonment
from games import services
from games.engine import PRESETS, InvalidRulesError, Match, MoonRule, Move, Phase, Rules
from games.errors import ServiceError, StaleVersion
from games.models import Game, MoveRecord, Table
from games.tasks import play_bots
from live import frames

pytestmark = pytest.mark.django_db


def _seat_names(table: Table) -> list[str]:
    return [
        seat.user.username if seat.user else ("bot" if seat.is_bot else "")
        for seat in table.seats.order_by("index")
    ]


def _person(name: str) -> User:
    return User.objects.get(username=name)


def _four_people() -> Table:
    """alice (the host), bob, carol and dave at a rated Standard table."""
    alice = User.objects.create_user("alice")
    bob = User.objects.create_user("bob")
    carol = User.objects.create_user("carol")
    dave = User.objects.create_user("dave")
    table = services.create_table(alice, rated=True)
    services.take_seat(table.pk, bob, 1)
    services.take_seat(table.pk, carol, 2)
    services.take_seat(table.pk, dave, 3)
    return table


def _everyone_passes(game: Game) -> None:
    match = game.match()
    for seat in range(match.players):
        cards = [str(card) for card in match.hand.holding(seat)[:3]]
        services.act(game.pk, seat, "pass", version=None, cards=cards)


def _play_a_card(game: Game) -> None:
    match = Game.objects.get(pk=game.pk).match()
    seat = match.hand.turn
    card = str(match.hand.legal_plays(seat)[0])
    services.act(game.pk, seat, "play", version=match.version, cards=[card])


# Creating tables -------------------------------------------------------------------------


def test_a_standard_table_has_the_standard_rules_and_the_host_in_the_first_seat() -> None:
    alice = User.objects.create_user("alice")

    table = services.create_table(alice)

    assert table.engine_rules == PRESETS["standard"].rules
    assert table.preset_title == "Standard"
    assert _seat_names(table) == ["alice", "", "", ""]
    assert table.status == Table.Status.OPEN


def test_a_preset_may_be_played_at_another_size_and_to_a_target_it_offers() -> None:
    alice = User.objects.create_user("alice")

    table = services.create_table(alice, preset="club", players=5, options={"target": 50})

    assert table.engine_rules == PRESETS["club"].rules.replace(players=5, target=50)
    assert len(_seat_names(table)) == 5


def test_a_custom_table_takes_any_options_the_engine_plays() -> None:
    alice = User.objects.create_user("alice")

    table = services.create_table(
        alice, preset="custom", players=3, options={"target": 25, "moon": "choose"}
    )

    assert table.engine_rules == Rules(players=3, target=25, moon=MoonRule.CHOOSE)
    assert table.preset_title == "Custom"
    assert _seat_names(table) == ["alice", "", ""]


@pytest.mark.parametrize(
    ("preset", "players", "options", "says"),
    [
        ("custom", 4, {"target": 10}, "The target must be between 25 and 500 points"),
        ("custom", 4, {"short_pack": "kitty"}, "Four players share the whole pack"),
        ("custom", 7, {}, "Hearts is played by 3, 4, 5 or 6 players"),
        ("custom", 4, {"trumps": "spades"}, "Unknown option: trumps"),
        ("custom", 4, {"moon": "sometimes"}, "moon must be one of"),
        ("standard", 4, {"moon": "self"}, "Standard does not offer: moon"),
        ("standard", 5, {}, "Standard is played by 4 players"),
        ("club", 4, {"target": 75}, "Club plays to 100 or 50 points"),
    ],
)
def test_rules_the_engine_does_not_play_are_refused_with_the_reason(
    preset: str, players: int, options: dict[str, object], says: str
) -> None:
    alice = User.objects.create_user("alice")

    with pytest.raises((ServiceError, InvalidRulesError), match=says):
        services.create_table(alice, preset=preset, players=players, options=options)

    assert not Table.objects.exists()


def test_an_unknown_rule_set_is_refused() -> None:
    alice = User.objects.create_user("alice")

    with pytest.raises(ServiceError, match="Choose one of the rule sets"):
        services.create_table(alice, preset="hearts-with-jokers")


# Seats -----------------------------------------------------------------------------------


def test_a_person_takes_an_empty_seat() -> None:
    alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
    table = services.create_table(alice)

    services.take_seat(table.pk, bob, 2)

    assert _seat_names(table) == ["alice", "", "bob", ""]


def test_a_taken_seat_is_refused() -> None:
    alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
    carol = User.objects.create_user("carol")
    table = services.create_table(alice)
    services.take_seat(table.pk, bob, 2)

    with pytest.raises(ServiceError, match="That seat is taken"):
        services.take_seat(table.pk, carol, 2)
    with pytest.raises(ServiceError, match="That seat is taken"):
        services.take_seat(table.pk, carol, 0)

    assert _seat_names(table) == ["alice", "", "bob", ""]


def test_there_is_no_fifth_seat_at_a_table_of_four() -> None:
    alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
    table = services.create_table(alice)

    with pytest.raises(ServiceError, match="There is no such seat"):
        services.take_seat(table.pk, bob, 4)


def test_taking_another_seat_leaves_the_first() -> None:
    alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
    table = services.create_table(alice)
    services.take_seat(table.pk, bob, 1)

    services.take_seat(table.pk, bob, 3)

    assert _seat_names(table) == ["alice", "", "", "bob"]


def test_a_person_leaves_their_seat_but_the_host_cannot() -> None:
    alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
    table = services.create_table(alice)
    services.take_seat(table.pk, bob, 1)

    services.leave_seat(table.pk, bob)
    with pytest.raises(ServiceError, match="The host cannot leave"):
        services.leave_seat(table.pk, alice)

    assert _seat_names(table) == ["alice", "", "", ""]


def test_the_host_fills_the_empty_seats_with_bots() -> None:
    alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
    table = services.create_table(alice)
    services.take_seat(table.pk, bob, 2)

    services.fill_with_bots(table.pk, alice)

    assert _seat_names(table) == ["alice", "bot", "bob", "bot"]


def test_only_the_host_puts_bots_at_the_table() -> None:
    alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
    table = services.create_table(alice)
    services.take_seat(table.pk, bob, 2)

    with pytest.raises(ServiceError, match="Only the host can do that"):
        services.fill_with_bots(table.pk, bob)
    with pytest.raises(ServiceError, match="Only the host can do that"):
        services.set_bot(table.pk, bob, 1, True)

    assert _seat_names(table) == ["alice", "", "bob", ""]


def test_the_host_puts_a_bot_in_one_seat_and_takes_it_out() -> None:
    alice = User.objects.create_user("alice")
    table = services.create_table(alice)

    services.set_bot(table.pk, alice, 3, True)
    assert _seat_names(table) == ["alice", "", "", "bot"]

    services.set_bot(table.pk, alice, 3, False)
    assert _seat_names(table) == ["alice", "", "", ""]


def test_a_bot_cannot_sit_on_a_person() -> None:
    alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
    table = services.create_table(alice)
    services.take_seat(table.pk, bob, 1)

    with pytest.raises(ServiceError, match="That seat is taken"):
        services.set_bot(table.pk, alice, 1, True)


# Starting --------------------------------------------------------------------------------


def test_a_game_does_not_start_with_an_empty_seat() -> None:
    alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
    table = services.create_table(alice)
    services.take_seat(table.pk, bob, 1)

    with pytest.raises(ServiceError, match="Fill every seat"):
        services.start_game(table.pk, alice)

    assert not Game.objects.exists()
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN


def test_only_the_host_starts_the_game() -> None:
    table = _four_people()
    bob = _person("bob")

    with pytest.raises(ServiceError, match="Only the host can start"):
        services.start_game(table.pk, bob)

    assert not Game.objects.exists()


def test_four_people_at_a_rated_table_play_a_rated_game() -> None:
    table = _four_people()
    alice = table.host

    game = services.start_game(table.pk, alice)

    assert game.rated
    assert game.number == 1
    assert [p.name for p in game.players.all()] == ["alice", "bob", "carol", "dave"]
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING


def test_a_table_with_a_bot_is_never_rated() -> None:
    alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
    carol = User.objects.create_user("carol")
    table = services.create_table(alice, rated=True)
    services.take_seat(table.pk, bob, 1)
    services.take_seat(table.pk, carol, 2)
    services.set_bot(table.pk, alice, 3, True)

    game = services.start_game(table.pk, alice)

    assert table.rated
    assert not game.rated


def test_the_seats_are_fixed_once_the_game_has_started() -> None:
    table = _four_people()
    alice = table.host
    bob = _person("bob")
    services.start_game(table.pk, alice)

    with pytest.raises(ServiceError, match="The game has started: you can watch it"):
        services.take_seat(table.pk, User.objects.create_user("outsider"), 0)
    with pytest.raises(ServiceError, match="The game has started"):
        services.leave_seat(table.pk, bob)
    with pytest.raises(ServiceError, match="The game has already started"):
        services.start_game(table.pk, alice)
    with pytest.raises(ServiceError, match="The game has already started"):
        services.fill_with_bots(table.pk, alice)
    for index, bot in ((1, True), (2, False)):
        with pytest.raises(ServiceError, match="The game has already started"):
            services.set_bot(table.pk, alice, index, bot)


def test_no_bot_is_put_in_or_taken_out_once_the_game_has_started() -> None:
    alice = User.objects.create_user("alice")
    table = services.create_table(alice)
    services.set_bot(table.pk, alice, 1, True)
    services.take_seat(table.pk, User.objects.create_user("bob"), 2)
    services.set_bot(table.pk, alice, 3, True)
    game = services.start_game(table.pk, alice)
    services.resign(game.pk, 2)  # bob: the game is over, and the table with it

    for index, bot in ((1, False), (2, True), (3, False)):
        with pytest.raises(ServiceError, match="The game is over"):
            services.set_bot(table.pk, alice, index, bot)

    assert _seat_names(table) == ["alice", "bot", "bob", "bot"]
    assert [p.is_bot for p in game.players.all()] == [False, True, False, True]


def test_play_now_seats_three_bots_and_deals_at_once() -> None:
    alice = User.objects.create_user("alice")

    game = services.play_now(alice)

    assert [(p.name, p.is_bot) for p in game.players.all()] == [
        ("alice", False),
        ("Bot 2", True),
        ("Bot 3", True),
        ("Bot 4", True),
    ]
    assert not game.rated
    assert game.version == 0
    match = game.match()
    assert match.hand.phase is Phase.PASSING
    assert all(len(match.hand.holding(seat)) == 13 for seat in range(4))
    assert services.seats_to_act(match) == [0, 1, 2, 3]


# Moves -----------------------------------------------------------------------------------


def test_the_bots_pass_then_play_until_it_is_a_persons_turn() -> None:
    alice = User.objects.create_user("alice")
    game = services.play_now(alice)

    play_bots(game.pk, 0)

    game.refresh_from_db()
    assert game.version == 3
    assert [(m.kind, m.seat) for m in game.moves.all()] == [("pass", 1), ("pass", 2), ("pass", 3)]
    assert services.seats_to_act(game.match()) == [0]

    mine = [str(card) for card in game.match().hand.holding(0)[:3]]
    services.act(game.pk, 0, "pass", version=3, cards=mine)
    while (match := Game.objects.get(pk=game.pk).match()).hand.turn != 0:
        bot, version = match.hand.turn, match.version
        play_bots(game.pk, version)
        last = MoveRecord.objects.get(game=game, number=version + 1)
        assert (last.kind, last.seat) == ("play", bot)
        assert not MoveRecord.objects.filter(game=game, number=version + 2).exists()

    assert match.hand.phase is Phase.PLAYING
    assert match.hand.cards_played < 4


def test_a_bot_task_reads_the_game_once_and_holds_no_lock_while_it_thinks() -> None:
    alice = User.objects.create_user("alice")
    game = services.play_now(alice)

    with CaptureQueriesContext(connection) as queries:
        play_bots(game.pk, 0)

    reads = [q["sql"] for q in queries if q["sql"].startswith("SELECT")]
    assert len([sql for sql in reads if f'FROM "{Game._meta.db_table}"' in sql]) == 1
    assert not [q for q in queries if "FOR UPDATE" in q["sql"]]
    assert Game.objects.get(pk=game.pk).version == 3
    assert MoveRecord.objects.filter(game=game).count() == 3


def test_a_bot_task_for_an_old_version_does_nothing() -> None:
    alice = User.objects.create_user("alice")
    game = services.play_now(alice)
    play_bots(game.pk, 0)

    play_bots(game.pk, 0)
    play_bots(game.pk, 2)

    game.refresh_from_db()
    assert game.version == 3


def test_a_bot_task_does_not_move_for_a_person() -> None:
    alice = User.objects.create_user("alice")
    game = services.play_now(alice)
    play_bots(game.pk, 0)

    play_bots(game.pk, 3)

    assert not game.moves.filter(seat=0).exists()


def test_a_move_made_on_an_old_version_is_stale() -> None:
    table = _four_people()
    alice = table.host
    game = services.start_game(table.pk, alice)
    match = game.match()
    for seat in range(4):
        cards = [str(c) for c in match.hand.holding(seat)[:3]]
        services.act(game.pk, seat, "pass", version=None, cards=cards)
    match = game.match()
    leader = match.hand.turn
    services.act(game.pk, leader, "play", version=4, cards=[str(match.hand.legal_plays(leader)[0])])

    with pytest.raises(StaleVersion):
        services.act(game.pk, (leader + 1) % 4, "play", version=4, cards=["2H"])

    game.refresh_from_db()
    assert game.version == 5
    assert game.moves.count() == 5


def test_an_illegal_move_is_refused_in_plain_words_and_changes_nothing() -> None:
    table = _four_people()
    alice = table.host
    game = services.start_game(table.pk, alice)

    with pytest.raises(ServiceError, match="Cards are being passed"):
        services.act(game.pk, 0, "play", version=0, cards=["2C"])

    game.refresh_from_db()
    assert game.version == 0
    assert not game.moves.exists()


def test_the_move_log_replays_to_the_same_state() -> None:
    table = _four_people()
    game = services.start_game(table.pk, table.host)
    mirror = Match(Rules.from_json(game.rules), bytes(game.seed), game.added_seeds)
    for _ in range(4 + 10):  # the passes and ten cards, made in memory and through the site
        move = _a_legal_move(mirror)
        cards = [str(card) for card in move.cards]  # as the site's callers give them
        services.act(game.pk, move.seat, move.kind, version=mirror.version, cards=cards)
        mirror.apply(move)

    game.refresh_from_db()
    replayed = Match.replay(
        Rules.from_json(game.rules), bytes(game.seed), game.engine_moves(), game.added_seeds
    )

    assert replayed.snapshot() == mirror.snapshot()
    assert game.match().to_json() == mirror.to_json()
    assert game.version == mirror.version == 14
    assert [m.number for m in game.moves.all()] == list(range(1, 15))


def _a_legal_move(match: Match) -> Move:
    hand = match.hand
    if hand.phase is Phase.PASSING:
        seat = next(s for s in range(match.players) if not hand.has_passed(s))
        return Move("pass", seat, tuple(hand.holding(seat)[-3:]))
    return Move("play", hand.turn, (hand.legal_plays(hand.turn)[-1],))


# The end ---------------------------------------------------------------------------------


def test_resigning_places_the_resigner_last() -> None:
    table = _four_people()
    alice = table.host
    game = services.start_game(table.pk, alice)
    _everyone_passes(game)
    _play_a_card(game)

    services.resign(game.pk, 1)

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result is not None
    assert game.result["reason"] == "resigned"
    assert game.result["forfeited"] == 1
    assert game.result["places"] == [1, 4, 1, 1]
    assert game.finished_at is not None
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED


def test_resigning_after_the_pass_before_any_card_places_the_resigner_last() -> None:
    table = _four_people()
    alice = table.host
    game = services.start_game(table.pk, alice)
    _everyone_passes(game)

    services.resign(game.pk, 2)

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result is not None
    assert game.result["reason"] == "resigned"
    assert game.result["places"] == [1, 1, 4, 1]


def test_nothing_moves_at_a_finished_game() -> None:
    table = _four_people()
    alice = table.host
    game = services.start_game(table.pk, alice)
    services.resign(game.pk, 2)

    with pytest.raises(ServiceError, match="The game is over"):
        services.act(game.pk, 0, "pass", version=1, cards=["2C", "3C", "4C"])
    with pytest.raises(ServiceError, match="The game is over"):
        services.resign(game.pk, 0)


def test_a_rematch_is_game_two_at_the_same_table() -> None:
    table = _four_people()
    alice = table.host
    bob = _person("bob")
    first = services.start_game(table.pk, alice)
    _everyone_passes(first)
    _play_a_card(first)
    services.resign(first.pk, 3)
    # dave left a rated game early: his ban from rated tables (fairplay) has to run out first.
    Abandonment.objects.update(until=timezone.now())

    second = services.rematch(table.pk, bob)

    assert second.table_id == table.pk
    assert second.number == 2
    assert bytes(second.seed) != bytes(first.seed)
    assert [p.name for p in second.players.all()] == ["alice", "bob", "carol", "dave"]
    assert second.rated
    table.refresh_from_db()
    assert table.current_game() == second
    assert table.status == Table.Status.PLAYING
    assert table.host == bob


def test_a_rematch_waits_for_the_game_to_end() -> None:
    table = _four_people()
    alice = table.host
    bob = _person("bob")
    services.start_game(table.pk, alice)

    with pytest.raises(ServiceError, match="The game is still on"):
        services.rematch(table.pk, bob)


def test_only_the_players_ask_for_a_rematch() -> None:
    table = _four_people()
    alice = table.host
    game = services.start_game(table.pk, alice)
    services.resign(game.pk, 0)
    outsider = User.objects.create_user("outsider")

    with pytest.raises(ServiceError, match="Only the players"):
        services.rematch(table.pk, outsider)


# Move messages ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "parts"),
    [
        (
            {"action": "pass", "cards": "2C 3C 4C", "version": 7},
            ("pass", ["2C", "3C", "4C"], "", 7),
        ),
        (
            {"action": "pass", "cards": "2C,3C,4C", "version": "7"},
            ("pass", ["2C", "3C", "4C"], "", 7),
        ),
        ({"action": "play", "cards": ["QS"], "version": 12}, ("play", ["QS"], "", 12)),
        ({"action": "moon", "choice": "self", "version": 3}, ("moon", [], "self", 3)),
        (
            {"action": "resign", "version": 0, "HEADERS": {"HX-Request": "true"}},
            ("resign", [], "", 0),
        ),
    ],
)
def test_a_move_message_is_read_into_its_parts(message: dict[str, object], parts: tuple) -> None:
    assert frames.check_move_shape(message) == parts


def test_a_version_of_digit_like_characters_is_refused_like_any_bad_version() -> None:
    with pytest.raises(ServiceError, match="which version"):
        frames.check_move_shape({"action": "play", "cards": "QS", "version": "²"})


def test_a_pass_made_while_another_seat_passed_still_stands() -> None:
    alice = User.objects.create_user("alice")
    game = services.play_now(alice)
    seen = game.version
    match = game.match()
    play_bots(game.pk, seen)  # the three bots pass first
    game.refresh_from_db()
    assert game.version == seen + 3

    cards = [str(card) for card in match.hand.holding(0)[:3]]
    services.act(game.pk, 0, "pass", version=seen, cards=cards)

    game.refresh_from_db()
    assert game.version == seen + 4
    assert game.match().hand.received(0) is not None
