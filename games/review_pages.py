"""What a game's page shows of the bot's review (games/reviews.py): who may see and ask for
it, the verdict beside each step of the replay, and the chart of the points each person's
choices lost, drawn here as inline SVG (no chart library), with a table of the same figures."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from games.engine import Card

from .history_selectors import Step
from .models import Game, GameReview

# The marks in words, worst first (games/bots/review.py's MARKS).
MARK_WORDS = {
    "blunder": pgettext_lazy("a review's mark", "Blunder"),
    "mistake": pgettext_lazy("a review's mark", "Mistake"),
    "inaccuracy": pgettext_lazy("a review's mark", "Inaccuracy"),
}
# A line and a marker shape for each seat: told apart without colour too.
STYLES = (
    ("#0d5a34", "circle", ""),
    ("#a8200d", "square", "6 3"),
    ("#1f4fb4", "triangle", "2 3"),
    ("#6b4a00", "diamond", "10 3 2 3"),
    ("#5a1f7a", "circle", "1 2"),
)


def may_review(game: Game, user: User | AnonymousUser) -> bool:
    """Whether ``user`` may see and ask for the review of ``game``: anyone who may see the
    game, but a private table's game only its players."""
    if not game.table.private:
        return True
    return bool(
        user.is_authenticated and game.players.filter(user_id=user.pk, is_bot=False).exists()
    )


def step_numbers(steps: list[Step]) -> dict[int, int]:
    """The replay's step number (from 1) that shows each move of the log just made."""
    numbers: dict[int, int] = {}
    for number, step in enumerate(steps, start=1):
        if step.moves or step.resign:
            numbers.setdefault(step.before - 1, number)
    return numbers


def verdicts_by_move(review: GameReview | None) -> dict[int, dict[str, Any]]:
    if review is None or not review.is_done:
        return {}
    return {verdict["move"]: verdict for verdict in review.verdicts}


def shown_verdict(verdict: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """A verdict as the replay shows it: its mark in words, the cards as people read them."""

    def cards(text: list[str]) -> str:
        return ", ".join(Card.parse(card).display for card in text)

    return {
        **verdict,
        "name": names[verdict["seat"]],
        "mark_words": str(MARK_WORDS[verdict["mark"]]) if verdict["mark"] else "",
        "chosen_display": cards(verdict["chosen"]),
        "best_display": cards(verdict["best"]),
        "same": verdict["chosen"] == verdict["best"],
    }


def _n(value: float) -> str:
    return f"{value:.1f}"


def chart(rows: list[dict[str, Any]], hands: list[int]) -> SafeString:
    """Each person's points lost to their choices, added up hand by hand: a line each."""
    width, height, left, right, top, bottom = 640, 260, 44, 170, 16, 36
    most = max([1.0, *(sum(row["by_hand"]) for row in rows)])
    steps = max(len(hands), 1)

    def x(i: int) -> float:
        return left + (width - left - right) * i / steps

    def y(value: float) -> float:
        return top + (height - top - bottom) * (1 - value / most)

    parts: list[SafeString] = []
    for tick in range(5):
        value = most * tick / 4
        parts.append(
            format_html(
                '<line x1="{}" x2="{}" y1="{}" y2="{}" class="grid"/>'
                '<text x="{}" y="{}" class="axis" text-anchor="end">{}</text>',
                left, width - right, _n(y(value)), _n(y(value)), left - 6, _n(y(value) + 4),
                f"{value:.0f}" if most >= 8 else f"{value:.1f}",
            )
        )  # fmt: skip
    for i, hand in enumerate(hands, start=1):
        parts.append(
            format_html(
                '<text x="{}" y="{}" class="axis" text-anchor="middle">{}</text>',
                _n(x(i)), height - bottom + 16, hand,
            )
        )  # fmt: skip
    parts.append(
        format_html(
            '<text x="{}" y="{}" class="axis" text-anchor="middle">{}</text>',
            _n((left + width - right) / 2), height - 4, _("Hand"),
        )
    )  # fmt: skip
    for index, row in enumerate(rows):
        colour, shape, dash = STYLES[index % len(STYLES)]
        total, points = 0.0, [(x(0), y(0.0))]
        for i, lost in enumerate(row["by_hand"], start=1):
            total += lost
            points.append((x(i), y(total)))
        path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
        parts.append(
            format_html(
                '<polyline points="{}" fill="none" stroke="{}" stroke-width="2.5" '
                'stroke-dasharray="{}"/>',
                path, colour, dash,
            )
        )  # fmt: skip
        parts.append(
            format_html_join("", "{}", ((_marker(shape, px, py, colour),) for px, py in points[1:]))
        )
        last_x, last_y = points[-1]
        parts.append(
            format_html(
                '<text x="{}" y="{}" class="line-name" fill="{}">{} ({})</text>',
                _n(last_x + 8), _n(last_y + 4 + 12 * index - 6 * (len(rows) - 1)), colour,
                row["name"][:16], row["lost"],
            )
        )  # fmt: skip
    title = _("Points lost to the choices the bot would not have made, added up hand by hand")
    return format_html(
        '<svg class="review-chart" viewBox="0 0 {} {}" role="img" aria-labelledby="review-chart-title">'
        '<title id="review-chart-title">{}</title>{}</svg>',
        width, height, title, SafeString("".join(parts)),
    )  # fmt: skip


def _marker(shape: str, x: float, y: float, colour: str) -> SafeString:
    if shape == "square":
        return format_html(
            '<rect x="{}" y="{}" width="8" height="8" fill="{}"/>', x - 4, y - 4, colour
        )
    if shape == "triangle":
        return format_html(
            '<polygon points="{},{} {},{} {},{}" fill="{}"/>',
            _n(x), _n(y - 5), _n(x - 5), _n(y + 4), _n(x + 5), _n(y + 4), colour,
        )  # fmt: skip
    if shape == "diamond":
        return format_html(
            '<polygon points="{},{} {},{} {},{} {},{}" fill="{}"/>',
            _n(x), _n(y - 5), _n(x + 5), _n(y), _n(x), _n(y + 5), _n(x - 5), _n(y), colour,
        )  # fmt: skip
    return format_html('<circle cx="{}" cy="{}" r="4" fill="{}"/>', _n(x), _n(y), colour)


def rated_average(user: User) -> dict[str, Any] | None:
    """Over ``user``'s rated games the bot reviewed: how many, and the points their choices
    lost a hand on average (their profile shows it); None before the first."""
    from games.bots.review import VERSION

    from .models import GamePlayer

    seats = dict(
        GamePlayer.objects.filter(
            user=user, is_bot=False, game__rated=True, game__void=False
        ).values_list("game_id", "seat")
    )
    done = GameReview.objects.filter(
        game_id__in=list(seats), bot_version=VERSION, status=GameReview.Status.DONE
    )
    per_game = []
    for game_id, verdicts in done.values_list("game_id", "verdicts"):
        mine = [verdict for verdict in verdicts if verdict["seat"] == seats[game_id]]
        hands = {verdict["hand"] for verdict in mine}
        if hands:
            per_game.append(sum(verdict["loss"] for verdict in mine) / len(hands))
    if not per_game:
        return None
    return {"games": len(per_game), "per_hand": sum(per_game) / len(per_game)}
