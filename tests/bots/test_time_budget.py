"""The search bot's budget is in deals and play-outs, so that a busy machine makes the same
choice; the wall clock only guards a decision, and stops one that would outlast it. Behaviour
checks with a generous allowance for the deal in progress and a busy machine, not benchmarks
(those live in bench/)."""

from __future__ import annotations

import time

from games.bots import SearchBot, make_bot, race
from games.bots.search import representatives
from games.engine import Rules, seat_view
from tests.helpers.bots import dealt, play_until

BUDGET = 0.05
ALLOWANCE = 0.10  # one more sample, and a noisy machine


def test_a_decision_stops_at_its_time_guard():
    bot = SearchBot(seconds=BUDGET, samples=10_000, loss=None, seed=1)
    match = dealt(Rules(), 4)
    heuristic = [make_bot("heuristic")] * 4
    times = []
    for cards_played in range(1, 45):  # from the first trick (the longest play-outs) on
        hand = play_until(match, heuristic, lambda hand, k=cards_played: hand.cards_played == k)
        view = seat_view(match, hand.turn)
        if len(representatives(view, list(view.legal))) < 2:
            continue  # nothing to think about: the bot answers at once
        start = time.perf_counter()
        bot.choose_play(view)
        times.append(time.perf_counter() - start)
        if len(times) == 5:
            break

    assert len(times) == 5
    assert max(times) < BUDGET + ALLOWANCE, [f"{t:.3f}" for t in times]
    assert min(times) > BUDGET / 2  # the clock stopped it, not the 10,000 samples


def test_a_pass_stops_at_its_time_guard():
    bot = SearchBot(seconds=BUDGET, pass_deals=10_000, loss=None, seed=1)
    times = []
    for number in (1, 2, 3):  # left, right, across
        view = seat_view(dealt(Rules(), number, deal_seed=number), 0)
        start = time.perf_counter()
        cards = bot.choose_pass(view)
        times.append(time.perf_counter() - start)
        assert len(set(cards)) == 3 and set(cards) <= set(view.hand)

    assert max(times) < BUDGET + ALLOWANCE, [f"{t:.3f}" for t in times]
    assert min(times) > BUDGET / 2  # the clock stopped it, not the 10,000 deals


def test_a_busy_machine_makes_the_same_choice_later(monkeypatch):
    match = dealt(Rules(), 2)
    play_until(match, [make_bot("heuristic")] * 4, lambda hand: hand.cards_played == 9)
    view = seat_view(match, match.hand.turn)
    bot = SearchBot(seconds=5.0, samples=200, work=400, seed=3)
    quiet = bot.choose_play(view)

    # Each look at the clock finds 20 ms gone: a machine that runs the search ten times slower.
    ticks = iter(range(10**9))
    monkeypatch.setattr(race.time, "perf_counter", lambda: next(ticks) * 0.02)
    busy = bot.choose_play(view)

    assert busy == quiet
