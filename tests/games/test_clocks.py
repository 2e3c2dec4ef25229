"""Clocks: every turn has a deadline; when it passes, the table moves for the seat (relaxed) or
the game ends against it (strict); three time-outs in a row count as leaving; resigning ends
the game at once. The sweep queues the deadline tasks, which act only on the turn they were
meant for."""

from __future__ import annotations

import threading
import time
from datetime import datetime
from typing import Any

import pytest
from django.db import connection, connections
from django.utils import timezone

from games import services
from games.engine import Clock, Match, Phase, Rules, fingerprint
from games.models import Game, GamePlayer, MoveRecord, Table
from games.tasks import enforce_deadline, sweep_deadlines, time_out
from hearts_site import celery_app
from live.table_context import build_context
from tests.helpers.clocks import a_moon_for, against_bots, four_people, overdue
from tests.helpers.tables import everyone_passes, fresh, game_with, play_one

pytestmark = pytest.mark.django_db


def seconds_until(game: Game) -> float:
    deadline = fresh(game).deadline
    assert deadline is not None
    return (deadline - timezone.now()).total_seconds()


def rules_of(game: Game) -> Rules:
    return Rules.from_json(game.rules)


Queued = list[tuple[tuple[int, int], datetime | None]]


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> Queued:
    """The deadline tasks the sweep queues, as (args, eta), instead of sending them."""
    tasks: Queued = []

    def send_task(name: str, args: tuple[int, int], kwargs: Any = None, **options: Any) -> None:
        assert name == enforce_deadline.name
        game_id, version = args
        tasks.append(((game_id, version), options.get("eta")))

    monkeypatch.setattr(celery_app, "send_task", send_task)
    return tasks


def run(queued: Queued) -> None:
    """Deliver the deadline tasks queued, now, whatever their time."""
    for (game_id, version), _ in queued:
        enforce_deadline(game_id, version)


# Deadlines -------------------------------------------------------------------------------


def test_the_pass_has_thirty_seconds_for_everyone_and_each_card_twenty_five() -> None:
    game = four_people()
    assert 29 < seconds_until(game) <= 30
    first = fresh(game).deadline

    match = fresh(game).match()
    services.act(game.pk, 0, "pass", version=0, cards=[str(c) for c in match.hand.holding(0)[:3]])
    assert fresh(game).deadline == first  # another seat's pass does not restart the clock

    everyone_passes(game)
    assert 24 < seconds_until(game) <= 25
    play_one(game)
    assert 24 < seconds_until(game) <= 25


def test_the_table_shows_a_countdown_on_each_seat_it_waits_for() -> None:
    game = four_people()
    match = fresh(game).match()
    services.act(game.pk, 0, "pass", version=0, cards=[str(c) for c in match.hand.holding(0)[:3]])
    game = fresh(game)
    context = build_context(game, game.match(), list(game.players.all()), 1)
    assert [p.on_the_clock for p in context["players"]] == [False, True, True, True]
    assert 29 <= context["seconds_left"] <= 30

    everyone_passes(game)
    game = fresh(game)
    match = game.match()
    context = build_context(game, match, list(game.players.all()), None)
    waiting = [p.seat for p in context["players"] if p.on_the_clock]
    assert waiting == [match.hand.turn]


def test_a_finished_game_has_no_deadline() -> None:
    game = four_people()
    play_until_cards_are_played(game, 1)
    services.resign(game.pk, 2)
    assert fresh(game).deadline is None
    assert time_out(game.pk, fresh(game).version) == 0


# The deadline task's guards -------------------------------------------------------------


def test_a_deadline_task_that_comes_early_changes_nothing() -> None:
    game = four_people()
    everyone_passes(game)
    version = fresh(game).version

    assert time_out(game.pk, version) == 0
    assert fresh(game).version == version


def test_a_deadline_task_for_an_old_version_changes_nothing() -> None:
    game = four_people()
    everyone_passes(game)
    old = fresh(game).version
    play_one(game)
    version = overdue(game)

    assert time_out(game.pk, old) == 0
    assert fresh(game).version == version


