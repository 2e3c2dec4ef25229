"""The bots' CPU time per decision on a fixed set of positions, and, beside it, the same
positions measured with the bots of an earlier revision.

The positions come from hands played with the heuristic bot in every seat (matches dealt from
fixed seeds, a whole pass cycle of hands in each, so every pass direction occurs): every
seat's pass, and ``--plays`` plays from each stage of each hand, early (tricks 1-4), middle
(5-9) and late (10-13), among those where the seat has more than one legal card. A position is
kept as its match's record (seed and moves, ``Match.to_json``) and the seat to move: the record
reads alike in every revision, and each tree rebuilds the position with its own engine.

A decision is one ``choose_pass`` or ``choose_play`` of a fresh ``make_bot(level, seed)``,
timed in CPU (``time.process_time``), not wall time, since the machine is shared. Each tree's
bots run in a worker process of their own (this script with ``--measure-in TREE``, which puts
TREE first on the import path). With ``--before REV`` a temporary worktree of REV (removed at
the end) gets a worker too, and the two workers are asked in turn, position by position, so
that a change in the machine's load falls on both sides alike. "new" is this tree as it is on
disk, uncommitted changes included; "old" is REV. Each tree's compiled build of the hot modules
(games/compiled.py) is made first where it has one, and the report says which side ran it.

The levels' budgets are wall time. A decision that runs into its budget costs what the budget
allows, not what its search needs, so a cheaper search shows up there as more deals searched,
not as less CPU: the "budget" columns count the decisions that took at least 90% of their
budget, and ``--unbudgeted`` lifts the budgets so that only the deal caps bound a decision (a
strong decision then takes seconds). The old and new bots have the same seed on the same
positions; the report counts the decisions where they chose alike.

    python bench/bot_cpu.py [--levels easy,normal,strong] [--hands 16] [--plays 5]
                            [--strong-positions 60] [--rules standard] [--before REV]
                            [--unbudgeted] [--json FILE]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

SCRIPT = Path(__file__).resolve()
HERE = SCRIPT.parent.parent


def code_tree(argv: Sequence[str]) -> Path:
    """The tree whose bots this process runs: ``--measure-in``'s in a worker, else this one.
    It is read before the imports below, which must come from that tree."""
    if "--measure-in" in argv[:-1]:
        return Path(argv[argv.index("--measure-in") + 1]).resolve()
    return HERE


sys.path.insert(0, str(code_tree(sys.argv)))

import games  # noqa: E402
from games.bots import Bot, make_bot  # noqa: E402
from games.engine import PRESETS, Match, Phase, Rules, format_cards, seat_view  # noqa: E402

LEVELS = ("easy", "normal", "strong")
KINDS = ("pass", "early", "middle", "late")
STAGE_TRICKS = 4  # tricks in the early stage, and in the late one
BOT_SEED = 1
AT_BUDGET = 0.9  # a decision that took this share of its wall budget ran into it

T = TypeVar("T")


@dataclass(frozen=True)
class Position:
    kind: str  # pass or play
    stage: str | None  # of a play: early, middle or late
    record: dict[str, Any]  # the match just before the decision (Match.to_json)
    seat: int

    @property
    def label(self) -> str:
        return self.stage or self.kind

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "stage": self.stage, "record": self.record, "seat": self.seat}


@dataclass(frozen=True)
class Decision:
    ms: float  # CPU
    at_budget: bool
    choice: str


# Positions -------------------------------------------------------------------------------


def match_seed(number: int) -> bytes:
    return hashlib.sha256(f"bot-cpu {number}".encode()).digest()


def stage(trick: int, tricks: int) -> str:
    """The stage of a hand of ``tricks`` tricks that trick number ``trick`` (from 1) is in."""
    if trick <= STAGE_TRICKS:
        return "early"
    return "late" if trick > tricks - STAGE_TRICKS else "middle"


def spread(items: list[T], count: int) -> list[T]:
    """``count`` of ``items``, evenly spaced from the first (all of them if there are fewer)."""
    if len(items) <= count:
        return items
    return [items[i * len(items) // count] for i in range(count)]


def play_hand(match: Match, bot: Bot) -> list[Position]:
    """Play the hand in progress with ``bot`` in every seat; every pass it made, and every play
    where the seat had a choice, as positions."""
    hand = match.hand
    found = []
    if hand.phase is Phase.PASSING:
        for seat in range(match.players):
            found.append(Position("pass", None, match.to_json(), seat))
            match.pass_cards(seat, bot.choose_pass(seat_view(match, seat)))
    while hand.phase is Phase.PLAYING:
        seat = hand.turn
        view = seat_view(match, seat)
        if len(view.legal) > 1:
            when = stage(len(view.tricks) + 1, match.rules.hand_size)
            found.append(Position("play", when, match.to_json(), seat))
        match.play(seat, bot.choose_play(view))
    if hand.phase is Phase.MOON_CHOICE:
        match.choose_moon(hand.turn, bot.choose_moon(seat_view(match, hand.turn)))
    return found


def positions(rules: Rules, hands: int, plays: int) -> list[Position]:
    """Every pass of ``hands`` hands and ``plays`` plays of each stage of each, in the order
    played. The matches run through a whole pass cycle of hands each."""
    bot = make_bot("heuristic")
    cycle = len(rules.pass_cycle)
    kept: list[Position] = []
    for number in range(math.ceil(hands / cycle)):
        match = Match(rules, match_seed(number))
        for _ in range(min(cycle, hands - number * cycle)):
            found = play_hand(match, bot)
            kept += [p for p in found if p.kind == "pass"]
            for when in KINDS[1:]:
                kept += spread([p for p in found if p.stage == when], plays)
    return kept


# Measuring -------------------------------------------------------------------------------


def decide(level: str, position: dict[str, Any], unbudgeted: bool) -> Decision:
    """One decision of a fresh bot at ``level`` in ``position``, timed in CPU."""
    match = Match.from_json(position["record"])
    view = seat_view(match, position["seat"])
    bot = make_bot(level, BOT_SEED)
    budget = getattr(bot, "seconds", None)
    if unbudgeted and budget is not None:
        bot = replace(bot, seconds=None)
    choose = bot.choose_pass if position["kind"] == "pass" else bot.choose_play
    wall, cpu = time.perf_counter(), time.process_time()
    choice = choose(view)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    cards = sorted(choice, key=lambda card: card.index) if isinstance(choice, list) else [choice]
    reached = budget is not None and not unbudgeted and wall >= AT_BUDGET * budget
    return Decision(cpu * 1000, reached, format_cards(cards))


def serve(tree: Path, unbudgeted: bool) -> None:
    """A worker's loop: a request a line on stdin (level and position), a decision a line on
    stdout, until stdin closes."""
    if Path(games.__file__).resolve().parent.parent != tree:
        raise SystemExit(f"the bots imported are not {tree}'s but {games.__file__}'s")
    for line in sys.stdin:
        request = json.loads(line)
        decision = decide(request["level"], request["position"], unbudgeted)
        print(json.dumps(asdict(decision)), flush=True)


class Worker:
    """A process running the bots of one tree."""

    def __init__(self, tree: Path, unbudgeted: bool) -> None:
        flags = ["--unbudgeted"] if unbudgeted else []
        self.process = subprocess.Popen(
            [sys.executable, str(SCRIPT), "--measure-in", str(tree), *flags],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def decide(self, level: str, position: Position) -> Decision:
        assert self.process.stdin and self.process.stdout
        request = {"level": level, "position": position.to_json()}
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:
            raise RuntimeError(f"the worker {self.process.args} stopped")
        return Decision(**json.loads(answer))

    def close(self) -> None:
        """End the process: an idle one ends as its stdin closes; one still deciding (the run
        failed or was stopped) is killed, since its tree may be about to go."""
        assert self.process.stdin
        self.process.stdin.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def measure(
    workers: dict[str, Worker], level: str, chosen: list[Position]
) -> dict[str, list[Decision]]:
    """Every side's decisions at ``level`` in ``chosen``, the sides taking turns to go first."""
    sides = list(workers)
    for side in sides:
        workers[side].decide(level, chosen[0])  # warm-up: the first decision of a process
    decisions: dict[str, list[Decision]] = {side: [] for side in sides}
    for i, position in enumerate(chosen):
        for side in sides if i % 2 == 0 else sides[::-1]:
            decisions[side].append(workers[side].decide(level, position))
    return decisions


