"""The table's two makers of a bot's move: the relay of the process holding the table's sockets
(live/relays.py) and the Celery tasks (games/tasks.py: the bots' task, the deadline's). Both
may move for the same bot on the same version; the second to come finds the move made and does
nothing, with no error and nothing logged above debug, whichever it is and whatever the move
(a pass, a card, the moon's choice). A person's own move made twice is still refused in words.

Each race is played out in order, not in threads: the deadline's task reads the game, the
relay's bot moves, then the task goes on with what it read (or the other way round)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator

import pytest
from channels.layers import get_channel_layer

from games import services
from games.bots import decide_as
from games.engine import Phase, seat_view
from games.models import Game, MoveRecord
from games.tasks import bot_move, enforce_deadline
from live import relays, table_state
from tests.helpers.clocks import a_moon_for, overdue
from tests.helpers.tables import against_bots, fresh, play_one

pytestmark = pytest.mark.django_db


@pytest.fixture
def quiet(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Every record logged meanwhile is at debug."""
    caplog.set_level(logging.DEBUG)
    yield
    loud = [record for record in caplog.records if record.levelno > logging.DEBUG]
    assert not loud, [f"{record.name}: {record.getMessage()}" for record in loud]


def the_relays_bot_moves(game: Game, seat: int, held: table_state.TableState | None = None) -> str:
    """The relay's move for the bot in ``seat``, on the table as the relay ``held`` it (as it
    is now, by default), decided and written as the relay does in its pool thread; the
    refusal it would show (none for a bot)."""
    state = held or table_state.load(game.table_id)
    assert state is not None and state.running is not None
    running = state.running
    kind, cards, choice = decide_as(state.table.bot_level, seat_view(running.match, seat))
    relay = relays.Relay(game.table_id, get_channel_layer())
    relay.state = state
    loop = asyncio.new_event_loop()  # for the move's future, which the pool's work never sees
    try:
        shown = (game.pk, running.game.version)
        move = relays._BotMove(shown, seat, kind, cards, choice, loop.create_future())
        _, _, refusal, _ = relay._make_bot(move, [])
    finally:
        loop.close()
    return refusal


def the_relay_moves_as_the_task_reads(monkeypatch: pytest.MonkeyPatch, seat: int) -> None:
    """The relay's bot in ``seat`` moves just after the next task has read the game, before
    the task moves on what it read."""
    read = services.running

    def running(game_id: int) -> services.Running:
        state = read(game_id)
        monkeypatch.setattr(services, "running", read)
        the_relays_bot_moves(Game.objects.get(pk=game_id), seat)
        return state

    monkeypatch.setattr(services, "running", running)


def the_log(game: Game, since: int = 0) -> list[tuple[int, str, bool]]:
    """The moves after version ``since``: (seat, kind, made for a time-out)."""
    rows = MoveRecord.objects.filter(game=game, number__gt=since).order_by("number")
    return list(rows.values_list("seat", "kind", "timeout"))


def a_bots_turn_to_play(game: Game) -> int:
    """Every seat passes, then cards are played until a bot's turn; that bot's seat."""
    match = fresh(game).live_match()
    for seat in range(match.players):
        cards = [str(card) for card in match.hand.holding(seat)[:3]]
        services.act(game.pk, seat, "pass", version=None, cards=cards)
    while (turn := fresh(game).live_match().hand.turn) == 0:
        play_one(game)
    return turn


def a_bot_shot_the_moon(shooter: int) -> Game:
    """alice and the bots under "the shooter chooses", the bot in ``shooter`` to choose how
    the moon it shot in the first hand scores."""
    game = against_bots(preset="custom", options={"moon": "choose"})
    seed, moves = a_moon_for(fresh(game).live_match().rules, shooter=shooter)
    # Dealt again, before anyone has seen a card, from a known deal with no added seeds.
    Game.objects.filter(pk=game.pk).update(seed=seed, added_seeds=[])
    for kind, seat, cards in moves:
        services.act(game.pk, seat, kind, version=None, cards=cards)
    hand = fresh(game).live_match().hand
    assert hand.phase is Phase.MOON_CHOICE and hand.turn == shooter
    return game


