"""Reads for the history: the list of finished games, and the replay of one game step by step."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from games.engine import EARLY_ENDS, Card, EndReason, Hand, Match, MoveKind, Phase, cards_of

from . import selectors
from .models import Game, GamePlayer
from .records import played_hands
from .words import ENDED_EARLY, empty_seat, ordinal, outcome, replay_step

# The list ----------------------------------------------------------------------------------


def finished_games(filters: dict[str, Any]) -> QuerySet[Game]:
    """Games of public tables that are over, newest first, narrowed by the list's (cleaned)
    filters. A private table's games are never listed (docs/privacy.md)."""
    games = (
        selectors.public_games()
        .exclude(status=Game.Status.PLAYING)
        .select_related("table")
        .prefetch_related("players__user")
        .order_by("-finished_at", "-pk")
    )
    if filters.get("player"):
        games = games.filter(
            players__user__username__iexact=filters["player"], players__is_bot=False
        )
    if filters.get("preset"):
        games = games.filter(table__preset=filters["preset"])
    if filters.get("rated"):
        games = games.filter(rated=filters["rated"] == "yes")
    result = filters.get("result")
    if result == "finished":
        games = games.filter(status=Game.Status.FINISHED, result__reason=EndReason.TARGET)
    elif result == "early":
        games = games.filter(status=Game.Status.FINISHED, result__reason__in=EARLY_ENDS)
    if filters.get("since"):
        games = games.filter(finished_at__date__gte=filters["since"])
    if filters.get("until"):
        games = games.filter(finished_at__date__lte=filters["until"])
    return games


@dataclass(frozen=True)
class GameRow:
    game: Game
    players: list[GamePlayer]
    preset_title: str
    outcome: str


def game_row(game: Game) -> GameRow:
    players = sorted(game.players.all(), key=lambda p: p.seat)
    return GameRow(game, players, game.table.preset_title, outcome_in_words(game, players))


# The replay --------------------------------------------------------------------------------

# The direction of a hand's passes (the engine's name for it) in words, as the points by hand
# show it: "1 (pass left)". Said as a pass, never a bare "left", which the placements above the
# table use for a player who left the game ("rosa, 2 points (left)").
DIRECTIONS: Final = {
    "left": pgettext_lazy("a hand's passes, on a game's page: 1 (pass left)", "pass left"),
    "right": pgettext_lazy("a hand's passes, on a game's page: 2 (pass right)", "pass right"),
    "across": pgettext_lazy("a hand's passes, on a game's page: 3 (pass across)", "pass across"),
    "two left": pgettext_lazy(
        "a hand's passes, on a game's page: 3 (pass two left)", "pass two left"
    ),
    "two right": pgettext_lazy(
        "a hand's passes, on a game's page: 4 (pass two right)", "pass two right"
    ),
    "hold": pgettext_lazy("a hand's passes, on a game's page: 4 (no passing)", "no passing"),
}
# The heading of a hand's steps of the replay, by the direction of its passes.
HAND_HEADINGS: Final = {
    "left": gettext_lazy("Hand %(number)s, passing left."),
    "right": gettext_lazy("Hand %(number)s, passing right."),
    "across": gettext_lazy("Hand %(number)s, passing across."),
    "two left": gettext_lazy("Hand %(number)s, passing two left."),
    "two right": gettext_lazy("Hand %(number)s, passing two right."),
    "hold": gettext_lazy("Hand %(number)s, no passing."),
}


def direction_words(direction: str) -> str:
    """The engine's name of a pass direction in the reader's words."""
    return str(DIRECTIONS.get(direction, direction))


def hand_heading(number: int, direction: str) -> str:
    """The hand and where its cards are passed, in words ("Hand 3, passing across.")."""
    return str(HAND_HEADINGS[direction]) % {"number": number}


@dataclass(frozen=True)
class Step:
    """One step of the replay: hand ``hand`` (from 1) with its first ``moves`` moves made.

    ``before`` counts the moves of the game made before this step; ``resign`` marks the last
    step of a game ended early.
    """

    hand: int
    moves: int
    before: int
    resign: bool = False


def replay_steps(match: Match) -> list[Step]:
    """The deal of every hand, then each of its moves; a resignation is a step of its own."""
    steps: list[Step] = []
    before = 0
    for hand in played_hands(match):
        for made in range(len(hand.moves) + 1):
            steps.append(Step(hand.number, made, before + made))
        before += len(hand.moves)
    if before < len(match.moves):  # the game ended early: the resignation is the last move
        last = steps[-1]
        steps.append(Step(last.hand, last.moves, before + 1, resign=True))
    return steps


@dataclass(frozen=True)
class SeatState:
    seat: int
    name: str
    is_bot: bool
    cards: list[Card]
    chosen: set[Card]  # chosen to pass, not yet exchanged
    received: set[Card]
    passed: list[Card]
    passed_to: str
    tricks: int
    points: int
    total: int
    to_play: bool

    @property
    def passed_display(self) -> str:
        """The cards passed as people read them: "Q♠, A♥, 2♣"."""
        return ", ".join(card.display for card in self.passed)


