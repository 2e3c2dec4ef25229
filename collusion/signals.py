"""Signs that two players feed each other, read from the move logs of rated games.

Pure analysis over engine matches (no Django, no database): :mod:`collusion.selectors` turns
rated games into :class:`RatedGame` values and :func:`rank_pairs` ranks every pair of players
who sat together often enough.

Feeding. A player who cannot follow suit and discards a heart or the Q♠ gives those points to
whoever wins the trick: one *feed*, feeder to taker. Only chosen feeds count: the engine offered
the feeder a card without points too (a hand of nothing but hearts, or the old queen rule, leaves
no choice, and says nothing about friendship). Friends who spare each other never feed each
other and dump everything on the rest of the table.

The chance model. Each feed is one trial (one point card, whatever its points, so that the
Q♠ counts once and not thirteen times): by chance the card goes to each other player in
proportion to the tricks that player won in that hand (the feeder's own tricks left out), since
a player who wins more tricks is fed more often whoever they are. For a pair, the number of
their feeds that went to the partner is then a sum of independent yes/no trials with those
chances (a Poisson binomial), and the score is its exact lower tail: the chance that a pair
who ignore each other would feed each other this rarely or more rarely. A smaller p is more
suspicious. A pair is *flagged* when p is below ``ALPHA`` (0.001) divided by the number of
pairs ranked (Bonferroni), so that in an honest history of any size the chance that some pair
is flagged stays under 0.001.

Moons. In a hand where one of the pair shot the moon, the partner *let it through* when, on a
trick the shooter took with points in it, the partner had another legal play with which the
partner would have taken that trick (the rest of the trick played as it was; the engine
decides). Moons are too rare to test, so the count is shown next to the score, not in it.

Results against ratings. For each game together, each member's place against the place their
ratings before the game predicted (1 plus each other player's chance of placing ahead, from
the rating means and uncertainties); shown beside the score as well: colluders do better than
their ratings say, but so do players who improve.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from games.engine import Card, Hand, IllegalMoveError, Match, Move, MoveKind, Rules, cards_of
from ratings.maths import MODEL

ALPHA = 0.001  # the chance, over all pairs at once, of flagging an honest pair
EVIDENCE_TRICKS = 3  # tricks shown per pair


@dataclass(frozen=True, order=True)
class Player:
    """A person, known by id: a renamed player is the same player."""

    id: int
    name: str = field(compare=False)

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class RatedGame:
    """One rated game: its replayed match and, by seat, who sat there and how it went."""

    game_id: int
    match: Match
    players: tuple[Player, ...]
    places: tuple[int, ...]
    skills: tuple[tuple[float, float], ...]  # rating mean and uncertainty before the game
    rating_changes: tuple[int, ...]  # displayed rating points won or lost


@dataclass(frozen=True)
class Feed:
    """A point card discarded onto a trick another player won."""

    game_id: int
    hand: int  # from 1
    trick: int  # from 1
    cards: tuple[tuple[Player, Card], ...]  # the trick, in the order played
    feeder: Player
    taker: Player
    card: Card
    chances: Mapping[Player, float]  # each other player's chance of being fed this card

    @property
    def points(self) -> int:
        return self.card.points


@dataclass(frozen=True)
class MoonChance:
    """A moon that ``player`` could have stopped (see the module's text)."""

    game_id: int
    hand: int
    shooter: Player
    player: Player


@dataclass(frozen=True)
class PairSignal:
    first: Player
    second: Player
    games: int  # rated games together
    fed_each_other: int  # points either fed the other
    fed_others: int  # points either fed the rest of the table
    feeds: int  # point cards either discarded onto someone else's trick
    feeds_to_partner: int
    expected_to_partner: float  # by chance
    p_value: float
    flagged: bool
    partner_moons: int  # moons one shot with the other at the table
    moons_let_through: int  # of those, ones the other could have stopped
    mean_place: float
    expected_place: float  # from their ratings before each game
    rating_change: int  # both members' displayed rating points won in games together
    evidence: tuple[Feed, ...]  # the biggest feeds to the rest of the table


# Reading one game ----------------------------------------------------------------------------


def _hands(match: Match) -> list[Hand]:
    """Every hand of the match with a trick in it (a hand cut short by a resignation too)."""
    hands = list(match.hands)
    if match.hand not in hands and match.hand.tricks:
        hands.append(match.hand)
    return hands


def _dealt_again(rules: Rules, hand: Hand) -> Hand:
    """``hand`` as it was dealt, to be replayed move by move."""
    holdings = [cards_of(mask) for mask in hand.dealt]
    return Hand(rules, hand.number, holdings, cards_of(hand.kitty), hand.totals_before)


def feeds_in(game: RatedGame) -> Iterator[Feed]:
    """The feeds of ``game`` that the feeder chose: each hand is dealt again and replayed, and
    a point card counts when the engine offered its seat a card without points instead."""
    match = game.match
    for hand in _hands(match):
        won = Counter(trick.winner for trick in hand.tricks)
        replay = _dealt_again(match.rules, hand)
        for move in hand.moves:
            done = len(replay.tricks)
            if (
                move.kind == MoveKind.PLAY
                and done < len(hand.tricks)
                and _chose_to_feed(replay, move)
            ):
                yield _feed(game, hand, done + 1, move.cards[0], won)
            replay.apply(move)


def _chose_to_feed(replay: Hand, move: Move) -> bool:
    card = move.cards[0]
    trick = replay.current_trick
    if not trick or card.suit is trick[0][1].suit or not card.points:
        return False
    return any(not other.points for other in replay.legal_plays(move.seat))


def _feed(game: RatedGame, hand: Hand, number: int, card: Card, won: Counter[int]) -> Feed:
    """The feed of ``card`` onto trick ``number`` of ``hand``."""
    players = game.players
    trick = hand.tricks[number - 1]
    seats = [trick.seat_of(i, hand.players) for i in range(len(trick.cards))]
    seat = seats[trick.cards.index(card)]
    others = {s: won[s] for s in range(hand.players) if s != seat}
    total = sum(others.values())  # at least this trick's winner's
    return Feed(
        game_id=game.game_id,
        hand=hand.number,
        trick=number,
        cards=tuple((players[s], c) for s, c in zip(seats, trick.cards, strict=True)),
        feeder=players[seat],
        taker=players[trick.winner],
        card=card,
        chances={players[s]: count / total for s, count in others.items()},
    )


def moon_chances_in(game: RatedGame) -> Iterator[MoonChance]:
    match = game.match
    for hand in _hands(match):
        if hand.shooter is None:
            continue
        for seat in range(hand.players):
            if seat != hand.shooter and _could_stop(match, hand, seat):
                shooter, player = game.players[hand.shooter], game.players[seat]
                yield MoonChance(game.game_id, hand.number, shooter, player)


def _could_stop(match: Match, hand: Hand, seat: int) -> bool:
    """Whether ``seat`` had a legal play that would have taken a point trick from the shooter
    of ``hand``: the hand is dealt again and replayed, and each other card tried."""
    replay = _dealt_again(match.rules, hand)
    for move in hand.moves:
        if move.kind == MoveKind.PLAY and move.seat == seat and _takes_instead(replay, hand, move):
            return True
        replay.apply(move)
    return False


def _takes_instead(replay: Hand, hand: Hand, move: Move) -> bool:
    """Whether another card than ``move``'s would have won for its seat the trick in play,
    a point trick that the shooter took, with the trick's later cards played as they were."""
    done = hand.tricks[len(replay.tricks)]
    if done.winner != hand.shooter or not done.points:
        return False
    later = done.cards[len(replay.trick) + 1 :]
    for card in replay.legal_plays(move.seat):
        if card in move.cards:
            continue
        trial = replay.copy()
        try:
            trial.play(move.seat, card)
            for other in later:
                trial.play(trial.turn, other)
        except IllegalMoveError:
            continue  # a later card could not have been played after this one
        if trial.tricks[-1].winner == move.seat and trial.tricks[-1].points:
            return True
    return False


def expected_places(skills: Sequence[tuple[float, float]]) -> tuple[float, ...]:
    """Each seat's place as the ratings predict it: 1 plus every other's chance of placing
    ahead.

    >>> expected_places([(25.0, 1.0), (25.0, 1.0)])
    (1.5, 1.5)
    """
    places = []
    for mu, sigma in skills:
        ahead = 0.0
        for other_mu, other_sigma in skills:
            # The rating model's spread of one game's performance around each skill.
            spread = math.sqrt(2 * MODEL.beta**2 + sigma**2 + other_sigma**2)
            ahead += _normal_cdf((other_mu - mu) / spread)
        places.append(1 + ahead - 0.5)  # a seat is not ahead of itself: remove its own half
    return tuple(places)


def _normal_cdf(z: float) -> float:
    return 0.5 * (1 + math.erf(z / math.sqrt(2)))


def lower_tail(count: int, chances: Iterable[float]) -> float:
    """The chance of ``count`` or fewer successes in independent trials with these chances.

    >>> lower_tail(0, [0.5, 0.5])
    0.25
    >>> lower_tail(2, [0.5, 0.5])
    1.0
    """
    # probabilities[k]: the chance of exactly k successes so far, for k up to ``count``
    probabilities = [1.0] + [0.0] * count
    for chance in chances:
        for k in range(count, 0, -1):
            probabilities[k] = probabilities[k] * (1 - chance) + probabilities[k - 1] * chance
        probabilities[0] *= 1 - chance
    return min(1.0, sum(probabilities))


# Pairs ---------------------------------------------------------------------------------------


@dataclass
class _Tally:
    """What one pair's games add up to, as they are read."""

    games: int = 0
    places: float = 0.0
    expected_places: float = 0.0
    rating_change: int = 0


def rank_pairs(games: Iterable[RatedGame], min_games: int = 5) -> list[PairSignal]:
    """Every pair of players with at least ``min_games`` rated games together, the most
    suspicious (smallest p) first."""
    tallies: defaultdict[tuple[Player, Player], _Tally] = defaultdict(_Tally)
    feeds: defaultdict[Player, list[Feed]] = defaultdict(list)
    moons: list[MoonChance] = []
    shot: Counter[tuple[Player, Player]] = Counter()  # (shooter, another player at the table)
    for game in games:
        _tally_game(game, tallies)
        for feed in feeds_in(game):
            feeds[feed.feeder].append(feed)
        moons.extend(moon_chances_in(game))
        for hand in _hands(game.match):
            if hand.shooter is not None:
                shooter = game.players[hand.shooter]
                shot.update((shooter, other) for other in game.players if other != shooter)
    pairs = [pair for pair, tally in tallies.items() if tally.games >= min_games]
    threshold = ALPHA / max(1, len(pairs))
    signals = [
        _signal(pair, tallies[pair], feeds, moons, shot, threshold) for pair in sorted(pairs)
    ]
    return sorted(signals, key=lambda signal: (signal.p_value, -signal.games))


def _tally_game(game: RatedGame, tallies: defaultdict[tuple[Player, Player], _Tally]) -> None:
    expected = expected_places(game.skills)
    for a, b in combinations(range(len(game.players)), 2):
        pair = tuple(sorted((game.players[a], game.players[b])))
        tally = tallies[pair[0], pair[1]]
        tally.games += 1
        tally.places += (game.places[a] + game.places[b]) / 2
        tally.expected_places += (expected[a] + expected[b]) / 2
        tally.rating_change += game.rating_changes[a] + game.rating_changes[b]


def _signal(
    pair: tuple[Player, Player],
    tally: _Tally,
    feeds: Mapping[Player, list[Feed]],
    moons: Sequence[MoonChance],
    shot: Counter[tuple[Player, Player]],
    threshold: float,
) -> PairSignal:
    first, second = pair
    partner = {first: second, second: first}
    # A feed with a chance for the partner was made at a table the partner sat at.
    theirs = [f for f in (*feeds[first], *feeds[second]) if partner[f.feeder] in f.chances]
    to_partner = [feed for feed in theirs if feed.taker == partner[feed.feeder]]
    to_others = [feed for feed in theirs if feed.taker != partner[feed.feeder]]
    chances = [feed.chances[partner[feed.feeder]] for feed in theirs]
    p_value = lower_tail(len(to_partner), chances)
    let_through = sum(1 for m in moons if partner.get(m.shooter) == m.player)
    evidence = sorted(
        (feed for feed in to_others if feed.chances[partner[feed.feeder]] > 0),
        key=lambda feed: (-feed.points, feed.game_id, feed.hand, feed.trick),
    )
    return PairSignal(
        first=first,
        second=second,
        games=tally.games,
        fed_each_other=sum(feed.points for feed in to_partner),
        fed_others=sum(feed.points for feed in to_others),
        feeds=len(theirs),
        feeds_to_partner=len(to_partner),
        expected_to_partner=sum(chances),
        p_value=p_value,
        flagged=p_value < threshold,
        partner_moons=shot[first, second] + shot[second, first],
        moons_let_through=let_through,
        mean_place=tally.places / tally.games,
        expected_place=tally.expected_places / tally.games,
        rating_change=tally.rating_change,
        evidence=tuple(evidence[:EVIDENCE_TRICKS]),
    )