# The pass -----------------------------------------------------------------------------------


@pytest.mark.usefixtures("quiet")
def test_a_deadline_that_finds_a_bots_pass_made_by_the_relay_times_out_only_the_person(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Play now: alice closed her tab before passing; her deadline has passed.
    game = against_bots()
    version = overdue(game)
    the_relay_moves_as_the_task_reads(monkeypatch, seat=1)

    enforce_deadline(game.pk, version)

    moves = the_log(game)
    assert moves[0] == (1, "pass", False)  # the relay's
    assert (0, "pass", True) in moves  # her time-out, all the same
    passes = [seat for seat, kind, _ in moves if kind == "pass"]
    assert sorted(passes) == sorted(set(passes)), "a seat passed twice"


@pytest.mark.usefixtures("quiet")
def test_a_deadline_that_finds_the_last_pass_made_by_the_relay_does_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # alice and two bots have passed; the last bot's pass is due, and made by the relay.
    game = against_bots()
    match = fresh(game).live_match()
    for seat in (0, 1, 2):
        cards = [str(card) for card in match.hand.holding(seat)[:3]]
        services.act(game.pk, seat, "pass", version=None, cards=cards)
    version = overdue(game)
    the_relay_moves_as_the_task_reads(monkeypatch, seat=3)

    enforce_deadline(game.pk, version)

    assert the_log(game, version) == [(3, "pass", False)]
    assert fresh(game).live_match().hand.phase is Phase.PLAYING


@pytest.mark.usefixtures("quiet")
def test_the_bots_task_that_finds_a_bots_pass_made_by_the_relay_does_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = against_bots()
    match = fresh(game).live_match()
    services.act(
        game.pk, 0, "pass", version=None, cards=[str(c) for c in match.hand.holding(0)[:3]]
    )
    version = fresh(game).version
    the_relay_moves_as_the_task_reads(monkeypatch, seat=1)

    bot_move(game.pk, version)

    assert the_log(game, version) == [(1, "pass", False)]


@pytest.mark.usefixtures("quiet")
def test_the_relays_bot_that_finds_its_pass_made_by_the_deadline_does_nothing() -> None:
    game = against_bots()
    match = fresh(game).live_match()
    services.act(
        game.pk, 0, "pass", version=None, cards=[str(c) for c in match.hand.holding(0)[:3]]
    )
    version = overdue(game)
    held = table_state.load(game.table_id)  # the relay holds the table as it is now
    enforce_deadline(game.pk, version)  # the bots' passes, from the deadline

    assert the_relays_bot_moves(game, 1, held) == ""
    assert fresh(game).version == version + 3
    assert sorted(seat for seat, _, _ in the_log(game)) == [0, 1, 2, 3]


def test_a_persons_second_pass_is_still_refused_in_words() -> None:
    game = against_bots()
    match = fresh(game).live_match()
    cards = [str(c) for c in match.hand.holding(0)[:3]]
    services.act(game.pk, 0, "pass", version=0, cards=cards)

    with pytest.raises(services.ServiceError, match="You have already passed"):
        services.act(game.pk, 0, "pass", version=0, cards=cards)


# A card and the moon's choice ------------------------------------------------------------------


@pytest.mark.usefixtures("quiet")
def test_a_deadline_that_finds_a_bots_card_played_by_the_relay_does_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = against_bots()
    seat = a_bots_turn_to_play(game)
    version = overdue(game)
    the_relay_moves_as_the_task_reads(monkeypatch, seat=seat)

    enforce_deadline(game.pk, version)

    assert the_log(game, version) == [(seat, "play", False)]


@pytest.mark.usefixtures("quiet")
def test_a_deadline_that_finds_a_bots_moon_chosen_by_the_relay_does_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = a_bot_shot_the_moon(shooter=1)
    version = overdue(game)
    the_relay_moves_as_the_task_reads(monkeypatch, seat=1)

    enforce_deadline(game.pk, version)

    assert the_log(game, version) == [(1, "moon", False)]
    assert fresh(game).live_match().hand.number == 2
