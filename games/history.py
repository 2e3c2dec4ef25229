"""Finished games: the site-wide list, each game's page with its replay, and the record.

Everything here is public once a game is over (the seed, every hand, every pass). While a game
runs, its page shows only what its table shows a spectator: who plays and the seed's
fingerprint. A private table's games are shown only to those who may see the table or played in
them (``selectors.can_view_game``) and are never listed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django import forms
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from games.engine import (
    PRESETS,
    Card,
    Clock,
    FirstLead,
    Hand,
    Match,
    MoonRule,
    Move,
    Phase,
    Rules,
    ShortPack,
    TieRule,
    cards_of,
)

from . import selectors
from .forms import CUSTOM
from .models import Game, GamePlayer
from .records import game_record as build_record
from .records import played_hands

GAMES_PER_PAGE = 25
EARLY_ENDS = ("resigned", "left", "timed out")
ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


# The list ----------------------------------------------------------------------------------


class GameFilterForm(forms.Form):
    player = forms.CharField(required=False, max_length=150, label="Player")
    preset = forms.ChoiceField(
        required=False,
        label="Rule set",
        choices=[("", "Any")]
        + [(key, p.title) for key, p in PRESETS.items()]
        + [(CUSTOM, "Custom")],  # the tables whose options were chosen one by one
    )
    rated = forms.ChoiceField(
        required=False,
        label="Rated",
        choices=[("", "Rated or casual"), ("yes", "Rated"), ("no", "Casual")],
    )
    result = forms.ChoiceField(
        required=False,
        label="Result",
        choices=[
            ("", "Any"),
            ("finished", "Played to the end"),
            ("early", "Ended early"),
        ],
    )
    since = forms.DateField(
        required=False, label="From", widget=forms.DateInput(attrs={"type": "date"})
    )
    until = forms.DateField(
        required=False, label="To", widget=forms.DateInput(attrs={"type": "date"})
    )


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
        games = games.filter(status=Game.Status.FINISHED, result__reason="target")
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


def _row(game: Game) -> GameRow:
    players = sorted(game.players.all(), key=lambda p: p.seat)
    return GameRow(game, players, game.table.preset_title, outcome_in_words(game, players))


def outcome_in_words(game: Game, players: list[GamePlayer]) -> str:
    """The result in a few words: won by alice, shared by alice and bob; carol resigned."""
    result = game.result or {}
    places = result.get("places") or []
    if not places:  # only a game that never ended has no places
        return "Not finished"
    names = {p.seat: p.name for p in players}
    winners = [
        names.get(seat, f"Seat {seat + 1}") for seat, place in enumerate(places) if place == 1
    ]
    if len(winners) == 1:
        text = f"Won by {winners[0]}"
    else:
        text = f"Shared by {', '.join(winners[:-1])} and {winners[-1]}"
    forfeited = result.get("forfeited")
    if forfeited is not None and result.get("reason") in EARLY_ENDS:
        name = names.get(forfeited, f"Seat {forfeited + 1}")
        text += f"; {name} {_early_end_words(result['reason'])}"
    return text


def _early_end_words(reason: str) -> str:
    return {"resigned": "resigned", "left": "left", "timed out": "ran out of time"}[reason]


@require_safe
def game_list(request: HttpRequest) -> HttpResponse:
    form = GameFilterForm(request.GET or None)
    filters = form.cleaned_data if form.is_valid() else {}
    page = Paginator(finished_games(filters), GAMES_PER_PAGE).get_page(request.GET.get("page"))
    context = {"form": form, "page": page, "rows": [_row(game) for game in page.object_list]}
    return render(request, "games/game_list.html", context)


# The rules in words ------------------------------------------------------------------------


def rules_in_words(rules: Rules) -> list[str]:
    """One short sentence per option, as the table's players met them."""
    lines = [f"{rules.players} players, to {rules.target} points."]
    if rules.removed_cards:
        removed = ", ".join(card.display for card in rules.removed_cards)
        lines.append(f"Removed from the pack: {removed}.")
    if rules.short_pack is ShortPack.KITTY and rules.kitty_size:
        lines.append(
            f"A kitty of {rules.kitty_size} cards goes to whoever takes the first penalty card."
        )
    if rules.first_lead is FirstLead.LOWEST_CLUB:
        lines.append("The lowest club in play leads the first trick.")
    else:
        lines.append("The player left of the dealer leads the first trick.")
    lines.append(
        "Points may be played on the first trick."
        if rules.points_on_first_trick
        else "No hearts and no Q♠ on the first trick."
    )
    if rules.queen_breaks_hearts:
        lines.append("The Q♠ breaks hearts.")
    lines.append(_MOON_WORDS[rules.moon])
    if rules.shoot_the_sun:
        lines.append("Shooting the sun (every trick) counts 52.")
    if rules.jack_of_diamonds:
        lines.append("The J♦ takes 10 points off whoever wins it.")
    if rules.old_queen:
        lines.append("The Q♠ must be discarded at the first chance.")
    lines.append(
        "Equal lowest totals share first place."
        if rules.ties is TieRule.SHARE
        else "Equal lowest totals play another hand."
    )
    lines.append(
        "Strict clock: a missed deadline ends the game."
        if rules.clock is Clock.STRICT
        else "Relaxed clock: the table plays for a player out of time."
    )
    return lines


