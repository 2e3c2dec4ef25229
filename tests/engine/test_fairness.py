"""The deal is the one docs/fairness.md describes, and it is uniform.

The vectors are read from the document itself, so the page and the code cannot drift apart.
Besides the engine, two re-implementations must reproduce them: a small one written here from
the document alone (standard library only, nothing from ``games.engine.deal``) and the sketch
printed in the document.
"""

from __future__ import annotations

import ast
import hashlib
import hmac
import re
import struct
from collections.abc import Callable, Sequence
from pathlib import Path
from statistics import NormalDist
from typing import Any

import pytest

from games.engine import ALL_CARDS, Card, HeartsError, Match, Rules, ShortPack, mask_of
from games.engine.deal import (
    deal_hand,
    deal_masks,
    deal_message,
    fingerprint,
    new_seed,
    shuffle,
)
from tests.helpers.vectors import DOC, VECTORS, Vector, fenced, fields_of

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "games" / "engine"
SEED = bytes(range(32))


def _names(cards: Sequence[Card]) -> tuple[str, ...]:
    return tuple(str(card) for card in cards)


# An independent re-implementation, written from the document --------------------------------


class _Stream:
    """The HMAC-SHA256 byte stream of section 6, read one byte at a time."""

    def __init__(self, seed: bytes, message: bytes) -> None:
        self.seed, self.message = seed, message
        self.buffer = b""
        self.read = 0

    def byte(self) -> int:
        if self.read == len(self.buffer):
            block = struct.pack(">I", len(self.buffer) // 32)
            self.buffer += hmac.new(self.seed, self.message + block, hashlib.sha256).digest()
        self.read += 1
        return self.buffer[self.read - 1]

    def below(self, bound: int) -> int:
        """Section 7: discard bytes at or above the largest multiple of ``bound``."""
        limit = 256 - 256 % bound
        while True:
            value = self.byte()
            if value < limit:
                return value % bound

    def below_with_bias(self, bound: int) -> int:
        """The mistake section 7 avoids: small numbers come up more often."""
        return self.byte() % bound


def _rerun_pack(players: int, short_pack: str) -> list[str]:
    removed = {3: "2D", 4: "", 5: "2C 2D", 6: "2C 2D 3C 2S"}[players].split()
    if short_pack == "kitty":
        removed = []
    return [
        rank + suit for suit in "CDHS" for rank in "23456789TJQKA" if rank + suit not in removed
    ]


def _rerun_message(hand: int, pack: Sequence[str], added: Sequence[str]) -> bytes:
    text = f"hearts-deal-v1\nhand {hand}\ncards {' '.join(pack)}\n"
    for seed in added:
        text += f"added {hashlib.sha256(seed.encode('utf-8')).hexdigest()}\n"
    return text.encode("ascii")


def _fisher_yates(items: list[Any], draw: Callable[[int], int]) -> list[Any]:
    for i in reversed(range(1, len(items))):
        j = draw(i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def _naive_shuffle(items: list[Any], draw: Callable[[int], int]) -> list[Any]:
    """Swap every position with any position: n**n equally likely paths onto n! orders."""
    for i in range(len(items)):
        j = draw(len(items))
        items[i], items[j] = items[j], items[i]
    return items


def _rerun_deal(vector: Vector) -> tuple[list[str], list[list[str]], list[str]]:
    pack = _rerun_pack(vector.players, vector.short_pack)
    stream = _Stream(vector.seed, _rerun_message(vector.hand, pack, vector.added))
    shuffled = _fisher_yates(list(pack), stream.below)
    n = vector.players
    dealt = len(pack) // n * n
    dealer = (vector.hand - 1) % n
    hands: list[list[str]] = [[] for _ in range(n)]
    for position, card in enumerate(shuffled[:dealt]):
        hands[(dealer + 1 + position) % n].append(card)
    return shuffled, hands, shuffled[dealt:]


# The document ---------------------------------------------------------------------------------


def test_the_document_has_the_promised_vectors() -> None:
    inputs = {(v.players, v.short_pack, v.hand, v.added) for v in VECTORS}
    assert {
        (4, "remove", 1, ()),
        (4, "remove", 2, ()),
        (3, "remove", 1, ()),
        (3, "remove", 2, ()),
        (4, "remove", 1, ("alice", "", "carol", "dave")),
    } <= inputs
    assert all(vector.seed == SEED for vector in VECTORS)


def test_the_fingerprint_in_the_document_is_the_sha256_of_the_seed() -> None:
    (body,) = fenced("deal-seed")
    fields = fields_of(body)
    seed = bytes.fromhex(fields["seed"])
    assert seed == SEED
    assert fields["fingerprint"] == hashlib.sha256(seed).hexdigest() == fingerprint(seed)


def test_the_message_in_the_document_is_the_one_the_engine_signs() -> None:
    (body,) = fenced("deal-message")
    message = body.encode("ascii")  # the block keeps each line's final line feed
    assert message == deal_message(1, Rules().deck)
    assert message == _rerun_message(1, _rerun_pack(4, "remove"), ())
    assert f"these {len(message)} bytes" in DOC
    assert hashlib.sha256(message).hexdigest() in DOC


def test_the_stream_blocks_in_the_document_are_hmacs_of_the_message() -> None:
    (body,) = fenced("deal-stream")
    blocks = fields_of(body)
    message = deal_message(1, Rules().deck)
    stream = _Stream(SEED, message)
    for number in range(2):
        expected = hmac.digest(SEED, message + number.to_bytes(4, "big"), "sha256")
        assert blocks[f"block {number}"] == expected.hex()
        assert bytes(stream.byte() for _ in range(32)) == expected


def test_the_table_of_first_draws_in_the_document_is_right() -> None:
    rows = re.findall(
        r"^\| (\d+) \| (\d+) \| (\d+) \| ([0-9a-f ]+) \| (\d+) \| (\w\w) ↔ (\w\w) \|$",
        DOC,
        flags=re.MULTILINE,
    )
    assert len(rows) >= 5
    pack = _rerun_pack(4, "remove")
    stream = _Stream(SEED, _rerun_message(1, pack, ()))
    for i, bound, limit, read, j, card_i, card_j in rows:
        start = stream.read
        assert int(i) + 1 == int(bound)
        assert int(limit) == 256 - 256 % int(bound)
        assert stream.below(int(bound)) == int(j)
        assert stream.buffer[start : stream.read].hex(" ") == read
        assert (pack[int(i)], pack[int(j)]) == (card_i, card_j)
        pack[int(i)], pack[int(j)] = pack[int(j)], pack[int(i)]


# The vectors ----------------------------------------------------------------------------------


@pytest.mark.parametrize("vector", VECTORS, ids=lambda vector: vector.name)
def test_the_engine_deals_the_vector(vector: Vector) -> None:
    rules = vector.rules
    deal = deal_hand(rules, vector.seed, vector.hand, vector.added)
    assert tuple(_names(hand) for hand in deal.hands) == vector.hands
    assert _names(deal.kitty) == vector.kitty
    assert rules.dealer(vector.hand) == vector.dealer
    message = deal_message(vector.hand, rules.deck, vector.added)
    assert _names(shuffle(vector.seed, message, rules.deck)) == vector.shuffled
    masks, kitty = deal_masks(rules, vector.seed, vector.hand, vector.added)
    assert masks == [mask_of(hand) for hand in deal.hands]
    assert kitty == mask_of(deal.kitty)


@pytest.mark.parametrize("vector", VECTORS, ids=lambda vector: vector.name)
def test_the_independent_rerun_deals_the_vector(vector: Vector) -> None:
    shuffled, hands, kitty = _rerun_deal(vector)
    assert tuple(shuffled) == vector.shuffled
    assert tuple(tuple(hand) for hand in hands) == vector.hands
    assert tuple(kitty) == vector.kitty


def test_the_sketch_in_the_document_deals_every_vector() -> None:
    (source,) = fenced("python")
    sketch: dict[str, Any] = {}
    exec(compile(source, "docs/fairness.md", "exec"), sketch)
    for vector in VECTORS:
        kitty = vector.short_pack == "kitty"
        hands, left = sketch["deal"](vector.seed, vector.players, vector.hand, kitty, vector.added)
        assert (tuple(map(tuple, hands)), tuple(left)) == (vector.hands, vector.kitty)


def test_a_match_deals_its_first_hand_as_the_document_says() -> None:
    for vector in VECTORS:
        if vector.hand == 1:
            match = Match(vector.rules, vector.seed, vector.added)
            dealt = tuple(_names(match.hand.holding(seat)) for seat in range(vector.players))
            assert dealt == tuple(tuple(sorted(h, key=Card.parse)) for h in vector.hands)
            assert match.fingerprint == fingerprint(vector.seed)


# Properties of the deal -----------------------------------------------------------------------


def test_the_fingerprint_is_the_sha256_of_the_seed_bytes() -> None:
    for seed in (SEED, bytes(32), b"\xff" * 32, new_seed()):
        assert fingerprint(seed) == hashlib.sha256(seed).hexdigest()


def test_a_new_seed_is_32_fresh_bytes() -> None:
    seeds = {new_seed() for _ in range(8)}
    assert len(seeds) == 8
    assert all(isinstance(seed, bytes) and len(seed) == 32 for seed in seeds)


def test_a_seed_must_be_32_bytes() -> None:
    for seed in (bytes(31), bytes(33), bytearray(32)):
        with pytest.raises(HeartsError):
            deal_hand(Rules(), seed, 1)  # type: ignore[arg-type]


def test_the_same_inputs_give_the_same_deal() -> None:
    added = ("alice", "bob", "", "dave", "éve")
    first = deal_hand(Rules(players=5, short_pack=ShortPack.KITTY), SEED, 3, added)
    again = deal_hand(Rules(players=5, short_pack=ShortPack("kitty")), bytes(SEED), 3, list(added))
    assert again == first


def test_every_hand_of_a_game_has_its_own_deal() -> None:
    for rules in (Rules(), Rules(players=3), Rules(players=6, short_pack=ShortPack.KITTY)):
        deals = {deal_hand(rules, SEED, number).hands for number in range(1, 41)}
        assert len(deals) == 40


def test_added_seeds_change_the_deal() -> None:
    rules = Rules()
    deals = {
        deal_hand(rules, SEED, 1, added).hands
        for added in (
            (),
            ("", "", "", ""),
            ("alice", "", "carol", "dave"),
            ("alice", "", "carol", "dave "),
            ("", "alice", "carol", "dave"),
            ("dave", "carol", "", "alice"),
        )
    }
    assert len(deals) == 6


def test_another_seed_gives_another_deal() -> None:
    deals = {deal_hand(Rules(), bytes([k]) + SEED[1:], 1).hands for k in range(32)}
    assert len(deals) == 32


def test_the_engine_never_imports_the_random_module() -> None:
    for path in sorted(ENGINE.glob("*.py")):
        source = path.read_text(encoding="utf-8")
        assert not re.search(
            r"^\s*(import\s+random\b|from\s+random\s+import)", source, re.MULTILINE
        ), path
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Import):
                assert all(alias.name.split(".")[0] != "random" for alias in node.names), path
            if isinstance(node, ast.ImportFrom):
                assert (node.module or "").split(".")[0] != "random", path


# Uniformity -----------------------------------------------------------------------------------

SHUFFLES = 20_000  # of the full pack; about half a second for the engine
FALSE_ALARM = 1e-6  # the chance that a truly uniform shuffle fails, at this size


def _chi_square_of_positions(orders: Sequence[Sequence[int]], size: int) -> float:
    """Pearson's statistic over the size x size table of (card, position) counts."""
    counts = [0] * (size * size)
    for order in orders:
        for position, card in enumerate(order):
            counts[card * size + position] += 1
    expected = len(orders) / size
    return sum((count - expected) ** 2 for count in counts) / expected


def _chi_square_critical(df: int, p: float) -> float:
    """The upper p-quantile of chi-square with df degrees of freedom (Wilson-Hilferty)."""
    z = NormalDist().inv_cdf(1 - p)
    a = 2 / (9 * df)
    return df * (1 - a + z * a**0.5) ** 3


def _limit() -> float:
    # Each card's row and each position's column sum to the number of shuffles: (n-1)^2 free.
    return _chi_square_critical((52 - 1) ** 2, FALSE_ALARM)


def _messages() -> list[bytes]:
    return [b"uniformity %d" % k for k in range(SHUFFLES)]


def test_the_critical_values_match_published_tables() -> None:
    assert _chi_square_critical(100, 0.001) == pytest.approx(149.449, abs=0.3)
    assert _chi_square_critical(1000, 0.01) == pytest.approx(1106.969, abs=0.3)


def test_the_shuffle_puts_every_card_in_every_position_equally_often() -> None:
    orders = [[card.index for card in shuffle(SEED, m, ALL_CARDS)] for m in _messages()]
    statistic = _chi_square_of_positions(orders, 52)
    assert statistic < _limit()


# The biased shuffles must fail by a wide margin, not by the luck of these inputs. With the
# plain modulo, draws for bounds such as 52, 47 or 38 lean towards small numbers by up to a
# quarter, which adds about 0.1 per shuffle to the statistic (so about 4600 here against a
# limit near 2960, where the statistic's spread is about 110). Swapping with any position is
# far worse still.


def test_the_same_test_catches_fisher_yates_with_a_plain_modulo() -> None:
    def biased(message: bytes) -> list[int]:
        return _fisher_yates(list(range(52)), _Stream(SEED, message).below_with_bias)

    statistic = _chi_square_of_positions([biased(m) for m in _messages()], 52)
    assert statistic > 1.3 * _limit()


def test_the_same_test_catches_swapping_with_any_position() -> None:
    def naive(message: bytes) -> list[int]:
        return _naive_shuffle(list(range(52)), _Stream(SEED, message).below)

    statistic = _chi_square_of_positions([naive(m) for m in _messages()], 52)
    assert statistic > 3 * _limit()
