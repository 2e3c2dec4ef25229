"""A profile's chat part: for another person's, mute or unmute them; for one's own, whom one
has muted and whether chat is on."""

from __future__ import annotations

from typing import Any

from django import template
from django.contrib.auth.models import User

from chat import selectors

register = template.Library()


@register.inclusion_tag("chat/_profile.html", takes_context=True)
def chat_choices(context: dict[str, Any], person: User) -> dict[str, Any]:
    viewer = context["request"].user
    own = viewer.is_authenticated and viewer.pk == person.pk
    return {
        "person": person,
        "signed_in": viewer.is_authenticated,
        "own": own,
        "muted": viewer.is_authenticated and not own and selectors.has_muted(viewer, person),
        "muted_people": selectors.muted_people(viewer) if own else [],
        "off": own and selectors.choices_of(viewer).off,
        "next": context["request"].get_full_path(),
        "csrf_token": context.get("csrf_token"),
    }
