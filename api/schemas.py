"""The shapes of the open API's answers (api/v1.py), which its OpenAPI schema and docs page
show: docs/records.md says what each field holds."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Any, Literal

from ninja import Field, Schema

from games.engine import PRESETS

if TYPE_CHECKING:
    RuleSet = str
else:  # the rule sets' keys, so that the schema lists them and another is refused, naming them
    RuleSet = Literal[tuple(PRESETS)]


class Message(Schema):
    detail: str


class RatingOut(Schema):
    rating: int = Field(
        description="the rating as the site shows it (mu less three sigmas, scaled)"
    )
    mu: float
    sigma: float
    games: int = Field(description="rated games played")
    provisional: bool


class GamesCounted(Schema):
    rule_set: str
    players: int
    games: int
    rated_games: int


class RecordOut(Schema):
    games: int
    wins: int
    hands: int
    points: int
    moons: int


class RecentOut(Schema):
    game: int
    finished_at: str | None
    rule_set: str
    players: int
    place: int | None
    total: int
    rated: bool
    rating_change: int | None
    reason: str


class PlayerOut(Schema):
    name: str
    shown_as: str
    closed: bool
    joined: str
    profile: str
    rating: RatingOut | None = Field(
        description="one rating a person, over every rule set and table size of rated game"
    )
    games: list[GamesCounted]
    record: RecordOut
    recent: list[RecentOut]


class SeatOut(Schema):
    seat: int
    name: str | None = Field(description="the account's name; null for a bot")
    shown_as: str
    bot: bool
    closed: bool


class ResultOut(Schema):
    reason: str
    ended_early: bool
    places: list[int]
    totals: list[int]
    forfeited: int | None


class GameSummary(Schema):
    id: int
    url: str
    table: int
    number: int
    rule_set: str
    players: int
    rated: bool
    void: bool
    status: str
    started_at: str | None
    finished_at: str | None
    seats: list[SeatOut]
    result: ResultOut | None


class GamePage(Schema):
    count: int
    page: int
    pages: int
    next: str | None
    games: list[GameSummary]


class HandOut(Schema):
    number: int
    dealer: int
    dealt: list[str]
    kitty: str
    passes: list[str]
    points: list[int] | None


class MoveOut(Schema):
    number: int
    seat: int
    kind: str
    cards: list[str]
    choice: str
    timeout: bool
    at: str | None


class RatingChangeOut(Schema):
    seat: int
    name: str
    place: int
    before: int
    after: int
    change: int
    provisional: bool


class CheckOut(Schema):
    fingerprint: str = Field(description="SHA-256 of the seed, shown before the first card")
    seed: str | None = Field(description="the seed, published once the game is over")
    added_seeds: list[str]
    page: str
    checker: str | None = None


class RunningOut(Schema):
    version: int
    hand: int
    scores: list[list[int]] = Field(default=[], description="each hand played out's points")
    totals: list[int]


class GameOut(GameSummary):
    rules: dict
    check: CheckOut
    running: RunningOut | None = None
    format: str | None = None
    hands: list[HandOut] | None = None
    moves: list[MoveOut] | None = None
    totals: list[int] | None = None
    rating_changes: list[RatingChangeOut] | None = None


class RunningGame(GameSummary):
    running: RunningOut


class RunningPage(Schema):
    count: int
    page: int
    pages: int
    next: str | None
    games: list[RunningGame]


class Ranked(Schema):
    rank: int
    name: str
    rating: int
    games: int
    provisional: bool


class LeaderboardOut(Schema):
    count: int
    page: int
    pages: int
    next: str | None
    players: list[Ranked]


class ArenaOut(Schema):
    id: int
    name: str
    url: str
    rule_set: str
    players: int
    starts_at: str | None
    minutes: int
    state: str


class StandingOut(Schema):
    """A row of an arena's standings, read from the arena page's own rows
    (arenas.selectors.Row)."""

    place: int = Field(description="equal points and wins share a place (1, 1, 1, 4)")
    name: str
    rating: int = Field(description="the rating as the site shows it, as /players/{name} does")
    provisional: bool
    points: float = Field(description="the arena's points, to one decimal, as the page shows")
    games: int
    wins: int = Field(description="games placed first, alone or shared, as a player's record")
    streak: bool
    paused: bool
    playing: bool

    @staticmethod
    def resolve_points(row: Any) -> float:
        return float(row.points_number)


class ArenaDetail(ArenaOut):
    standings: list[StandingOut]


class ArenaLists(Schema):
    upcoming: list[ArenaOut]
    running: list[ArenaOut]
    finished: list[ArenaOut]


class GameFilters(Schema):
    rule_set: RuleSet | None = Field(None, description="a rule set's key, as in the lobby")
    players: int | None = Field(None, ge=3, le=6, description="the table's size")
    rated: bool | None = None
    result: Literal["finished", "early"] | None = Field(
        None, description="finished: played to the target; early: resigned, left or timed out"
    )
    since: date | None = Field(None, description="finished on or after this day (YYYY-MM-DD)")
    until: date | None = Field(None, description="finished on or before this day (YYYY-MM-DD)")


class BoardFilters(Schema):
    rule_set: RuleSet | None = Field(None, description="those who played it rated")
    players: int | None = Field(None, ge=3, le=6, description="those who played rated at it")


class Paging(Schema):
    page: int = Field(1, ge=1, le=100_000)
    per_page: int = Field(20, ge=1, le=100)


class ReviewProgressOut(Schema):
    status: Literal["queued", "running"]
    hands_done: int
    hands_total: int


class VerdictOut(Schema):
    move: int = Field(description="the move's place in the game's log, from 0")
    seat: int
    hand: int
    trick: int = Field(description="the trick the card was played to (a pass: 1)")
    kind: Literal["pass", "play"]
    chosen: list[str]
    best: list[str] = Field(description="the bot's choice, by what the player knew")
    value: float = Field(description="expected points less the others' average (lower: better)")
    best_value: float
    loss: float = Field(description="expected points the choice cost against the bot's")
    mark: Literal["inaccuracy", "mistake", "blunder"] | None


class ReviewSummaryOut(Schema):
    seat: int
    name: str
    lost: float
    per_hand: float
    by_hand: list[float]
    marks: dict[str, int]
    decisions: int


class ReviewOut(Schema):
    game: int
    bot_version: str
    cpu_seconds: float
    summary: list[ReviewSummaryOut]
    verdicts: list[VerdictOut]
