"""The verifiable deal: every hand's cards follow from the game's secret seed.

The algorithm is specified in ``docs/fairness.md``; in short, an HMAC-SHA256 stream keyed by
the seed drives a Fisher-Yates shuffle of the rules' pack, drawing each index by rejection
sampling so that no arrangement is more likely than another. The ``random`` module is never
used here.

>>> seed = bytes(range(32))
>>> fingerprint(seed)[:16]
'630dcd2966c43366'
>>> deal = deal_hand(Rules(), seed, 1)
>>> len(deal.hands), [len(hand) for hand in deal.hands], deal.kitty
(4, [13, 13, 13, 13], ())
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, Final, NamedTuple

from .cards import Card
from .errors import HeartsError
from .rules import Rules

SEED_BYTES: Final = 32
ALGORITHM: Final = "hearts-deal-v1"


class Deal(NamedTuple):
    """The cards of one hand: ``hands[seat]`` in the order dealt, and the kitty."""

    hands: tuple[tuple[Card, ...], ...]
    kitty: tuple[Card, ...]


def new_seed() -> bytes:
    """A fresh secret seed from the operating system's secure random source."""
    return secrets.token_bytes(SEED_BYTES)


def fingerprint(seed: bytes) -> str:
    """The SHA-256 of the seed in hex: published before the first deal."""
    return hashlib.sha256(seed).hexdigest()


def check_seed(seed: bytes) -> bytes:
    if not isinstance(seed, bytes) or len(seed) != SEED_BYTES:
        raise HeartsError(f"A seed is {SEED_BYTES} bytes")
    return seed


def deal_message(hand_number: int, deck: Sequence[Card], added_seeds: Sequence[str] = ()) -> bytes:
    """The text that, with the seed as key, fixes one hand's shuffle (see docs/fairness.md)."""
    return _message(hand_number, _deck_line(tuple(deck)), _added_lines(tuple(added_seeds)))


def _message(hand_number: int, deck_line: str, added_lines: str) -> bytes:
    return f"{ALGORITHM}\nhand {hand_number}\n{deck_line}\n{added_lines}".encode()


@lru_cache(maxsize=64)
def _deck_line(deck: tuple[Card, ...]) -> str:
    return "cards " + " ".join(str(card) for card in deck)


@lru_cache(maxsize=64)
def _rules_deck_line(rules: Rules) -> str:
    return _deck_line(rules.deck)  # keyed by the rules, whose hash is cached: cheaper


@lru_cache(maxsize=256)
def _added_lines(added_seeds: tuple[str, ...]) -> str:
    return "".join(f"added {hashlib.sha256(s.encode()).hexdigest()}\n" for s in added_seeds)


# For each bound, bytes at or above the limit are rejected: they would favour small indexes.
_LIMITS: Final = tuple(256 - 256 % bound if bound else 0 for bound in range(257))


def shuffle(seed: bytes, message: bytes, cards: Sequence[Card]) -> list[Card]:
    """Fisher-Yates from the last position down, each index drawn without modulo bias.

    The byte stream is HMAC-SHA256(seed, message || block number as 4 bytes), blocks 0, 1, ...
    """
    deck = list(cards)
    _shuffle_in_place(check_seed(seed), message, deck)
    return deck


def _shuffle_in_place(seed: bytes, message: bytes, deck: list[Any]) -> None:
    # Two blocks nearly always suffice (51 draws plus a few rejections for a full pack);
    # reading past the end fetches the next block.
    stream = _block(seed, message, 0) + _block(seed, message, 1)
    pos = 0
    for i in range(len(deck) - 1, 0, -1):
        limit = _LIMITS[i + 1]
        while True:
            try:
                byte = stream[pos]
            except IndexError:
                stream += _block(seed, message, len(stream) // 32)
                continue
            pos += 1
            if byte < limit:
                break
        j = byte % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]


def _block(seed: bytes, message: bytes, number: int) -> bytes:
    return hmac.digest(seed, message + number.to_bytes(4, "big"), "sha256")


def deal_hand(rules: Rules, seed: bytes, hand_number: int, added_seeds: Sequence[str] = ()) -> Deal:
    """Shuffle the pack for ``hand_number`` (1 for the first hand) and deal it.

    Cards go one at a time to the dealer's left and round; what is left over is the kitty.
    """
    order = _dealt_order(rules, seed, hand_number, added_seeds)
    n, dealt = rules.players, rules.players * rules.hand_size
    first = rules.dealer(hand_number) + 1
    hands: list[list[Card]] = [[] for _ in range(n)]
    for position in range(dealt):
        hands[(first + position) % n].append(order[position])
    return Deal(tuple(tuple(hand) for hand in hands), tuple(order[dealt:]))


def deal_masks(
    rules: Rules, seed: bytes, hand_number: int, added_seeds: Sequence[str] = ()
) -> tuple[list[int], int]:
    """The same deal as bit masks of card indexes: (one mask per seat, the kitty's mask)."""
    if hand_number < 1:
        raise HeartsError("Hands are numbered from 1")
    bits = [1 << card.index for card in rules.deck]
    message = _message(hand_number, _rules_deck_line(rules), _added_lines(tuple(added_seeds)))
    _shuffle_in_place(check_seed(seed), message, bits)
    n, dealt = rules.players, rules.players * rules.hand_size
    first = rules.dealer(hand_number) + 1
    masks = [0] * n
    for position in range(n):
        masks[(first + position) % n] = sum(bits[position:dealt:n])
    return masks, sum(bits[dealt:])


def _dealt_order(
    rules: Rules, seed: bytes, hand_number: int, added_seeds: Sequence[str]
) -> list[Card]:
    if hand_number < 1:
        raise HeartsError("Hands are numbered from 1")
    return shuffle(seed, deal_message(hand_number, rules.deck, added_seeds), rules.deck)
