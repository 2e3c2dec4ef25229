"""The search bot stops at its time budget. A behaviour check with a generous allowance for the
sample in progress and a busy machine, not a benchmark (those live in bench/)."""

from __future__ import annotations

import time

from games.bots import SearchBot, make_bot
from games.bots.search import representatives
from games.engine import Rules, seat_view

from .table import dealt, play_until

BUDGET = 0.05
ALLOWANCE = 0.10  # one more sample, and a noisy machine


def test_a_decision_stops_at_its_time_budget():
    bot = SearchBot(seconds=BUDGET, samples=10_000, seed=1)
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


def test_a_pass_stops_at_its_time_budget():
    bot = SearchBot(seconds=BUDGET, pass_deals=10_000, seed=1)
    times = []
    for number in (1, 2, 3):  # left, right, across
        view = seat_view(dealt(Rules(), number, deal_seed=number), 0)
        start = time.perf_counter()
        cards = bot.choose_pass(view)
        times.append(time.perf_counter() - start)
        assert len(set(cards)) == 3 and set(cards) <= set(view.hand)

    assert max(times) < BUDGET + ALLOWANCE, [f"{t:.3f}" for t in times]
    assert min(times) > BUDGET / 2  # the clock stopped it, not the 10,000 deals
