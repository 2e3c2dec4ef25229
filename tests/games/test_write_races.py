"""Writers racing on one game: each process judges a move against the game as it holds it, and
the conditional write (games/services.py, ``_write``) lets exactly one move have each number.
The loser's held game is marked stale and never used again as if it were current; a move
without a version is judged again on the game as it is now. Each race runs a few rounds, its
two writers in threads that start together.

On SQLite the tests run on a copy of the test database in a file, as the site keeps it: the
in-memory database of the other tests is shared by the threads' connections in a way that does
not wait for a lock (tests/helpers/workers.py), where a file's writers queue for theirs."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import pytest
from django.db import connection, connections

from games import services
from games.engine import Match, Phase
from games.models import Game, MoveRecord
from games.services import Outcome, ServiceError, StaleVersion
from games.tasks import play_bots
from tests.helpers.tables import FOUR, against_bots, fresh, game_with

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("database_file")]

ROUNDS = 10

Result = Outcome | Exception | int


@pytest.fixture
def database_file(transactional_db: None, tmp_path: Path) -> Iterator[None]:
    """On SQLite, the test's database copied to a file for the test, every connection opened
    meanwhile on it (with the settings' immediate transactions and wait for a lock)."""
    if connection.vendor != "sqlite":
        yield
        return
    settings = connection.settings_dict  # every thread's connection is made from this one
    memory = settings["NAME"]
    kept = sqlite3.connect(memory, uri=True)  # the in-memory database lives while it is open
    copy = sqlite3.connect(tmp_path / "races.sqlite3")
    kept.backup(copy)
    copy.close()
    settings["NAME"] = str(tmp_path / "races.sqlite3")
    connection.close()  # from the in-memory database; opened again on the file
    try:
        yield
    finally:
        connection.close()
        settings["NAME"] = memory
        connection.ensure_connection()  # before the last other connection to it closes
        kept.close()


def four_people(round_: int = 0) -> Game:
    """alice, bob, carol and dave (of this round) at a Standard table, the game dealt."""
    return game_with([f"{name}{round_}" for name in FOUR])


def alice_and_three_bots(round_: int = 0) -> Game:
    return against_bots(f"alice{round_}")


def three_cards(match: Match, seat: int) -> list[str]:
    return [str(card) for card in match.hand.holding(seat)[:3]]


def everyone_passes(game: Game) -> None:
    match = fresh(game).live_match()
    for seat in range(match.players):
        if not match.hand.has_passed(seat):
            services.act(game.pk, seat, "pass", version=None, cards=three_cards(match, seat))


def at_once(*writers: Callable[[], Result]) -> list[Result]:
    """Each writer's result (or the error it raised), the writers run in threads of their own
    (each with its own database connection) that start together."""
    start = threading.Barrier(len(writers))
    results: list[Result] = [0] * len(writers)

    def run(index: int, writer: Callable[[], Result]) -> None:
        try:
            start.wait()
            results[index] = writer()
        except Exception as error:
            results[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=item) for item in enumerate(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def the_log(game: Game, since: int = 0) -> list[tuple[int, int, str, str]]:
    """The moves after version ``since``: (number, seat, kind, cards)."""
    rows = MoveRecord.objects.filter(game=game, number__gt=since).order_by("number")
    return list(rows.values_list("number", "seat", "kind", "cards"))


def assert_replays_to_its_snapshot(game: Game) -> Match:
    """The game rebuilt from its seed and log is the game as it is kept for live play."""
    row = fresh(game)
    replayed, live = row.match(), row.live_match()
    assert replayed.version == live.version == row.version
    assert replayed.snapshot() == live.snapshot()
    return live


# Two writers of one version --------------------------------------------------------------


def test_two_cards_played_at_once_on_one_version_one_is_taken_and_the_other_is_stale() -> None:
    game = four_people()
    everyone_passes(game)
    raced = 0
    while raced < ROUNDS:
        # Two processes hold the game as it is now: the player's card reaches both at once.
        first, second = services.running(game.pk), services.running(game.pk)
        match, version = first.match, first.game.version
        seat = match.hand.turn
        legal = [str(card) for card in match.hand.legal_plays(seat)]
        if len(legal) < 2:
            services.act(game.pk, seat, "play", version=version, cards=legal)
            continue

        cards = (legal[0], legal[-1])
        play = partial(services.act, game.pk, seat, "play", version=version)
        results = at_once(
            partial(play, cards=[cards[0]], held=first),
            partial(play, cards=[cards[1]], held=second),
        )

        taken = [i for i, result in enumerate(results) if isinstance(result, Outcome)]
        stale = [i for i, result in enumerate(results) if isinstance(result, StaleVersion)]
        assert len(taken) == len(stale) == 1, results
        (won,), (lost,) = taken, stale
        assert the_log(game, version) == [(version + 1, seat, "play", cards[won])]
        assert fresh(game).version == version + 1
        live = assert_replays_to_its_snapshot(game)
        winner, loser = (first, second)[won], (first, second)[lost]
        assert winner.match.snapshot() == live.snapshot() and not winner.stale
        assert loser.stale, "the loser's held game took a card the database refused"
        raced += 1


# A move without a version, made on a held game that is out of date ------------------------


def test_a_pass_without_a_version_on_an_out_of_date_held_game_is_judged_again_and_stands() -> None:
    game = four_people()
    held = services.running(game.pk)  # as a process holds it
    dealt = held.match
    services.act(game.pk, 0, "pass", version=None, cards=three_cards(dealt, 0))  # elsewhere

    outcome = services.act(game.pk, 1, "pass", version=None, cards=three_cards(dealt, 1), held=held)

    assert outcome.version == 2
    assert held.stale
    assert [(number, seat) for number, seat, *_ in the_log(game)] == [(1, 0), (2, 1)]
    assert assert_replays_to_its_snapshot(game).snapshot() == outcome.match.snapshot()


def test_a_resignation_on_an_out_of_date_held_game_is_judged_again_and_ends_the_game() -> None:
    game = four_people()
    everyone_passes(game)
    held = services.running(game.pk)
    match, version = held.match, held.game.version
    seat = match.hand.turn
    card = str(match.hand.legal_plays(seat)[0])
    services.act(game.pk, seat, "play", version=version, cards=[card])  # another writer

    services.act(game.pk, 2, "resign", version=None, choice="resigned", held=held)

    assert held.stale
    assert the_log(game, version) == [
        (version + 1, seat, "play", card),
        (version + 2, 2, "resign", ""),
    ]
    row = fresh(game)
    assert row.is_over and row.version == version + 2
    assert row.result is not None and row.result["forfeited"] == 2
    assert assert_replays_to_its_snapshot(game).result is not None


def test_a_held_game_whose_move_was_refused_is_never_used_again_as_if_current() -> None:
    game = four_people()
    everyone_passes(game)
    held = services.running(game.pk)
    match, version = held.match, held.game.version
    seat = match.hand.turn
    legal = [str(card) for card in match.hand.legal_plays(seat)]
    services.act(game.pk, seat, "play", version=version, cards=legal[:1])  # another writer

    # The held game takes the seat's other card; the database refuses it, and on the game as
    # it is now the seat has played already.
    with pytest.raises(ServiceError):
        services.act(game.pk, seat, "play", version=None, cards=legal[-1:], held=held)
    assert held.stale

    # Its row says the version the database has, but not what was played at it: a move held
    # against it again is judged on the game loaded from the database.
    now = fresh(game).live_match()
    following = now.hand.turn
    card = str(now.hand.legal_plays(following)[0])
    services.act(game.pk, following, "play", version=version + 1, cards=[card], held=held)

    assert the_log(game, version) == [
        (version + 1, seat, "play", legal[0]),
        (version + 2, following, "play", card),
    ]
    assert_replays_to_its_snapshot(game)


def test_two_passes_made_at_once_without_a_version_both_stand_one_after_the_other() -> None:
    for round_ in range(ROUNDS):
        game = four_people(round_)
        first, second = services.running(game.pk), services.running(game.pk)
        cards = {seat: three_cards(first.match, seat) for seat in (0, 1)}

        pass_ = partial(services.act, game.pk, kind="pass", version=None)
        results = at_once(
            partial(pass_, seat=0, cards=cards[0], held=first),
            partial(pass_, seat=1, cards=cards[1], held=second),
        )

        assert all(isinstance(result, Outcome) for result in results), results
        log = the_log(game)
        assert [number for number, *_ in log] == [1, 2]
        assert {(seat, kind, passed) for _, seat, kind, passed in log} == {
            (0, "pass", " ".join(cards[0])),
            (1, "pass", " ".join(cards[1])),
        }
        assert [first.stale, second.stale].count(True) == 1
        assert_replays_to_its_snapshot(game)


# A bot's task and a person ---------------------------------------------------------------


def test_a_bots_task_and_a_persons_pass_on_one_version_all_four_passes_stand_once() -> None:
    for round_ in range(ROUNDS):
        game = alice_and_three_bots(round_)
        alice = services.running(game.pk)  # the relay of her socket's process
        cards = three_cards(alice.match, 0)

        alice_passes = partial(services.act, game.pk, 0, "pass", version=0, cards=cards)
        results = at_once(partial(alice_passes, held=alice), partial(play_bots, game.pk, 0))

        assert isinstance(results[0], Outcome), results
        if results[1] == 0:  # her pass was in before the task read the game: it did nothing,
            assert the_log(game) == [(1, 0, "pass", " ".join(cards))]
            results[1] = play_bots(game.pk, 1)  # and her pass queued the bots' next task
        assert results[1] == 3, results
        log = the_log(game)
        assert [number for number, *_ in log] == [1, 2, 3, 4]
        assert sorted((seat, kind) for _, seat, kind, _ in log) == [(s, "pass") for s in range(4)]
        assert assert_replays_to_its_snapshot(game).hand.phase is Phase.PLAYING


def test_a_bots_card_and_a_persons_resignation_on_one_turn_one_move_has_that_number() -> None:
    for round_ in range(ROUNDS):
        game = alice_and_three_bots(round_)
        everyone_passes(game)
        match = fresh(game).live_match()
        while match.hand.turn == 0:
            card = str(match.hand.legal_plays(0)[0])
            match = services.act(game.pk, 0, "play", version=match.version, cards=[card]).match
        version, bot = match.version, match.hand.turn
        alice = services.running(game.pk)

        alice_resigns = partial(
            services.act, game.pk, 0, "resign", version=None, choice="resigned", held=alice
        )
        results = at_once(alice_resigns, partial(play_bots, game.pk, version))

        assert isinstance(results[0], Outcome), results
        log = [(seat, kind) for _, seat, kind, _ in the_log(game, version)]
        if log[0] == (bot, "play"):  # the bot's card first, then the resignation
            assert results[1] == 1, results
            assert log == [(bot, "play"), (0, "resign")]
        else:  # the resignation first: the bot's task finds the game over and does nothing
            assert results[1] == 0, results
            assert log == [(0, "resign")]
        assert fresh(game).is_over
        assert_replays_to_its_snapshot(game)
