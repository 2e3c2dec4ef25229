"""Properties of random legal games, under every rule set and many custom tables.

Hypothesis draws the table's rules, a seed, a hand number and the players' choices; the games
are played only through the engine's own questions (``legal_mask``/``legal_plays``), so every
move is legal and every property must hold. The examples are derandomized: CI sees the same
games on every run.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, fields, is_dataclass
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from games.engine import (
    ALL_CARDS,
    PRESETS,
    Card,
    FirstLead,
    Hand,
    Match,
    MoonRule,
    Phase,
    Rules,
    ShortPack,
    TieRule,
    Trick,
    cards_of,
    mask_of,
    seat_view,
)

HANDS = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
MATCHES = settings(HANDS, max_examples=25)

JD = Card.parse("JD")


# Strategies ---------------------------------------------------------------------------------

PRESET_TABLES = [preset.make(players) for preset in PRESETS.values() for players in preset.players]


@st.composite
def encyclopedia_tables(draw: st.DrawFn) -> Rules:
    """The Encyclopedia set with the options it offers a host, at any table size."""
    players = draw(st.sampled_from([3, 4, 5, 6]))
    options: dict[str, Any] = {
        "jack_of_diamonds": draw(st.booleans()),
        "shoot_the_sun": draw(st.booleans()),
        "first_lead": draw(st.sampled_from(FirstLead)),
        "old_queen": draw(st.booleans()),
    }
    if players != 4:
        options["short_pack"] = draw(st.sampled_from(ShortPack))
    return PRESETS["encyclopedia"].make(players, **options)


@st.composite
def custom_tables(draw: st.DrawFn) -> Rules:
    """Any combination of the options, as a host may build it."""
    players = draw(st.sampled_from([3, 4, 5, 6]))
    return Rules(
        players=players,
        short_pack=ShortPack.REMOVE if players == 4 else draw(st.sampled_from(ShortPack)),
        first_lead=draw(st.sampled_from(FirstLead)),
        points_on_first_trick=draw(st.booleans()),
        queen_breaks_hearts=draw(st.booleans()),
        moon=draw(st.sampled_from(MoonRule)),
        shoot_the_sun=draw(st.booleans()),
        jack_of_diamonds=draw(st.booleans()),
        old_queen=draw(st.booleans()),
        ties=draw(st.sampled_from(TieRule)),
    )


tables = st.one_of(st.sampled_from(PRESET_TABLES), encyclopedia_tables(), custom_tables())
seeds = st.binary(min_size=32, max_size=32)
hand_numbers = st.integers(min_value=1, max_value=12)


@st.composite
def added_seeds(draw: st.DrawFn, players: int) -> tuple[str, ...]:
    if draw(st.booleans()):
        return ()
    return tuple(draw(st.lists(st.text(max_size=6), min_size=players, max_size=players)))


def totals_before(rules: Rules) -> st.SearchStrategy[list[int]]:
    """Running totals before a hand; often 16 to 36 short of the target, where a moon's 26
    and the jack's 10 decide whether the automatic moon rule turns round."""
    near = st.integers(rules.target - 36, rules.target - 16)
    total = st.one_of(near, st.integers(0, rules.target + 20))
    return st.lists(total, min_size=rules.players, max_size=rules.players)


