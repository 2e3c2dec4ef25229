"""Games for the clock's tests: four people, or alice against the bots, under either clock."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from games.engine import Clock, Match, Phase, Rules
from games.models import Game
from tests.helpers import tables
from tests.helpers.tables import FOUR, fresh


def four_people(clock: Clock = Clock.RELAXED, moon: str = "others") -> Game:
    """alice, bob, carol and dave at a Standard table with ``clock``, the game dealt."""
    options = {"clock": str(clock), "moon": moon}
    return tables.game_with(FOUR, preset="custom", options=options)


def against_bots(clock: Clock = Clock.RELAXED) -> Game:
    options = {} if clock is Clock.RELAXED else {"clock": "strict"}
    return tables.against_bots(preset="custom", options=options)


def overdue(game: Game) -> int:
    """Let the deadline of the turn in progress pass; returns the game's version."""
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    return fresh(game).version


def a_moon_for(rules: Rules, shooter: int) -> tuple[bytes, list[tuple[str, int, list[str]]]]:
    """A seed and the moves by which ``shooter`` takes every point of the first hand, found by
    playing deals until one works: each seat passes its lowest cards, then one seat plays its
    highest card and the others their lowest (the shooter the high one first, then each of the
    others)."""
    others = [seat for seat in range(rules.players) if seat != shooter]
    for high in [shooter, *others]:
        for number in range(5000):
            seed = number.to_bytes(32, "big")
            match, moves = _high_against_low(rules, seed, high)
            if match.hand.phase is Phase.MOON_CHOICE and match.hand.turn == shooter:
                return seed, moves
    raise AssertionError(f"no deal gave seat {shooter} the moon")


def _high_against_low(
    rules: Rules, seed: bytes, high: int
) -> tuple[Match, list[tuple[str, int, list[str]]]]:
    """The first hand of ``seed`` played out with ``high`` playing its highest card and the
    others their lowest: the match then, and the moves."""
    match = Match(rules, seed)
    moves: list[tuple[str, int, list[str]]] = []
    for seat in range(rules.players):
        held = sorted(match.hand.holding(seat), key=lambda card: card.rank)
        cards = [str(card) for card in held[:3]]
        match.pass_cards(seat, cards)
        moves.append(("pass", seat, cards))
    while match.hand.phase is Phase.PLAYING:
        seat = match.hand.turn
        legal = sorted(match.hand.legal_plays(seat), key=lambda card: card.rank)
        card = legal[-1] if seat == high else legal[0]
        match.play(seat, card)
        moves.append(("play", seat, [str(card)]))
    return match, moves