_MOON_WORDS = {
    MoonRule.OTHERS: "Shooting the moon adds 26 to everyone else.",
    MoonRule.SELF: "Shooting the moon takes 26 off the shooter.",
    MoonRule.CHOOSE: "The moon shooter chooses: 26 to everyone else or 26 off their own total.",
    MoonRule.AUTOMATIC: "Shooting the moon adds 26 to everyone else, unless that leaves the "
    "shooter behind at the end; then 26 come off the shooter instead.",
}


# The replay --------------------------------------------------------------------------------


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
        "seats": _seat_states(hand, players, names, step),
        "trick": _table_cards(hand, step, names),
        "kitty": _kitty(hand, names),
        "words": _step_words(
            hand, step, names, match.moves[step.before - 1] if step.resign else None
        ),
        "hand_starts": _hand_starts(steps),
    }


def _name(players: list[GamePlayer], seat: int) -> str:
    for player in players:
        if player.seat == seat:
            return player.name
    return f"Seat {seat + 1}"


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
    if last is not None and last.kind == "play" and hand.tricks:
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


def _step_words(hand: Hand, step: Step, names: list[str], resign: Move | None) -> str:
    if resign is not None:
        return (
            f"{names[resign.seat]} {_early_end_words(resign.choice or 'resigned')}: the game ends."
        )
    if step.moves == 0:
        dealer = names[hand.dealer]
        if hand.pass_offset == 0:
            return f"Hand {hand.number}, dealt by {dealer}: a hold hand, no passing."
        return (
            f"Hand {hand.number}, dealt by {dealer}: everyone passes three cards {hand.direction}."
        )
    move = hand.moves[step.moves - 1]
    words = _move_words(hand, move, names)
    if move.timeout:
        words += " (the table moved for them: time ran out)"
    words += "."
    if move.kind == "pass" and step.moves == hand.players:
        words += " The passes change hands."
    if move.kind == "play" and not hand.trick:
        trick = hand.tricks[-1]
        words += f" {names[trick.winner]} takes the trick"
        words += (
            f" ({trick.points} point{'s' if trick.points != 1 else ''})." if trick.points else "."
        )
    if step.moves == len(hand.moves) and hand.points is not None:
        scored = ", ".join(f"{names[s]} {p:+d}" for s, p in enumerate(hand.points))
        words += f" Hand {hand.number} scores: {scored}."
    return words


def _move_words(hand: Hand, move: Move, names: list[str]) -> str:
    name = names[move.seat]
    if move.kind == "pass":
        cards = ", ".join(card.display for card in move.cards)
        target = names[(move.seat + hand.pass_offset) % hand.players]
        return f"{name} passes {cards} {hand.direction} to {target}"
    if move.kind == "play":
        card = move.cards[0]
        return f"{name} plays the {card.display} ({card.name})"
    choice = (
        "adding 26 to everyone else" if move.choice == "others" else "taking 26 off their own total"
    )
    return f"{name} shot the moon and chose {choice}"


def _hand_starts(steps: list[Step]) -> list[tuple[int, int]]:
    """(hand number, the number of its first step) for the hand selector."""
    starts: dict[int, int] = {}
    for index, step in enumerate(steps):
        starts.setdefault(step.hand, index + 1)
    return list(starts.items())


# The game's page and its record ------------------------------------------------------------