@dataclass
class Chooser:
    """Picks among legal moves from hypothesis' choices.

    A ``shooter`` seat plays its highest card and the others duck and feed it penalty cards,
    so that some games reach the moon; with ``None`` every choice is at random.
    """

    rng: random.Random
    shooter: int | None = None

    def pass_mask(self, hand: Hand, seat: int) -> int:
        cards = cards_of(hand.holding_mask(seat))
        if seat == self.shooter:
            return mask_of(sorted(cards, key=_rank)[:3])
        return mask_of(self.rng.sample(cards, 3))

    def play(self, hand: Hand, seat: int, legal: list[Card]) -> Card:
        if self.shooter is None:
            return self.rng.choice(legal)
        if seat == self.shooter:
            return max(legal, key=_rank)
        if hand.trick and legal[0].suit == hand.trick[0] // 13:
            return min(legal, key=_rank)
        penalty = [card for card in legal if card.points]
        return max(penalty, key=lambda card: card.points) if penalty else self.rng.choice(legal)

    def timeout(self) -> bool:
        """Whether the table made this move for a seat whose time ran out (it is logged)."""
        return self.rng.randrange(8) == 0

    def moon(self) -> str:
        return self.rng.choice(["others", "self"])

    def seat_order(self, players: int) -> list[int]:
        return self.rng.sample(range(players), players)


def _rank(card: Card) -> int:
    return card.rank


@st.composite
def choosers(draw: st.DrawFn, players: int) -> Chooser:
    shooter = draw(st.one_of(st.none(), st.integers(0, players - 1)))
    return Chooser(draw(st.randoms(use_true_random=False)), shooter)


@st.composite
def seeded_hands(draw: st.DrawFn) -> tuple[Hand, Chooser]:
    """A hand dealt from a seed, as a game deals it."""
    rules = draw(tables)
    totals = draw(totals_before(rules))
    hand = Hand.deal(
        rules, draw(seeds), draw(hand_numbers), draw(added_seeds(rules.players)), totals
    )
    return hand, draw(choosers(rules.players))


@st.composite
def moon_hands(draw: st.DrawFn, table: st.SearchStrategy[Rules] = tables) -> tuple[Hand, Chooser]:
    """A hand without a pass in which one seat must take every trick, whatever is played.

    The shooter holds the highest clubs, then the highest diamonds, so it wins the first trick
    and every trick it leads afterwards; it is also the leader when the first lead is left of
    the dealer. The rest of the pack is dealt at random.
    """
    rules = draw(table)
    n = rules.players
    number = len(rules.pass_cycle) * draw(st.integers(1, 3))  # the hold hands
    dealer = rules.dealer(number)
    shooter = (dealer + 1) % n
    if rules.first_lead is FirstLead.LOWEST_CLUB:
        shooter = draw(st.integers(0, n - 1))
    by_strength = sorted(rules.deck, key=lambda card: (card.suit, -card.rank))
    strong = by_strength[: rules.hand_size]
    rest = draw(st.permutations(by_strength[rules.hand_size :]))
    hands = [rest[k * rules.hand_size : (k + 1) * rules.hand_size] for k in range(n - 1)]
    hands.insert(shooter, strong)
    totals = draw(totals_before(rules))
    hand = Hand(rules, number, hands, rest[(n - 1) * rules.hand_size :], totals)
    return hand, Chooser(draw(st.randoms(use_true_random=False)), None)


any_hands = st.one_of(seeded_hands(), moon_hands())


# Playing -----------------------------------------------------------------------------------


@dataclass
class Observed:
    """What happened in one hand, for the properties to check."""

    before_pass: list[int]
    passes: list[int]
    after_pass: list[int]
    plays: list[tuple[int, Card, int, tuple[int, ...]]]  # seat, card, its holding, trick so far


def play_hand(hand: Hand, chooser: Chooser, fast: bool) -> Observed:
    """Play ``hand`` to its end with legal moves, by the fast API or the public one."""
    n = hand.players
    before = [hand.holding_mask(seat) for seat in range(n)]
    passes = [0] * n
    if hand.phase is Phase.PASSING:
        for seat in chooser.seat_order(n):
            passes[seat] = chooser.pass_mask(hand, seat)
            if fast:
                hand.pass_mask(seat, passes[seat])
            else:
                hand.pass_cards(seat, cards_of(passes[seat]))
    observed = Observed(before, passes, [hand.holding_mask(s) for s in range(n)], [])
    while hand.phase is Phase.PLAYING:
        seat = hand.turn
        legal = cards_of(hand.legal_mask(seat))
        assert legal, "the seat to play always has a legal card"
        if not fast:
            assert hand.legal_plays(seat) == legal
        card = chooser.play(hand, seat, legal)
        holding = hand.holding_mask(seat)
        observed.plays.append((seat, card, holding, tuple(hand.trick)))
        if fast:
            hand.play_index(seat, card.index)
        else:
            hand.play(seat, card)
    if hand.phase is Phase.MOON_CHOICE:
        hand.choose_moon(hand.turn, chooser.moon())
    assert hand.phase is Phase.OVER
    return observed


