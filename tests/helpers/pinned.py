"""The bots' decisions pinned on fixed positions: tests/bots/pinned_decisions.json holds matches
played by the heuristic bot (their records: seed and moves) and, for positions in them (a
match's first moves, and the seat to move), the choice each level made there when the file was
written. The search's speed work must leave every one of them as it was.

    python -m tests.helpers.pinned    # writes the file again, from the bots as they are now

Each decision is a fresh bot of its level with seed 1 and no wall-clock guard, so that only
the work bounds it: the same choice on a loaded machine as on a quiet one.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from games.bots import SearchBot, make_bot
from games.engine import PRESETS, Match, Phase, Rules, ShortPack, format_cards, seat_view

FILE = Path(__file__).resolve().parent.parent / "bots" / "pinned_decisions.json"
TABLES = {
    "standard": PRESETS["standard"].rules,
    "club": PRESETS["club"].rules,  # the shooter chooses how the moon scores
    "three, kitty and J♦": Rules(players=3, short_pack=ShortPack.KITTY, jack_of_diamonds=True),
}
LEVELS = ("easy", "normal")
PLAYS_A_HAND = 10  # positions kept of each hand's plays, spread over it, besides every pass
BOT_SEED = 1


def played_match(table: str) -> Match:
    """A whole pass cycle of hands played by the heuristic bot in every seat."""
    rules = TABLES[table]
    match = Match(rules, hashlib.sha256(f"pinned {table}".encode()).digest())
    bot = make_bot("heuristic")
    for _ in range(len(rules.pass_cycle)):
        hand = match.hand
        for seat in range(match.players):
            if hand.phase is Phase.PASSING:
                match.pass_cards(seat, bot.choose_pass(seat_view(match, seat)))
        while hand.phase is Phase.PLAYING:
            match.play(hand.turn, bot.choose_play(seat_view(match, hand.turn)))
        if hand.phase is Phase.MOON_CHOICE:
            match.choose_moon(hand.turn, bot.choose_moon(seat_view(match, hand.turn)))
        if match.is_over:
            break
    return match


def positions(record: dict[str, Any]) -> list[tuple[int, int, str]]:
    """(moves before, seat, pass or play) of every pass of the match and some plays of each
    hand where the seat had a choice."""
    match = Match.from_json({**record, "moves": []})
    found: list[tuple[int, int, str]] = []
    plays: list[tuple[int, int, str]] = []
    for done, move in enumerate(Match.from_json(record).moves):
        view = seat_view(match, move.seat)
        if move.kind == "pass":
            found.append((done, move.seat, "pass"))
        elif move.kind == "play" and len(view.legal) > 1:
            plays.append((done, move.seat, "play"))
        number = match.hand.number
        match.apply(move)
        if match.is_over or match.hand.number != number:  # the hand ended
            step = max(1, len(plays) // PLAYS_A_HAND)
            found += plays[::step][:PLAYS_A_HAND]
            plays = []
    return found


def decide(level: str, record: dict[str, Any], moves: int, seat: int, kind: str) -> str:
    match = Match.from_json({**record, "moves": record["moves"][:moves]})
    view = seat_view(match, seat)
    searcher = make_bot(level, BOT_SEED)
    assert isinstance(searcher, SearchBot), f"{level} is not a search bot"
    bot = replace(searcher, seconds=None)
    if kind == "pass":
        return format_cards(sorted(bot.choose_pass(view), key=lambda card: card.index))
    return str(bot.choose_play(view))


def write() -> None:
    matches = []
    for table in TABLES:
        record = played_match(table).to_json()
        chosen = {
            level: [decide(level, record, *position) for position in positions(record)]
            for level in LEVELS
        }
        matches.append({"table": table, "record": record, "choices": chosen})
    FILE.write_text(json.dumps(matches, separators=(",", ":"), ensure_ascii=False) + "\n")


if __name__ == "__main__":
    write()
