"""How many complete random hands (deal, pass, every trick, score) the engine plays per second.

One line per rule set: the Standard rules, and the slowest variant (six players with a kitty and
every option that adds work). Moves go through the engine's validated path, the same one the
site uses; each card is drawn uniformly from the legal plays.

    python bench/engine.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import ALL_CARDS, Hand, Phase, Rules  # noqa: E402
from games.engine.rules import FirstLead, MoonRule, ShortPack  # noqa: E402

SLOWEST = Rules(
    players=6,
    short_pack=ShortPack.KITTY,
    first_lead=FirstLead.LEFT_OF_DEALER,
    queen_breaks_hearts=True,
    moon=MoonRule.AUTOMATIC,
    shoot_the_sun=True,
    jack_of_diamonds=True,
    old_queen=True,
)


def random_index(mask: int, rnd: random.Random) -> int:
    """A uniformly chosen set bit of ``mask``."""
    for _ in range(int(rnd.random() * mask.bit_count())):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def play_random_hand(rules: Rules, seed: bytes, number: int, rnd: random.Random) -> Hand:
    hand = Hand.deal(rules, seed, number)
    if hand.phase is Phase.PASSING:
        for seat in range(rules.players):
            held = hand.holding(seat)
            hand.pass_cards(seat, rnd.sample(held, 3))
    playing = Phase.PLAYING
    while hand.phase is playing:
        seat = hand.turn
        hand.play(seat, ALL_CARDS[random_index(hand.legal_mask(seat), rnd)])
    if hand.phase is Phase.MOON_CHOICE:
        hand.choose_moon(hand.turn, "others")
    return hand


def hands_per_second(rules: Rules, seconds: float) -> float:
    rnd = random.Random(2026)
    seed = rnd.randbytes(32)
    count, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(100):
            count += 1
            play_random_hand(rules, seed, count, rnd)
    return count / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per rule set")
    args = parser.parse_args()
    for name, rules in (("standard", Rules()), ("slowest (6 players, kitty, all options)", SLOWEST)):
        print(f"{hands_per_second(rules, args.seconds):8.0f} hands/s  {name}")


if __name__ == "__main__":
    main()