def expected_points(hand: Hand) -> list[int]:
    """The hand's score, worked out from the written rules rather than by the engine."""
    rules, n = hand.rules, hand.players
    raw = [sum(card.points for card in hand.taken(seat)) for seat in range(n)]
    jack = [-10 if rules.jack_of_diamonds and JD in hand.taken(seat) else 0 for seat in range(n)]
    if 26 not in raw:
        return [p + j for p, j in zip(raw, jack, strict=True)]
    shooter = raw.index(26)
    amount = 52 if rules.shoot_the_sun and hand.tricks_won(shooter) == rules.hand_size else 26
    others = [0 if seat == shooter else amount for seat in range(n)]
    itself = [-amount if seat == shooter else 0 for seat in range(n)]
    if rules.moon is MoonRule.CHOOSE:
        choice = hand.moves[-1]
        assert choice.kind == "moon" and choice.seat == shooter
        scored = itself if choice.choice == "self" else others
    elif rules.moon is MoonRule.AUTOMATIC:
        totals = [t + p + j for t, p, j in zip(hand.totals_before, others, jack, strict=True)]
        behind = max(totals) >= rules.target and totals[shooter] > min(totals)
        scored = itself if behind else others
        event(f"automatic moon: {'self' if behind else 'others'}")
    else:
        scored = itself if rules.moon is MoonRule.SELF else others
    return [p + j for p, j in zip(scored, jack, strict=True)]


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

    def choose(trick: list[int], seat: int, legal: int, taken: list[int]) -> int:
        assert trick == simulated.trick and taken == [
            mask_of(simulated.taken(s)) for s in range(simulated.players)
        ]
        asked.append(seat)
        return mirror.play(simulated, seat, cards_of(legal)).index

    simulated.play_on(choose, stop)

    assert len(asked) == len(by_card.moves)
    expected, got = by_card.snapshot(), simulated.snapshot()
    expected.pop("moves"), got.pop("moves")
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


@st.composite
def short_matches(draw: st.DrawFn) -> tuple[Match, Chooser]:
    rules = draw(tables).replace(target=draw(st.integers(25, 40)))
    match = Match(rules, draw(seeds), draw(added_seeds(rules.players)))
    return match, draw(choosers(rules.players))


# Moves after which a property looks at the match: a few at random, and the end.
checkpoints = st.sets(st.integers(0, 400), max_size=12)


def play_match(match: Match, chooser: Chooser, resign_at: int | None = None) -> Iterator[int]:
    """Play legal moves until the match ends, yielding the number of moves after each one."""
    while not match.is_over:
        hand = match.hand
        if match.version == resign_at:
            match.resign(chooser.rng.randrange(match.players), "resigned")
        elif hand.phase is Phase.PASSING:
            seat = chooser.rng.choice([s for s in range(match.players) if not hand.has_passed(s)])
            cards = cards_of(chooser.pass_mask(hand, seat))
            match.pass_cards(seat, cards, timeout=chooser.timeout())
        elif hand.phase is Phase.MOON_CHOICE:
            match.choose_moon(hand.turn, chooser.moon(), timeout=chooser.timeout())
        else:
            seat = hand.turn
            card = chooser.play(hand, seat, hand.legal_plays(seat))
            match.play(seat, card, timeout=chooser.timeout())
        yield match.version


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
