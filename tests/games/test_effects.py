"""What a move or a change of seats does after commit: what the table's group and the lobby hear,
and when the bots' task is due."""

from __future__ import annotations

import ast
import threading
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from channels.layers import get_channel_layer
from django.contrib.auth.models import User
from django.db import connections
from django.utils import timezone

from games import effects, services
from games.bots import decide
from games.engine import Card, CardPlayed, HandDealt, Match, Rules, seat_view
from games.models import Game
from hearts_site import celery_app
from live import broadcasts
from tests.helpers.tables import (
    FOUR,
    against_bots,
    everyone_passes,
    game_with,
    play_one,
    table_with,
)

pytestmark = pytest.mark.django_db(transaction=True)  # after-commit effects need real commits

ROOT = Path(__file__).resolve().parents[2]

Heard = list[tuple[str, dict[str, Any]]]


@pytest.fixture
def heard(monkeypatch: pytest.MonkeyPatch) -> Heard:
    """Every group message sent, in order, as (group, message); each is sent on as well."""
    layer = get_channel_layer()
    assert layer is not None
    send = layer.group_send
    messages: Heard = []

    async def group_send(group: str, message: dict[str, Any]) -> None:
        messages.append((group, message))
        await send(group, message)

    monkeypatch.setattr(layer, "group_send", group_send)
    return messages


Scheduled = list[tuple[str, tuple[int, int], dict[str, Any]]]


@pytest.fixture
def scheduled(monkeypatch: pytest.MonkeyPatch) -> Iterator[Scheduled]:
    """Every task scheduled, as (name, args, options), instead of sending it."""
    tasks: Scheduled = []

    def send_task(name: str, args: tuple[int, int], **options: Any) -> None:
        tasks.append((name, args, options))

    monkeypatch.setattr(celery_app, "send_task", send_task)
    yield tasks


def _match(game: Game) -> Match:
    return Game.objects.get(pk=game.pk).match()


def _groups(messages: Heard) -> list[str]:
    return [group for group, _ in messages]


def _table_events(messages: Heard) -> list[dict[str, Any]]:
    return [event for group, m in messages if group != "lobby" for event in m["events"]]


def test_a_card_played_tells_the_table_who_played_it_and_the_lobby_nothing(heard: Heard) -> None:
    game = game_with(FOUR, preset="custom")
    everyone_passes(game)
    match = _match(game)
    seat, card = match.hand.turn, str(match.hand.legal_plays(match.hand.turn)[0])
    heard.clear()

    services.act(game.pk, seat, "play", version=match.version, cards=[card])

    assert heard == [
        (
            services.table_group(game.table_id),
            {
                "type": "table.updated",
                "game": game.pk,
                "version": match.version + 1,
                "events": [{"type": "card_played", "seat": seat, "card": card}],
            },
        )
    ]


def test_this_processs_own_relay_hears_a_move_at_once_as_redis_does(heard: Heard) -> None:
    game = game_with(FOUR, preset="custom")
    everyone_passes(game)
    match = _match(game)
    seat, card = match.hand.turn, str(match.hand.legal_plays(match.hand.turn)[0])
    group = services.table_group(game.table_id)
    here: list[dict[str, Any]] = []
    broadcasts.listen_here(group, here.append)
    heard.clear()
    try:
        services.act(game.pk, seat, "play", version=match.version, cards=[card])
    finally:
        broadcasts.stop_listening_here(group, here.append)

    [(_, sent)] = heard
    assert here == [sent] and sent["version"] == match.version + 1
    assert sent["events"][0] == {"type": "card_played", "seat": seat, "card": card}


