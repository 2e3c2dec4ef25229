"""Games for the records' and the history's tests: cards played one at a time, and a game that
ends early, in its second hand, when someone resigns."""

from __future__ import annotations

from games import services
from games.models import Game
from tests.helpers.tables import everyone_passes, fresh, game_with, play_one


def play_cards(game: Game, count: int) -> None:
    """Play ``count`` legal cards, passing first (the last three cards of each hand) whenever a
    hand starts with a pass."""
    for _ in range(count):
        everyone_passes(game, last=True)
        play_one(game)


def cards_per_hand(game: Game) -> int:
    return len(game.match().rules.deck)


def ended_early(cards_into_hand_two: int = 3, resigner: int = 2) -> Game:
    """alice, bob, carol and dave at a rated table: a whole first hand, a few cards of the
    second, then a resignation."""
    game = game_with(rated=True)
    play_cards(game, cards_per_hand(game) + cards_into_hand_two)
    services.resign(game.pk, resigner)
    return fresh(game)
