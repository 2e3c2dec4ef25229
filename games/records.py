"""The downloadable record of a finished game (the format is described in docs/records.md).

The record is public only once the game is over: it holds the seed and every card of every
hand, passes included.
"""

from __future__ import annotations

from typing import Any

from games.engine import Hand, Match, MoveKind, cards_of, format_cards

from .models import Game

FORMAT = "hearts-record-v1"


def game_record(game: Game, match: Match | None = None) -> dict[str, Any]:
    """The whole record of ``game``, which must be over; ``match`` saves a replay if known."""
    if not game.is_over:
        raise ValueError("A game's record is published only once the game is over")
    match = match or game.match()
    players = list(game.players.select_related("user"))
    return {
        "format": FORMAT,
        "game": game.pk,
        "table": game.table_id,
        "number": game.number,
        "started_at": game.started_at.isoformat(),
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        "rated": game.rated,
        "players": [{"seat": p.seat, "name": p.name, "bot": p.is_bot} for p in players],
        **match_record(match),
        "result": _result(game, match),
    }


def match_record(match: Match) -> dict[str, Any]:
    """The part of a record the engine alone knows: rules, seed, fingerprint, added seeds,
    every move, every hand dealt and the totals."""
    log = match.to_json()
    return {
        "rules": log["rules"],
        "seed": log["seed"],
        "fingerprint": match.fingerprint,
        "added_seeds": log["added_seeds"],
        "moves": log["moves"],
        "hands": [hand_record(hand) for hand in played_hands(match)],
        "totals": list(match.totals),
    }


def played_hands(match: Match) -> list[Hand]:
    """Every hand dealt in the match: the finished ones, then the one cut short, if any."""
    hands = list(match.hands)
    if not hands or match.hand is not hands[-1]:
        hands.append(match.hand)
    return hands


def hand_record(hand: Hand) -> dict[str, Any]:
    passes = {
        move.seat: format_cards(move.cards) for move in hand.moves if move.kind == MoveKind.PASS
    }
    return {
        "number": hand.number,
        "dealer": hand.dealer,
        "dealt": [format_cards(cards_of(mask)) for mask in hand.dealt],
        "kitty": format_cards(cards_of(hand.kitty)),
        "passes": [passes.get(seat, "") for seat in range(hand.players)],
        "points": list(hand.points) if hand.points is not None else None,
    }


def _result(game: Game, match: Match) -> dict[str, Any]:
    result = match.result
    if result is None:  # cannot happen for a game that is over; keep the stored result
        stored = game.result or {}
        return {
            "reason": stored.get("reason", game.status),
            "places": stored.get("places", []),
            "totals": stored.get("totals", list(match.totals)),
            "forfeited": stored.get("forfeited"),
        }
    return result.to_json()
