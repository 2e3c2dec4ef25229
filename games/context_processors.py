"""What every page's header needs from the games: the game the signed-in person is playing."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from . import selectors


def running_game(request: HttpRequest) -> dict[str, Any]:
    """``running_game``, where the header's (and the lobby's) "Your game" leads: looked up
    once, and only when a page shows it (never for a visitor who is not signed in, nor for an
    htmx fragment without the header)."""
    user = getattr(request, "user", None)
    return {"running_game": SimpleLazyObject(lambda: selectors.running_game(user))}
