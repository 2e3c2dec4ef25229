"""The words of the history: a game's outcome and its rules, and each step of its replay."""

from __future__ import annotations

from games.engine import EARLY_ENDS, Hand, Move

from .models import Game, GamePlayer
from .words import ENDED_EARLY


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
        text += f"; {name} {early_end_words(result['reason'])}"
    return text


def early_end_words(reason: str) -> str:
    return ENDED_EARLY[reason]


# The replay in words -----------------------------------------------------------------------


def step_words(hand: Hand, made: int, names: list[str], resign: Move | None) -> str:
    """A replay's step in words: hand ``hand`` with its first ``made`` moves made."""
    if resign is not None:
        return (
            f"{names[resign.seat]} {early_end_words(resign.choice or 'resigned')}: the game ends."
        )
    if made == 0:
        dealer = names[hand.dealer]
        if hand.pass_offset == 0:
            return f"Hand {hand.number}, dealt by {dealer}: a hold hand, no passing."
        return (
            f"Hand {hand.number}, dealt by {dealer}: everyone passes three cards {hand.direction}."
        )
    move = hand.moves[made - 1]
    words = _move_words(hand, move, names)
    if move.timeout:
        words += " (the table moved for them: time ran out)"
    words += "."
    if move.kind == "pass" and made == hand.players:
        words += " The passes change hands."
    if move.kind == "play" and not hand.trick:
        trick = hand.tricks[-1]
        words += f" {names[trick.winner]} takes the trick"
        words += (
            f" ({trick.points} point{'s' if trick.points != 1 else ''})." if trick.points else "."
        )
    if made == len(hand.moves) and hand.points is not None:
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