def _step_index(request: HttpRequest, steps: list[Step]) -> int:
    """The index in ``steps`` of the step asked for: ``?step=N`` is the step shown as "Step N"
    (the first for 0, the last for a number past it); ``?hand=N`` the deal of hand N."""
    hand = _whole_number(request.GET.get("hand", ""))
    if hand is not None:
        for index, step in enumerate(steps):
            if step.hand == hand:
                return index
    wanted = _whole_number(request.GET.get("step", ""))
    if wanted is not None:
        return min(max(wanted - 1, 0), len(steps) - 1)
    return 0


def _whole_number(text: str) -> int | None:
    """``text`` as a whole number written in ASCII digits, or None. ``str.isdigit`` also
    accepts superscripts ("²"), which ``int`` refuses, and ``int`` refuses thousands of digits
    too; no step or hand of a replay has more than six."""
    if text.isascii() and text.isdigit() and len(text) <= 6:
        return int(text)
    return None


def _placements(game: Game, players: list[GamePlayer], match: Match) -> list[dict[str, Any]]:
    result = game.result or {}
    places = result.get("places") or []
    ratings = selectors.rating_changes(game)
    rows = []
    for player in players:
        place = places[player.seat] if places else None
        note = ""
        if result.get("forfeited") == player.seat and result.get("reason") in EARLY_ENDS:
            note = _early_end_words(result["reason"])
        rows.append(
            {
                "player": player,
                "place": place,
                "place_words": ORDINALS.get(place, f"{place}th") if place else "",
                "total": match.totals[player.seat],
                "note": note,
                "rating": ratings.get(player.seat),
            }
        )
    return sorted(rows, key=lambda row: (row["place"] or 0, row["player"].seat))


def _hand_rows(match: Match) -> list[dict[str, Any]]:
    return [
        {"number": hand.number, "direction": hand.direction, "points": hand.points}
        for hand in played_hands(match)
    ]


def _added_seeds(game: Game, players: list[GamePlayer]) -> list[tuple[str, str]]:
    """(name, seed) per seat when anyone added a seed to the deal; empty otherwise."""
    seeds = list(game.added_seeds or [])
    if not any(seeds):
        return []
    return [(_name(players, seat), seed) for seat, seed in enumerate(seeds)]


def _is_htmx(request: HttpRequest) -> bool:
    # A history restore after a full reload needs the whole page, not the partial.
    return (
        request.headers.get("HX-Request") == "true"
        and request.headers.get("HX-History-Restore-Request") != "true"
    )


def viewable_game(request: HttpRequest, game_id: int) -> tuple[Game, str]:
    """The game, if this visitor may see it, and the invite code to carry on in links ("" when
    none is needed); a private game they may not see is not found, as for a missing id."""
    game = get_object_or_404(Game.objects.select_related("table"), pk=game_id)
    code = request.GET.get("code")
    if not selectors.can_view_game(game, request.user, code):
        raise Http404("No such game")
    return game, selectors.access_code(game.table, code)


@require_safe
def game_detail(request: HttpRequest, game_id: int) -> HttpResponse:
    game, code = viewable_game(request, game_id)
    players = list(game.players.select_related("user"))
    context: dict[str, Any] = {"game": game, "players": players, "table": game.table, "code": code}
    if not game.is_over:
        return render(request, "games/game_detail.html", context)
    match = game.match()
    steps = replay_steps(match)
    context["replay"] = replay_state(match, players, steps, _step_index(request, steps))
    if _is_htmx(request):
        context["oob"] = True
        return render(request, "games/game_detail.html#replay", context)
    rules = Rules.from_json(game.rules)
    context.update(
        {
            "rules_words": rules_in_words(rules),
            "placements": _placements(game, players, match),
            "outcome": outcome_in_words(game, players),
            "hand_rows": _hand_rows(match),
            "totals": list(match.totals),
            "seed_hex": bytes(game.seed).hex(),
            "added_seeds": _added_seeds(game, players),
        }
    )
    return render(request, "games/game_detail.html", context)


@require_safe
def game_record(request: HttpRequest, game_id: int) -> HttpResponse:
    game, _ = viewable_game(request, game_id)
    if not game.is_over:
        raise Http404("The record is published when the game ends")
    body = json.dumps(build_record(game), indent=1, ensure_ascii=False)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="hearts-game-{game.pk}.json"'
    return response
