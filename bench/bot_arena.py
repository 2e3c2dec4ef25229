"""How much better one bot plays than another, in duplicate so that the luck of the deal cancels.

Each deal (a 32-byte seed derived from ``--seed``, and a hand number cycling through the pass
directions) is played once with the candidate in every seat against copies of the opponent:
one hand per play (deal, pass, every trick, score). The rotations of one deal are correlated,
so the confidence interval is taken over per-deal means. Every candidate decision (pass and
play) is timed; the machine is shared, so the times are indicative, not a benchmark of record.

    python bench/bot_arena.py [--candidate normal] [--opponent heuristic] [--deals 200]
                              [--workers 2] [--seed 1] [--rules standard] [--players 4]
                              [--save run.json] [--paired earlier.json] [--extend run.json]
    python bench/bot_arena.py --pool run.json other.json ...

``--save`` keeps each deal's result; ``--paired`` compares this run with a saved one on the same
deals (another candidate against the same opponent, say) deal by deal, which cancels more luck
than two confidence intervals side by side. ``--extend`` plays ``--deals`` more deals after
those of a saved run of the same setting, reports on them all and saves them all back: a
measurement can grow over several sittings (the decision times are this sitting's).
``--pool`` plays nothing: it reports on saved runs of one candidate against one opponent under
one rule set, on the deals of several seeds, taken together.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import multiprocessing
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import Bot, make_bot
from games.bots.search import margin
from games.engine import PRESETS, Hand, Match, Phase, Rules, seat_view


@dataclass(frozen=True)
class Task:
    candidate: str
    opponent: str
    rules: Rules
    master_seed: int
    deal: int  # index of the deal, from 0


@dataclass(frozen=True)
class Play:
    """One hand of a deal, with the candidate in ``seat``."""

    seat: int
    points: tuple[int, ...]
    shooter: int | None


@dataclass(frozen=True)
class Outcome:
    deal: int
    plays: tuple[Play, ...]
    times: tuple[float, ...]  # seconds per candidate decision


def deal_seed(master_seed: int, deal: int) -> bytes:
    return hashlib.sha256(f"bot-arena {master_seed} {deal}".encode()).digest()


def bot_seed(master_seed: int, deal: int, seat: int, role: str) -> int:
    digest = hashlib.sha256(f"{role} {master_seed} {deal} {seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def play_deal(task: Task) -> Outcome:
    rules = task.rules
    seed = deal_seed(task.master_seed, task.deal)
    number = task.deal % len(rules.pass_cycle) + 1
    plays, times = [], []
    for seat in range(rules.players):
        bots = [
            make_bot(
                task.candidate if s == seat else task.opponent,
                bot_seed(task.master_seed, task.deal, s, "candidate" if s == seat else "opponent"),
            )
            for s in range(rules.players)
        ]
        hand = play_hand(rules, seed, number, bots, seat, times)
        assert hand.points is not None
        plays.append(Play(seat, hand.points, hand.shooter))
    return Outcome(task.deal, tuple(plays), tuple(times))


def play_hand(
    rules: Rules, seed: bytes, number: int, bots: list[Bot], timed: int, times: list[float]
) -> Hand:
    """Hand ``number`` of the deal from ``seed``, every decision made from a seat view; the
    decisions of seat ``timed`` are timed into ``times``."""
    match = Match(rules, seed)
    match.hand = hand = Hand.deal(rules, seed, number)
    clock = time.perf_counter
    if hand.phase is Phase.PASSING:
        for seat in range(rules.players):
            start = clock()
            cards = bots[seat].choose_pass(seat_view(match, seat))
            if seat == timed:
                times.append(clock() - start)
            match.pass_cards(seat, cards)
    while hand.phase is Phase.PLAYING:
        seat = hand.turn
        view = seat_view(match, seat)
        start = clock()
        card = bots[seat].choose_play(view)
        if seat == timed:
            times.append(clock() - start)
        match.play(seat, card)
    if hand.phase is Phase.MOON_CHOICE:
        seat = hand.turn
        match.choose_moon(seat, bots[seat].choose_moon(seat_view(match, seat)))
    # Once the hand is scored the match deals the next one; ``hand`` stays the one just played.
    return hand


def run(tasks: list[Task], workers: int) -> Iterator[Outcome]:
    if workers == 1:
        yield from map(play_deal, tasks)
        return
    with multiprocessing.Pool(workers) as pool:
        yield from pool.imap_unordered(play_deal, tasks)


def t_quantile(p: float, df: int) -> float:
    """Student's t quantile by the Cornish-Fisher expansion around the normal one (within about
    0.01 for 3 or more degrees of freedom)."""
    z = statistics.NormalDist().inv_cdf(p)
    return (
        z
        + (z**3 + z) / (4 * df)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3)
    )


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(fraction * len(ordered)) - 1)]


def lead(play: Play) -> float:
    """How many points fewer than the other seats' average the candidate took in ``play``."""
    return -margin(play.points, play.seat)


