"""Histories of rated games for the collusion tests: four people at a table to 25 points, each
seat played by the rule-based bot (the fastest) or by a colluding policy, seats rotating from
game to game. Each game is created through the site's services, played out by the engine,
saved as the site saves a log, and its last move made through ``services.act`` so that it
ends and is rated as a live game is."""

from __future__ import annotations

from itertools import permutations

from django.contrib.auth.models import User

from games.bots import basic, policy
from games.engine import Card, Match, Phase, Rules, mask_of, seat_view
from games.models import Game
from tests.helpers.finishing import deal_from, end_through_the_site
from tests.helpers.tables import game_with

TARGET = 25  # short games: two or three hands each


def taker_of_trick(match: Match, seat: int, card: Card) -> int:
    """Who takes the trick in play if ``seat`` plays ``card`` and the rest of the table plays on
    as the rule-based bot does: the colluders see the table's cards, as friends who tell each
    other their hands and know how the others play would."""
    hand = match.hand.copy()
    done = len(hand.tricks)
    taken = [0] * hand.players
    for trick in hand.tricks:
        taken[trick.winner] |= mask_of(trick.cards)
    hand.play(seat, card)
    player = policy.Player(hand.players, taken)
    while len(hand.tricks) == done:
        turn = hand.turn
        hand.play_index(turn, player.pick(hand.trick, turn, hand.legal_mask(turn), taken))
    return hand.tricks[done].winner


def colluding_card(match: Match, seat: int, partner: int) -> Card:
    """Among the engine's legal plays: when discarding, the biggest point card that goes onto
    anybody's trick but the partner's, else no points at all if it can; otherwise (and when it
    must lead or follow suit) the rule-based bot's card."""
    usual = policy.choose_card(seat_view(match, seat))
    trick = match.hand.current_trick
    legal = match.hand.legal_plays(seat)
    if not trick or any(card.suit is trick[0][1].suit for card in legal):
        return usual
    dumps = [c for c in legal if c.points and taker_of_trick(match, seat, c) != partner]
    if dumps:
        return max(dumps, key=lambda card: (card.points, card.rank))
    clean = [card for card in legal if not card.points]
    return max(clean, key=lambda card: card.rank) if usual.points and clean else usual


def play_out(match: Match, partners: dict[int, int]) -> None:
    """Play ``match`` to the end; the seats in ``partners`` collude with the seat named."""
    while not match.is_over:
        hand = match.hand
        if hand.phase is Phase.PASSING:
            seat = next(s for s in range(match.players) if not hand.has_passed(s))
            match.pass_cards(seat, basic.choose_pass(seat_view(match, seat)))
        elif hand.phase is Phase.MOON_CHOICE:
            match.choose_moon(hand.turn, basic.choose_moon(seat_view(match, hand.turn)))
        elif hand.turn in partners:
            match.play(hand.turn, colluding_card(match, hand.turn, partners[hand.turn]))
        else:
            match.play(hand.turn, policy.choose_card(seat_view(match, hand.turn)))


def rated_game(players: list[User], number: int, colluders: tuple[User, ...] = ()) -> Game:
    """One rated game, ``players`` in seat order (the first hosts), dealt from seed ``number``;
    the two ``colluders`` (if any) feed everyone but each other."""
    game = game_with(players, preset="custom", options={"target": TARGET}, rated=True)
    seats = {person.pk: seat for seat, person in enumerate(players)}
    partners = {}
    if colluders:
        first, second = (seats[person.pk] for person in colluders)
        partners = {first: second, second: first}
    match = Match(Rules.from_json(game.rules), deal_from(game, number))
    play_out(match, partners)
    return end_through_the_site(game, match)


def history(
    players: list[User], games: int, colluders: tuple[User, ...] = (), first_deal: int = 1000
) -> list[Game]:
    """``games`` rated games of the four ``players``, dealt from seeds ``first_deal`` on, the
    seating going through the orders in turn so that each pair sits side by side and across the
    table alike."""
    orders = list(permutations(players))
    return [
        rated_game(list(orders[(7 * n) % len(orders)]), first_deal + n, colluders)
        for n in range(games)
    ]
