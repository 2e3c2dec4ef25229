"""A match: hands dealt from one seed until somebody reaches the target, or the game ends early.

The move log and the seed are the whole record: :meth:`Match.from_json` replays them. For live
play, :meth:`Match.to_snapshot` keeps the state in a bounded JSON value (the finished hands'
points and only the last finished hand's and the current hand's moves), which
:meth:`Match.from_snapshot` restores exactly, whatever the number of hands played.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .cards import Card
from .deal import check_seed, fingerprint
from .errors import IllegalMoveError, MatchOverError, RecordError
from .events import Event, HandDealt, MatchEnded
from .hand import Hand, Move, MoveKind, Phase, moon_open, moon_value, points_in_play
from .rules import Rules, TieRule


class EndReason(StrEnum):
    """How a game ended (its value is what the result and a resignation's move store)."""

    TARGET = "target"  # somebody reached the target
    RESIGNED = "resigned"
    LEFT = "left"  # three time-outs in a row
    TIMED_OUT = "timed out"  # a missed deadline under the strict clock

    @property
    def early(self) -> bool:
        """Whether the game ended against one seat before anybody reached the target."""
        return self is not EndReason.TARGET


END_REASONS = tuple(reason.value for reason in EndReason)
EARLY_ENDS = tuple(reason.value for reason in EndReason if reason.early)
SNAPSHOT_FORMAT = 2  # changes whenever what a snapshot holds changes


def competition_ranks(keys: Sequence[Any], start: int = 1) -> list[int]:
    """Each key's rank, the smallest key first ("standard competition ranking"): ``start`` plus
    the number of keys strictly before it, so equal keys share a rank and the ranks after them
    skip as many (1, 1, 1, 4). The one rule for places, the leaderboard and arena standings.

    >>> competition_ranks([40, 40, 76, 106])
    [1, 1, 3, 4]
    >>> competition_ranks([-387, -387, -387, -142], start=11)
    [11, 11, 11, 14]
    """
    ordered = sorted(keys)
    return [start + bisect_left(ordered, key) for key in keys]


def places_for(totals: Sequence[int], last: int | None = None) -> tuple[int, ...]:
    """One plus the number of seats with a strictly lower total; ``last`` is placed last.

    >>> places_for([40, 40, 76, 106])
    (1, 1, 3, 4)
    >>> places_for([40, 40, 76, 106], last=0)
    (4, 1, 2, 3)
    """
    seats = [s for s in range(len(totals)) if s != last]
    places = [0] * len(totals)
    for seat, place in zip(seats, competition_ranks([totals[s] for s in seats]), strict=True):
        places[seat] = place
    if last is not None:
        places[last] = len(totals)
    return tuple(places)


def is_win(place: int | None) -> bool:
    """Whether a place in a game's result is a win: first, alone or shared (equal lowest totals
    share first place). The one definition for profiles, the API and arenas.

    >>> is_win(1), is_win(2), is_win(None)
    (True, False, False)
    """
    return place == 1


@dataclass(frozen=True)
class Result:
    """How a match ended: every seat's place (1 is first, equal totals share a place)."""

    reason: str
    places: tuple[int, ...]
    totals: tuple[int, ...]
    forfeited: int | None = None  # the seat that resigned, left or missed a deadline

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(seat for seat, place in enumerate(self.places) if is_win(place))

    def to_json(self) -> dict[str, Any]:
        """The result as a snapshot and a finished game's row keep it.

        >>> Result("target", (1, 1, 3, 4), (40, 40, 76, 106)).to_json()
        {'reason': 'target', 'places': [1, 1, 3, 4], 'totals': [40, 40, 76, 106], 'forfeited': None}
        """
        return {**vars(self), "places": list(self.places), "totals": list(self.totals)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Result:
        forfeited = data["forfeited"]
        return cls(
            str(data["reason"]),
            tuple(int(place) for place in data["places"]),
            tuple(int(total) for total in data["totals"]),
            None if forfeited is None else int(forfeited),
        )


class Match:
    """A whole game of Hearts between ``rules.players`` seats.

    >>> match = Match(Rules(), bytes(32))
    >>> match.hand.number, match.hand.direction, match.totals
    (1, 'left', (0, 0, 0, 0))
    """

    def __init__(self, rules: Rules, seed: bytes, added_seeds: Sequence[str] = ()) -> None:
        self.rules = rules
        self.seed = check_seed(seed)
        self.added_seeds = tuple(added_seeds)
        if self.added_seeds and len(self.added_seeds) != rules.players:
            raise IllegalMoveError("Added seeds are one per seat (an empty one for none)")
        self.totals: tuple[int, ...] = (0,) * rules.players
        # Finished hands, in order, and every move. A match restored from a snapshot holds
        # only the last finished hand and the current hand's moves: what came before is
        # summed up in the three fields below (nothing, for a match played from the start).
        self.hands: list[Hand] = []
        self.moves: list[Move] = []
        self._earlier_points: list[tuple[int, ...]] = []
        self._earlier_moves = 0
        self._earlier_cards = 0
        self.result: Result | None = None
        self.hand = self._deal(1)

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.seed)

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def version(self) -> int:
        """The number of moves so far: the site's optimistic-locking version."""
        return self._earlier_moves + len(self.moves)

    @property
    def has_whole_log(self) -> bool:
        """Whether ``moves`` and ``hands`` hold the whole game (not so once restored from a
        snapshot with earlier hands)."""
        return self._earlier_moves == 0

    @property
    def cards_played(self) -> int:
        hands = (
            self.hands if self.hands and self.hands[-1] is self.hand else [*self.hands, self.hand]
        )
        return self._earlier_cards + sum(h.cards_played for h in hands)

    def hand_points(self) -> list[tuple[int, ...]]:
        """The points each finished hand added to the totals."""
        kept = [hand.points for hand in self.hands if hand.points is not None]
        return [*self._earlier_points, *kept]

    def _deal(self, number: int) -> Hand:
        return Hand.deal(self.rules, self.seed, number, self.added_seeds, self.totals)

    # Actions ---------------------------------------------------------------------------

    def apply(self, move: Move) -> list[Event]:
        if self.result is not None:
            raise MatchOverError("The game is over")
        if move.kind == MoveKind.RESIGN:
            return self.resign(move.seat, move.choice or EndReason.RESIGNED)
        return self._act(lambda: self.hand.apply(move))

    def pass_cards(
        self, seat: int, cards: Iterable[Card | str], *, timeout: bool = False
    ) -> list[Event]:
        return self._act(lambda: self.hand.pass_cards(seat, cards, timeout=timeout))

    def play(self, seat: int, card: Card | str, *, timeout: bool = False) -> list[Event]:
        return self._act(lambda: self.hand.play(seat, card, timeout=timeout))

    def choose_moon(self, seat: int, choice: str, *, timeout: bool = False) -> list[Event]:
        return self._act(lambda: self.hand.choose_moon(seat, choice, timeout=timeout))

    def _act(self, action: Any) -> list[Event]:
        if self.result is not None:
            raise MatchOverError("The game is over")
        events: list[Event] = action()
        self.moves.append(self.hand.moves[-1])
        if self.hand.phase is Phase.OVER:
            events += self._next_hand()
        return events

    def _next_hand(self) -> list[Event]:
        hand = self.hand
        assert hand.points is not None
        self.hands.append(hand)
        self.totals = tuple(t + p for t, p in zip(self.totals, hand.points, strict=True))
        if max(self.totals) >= self.rules.target:
            lowest = min(self.totals)
            shared = self.totals.count(lowest) > 1
            if not (shared and self.rules.ties is TieRule.PLAY_ON):
                return self._end(
                    Result(EndReason.TARGET.value, places_for(self.totals), self.totals)
                )
        self.hand = self._deal(hand.number + 1)
        return [HandDealt(self.hand.number, self.hand.direction)]

    def resign(self, seat: int, reason: str = EndReason.RESIGNED) -> list[Event]:
        """End the game against ``seat`` (``reason``: resigned, left or timed out).

        The hand in progress is not scored. The first hand is dealt when the match is made, so
        this ends the game against ``seat`` even before its first card: a player cannot walk
        away from the cards dealt (or the pass) without losing the game.
        """
        if self.result is not None:
            raise MatchOverError("The game is over")
        if not 0 <= seat < self.players or isinstance(seat, bool):
            raise IllegalMoveError(f"There is no seat {seat!r} at this table")
        if reason not in EARLY_ENDS:
            raise IllegalMoveError(f"A game cannot end early because of {reason!r}")
        reason = EndReason(reason).value
        self.moves.append(Move(MoveKind.RESIGN.value, seat, choice=reason))
        return self._end(Result(reason, places_for(self.totals, last=seat), self.totals, seat))

    def may_be_last_hand(self) -> bool:
        """Whether the hand in play could still end the match: whether some seat could reach
        the target in it, with the points it has taken in the hand and every point still out,
        or with a moon while one is still possible (a sun counts double where the rules allow
        one).

        >>> match = Match(Rules(target=25), bytes(32))
        >>> match.may_be_last_hand()
        True
        >>> Match(Rules(target=100), bytes(32)).may_be_last_hand()
        False
        """
        taken = self.hand.penalty_points()
        out = points_in_play(self.rules) - sum(taken)
        by_moon = moon_value(self.rules, sun=self.rules.shoot_the_sun) if moon_open(taken) else 0
        for total, points in zip(self.totals, taken, strict=True):
            if total + max(points + out, by_moon) >= self.rules.target:
                return True
        return False

    def _end(self, result: Result) -> list[Event]:
        self.result = result
        return [MatchEnded(result.reason, result.places)]

    # Records ---------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The record: rules, seed, added seeds and every move. Publish only once it is over."""
        if not self.has_whole_log:
            raise RecordError("A match restored from a snapshot lacks its earlier moves")
        return {
            "rules": self.rules.to_json(),
            "seed": self.seed.hex(),
            "added_seeds": list(self.added_seeds),
            "moves": [move.to_json() for move in self.moves],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Match:
        """Rebuild a match by dealing from its seed and replaying its moves."""
        try:
            rules = Rules.from_json(data["rules"])
            seed = bytes.fromhex(data["seed"])
            match = cls(rules, seed, data.get("added_seeds", ()))
            moves = [Move.from_json(move) for move in data["moves"]]
        except (KeyError, TypeError, ValueError) as error:
            raise RecordError(f"Not a game record: {error}") from error
        for move in moves:
            match.apply(move)
        return match

    @classmethod
    def replay(
        cls, rules: Rules, seed: bytes, moves: Iterable[Move], added_seeds: Sequence[str] = ()
    ) -> Match:
        match = cls(rules, seed, added_seeds)
        for move in moves:
            match.apply(move)
        return match

    # Snapshots ---------------------------------------------------------------------------

    def to_snapshot(self) -> dict[str, Any]:
        """The state as JSON for live play: the totals, the finished hands' points, the whole
        state of the current hand and of the one before (which the table still shows), and
        no more, so its size and the work :meth:`from_snapshot` does are the same however
        long the match. It holds the seed and every hand: keep it as secret as the seed."""
        over_at_target = bool(self.hands) and self.hands[-1] is self.hand
        resigned = self.result is not None and self.result.reason != EndReason.TARGET
        kept = self.hands[-1:] if over_at_target else [*self.hands[-1:], self.hand]
        earlier = self.hand_points()[: len(self.hand_points()) - (1 if self.hands else 0)]
        return {
            "format": SNAPSHOT_FORMAT,
            "rules": self.rules.to_json(),
            "seed": self.seed.hex(),
            "added_seeds": list(self.added_seeds),
            "version": self.version,
            "totals": list(self.totals),
            "hand_points": [list(points) for points in earlier],
            "cards_played": self.cards_played - sum(hand.cards_played for hand in kept),
            # The hand before is shown (its last trick, what each seat took), never played:
            # its moves are left out, so that restoring it costs no more than a hand in play.
            "last_hand": self.hands[-1].to_state(moves=over_at_target) if self.hands else None,
            "hand": None if over_at_target else self.hand.to_state(),
            # The resignation, which no hand logs.
            "resigned": self.moves[-1].to_json() if resigned else None,
            "result": None if self.result is None else self.result.to_json(),
        }

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> Match:
        """The match :meth:`to_snapshot` saved, restored without replaying a move.

        >>> match = Match(Rules(), bytes(32))
        >>> copy = Match.from_snapshot(match.to_snapshot())
        >>> copy.snapshot() == match.snapshot(), copy.version
        (True, 0)
        """
        try:
            if data["format"] != SNAPSHOT_FORMAT:
                raise RecordError(f"A snapshot of format {data['format']!r}")
            rules = Rules.from_json(data["rules"])
            match = cls.__new__(cls)
            match.rules = rules
            match.seed = check_seed(bytes.fromhex(data["seed"]))
            match.added_seeds = tuple(str(seed) for seed in data["added_seeds"])
            match.totals = tuple(int(total) for total in data["totals"])
            match._earlier_points = [tuple(map(int, points)) for points in data["hand_points"]]
            match._earlier_cards = int(data["cards_played"])
            last = data["last_hand"]
            match.hands = [] if last is None else [Hand.from_state(rules, last)]
            current = data["hand"]
            match.hand = match.hands[-1] if current is None else Hand.from_state(rules, current)
            kept = match.hands if current is None else [*match.hands, match.hand]
            match.moves = [move for hand in kept for move in hand.moves]
            if data["resigned"] is not None:
                match.moves.append(Move.from_json(data["resigned"]))
            match._earlier_moves = int(data["version"]) - len(match.moves)
            result = data["result"]
            match.result = None if result is None else Result.from_json(result)
        except (KeyError, TypeError, ValueError, IndexError) as error:
            raise RecordError(f"Not a snapshot: {error!r}") from error
        if len(match.totals) != match.players or match._earlier_moves < 0:
            raise RecordError("Not a snapshot: its totals or version do not fit")
        return match

    def snapshot(self) -> dict[str, Any]:
        """Everything about the state, in plain values: equal snapshots, equal states."""
        return {
            "totals": self.totals,
            "hand_points": self.hand_points(),
            "result": None if self.result is None else vars(self.result),
            "hand": self.hand.snapshot(),
        }