def deal_lead(outcome: Outcome) -> float:
    """The candidate's mean lead over a deal's plays."""
    return statistics.fmean(lead(play) for play in outcome.plays)


def deal_leads(outcomes: list[Outcome]) -> dict[int, float]:
    """The candidate's mean lead over each deal's plays, by deal (of one seed)."""
    return {o.deal: deal_lead(o) for o in outcomes}


def interval(values: list[float]) -> str:
    """The mean of ``values`` with its 95% confidence interval."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return f"{mean:+.2f} (one deal: no interval)"
    half = t_quantile(0.975, len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return f"{mean:+.2f} (95% CI {mean - half:+.2f} .. {mean + half:+.2f})"


def report(outcomes: list[Outcome], wall: float | None) -> list[str]:
    plays = [play for outcome in outcomes for play in outcome.plays]
    mine = [play.points[play.seat] for play in plays]
    theirs = [play.points[play.seat] + lead(play) for play in plays]
    own_moons = sum(1 for play in plays if play.shooter == play.seat)
    other_moons = sum(1 for play in plays if play.shooter not in (None, play.seat))
    times = [t * 1000 for outcome in outcomes for t in outcome.times]
    lines = [
        f"deals: {len(outcomes)}, hands: {len(plays)}",
        f"candidate: {statistics.fmean(mine):.2f} points/hand",
        f"opponents: {statistics.fmean(theirs):.2f} points/hand (mean of the other seats)",
        f"difference: {interval([deal_lead(o) for o in outcomes])} points/hand",
        f"moons: {own_moons} by the candidate, {other_moons} by opponents",
    ]
    if times:  # a saved run keeps no times
        lines.append(
            f"candidate decision time: median {statistics.median(times):.2f} ms,"
            f" 99th percentile {percentile(times, 0.99):.2f} ms ({len(times)} decisions)"
        )
    if wall is not None:
        lines.append(f"wall time: {wall:.1f} s")
    return lines


def save(path: Path, setting: dict[str, object], outcomes: list[Outcome]) -> None:
    deals = [
        {
            "deal": o.deal,
            "plays": [{"seat": p.seat, "points": p.points, "shooter": p.shooter} for p in o.plays],
        }
        for o in outcomes
    ]
    path.write_text(json.dumps({"setting": setting, "deals": deals}) + "\n")


def load(path: Path) -> tuple[dict[str, object], list[Outcome]]:
    data = json.loads(path.read_text())
    outcomes = [
        Outcome(
            d["deal"],
            tuple(Play(p["seat"], tuple(p["points"]), p["shooter"]) for p in d["plays"]),
            (),
        )
        for d in data["deals"]
    ]
    return data["setting"], outcomes


def paired(now: list[Outcome], earlier: list[Outcome]) -> str:
    """This run's lead less the earlier run's, deal by deal, over the deals both played."""
    a, b = deal_leads(now), deal_leads(earlier)
    common = sorted(a.keys() & b.keys())
    if not common:
        return "paired: no deal in common"
    return f"paired with the saved run, {len(common)} deals: " + interval(
        [a[d] - b[d] for d in common]
    )


def pool(paths: list[Path]) -> list[str]:
    """The report on saved runs taken together: one candidate, opponent, rule set and table
    size, on the deals of any seeds, no deal counted twice."""
    kept = ("candidate", "opponent", "rules", "players")
    settings: list[dict[str, object]] = []
    outcomes: list[Outcome] = []
    seen: set[tuple[object, int]] = set()
    for path in paths:
        setting, run_outcomes = load(path)
        if settings and any(setting[k] != settings[0][k] for k in kept):
            raise ValueError(f"{path} holds a run of another setting: {setting}")
        settings.append(setting)
        for outcome in run_outcomes:
            key = (setting["seed"], outcome.deal)
            if key in seen:
                raise ValueError(f"deal {outcome.deal} of seed {key[0]} is in two of the runs")
            seen.add(key)
        outcomes += run_outcomes
    first = settings[0]
    seeds = ", ".join(str(s) for s in dict.fromkeys(setting["seed"] for setting in settings))
    return [
        f"{first['candidate']} against {int(str(first['players'])) - 1} x {first['opponent']},"
        f" {first['rules']} rules, {first['players']} players, seeds {seeds}, pooled",
        *report(outcomes, None),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--candidate", default="normal", help="the bot measured (make_bot name)")
    parser.add_argument("--opponent", default="heuristic", help="the other seats' bot")
    parser.add_argument("--deals", type=int, default=200, help="deals, each played once a seat")
    parser.add_argument("--workers", type=int, default=2, help="processes (default: two cores)")
    parser.add_argument("--seed", type=int, default=1, help="master seed of the deals")
    parser.add_argument("--rules", default="standard", choices=sorted(PRESETS))
    parser.add_argument("--players", type=int, default=None, help="table size the preset allows")
    parser.add_argument("--save", type=Path, help="write each deal's result to this JSON file")
    parser.add_argument("--paired", type=Path, help="a saved run on the same deals to compare")
    parser.add_argument("--extend", type=Path, help="a saved run to play more deals after")
    parser.add_argument(
        "--pool", type=Path, nargs="+", metavar="RUN", help="report on saved runs together"
    )
    args = parser.parse_args()
    if args.pool:
        try:
            lines = pool(args.pool)
        except ValueError as error:
            parser.error(str(error))
        print("\n".join(lines))
        return
    for name in (args.candidate, args.opponent):
        try:
            make_bot(name)  # an unknown name fails here, not in a worker
        except ValueError as error:
            parser.error(str(error))
    if args.deals < 1 or args.workers < 1:
        parser.error("--deals and --workers are at least 1")
    preset = PRESETS[args.rules]
    rules = preset.make(args.players)
    print(
        f"{args.candidate} against {rules.players - 1} x {args.opponent},"
        f" {preset.title} rules, {rules.players} players, seed {args.seed}"
    )
    setting = {
        "candidate": args.candidate,
        "opponent": args.opponent,
        "rules": args.rules,
        "players": rules.players,
        "seed": args.seed,
    }
    before: list[Outcome] = []
    if args.extend:
        extended, before = load(args.extend)
        if extended != setting:
            parser.error(f"{args.extend} holds a run of another setting: {extended}")
        print(f"after the {len(before)} deals of {args.extend}")
    first = max((o.deal + 1 for o in before), default=0)
    tasks = [
        Task(args.candidate, args.opponent, rules, args.seed, d)
        for d in range(first, first + args.deals)
    ]
    start = time.perf_counter()
    outcomes = sorted([*before, *run(tasks, args.workers)], key=lambda outcome: outcome.deal)
    for line in report(outcomes, time.perf_counter() - start):
        print(line)
    if args.paired:
        earlier_setting, earlier = load(args.paired)
        same = all(earlier_setting.get(k) == setting[k] for k in ("rules", "players", "seed"))
        print(paired(outcomes, earlier) if same else "paired: the saved run has other deals")
    for path in (args.save, args.extend):
        if path:
            save(path, setting, outcomes)


if __name__ == "__main__":
    main()
