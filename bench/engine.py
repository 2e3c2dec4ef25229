"""How many complete random hands (deal, pass, every trick, score) the engine plays per second.

Three lines. The first two: complete random hands under the Standard rules, and under the
slowest of the variants (every named rule set at every table size it is played at, and custom
tables with every option that adds work), through the engine's validated move path
(``pass_mask`` and ``play_index``; ``play`` adds the event objects on top), each card drawn
uniformly from the legal plays. The third is the bots' own work: hands played out from the
first lead by the rule-based player in every seat through ``play_on``, the path of their
searches. The machine is shared and noisy, so each figure is the best of several rounds.

    python bench/engine.py [--seconds 2] [--rounds 5]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import basic
from games.bots.search import advance
from games.engine import PRESETS, Hand, Phase, Rules
from games.engine.rules import FirstLead, MoonRule, ShortPack

ALL_OPTIONS = {
    "first_lead": FirstLead.LEFT_OF_DEALER,
    "queen_breaks_hearts": True,
    "moon": MoonRule.AUTOMATIC,
    "shoot_the_sun": True,
    "jack_of_diamonds": True,
    "old_queen": True,
}


def variants() -> dict[str, Rules]:
    found = {
        f"{preset.title}, {players} players": preset.make(players)
        for preset in PRESETS.values()
        for players in preset.players
    }
    for players in (3, 4, 5, 6):
        pack = ShortPack.REMOVE if players == 4 else ShortPack.KITTY
        name = f"{players} players, {pack.value}, every option"
        found[name] = Rules(players=players, short_pack=pack, **ALL_OPTIONS)
    return found


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


def hands_per_second(rules: Rules, seconds: float, rounds: int) -> float:
    rnd = random.Random(2026)
    seed = rnd.randbytes(32)
    best, number = 0.0, 0
    for _ in range(rounds):
        count, start = 0, time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds / rounds:
            for _ in range(50):
                count += 1
                number += 1
                play_random_hand(rules, seed, number, rnd)
        best = max(best, count / elapsed)
    return best


def playouts_per_second(seconds: float, rounds: int) -> float:
    """Hands played out from the first lead by the rule-based player in every seat, on a copy
    of the dealt and passed hand: the work of the bots' searches (``Hand.play_on``)."""
    rnd = random.Random(2026)
    seed, rules = rnd.randbytes(32), Rules()
    starts = []
    for number in range(1, 41):
        hand = Hand.deal(rules, seed, number)
        if hand.phase is Phase.PASSING:
            for seat in range(rules.players):
                hand.pass_mask(seat, basic.pass_mask(hand.holding_mask(seat)))
        starts.append(hand)
    best = 0.0
    for _ in range(rounds):
        count, start = 0, time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds / rounds:
            for hand in starts:
                count += 1
                advance(hand.copy())
        best = max(best, count / elapsed)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per figure")
    parser.add_argument("--rounds", type=int, default=6, help="rounds per figure; best counts")
    args = parser.parse_args()
    print(f"{hands_per_second(Rules(), args.seconds, args.rounds):8.0f} hands/s  Standard")
    # A quick look at every variant finds the slowest, which is then timed like Standard.
    found = variants()
    quick = {name: hands_per_second(rules, 0.4, 2) for name, rules in found.items()}
    slowest = min(quick, key=quick.__getitem__)
    rate = hands_per_second(found[slowest], args.seconds, args.rounds)
    print(f"{rate:8.0f} hands/s  slowest variant: {slowest}")
    rate = playouts_per_second(args.seconds, args.rounds)
    print(f"{rate:8.0f} play-outs/s  by the rule-based player, as the bots search (Standard)")


if __name__ == "__main__":
    main()
