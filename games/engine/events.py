"""What happened: every action returns a list of these, for the site to animate and log."""

from __future__ import annotations

from typing import Any, NamedTuple

from .cards import Card


class PassMade(NamedTuple):
    """A seat chose its three cards (which, nobody else learns)."""

    seat: int


class PassesExchanged(NamedTuple):
    direction: str


class CardPlayed(NamedTuple):
    seat: int
    card: Card


class HeartsBroken(NamedTuple):
    seat: int


class TrickTaken(NamedTuple):
    seat: int
    cards: tuple[Card, ...]
    points: int


class KittyTaken(NamedTuple):
    seat: int


class MoonShot(NamedTuple):
    """``sun`` when the shooter took every trick as well."""

    seat: int
    sun: bool


class MoonChoiceAsked(NamedTuple):
    seat: int


class HandScored(NamedTuple):
    """Points each seat adds to its total for the hand (the moon and jack included)."""

    number: int
    points: tuple[int, ...]


class HandDealt(NamedTuple):
    number: int
    direction: str


class MatchEnded(NamedTuple):
    reason: str
    places: tuple[int, ...]


Event = (
    PassMade
    | PassesExchanged
    | CardPlayed
    | HeartsBroken
    | TrickTaken
    | KittyTaken
    | MoonShot
    | MoonChoiceAsked
    | HandScored
    | HandDealt
    | MatchEnded
)


def event_to_json(event: Event) -> dict[str, Any]:
    """``{"type": "card_played", "seat": 1, "card": "QS"}`` and the like."""
    data: dict[str, Any] = {"type": _snake(type(event).__name__)}
    for key, value in event._asdict().items():
        if isinstance(value, Card):
            value = str(value)
        elif isinstance(value, tuple) and value and isinstance(value[0], Card):
            value = [str(card) for card in value]
        elif isinstance(value, tuple):
            value = list(value)
        data[key] = value
    return data


def _snake(name: str) -> str:
    return "".join("_" + ch.lower() if ch.isupper() else ch for ch in name).lstrip("_")
