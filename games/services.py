"""The write path: every change to a table or a game goes through these functions.

A move is judged against the game as the caller's process holds it (a table's relay keeps its
running game in memory, live/relays.py) or as loaded from the game's snapshot (never the whole
log), applied, then written in one round trip: appended to the log and the game saved with
version + 1, its new snapshot and deadline, only if the game is still at the version it was
judged on. The database arbitrates between writers; no lock is held while a move is judged.
A refused write means another writer was first: the game is loaded again and the move judged
again. Only once the move is in the database are the tables told (never a hidden card) and the
bots woken. People, bots and time-outs all come through :func:`act`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from typing import Any

import psycopg
from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, connections, models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.validators import invisible_character_in
from games.engine import (
    PRESETS,
    Clock,
    EndReason,
    Event,
    HeartsError,
    Match,
    Move,
    MoveKind,
    Phase,
    Rules,
    new_seed,
    parse_cards,
)
from moderation import gates
from ratings.services import rate_game

from . import effects, selectors, signals, words
from .effects import LOBBY_GROUP as LOBBY_GROUP
from .effects import table_group as table_group
from .errors import AlreadyPlaying as AlreadyPlaying
from .errors import GameOver as GameOver
from .errors import PlayerBarred as PlayerBarred
from .errors import ServiceError as ServiceError
from .errors import StaleVersion as StaleVersion
from .models import ADDED_SEED_LENGTH, Game, GamePlayer, MoveRecord, Seat, Table

log = logging.getLogger(__name__)


def _table_changed(table: Table, *, seating: bool = True) -> None:
    """After commit, the table's sockets hear of it; the lobby too for a change of ``seating``
    (or a new table)."""
    effects.table_changed(table.pk, lobby=seating)


# Tables and seats ------------------------------------------------------------------------


def create_table(
    host: User,
    *,
    preset: str = "standard",
    players: int | None = None,
    options: dict[str, Any] | None = None,
    rated: bool = False,
    private: bool = False,
    bot_level: str = Table.BotLevel.NORMAL,
    one_game: bool = False,
) -> Table:
    """A new table with the host in seat 0."""
    rules = rules_of(preset, players, options or {})
    with transaction.atomic():
        table = Table.objects.create(
            host=host,
            preset=preset,
            rules=rules.to_json(),
            rated=rated,
            private=private,
            bot_level=bot_level,
            one_game=one_game,
        )
        Seat.objects.bulk_create(
            Seat(table=table, index=i, user=host if i == 0 else None) for i in range(rules.players)
        )
        gates.check_may_sit(host, table)  # the host sits down too: refused, nothing is kept
        _table_changed(table)
    return table


def rules_of(preset: str, players: int | None, options: dict[str, Any]) -> Rules:
    """The rules of a rule set (or of "custom") at a table size with these options changed;
    refused if there is no such rule set (the engine's own refusal if it does not offer them)."""
    if preset == "custom":
        return Rules.from_json({"players": players or 4, **options})
    if preset in PRESETS:
        return PRESETS[preset].make(players, **options)
    raise ServiceError(_("Choose one of the rule sets"))


def _locked_table(table_id: int) -> Table:
    return Table.objects.select_for_update().get(pk=table_id)


def take_seat(table_id: int, user: User, index: int, code: str | None = None) -> None:
    """Sit ``user`` in seat ``index``; a private table needs its invite ``code`` (or a seat
    there already, to move to another)."""
    with transaction.atomic():
        table = _locked_table(table_id)
        if table.private and not selectors.can_view(table, user, code):
            raise ServiceError(_("This table is private: sit down through its invite link"))
        if table.status == Table.Status.CLOSED and not table.games.exists():
            raise ServiceError(_("The host has closed this table"))
        if table.status != Table.Status.OPEN:
            raise ServiceError(_("The game has started: you can watch it"))
        gates.check_may_sit(user, table)
        seats = list(table.seats.all())
        if not 0 <= index < len(seats):
            raise ServiceError(_("There is no such seat"))
        seat = seats[index]
        if seat.user_id == user.pk:
            return
        if not seat.is_empty:
            raise ServiceError(_("That seat is taken"))
        Seat.objects.filter(table=table, user=user).update(user=None, added_seed="")
        seat.user = user
        seat.save(update_fields=["user"])
        _table_changed(table)


def leave_seat(table_id: int, user: User) -> None:
    with transaction.atomic():
        table = _locked_table(table_id)
        if table.status != Table.Status.OPEN:
            raise ServiceError(_("The game has started: resign instead"))
        if table.host_id == user.pk:
            raise ServiceError(_("The host cannot leave an open table; close it instead"))
        Seat.objects.filter(table=table, user=user).update(user=None, added_seed="")
        _table_changed(table)


def add_seed(table_id: int, user: User, text: str) -> None:
    """A seated person's own text for the next game's deal (the first, or a rematch), taken as
    typed (see docs/fairness.md). It can be changed until that game starts; it is public."""
    if len(text) > ADDED_SEED_LENGTH:
        raise ServiceError(
            ngettext(
                "An added seed is at most %(count)d character",
                "An added seed is at most %(count)d characters",
                ADDED_SEED_LENGTH,
            )
            % {"count": ADDED_SEED_LENGTH}
        )
    if "\x00" in text or not _is_utf8(text):  # the database and SHA-256 of UTF-8 need these
        raise ServiceError(_("An added seed must be plain text"))
    if code := invisible_character_in(text):  # the other seats would see something else
        raise ServiceError(
            _("An added seed cannot contain invisible or direction-changing characters (%(code)s)")
            % {"code": code}
        )
    with transaction.atomic():
        table = _locked_table(table_id)
        if table.status == Table.Status.PLAYING:  # open, or over and waiting for a rematch
            raise ServiceError(_("The game has started: seeds are added before the first deal"))
        seat = table.seats.filter(user=user).first()
        if seat is None:
            raise ServiceError(_("Take a seat to add a seed"))
        seat.added_seed = text
        seat.save(update_fields=["added_seed"])
        _table_changed(table, seating=False)


def _is_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def set_bot(table_id: int, user: User, index: int, bot: bool) -> None:
    """The host puts a bot in an empty seat or takes one out, before the game starts."""
    with transaction.atomic():
        table = _locked_table(table_id)
        _check_host(table, user)
        seat = table.seats.filter(index=index).first()
        if seat is None:
            raise ServiceError(_("There is no such seat"))
        if bot and not seat.is_empty:
            raise ServiceError(_("That seat is taken"))
        seat.is_bot = bot
        seat.save(update_fields=["is_bot"])
        _table_changed(table)


def fill_with_bots(table_id: int, user: User) -> None:
    with transaction.atomic():
        table = _locked_table(table_id)
        _check_host(table, user)
        table.seats.filter(user__isnull=True).update(is_bot=True)
        _table_changed(table)


def close_table(table_id: int, user: User) -> None:
    """The host closes a table where no game has started: it leaves the lobby, and the people
    seated there see that it is closed."""
    with transaction.atomic():
        table = _locked_table(table_id)
        if table.host_id != user.pk:
            raise ServiceError(_("Only the host can close the table"))
        if table.status != Table.Status.OPEN or table.games.exists():
            raise ServiceError(_("A game has started at this table: it can no longer be closed"))
        table.status = Table.Status.CLOSED
        table.save(update_fields=["status"])
        _table_changed(table)


def new_invite_code(table_id: int, user: User) -> Table:
    """The host of a private table gives it a new invite code, when its link went further than
    it should: the old link then lets nobody in. Whoever sits there stays; a screen that came
    in by the old link is closed (live/relays.py)."""
    with transaction.atomic():
        table = _locked_table(table_id)
        if table.host_id != user.pk:
            raise ServiceError(_("Only the host can make a new invite link"))
        if not table.private:
            raise ServiceError(_("Anyone may join a public table: it has no invite link"))
        table.change_invite_code()
        table.save(update_fields=["invite_code"])
        _table_changed(table, seating=False)
    return table


def _check_host(table: Table, user: User) -> None:
    if table.host_id != user.pk:
        raise ServiceError(_("Only the host can do that"))
    _check_open(table)


def _check_open(table: Table) -> None:
    """Seats are changed, and a game is started, only at an open table: not once its game has
    started, nor at a table its host closed, nor after its game (a rematch opens it again)."""
    if table.status == Table.Status.PLAYING:
        raise ServiceError(_("The game has already started"))
    if table.status == Table.Status.CLOSED:
        if table.games.exists():
            raise ServiceError(_("The game is over: ask for a rematch to play again"))
        raise ServiceError(_("The host has closed this table"))


def start_game(table_id: int, user: User) -> Game:
    """Deal the first hand, from the seed the table committed to and the seats' added seeds.
    Every seat must be a person or a bot."""
    with transaction.atomic():
        table = _locked_table(table_id)
        if table.host_id != user.pk:
            raise ServiceError(_("Only the host can start the game"))
        _check_open(table)
        seats = list(table.seats.select_related("user"))
        if any(seat.is_empty for seat in seats):
            raise ServiceError(_("Fill every seat (people or bots) before starting"))
        _check_players_may_play(table, seats, user)
        has_bot = any(seat.is_bot for seat in seats)
        last = table.current_game()
        game = Game.objects.create(
            table=table,
            number=(last.number + 1) if last else 1,
            rules=table.rules,
            rated=table.rated
            and not has_bot
            and gates.may_be_rated([seat.user for seat in seats if seat.user is not None]),
            seed=bytes(table.next_seed),
            # One per seat, always; a bot adds nothing (docs/fairness.md, section 10).
            added_seeds=["" if seat.is_bot else seat.added_seed for seat in seats],
        )
        GamePlayer.objects.bulk_create(
            GamePlayer(game=game, seat=s.index, user=s.user, is_bot=s.is_bot) for s in seats
        )
        table.status = Table.Status.PLAYING
        table.next_seed = new_seed()  # the next game's, whose fingerprint the table shows next
        table.save(update_fields=["status", "next_seed"])
        table.seats.update(added_seed="")
        match = Match(Rules.from_json(game.rules), bytes(game.seed), game.added_seeds)
        bots = {seat.index for seat in seats if seat.is_bot}
        _set_deadline(game, match, bots, keep=False)
        game.keep_snapshot(match)
        game.save(update_fields=["deadline", "snapshot"])
        _after_change(game, match, bots)
    return game


def _check_players_may_play(table: Table, seats: list[Seat], starter: User) -> None:
    """Everyone seated may still play here: since they sat down, staff may have suspended one
    of them, or they may have earned a ban from rated tables (a rematch, too)."""
    for seat in seats:
        if seat.user is None:
            continue
        try:
            gates.check_may_start(seat.user, table)
        except ServiceError as refused:
            user_id, name = seat.user.pk, seat.user.username
            if user_id == starter.pk:  # their own reason, for them
                raise PlayerBarred(str(refused), user_id=user_id, name=name) from refused
            raise PlayerBarred(
                _(
                    "%(name)s cannot play at this table now: the game cannot start until their "
                    "seat is free or given to a bot"
                )
                % {"name": name},
                user_id=user_id,
                name=name,
            ) from refused


def play_now(user: User) -> Game:
    """A casual Standard table against three bots, dealt at once; refused (``AlreadyPlaying``)
    while the person plays another game, which would time them out and count them as leaving.
    The person's row is locked first, so that a second click does not deal a second game."""
    with transaction.atomic():
        list(User.objects.select_for_update().filter(pk=user.pk))
        running = selectors.running_game(user)
        if running is not None:
            raise AlreadyPlaying(running)
        table = create_table(user)
        fill_with_bots(table.pk, user)
        return start_game(table.pk, user)


def rematch(table_id: int, user: User) -> Game:
    """Another game at the same table with the same seats, once the last one is over. Refused
    as a whole when someone seated may no longer play there (suspended, say): the table stays
    as it was, and everyone at it is told who cannot play and what is left to do; the person
    who asked is refused in the same words (in their own, if it is them)."""
    try:
        with transaction.atomic():
            table = _locked_table(table_id)
            game = table.current_game()
            if game is None or not game.is_over:
                raise ServiceError(_("The game is still on"))
            if not table.seats.filter(user=user).exists():
                raise ServiceError(_("Only the players can ask for a rematch"))
            if table.one_game:
                raise ServiceError(_("This table was made for one game: there is no rematch"))
            table.status = Table.Status.OPEN
            table.host = user
            table.save(update_fields=["status", "host"])
            return start_game(table_id, user)
    except PlayerBarred as barred:
        effects.table_notice(table_id, words.Notice.REMATCH_REFUSED, name=barred.name)
        if barred.user_id == user.pk:
            raise
        raise ServiceError(words.rematch_refused(barred.name)) from barred


# Moves -----------------------------------------------------------------------------------


@dataclass
class Running:
    """A running game as a process holds it between moves: its row, the engine's state at the
    row's version and its players. A move applies to it in place; if the move's write is then
    refused (another writer was first), it is ``stale`` and must be loaded again."""

    game: Game
    match: Match
    players: list[GamePlayer]
    stale: bool = False

    @property
    def bots(self) -> set[int]:
        """The seats bots play."""
        return {p.seat for p in self.players if p.is_bot}

    def player(self, seat: int) -> GamePlayer:
        return next(p for p in self.players if p.seat == seat)


def running(game_id: int) -> Running:
    """The game as the database has it now: two reads, the row (with its snapshot, never the
    whole log) and the players."""
    game = Game.objects.select_related("table").get(pk=game_id)
    return Running(game, game.live_match(), list(game.players.select_related("user")))


@dataclass(frozen=True)
class Outcome:
    version: int
    events: list[Any]
    match: Match  # the game's state after the move, at ``version``: read it, never change it


class Conflict(Exception):
    """The move's write was refused: another writer advanced the game first."""


WRITE_TRIES = 3  # a move judged again after a refused write, against the game loaded again


def act(
    game_id: int,
    seat: int,
    kind: str,
    *,
    version: int | None,
    cards: Iterable[str] = (),
    choice: str = "",
    timeout: bool = False,
    held: Running | None = None,
    publish: bool = True,
) -> Outcome:
    """Apply one move for ``seat``; ``version`` is the one the mover saw (None: trust it).

    The move is judged against ``held`` (the game as the caller's process holds it: a table's
    relay, live/relays.py) or the game loaded now, then written in one round trip that
    appends it to the log and advances the game only if the game is still at the version it
    was judged against (:func:`_write`). No lock is held while it is judged. If another
    writer was first, the game is loaded again and the move judged again: a move made on the
    table as it was is then refused as stale. ``publish`` False leaves the table's news to
    the caller (the relay that made the move tells its own sockets and the other processes, and
    makes the bots' next move: no task is queued for them).

    A ``timeout`` move is the table's, made for a seat whose deadline has passed: it is
    refused (StaleVersion) unless the game is still waiting on that deadline. Under the strict
    clock, or at a player's third time-out in a row under the relaxed one, it ends the game
    against the seat instead.
    """
    for _attempt in range(WRITE_TRIES):
        state = held if held is not None and not held.stale else running(game_id)
        try:
            return commit(judge(state, seat, kind, version, cards, choice, timeout), publish)
        except Conflict:
            held = None
    raise ServiceError(_("The table is busy: please try that move again"))


@dataclass
class Judged:
    """A move judged and applied to the game as its process holds it (``state``, stale until
    the move is written), with what its write needs."""

    state: Running
    events: list[Any]
    before: int  # the game's version it was judged on
    record: MoveRecord
    snapshot: bool
    player: GamePlayer
    count: int  # the player's time-outs in a row after it
    finished: bool

    @property
    def alone(self) -> bool:
        """Whether the move is written by its one statement (no time-out counted or reset,
        not the game's end with its rating): :func:`statement`."""
        return not self.finished and self.count == self.player.timeouts_in_a_row


def judge(
    state: Running,
    seat: int,
    kind: str,
    version: int | None,
    cards: Iterable[str],
    choice: str,
    timeout: bool = False,
) -> Judged:
    """The move judged against ``state`` and applied to it in memory (nothing is read or
    written): refused (StaleVersion, ServiceError) before anything changes."""
    game, match = state.game, state.match
    if game.is_over:
        raise GameOver()
    if version is not None and version != game.version:
        # Passes are made at the same time: one seen before another seat's pass of the
        # same hand still stands. Anything else made on an old table is refused.
        hand_started = match.version - len(match.hand.moves)
        if not (kind == MoveKind.PASS and hand_started <= version < game.version):
            raise StaleVersion()
    if _made_already(state, seat, kind, timeout):
        raise StaleVersion()
    if timeout:
        kind, cards, choice = _timed_out(state, seat, kind, cards, choice)
    try:
        move = Move(kind, seat, tuple(parse_cards(list(cards))), choice, timeout)
        events = match.apply(move)  # refuses a move it cannot make before changing anything
    except HeartsError as error:
        raise ServiceError(words.refusal_text(str(error))) from error
    state.stale = True  # until the write is in: the match has moved on, the row not yet
    before = game.version
    game.version += 1
    record = MoveRecord.of(game, game.version, match.moves[-1])
    snapshot = game.snapshot_due(match)
    if snapshot:
        game.keep_snapshot(match)
    player = state.player(seat)
    count = player.timeouts_in_a_row
    if kind != MoveKind.RESIGN:
        count = count + 1 if timeout else 0
    finished = match.result is not None
    if finished:
        _finish(game, match)
    else:
        _set_deadline(
            game, match, state.bots, keep=kind == MoveKind.PASS, pause=effects.trick_pause(events)
        )
    return Judged(state, events, before, record, snapshot, player, count, finished)


def _made_already(state: Running, seat: int, kind: str, timeout: bool) -> bool:
    """Whether a move the table makes for ``seat`` (a bot's, or a time-out's) finds the game no
    longer waiting on that seat: another of its makers was first (the relay's bots and the
    deadline's task move for the same seats), so the move is stale, not wrong. A person's own
    move made twice is refused in the engine's words instead ("You have already passed")."""
    if kind == MoveKind.RESIGN or not (timeout or seat in state.bots):
        return False
    hand = state.match.hand
    if kind == MoveKind.PASS:  # the pass may be over, and the seat to lead the same one
        return hand.phase is not Phase.PASSING or hand.has_passed(seat)
    return seat not in seats_to_act(state.match)


def commit(judged: Judged, publish: bool) -> Outcome:
    """Write a judged move: its one statement alone, or with a time-out counted or the game's
    end and its rating in one transaction. Conflict if another writer was first."""
    game = judged.state.game
    # A move alone is its one statement; a time-out counted (or the count reset after one) or
    # the game's end, with its rating, are written with it in one transaction.
    with nullcontext() if judged.alone else transaction.atomic():
        written = _write(
            game, judged.before, judged.record, snapshot=judged.snapshot, finished=judged.finished
        )
        if not written:
            raise Conflict
        _count_timeouts(game, judged.player, judged.count)
        if judged.finished:
            _after_finish(game)
    return settle(judged, publish)


def settle(judged: Judged, publish: bool) -> Outcome:
    """After a judged move's write: the game is as the database has it again, and the
    effects follow (games/effects.py)."""
    state = judged.state
    state.stale = False
    _after_change(state.game, state.match, state.bots, judged.events, publish=publish)
    return Outcome(state.game.version, judged.events, state.match)


def statement(judged: Judged) -> tuple[bytes, list[Any]]:
    """The one statement that writes a move ``alone`` on PostgreSQL, and its values: for a
    process that sends it by a connection of its own (live/fast_writes.py)."""
    assert judged.alone
    judged.record.created_at = timezone.now()
    return _statement(judged.state.game, judged.before, judged.record, judged.snapshot, False)


def _write(
    game: Game, before: int, record: MoveRecord, *, snapshot: bool, finished: bool = False
) -> bool:
    """Append ``record`` to the log and save the game's new version and deadline (its new
    snapshot too if ``snapshot``; ``finished``, its status, result and end), only if the game
    is still at version ``before``; whether it was. On PostgreSQL one statement, so one round trip, that needs no
    transaction around it; the log's unique (game, number) is the backstop of the version's
    check. Elsewhere (SQLite, in the process) an update and an insert in a transaction."""
    record.created_at = timezone.now()
    fields = _written_fields(game, snapshot, finished)
    connection = connections[Game.objects.db]
    if connection.vendor != "postgresql":
        with transaction.atomic():
            moved = Game.objects.filter(
                pk=game.pk, version=before, status=Game.Status.PLAYING
            ).update(**fields)
            if moved:
                record.save(force_insert=True)
            return bool(moved)
    sql, values = _statement(game, before, record, snapshot, finished)
    # Bound on the server and prepared once a connection (psycopg's server-side cursor), not
    # quoted into the text on every move as Django's cursors do: the snapshot is kilobytes.
    connection.ensure_connection()
    start = time.monotonic()
    try:
        with psycopg.Cursor(connection.connection) as cursor:
            cursor.execute(sql, values, prepare=True)
            written = cursor.rowcount == 1
    except (IntegrityError, psycopg.IntegrityError):  # the backstop: another writer logged it
        return False
    if connection.queries_logged:  # as Django's cursors log a statement (tests count them)
        connection.queries_log.append(
            {"sql": sql.decode(), "time": f"{time.monotonic() - start:.3f}"}
        )
    return written


def _written_fields(game: Game, snapshot: bool, finished: bool) -> dict[str, Any]:
    """What a move's write sets of the game's row: its version and deadline, its snapshot if
    ``snapshot``, and if ``finished`` its status, result and end (and no deadline)."""
    fields: dict[str, Any] = {"version": game.version, "deadline": game.deadline}
    if snapshot:
        fields["snapshot"] = game.snapshot
    if finished:
        fields.update(
            status=game.status, result=game.result, finished_at=game.finished_at, deadline=None
        )
    return fields


def _statement(
    game: Game, before: int, record: MoveRecord, snapshot: bool, finished: bool
) -> tuple[bytes, list[Any]]:
    """The one statement (PostgreSQL's) of :func:`_write`, and its values."""
    connection = connections[Game.objects.db]
    fields = _written_fields(game, snapshot, finished)
    settings_sql, values = [], []
    for name, value in fields.items():
        column = _field(Game, name)
        settings_sql.append(f"{column.column} = %s")
        values.append(column.get_db_prep_save(value, connection))
    log_fields = [_field(MoveRecord, name) for name in _LOG_COLUMNS]
    sql = (
        f"WITH moved AS (UPDATE {Game._meta.db_table} SET {', '.join(settings_sql)} "
        f"WHERE id = %s AND version = %s AND status = %s RETURNING id) "
        f"INSERT INTO {MoveRecord._meta.db_table} "
        f"(game_id, {', '.join(str(f.column) for f in log_fields)}) "
        f"SELECT id, {', '.join(['%s'] * len(log_fields))} FROM moved"
    )
    values += [game.pk, before, Game.Status.PLAYING]
    values += [f.get_db_prep_save(getattr(record, f.attname), connection) for f in log_fields]
    return sql.encode(), values


def _field(model: type[models.Model], name: str) -> models.Field[Any, Any]:
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field)
    return field


