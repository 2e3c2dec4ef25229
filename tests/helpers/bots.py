"""A hand driven by bots the way the site drives them: every decision from a seat view."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from games.bots import Bot, SearchBot
from games.engine import Hand, Match, Phase, Rules, seat_view
from tests.helpers.engine import seed

# Hand 1 passes left. Seat 2 holds no club, seat 0 passes its three hearts to seat 1.
DEAL = [
    "2C 3C 4C 2D 3D 4D 5D 2H 3H 4H 2S 3S 4S",
    "5C 6C 7C 8C 6D 7D 8D 5H 6H 7H 5S 6S 7S",
    "9D TD JD QD KD AD 8H 9H TH 8S 9S TS JS",
    "9C TC JC QC KC AC JH QH KH AH QS KS AS",
]
PASSES = ["2H 3H 4H", "5H 6H 7H", "8H 9H TH", "JH QH KH"]


def match_with(hand: Hand, totals: Sequence[int] | None = None) -> Match:
    """A match whose hand in progress is ``hand`` (any hand number, any deal)."""
    match = Match(hand.rules, seed(0))
    if totals is not None:
        match.totals = tuple(totals)
    match.hand = hand
    return match


def dealt(
    rules: Rules, number: int, deal_seed: int = 1, totals: Sequence[int] | None = None
) -> Match:
    return match_with(Hand.deal(rules, seed(deal_seed), number, totals=totals), totals)


def step(match: Match, bots: Sequence[Bot]) -> None:
    """One decision: the next pass, the card of the seat to play, or the shooter's choice."""
    hand = match.hand
    if hand.phase is Phase.PASSING:
        seat = next(s for s in range(match.players) if not hand.has_passed(s))
        match.pass_cards(seat, bots[seat].choose_pass(seat_view(match, seat)))
    elif hand.phase is Phase.MOON_CHOICE:
        match.choose_moon(hand.turn, bots[hand.turn].choose_moon(seat_view(match, hand.turn)))
    else:
        match.play(hand.turn, bots[hand.turn].choose_play(seat_view(match, hand.turn)))


def play_until(match: Match, bots: Sequence[Bot], done: Callable[[Hand], bool]) -> Hand:
    """Play the hand in progress until ``done(hand)`` or its end; returns that hand (the match
    deals the next one once it is scored)."""
    hand = match.hand
    while not hand.is_over and not done(hand):
        step(match, bots)
    return hand


def play_tricks(match: Match, tricks: Sequence[str]) -> None:
    """Play scripted cards, each by the seat whose turn it is (the engine checks them)."""
    for trick in tricks:
        for card in trick.split():
            match.play(match.hand.turn, card)


def decisions() -> list[str]:
    """Every decision of two hands of four small search bots, in order."""
    made: list[str] = []
    for number in (1, 3):
        match = dealt(Rules(), number, deal_seed=number)
        bots = [
            SearchBot(seconds=None, samples=30, work=80, pass_deals=12, seed=s) for s in range(4)
        ]
        hand = match.hand
        while not hand.is_over:
            before = len(hand.moves)
            step(match, bots)
            made.extend(str(move.to_json()) for move in hand.moves[before:])
    return made
