"""Each game keeps a snapshot of its state, written with every move: live play starts from it,
never from the whole move log, and the log (the source of truth) rebuilds it."""

from __future__ import annotations

import logging

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test.utils import CaptureQueriesContext

from games import services
from games.engine import Match, Phase, seat_view
from games.models import Game, MoveRecord
from live import table_context

pytestmark = pytest.mark.django_db


def _four_people(target: int = 50) -> tuple[Game, list[User]]:
    people = [User.objects.create_user(name) for name in ("alice", "bob", "carol", "dave")]
    table = services.create_table(people[0], preset="custom", options={"target": target})
    for index, person in enumerate(people[1:], start=1):
        services.take_seat(table.pk, person, index)
    return services.start_game(table.pk, people[0]), people


def _fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def _move(game: Game) -> None:
    """The seat the game waits for makes a plain move, through the service, as people do."""
    match = _fresh(game).match()
    hand = match.hand
    if hand.phase is Phase.PASSING:
        seat = next(s for s in range(match.players) if not hand.has_passed(s))
        cards = [str(card) for card in hand.holding(seat)[:3]]
        services.act(game.pk, seat, "pass", version=match.version, cards=cards)
    elif hand.phase is Phase.MOON_CHOICE:
        services.act(game.pk, hand.turn, "moon", version=match.version, choice="others")
    else:
        card = str(hand.legal_plays(hand.turn)[0])
        services.act(game.pk, hand.turn, "play", version=match.version, cards=[card])


def _assert_same(live: Match, replayed: Match) -> None:
    assert live.snapshot() == replayed.snapshot()
    assert (live.version, live.totals, live.hand_points()) == (
        replayed.version,
        replayed.totals,
        replayed.hand_points(),
    )
    for seat in [None, *range(live.players)]:
        assert seat_view(live, seat) == seat_view(replayed, seat)


def test_a_game_rebuilt_from_its_seed_and_log_equals_its_snapshot_after_every_move() -> None:
    game, _ = _four_people()
    while not _fresh(game).is_over:
        _move(game)
        stored = _fresh(game)
        # Taken at each trick and each hand: between them, the moves since are replayed.
        assert stored.snapshot is not None
        assert 0 <= stored.version - stored.snapshot["version"] < 2 * 4
        _assert_same(stored.live_match(), stored.match())
    stored = _fresh(game)
    assert len(stored.match().hands) > 1
    assert stored.snapshot == stored.match().to_snapshot()
    assert stored.live_match().result == stored.match().result


def test_a_resigned_game_s_snapshot_is_its_log_replayed() -> None:
    game, _ = _four_people()
    for _ in range(30):
        _move(game)
    services.resign(game.pk, 2)
    stored = _fresh(game)
    assert stored.is_over and stored.snapshot == stored.match().to_snapshot()
    _assert_same(stored.live_match(), stored.match())


def test_a_move_and_the_table_s_page_read_only_the_moves_since_the_snapshot() -> None:
    game, people = _four_people(target=100)
    while len(_fresh(game).match().hands) < 2 or _fresh(game).match().hand.cards_played < 3:
        _move(game)
    match = _fresh(game).match()
    seat = match.hand.turn
    log_table = MoveRecord._meta.db_table
    with CaptureQueriesContext(connection) as queries:
        card = str(match.hand.legal_plays(seat)[0])
        services.act(game.pk, seat, "play", version=match.version, cards=[card])
        table_context.table_view(_fresh(game), people[1])
    reads = [q["sql"] for q in queries if q["sql"].startswith("SELECT") and log_table in q["sql"]]
    assert reads and all(f'"{log_table}"."number" >' in sql for sql in reads)
    stored = _fresh(game)
    assert stored.snapshot is not None
    assert stored.version - stored.snapshot["version"] < 4  # within the trick: never the log


def test_a_snapshot_newer_than_its_game_is_not_trusted_and_the_log_is_replayed(
    caplog: pytest.LogCaptureFixture,
) -> None:
    game, _ = _four_people()
    for _ in range(10):
        _move(game)
    snapshot = _fresh(game).snapshot
    assert snapshot is not None
    later = {**snapshot, "version": _fresh(game).version + 1}
    Game.objects.filter(pk=game.pk).update(snapshot=later)
    with caplog.at_level(logging.WARNING, logger="games.models"):
        live = _fresh(game).live_match()
    assert "replaying its log" in caplog.text
    _assert_same(live, _fresh(game).match())
    _move(game)  # the next move starts from the log, and saves a sound snapshot again
    stored = _fresh(game)
    assert stored.snapshot == stored.match().to_snapshot()


def test_rebuild_snapshots_repairs_a_corrupted_snapshot(capsys: pytest.CaptureFixture[str]) -> None:
    game, _ = _four_people()
    sound, _ = _four_people_at_another_table()
    while len(_fresh(game).match().hands) < 1 or _fresh(game).match().hand.cards_played < 5:
        _move(game)
    snapshot = _fresh(game).snapshot
    assert snapshot is not None
    corrupted = {**snapshot, "totals": [snapshot["totals"][0] + 1, *snapshot["totals"][1:]]}
    Game.objects.filter(pk=game.pk).update(snapshot=corrupted)
    assert _fresh(game).live_match().totals != _fresh(game).match().totals

    call_command("rebuild_snapshots")

    assert "2 game(s) replayed, 1 snapshot(s) rebuilt" in capsys.readouterr().out
    stored = _fresh(game)
    assert stored.snapshot == stored.match().to_snapshot()
    _assert_same(stored.live_match(), stored.match())
    assert _fresh(sound).snapshot == _fresh(sound).match().to_snapshot()


def _four_people_at_another_table() -> tuple[Game, list[User]]:
    people = [User.objects.create_user(name) for name in ("erin", "frank", "grace", "heidi")]
    table = services.create_table(people[0])
    for index, person in enumerate(people[1:], start=1):
        services.take_seat(table.pk, person, index)
    return services.start_game(table.pk, people[0]), people


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_every_game_already_played_the_snapshot_its_log_replays_to() -> None:
    game, _ = _four_people()
    for _ in range(70):
        _move(game)
    executor = MigrationExecutor(connection)
    executor.migrate([("games", "0003_resigning_before_a_card_loses")])
    executor.loader.build_graph()
    executor.migrate([("games", "0004_game_snapshot")])
    # Back to the latest of every app (later migrations leave the snapshots alone), so that the
    # models, and the tests after this one, find the tables they expect.
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    stored = _fresh(game)
    assert stored.snapshot == stored.match().to_snapshot()
    _assert_same(stored.live_match(), stored.match())
