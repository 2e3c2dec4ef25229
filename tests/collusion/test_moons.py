"""A moon counts as let through by a player who had a legal card that would have taken a point
trick from the shooter; the examples in the module's docstrings hold."""

from __future__ import annotations

import doctest

import collusion.signals
from collusion.signals import Player, RatedGame, moon_chances_in, rank_pairs
from games.engine import Hand, Match, Rules

ALICE, BOB, CAROL, DAVE = (
    Player(n, name) for n, name in enumerate(["alice", "bob", "carol", "dave"], 1)
)

# Hand 4 holds the cards (no pass). Alice has clubs from the four up and the top spades; Carol,
# across, the 2♣, 3♣ and A♣ and ten diamonds; Bob all the hearts; Dave spades to the jack.
DEAL = [
    "4C 5C 6C 7C 8C 9C TC JC QC KC QS KS AS",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "2C 3C AC 2D 3D 4D 5D 6D 7D 8D 9D TD JD",
    "QD KD AD 2S 3S 4S 5S 6S 7S 8S 9S TS JS",
]
# Carol leads the 2♣; on the second trick she keeps her A♣ back under Alice's Q♣ (with a
# heart on the trick) and later throws it away on a spade: Alice takes every trick.
TRICKS = [
    "2C QD KC 2H",  # from Carol
    "QC 3H 3C 2S",  # from Alice, as are the rest
    "AS 4H AC 3S",
    "KS 5H 2D 4S",
    "QS 6H 3D 5S",
    "JC 7H 4D 6S",
    "TC 8H 5D 7S",
    "9C 9H 6D 8S",
    "8C TH 7D 9S",
    "7C JH 8D TS",
    "6C QH 9D JS",
    "5C KH TD KD",
    "4C AH JD AD",
]


def _moon_game() -> RatedGame:
    rules = Rules()
    hand = Hand(rules, 4, DEAL)
    for trick in TRICKS:
        for card in trick.split():
            hand.play(hand.turn, card)
    assert hand.shooter == 0
    match = Match(rules, bytes(32))
    match.hands.append(hand)  # a match whose one finished hand is this one
    return RatedGame(
        game_id=1,
        match=match,
        players=(ALICE, BOB, CAROL, DAVE),
        places=(1, 2, 2, 2),
        skills=((25.0, 8.0),) * 4,
        rating_changes=(0, 0, 0, 0),
    )


def test_a_partner_who_kept_back_a_winning_card_let_the_moon_through() -> None:
    chances = list(moon_chances_in(_moon_game()))

    # Bob never had a heart's chance and Dave's spades were all lower: only Carol could.
    assert [(chance.shooter, chance.player) for chance in chances] == [(ALICE, CAROL)]


def test_the_pair_shows_the_moon_let_through() -> None:
    pairs = {(pair.first, pair.second): pair for pair in rank_pairs([_moon_game()], 1)}

    assert pairs[ALICE, CAROL].moons_let_through == 1
    assert pairs[ALICE, CAROL].partner_moons == 1
    assert pairs[ALICE, BOB].moons_let_through == pairs[ALICE, DAVE].moons_let_through == 0
    assert pairs[BOB, CAROL].partner_moons == 0


def test_feeds_forced_by_a_hand_of_hearts_are_not_counted() -> None:
    pairs = rank_pairs([_moon_game()], 1)

    # Bob discarded thirteen hearts on Alice's tricks, having nothing else.
    assert all(pair.feeds == 0 for pair in pairs)


def test_the_examples_in_the_docstrings_hold() -> None:
    failed, attempted = doctest.testmod(collusion.signals, report=False)

    assert failed == 0 and attempted > 0
