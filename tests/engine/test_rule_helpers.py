"""The rule helpers the bots ask (who takes a trick, what breaks hearts, what a trick costs, how
a moon and the J♦ score) say what a hand itself does, in random legal hands under every rule
set and many custom tables (the hands of test_properties)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings

from games.engine import (
    Card,
    Hand,
    MoonRule,
    Phase,
    Rules,
    hearts_breakers,
    is_sun,
    jack_points,
    mask_of,
    moon_points,
    points_of,
    trick_points,
    trick_winner,
    winning_position,
)
from tests.helpers.strategies import HANDS, Chooser, any_hands, moon_hands, play_hand

QUICK = settings(HANDS, max_examples=40)


def indexes(cards: str) -> list[int]:
    return [Card.parse(card).index for card in cards.split()]


@QUICK
@given(any_hands)
def test_the_trick_winner_is_the_seat_the_hand_gives_each_trick(dealt: tuple[Hand, Chooser]):
    hand, chooser = dealt
    play_hand(hand, chooser, fast=True)
    for trick in hand.tricks:
        cards = [card.index for card in trick.cards]

        assert trick_winner(cards, trick.leader, hand.players) == trick.winner
        assert trick_points(cards) == trick.points


@QUICK
@given(any_hands)
def test_the_winning_position_follows_every_card_of_a_trick_as_it_is_played(
    dealt: tuple[Hand, Chooser],
):
    hand, chooser = dealt
    if hand.phase is Phase.PASSING:
        for seat in range(hand.players):
            hand.pass_mask(seat, chooser.pass_mask(hand, seat))
    while hand.phase is Phase.PLAYING:
        trick, leader = list(hand.trick), hand.leader
        if trick:
            # The seat that would take the trick if it ended now: a lower card of the suit led
            # or any card of another suit cannot change it.
            best = trick[winning_position(trick)]
            assert best // 13 == trick[0] // 13
            assert all(card // 13 != trick[0] // 13 or card <= best for card in trick)
            assert (
                trick_winner(trick, leader, hand.players)
                == (leader + trick.index(best)) % hand.players
            )
        seat = hand.turn
        legal = [card for card in range(52) if hand.legal_mask(seat) >> card & 1]
        hand.play_index(seat, chooser.rng.choice(legal))


@QUICK
@given(any_hands)
def test_hearts_break_exactly_when_one_of_the_breakers_is_played(dealt: tuple[Hand, Chooser]):
    hand, chooser = dealt
    breakers = hearts_breakers(hand.rules)
    if hand.phase is Phase.PASSING:
        for seat in range(hand.players):
            hand.pass_mask(seat, chooser.pass_mask(hand, seat))
    played = 0
    while hand.phase is Phase.PLAYING:
        assert hand.hearts_broken == bool(played & breakers)
        seat = hand.turn
        card = chooser.play(hand, seat, hand.legal_plays(seat))
        hand.play(seat, card)
        played |= 1 << card.index


@QUICK
@given(any_hands)
def test_a_hand_without_a_moon_scores_each_seats_points_and_jack(dealt: tuple[Hand, Chooser]):
    hand, chooser = dealt
    play_hand(hand, chooser, fast=True)
    taken = hand.taken_masks
    assert taken == tuple(mask_of(hand.taken(seat)) for seat in range(hand.players))
    if hand.shooter is not None:
        return

    assert hand.points == tuple(points_of(mask) + jack_points(hand.rules, mask) for mask in taken)


@QUICK
@given(moon_hands())
def test_a_moon_scores_what_the_moon_helpers_say(dealt: tuple[Hand, Chooser]):
    hand, chooser = dealt
    play_hand(hand, chooser, fast=True)
    assert hand.shooter is not None and hand.points is not None
    rules, shooter = hand.rules, hand.shooter
    assert hand.sun == is_sun(rules, hand.tricks_won(shooter))
    rule = rules.moon
    if rule is MoonRule.CHOOSE:
        rule = MoonRule(hand.moves[-1].choice)
    elif rule is MoonRule.AUTOMATIC:  # whichever of the two the hand chose
        rule = MoonRule.SELF if hand.points[shooter] < 0 else MoonRule.OTHERS
    jacks = [jack_points(rules, mask) for mask in hand.taken_masks]

    moon = moon_points(rules, rule, shooter, hand.sun)

    assert list(hand.points) == [p + j for p, j in zip(moon, jacks, strict=True)]


def test_the_highest_card_of_the_suit_led_wins_whatever_is_discarded():
    trick = indexes("5D QD AS 9D")

    assert winning_position(trick) == 1
    assert trick_winner(trick, 2, 4) == 3


def test_the_card_led_wins_when_nobody_follows_higher():
    assert winning_position(indexes("KC 2C AH QS")) == 0
    assert trick_winner(indexes("KC 2C AH"), 1, 3) == 1


def test_the_queen_of_spades_breaks_hearts_only_where_the_rules_say_so():
    queen = 1 << Card.parse("QS").index

    assert not hearts_breakers(Rules()) & queen
    assert hearts_breakers(Rules(queen_breaks_hearts=True)) & queen


def test_a_trick_costs_one_a_heart_and_thirteen_for_the_queen_of_spades():
    assert trick_points(indexes("2H QS AH JD")) == 15
    assert trick_points(indexes("2C 3C 4C 5C")) == 0


def test_a_moon_is_scored_for_the_others_or_the_shooter_and_the_sun_twice():
    assert moon_points(Rules(), MoonRule.OTHERS, 2) == [26, 26, 0, 26]
    assert moon_points(Rules(), MoonRule.SELF, 2) == [0, 0, -26, 0]
    assert moon_points(Rules(players=3), MoonRule.OTHERS, 0, sun=True) == [0, 52, 52]


@pytest.mark.parametrize("rule", [MoonRule.CHOOSE, MoonRule.AUTOMATIC])
def test_a_moon_rule_still_to_be_decided_has_no_points(rule):
    with pytest.raises(ValueError, match="the others or the shooter"):
        moon_points(Rules(), rule, 0)


def test_the_sun_is_every_trick_and_only_where_the_rules_score_it():
    sun = Rules(shoot_the_sun=True)

    assert is_sun(sun, sun.hand_size)
    assert not is_sun(sun, sun.hand_size - 1)
    assert not is_sun(Rules(), Rules().hand_size)


def test_the_jack_of_diamonds_takes_ten_off_only_with_its_option():
    jack = 1 << Card.parse("JD").index

    assert jack_points(Rules(jack_of_diamonds=True), jack) == -10
    assert jack_points(Rules(jack_of_diamonds=True), 0) == 0
    assert jack_points(Rules(), jack) == 0


def test_the_taken_masks_are_a_copy_that_stays_as_it_was_when_asked():
    hand = Hand.deal(Rules(), bytes(32), 4)  # the hold hand: no pass
    before = hand.taken_masks
    play_hand(hand, Chooser(random.Random(1)), fast=True)

    assert before == (0, 0, 0, 0)
    assert sum(mask.bit_count() for mask in hand.taken_masks) == 52
