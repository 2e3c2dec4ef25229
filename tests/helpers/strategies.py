"""Hypothesis strategies for the engine's properties: tables, seeds, hands and matches drawn at
random, a chooser of legal moves, and hands and matches played out by it."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st

from games.engine import Card, Hand, Match, Phase, cards_of, mask_of
from games.engine.rules import PRESETS, FirstLead, MoonRule, Rules, ShortPack, TieRule

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


# Short matches ------------------------------------------------------------------------------


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