def test_a_thread_that_keeps_a_loop_sends_every_move_on_it(
    heard: Heard, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As a Celery pool process's thread does (hearts_site/celery.py): no thread, loop and
    connections of their own for each send, which is what ``async_to_sync`` would make."""
    game = game_with(FOUR, preset="custom")
    everyone_passes(game)

    def each_its_own(*args: Any) -> Any:
        raise AssertionError("a send started a loop of its own")

    monkeypatch.setattr(broadcasts, "async_to_sync", each_its_own)
    heard.clear()

    def worker() -> None:
        broadcasts.keep_a_loop()
        try:
            for _ in range(3):
                play_one(game)
        finally:
            broadcasts.stop_keeping_a_loop()
            connections.close_all()

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()

    assert [message["version"] for _, message in heard] == [5, 6, 7]
    assert broadcasts.pending() == {}


def test_a_completed_trick_is_told_with_who_took_it_its_cards_and_its_points(
    heard: Heard,
) -> None:
    game = game_with(FOUR, preset="custom")
    everyone_passes(game)
    for _ in range(3):
        play_one(game)
    heard.clear()

    play_one(game)

    hand = _match(game).hand
    trick = hand.tricks[-1]
    taken = [e for e in _table_events(heard) if e["type"] == "trick_taken"]
    assert taken == [
        {
            "type": "trick_taken",
            "seat": trick.winner,
            "cards": [str(card) for card in trick.cards],
            "points": trick.points,
        }
    ]
    assert "lobby" not in _groups(heard)


def test_a_pass_is_told_only_as_the_seat_that_has_passed(heard: Heard) -> None:
    game = game_with(FOUR, preset="custom")
    cards = [str(card) for card in _match(game).hand.holding(2)[:3]]
    heard.clear()

    services.act(game.pk, 2, "pass", version=0, cards=cards)

    assert heard == [
        (
            services.table_group(game.table_id),
            {
                "type": "table.updated",
                "game": game.pk,
                "version": 1,
                "events": [{"type": "pass_made", "seat": 2}],
            },
        )
    ]


def test_a_seat_taken_or_left_tells_the_lobby_and_the_table(heard: Heard) -> None:
    table = table_with(["alice"], preset="custom")
    bob = User.objects.create_user("bob")
    heard.clear()

    services.take_seat(table.pk, bob, 1)
    services.leave_seat(table.pk, bob)
    services.set_bot(table.pk, table.host, 2, True)

    group = services.table_group(table.pk)
    assert _groups(heard).count("lobby") == 3
    assert _groups(heard).count(group) == 3


def test_a_game_started_and_a_game_over_tell_the_lobby(heard: Heard) -> None:
    table = table_with(FOUR, preset="custom")
    heard.clear()

    game = services.start_game(table.pk, table.host)
    assert "lobby" in _groups(heard)
    everyone_passes(game)
    play_one(game)
    heard.clear()

    services.resign(game.pk, 1)

    assert "lobby" in _groups(heard)
    assert [e["type"] for e in _table_events(heard)] == ["match_ended"]


def test_a_seed_added_leaves_the_lobby_alone(heard: Heard) -> None:
    table = table_with(["alice"], preset="custom")
    heard.clear()

    services.add_seed(table.pk, table.host, "my own words")

    assert _groups(heard) == [services.table_group(table.pk)]


def _cards_named(value: Any) -> set[Card]:
    """Every card a message names, wherever it is: any string that reads as a card."""
    if isinstance(value, dict):
        return {card for item in value.values() for card in _cards_named(item)}
    if isinstance(value, list | tuple):
        return {card for item in value for card in _cards_named(item)}
    if isinstance(value, str):
        try:
            return {Card.parse(value)}
        except ValueError:
            return set()
    return set()


def _public_cards_at_each_version(game: Game) -> dict[int, set[Card]]:
    """Replaying the log: the cards played face up in the hand each move was made in."""
    game = Game.objects.get(pk=game.pk)
    match = Match(Rules.from_json(game.rules), bytes(game.seed), game.added_seeds)
    public: dict[int, set[Card]] = {}
    played: set[Card] = set()
    for record in game.moves.order_by("number"):
        events = match.apply(record.to_engine())
        played |= {event.card for event in events if isinstance(event, CardPlayed)}
        public[record.number] = set(played)
        if any(isinstance(event, HandDealt) for event in events):
            played = set()
    return public


def _play_the_match_out(game: Game) -> None:
    from games.bots import safe_bot

    bot = safe_bot()
    while not (match := _match(game)).is_over:
        seat = services.seats_to_act(match)[0]
        kind, cards, choice = decide(bot, seat_view(match, seat))
        services.act(game.pk, seat, kind, version=match.version, cards=cards, choice=choice)


def test_no_group_message_of_a_whole_match_carries_a_card_not_yet_played(heard: Heard) -> None:
    game = game_with(FOUR, preset="custom", options={"target": 25})

    _play_the_match_out(game)

    public = _public_cards_at_each_version(game)
    moves = [m for group, m in heard if group != "lobby" and "version" in m and m["version"]]
    assert [m["version"] for m in moves] == sorted(public)  # one message for every move
    for message in moves:
        assert _cards_named(message) <= public[message["version"]], message
    kinds = {event["type"] for event in _table_events(heard)}
    assert {"pass_made", "card_played", "trick_taken", "hand_scored", "match_ended"} <= kinds


@pytest.fixture
def now(monkeypatch: pytest.MonkeyPatch) -> datetime:
    """The site's clock stopped at one moment, so that a deadline is read exactly."""
    moment = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: moment)
    return moment


