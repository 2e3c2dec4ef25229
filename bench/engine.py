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

from games.engine import Hand, Phase, Rules
from games.engine.rules import FirstLead, MoonRule, ShortPack

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


def random_bits(mask: int, count: int, rnd: random.Random) -> int:
    """``count`` set bits of ``mask`` chosen uniformly, as a mask."""
    chosen = 0
    for _ in range(count):
        rest = mask & ~chosen
        for _ in range(int(rnd.random() * rest.bit_count())):
            rest &= rest - 1
        chosen |= rest & -rest
    return chosen


def play_random_hand(rules: Rules, seed: bytes, number: int, rnd: random.Random) -> Hand:
    hand = Hand.deal(rules, seed, number)
    if hand.phase is Phase.PASSING:
        for seat in range(rules.players):
            hand.pass_mask(seat, random_bits(hand.holding_mask(seat), 3, rnd))
    playing, draw = Phase.PLAYING, rnd.random
    while hand.phase is playing:
        seat = hand.turn
        legal = hand.legal_mask(seat)
        for _ in range(int(draw() * legal.bit_count())):  # drop a random number of low bits
            legal &= legal - 1
        hand.play_index(seat, (legal & -legal).bit_length() - 1)
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
    for name, rules in (
        ("standard", Rules()),
        ("slowest (6 players, kitty, all options)", SLOWEST),
    ):
        print(f"{hands_per_second(rules, args.seconds):8.0f} hands/s  {name}")


if __name__ == "__main__":
    main()
