"""Drills built from real engine positions, one per seed, so a position can be linked.

Each drill is a seat's view of a real deal, and its answers come from the engine and the bot:
which cards the engine lets the seat play and why it refuses the others, how much the bot's
passing rules want each card gone, and which card takes a point away from the one player holding
all the points of the hand. A drill holds only what that seat could see at a real table, so its
answers can travel with it and be checked in the browser; nothing about an answer comes back.
"""

from __future__ import annotations

import functools
import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from games.bots import basic, passing, policy
from games.engine import (
    PRESETS,
    Card,
    Match,
    Phase,
    Refusal,
    Rules,
    SeatView,
    Suit,
    TrickTaken,
    moon_candidate,
    pass_direction_name,
    seat_view,
)
from games.words import PRESET_TITLES, card_name, direction_words, refusal_words

from .reasons import anchor_of

KINDS: Final = ("legal", "pass", "moon")
TITLES: Final = {
    "legal": gettext_lazy("Which cards may you play?"),
    "pass": gettext_lazy("Which three would you pass?"),
    "moon": gettext_lazy("Stop the moon"),
}
ATTEMPTS: Final = 400

# The tables the drills are dealt at, in turn: every named set, and the old queen rule.
TABLES: Final[tuple[tuple[str | Promise, Rules], ...]] = (
    *((PRESET_TITLES.get(key, preset.title), preset.rules) for key, preset in PRESETS.items()),
    (
        gettext_lazy("Encyclopedia, with the old queen rule"),
        PRESETS["encyclopedia"].rules.replace(old_queen=True),
    ),
)


class NoPositionError(LookupError):
    """No deal within the attempts gave a position for this drill (never seen in practice)."""


@dataclass(frozen=True)
class Drill:
    kind: str
    seed: int
    table: str
    rules: Rules
    data: dict[str, Any]  # the position and its answers, as the page embeds them

    @property
    def title(self) -> str:
        return str(TITLES[self.kind])


def _per_language(make: Callable[[str, int], Drill]) -> Callable[[str, int], Drill]:
    """``make`` remembered for each language: a drill's words are in its reader's."""

    # A position takes up to a second to find; a linked one is asked again.
    @functools.lru_cache(maxsize=512)
    def remembered(kind: str, seed: int, language: str | None) -> Drill:
        with translation.override(language):
            return make(kind, seed)

    @functools.wraps(make)
    def drill(kind: str, seed: int) -> Drill:
        return remembered(kind, seed, translation.get_language())

    return drill


@_per_language
def make_drill(kind: str, seed: int) -> Drill:
    """The drill of ``kind`` for ``seed``: the same position every time, in the words of the
    language in use. Callers must not change its ``data``, which is shared."""
    if kind not in KINDS:
        raise ValueError(f"No drill called {kind!r}")
    table, rules = TABLES[seed % len(TABLES)]
    build = _BUILDERS[kind]
    for attempt in range(ATTEMPTS):
        match = Match(rules, _deal_seed(kind, seed, attempt))
        rng = random.Random(f"{kind}:{seed}:{attempt}")
        data = build(match, rng)
        if data is not None:
            data.update(kind=kind, seed=seed, table=str(table), rules=rules.to_json())
            return Drill(kind, seed, str(table), rules, data)
    raise NoPositionError(f"No {kind} position for seed {seed}")


def _deal_seed(kind: str, seed: int, attempt: int) -> bytes:
    return hashlib.sha256(f"hearts-learn:{kind}:{seed}:{attempt}".encode()).digest()


# Playing a hand forward ---------------------------------------------------------------------


def _pass_all(match: Match) -> None:
    hand = match.hand
    if hand.phase is not Phase.PASSING:
        return
    for seat in range(match.players):
        match.pass_cards(seat, basic.choose_pass(seat_view(match, seat)))


def _random_card(match: Match, rng: random.Random) -> Card:
    return rng.choice(match.hand.legal_plays(match.hand.turn))


def _bot_card(match: Match, rng: random.Random) -> Card:
    return policy.choose_card(seat_view(match, match.hand.turn))


# The three kinds --------------------------------------------------------------------------