def test_the_same_deadline_task_twice_moves_once() -> None:
    game = four_people()
    everyone_passes(game)
    version = overdue(game)

    assert time_out(game.pk, version) == 1
    assert time_out(game.pk, version) == 0
    assert fresh(game).version == version + 1


# Relaxed and strict ------------------------------------------------------------------------


def test_relaxed_a_safe_card_is_played_and_logged_as_a_time_out() -> None:
    game = four_people()
    everyone_passes(game)
    match = fresh(game).match()
    seat = match.hand.turn
    version = overdue(game)

    time_out(game.pk, version)

    record = MoveRecord.objects.get(game=game, number=version + 1)
    assert (record.kind, record.seat, record.timeout) == ("play", seat, True)
    assert record.cards == "2C"  # the only card the first lead may be
    assert GamePlayer.objects.get(game=game, seat=seat).timeouts_in_a_row == 1
    game = fresh(game)
    context = build_context(game, game.match(), list(game.players.all()), None)
    name = ["alice", "bob", "carol", "dave"][seat]
    assert context["timed_out"] == f"Time ran out for {name}: the table played the 2♣ for them."


def test_relaxed_the_passes_not_made_are_made_and_those_made_stand() -> None:
    game = four_people()
    match = fresh(game).match()
    mine = [str(c) for c in match.hand.holding(0)[:3]]
    services.act(game.pk, 0, "pass", version=0, cards=mine)
    version = overdue(game)

    assert time_out(game.pk, version) == 3

    match = fresh(game).match()
    assert match.hand.phase is Phase.PLAYING
    passes = MoveRecord.objects.filter(game=game, kind="pass").order_by("number")
    assert [(p.seat, p.timeout) for p in passes] == [(0, False), (1, True), (2, True), (3, True)]
    assert passes[0].cards == " ".join(mine)


def test_relaxed_three_time_outs_in_a_row_count_as_leaving() -> None:
    game = against_bots()
    alice_times_out(game)  # the pass
    bots_play_until_alice(game)
    alice_times_out(game)
    assert not fresh(game).is_over
    bots_play_until_alice(game)

    alice_times_out(game)

    game = fresh(game)
    assert game.is_over
    assert game.result is not None
    assert game.result["reason"] == "left"
    assert game.result["places"][0] == 4  # alice, seat 0, is placed last
    assert game.result["forfeited"] == 0
    last = MoveRecord.objects.filter(game=game).last()
    assert last is not None and (last.kind, last.seat, last.choice) == ("resign", 0, "left")


def test_a_move_of_her_own_starts_the_count_again() -> None:
    game = against_bots()
    alice_times_out(game)
    bots_play_until_alice(game)
    alice_times_out(game)
    bots_play_until_alice(game)
    play_one(game)  # alice plays herself
    assert GamePlayer.objects.get(game=game, seat=0).timeouts_in_a_row == 0
    bots_play_until_alice(game)

    alice_times_out(game)

    assert not fresh(game).is_over


def test_strict_a_missed_deadline_ends_the_game_against_that_player() -> None:
    game = four_people(Clock.STRICT)
    everyone_passes(game)
    play_one(game)
    seat = fresh(game).match().hand.turn
    version = overdue(game)

    time_out(game.pk, version)

    game = fresh(game)
    assert game.result is not None
    assert game.result["reason"] == "timed out"
    assert game.result["forfeited"] == seat
    assert game.result["places"][seat] == 4
    assert sorted(game.result["places"]) == [1, 1, 1, 4]  # the others share first at 0 each


def test_strict_a_missed_pass_before_any_card_ends_the_game_against_the_late_seats() -> None:
    game = four_people(Clock.STRICT)
    version = overdue(game)

    time_out(game.pk, version)

    game = fresh(game)
    assert game.status == Game.Status.FINISHED
    assert game.result is not None
    assert game.result["reason"] == "timed out"
    assert game.result["places"][game.result["forfeited"]] == 4


