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
    game = _game_of(Rules(), DEAL, TRICKS)
    assert game.match.hands[0].shooter == 0
    return game


def _game_of(rules: Rules, deal: list[str], tricks: list[str]) -> RatedGame:
    """A rated game of alice, bob, carol and dave whose one hand (number 4: no pass) is
    ``deal`` played trick by trick."""
    hand = Hand(rules, 4, deal)
    for trick in tricks:
        for card in trick.split():
            hand.play(hand.turn, card)
    match = Match(rules, bytes(32))
    match.hands.append(hand)  # a match whose one hand is this one
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
    assert len(pairs) == 6  # every pair of the four
    assert [pair.feeds for pair in pairs] == [0] * 6


def test_a_heart_discarded_with_another_card_in_hand_is_a_feed() -> None:
    # The control for the test above: Bob's ace of hearts and Dave's jack of spades change
    # hands, and the first trick may carry points. Bob then throws the two and the three of
    # hearts on the first two tricks (Alice takes both) while he holds a spade: two feeds he
    # chose.
    deal = [*DEAL]
    deal[1] = deal[1].replace("AH", "JS")
    deal[3] = deal[3].replace("JS", "AH")
    game = _game_of(Rules(points_on_first_trick=True), deal, TRICKS[:2])
    pairs = {(pair.first, pair.second): pair for pair in rank_pairs([game], 1)}

    assert pairs[ALICE, BOB].feeds == 2
    assert pairs[ALICE, BOB].feeds_to_partner == 2
    assert pairs[CAROL, DAVE].feeds == 0


def test_the_examples_in_the_docstrings_hold() -> None:
    failed, attempted = doctest.testmod(collusion.signals, report=False)

    assert failed == 0 and attempted > 0