def replay_state(
    match: Match, players: list[GamePlayer], steps: list[Step], index: int
) -> dict[str, Any]:
    """What the replay shows at step ``index``: every hand, the table and the step in words.

    Its links and its address name a step by the number it is shown with ("Step 5 of 40" is
    ``?step=5``), so that the address of what is on screen, reloaded or shared, shows it again.
    """
    step = steps[index]
    moves = match.moves[: step.before]
    partial = Match.replay(match.rules, match.seed, moves, match.added_seeds)
    hand = partial.hand if partial.hand.number == step.hand else partial.hands[-1]
    names = [_name(players, seat) for seat in range(match.players)]
    return {
        "step": step,
        "number": index + 1,
        "count": len(steps),
        "previous": max(index, 1),
        "next": min(index + 2, len(steps)),
        "hand": hand,
        "direction": hand.direction,
        "heading": hand_heading(hand.number, hand.direction),
        "seats": _seat_states(hand, players, names, step),
        "trick": _table_cards(hand, step, names),
        "kitty": _kitty(hand, names),
        "words": replay_step(
            hand, step.moves, names, match.moves[step.before - 1] if step.resign else None
        ),
        "hand_starts": _hand_starts(steps),
    }


def _name(players: list[GamePlayer], seat: int) -> str:
    for player in players:
        if player.seat == seat:
            return player.name
    return empty_seat(seat)


def _seat_states(
    hand: Hand, players: list[GamePlayer], names: list[str], step: Step
) -> list[SeatState]:
    bots = {p.seat for p in players if p.is_bot}
    passing = hand.phase is Phase.PASSING
    states = []
    for seat in range(hand.players):
        passed = hand.passed(seat) or []
        points = hand.points[seat] if hand.points is not None else hand.penalty_points()[seat]
        total = hand.totals_before[seat] + (hand.points[seat] if hand.points is not None else 0)
        states.append(
            SeatState(
                seat=seat,
                name=names[seat],
                is_bot=seat in bots,
                cards=hand.holding(seat),
                chosen=set(passed) if passing else set(),
                received=set(hand.received(seat) or ()),
                passed=passed,
                passed_to=names[hand.pass_target(seat)],
                tricks=hand.tricks_won(seat),
                points=points,
                total=total,
                to_play=not step.resign
                and hand.phase in (Phase.PLAYING, Phase.MOON_CHOICE)
                and hand.turn == seat,
            )
        )
    return states


def _table_cards(hand: Hand, step: Step, names: list[str]) -> dict[str, Any]:
    """The cards on the table: the trick in progress, or the one just taken."""
    if hand.trick:
        cards = [(names[seat], card) for seat, card in hand.current_trick]
        return {"cards": cards, "winner": None, "points": 0}
    last = hand.moves[step.moves - 1] if step.moves else None
    if last is not None and last.kind == MoveKind.PLAY and hand.tricks:
        trick = hand.tricks[-1]
        cards = [
            (names[trick.seat_of(i, hand.players)], card) for i, card in enumerate(trick.cards)
        ]
        return {"cards": cards, "winner": names[trick.winner], "points": trick.points}
    return {"cards": [], "winner": None, "points": 0}


def _kitty(hand: Hand, names: list[str]) -> dict[str, Any] | None:
    if not hand.kitty:
        return None
    taker = names[hand.kitty_taker] if hand.kitty_taker is not None else None
    return {"cards": cards_of(hand.kitty), "taker": taker}


def _hand_starts(steps: list[Step]) -> list[tuple[int, int]]:
    """(hand number, the number of its first step) for the hand selector."""
    starts: dict[int, int] = {}
    for index, step in enumerate(steps):
        starts.setdefault(step.hand, index + 1)
    return list(starts.items())


def outcome_in_words(game: Game, players: list[GamePlayer]) -> str:
    """The result in a few words: won by alice, shared by alice and bob; carol resigned."""
    result = game.result or {}
    places = result.get("places") or []
    if not places:  # only a game that never ended has no places
        return _("Not finished")
    winners = [_name(players, seat) for seat, place in enumerate(places) if place == 1]
    forfeited = result.get("forfeited")
    if forfeited is None or result.get("reason") not in EARLY_ENDS:
        return outcome(winners)
    return outcome(winners, (_name(players, forfeited), result["reason"]))


# The game's page --------------------------------------------------------------------------


def placements(game: Game, players: list[GamePlayer], match: Match) -> list[dict[str, Any]]:
    result = game.result or {}
    places = result.get("places") or []
    ratings = selectors.rating_changes(game)
    rows = []
    for player in players:
        place = places[player.seat] if places else None
        note = ""
        if result.get("forfeited") == player.seat and result.get("reason") in EARLY_ENDS:
            note = ENDED_EARLY[result["reason"]]
        rows.append(
            {
                "player": player,
                "place": place,
                "place_words": ordinal(place) if place else "",
                "total": match.totals[player.seat],
                "note": note,
                "rating": ratings.get(player.seat),
            }
        )
    return sorted(rows, key=lambda row: (row["place"] or 0, row["player"].seat))


def hand_rows(match: Match) -> list[dict[str, Any]]:
    return [
        {
            "number": hand.number,
            "direction": hand.direction,
            "direction_words": direction_words(hand.direction),
            "points": hand.points,
        }
        for hand in played_hands(match)
    ]


def added_seeds(game: Game, players: list[GamePlayer]) -> list[tuple[str, str]]:
    """(name, seed) per seat when anyone added a seed to the deal; empty otherwise."""
    seeds = list(game.added_seeds or [])
    if not any(seeds):
        return []
    return [(_name(players, seat), seed) for seat, seed in enumerate(seeds)]