_LOG_COLUMNS = ("number", "kind", "seat", "cards", "choice", "timeout", "created_at")


def _count_timeouts(game: Game, player: GamePlayer, count: int) -> None:
    if count != player.timeouts_in_a_row:
        GamePlayer.objects.filter(game=game, seat=player.seat).update(timeouts_in_a_row=count)
        player.timeouts_in_a_row = count


def _timed_out(
    state: Running, seat: int, kind: str, cards: Iterable[str], choice: str
) -> tuple[str, Iterable[str], str]:
    """The move the table makes for a seat out of time: the safe one offered, or the end."""
    game, match = state.game, state.match
    if game.deadline is None or timezone.now() < game.deadline:
        raise StaleVersion()  # early, or the turn has been played
    if match.rules.clock is Clock.STRICT:
        return MoveKind.RESIGN, (), EndReason.TIMED_OUT
    player = state.player(seat)
    if not player.is_bot and player.timeouts_in_a_row + 1 >= TIMEOUTS_TO_LEAVE:
        return MoveKind.RESIGN, (), EndReason.LEFT
    return kind, cards, choice


TIMEOUTS_TO_LEAVE = 3  # relaxed time-outs in a row that count as leaving the table


def _set_deadline(
    game: Game, match: Match, bots: set[int], *, keep: bool, pause: float = 0.0
) -> None:
    """The time by which the seats waited on must move: a fresh one for every turn, and one
    for all the passes of a hand (``keep``: another seat's pass leaves it as it was).

    When only bots are waited on, the deadline is their delay, the ``pause`` their task waits
    on top (a completed trick shown) and a few seconds' grace: if their task is lost (a worker
    killed while it held it), the sweep makes their move then, rather than after a person's
    whole turn."""
    waiting = seats_to_act(match)
    if not waiting:
        game.deadline = None
        return
    passing = match.hand.phase is Phase.PASSING
    if set(waiting) <= bots:
        seconds = settings.HEARTS_BOT_DELAY + pause + settings.HEARTS_BOT_GRACE
    elif keep and passing and game.deadline is not None:
        return
    else:
        seconds = settings.HEARTS_PASS_SECONDS if passing else settings.HEARTS_CARD_SECONDS
    game.deadline = timezone.now() + timedelta(seconds=seconds)