def git(*args: str) -> str:
    done = subprocess.run(
        ["git", *args], cwd=HERE, capture_output=True, text=True, check=True, timeout=120
    )
    return done.stdout.strip()


@contextmanager
def worktree(commit: str) -> Iterator[Path]:
    """A temporary checkout of ``commit``, removed afterwards whatever happens."""
    with tempfile.TemporaryDirectory(prefix="bot-cpu-") as scratch:
        tree = Path(scratch).resolve() / "tree"
        try:
            git("worktree", "add", "--quiet", "--detach", str(tree), commit)
            build(tree)
            yield tree
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=HERE)


def build(tree: Path) -> None:
    """Makes ``tree``'s compiled build of the bots' hot modules, where it has one to make (the
    site runs with it): a side without it would be measured from source, about ten times slower."""
    script = tree / "scripts" / "compile.py"
    if script.exists():
        environment = {**os.environ, "HEARTS_PURE_PYTHON": ""}
        subprocess.run(
            [sys.executable, str(script)],
            cwd=tree,
            env=environment,
            capture_output=True,
            check=False,
            timeout=600,
        )


def compiled_in(tree: Path) -> str:
    """Whether ``tree``'s bots run compiled, as its worker imports them."""
    probe = (
        "import sys; sys.path.insert(0, sys.argv[1]); "
        "from games.compiled import in_use; print('compiled' if in_use() else 'from source')"
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", probe, str(tree)],
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        )
    except subprocess.CalledProcessError:
        return "from source (no build)"
    return done.stdout.strip()