def _legal_position(match: Match, rng: random.Random) -> dict[str, Any] | None:
    """A seat to play with some cards refused; the engine says which and why."""
    _pass_all(match)
    hand = match.hand
    cards = len(match.rules.deck) - match.rules.kitty_size
    # The first trick has rules of its own, so a third of the drills stop there.
    stop = rng.randrange(1, match.players) if rng.random() < 0.3 else rng.randrange(cards - 1)
    while hand.cards_played < stop:
        match.play(hand.turn, _random_card(match, rng))
    while hand.phase is Phase.PLAYING:
        seat = hand.turn
        reasons = hand.reasons(seat)
        if reasons and len(hand.holding(seat)) > 2:
            view = seat_view(match, seat)
            return _legal_answers(view, rng)
        match.play(seat, _random_card(match, rng))
    return None


def _legal_answers(view: SeatView, rng: random.Random) -> dict[str, Any]:
    assert view.seat is not None
    refused = sorted(view.reasons)
    asked = rng.choice(refused)
    reason = _reason(view, view.reasons[asked])["text"]
    return {
        **_position(view),
        "legal": [str(card) for card in view.legal],
        "reasons": _reasons(view),
        "asked": _card(asked),
        "choices": _reason_choices(view, reason),
        "answer": reason,
    }


def _reasons(view: SeatView) -> dict[str, dict[str, Any]]:
    """Why each refused card of the hand is refused, in words, and the rule behind it."""
    return {str(card): _reason(view, text) for card, text in view.reasons.items()}


def _reason(view: SeatView, engine_words: str) -> dict[str, Any]:
    """A refusal (the engine's own words) in the reader's language, and its rule's anchor."""
    refusal = Refusal.of(engine_words)
    if refusal is None:
        return {"text": engine_words, "anchor": None}
    clubs = [card for card in view.hand if card.suit is Suit.CLUBS]
    text = refusal_words(
        refusal,
        card=min(clubs) if refusal is Refusal.FIRST_LEAD and clubs else None,
        suit=view.trick[0][1].suit if view.trick else None,
    )
    return {"text": text, "anchor": anchor_of(refusal)}


def _reason_choices(view: SeatView, reason: str) -> list[str]:
    """The reasons the engine could give in this kind of position, the true one among them."""
    if view.trick:
        choices = [
            refusal_words(Refusal.FOLLOW_SUIT, suit=view.trick[0][1].suit),
            refusal_words(Refusal.FIRST_TRICK),
            refusal_words(Refusal.OLD_QUEEN),
        ]
    else:
        choices = [
            refusal_words(Refusal.HEARTS_NOT_BROKEN),
            refusal_words(Refusal.FIRST_TRICK),
            refusal_words(Refusal.FIRST_LEAD, card=view.rules.lowest_club_in_pack),
        ]
    if reason not in choices:
        choices[-1] = reason
    return choices


def _pass_position(match: Match, rng: random.Random) -> dict[str, Any] | None:
    """A hand to pass from; the bot's passing rules rank its cards by danger."""
    if match.hand.phase is not Phase.PASSING:
        return None
    seat = rng.randrange(match.players)
    view = seat_view(match, seat)
    cards = list(view.hand)
    if passing.can_shoot(cards):
        return None  # the bot would pass its low cards for a moon: a drill of its own
    ranked = passing.ranked(view)
    bot_pass = passing.choose_pass(view)
    credit = {str(card): 2 for card in bot_pass}
    credit.update({str(card): 1 for card in ranked[3:6]})
    return {
        **_position(view),
        "direction": direction_words(view.direction),
        "ranked": [str(card) for card in ranked],
        "danger": {str(card): passing.danger(card, cards, view) for card in cards},
        "best": [str(card) for card in bot_pass],
        "credit": credit,
    }


def _moon_position(match: Match, rng: random.Random) -> dict[str, Any] | None:
    """Last to play to a trick while another player holds every point taken so far."""
    _pass_all(match)
    hand = match.hand
    players = match.players
    while hand.phase is Phase.PLAYING:
        seat = hand.turn
        if len(hand.trick) == players - 1:
            view = seat_view(match, seat)
            found = _moon_answers(match, view)
            if found is not None:
                return found
        match.play(seat, _bot_card(match, rng))
    return None