def test_the_bots_wait_for_a_completed_trick_to_be_seen_before_the_next_card(
    settings: Any, scheduled: Scheduled, now: datetime
) -> None:
    settings.HEARTS_BOT_DELAY = 0.8
    settings.HEARTS_TRICK_PAUSE = 1.0
    settings.HEARTS_BOT_GRACE = 3.0
    game = against_bots(preset="custom")
    everyone_passes(game)
    countdowns = set()
    for _ in range(48):  # twelve tricks, the bots' cards played here rather than by tasks
        scheduled.clear()
        play_one(game)
        game.refresh_from_db()
        hand = _match(game).hand
        if hand.turn == 0:  # alice's turn: her deadline is on the game, for the sweep
            assert scheduled == []
            continue
        [(name, args, options)] = scheduled
        assert (name, args) == (effects.BOT_MOVE, (game.pk, game.version))
        pause = 0.0 if hand.current_trick else 1.0
        assert options == {"countdown": 0.8 + pause}
        assert game.deadline is not None  # if their task is lost: delay, pause and grace
        assert game.deadline == now + timedelta(seconds=0.8 + pause + 3.0)
        countdowns.add(options["countdown"])

    assert countdowns == {0.8, 1.8}


def test_peoples_moves_schedule_nothing_for_their_clock(
    settings: Any, scheduled: Scheduled, now: datetime
) -> None:
    game = game_with(FOUR, preset="custom")

    everyone_passes(game)
    play_one(game)

    assert scheduled == []  # the next turn's deadline is on the game, for the sweep
    game.refresh_from_db()
    assert game.deadline == now + timedelta(seconds=settings.HEARTS_CARD_SECONDS)


def test_the_bots_task_is_scheduled_by_a_name_celery_knows() -> None:
    from games import tasks

    assert tasks.bot_move.name == effects.BOT_MOVE
    assert effects.BOT_MOVE in celery_app.tasks


def _imports_of(path: Path) -> set[str]:
    """The modules a source file imports, anywhere in it (a function's own imports too)."""
    package = ".".join(path.relative_to(ROOT).parent.parts)
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(part for part in (base, node.module or "") if part)
            names.add(module)
            names |= {f"{module}.{alias.name}" for alias in node.names}
    return names


def test_nothing_in_the_site_imports_the_tasks_but_celery() -> None:
    """The services schedule the tasks by name (games/effects.py), so the tasks may import the
    services and no cycle is left for a function's own import to hide."""
    sources = [
        path
        for folder in ("games", "hearts_site", "accounts", "ratings")
        for path in (ROOT / folder).rglob("*.py")
        if path != ROOT / "games" / "tasks.py"
    ]
    importers = [path.name for path in sources if "games.tasks" in _imports_of(path)]

    assert importers == []
    assert "games.services" in _imports_of(ROOT / "games" / "tasks.py")