# Report ----------------------------------------------------------------------------------


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(fraction * len(ordered)) - 1)]


def figures(decisions: list[Decision]) -> dict[str, float]:
    times = [d.ms for d in decisions]
    return {
        "median_ms": statistics.median(times),
        "p99_ms": percentile(times, 0.99),
        "at_budget": sum(d.at_budget for d in decisions),
    }


def rows(level: str, chosen: list[Position], by_side: dict[str, list[Decision]]) -> list[dict]:
    """The figures of each side at ``level``, over all decisions and by kind."""
    found = []
    for kind in ("all", *KINDS):
        picked = [i for i, p in enumerate(chosen) if kind in ("all", p.label)]
        if not picked:
            continue
        row: dict[str, Any] = {"level": level, "kind": kind, "decisions": len(picked)}
        for side, decisions in by_side.items():
            row[side] = figures([decisions[i] for i in picked])
        if "old" in row:
            row["ratio"] = row["new"]["median_ms"] / max(row["old"]["median_ms"], 1e-9)
        found.append(row)
    return found


def table(found: list[dict], sides: list[str]) -> list[str]:
    head = f"{'level':<8}{'kind':<8}{'n':>5}"
    for side in sides:
        head += f"  {side + ' median':>11}{'p99':>8}{'budget':>7}"
    lines = [head + ("   new/old" if len(sides) == 2 else "")]
    for row in found:
        line = f"{row['level']:<8}{row['kind']:<8}{row['decisions']:>5}"
        for side in sides:
            f = row[side]
            line += f"  {f['median_ms']:>11.1f}{f['p99_ms']:>8.1f}{f['at_budget']:>7}"
        if "ratio" in row:
            line += f"{row['ratio']:>10.2f}"
        lines.append(line)
    return lines