def _moon_answers(match: Match, view: SeatView) -> dict[str, Any] | None:
    assert view.seat is not None
    points = view.points_taken
    shooter = moon_candidate(points)
    if shooter is None or shooter == view.seat or points[shooter] < 4:
        return None
    outcomes = {str(card): _outcome(match, view.seat, card, shooter) for card in view.legal}
    stops = sorted(code for code, outcome in outcomes.items() if outcome["stops"])
    if not stops or len(stops) == len(outcomes):
        return None
    return {
        **_position(view),
        "shooter": shooter,
        "shooter_name": _seat_name(shooter, view),
        "shooter_points": points[shooter],
        "legal": [str(card) for card in view.legal],
        "reasons": _reasons(view),
        "outcomes": outcomes,
        "stops": stops,
    }


def _outcome(match: Match, seat: int, card: Card, shooter: int) -> dict[str, Any]:
    """What playing ``card`` last to the trick does, as the engine plays it."""
    hand = match.hand.copy()
    taken = next(e for e in hand.play(seat, card) if isinstance(e, TrickTaken))
    who = _seat_name(taken.seat, seat_view(match, seat))
    stops = moon_candidate(hand.penalty_points()) != shooter
    points = taken.points
    if taken.seat == shooter and points:
        text = ngettext(
            "%(who)s takes the trick and its %(points)s point: the moon is still on",
            "%(who)s takes the trick and its %(points)s points: the moon is still on",
            points,
        )
    elif taken.seat == shooter:
        text = _("%(who)s takes the trick")
    elif taken.seat == seat and points:
        text = ngettext(
            "You take %(points)s point: the moon is stopped",
            "You take %(points)s points: the moon is stopped",
            points,
        )
    elif points:
        text = ngettext(
            "%(who)s takes %(points)s point: the moon is stopped",
            "%(who)s takes %(points)s points: the moon is stopped",
            points,
        )
    elif taken.seat == seat:
        text = _("You take a trick without a point: the moon is still on")
    else:
        text = _("%(who)s takes a trick without a point: the moon is still on")
    text %= {"who": who, "points": points}
    return {"stops": stops, "winner": taken.seat, "points": taken.points, "text": text}


# What the page shows --------------------------------------------------------------------------


def _card(card: Card) -> dict[str, Any]:
    return {
        "code": str(card),
        "display": card.display,
        "name": card_name(card),
        "suit": card.suit.char,
    }


# Each seat as the drills name it, by where it sits from the reader's.
_SEAT_NAMES: Final = {
    # Translators: a seat, at the start of a sentence ("The player across takes the trick");
    # inside a sentence its first letter is made small ("(the player across)").
    "across": gettext_lazy("The player across"),
    "left": gettext_lazy("The player on your left"),
    "right": gettext_lazy("The player on your right"),
    "two left": gettext_lazy("The player two to your left"),
    "two right": gettext_lazy("The player two to your right"),
}


def _seat_name(seat: int, view: SeatView) -> str:
    assert view.seat is not None
    if seat == view.seat:
        return pgettext("the reader's own seat", "You")
    return str(_SEAT_NAMES[pass_direction_name(seat - view.seat, view.players)])


def _from_me(view: SeatView) -> list[int]:
    """The seats in playing order, starting with the viewer's own."""
    assert view.seat is not None
    return [(view.seat + offset) % view.players for offset in range(view.players)]


def _position(view: SeatView) -> dict[str, Any]:
    return {
        "hand": [_card(card) for card in view.hand],
        "trick": [
            {"seat": _seat_name(seat, view), "card": _card(card)} for seat, card in view.trick
        ],
        "trick_number": len(view.tricks) + 1,
        "hearts_broken": view.hearts_broken,
        "points_taken": [
            {"seat": _seat_name(seat, view), "points": view.points_taken[seat]}
            for seat in _from_me(view)
        ],
        "players": view.players,
    }


_BUILDERS: Final[dict[str, Callable[[Match, random.Random], dict[str, Any] | None]]] = {
    "legal": _legal_position,
    "pass": _pass_position,
    "moon": _moon_position,
}
