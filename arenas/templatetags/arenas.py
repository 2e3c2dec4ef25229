"""The arenas wherever another page shows them: the lobby's running and next arena, a
profile's finished arenas, and an arena table's way back to its arena."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html

from arenas import selectors
from arenas.models import ArenaGame

register = template.Library()


@register.inclusion_tag("arenas/_lobby.html", takes_context=True)
def lobby_arenas(context: template.Context) -> dict[str, Any]:
    request = context.get("request")
    user = getattr(request, "user", None)
    return {**selectors.for_lobby(user), "user": user, "csrf_token": context.get("csrf_token")}


MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}


@register.inclusion_tag("arenas/_profile.html")
def arena_results(person: Any) -> dict[str, Any]:
    """Each finished arena with the person's place, and the medal after it for a podium (a
    piece of the sentence its template says, where the translation puts it)."""
    arenas = [
        {**item, "medal": _medal(item["row"].place)} for item in selectors.finished_places(person)
    ]
    return {"arenas": arenas, "person": person}


def _medal(place: int) -> str:
    if place not in MEDALS:
        return ""
    return format_html(' <span class="medal" aria-hidden="true">{}</span>', MEDALS[place])


@register.inclusion_tag("arenas/_return.html")
def arena_return(table: Any, me: Any = None) -> dict[str, Any]:
    """On an arena's table once its game is over: back to the arena, where the next table is
    made; a player's page goes there by itself after a moment while the arena runs
    (static/js/table.js)."""
    played = ArenaGame.objects.filter(table_id=table.pk).select_related("arena").first()
    arena = played.arena if played else None
    return {"arena": arena, "go": arena is not None and me is not None and not arena.ended}
