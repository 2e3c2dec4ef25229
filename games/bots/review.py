"""The bot's review of a finished game: every decision of a person judged with what that
person knew when they made it (:func:`judge`), never the hidden hands.

A decision is judged as the search bot makes its own (:mod:`.search`), on the same imagined
deals for every candidate: for a card, every legal card (one of each run of touching cards,
and the card played); for a pass, the passes the bot searches and the one made. Each candidate
is played out in every deal by the rule-based player, and valued by the person's points less
the others' average at the hand's end (a moon counts for what it is worth). The verdict is the
candidate valued best, how the one chosen was valued, and the difference: the points the
choice is expected to have cost. Unlike the bot, the review tries every candidate in every
deal (no race) and on a fixed number of deals, each decision's deals drawn from a generator
seeded by the game and the decision's place in it: the same game gets the same review.

A choice that cost at least :data:`MARKS`' points is marked: an inaccuracy, a mistake, a
blunder.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice

from games.engine import (
    Card,
    Hand,
    Match,
    Move,
    MoveKind,
    Phase,
    SeatView,
    cards_of,
    mask_of,
    seat_view,
)

from .knowledge import dealer, learn
from .search import (
    endless,
    imagined,
    pass_candidates,
    pass_out,
    passing_deals,
    play_out,
    representatives,
)

# What the review was made with: a review made by another is another review.
VERSION = "search-1: 160 deals a card, 64 a pass"
PLAY_DEALS = 160
PASS_DEALS = 64
# The least expected points a choice cost for each mark, the worst first.
MARKS = (("blunder", 6.0), ("mistake", 3.0), ("inaccuracy", 1.0))


@dataclass(frozen=True)
class Verdict:
    """One decision judged: the move's place in the game's log, whose it was, what was chosen
    and what was best by what the person knew, both valued (expected margin: lower is
    better), and the mark, if any."""

    index: int
    seat: int
    hand: int
    kind: str
    chosen: tuple[Card, ...]
    best: tuple[Card, ...]
    chosen_value: float
    best_value: float

    @property
    def loss(self) -> float:
        return max(0.0, self.chosen_value - self.best_value)

    @property
    def mark(self) -> str | None:
        return mark_of(self.loss)


def mark_of(loss: float) -> str | None:
    """The mark of a choice that cost ``loss`` expected points.

    >>> mark_of(0.4), mark_of(1.0), mark_of(3.2), mark_of(13)
    (None, 'inaccuracy', 'mistake', 'blunder')
    """
    for name, least in MARKS:
        if loss >= least - 1e-9:
            return name
    return None


def decisions(match: Match, seats: set[int]) -> Iterator[tuple[int, Move, SeatView]]:
    """Each pass and card of ``seats`` in the finished ``match``'s log, with its place and
    what its seat knew as it chose (the view the table showed it), in order; moves the clock
    made for a seat are not the person's and are left out."""
    replay = Match(match.rules, match.seed, match.added_seeds)
    for index, move in enumerate(match.moves):
        judged = move.kind in (MoveKind.PASS, MoveKind.PLAY) and not move.timeout
        if judged and move.seat in seats:
            yield index, move, seat_view(replay, move.seat)
        replay.apply(move)


def judge(index: int, move: Move, view: SeatView, seed: str) -> Verdict:
    """The verdict on ``move``, made from ``view``; ``seed`` with ``index`` seeds its deals."""
    rnd = random.Random(f"{seed}:{index}")
    assert view.seat is not None
    me = view.seat
    if move.kind == MoveKind.PASS:
        assert view.phase is Phase.PASSING
        chosen = mask_of(move.cards)
        candidates = pass_candidates(view)
        if chosen not in candidates:
            candidates.append(chosen)
        deals = list(islice(passing_deals(view, rnd), PASS_DEALS))
        values = [
            sum(pass_out(base, me, candidate) for base in deals) / len(deals)
            for candidate in candidates
        ]
        options = [tuple(cards_of(candidate)) for candidate in candidates]
        picked = options[candidates.index(chosen)]
    else:
        (card,) = move.cards
        legal = list(view.legal)
        cards = representatives(view, legal) if len(legal) > 1 else legal
        if card not in cards:
            cards.append(card)
        hidden = endless(dealer(learn(view)).deal, rnd)
        deals = list(islice(imagined(view, hidden), PLAY_DEALS)) if len(cards) > 1 else []
        values = [
            sum(play_out(base, me, option.index) for base in deals) / len(deals) if deals else 0.0
            for option in cards
        ]
        options = [(option,) for option in cards]
        picked = (card,)
    best = min(range(len(options)), key=lambda i: (values[i], i))
    return Verdict(
        index=index,
        seat=me,
        hand=view.hand_number,
        kind=move.kind,
        chosen=picked,
        best=options[best],
        chosen_value=values[options.index(picked)],
        best_value=values[best],
    )


def hindsight(match: Match, index: int) -> tuple[Card, ...]:
    """The card that would have ended best for its seat had it seen every hand (the log's
    move ``index``, a card): what a review must not judge by."""
    replay = Match.replay(match.rules, match.seed, match.moves[:index], match.added_seeds)
    move = match.moves[index]
    hand: Hand = replay.hand
    legal = list(seat_view(replay, move.seat).legal)
    return min((play_out(hand, move.seat, card.index), (card,)) for card in legal)[1]
