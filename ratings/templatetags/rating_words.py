"""The words pages show about ratings, with the numbers of ``ratings.maths``."""

from __future__ import annotations

from typing import Any

from django import template

from ratings.maths import PROVISIONAL_GAMES, STARTING_RATING

register = template.Library()


@register.inclusion_tag("ratings/_starting_rating.html")
def starting_rating() -> dict[str, Any]:
    """Where a rating starts and how long it is provisional: one sentence, on every page that
    shows ratings (the leaderboard, a profile, a rated game's page)."""
    return {"start": STARTING_RATING, "provisional_games": PROVISIONAL_GAMES}
