#!/usr/bin/env python3
"""Check a Hearts game record against its seed, with nothing but Python 3's standard library.

    python3 check_record.py hearts-game-12.json

The record is the JSON file a finished game's page offers for download. This script re-deals
every hand from the published seed with the algorithm ``hearts-deal-v1`` (described in full in
the site's docs/fairness.md), and checks

- that the SHA-256 of the seed is the fingerprint shown before the first card;
- every seat's dealt cards and the kitty of every hand;
- every pass: three cards the passer was dealt, the same as the move log says;
- that every card played was in the player's hand after the passes, and played once.

It prints one line per hand and a verdict; the exit status is 0 when everything matches and 1
otherwise (2 when the file cannot be read as a record). It shares no code with the site.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import sys
from typing import Any

ALGORITHM = "hearts-deal-v1"
RANKS = "23456789TJQKA"
SUITS = "CDHS"
CANONICAL = [rank + suit for suit in SUITS for rank in RANKS]
# The cards taken out and the pass cycles below copy the engine's tables (games/engine/rules.py)
# on purpose: this checker stands on its own, so that a record can be checked without trusting
# (or even having) the site's code. Change them only with the engine and docs/fairness.md.
REMOVED = {3: ["2D"], 4: [], 5: ["2C", "2D"], 6: ["2C", "2D", "3C", "2S"]}
# Pass offsets (to seat + offset) by hand, cycling; 0 is a hand without a pass.
PASS_CYCLES = {3: [1, 2, 0], 4: [1, 3, 2, 0], 5: [1, 4, 2, 3, 0], 6: [1, 5, 2, 4, 3, 0]}


class RecordProblem(Exception):
    """The file is not a record this script can read."""


# The deal (docs/fairness.md, sections 4 to 9) ------------------------------------------------


def pack(players: int, kitty: bool) -> list[str]:
    removed = [] if kitty else REMOVED[players]
    return [card for card in CANONICAL if card not in removed]


def message(hand: int, cards: list[str], added: list[str]) -> bytes:
    lines = [ALGORITHM, f"hand {hand}", "cards " + " ".join(cards)]
    lines += ["added " + hashlib.sha256(text.encode("utf-8")).hexdigest() for text in added]
    return "".join(line + "\n" for line in lines).encode("ascii")


class ByteStream:
    """HMAC-SHA256(seed, message || block number, 4 bytes big-endian), block after block."""

    def __init__(self, seed: bytes, msg: bytes) -> None:
        self.seed, self.msg = seed, msg
        self.buffer = b""
        self.position = 0

    def next_byte(self) -> int:
        if self.position == len(self.buffer):
            block = (len(self.buffer) // 32).to_bytes(4, "big")
            self.buffer += hmac.new(self.seed, self.msg + block, hashlib.sha256).digest()
        self.position += 1
        return self.buffer[self.position - 1]

    def below(self, bound: int) -> int:
        limit = 256 - 256 % bound
        while True:
            byte = self.next_byte()
            if byte < limit:
                return byte % bound


def deal(
    seed: bytes, players: int, hand: int, kitty: bool, added: list[str]
) -> tuple[int, list[list[str]], list[str]]:
    """The dealer, each seat's cards in the order dealt, and the kitty."""
    cards = pack(players, kitty)
    stream = ByteStream(seed, message(hand, cards, added))
    for i in range(len(cards) - 1, 0, -1):
        j = stream.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    dealt = players * (len(cards) // players)
    dealer = (hand - 1) % players
    hands: list[list[str]] = [[] for _ in range(players)]
    for k in range(dealt):
        hands[(dealer + 1 + k) % players].append(cards[k])
    return dealer, hands, cards[dealt:]


# The record ----------------------------------------------------------------------------------


def card_list(text: Any, what: str) -> list[str]:
    if not isinstance(text, str):
        raise RecordProblem(f"{what} is not a string of cards")
    cards = text.split()
    for card in cards:
        if card not in CANONICAL:
            raise RecordProblem(f"{what} holds {card!r}, which is not a card")
    return cards


def in_pack_order(cards: list[str]) -> str:
    return " ".join(sorted(cards, key=CANONICAL.index))


def moves_by_hand(moves: list[dict[str, Any]], plays_per_hand: int) -> list[list[dict[str, Any]]]:
    """Split the move log into hands: a hand ends with its last card, or a moon choice after
    it; the next pass or play belongs to the next hand."""
    hands: list[list[dict[str, Any]]] = [[]]
    plays = 0
    for move in moves:
        if plays == plays_per_hand and move.get("kind") in ("pass", "play"):
            hands.append([])
            plays = 0
        if move.get("kind") == "play":
            plays += 1
        hands[-1].append(move)
    return hands


class Checker:
    def __init__(self, record: dict[str, Any]) -> None:
        try:
            rules = record["rules"]
            self.players = int(rules["players"])
            self.kitty = rules.get("short_pack", "remove") == "kitty"
            self.seed = bytes.fromhex(record["seed"])
            self.added = list(record.get("added_seeds") or [])
            self.hands = list(record["hands"])
            self.moves = list(record.get("moves") or [])
            self.fingerprint = str(record["fingerprint"])
            self.names = {p["seat"]: p["name"] for p in record.get("players", [])}
        except (KeyError, TypeError, ValueError) as error:
            raise RecordProblem(f"not a game record ({error})") from error
        if self.players not in REMOVED:
            raise RecordProblem(f"a table of {self.players} players is not Hearts")
        if len(self.seed) != 32:
            raise RecordProblem("the seed is not 32 bytes")
        if self.added and len(self.added) != self.players:
            raise RecordProblem("added seeds must be one per seat")
        self.size = len(pack(self.players, self.kitty)) // self.players

    def seat(self, seat: int) -> str:
        """Seats are numbered from 1 in words, as on the site: seat 0 of the record is seat 1."""
        name = self.names.get(seat)
        return f"seat {seat + 1} ({name})" if name else f"seat {seat + 1}"

    def check_fingerprint(self) -> list[str]:
        actual = hashlib.sha256(self.seed).hexdigest()
        if actual == self.fingerprint.lower():
            return []
        return [f"the seed's SHA-256 is {actual}, not the fingerprint {self.fingerprint}"]

    def check_hand(
        self, index: int, hand: dict[str, Any], moves: list[dict[str, Any]]
    ) -> list[str]:
        problems: list[str] = []
        number = index + 1
        if hand.get("number") != number:
            problems.append(f"is numbered {hand.get('number')!r}, expected {number}")
        dealer, dealt, kitty = deal(self.seed, self.players, number, self.kitty, self.added)
        named = hand.get("dealer", dealer)
        if named != dealer:
            who = self.seat(named) if isinstance(named, int) else repr(named)
            problems.append(f"names {who} as dealer; the seed deals from {self.seat(dealer)}")
        recorded = hand.get("dealt") or []
        if len(recorded) != self.players:
            return [*problems, f"lists {len(recorded)} seats' cards, not {self.players}"]
        for seat in range(self.players):
            cards = card_list(recorded[seat], f"hand {number} seat {seat}")
            if in_pack_order(cards) != in_pack_order(dealt[seat]):
                wrong = in_pack_order([c for c in cards if c not in dealt[seat]]) or "nothing"
                missing = in_pack_order([c for c in dealt[seat] if c not in cards]) or "nothing"
                problems.append(
                    f"{self.seat(seat)} was dealt {missing} by the seed, "
                    f"but the record shows {wrong} instead"
                )
        recorded_kitty = card_list(hand.get("kitty", ""), f"hand {number} kitty")
        if in_pack_order(recorded_kitty) != in_pack_order(kitty):
            problems.append(
                f"the kitty is {in_pack_order(recorded_kitty) or 'empty'} in the record, "
                f"{in_pack_order(kitty) or 'empty'} by the seed"
            )
        return problems + self.check_play(number, hand, dealt, moves)

    def check_play(
        self, number: int, hand: dict[str, Any], dealt: list[list[str]], moves: list[dict[str, Any]]
    ) -> list[str]:
        problems: list[str] = []
        n = self.players
        offset = PASS_CYCLES[n][(number - 1) % len(PASS_CYCLES[n])]
        listed = hand.get("passes") or [""] * n
        logged = {m.get("seat"): m.get("cards", "") for m in moves if m.get("kind") == "pass"}
        passes: list[list[str]] = []
        for seat in range(n):
            cards = card_list(listed[seat] if seat < len(listed) else "", "a pass")
            if in_pack_order(cards) != in_pack_order(card_list(logged.get(seat, ""), "a pass")):
                problems.append(f"{self.seat(seat)}'s pass differs from the move log")
            if cards and offset == 0:
                problems.append(f"{self.seat(seat)} passed on a hand without a pass")
            if cards and (len(cards) != 3 or len(set(cards)) != 3):
                problems.append(f"{self.seat(seat)} passed {len(cards)} cards, not 3")
            not_held = [c for c in cards if c not in dealt[seat]]
            if not_held:
                problems.append(
                    f"{self.seat(seat)} passed {in_pack_order(not_held)}, not dealt to them"
                )
            passes.append(cards)
        held = [set(cards) for cards in dealt]
        if offset and all(passes):
            for seat in range(n):
                held[seat] -= set(passes[seat])
                held[seat] |= set(passes[(seat - offset) % n])
        for move in moves:
            if move.get("kind") != "play":
                continue
            player = move.get("seat")
            (card,) = card_list(move.get("cards", ""), "a play")[:1] or [""]
            if not isinstance(player, int) or not 0 <= player < n:
                problems.append(f"a card is played by seat {player!r}, who is not at the table")
            elif card not in held[player]:
                problems.append(f"{self.seat(player)} played {card}, not in their hand then")
            else:
                held[player].discard(card)
        return problems

    def run(self, out: Any = sys.stdout) -> bool:
        ok = True
        fingerprint = self.check_fingerprint()
        if fingerprint:
            ok = False
            print(f"Fingerprint: MISMATCH: {fingerprint[0]}", file=out)
        else:
            print(f"Fingerprint: matches the seed ({self.fingerprint})", file=out)
        plays_per_hand = self.players * self.size
        segments = moves_by_hand(self.moves, plays_per_hand)
        if len(segments) > len(self.hands):
            ok = False
            print(f"Moves: the log runs into {len(segments)} hands; the record lists "
                  f"{len(self.hands)}", file=out)  # fmt: skip
        for index, hand in enumerate(self.hands):
            moves = segments[index] if index < len(segments) else []
            try:
                problems = self.check_hand(index, hand, moves)
            except RecordProblem as error:
                problems = [str(error)]
            except (AttributeError, TypeError, KeyError, IndexError, ValueError) as error:
                problems = [f"cannot be read ({type(error).__name__}: {error})"]
            if problems:
                ok = False
                print(f"Hand {index + 1}: MISMATCH: " + "; ".join(problems), file=out)
            else:
                print(f"Hand {index + 1}: dealt cards, kitty, passes and plays match", file=out)
        count = len(self.hands)
        if ok:
            verdict = "The one hand matches" if count == 1 else f"All {count} hands match"
            print(f"{verdict} the seed.", file=out)
        else:
            print("MISMATCH: this record does not follow from its seed.", file=out)
        return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Check a Hearts game record against its seed.")
    parser.add_argument("record", help="the record's JSON file, as downloaded from the game page")
    args = parser.parse_args(argv)
    try:
        with open(args.record, encoding="utf-8") as file:
            record = json.load(file)
        if not isinstance(record, dict):
            raise RecordProblem("not a game record (not a JSON object)")
        checker = Checker(record)
    except (OSError, json.JSONDecodeError, RecordProblem) as error:
        print(f"Cannot check {args.record}: {error}", file=sys.stderr)
        return 2
    return 0 if checker.run() else 1


if __name__ == "__main__":
    sys.exit(main())
