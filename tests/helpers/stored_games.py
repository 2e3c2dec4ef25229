"""Stored games: whole games the bots played under every rule set and option the site offers,
each kept with what a person could see of it, to show that a later version of the code replays
them to the same points, results, records and words.

A stored game is its table (rule set, options, players), its seed and its move log, the source
of truth, and ``seen``: what the code that played it showed of it, worked out by :func:`seen`
from the seed and the log alone: the game's public record, the points of every hand, the
result, the replay's words for every step, the outcome line, the places, the table's words
(its status line, seats, tricks, scores, time-out notices and result lines, and a player's
cards with why they are refused) at chosen moves, and the rules in short and in words.

``tests/data/stored_games.jsonl`` (one game a line) was made by the code of 44e08bc, before
issue 28 moved the rules, the words, the history's and the table's layers, with
``scripts/store_games.py``, which loads this module into whichever tree it is given: its imports
of the site's words, history and table therefore take their older places when the newer ones
are missing. The tests replay the file with the code at hand
(``tests/games/test_stored_games.py``).

Nothing here touches a database: the record, the places and the table's words are asked of the
site's own functions with an unrated game held in memory (:class:`StoredGame`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from games.bots import Bot, HeuristicBot, RandomBot, SearchBot
from games.engine import PRESETS, Clock, Hand, Match, Move, Phase, Rules, seat_view
from games.records import game_record

if TYPE_CHECKING:
    from games.models import Game, GamePlayer

try:  # since issue 28
    from games.history_selectors import (
        hand_rows,
        outcome_in_words,
        placements,
        replay_state,
        replay_steps,
    )
    from games.words import describe, rules_in_short, summary
    from games.words import replay_step as step_words
    from live.table_context import private_context, public_context
except ImportError:  # the code before it, which made the stored games
    # mypy checks this module against the code at hand, which has none of these: it skips them.
    if not TYPE_CHECKING:
        from games.history import Step, _step_words, outcome_in_words, replay_state, replay_steps
        from games.history import _hand_rows as hand_rows
        from games.history import _placements as placements
        from games.history import rules_in_words as rules_in_short
        from games.rules_text import describe, summary
        from games.selectors import private_context, public_context

        def step_words(hand: Any, made: int, names: list[str], resign: Move | None) -> str:
            return str(_step_words(hand, Step(hand.number, made, 0), names, resign))


STORED = Path(__file__).resolve().parent.parent / "data" / "stored_games.jsonl"
PEOPLE = ("alice", "bob", "carol", "dave", "erin", "frank")
# What the record holds of the stored game itself: kept once, beside what the code showed.
GIVEN = ("rules", "seed", "added_seeds", "players", "moves")
AS_GIVEN = "(as the stored game's)"
TIMEOUTS_TO_LEAVE = 3  # the site's: the third time-out in a row is leaving (games/services.py)
TRIES = 3000  # seeds tried for a game that must show something (a moon, a tie...)
WHEN = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


# The games -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """One stored game's table, and how its game goes.

    ``people`` seats are people (named from :data:`PEOPLE`), the rest bots; ``bots`` says who
    decides each seat's moves, a letter a seat (``r`` the refined rule-based player, ``h`` the
    plain one, ``s`` a small search bot, ``x`` random legal moves). ``resign`` is (seat, after
    how many moves of the game) the seat resigns; ``late`` is (seat, which of its turns,
    counted from 0) the seat's clock runs out: the table moves for it, or the game ends
    against it as the site's clock does. ``late_moon`` runs out a person's clock at every moon
    choice. ``want`` names what the game must show (:data:`WANTS`): seeds are tried in turn
    until one deals a game that does.
    """

    name: str
    preset: str  # a key of PRESETS, or "custom"
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    people: int = 2
    bots: str = "rhsr" * 2
    want: str = ""
    resign: tuple[int, int] | None = None
    late: tuple[int, tuple[int, ...]] | None = None
    late_moon: bool = False
    added_seeds: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        seats = [end[0] for end in (self.resign, self.late) if end is not None]
        if any(seat >= self.people for seat in seats):
            raise ValueError(f"{self.name}: only people resign or run out of time, not bots")

    def rules(self) -> Rules:
        if self.preset == "custom":
            return Rules(players=self.players, **self.options)
        return PRESETS[self.preset].make(self.players, **self.options)

    def seed(self, attempt: int) -> bytes:
        return hashlib.sha256(f"stored games/{self.name}/{attempt}".encode()).digest()

    def players_json(self) -> list[dict[str, Any]]:
        return [
            {"seat": seat, "name": PEOPLE[seat], "bot": False}
            if seat < self.people
            else {"seat": seat, "name": f"Bot {seat + 1}", "bot": True}
            for seat in range(self.players)
        ]


def _moon_chosen(choice: str) -> Callable[[Match], bool]:
    return lambda match: any(m.kind == "moon" and m.choice == choice for m in match.moves)


def _points(hand: Hand) -> tuple[int, ...]:
    """The points of a scored hand."""
    assert hand.points is not None, f"hand {hand.number} is not scored"
    return hand.points


def _automatic(match: Match) -> bool:
    return match.rules.moon == "automatic"


def _played_on(match: Match) -> bool:
    """Whether a hand ended with somebody past the target and the lowest total shared, so that
    another was played."""
    totals = [0] * match.players
    for hand in match.hands[:-1]:
        totals = [t + p for t, p in zip(totals, _points(hand), strict=True)]
        if max(totals) >= match.rules.target:
            return True
    return False


WANTS: dict[str, Callable[[Match], bool]] = {
    "": lambda match: True,
    "moon": lambda match: any(hand.shooter is not None for hand in match.hands),
    "sun": lambda match: any(hand.sun for hand in match.hands),
    "automatic moon off the shooter": lambda match: (
        _automatic(match)
        and any(
            hand.shooter is not None and _points(hand)[hand.shooter] < 0 for hand in match.hands
        )
    ),
    "automatic moon to the others": lambda match: (
        _automatic(match)
        and any(
            hand.shooter is not None and _points(hand)[hand.shooter] <= 0 < max(_points(hand))
            for hand in match.hands
        )
    ),
    "chose others": _moon_chosen("others"),
    "chose self": _moon_chosen("self"),
    "moon out of time": lambda match: any(m.kind == "moon" and m.timeout for m in match.moves),
    "timed out at the moon": lambda match: match.hand.phase is Phase.MOON_CHOICE,
    "shared first": lambda match: match.result is not None and len(match.result.winners) > 1,
    "played on": _played_on,
    "kitty": lambda match: any(hand.kitty_taker is not None for hand in match.hands),
}


# The options a host may set, by themselves, to be added up: KITTY | JACK | to(50).
KITTY = {"short_pack": "kitty"}
JACK = {"jack_of_diamonds": True}
SUN = {"shoot_the_sun": True}
OLD_QUEEN = {"old_queen": True}
LEFT_LEADS = {"first_lead": "left_of_dealer"}
STRICT = {"clock": "strict"}
PLAY_ON = {"ties": "play_on"}


def to(target: int) -> dict[str, Any]:
    return {"target": target}


def moon(rule: str) -> dict[str, Any]:
    return {"moon": rule}


# fmt: off
TABLES: tuple[Table, ...] = (
    # Each rule set as it is offered, played to its end.
    Table("standard", "standard", 4, want="moon"),
    Table("published 3", "published", 3, people=1, bots="rhs"),
    Table("club 5 to 50", "club", 5, to(50), people=3, want="chose others"),
    Table("encyclopedia 6, kitty, sun, jack", "encyclopedia", 6, KITTY | SUN | JACK, people=2,
          bots="rrrrrr", want="sun", resign=(0, 330)),
    # Each rule set and table size, ended early: resigned, left (three time-outs in a row),
    # or timed out (the strict clock).
    Table("standard, resigned at the deal", "standard", 4, people=4, resign=(2, 0)),
    Table("standard, left", "standard", 4, people=1, late=(0, (20, 21, 22))),
    Table("standard, added seeds", "standard", 4, people=4, resign=(3, 120),
          added_seeds=("alice's", "", "carol was here", "4")),
    Table("published 4, timed out passing", "published", 4, people=2, late=(1, (14,))),
    Table("published 3, timed out playing", "published", 3, people=3, late=(2, (5,))),
    Table("published 4, moon", "published", 4, people=1, bots="rrrr", want="moon",
          resign=(0, 170)),
    Table("classic, resigned passing", "classic", 4, people=2, resign=(1, 59)),
    Table("classic, a moon", "classic", 4, people=1, bots="rrrr", want="moon", resign=(0, 230)),
    Table("club 4, chose self", "club", 4, people=4, bots="rrrr", want="chose self",
          resign=(3, 170)),
    Table("club 4, left in the first hand", "club", 4, people=3, late=(2, (0, 1, 2))),
    Table("club 5, resigned", "club", 5, people=5, resign=(4, 130)),
    Table("encyclopedia 3", "encyclopedia", 3, people=2, resign=(1, 100)),
    Table("encyclopedia 3, kitty and jack", "encyclopedia", 3, KITTY | JACK, people=1,
          want="kitty", resign=(0, 160)),
    Table("encyclopedia 4, every option", "encyclopedia", 4,
          JACK | SUN | LEFT_LEADS | OLD_QUEEN, people=2, bots="rrrr", want="moon",
          late=(1, (30, 31, 32))),
    Table("encyclopedia 5, kitty and the old queen", "encyclopedia", 5, KITTY | OLD_QUEEN,
          people=2, resign=(1, 140)),
    Table("encyclopedia 5, left of the dealer and jack", "encyclopedia", 5, LEFT_LEADS | JACK,
          people=5, late=(4, (3, 4, 5))),
    Table("encyclopedia 6, old queen", "encyclopedia", 6, OLD_QUEEN, people=6,
          late=(5, (0, 1, 2))),
    Table("encyclopedia 6, kitty, left of the dealer", "encyclopedia", 6, KITTY | LEFT_LEADS,
          people=1, resign=(0, 110)),
    # Custom tables: the options the rule sets do not offer together, to a low target.
    Table("custom, moon to the others", "custom", 4, to(25), want="moon"),
    Table("custom, moon off the shooter", "custom", 4, moon("self") | to(40), want="moon"),
    Table("custom, automatic moon off the shooter", "custom", 4, moon("automatic") | to(50),
          people=4, bots="rrrr", want="automatic moon off the shooter", resign=(3, 280)),
    Table("custom, automatic moon to the others", "custom", 4, moon("automatic") | to(25),
          people=0, bots="rrrr", want="automatic moon to the others"),
    Table("custom, chose self", "custom", 4, moon("choose") | to(30), people=0, bots="rrrr",
          want="chose self"),
    Table("custom 3, chose others", "custom", 3, moon("choose") | to(25), people=0, bots="rrr",
          want="chose others"),
    Table("custom, a moon's choice out of time", "custom", 4, moon("choose") | to(25),
          people=4, bots="rrrr", late_moon=True, want="moon out of time"),
    Table("custom, a moon's choice out of time, strict", "custom", 4,
          moon("choose") | to(25) | STRICT, people=4, bots="rrrr", late_moon=True,
          want="timed out at the moon"),
    Table("custom, shared first", "custom", 4, to(25), people=4, bots="rrrr",
          want="shared first"),
    Table("custom, a tie played on", "custom", 4, to(25) | PLAY_ON, people=0, bots="rrrr",
          want="played on"),
    Table("custom 3, kitty, sun, jack, old queen, strict", "custom", 3,
          KITTY | SUN | JACK | OLD_QUEEN | STRICT | PLAY_ON | to(30), people=3, bots="rrh"),
    Table("custom 5, kitty, left of the dealer, points on the first trick", "custom", 5,
          KITTY | LEFT_LEADS | {"points_on_first_trick": True, "queen_breaks_hearts": True}
          | to(25), people=2),
    Table("custom 6, kitty, sun", "custom", 6, KITTY | SUN | moon("self") | to(30), people=0,
          bots="rrrrrr", want="sun"),
    Table("custom 6, removed", "custom", 6, to(25) | moon("choose"), people=6),
    Table("custom, random play", "custom", 4, to(25), people=1, bots="xxxx"),
    Table("custom, one time-out and on", "custom", 4, to(25) | {"queen_breaks_hearts": True},
          people=4, late=(0, (0, 5, 6, 9))),
)
# fmt: on


# Playing them ----------------------------------------------------------------------------


def _bot(letter: str, seat: int) -> Bot:
    if letter == "r":
        return HeuristicBot(refined=True)
    if letter == "h":
        return HeuristicBot()
    if letter == "s":  # the easy level, without its wall-clock guard: the same moves every run
        return SearchBot(seconds=None, samples=12, seed=seat)
    return RandomBot(seed=seat)


SAFE = HeuristicBot()  # the table's move for a seat out of time (the site's is a quick search)


def _to_act(match: Match) -> int:
    hand = match.hand
    if hand.phase is Phase.PASSING:
        return next(seat for seat in range(match.players) if not hand.has_passed(seat))
    return hand.turn


def _move(match: Match, seat: int, bot: Bot, timeout: bool = False) -> None:
    view = seat_view(match, seat)
    if match.hand.phase is Phase.PASSING:
        match.pass_cards(seat, bot.choose_pass(view), timeout=timeout)
    elif match.hand.phase is Phase.MOON_CHOICE:
        match.choose_moon(seat, bot.choose_moon(view), timeout=timeout)
    else:
        match.play(seat, bot.choose_play(view), timeout=timeout)


def _is_late(table: Table, match: Match, seat: int, turn: int) -> bool:
    if table.late is not None and table.late[0] == seat and turn in table.late[1]:
        return True
    moon = match.hand.phase is Phase.MOON_CHOICE
    return table.late_moon and moon and seat < table.people


def play(table: Table, seed: bytes) -> Match:
    """The game at ``table`` dealt from ``seed``, played out by its bots; its people's clocks
    run out, and they resign, where ``table`` says."""
    rules = table.rules()
    match = Match(rules, seed, table.added_seeds)
    bots = [_bot(table.bots[seat], seat) for seat in range(rules.players)]
    turns = [0] * rules.players
    in_a_row = [0] * rules.players
    while not match.is_over:
        if table.resign is not None and match.version == table.resign[1]:
            match.resign(table.resign[0], "resigned")
            break
        seat = _to_act(match)
        late = _is_late(table, match, seat, turns[seat])
        turns[seat] += 1
        if not late:
            _move(match, seat, bots[seat])
            in_a_row[seat] = 0
        elif rules.clock is Clock.STRICT:
            match.resign(seat, "timed out")
        elif in_a_row[seat] + 1 >= TIMEOUTS_TO_LEAVE:
            match.resign(seat, "left")
        else:
            _move(match, seat, SAFE, timeout=True)
            in_a_row[seat] += 1
    return match


def store(table: Table) -> dict[str, Any]:
    """The first game dealt at ``table`` that shows what it wants, written down."""
    for attempt in range(TRIES):
        seed = table.seed(attempt)
        match = play(table, seed)
        if WANTS[table.want](match):
            game = {
                "table": table.name,
                "preset": table.preset,
                "rules": match.rules.to_json(),
                "seed": seed.hex(),
                "added_seeds": list(table.added_seeds),
                "players": table.players_json(),
                "moves": [move_text(move) for move in match.moves],
            }
            return {**game, "seen": seen(game)}
    raise ValueError(f"No game at {table.name!r} showed {table.want!r} in {TRIES} deals")


# What a person sees of a game ----------------------------------------------------------------


@dataclass(frozen=True)
class Player:
    """A seat as the pages read it (``games.models.GamePlayer``'s fields)."""

    seat: int
    name: str
    is_bot: bool


class _Players(list[Player]):
    """A game's players, asked for as the pages ask a game's related manager."""

    def select_related(self, *fields: str) -> list[Player]:
        return list(self)

    def all(self) -> list[Player]:
        return list(self)


@dataclass
class StoredGame:
    """An unrated game as its row reads (``games.models.Game``), held in memory: finished, with
    its ``result``, or (``result`` None) at the ``version`` its table shows."""

    match: Callable[[], Match]
    result: dict[str, Any] | None
    players: _Players
    seed: bytes
    added_seeds: list[str]
    version: int
    pk: int = 1
    table_id: int = 1
    number: int = 1
    started_at: datetime = WHEN
    finished_at: datetime = WHEN
    deadline: datetime | None = None
    rated: bool = False
    void: bool = False

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @classmethod
    def at(cls, match: Match, players: _Players) -> StoredGame:
        """The game's row as ``match`` (after its latest move) leaves it."""
        result = None if match.result is None else dict(vars(match.result))
        return cls(
            lambda: match, result, players, match.seed, list(match.added_seeds), match.version
        )


def _row(match: Match, players: _Players) -> Game:
    """The game's row as ``match`` leaves it (:meth:`StoredGame.at`), for the site's functions,
    which take a ``Game``: a stored game has all they read of one, but is not a model."""
    return cast("Game", StoredGame.at(match, players))


def _seated(players: _Players) -> list[GamePlayer]:
    """A stored game's players, for the site's functions, which take ``GamePlayer`` rows: a
    :class:`Player` has all they read of one, but is not a model."""
    return cast("list[GamePlayer]", players)


def move_text(move: Move) -> str:
    """A move of the log in a line: its seat, its kind, its cards or choice, and ``timeout``
    for the table's move for a seat out of time: ``"2 play QS"``, ``"1 pass 2C 3C 4C timeout"``,
    ``"0 resign timed out"``."""
    data = move.to_json()
    words = [str(data["seat"]), data["kind"], data.get("cards") or data.get("choice", "")]
    return " ".join([*words, *(["timeout"] if data.get("timeout") else [])]).strip()


def move_of(text: str) -> Move:
    """The move :func:`move_text` wrote, read by the engine."""
    seat, kind, *rest = text.split()
    timeout = rest[-1:] == ["timeout"]
    payload = " ".join(rest[:-1] if timeout else rest)
    cards = {"cards": payload} if kind in ("pass", "play") else {"choice": payload}
    return Move.from_json({"kind": kind, "seat": int(seat), **cards, "timeout": timeout})


def replayed(game: dict[str, Any]) -> Match:
    """A stored game, replayed from its seed and its log by the engine at hand."""
    moves = [move_of(move) for move in game["moves"]]
    return Match.replay(
        Rules.from_json(game["rules"]), bytes.fromhex(game["seed"]), moves, game["added_seeds"]
    )


def seen(game: dict[str, Any]) -> dict[str, Any]:
    """What the pages show of a stored game: replayed from its seed and log, worded and scored
    by the code at hand."""
    match = replayed(game)
    assert match.result is not None, f"{game['table']}: the log does not finish the game"
    players = _Players(Player(p["seat"], p["name"], p["bot"]) for p in game["players"])
    row = _row(match, players)
    record = game_record(row, match)
    given = {**game, "moves": [move_of(move).to_json() for move in game["moves"]]}
    for key in GIVEN:  # what the record says of the stored game itself, kept once
        record[key] = AS_GIVEN if record[key] == given[key] else record[key]
    rules = match.rules
    shown = {
        "record": record,
        "hands": [[row["number"], row["direction"], row["points"]] for row in hand_rows(match)],
        **_replay(match, players),
        "outcome": outcome_in_words(row, _seated(players)),
        "places": [
            [place["place_words"], place["player"].name, place["total"], place["note"]]
            for place in placements(row, _seated(players), match)
        ],
        "result_lines": [
            line.words for line in public_context(row, match, _seated(players))["result_rows"]
        ],
        "summary": summary(rules),
        "rules_in_short": rules_in_short(rules),
        "rules_in_words": [[line.option, line.title, line.text] for line in describe(rules)],
    }
    return dict(json.loads(json.dumps(shown)))  # as the file holds it: lists, not tuples


def _replay(match: Match, players: _Players) -> dict[str, list[Any]]:
    """Move by move: the replay's words for every step (its last step is asked of the replay
    page's own reading too); the table's notice after each move it made for a seat out of time
    and at a game the clock ended; why the player's other cards are refused before each card
    of the first hand; and the table's words (:func:`_table`) at the deal, after the passes and
    the first trick's first and last card (with the hand of the seat to play the first two
    cards), at the end of every hand and after every time-out."""
    names = [player.name for player in players]
    steps = replay_steps(match)
    partial = Match(match.rules, match.seed, match.added_seeds)
    shown: dict[str, list[Any]] = {"steps": [], "notices": [], "refusals": [], "table": []}
    shown["table"].append(_table(partial, players, match.moves[0].seat))
    for step in steps:
        while partial.version < step.before:
            move = match.moves[partial.version]
            number = partial.hand.number
            if move.kind == "play" and number == 1:
                shown["refusals"].append(_refused(seat_view(partial, move.seat).reasons))
            partial.apply(move)
            if move.timeout or partial.is_over:
                notice = public_context(_row(partial, players), partial, _seated(players))
                if notice["timed_out"]:
                    shown["notices"].append([partial.version, notice["timed_out"]])
            if _table_shown(partial, move, number):
                first = number == 1 and not partial.is_over and partial.hand.cards_played < 2
                mover = match.moves[partial.version].seat if first else None
                shown["table"].append(_table(partial, players, mover))
        hand = partial.hand if partial.hand.number == step.hand else partial.hands[-1]
        resign = match.moves[step.before - 1] if step.resign else None
        shown["steps"].append(step_words(hand, step.moves, names, resign))
    last = replay_state(match, _seated(players), steps, len(steps) - 1)["words"]
    words = shown["steps"][-1]
    assert last == words, f"the replay's last step reads {last!r}, not {words!r}"
    return shown


def _table_shown(match: Match, move: Move, number: int) -> bool:
    """Whether the table's words are kept after ``move``, made in hand ``number``."""
    if match.is_over or move.timeout or match.hand.number != number:
        return True
    hand = match.hand
    if number != 1:
        return False
    if move.kind == "pass":
        return all(hand.has_passed(seat) for seat in range(match.players))
    return hand.cards_played in (1, match.players)


def _table(match: Match, players: _Players, me: int | None) -> list[Any]:
    """What the table shows after ``match``'s latest move: to everyone (the status line, each
    seat's facts, the cards on the table, the trick just taken, the hand just scored and the
    number of cards each seat took in it, the notice of a time-out) and to ``me``, the seat to
    move next (a card of its hand for each way a card shows more than itself, with a reason it
    is refused or as passed to it, as its tooltip and a screen reader word it)."""
    row = _row(match, players)
    public = public_context(row, match, _seated(players))
    trick = public["completed_trick"] or public["last_trick"]
    mine: dict[tuple[str, bool], Any] = {}
    for card in (
        [] if me is None else private_context(row, match, _seated(players), me)["hand_cards"]
    ):
        if card.reason or card.received:
            mine.setdefault((card.reason, card.received), card)
    return [
        match.version,
        _worded(public["status"]),
        " / ".join(player.facts for player in public["players"]),
        ", ".join(card.spoken for card in public["trick"]),
        "" if trick is None else _worded(trick.taker) + ": " + _titles(trick.cards),
        public["last_hand_summary"],
        " / ".join(
            f"{taken.player.name}: {len(taken.cards)}" + (" +kitty" if taken.kitty else "")
            for taken in public["hand_taken"]
        ),
        public["timed_out"],
        " / ".join(f"{card.title} ({card.spoken})" for card in mine.values()),
    ]


def _worded(words: Any) -> str:
    """Words that read otherwise for the seats they speak of: "others ‖ yours [seats] after"."""
    return f"{words.others} ‖ {words.yours} [{words.seats}] {words.after}".strip()


def _titles(cards: list[Any]) -> str:
    return ", ".join(card.title for card in cards)


def _refused(reasons: dict[Any, str]) -> str:
    """A seat's refused cards by reason: ``"You must follow clubs: 4D 9H | ..."``."""
    by_reason: dict[str, list[str]] = {}
    for card, reason in reasons.items():
        by_reason.setdefault(reason, []).append(str(card))
    return " | ".join(f"{reason}: {' '.join(cards)}" for reason, cards in by_reason.items())


def differences(game: dict[str, Any]) -> list[str]:
    """What the code at hand shows of a stored game otherwise than the stored game says: one
    line for each part of ``seen`` that differs, naming its first difference."""
    now = seen(game)
    lines = []
    for key in sorted(set(now) | set(game["seen"])):
        before, after = game["seen"].get(key), now.get(key)
        if before != after:
            lines.append(f"{game['table']}: {key}: {_first_difference(before, after)}")
    return lines


def _first_difference(before: Any, after: Any, where: str = "") -> str:
    if isinstance(before, dict) and isinstance(after, dict):
        for key in [*before, *(key for key in after if key not in before)]:
            if before.get(key) != after.get(key):
                return _first_difference(before.get(key), after.get(key), f"{where}[{key!r}]")
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for index, (old, new) in enumerate(zip(before, after, strict=True)):
            if old != new:
                return _first_difference(old, new, f"{where}[{index}]")
    return f"{where or 'it'} was {before!r}, is now {after!r}"


# The file ------------------------------------------------------------------------------------


def stored_games(path: Path = STORED) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            yield json.loads(line)


def write(games: list[dict[str, Any]], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as out:
        for game in games:
            out.write(json.dumps(game, ensure_ascii=False, separators=(",", ":")) + "\n")