def test_relaxed_the_table_chooses_how_a_moon_scores_for_a_shooter_out_of_time() -> None:
    game = four_people(moon="choose")
    seed, moves = a_moon_for(Rules.from_json(game.rules), shooter=0)
    # Dealt again, before anyone has seen a card, from a known deal with no added seeds.
    Game.objects.filter(pk=game.pk).update(seed=seed, fingerprint=fingerprint(seed), added_seeds=[])
    for kind, seat, cards in moves:
        services.act(game.pk, seat, kind, version=None, cards=cards)
    assert fresh(game).match().hand.phase is Phase.MOON_CHOICE
    version = overdue(game)

    assert time_out(game.pk, version) == 1

    record = MoveRecord.objects.get(game=game, number=version + 1)
    assert (record.kind, record.seat, record.timeout) == ("moon", 0, True)
    assert record.choice in ("others", "self")
    match = fresh(game).match()
    assert match.hand.number == 2 and len(match.hands) == 1
    context = build_context(fresh(game), match, list(game.players.all()), None)
    assert context["timed_out"] == ""  # a new hand: its own time-outs only


# Resigning ---------------------------------------------------------------------------------


def test_resigning_while_the_first_hand_is_passed_loses_the_game() -> None:
    game = four_people()
    services.resign(game.pk, 1)
    game = fresh(game)
    assert game.status == Game.Status.FINISHED
    assert game.result is not None
    assert game.result["reason"] == "resigned"
    assert game.result["places"] == [1, 4, 1, 1]
    assert game.table.status == Table.Status.CLOSED


def test_resigning_mid_trick_places_that_seat_last_and_the_others_by_their_totals() -> None:
    game = four_people()
    everyone_passes(game)
    play_until_cards_are_played(game, 6)  # in the second trick

    services.resign(game.pk, 3)

    game = fresh(game)
    assert game.result is not None
    assert game.result["reason"] == "resigned"
    # The hand in progress is not scored: every total is 0, so the other three share first.
    assert game.result["places"] == [1, 1, 1, 4]


def test_resigning_between_hands_places_the_others_by_the_totals_so_far() -> None:
    game = four_people()
    everyone_passes(game)
    play_until_cards_are_played(game, 52)
    match = fresh(game).match()
    assert match.hand.number == 2 and match.hand.phase is Phase.PASSING
    totals = match.totals

    services.resign(game.pk, 0)

    game = fresh(game)
    expected = [1 + sum(1 for t in totals[1:] if t < total) for total in totals]
    expected[0] = 4
    assert game.result is not None
    assert game.result["places"] == expected
    assert game.result["totals"] == list(totals)


# The sweep and restarts --------------------------------------------------------------------


def test_a_turn_due_within_the_next_two_sweeps_gets_a_task_timed_for_its_deadline(
    settings: Any, queued: Queued
) -> None:
    settings.HEARTS_SWEEP_SECONDS = 60  # the next sweeps after the turn's 25 seconds
    game = four_people()
    everyone_passes(game)
    game = fresh(game)

    assert sweep_deadlines() == 1

    assert queued == [((game.pk, game.version), game.deadline)]
    assert fresh(game).version == game.version  # the task moves at the deadline, not the sweep


def test_a_turn_due_after_the_next_two_sweeps_gets_no_task_yet(
    settings: Any, queued: Queued
) -> None:
    settings.HEARTS_SWEEP_SECONDS = 1
    game = four_people()
    everyone_passes(game)

    assert sweep_deadlines() == 0

    assert queued == []


def test_the_sweep_times_out_an_overdue_turn_and_leaves_the_others(queued: Queued) -> None:
    waiting = four_people()
    everyone_passes(waiting)
    late = four_people_again("late")
    everyone_passes(late)
    version = overdue(late)

    sweep_deadlines()
    assert queued == [((late.pk, version), None)]  # at once
    run(queued)

    assert fresh(late).version == version + 1
    assert MoveRecord.objects.get(game=late, number=version + 1).timeout
    assert fresh(waiting).version == 4
    queued.clear()
    sweep_deadlines()
    assert queued == []  # the next turn has its own 25 seconds


def test_two_sweeps_before_their_tasks_run_time_a_turn_out_once(queued: Queued) -> None:
    game = four_people()
    everyone_passes(game)
    version = overdue(game)

    sweep_deadlines()
    sweep_deadlines()
    run(queued)

    assert len(queued) == 2
    assert fresh(game).version == version + 1
    assert MoveRecord.objects.filter(game=game, timeout=True).count() == 1


