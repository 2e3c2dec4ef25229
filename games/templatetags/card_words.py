"""Cards in the page's words: ``{{ card|card_name }}`` names an engine card as a screen reader
says it ("dame de pique" on a French page), never the engine's English ``Card.name``."""

from __future__ import annotations

from django import template

from games import words
from games.engine import Card

register = template.Library()


@register.filter
def card_name(card: Card) -> str:
    return words.card_name(card)
