"""The table as one seat (or a spectator) sees it: the context its fragments are rendered from.

The table's context comes in two parts. What every screen shows alike (the board's state, the
status line, the seats, the trick, the result, the scores, the deal's fairness) is read from the
public context, which knows no viewer: it is rendered once a move for the whole table. A
player's own hand and buttons are read from the private context of their seat. Both are made
of small view objects (a seat, a card of the hand, a card on the table, a trick), whose words
come from live/table_words.py and games/words.py, in the language active when the context is made (the engine's words,
its cards and refusals, are put in that language there).
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, TypeVar, dataclass_transform

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils import timezone
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from games import words
from games.engine import (
    Card,
    EndReason,
    LastTrick,
    Match,
    MoveKind,
    Phase,
    SeatView,
    last_trick,
    seat_view,
    taken_in_last_hand,
)
from games.models import Game, GamePlayer
from games.selectors import rating_changes, seat_among
from learn.reasons import anchor_for
from learn.rules_pages import rules_url

from . import table_words
from .pieces import Pieces

T = TypeVar("T")


@dataclass_transform(eq_default=True)
def shown_value(cls: type[T]) -> type[T]:
    """A value the board shows, never changed once made, equal and hashable by its fields (a
    piece's value: live/pieces.py). Not frozen: a frozen dataclass's ``__init__`` costs about
    twice as much, and these are made for every screen's fragments at every move."""
    return dataclass(eq=True, unsafe_hash=True)(cls)


class _Shown:
    """A value the board's fragments show, read by the template in the loops that go out with
    every move: Django's templates try ``value[name]`` before ``value.name``, and the failed
    first try costs more than the attribute itself, so this answers it with the attribute."""

    def __getitem__(self, name: str) -> Any:
        return getattr(self, name)


@shown_value
class PlayerInfo(_Shown):
    """A seat as every screen at the table shows it: by its number, whoever looks (each page's
    CSS turns the table so that its own seat sits at the bottom: scripts/table_seats_css.py)."""

    seat: int
    name: str
    is_bot: bool
    cards: int
    points: int  # taken this hand, as far as everyone can see (the kitty once the hand is scored)
    total: int
    passed: bool
    to_play: bool
    on_the_clock: bool  # the table waits on this seat (its turn, or a pass not yet made)

    # What the seats show of it, worked out here: the template's loop over the seats goes out
    # with every move, and each tag it evaluates there costs more than these lines do.

    @property
    def classes(self) -> str:
        """Its classes besides ``seat``: its number, and whether it is to play."""
        return f"at-{self.seat}" + (" to-play" if self.to_play else "")

    @property
    def facts(self) -> str:
        """What the seat shows of its cards and points: "13 cards · 1 point · total 20"."""
        return table_words.seat_facts(self.cards, self.points, self.total)

    @property
    def plate_facts(self) -> str:
        """The facts as the seat's plate shows them: "total 20" never over two lines."""
        return table_words.seat_facts(self.cards, self.points, self.total, total_unbroken=True)


@shown_value
class Worded(_Shown):
    """Words that read differently for the players they speak of: ``yours`` for a player in
    one of ``seats`` (their numbers, "0 2"), ``others`` for everyone else, spectators included,
    followed by the words alike for all, ``after``. Both go out in the same HTML to
    every screen, each marked with the seats it is for, and the page's CSS shows one of them
    (display: none hides the other from screen readers too)."""

    others: str
    yours: str = ""
    seats: str = ""
    after: str = ""


@shown_value
class CardInfo(_Shown):
    """A card of the viewer's own hand, with what its button shows: worked out here, since a
    hand goes out with most pushes and the template's loop over it is the costliest part."""

    card: Card
    legal: bool
    reason: str  # why it may not be played, in words (games/words.py: refusal_text)
    received: bool  # passed to this seat this hand: shown with a brass tab
    passed: bool  # chosen to pass, until the passes are exchanged: shown marked, not playable
    # The rest follow from the hand and the view, which the hand's fragment key holds already.
    my_turn: bool = field(default=False, repr=False)
    direction: str = field(default="", repr=False)  # of the pass
    first: bool = field(default=False, repr=False)  # the hand's first card, its one Tab stop

    @property
    def refused(self) -> bool:
        """The seat is to play and may not play this card: shown dimmed, not pressable."""
        return self.my_turn and not self.legal

    @property
    def classes(self) -> str:
        """The button's classes besides ``card``: its suit, playable or not, passed."""
        return (
            f"suit-{self.card.suit.char}"
            + ((" legal" if self.legal else " illegal") if self.my_turn else "")
            + (" received" if self.received else "")
            + (" passed" if self.passed else "")
        )

    @property
    def tab_index(self) -> str:
        return "0" if self.first else "-1"

    @property
    def symbol(self) -> str:
        return self.card.suit.symbol

    @property
    def called(self) -> str:
        """The card as the object of a sentence names it ("the queen of clubs"): what the page
        says of the cards passed to this seat ("Bob passed you ...")."""
        return words.card_as_object(self.card)

    @property
    def title(self) -> str:
        """The button's tooltip: "Q♣ (passed to you): You must follow hearts"."""
        passed = self.direction if self.passed else ""
        return table_words.card_title(
            self.card.display, self.reason, received=self.received, passed=passed
        )

    @property
    def spoken(self) -> str:
        """What a screen reader says of the card: "queen of clubs, passed to you"."""
        passed = self.direction if self.passed else ""
        reason = self.reason if self.my_turn else ""
        return table_words.card_spoken(
            words.card_name(self.card), reason, received=self.received, passed=passed
        )


@shown_value
class PlayedCard(_Shown):
    """A card on the table, by the seat that played it: a piece of the trick's fragment
    (live/pieces.py), so it holds only what it shows."""

    seat: int
    name: str  # of the seat's player
    card: Card
    took: bool = False  # of a completed trick: this card took it
    looked_back: bool = False  # shown again by the Last trick button: not news to announce

    @property
    def classes(self) -> str:
        """Its classes besides ``played card``: suit, the seat it comes from, whether it took."""
        return f"suit-{self.card.suit.char} from-at-{self.seat}" + (" took" if self.took else "")

    @property
    def symbol(self) -> str:
        return self.card.suit.symbol

    @property
    def title(self) -> str:
        """Its tooltip: "Q♣ from Bob"."""
        return table_words.played_by(self.card.display, self.name)

    @property
    def spoken(self) -> str:
        """What a screen reader says of it: "queen of clubs from Bob"."""
        return table_words.played_by(words.card_name(self.card), self.name)

    @property
    def called(self) -> str:
        """The card as the object of a sentence names it ("the queen of clubs"): what the page
        says of the cards played ("Bob plays ...")."""
        return words.card_as_object(self.card)


@shown_value
class SeatPlate(_Shown):
    """A seat's plate as the seats' fragment shows it: a piece (live/pieces.py) whose name,
    facts and clock are slots. Only the seat the table waits on, a person's, shows the clock."""

    seat: int
    name: str
    is_bot: bool
    facts: str  # "13 cards · 1 point · total 20", the total never over two lines
    passed: bool
    to_play: bool
    passing: bool
    clock: bool = False
    deadline_ms: str = ""
    seconds_left: str = ""

    @property
    def classes(self) -> str:
        """Its classes besides ``seat``: its number, and whether it is to play."""
        return f"at-{self.seat}" + (" to-play" if self.to_play else "")


# The pieces of the board's fragments (live/pieces.py): a hand's buttons, the cards on the
# table, the seats' plates.
CARD_BUTTONS = Pieces("games/table.html#card-button", "c")
PLAYED_CARDS = Pieces("games/table.html#played-card", "p", slots=("name",))
SEAT_PLATES = Pieces(
    "games/table.html#seat-plate", "s", slots=("name", "facts", "deadline_ms", "seconds_left")
)


@shown_value
class BoardState(_Shown):
    """What #board-state says of the table (the page's scripts read it): a fragment made as a
    piece (live/fragments.py), its numbers slots."""

    game: str
    version: str
    phase: str
    turn: str  # the seat to play, or ""
    hand: str
    hearts_broken: bool


@shown_value
class Seats(_Shown):
    """The seats' fragment: its plates (:class:`SeatPlate`), a slot."""

    plates: SafeString


@shown_value
class OnTable(_Shown):
    """The trick's fragment: the cards of the trick under way, or the trick just taken, and the
    last trick to look at again; each made of pieces already, a slot."""

    hand: str
    playing: bool
    has_cards: bool
    cards: SafeString
    is_completed: bool
    completed: SafeString
    has_last: bool
    last: SafeString


@dataclass(frozen=True)
class RefusalLinks(_Shown):
    """The reasons among a hand's refused cards, in words, each with its rule's anchor on the
    table's rules page (``rules_url``)."""

    links: tuple[tuple[str, str], ...]
    rules_url: str


@shown_value
class MyHand(_Shown):
    """A seat's hand fragment: its buttons and refusals (pieces already), the seat, its pass."""

    seated: bool
    me: str
    my_turn: bool
    received: bool  # cards were passed to it: the page marks from whom
    pass_target: str
    choosing: bool  # to choose the cards to pass
    direction: str  # of the pass, in words
    buttons: SafeString
    has_refusals: bool
    refusals: SafeString
    shows_passed: bool
    passed_words: str


TAKEN = ("key", "cards", "taker")
COMPLETED_TRICKS = Pieces("games/table.html#completed-trick", "taken", slots=TAKEN)
LAST_TRICKS = Pieces("games/table.html#last-trick", "taken", slots=TAKEN)
WORDED = Pieces("games/table.html#worded", "words", slots=("others", "yours", "seats", "after"))
REFUSALS = Pieces("games/table.html#refusal-links", "refusals")


def seat_plates(infos: list[PlayerInfo], passing: bool, game: Game) -> SafeString:
    deadline, seconds = _deadline_ms(game), _seconds_left(game)
    return SEAT_PLATES.join(
        SeatPlate(
            info.seat,
            info.name,
            info.is_bot,
            info.plate_facts,
            info.passed,
            info.to_play,
            passing,
            *(
                (True, str(deadline), str(seconds))
                if info.on_the_clock and deadline and not info.is_bot
                else ()
            ),
        )
        for info in infos
    )


@shown_value
class TrickShown(_Shown):
    """A completed trick on screen: each card by the seat that played it, and who took it."""

    key: str  # hand and trick, "2-5": the page tells one trick from the next by it
    cards: tuple[PlayedCard, ...]
    taker: Worded  # "Bob takes the trick: 2 points", "You take the trick: 2 points" for Bob
    past_hand: bool  # the last trick of the hand before, shown until this hand's first card

    def piece(self, looked_back: bool = False) -> SafeString:
        """The trick as the table shows it just taken, or as the Last trick button shows it
        again (``looked_back``)."""
        cards = (
            (replace(card, looked_back=True) for card in self.cards) if looked_back else self.cards
        )
        taken = TakenTrick(
            self.key, self.past_hand, PLAYED_CARDS.join(cards), WORDED.join([self.taker])
        )
        return (LAST_TRICKS if looked_back else COMPLETED_TRICKS).join([taken])


@shown_value
class TakenTrick(_Shown):
    """A trick taken, as its piece shows it: its cards and its taker's words, pieces already."""

    key: str
    past_hand: bool
    cards: SafeString
    taker: SafeString


@dataclass(frozen=True)
class TakenShown(_Shown):
    player: PlayerInfo
    cards: list[Card]
    kitty: bool  # took the kitty too, face down

    @property
    def named_cards(self) -> list[tuple[Card, str]]:
        """Each card taken, with its name (what a screen reader says of it)."""
        return [(card, words.card_name(card)) for card in self.cards]


def table_view(game: Game, user: AbstractBaseUser | AnonymousUser) -> dict[str, Any]:
    """Everything the table page shows to ``user``: only what their seat may know."""
    match = game.live_match()
    players = list(game.players.select_related("user"))
    return build_context(game, match, players, seat_among(players, user))


def build_context(
    game: Game, match: Match, players: list[GamePlayer], me: int | None
) -> dict[str, Any]:
    """Everything the whole table shows to the seat ``me`` (None: a spectator): the public
    context, the seat's private one, and the view the page turns the board to."""
    return {
        **public_context(game, match, players),
        **private_context(game, match, players, me),
        "board_view": board_view(me),
    }


def board_view(me: int | None) -> str:
    """The #board section's classes that turn the table for its viewer: ``view-2`` puts seat 2
    at the bottom (a spectator looks from seat 0), ``seated`` shows a player the words
    addressed to them (static/css/table_seats.css)."""
    return f"view-{me} seated" if me is not None else "view-0"


def public_context(
    game: Game,
    match: Match,
    players: list[GamePlayer],
    kept: dict[Hashable, Any] | None = None,
) -> dict[str, Any]:
    """What the board's public fragments read: the same for every screen at the table, and
    nothing a spectator may not see (its ``view`` is a spectator's). ``kept``, a table's
    own, keeps what changes only trick by trick (the trick taken, in words and pieces) from
    one version to the next."""
    view: SeatView = seat_view(match, None)
    names = {p.seat: (p.name, p.is_bot) for p in players}
    over = game.is_over
    passing = view.phase is Phase.PASSING
    infos = [
        PlayerInfo(
            seat=seat,
            name=names.get(seat, (words.empty_seat(seat), False))[0],
            is_bot=names.get(seat, ("", False))[1],
            cards=view.card_counts[seat],
            points=view.points_taken[seat],
            total=view.totals[seat],
            passed=view.has_passed[seat],
            to_play=not over and not passing and view.turn == seat,
            on_the_clock=not over
            and ((passing and not view.has_passed[seat]) or (not passing and view.turn == seat)),
        )
        for seat in range(match.players)
    ]
    trick = [PlayedCard(seat, infos[seat].name, card) for seat, card in view.trick]
    taken = _taken(match, view, infos, kept)
    shown = taken[0]
    to_play = None if over or passing or view.turn < 0 else view.turn
    return {
        "board_state": BoardState(
            str(game.pk),
            str(game.version),
            str(view.phase),
            "" if to_play is None else str(to_play),
            str(view.hand_number),
            view.hearts_broken,
        ),
        "on_table": _on_table(view, trick, taken),
        "game": game,
        "view": view,
        "players": infos,
        "trick": trick,
        "seats": Seats(seat_plates(infos, passing and not over, game)),
        **shown,
        "hand_taken": _hand_taken(match, infos),
        "passing": passing and not over,
        "hand_rows": [list(points) for points in view.hand_points],
        "seed_hex": bytes(game.seed).hex() if over else None,
        "added_seeds": [
            (info.name, text) for info, text in zip(infos, game.added_seeds or (), strict=False)
        ],
        "status": _status(game, view, infos),
        "last_hand_summary": _last_hand(match, view, infos),
        "result_rows": _result_rows(game, infos),
        "deadline_ms": _deadline_ms(game),
        "seconds_left": _seconds_left(game),
        "timed_out": _timed_out(match, infos),
    }


def private_context(
    game: Game, match: Match, players: list[GamePlayer], me: int | None
) -> dict[str, Any]:
    """What a seat's own fragments (its hand, its buttons) read: ``me`` None for a spectator,
    whose hand is empty and buttons are only the Last trick's."""
    view: SeatView = seat_view(match, me)
    received = set(view.received or ())
    passed = set(view.passed or ()) if view.phase is Phase.PASSING else set()
    legal, reasons, language = set(view.legal), view.reasons, get_language()
    hand = [
        _card_info(
            language,
            card,
            card in legal,
            reasons.get(card, ""),
            card in received,
            card in passed,
            view.my_turn,
            view.direction,
            index == 0,
        )
        for index, card in enumerate(view.hand)
    ]
    over = game.is_over
    passing = view.phase is Phase.PASSING and not over
    my_pass_done = me is not None and view.has_passed[me]
    direction = words.direction_words(view.direction)
    passed_words = table_words.you_passed(view.passed, view.direction) if view.passed else ""
    links = _refusal_links(view) if view.my_turn else []
    return {
        "game": game,
        "view": view,
        "me": me,
        "hand_cards": hand,
        "my_hand": MyHand(
            seated=me is not None,
            me="" if me is None else str(me),
            my_turn=view.my_turn,
            received=bool(view.received),
            pass_target="" if view.pass_target is None else str(view.pass_target),
            choosing=passing and not my_pass_done,
            direction=direction,
            buttons=CARD_BUTTONS.join(hand),
            has_refusals=bool(links),
            refusals=REFUSALS.join([RefusalLinks(tuple(links), rules_url(match.rules))])
            if links
            else SafeString(""),
            shows_passed=bool(view.passed) and passing,
            passed_words=passed_words,
        ),
        "pass_direction": direction,
        "passing": passing,
        "my_pass_done": my_pass_done,
        "moon_choice": view.phase is Phase.MOON_CHOICE and view.turn == me and not over,
        "has_last_trick": _last_trick_to_look_at(match, bool(view.trick)) is not None,
    }


@lru_cache(maxsize=16384)  # 52 cards, each shown a few dozen ways at most, in a few languages
def _card_info(
    language: str | None,
    card: Card,
    legal: bool,
    reason: str,
    received: bool,
    passed: bool,
    my_turn: bool,
    direction: str,
    first: bool,
) -> CardInfo:
    """A card of a hand as its button shows it (``reason``: the engine's words), made once a
    process for each way it is shown in each ``language``, the one active."""
    return CardInfo(
        card,
        legal,
        words.refusal_text(reason),
        received,
        passed,
        my_turn=my_turn,
        direction=direction,
        first=first,
    )


def seat_shows(game: Game, match: Match, me: int | None) -> dict[str, Any]:
    """What a seat's own fragments (its hand, its buttons) show, read from the engine as
    :func:`private_context` reads it, without making their words or their cards' views: the
    keys of those fragments (live/fragments.py), worked out for every seat at every move."""
    hand = match.hand
    over = game.is_over
    passing = hand.phase is Phase.PASSING and not over
    turn = -1 if match.result is not None else hand.turn
    my_turn = me is not None and turn == me
    if me is None:
        mine: dict[str, Any] = {
            "hand": (),
            "legal": (),
            "reasons": (),
            "received": (),
            "passed": (),
            "my_pass_done": False,
        }
    else:
        playing = hand.phase is Phase.PLAYING and match.result is None
        mine = {
            "hand": tuple(card.index for card in hand.holding(me)),
            "legal": tuple(c.index for c in hand.legal_plays(me)) if my_turn else (),
            "reasons": tuple((c.index, r) for c, r in hand.reasons(me).items()) if playing else (),
            "received": tuple(c.index for c in hand.received(me) or ()),
            "passed": tuple(c.index for c in hand.passed(me) or ()),
            "my_pass_done": hand.has_passed(me),
        }
    return {
        "me": me,
        "over": over,
        "phase": hand.phase,
        "my_turn": my_turn,
        "direction": hand.direction,
        "passing": passing,
        "moon_choice": hand.phase is Phase.MOON_CHOICE and turn == me and not over,
        "has_last_trick": _last_trick_to_look_at(match, bool(hand.current_trick)) is not None,
        **mine,
    }


# The tricks taken on show (``_tricks_shown``) and their pieces, the trick just taken's and the
# one to look at again's.
Taken = tuple[dict[str, "TrickShown | None"], SafeString, SafeString]


def _taken(
    match: Match, view: SeatView, infos: list[PlayerInfo], kept: dict[Hashable, Any] | None
) -> Taken:
    hand = match.hand
    slot = ("taken", hand.number, len(hand.tricks), bool(view.trick), get_language(), *infos)
    if kept is not None and slot in kept:
        return kept[slot]  # type: ignore[no-any-return]
    shown = _tricks_shown(match, view, infos)
    completed, again = shown["completed_trick"], shown["last_trick"]
    taken = (
        shown,
        SafeString("") if completed is None else completed.piece(),
        SafeString("") if again is None else again.piece(looked_back=True),
    )
    if kept is not None:
        if len(kept) > 64:
            kept.clear()
        kept[slot] = taken
    return taken


def _on_table(view: SeatView, trick: list[PlayedCard], taken: Taken) -> OnTable:
    shown, completed, last = taken
    return OnTable(
        hand=str(view.hand_number),
        playing=view.phase is Phase.PLAYING,
        has_cards=bool(trick),
        cards=PLAYED_CARDS.join(trick),
        is_completed=shown["completed_trick"] is not None,
        completed=completed,
        has_last=shown["last_trick"] is not None,
        last=last,
    )


def _refusal_links(view: SeatView) -> list[tuple[str, str]]:
    """The different reasons among the seat's refused cards, in words, each with the anchor of
    the rule behind it on the rules page, in the order they first appear."""
    links: dict[str, str] = {}
    for card in view.hand:
        reason = view.reasons.get(card)
        anchor = anchor_for(reason) if reason else None
        if reason and anchor:
            links.setdefault(words.refusal_text(reason), anchor)
    return list(links.items())


def _last_trick_to_look_at(match: Match, under_way: bool) -> LastTrick | None:
    """The trick a player may look at again (the "Last trick" button): this hand's latest,
    while the next is ``under_way``."""
    if not under_way:
        return None
    latest = last_trick(match)
    if latest is None or latest.hand_number != match.hand.number:
        return None
    return latest


def _tricks_shown(
    match: Match, view: SeatView, infos: list[PlayerInfo]
) -> dict[str, TrickShown | None]:
    """The completed trick on the table while the next is not led yet, and the one a player
    may look at again (the "Last trick" button) while the next is under way."""
    if view.trick:
        again = _last_trick_to_look_at(match, True)
        return {
            "completed_trick": None,
            "last_trick": None if again is None else _trick_shown(again, match, infos),
        }
    latest = last_trick(match)
    return {
        "completed_trick": None if latest is None else _trick_shown(latest, match, infos),
        "last_trick": None,
    }


def _trick_shown(latest: LastTrick, match: Match, infos: list[PlayerInfo]) -> TrickShown:
    winner = infos[latest.trick.winner]
    return TrickShown(
        key=f"{latest.hand_number}-{latest.number}",
        cards=tuple(
            PlayedCard(seat, infos[seat].name, card, seat == winner.seat)
            for seat, card in latest.cards_by_seat(match.players)
        ),
        taker=Worded(
            others=table_words.takes(winner.name),
            yours=str(table_words.YOU_TAKE),
            seats=str(winner.seat),
            after=table_words.the_trick(latest.trick.points),
        ),
        past_hand=latest.hand_number != match.hand.number,
    )


def _hand_taken(match: Match, infos: list[PlayerInfo]) -> list[TakenShown]:
    """Each seat's taken cards in the hand just scored, shown with its score."""
    taken = taken_in_last_hand(match)
    if taken is None or not _shows_last_hand(match):
        return []
    return [
        TakenShown(info, sorted(cards, key=lambda card: card.index), taken.kitty_taker == info.seat)
        for info, cards in zip(infos, taken.cards, strict=True)
    ]


def _deadline_ms(game: Game) -> int | None:
    if game.is_over or game.deadline is None:
        return None
    return int(game.deadline.timestamp() * 1000)


def _seconds_left(game: Game) -> int | None:
    if game.is_over or game.deadline is None:
        return None
    return max(0, math.ceil((game.deadline - timezone.now()).total_seconds()))


def _timed_out(match: Match, infos: list[PlayerInfo]) -> str:
    """The table's move for a seat out of time, in words, until the next move: a notice that
    stayed up for the rest of the hand would read as news long after it was."""
    moves = [move for move in match.hand.moves[-1:] if move.timeout]
    if match.result is not None and match.result.reason in (EndReason.LEFT, EndReason.TIMED_OUT):
        seat = match.result.forfeited
        assert seat is not None
        return table_words.ended_by_clock(match.result.reason, infos[seat].name)
    if not moves:
        return ""
    move = moves[-1]
    name = infos[move.seat].name
    if move.kind == MoveKind.PASS:
        return table_words.passed_for(name)
    if move.kind == MoveKind.MOON:
        return table_words.moon_chosen_for(name)
    return table_words.played_for(name, move.cards[0].display)


def _status(game: Game, view: SeatView, infos: list[PlayerInfo]) -> Worded:
    """The status line: what the table waits for, in words for the players it waits on."""
    if game.is_over:
        return Worded(str(table_words.GAME_OVER))
    hand = view.hand_number
    if view.phase is Phase.PASSING:
        # Whether a player has passed is public (the seats say it), so the line is too.
        choosing = " ".join(str(seat) for seat, done in enumerate(view.has_passed) if not done)
        return Worded(
            others=table_words.waiting_for_passes(hand, view.direction),
            yours=table_words.choose_your_pass(hand, view.direction) if choosing else "",
            seats=choosing,
        )
    turn = str(view.turn)
    if view.phase is Phase.MOON_CHOICE:
        return Worded(
            others=table_words.choosing_moon(hand, infos[view.turn].name),
            yours=table_words.choose_your_moon(hand),
            seats=turn,
        )
    led = view.trick[0][1].suit if view.trick else None
    return Worded(
        others=table_words.to_play(hand, infos[view.turn].name),
        yours=table_words.your_turn(hand, led),
        seats=turn,
    )


def _shows_last_hand(match: Match) -> bool:
    """The hand just finished stays on show until the next hand's first card (for good, once
    the game is over)."""
    return match.is_over or not match.hand.cards_played


def _last_hand(match: Match, view: SeatView, infos: list[PlayerInfo]) -> str:
    """What the hand just finished scored."""
    if not view.last_hand or not _shows_last_hand(match):
        return ""
    scores = [(info.name, points) for info, points in zip(infos, view.last_hand, strict=True)]
    return table_words.hand_scored(len(view.hand_points), scores)


@dataclass(frozen=True)
class ResultRow(_Shown):
    """A seat's line of a finished game's result."""

    words: str  # "1st: alice, 45 points", "4th: bob, 60 points (resigned)"
    rating: str = ""  # after a rated game: "rating 1312 (+12)"


def _result_rows(game: Game, infos: list[PlayerInfo]) -> list[ResultRow]:
    result = game.result or {}
    places = result.get("places") or []
    if not places:
        return []
    rows = sorted(zip(places, infos, strict=True), key=lambda pair: (pair[0], pair[1].seat))
    reason = result.get("reason")
    ratings = rating_changes(game)
    lines = []
    for place, info in rows:
        ended = reason if result.get("forfeited") == info.seat else None
        line = table_words.result_line(place, info.name, info.total, ended)
        change = ratings.get(info.seat)
        lines.append(ResultRow(line, change.in_words if change else ""))
    return lines
