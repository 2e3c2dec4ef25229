"""Properties of random legal games, under every rule set and many custom tables.

Hypothesis draws the table's rules, a seed, a hand number and the players' choices; the games
are played only through the engine's own questions (``legal_mask``/``legal_plays``), so every
move is legal and every property must hold. The examples are derandomized: CI sees the same
games on every run.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from dataclasses import fields, is_dataclass
from typing import Any

from hypothesis import event, given
from hypothesis import strategies as st

from games.engine import (
    ALL_CARDS,
    Card,
    Hand,
    Match,
    MoonRule,
    Phase,
    Rules,
    ShortPack,
    Trick,
    cards_of,
    mask_of,
    seat_view,
)
from games.engine.hand import ChooseBy
from tests.helpers.strategies import (
    HANDS,
    MATCHES,
    Chooser,
    any_hands,
    checkpoints,
    custom_tables,
    expected_points,
    moon_hands,
    play_hand,
    play_match,
    seeded_hands,
    short_matches,
)

# Properties of one hand ----------------------------------------------------------------------


@HANDS
@given(any_hands, st.booleans())
def test_every_card_of_the_pack_is_played_once_per_hand(
    dealt: tuple[Hand, Chooser], fast: bool
) -> None:
    hand, chooser = dealt
    play_hand(hand, chooser, fast)
    played = [card for trick in hand.tricks for card in trick.cards]
    kitty = cards_of(hand.kitty)
    assert len(hand.tricks) == hand.rules.hand_size
    assert all(len(trick.cards) == hand.players for trick in hand.tricks)
    assert len(played) == len(set(played)) == len(hand.rules.deck) - len(kitty)
    assert sorted(played + kitty) == list(hand.rules.deck)
    assert all(hand.holding_mask(seat) == 0 for seat in range(hand.players))


@HANDS
@given(any_hands, st.booleans())
def test_the_seat_to_play_always_has_a_legal_card_and_must_follow_suit(
    dealt: tuple[Hand, Chooser], fast: bool
) -> None:
    hand, chooser = dealt
    observed = play_hand(hand, chooser, fast)
    for seat, card, holding, trick in observed.plays:
        if trick:
            led = trick[0] // 13
            if card.suit != led:
                assert not any(c.suit == led for c in cards_of(holding)), (seat, card)
    assert len(observed.plays) == hand.rules.hand_size * hand.players


@HANDS
@given(seeded_hands(), st.booleans())
def test_only_the_seat_to_play_has_legal_cards_and_each_refusal_has_a_reason(
    dealt: tuple[Hand, Chooser], fast: bool
) -> None:
    hand, chooser = dealt
    for seat in range(hand.players):
        if hand.phase is Phase.PASSING:
            assert hand.legal_plays(seat) == [] and hand.legal_mask(seat) == 0
            hand.pass_mask(seat, chooser.pass_mask(hand, seat))
    while hand.phase is Phase.PLAYING:
        seat = hand.turn
        for other in range(hand.players):
            if other != seat:
                assert hand.legal_plays(other) == [] and hand.legal_mask(other) == 0
        legal = hand.legal_plays(seat)
        for card in hand.holding(seat):
            assert (hand.why_not(seat, card) is None) == (card in legal)
        card = chooser.play(hand, seat, legal)
        if fast:
            hand.play_index(seat, card.index)
        else:
            hand.play(seat, card)


@HANDS
@given(seeded_hands(), st.booleans())
def test_passes_conserve_cards(dealt: tuple[Hand, Chooser], fast: bool) -> None:
    hand, chooser = dealt
    observed = play_hand(hand, chooser, fast)
    n, offset = hand.players, hand.pass_offset
    before, after, passes = observed.before_pass, observed.after_pass, observed.passes
    assert [mask.bit_count() for mask in after] == [hand.rules.hand_size] * n
    assert _union(before) == _union(after) == mask_of(hand.rules.deck) & ~hand.kitty
    for seat in range(n):
        if offset == 0:
            assert after[seat] == before[seat] and passes[seat] == 0
            continue
        source = (seat - offset) % n
        assert passes[seat].bit_count() == 3 and passes[seat] & before[seat] == passes[seat]
        assert after[seat] == (before[seat] & ~passes[seat]) | passes[source]
        assert hand.received(seat) == cards_of(passes[source])
        assert hand.passed(seat) == cards_of(passes[seat])


@HANDS
@given(any_hands, st.booleans())
def test_the_points_of_a_hand_add_up_to_what_the_options_say(
    dealt: tuple[Hand, Chooser], fast: bool
) -> None:
    hand, chooser = dealt
    play_hand(hand, chooser, fast)
    rules, n = hand.rules, hand.players
    assert hand.points is not None
    assert list(hand.points) == expected_points(hand)
    jack = -10 if rules.jack_of_diamonds else 0
    if hand.shooter is None:
        event("no moon")
        assert sum(hand.points) == 26 + jack
        return
    amount = 52 if hand.sun else 26
    event("sun" if hand.sun else "moon")
    assert hand.sun == (rules.shoot_the_sun and hand.tricks_won(hand.shooter) == rules.hand_size)
    assert sum(hand.points) - jack in (amount * (n - 1), -amount)
    if rules.moon is MoonRule.OTHERS:
        assert sum(hand.points) == amount * (n - 1) + jack
    if rules.moon is MoonRule.SELF:
        assert sum(hand.points) == -amount + jack


@HANDS
@given(moon_hands(), st.booleans())
def test_a_seat_holding_the_top_of_clubs_and_diamonds_shoots_the_moon(
    dealt: tuple[Hand, Chooser], fast: bool
) -> None:
    hand, chooser = dealt
    play_hand(hand, chooser, fast)
    assert hand.shooter is not None
    assert hand.tricks_won(hand.shooter) == hand.rules.hand_size
    assert hand.sun == hand.rules.shoot_the_sun
    assert hand.kitty_taker in (None, hand.shooter)


automatic_tables = custom_tables().map(lambda rules: rules.replace(moon=MoonRule.AUTOMATIC))


@HANDS
@given(moon_hands(automatic_tables), st.booleans())
def test_the_automatic_moon_turns_round_only_when_the_shooter_would_trail(
    dealt: tuple[Hand, Chooser], fast: bool
) -> None:
    hand, chooser = dealt
    play_hand(hand, chooser, fast)
    assert hand.shooter is not None and hand.points is not None
    assert list(hand.points) == expected_points(hand)


@HANDS
@given(any_hands, st.booleans(), st.data())
def test_a_hand_record_replays_to_the_same_state(
    dealt: tuple[Hand, Chooser], fast: bool, data: st.DataObject
) -> None:
    hand, chooser = dealt
    stop = data.draw(st.integers(0, hand.players * (hand.rules.hand_size + 1)), label="moves")
    copy = Hand.from_json(hand.to_json())
    assert copy.snapshot() == hand.snapshot()
    play_hand(hand, chooser, fast)
    record = hand.to_json()
    record["moves"] = record["moves"][:stop]
    partial = Hand.from_json(json.loads(json.dumps(record)))
    replayed = Hand.from_json(json.loads(json.dumps(partial.to_json())))
    assert replayed.snapshot() == partial.snapshot()
    assert replayed.to_json() == partial.to_json() == record
    assert Hand.from_json(json.loads(json.dumps(hand.to_json()))).snapshot() == hand.snapshot()


@HANDS
@given(any_hands, st.data())
def test_playing_on_in_a_simulation_reaches_the_same_state_as_card_by_card(
    dealt: tuple[Hand, Chooser], data: st.DataObject
) -> None:
    """The bots' play-outs (``play_on``) and the table's moves follow the same rules: from any
    point of a hand, the same choices lead both to the same state, stopping at the same seat."""
    hand, chooser = dealt
    record = Hand.from_json(hand.to_json())
    play_hand(record, copy.deepcopy(chooser), fast=True)
    played = data.draw(st.integers(0, len(record.moves)), label="moves before")
    stop = data.draw(st.integers(-1, hand.players - 1), label="stop at seat")
    for move in record.moves[:played]:
        hand.apply(move)
    if hand.phase is not Phase.PLAYING:
        return
    by_card, simulated = hand.copy(), hand.copy()
    mirror = copy.deepcopy(chooser)
    while by_card.phase is Phase.PLAYING and by_card.turn != stop:
        seat = by_card.turn
        card = chooser.play(by_card, seat, cards_of(by_card.legal_mask(seat)))
        by_card.play_index(seat, card.index)
    asked = []
    tricks_before = list(hand.tricks)

    def choose(trick: list[int], seat: int, legal: int, taken: list[int]) -> int:
        assert trick == simulated.trick and taken == [
            mask_of(simulated.taken(s)) for s in range(simulated.players)
        ]
        asked.append(seat)
        return mirror.play(simulated, seat, cards_of(legal)).index

    simulated.play_on(ChooseBy(choose), stop)

    assert len(asked) == len(by_card.moves)
    # A play-out records no trick: every other part of the state is the same.
    assert simulated.tricks == tricks_before
    assert simulated.cards_played == by_card.cards_played
    expected, got = by_card.snapshot(), simulated.snapshot()
    for unrecorded in ("moves", "tricks"):
        expected.pop(unrecorded), got.pop(unrecorded)
    assert got == expected
    assert (simulated.phase, simulated.turn, simulated.points) == (
        by_card.phase,
        by_card.turn,
        by_card.points,
    )
    assert simulated.legal_mask(simulated.turn) == by_card.legal_mask(by_card.turn)


def _union(masks: list[int]) -> int:
    union = 0
    for mask in masks:
        assert not union & mask, "a card in two hands"
        union |= mask
    return union


# Properties of short matches ----------------------------------------------------------------


@MATCHES
@given(short_matches(), checkpoints, st.one_of(st.none(), st.integers(0, 300)))
def test_a_match_record_replays_to_the_same_snapshot_at_any_point(
    drawn: tuple[Match, Chooser], stops: set[int], resign_at: int | None
) -> None:
    match, chooser = drawn
    for version in play_match(match, chooser, resign_at):
        if version in stops or match.is_over:
            record = json.loads(json.dumps(match.to_json()))
            assert record == match.to_json()
            copy = Match.from_json(record)
            assert copy.snapshot() == match.snapshot()
            assert copy.to_json() == record
            hand = Hand.from_json(json.loads(json.dumps(match.hand.to_json())))
            assert hand.snapshot() == match.hand.snapshot()
    assert match.result is not None
    event(match.result.reason)


@MATCHES
@given(short_matches())
def test_every_hand_of_a_match_scores_what_the_options_say(drawn: tuple[Match, Chooser]) -> None:
    match, chooser = drawn
    for _ in play_match(match, chooser):
        pass
    totals = [0] * match.players
    for hand in match.hands:
        assert hand.totals_before == tuple(totals)
        assert list(hand.points or ()) == expected_points(hand)
        totals = [t + p for t, p in zip(totals, hand.points or (), strict=True)]
    assert tuple(totals) == match.totals
    assert match.result is not None and max(match.totals) >= match.rules.target
    event(f"{len(match.hands)} hands")


def _cards_in(value: Any) -> set[Card]:
    """Every card a value holds, however deep (tricks and events are tuples too).

    The rules are skipped: the pack they play with is public.
    """
    found: set[Card] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if item.__class__ is Card:
            found.add(item)
        elif item is None or isinstance(item, int | str):
            continue
        elif isinstance(item, tuple | list | set | frozenset):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif is_dataclass(item) and not isinstance(item, type | Rules):
            stack.extend(getattr(item, f.name) for f in fields(item))
    return found


@MATCHES
@given(short_matches(), st.integers(2, 6))
def test_a_seat_view_never_holds_a_card_of_another_seats_hand(
    drawn: tuple[Match, Chooser], every: int
) -> None:
    match, chooser = drawn
    for version in play_match(match, chooser):
        if match.is_over or version % every:
            continue
        hand = match.hand
        holdings = [set(hand.holding(seat)) for seat in range(match.players)]
        for seat in range(match.players):
            view = seat_view(match, seat)
            assert set(view.hand) == holdings[seat]
            # What a seat passed is now in another hand, and the seat knows it: that is allowed.
            seen = _cards_in(view) - set(view.passed or ())
            others = set().union(*(holdings[s] for s in range(match.players) if s != seat))
            assert not seen & others, (seat, sorted(seen & others))
        spectator = seat_view(match, None)
        assert not _cards_in(spectator) & set().union(*holdings)


def test_the_card_walker_finds_cards_nested_anywhere() -> None:
    # A guard for the view properties: a card the walker missed could leak unnoticed.
    trick = Trick(0, (ALL_CARDS[0], ALL_CARDS[5]), 0, 0)
    found = _cards_in({"a": [trick], ALL_CARDS[7]: (ALL_CARDS[9],), "b": {ALL_CARDS[11]}})
    assert found == {ALL_CARDS[0], ALL_CARDS[5], ALL_CARDS[7], ALL_CARDS[9], ALL_CARDS[11]}
    assert _cards_in(seat_view(Match(Rules(), bytes(32)), None)) == set()


def test_a_face_down_kitty_is_seen_only_by_the_seat_that_took_it() -> None:
    # Tricks once carried the kitty's bit mask, and so showed it to every seat.
    rules = Rules(players=3, short_pack=ShortPack.KITTY, points_on_first_trick=True)
    match = Match(rules, bytes(range(32)))
    hand = match.hand
    for seat in range(3):
        match.pass_cards(seat, hand.holding(seat)[:3])
    while hand.kitty_taker is None:
        match.play(hand.turn, hand.legal_plays(hand.turn)[-1])
    kitty = set(cards_of(hand.kitty))
    assert not hand.is_over and kitty
    assert kitty <= _cards_in(seat_view(match, hand.kitty_taker))
    for seat in (*range(3), None):
        if seat != hand.kitty_taker:
            view = seat_view(match, seat)
            assert not _cards_in(view) & kitty, seat
            assert view.kitty is None
            assert mask_of(kitty) not in set(_ints_in(view)), "the kitty as a bit mask"


def _ints_in(value: Any) -> Iterator[int]:
    """Every plain number in a value, however deep: a set of cards could hide in a bit mask."""
    if isinstance(value, bool | Card | Rules):
        return
    if isinstance(value, int):
        yield value
    elif isinstance(value, tuple | list | set | frozenset):
        for item in value:
            yield from _ints_in(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _ints_in(key)
            yield from _ints_in(item)
    elif is_dataclass(value) and not isinstance(value, type):
        for f in fields(value):
            yield from _ints_in(getattr(value, f.name))