def bot_seats(game: Game) -> set[int]:
    """The seats of ``game`` that bots play."""
    return set(game.players.filter(is_bot=True).values_list("seat", flat=True))


def resign(game_id: int, seat: int, reason: str = EndReason.RESIGNED) -> Outcome:
    return act(game_id, seat, MoveKind.RESIGN, version=None, choice=reason)


def _finish(game: Game, match: Match) -> None:
    """The row of a game ``match`` has just ended, in memory: saved by the move's write."""
    result = match.result
    assert result is not None
    game.status = Game.Status.FINISHED
    game.result = result.to_json()
    game.finished_at = timezone.now()
    game.deadline = None


def _after_finish(game: Game) -> None:
    """In the transaction of a game's last move: the table closes, the game is rated and the
    gates hear how it ended."""
    Table.objects.filter(pk=game.table_id).update(status=Table.Status.CLOSED)
    rate_game(game)
    gates.after_game(game)
    transaction.on_commit(partial(signals.game_finished.send, sender=Game, game_id=game.pk))


def seats_to_act(match: Match) -> list[int]:
    """The seats the game is waiting for."""
    if match.is_over:
        return []
    hand = match.hand
    if hand.phase is Phase.PASSING:
        return [s for s in range(match.players) if not hand.has_passed(s)]
    return [hand.turn] if hand.turn >= 0 else []


