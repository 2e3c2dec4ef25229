"""The rated queue's join form, wherever a page offers it (the lobby, the queue page)."""

from __future__ import annotations

from typing import Any

from django import template

from pairing import services

register = template.Library()


@register.inclusion_tag("pairing/_join_form.html", takes_context=True)
def join_queue_form(context: template.Context, chosen: str = "") -> dict[str, Any]:
    return {
        "csrf_token": context.get("csrf_token"),
        "choices": services.QUEUES,
        "chosen": chosen or services.DEFAULT_QUEUE.key,
    }
