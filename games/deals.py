"""The deals a seed gives, as the paste-a-seed form shows them (docs/fairness.md): each hand's
cards seat by seat, and what ``static/js/verify.js`` needs to deal them again in the browser."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine import Rules, cards_of, deal_hand, fingerprint, format_cards, mask_of


@dataclass(frozen=True)
class DealtHand:
    number: int
    dealer: int
    seats: list[str]
    kitty: str


def dealt_hands(data: dict[str, Any]) -> dict[str, Any]:
    rules: Rules = data["rules"]
    seed: bytes = data["seed"]
    added: tuple[str, ...] = data["added_seeds"]
    hands = []
    for number in range(1, data["hands"] + 1):
        deal = deal_hand(rules, seed, number, added)
        hands.append(
            DealtHand(
                number=number,
                dealer=rules.dealer(number),
                seats=[format_cards(cards_of(mask_of(hand))) for hand in deal.hands],
                kitty=format_cards(cards_of(mask_of(deal.kitty))),
            )
        )
    return {
        "deals": hands,
        "rules": rules,
        "seed_hex": seed.hex(),
        "seed_fingerprint": fingerprint(seed),
        "added_used": bool(added),
        # For verify.js, which deals the same seed in the browser and compares.
        "deal_inputs": {
            "seed": seed.hex(),
            "players": rules.players,
            "shortPack": rules.short_pack.value,
            "added": list(added),
            "hands": data["hands"],
        },
    }