def _after_change(
    game: Game, match: Match, bots: set[int], events: Sequence[Event] = (), *, publish: bool = True
) -> None:
    """After commit (games/effects.py): the table hears of ``events``, the lobby of a game
    started or over, and the bots' task is queued if one is to move (people's deadline is on
    the game row, for the sweep). Unless ``publish`` is False: then the caller is the table's
    relay (live/relays.py), which tells the table itself and makes its bots' moves itself."""
    waiting = seats_to_act(match)
    effects.game_changed(
        game.table_id,
        game.pk,
        game.version,
        events,
        lobby=game.version == 0 or game.is_over,
        bots_to_move=publish and any(seat in bots for seat in waiting),
        table=publish,
    )


def resume_clocks() -> int:
    """Before the site starts again after it was down: nobody could move meanwhile, so every
    running game gets a fresh deadline for the turn in progress (a bot's turn is due at once).
    Only the database changes; the sweep in Celery beat enforces the deadlines as they pass.
    Returns the number of games resumed."""
    resumed = 0
    for game_id in Game.objects.filter(status=Game.Status.PLAYING).values_list("pk", flat=True):
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=game_id)
            if game.is_over:
                continue
            match = game.live_match()
            bots = bot_seats(game)
            _set_deadline(game, match, bots, keep=False)
            if set(seats_to_act(match)) <= bots:
                game.deadline = timezone.now()
            game.save(update_fields=["deadline"])
            resumed += 1
    return resumed