def agreement(level: str, by_side: dict[str, list[Decision]]) -> str:
    pairs = list(zip(by_side["old"], by_side["new"], strict=True))
    same = sum(old.choice == new.choice for old, new in pairs)
    return f"{level}: the same choice in {same} of {len(pairs)} decisions"


# Command line ----------------------------------------------------------------------------


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default=",".join(LEVELS), help="comma-separated levels")
    parser.add_argument("--hands", type=int, default=16, help="hands the positions come from")
    parser.add_argument("--plays", type=int, default=5, help="plays kept per stage of a hand")
    parser.add_argument(
        "--strong-positions", type=int, default=60, help="the spread subset strong measures"
    )
    parser.add_argument("--rules", default="standard", choices=sorted(PRESETS))
    parser.add_argument("--before", metavar="REV", help="measure REV's bots beside this tree's")
    parser.add_argument("--unbudgeted", action="store_true", help="bound decisions by deals only")
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    parser.add_argument("--measure-in", type=Path, metavar="TREE", help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.levels = args.levels.split(",")
    if unknown := [level for level in args.levels if level not in LEVELS]:
        parser.error(f"no level {', '.join(unknown)} (levels: {', '.join(LEVELS)})")
    if min(args.hands, args.plays, args.strong_positions) < 1:
        parser.error("--hands, --plays and --strong-positions are at least 1")
    if args.before:
        try:
            args.before = git("rev-parse", "--verify", "--quiet", f"{args.before}^{{commit}}")
        except subprocess.CalledProcessError:
            parser.error(f"no revision {args.before}")
    return args


def heading(args: argparse.Namespace, kept: list[Position]) -> list[str]:
    counts = ", ".join(f"{sum(p.label == k for p in kept)} {k}" for k in KINDS)
    budgets = "no time budgets" if args.unbudgeted else "the levels' time budgets"
    hands = f"{args.hands} hand" + ("s" if args.hands > 1 else "")
    lines = [
        f"CPU ms per decision, {PRESETS[args.rules].title} rules, {hands},"
        f" {len(kept)} positions ({counts}), {budgets}"
    ]
    if args.before:
        lines.append(f"old: {args.before[:12]}, new: {HERE} as it is on disk")
    return lines


def run(args: argparse.Namespace) -> dict[str, Any]:
    kept = positions(PRESETS[args.rules].rules, args.hands, args.plays)
    print("\n".join(heading(args, kept)), flush=True)
    found: list[dict] = []
    times: dict[str, Any] = {}
    agreed: list[str] = []
    with ExitStack() as stack:
        trees = {"old": stack.enter_context(worktree(args.before))} if args.before else {}
        trees["new"] = HERE
        build(HERE)
        print(", ".join(f"{side}: {compiled_in(tree)}" for side, tree in trees.items()))
        workers: dict[str, Worker] = {}
        for side, tree in trees.items():
            workers[side] = Worker(tree, args.unbudgeted)
            stack.callback(workers[side].close)
        for level in args.levels:
            chosen = spread(kept, args.strong_positions) if level == "strong" else kept
            by_side = measure(workers, level, chosen)
            found += rows(level, chosen, by_side)
            times[level] = {"kinds": [p.label for p in chosen]}
            times[level] |= {side: [d.ms for d in ds] for side, ds in by_side.items()}
            if args.before:
                agreed.append(agreement(level, by_side))
    print("\n".join([*table(found, list(trees)), *agreed]))
    return {"rows": found, "times_ms": times}


def main() -> None:
    # A stopped run still removes its worktree: SIGTERM unwinds like an error.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    args = arguments()
    if args.measure_in:
        serve(args.measure_in.resolve(), args.unbudgeted)
        return
    report = run(args)
    if args.json:
        setting = {k: v for k, v in vars(args).items() if k not in ("json", "measure_in")}
        args.json.write_text(json.dumps({"setting": setting, **report}, indent=1) + "\n")


if __name__ == "__main__":
    main()
