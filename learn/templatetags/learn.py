"""Links into the Learn section from other pages: a table's own rules, and the rule behind a
refused card; and how the drills write a name inside a sentence."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django import template

from games.engine import Rules
from learn.reasons import anchor_for
from learn.rules_pages import rules_url

register = template.Library()


@register.filter
def learn_rules_url(rules: Rules | Mapping[str, Any]) -> str:
    """``{{ table.rules|learn_rules_url }}``: the page of that table's rules and options."""
    return rules_url(rules)


@register.filter
def in_sentence(words: str) -> str:
    """``{{ seat|in_sentence }}``: a name that starts a sentence ("The player on your left"),
    as it reads inside one: its first letter small."""
    text = str(words)
    return text[:1].lower() + text[1:]


@register.filter
def refusals(cards: Iterable[Any]) -> list[tuple[str, str]]:
    """The different reasons among a hand's refused cards (each with a ``reason``), with the
    anchor of the rule behind each, in the order they first appear."""
    seen: dict[str, str] = {}
    for card in cards:
        reason = getattr(card, "reason", None) or (
            card.get("reason") if isinstance(card, Mapping) else None
        )
        anchor = anchor_for(reason) if reason else None
        if reason and anchor and reason not in seen:
            seen[reason] = anchor
    return list(seen.items())
