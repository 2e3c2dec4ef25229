"""Strategies for the seats nobody takes. A bot sees one seat's view, never hidden cards.

Every bot has the same three methods (:class:`Bot`); :func:`make_bot` builds one by name:

- ``easy``, ``normal``, ``strong``: the search bot with a growing budget per decision (the
  levels a host picks; ``normal`` is the default). Easy tries a dozen deals; normal and strong
  race their candidates (:mod:`.race`) on up to 1,000 deals, strong searching its own next
  card in each deal too; both also try their passes in imagined deals;
- ``heuristic``: the rule-based player (pass the danger, duck, dump the danger when void);
- ``refined``: the same with the three habits the search's play-outs add (:mod:`.policy`);
- ``random``: uniformly random legal cards and passes;
- ``montecarlo``: the search bot at the normal budget but deaf to the voids players have shown,
  passing by the rules alone and playing its deals out with the plain rule-based player: plain
  determinized Monte Carlo, a baseline for measuring what the rest is worth;
- ``reader``: normal that also reads the others' cards from how they played (:mod:`.reading`),
  for measuring what that is worth (no level does: see the README's figures).
"""

from __future__ import annotations

from games.compiled import package_path

# The compiled build of this package's hot modules, when it is up to date (games/compiled.py).
__path__ = package_path(__name__, __path__)


import random
from dataclasses import dataclass, replace
from typing import Protocol

from games.engine import Card, MoveKind, Phase, SeatView

from . import basic, policy
from .search import SearchBot

LEVELS = ("easy", "normal", "strong")
# Play-outs at most per decision, over all its candidates (see .race): most decisions are
# settled with far fewer. The wall-clock guard is reached only on a machine far too busy.
WORK = {"easy": 0, "normal": 1250, "strong": 2000}  # strong's: cards searched ahead
PASS_WORK = {"normal": 850, "strong": 6000}
GUARD = 1.0  # seconds


class Bot(Protocol):
    def choose_pass(self, view: SeatView) -> list[Card]: ...

    def choose_play(self, view: SeatView) -> Card: ...

    def choose_moon(self, view: SeatView) -> str: ...


@dataclass(frozen=True)
class HeuristicBot:
    refined: bool = False  # with the habits the search's play-outs have (see .policy)

    def choose_pass(self, view: SeatView) -> list[Card]:
        return basic.choose_pass(view)

    def choose_play(self, view: SeatView) -> Card:
        return policy.choose_card(view, self.refined)

    def choose_moon(self, view: SeatView) -> str:
        return basic.choose_moon(view)


@dataclass
class RandomBot:
    seed: int | None = None

    def __post_init__(self) -> None:
        self._random = random.Random(self.seed)

    def choose_pass(self, view: SeatView) -> list[Card]:
        return self._random.sample(list(view.hand), 3)

    def choose_play(self, view: SeatView) -> Card:
        return self._random.choice(list(view.legal))

    def choose_moon(self, view: SeatView) -> str:
        return self._random.choice(["others", "self"])


def make_bot(name: str = "normal", seed: int | None = None) -> Bot:
    if name == "easy":
        # Sees the voids, and passes by the rules alone.
        return SearchBot(seconds=GUARD, samples=12, seed=seed)
    if name in ("normal", "reader"):
        normal = SearchBot(
            seconds=GUARD,
            samples=1000,
            work=WORK["normal"],
            pass_deals=2000,
            pass_work=PASS_WORK["normal"],
            loss=0.001,
            seed=seed,
        )
        return normal if name == "normal" else replace(normal, mismatch=0.03)
    if name == "strong":
        return SearchBot(
            seconds=4 * GUARD,
            samples=1000,
            work=WORK[name],
            pass_deals=4000,
            pass_work=PASS_WORK[name],
            loss=0.001,  # normal's, on searches that look a card further
            lookahead=True,
            seed=seed,
        )
    if name == "montecarlo":
        # The plain search: every card in every deal, on 400 deals (it had 0.19 s, which the
        # compiled play-outs would now fill with more deals on some machines than on others).
        return SearchBot(
            seconds=GUARD, samples=400, respect_voids=False, refined=False, loss=None, seed=seed
        )
    if name == "heuristic":
        return HeuristicBot()
    if name == "refined":
        return HeuristicBot(refined=True)
    if name == "random":
        return RandomBot(seed)
    raise ValueError(f"No bot called {name!r}")


def decide(bot: Bot, view: SeatView) -> tuple[str, list[str], str]:
    """The move ``bot`` makes from ``view``: (kind, cards, choice), as the site's write path
    takes a move."""
    if view.phase is Phase.PASSING:
        return MoveKind.PASS, [str(c) for c in bot.choose_pass(view)], ""
    if view.phase is Phase.MOON_CHOICE:
        return MoveKind.MOON, [], bot.choose_moon(view)
    return MoveKind.PLAY, [str(bot.choose_play(view))], ""


def decide_as(level: str, view: SeatView) -> tuple[str, list[str], str]:
    """:func:`decide` for a bot of ``level`` made for this decision, as a worker makes one:
    what a process of bots (live/bot_pool.py) runs, given only what can cross to it."""
    return decide(make_bot(level), view)


def safe_bot() -> Bot:
    """The bot that moves for a seat whose time ran out: quick enough for any clock."""
    return SearchBot(seconds=0.05, samples=30)


__all__ = [
    "GUARD",
    "LEVELS",
    "PASS_WORK",
    "WORK",
    "Bot",
    "HeuristicBot",
    "RandomBot",
    "SearchBot",
    "decide",
    "decide_as",
    "make_bot",
]