def test_the_sweep_moves_a_bot_whose_task_was_lost(queued: Queued) -> None:
    game = against_bots()
    alice = fresh(game).match().hand.holding(0)[:3]
    # Her pass; the bots' task (not run in this test) was lost.
    services.act(game.pk, 0, "pass", version=None, cards=[str(c) for c in alice])
    overdue(game)

    sweep_deadlines()
    run(queued)

    passes = MoveRecord.objects.filter(game=game, kind="pass")
    assert sorted((p.seat, p.timeout) for p in passes) == [
        (0, False),
        (1, False),
        (2, False),
        (3, False),
    ]


def test_a_bots_turn_is_due_a_few_seconds_after_its_delay_not_a_persons_whole_turn(
    settings: Any,
) -> None:
    settings.HEARTS_BOT_DELAY = 0.8
    settings.HEARTS_BOT_GRACE = 3.0
    game = against_bots()
    assert 29 < seconds_until(game) <= 30  # alice passes too: she has her whole time
    alice = fresh(game).match().hand.holding(0)[:3]

    services.act(game.pk, 0, "pass", version=None, cards=[str(c) for c in alice])

    # Only the bots' passes are awaited: their task, or the sweep if it is lost, moves soon.
    assert 3.0 < seconds_until(game) <= 3.8


def test_after_a_restart_the_turn_in_progress_gets_its_full_time_again() -> None:
    game = four_people()
    everyone_passes(game)
    overdue(game)

    assert services.resume_clocks() == 1

    assert 24 < seconds_until(game) <= 25


# Races -------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_move_and_its_deadline_at_the_same_moment_apply_exactly_once() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the race needs PostgreSQL's row locks (CI runs it)")
    game = four_people()
    everyone_passes(game)
    outcomes = []
    for round_ in range(24):
        GamePlayer.objects.filter(game=game).update(timeouts_in_a_row=0)
        match = fresh(game).match()
        seat, version = match.hand.turn, match.version
        card = str(match.hand.legal_plays(seat)[-1])
        overdue(game)
        # Half the rounds the player is a little late, so that each side wins some.
        played, clock_moves = race(game, seat, version, card, delay=0.3 if round_ % 2 else 0.0)
        assert fresh(game).version == version + 1, "both moves, or neither, were applied"
        record = MoveRecord.objects.get(game=game, number=version + 1)
        assert played is (not record.timeout)
        assert clock_moves == (1 if record.timeout else 0)
        outcomes.append(record.timeout)
    assert True in outcomes and False in outcomes


# Helpers -----------------------------------------------------------------------------------


def race(game: Game, seat: int, version: int, card: str, delay: float) -> tuple[bool, int]:
    """The seat's card (``delay`` seconds late) and the deadline task, in two threads that
    start together: (whether the card was taken, the moves the deadline task made)."""
    start = threading.Barrier(2)
    result: dict[str, Any] = {}

    def player() -> None:
        try:
            start.wait()
            time.sleep(delay)
            services.act(game.pk, seat, "play", version=version, cards=[card])
            result["player"] = True
        except services.StaleVersion:
            result["player"] = False
        finally:
            connections.close_all()

    def clock() -> None:
        try:
            start.wait()
            result["clock"] = time_out(game.pk, version)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=player), threading.Thread(target=clock)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return result["player"], result["clock"]


def four_people_again(prefix: str) -> Game:
    return game_with([f"{prefix}{i}" for i in range(4)])


def play_until_cards_are_played(game: Game, count: int) -> None:
    match = fresh(game).match()
    if match.hand.phase is Phase.PASSING:
        everyone_passes(game)
    while fresh(game).match().cards_played < count:
        play_one(game)


def alice_times_out(game: Game) -> None:
    match = fresh(game).match()
    assert 0 in services.seats_to_act(match)
    version = overdue(game)
    assert time_out(game.pk, version) >= 1


def bots_play_until_alice(game: Game) -> None:
    from games.tasks import play_bots

    while True:
        match: Match = fresh(game).match()
        if match.is_over or services.seats_to_act(match) == [0]:
            return
        play_bots(game.pk, match.version)
