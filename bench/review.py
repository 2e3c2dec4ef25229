"""The CPU one review of a game costs (games/bots/review.py): for games of 1, 4 and 10 hands,
each played by the rule-based player in every seat from a few fixed seeds, every seat reviewed
(the most a review does: four people), timed in CPU (``time.process_time``), with the
decisions judged and the marks given.

    python bench/review.py [--hands 1,4,10] [--games 3]

A review runs on one core of the reviews' worker; its hands are kept one by one as they are
judged (games/reviews.py), so a page shows the progress hand by hand.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._scratch import rule_based_match
from games.bots import review
from games.compiled import in_use
from games.engine import Rules


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", default="1,4,10")
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    print(f"review {review.VERSION!r}; hot modules compiled: {in_use()}")
    print(f"{'hands':>5} {'decisions':>9} {'CPU s (median)':>15} {'ms a decision':>14} marks")
    for hands in (int(part) for part in args.hands.split(",")):
        times, counts, marks = [], [], {name: 0 for name, _ in review.MARKS}
        for number in range(args.games):
            match = rule_based_match(Rules(target=500), bytes([number + 1] * 32), hands)
            started = time.process_time()
            verdicts = [
                review.judge(index, move, view, f"bench:{number}")
                for index, move, view in review.decisions(match, set(range(match.players)))
            ]
            times.append(time.process_time() - started)
            counts.append(len(verdicts))
            for verdict in verdicts:
                if verdict.mark:
                    marks[verdict.mark] += 1
        median = statistics.median(times)
        per = 1000 * sum(times) / sum(counts)
        shown = ", ".join(f"{name} {count}" for name, count in marks.items())
        print(f"{hands:>5} {statistics.median(counts):>9.0f} {median:>15.2f} {per:>14.2f} {shown}")


if __name__ == "__main__":
    main()
