"""The words people read, in one place: a table's rules, the options' names, places, how a game
ended and its result.

Every sentence about the rules is built from the ``Rules`` values and the engine's constants, so
the words can never disagree with the game being played. Pages (the table, the lobby, the rules
pages) call :func:`describe` for the full list and :func:`summary` for one line; the create-table
form, the rules pages' table of differences, the game pages, the profile and the staff's pages
take their option names, ordinals and end reasons from here. No Django import: the words are
plain strings.

>>> summary(Rules())
'4 players · to 100 · moon: others take 26'
>>> summary(Rules(jack_of_diamonds=True, target=50))
'4 players · to 50 · moon: others take 26 · jack of diamonds \N{MINUS SIGN}10'
>>> [line.option for line in describe(Rules())][:3]
['players', 'short_pack', 'pass']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final

from games.engine import (
    CARD_SECONDS,
    PASS_SECONDS,
    Card,
    Clock,
    EndReason,
    FirstLead,
    Hand,
    MoonRule,
    Move,
    MoveKind,
    Rules,
    ShortPack,
    Suit,
    TieRule,
    moon_value,
    pass_direction_name,
    points_in_play,
)
from games.engine.rules import JACK_OF_DIAMONDS_BONUS as JACK_BONUS
from games.engine.rules import PASS_SIZE

QUEEN: Final = Card.parse("QS")
JACK: Final = Card.parse("JD")
_STANDARD: Final = Rules()
MINUS: Final = "\N{MINUS SIGN}"


@dataclass(frozen=True)
class RuleLine:
    """One rule in words.

    ``option`` is the :class:`Rules` field it describes (``"moon"``, ``"target"``...) or a
    topic derived from several (``"pass"``, ``"points"``); ``title`` is a short heading and
    ``text`` one or two plain English sentences.
    """

    option: str
    title: str
    text: str


def describe(rules: Rules) -> list[RuleLine]:
    """Every rule of ``rules`` in words, in the order a newcomer would want to read them.

    The options are always the same and in the same order, whatever their values, so pages
    may pick lines by ``option``.
    """
    return [line(rules) for line in _LINES]


def summary(rules: Rules) -> str:
    """One short line: players, target and moon, then whatever differs from Standard."""
    parts = [f"{rules.players} players", f"to {rules.target}", _moon_short(rules)]
    parts += [text for option, text in _extras(rules) if _differs(rules, option)]
    return " · ".join(parts)


def _players(rules: Rules) -> RuleLine:
    text = (
        f"{rules.players} players, {rules.hand_size} cards each, dealt from a pack of"
        f" {len(rules.deck)}. The deal moves one seat to the left every hand."
    )
    return RuleLine("players", "Players and cards", text)


def _short_pack(rules: Rules) -> RuleLine:
    if rules.kitty_size:
        left = (
            "The card left over"
            if rules.kitty_size == 1
            else f"The {rules.kitty_size} cards left over"
        )
        text = (
            f"{left} after the deal {'lies' if rules.kitty_size == 1 else 'lie'} face down as"
            " a kitty. Whoever wins the first trick that holds a penalty card takes the kitty"
            " too: its cards score for that player but never join a hand."
        )
        return RuleLine("short_pack", "The kitty", text)
    removed = rules.removed_cards
    if not removed:
        return RuleLine("short_pack", "The pack", "The whole pack is dealt; nothing is left over.")
    text = f"{_card_list(removed)} {_be(len(removed))} taken out so that the pack deals evenly."
    return RuleLine("short_pack", "Cards taken out", text)


def _passing(rules: Rules) -> RuleLine:
    directions = [pass_direction_name(offset, rules.players) for offset in rules.pass_cycle]
    passes = [d for d in directions if d != "hold"]
    text = (
        f"Before the play each player passes {PASS_SIZE} cards, chosen before seeing what"
        f" arrives. The direction changes every hand: {', '.join(passes)}, then a hand with no"
        " passing, and round again."
    )
    return RuleLine("pass", "Passing", text)


def _points(rules: Rules) -> RuleLine:
    hearts = [card for card in rules.deck if card.suit is Suit.HEARTS]
    text = (
        f"Each heart you take costs {hearts[0].points} point and the {QUEEN.display} costs"
        f" {QUEEN.points}: {points_in_play(rules)} points in every hand. Low scores are good."
    )
    return RuleLine("points", "Penalty cards", text)


def _tricks(rules: Rules) -> RuleLine:
    text = (
        f"Play goes to the left, one card from each of the {rules.players} players per trick."
        " Anyone holding the suit that opened the trick must play it; a player without it may"
        " play anything. The best card in the opening suit wins the trick and starts the next."
    )
    return RuleLine("tricks", "Tricks and following suit", text)


def _first_lead(rules: Rules) -> RuleLine:
    if rules.first_lead is FirstLead.LEFT_OF_DEALER:
        text = (
            "The player to the left of the dealer leads the first trick with any card they"
            " like, except a heart."
        )
    else:
        club = rules.lowest_club_in_pack.display
        text = f"Whoever holds the {club} leads it to the first trick."
        if rules.short_pack is ShortPack.KITTY:
            text = (
                f"Whoever holds the lowest club leads it to the first trick: the {club}, or the"
                " next club up when it lies in the kitty."
            )
    return RuleLine("first_lead", "The first lead", text)


def _first_trick(rules: Rules) -> RuleLine:
    if rules.points_on_first_trick:
        text = f"Hearts and the {QUEEN.display} may be played on the first trick."
    else:
        text = (
            f"No points on the first trick: no heart and no {QUEEN.display} may be played"
            " to it, unless a hand holds nothing else."
        )
    return RuleLine("points_on_first_trick", "The first trick", text)


def _breaking_hearts(rules: Rules) -> RuleLine:
    breaker = f"a heart or the {QUEEN.display}" if rules.queen_breaks_hearts else "a heart"
    text = (
        f"Hearts may not be led until {breaker} has been played to a trick (hearts are"
        " broken), unless the leader holds nothing but hearts."
    )
    if not rules.queen_breaks_hearts:
        text += f" Playing the {QUEEN.display} does not break hearts."
    return RuleLine("queen_breaks_hearts", "Breaking hearts", text)


def _moon(rules: Rules) -> RuleLine:
    points = moon_value(rules)
    start = "Take every penalty card in a hand and you shoot the moon:"
    endings = {
        MoonRule.OTHERS: f"everybody else takes {points} and you take nothing.",
        MoonRule.SELF: f"you take {points} off your total and the others take nothing.",
        MoonRule.CHOOSE: (
            f"you choose whether everybody else takes {points} or you take {points} off."
        ),
        MoonRule.AUTOMATIC: (
            f"everybody else takes {points}, except when giving them away would finish the"
            f" match with someone doing better than you: then {points} come off your own total."
        ),
    }
    return RuleLine("moon", "Shooting the moon", f"{start} {endings[rules.moon]}")


def _sun(rules: Rules) -> RuleLine:
    if not rules.shoot_the_sun:
        text = "Taking every trick counts as a moon, nothing more."
    else:
        text = (
            f"Take every trick and you shoot the sun: it scores like a moon, but with"
            f" {moon_value(rules, sun=True)} points instead of {moon_value(rules)}."
        )
    return RuleLine("shoot_the_sun", "Shooting the sun", text)


def _jack(rules: Rules) -> RuleLine:
    if not rules.jack_of_diamonds:
        text = f"The {JACK.display} is an ordinary card worth nothing."
    else:
        text = (
            f"Whoever takes the {JACK.display} scores {MINUS}{JACK_BONUS}, on top of whatever else"
            " the hand gives. A moon does not need it."
        )
    return RuleLine("jack_of_diamonds", "The jack of diamonds", text)


def _old_queen(rules: Rules) -> RuleLine:
    if not rules.old_queen:
        text = f"You may keep the {QUEEN.display} for as long as you like."
    else:
        text = (
            f"Whoever holds the {QUEEN.display} must discard it at the first chance: the first"
            " time they cannot follow suit."
        )
    return RuleLine("old_queen", "The old queen", text)


def _target(rules: Rules) -> RuleLine:
    text = (
        f"The match ends after the hand in which somebody reaches {rules.target} points."
        " The lowest total wins."
    )
    return RuleLine("target", "End of the match", text)


def _ties(rules: Rules) -> RuleLine:
    if rules.ties is TieRule.PLAY_ON:
        text = "If two or more share the lowest total, another hand is played to settle it."
    else:
        text = "Players who share the lowest total share first place."
    return RuleLine("ties", "Equal totals", text)


def _clock(rules: Rules) -> RuleLine:
    text = f"You have {CARD_SECONDS} seconds to play a card and {PASS_SECONDS} to pass. "
    if rules.clock is Clock.STRICT:
        text += "Strict clock: missing a deadline ends the game, with that player placed last."
    else:
        text += (
            "Relaxed clock: when time runs out a safe card or pass is played for you; three"
            " time-outs in a row count as leaving the table."
        )
    return RuleLine("clock", "The clock", text)


_LINES: Final[tuple[Callable[[Rules], RuleLine], ...]] = (
    _players,
    _short_pack,
    _passing,
    _points,
    _tricks,
    _first_lead,
    _first_trick,
    _breaking_hearts,
    _moon,
    _sun,
    _jack,
    _old_queen,
    _target,
    _ties,
    _clock,
)


def _moon_short(rules: Rules) -> str:
    points = moon_value(rules)
    words = {
        MoonRule.OTHERS: f"others take {points}",
        MoonRule.SELF: f"shooter takes {MINUS}{points}",
        MoonRule.CHOOSE: "shooter chooses",
        MoonRule.AUTOMATIC: "automatic",
    }
    return f"moon: {words[rules.moon]}"


def _extras(rules: Rules) -> list[tuple[str, str]]:
    return [
        ("short_pack", "kitty" if rules.kitty_size else "cards taken out"),
        ("points_on_first_trick", "points on the first trick"),
        ("queen_breaks_hearts", f"{QUEEN.display} breaks hearts"),
        ("shoot_the_sun", f"sun {moon_value(rules, sun=True)}"),
        ("jack_of_diamonds", f"jack of diamonds {MINUS}{JACK_BONUS}"),
        ("old_queen", "old queen"),
        ("first_lead", "left of the dealer leads"),
        ("ties", "ties: another hand"),
        ("clock", "strict clock"),
    ]


def _differs(rules: Rules, option: str) -> bool:
    if option == "short_pack":
        return rules.kitty_size > 0
    return bool(getattr(rules, option) != getattr(_STANDARD, option))


def _be(number: int) -> str:
    return "is" if number == 1 else "are"


def _card_list(cards: tuple[Card, ...]) -> str:
    names = [f"the {card.display}" for card in cards]
    text = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return text[0].upper() + text[1:]


# The options' names ------------------------------------------------------------------------

# Each option's name in the rules pages' table of differences.
OPTION_TITLES: Final = {
    "players": "Players",
    "short_pack": "Leftover cards",
    "first_lead": "First lead",
    "points_on_first_trick": "Points on the first trick",
    "queen_breaks_hearts": f"The {QUEEN.display} breaks hearts",
    "moon": "Shooting the moon",
    "shoot_the_sun": "Shooting the sun",
    "jack_of_diamonds": f"Jack of diamonds {MINUS}{JACK_BONUS}",
    "old_queen": "The old queen rule",
    "target": "Target",
    "ties": "Equal lowest totals",
    "clock": "Clock",
}
# Short words for each option's values, for that table.
OPTION_VALUES: Final[dict[str, dict[str, str]]] = {
    "short_pack": {ShortPack.REMOVE: "taken out", ShortPack.KITTY: "kitty"},
    "first_lead": {
        FirstLead.LOWEST_CLUB: "lowest club",
        FirstLead.LEFT_OF_DEALER: "left of the dealer",
    },
    "moon": {
        MoonRule.OTHERS: "others +26",
        MoonRule.SELF: f"shooter {MINUS}26",
        MoonRule.CHOOSE: "shooter chooses",
        MoonRule.AUTOMATIC: "automatic",
    },
    "ties": {TieRule.SHARE: "share first place", TieRule.PLAY_ON: "play another hand"},
    "clock": {Clock.RELAXED: "relaxed", Clock.STRICT: "strict"},
}
YES_NO: Final = {True: "yes", False: "no"}
ALLOWED: Final = {True: "allowed", False: "forbidden"}

# Each option's label on the create-table form, and the words of its choices.
FORM_LABELS: Final = {
    "target": "Target",
    "moon": "Shooting the moon",
    "short_pack": "Odd cards",
    "first_lead": "First lead",
    "ties": "Tied lowest",
    "clock": "Clock",
    "points_on_first_trick": "Points allowed on the first trick",
    "queen_breaks_hearts": "The queen breaks hearts",
    "shoot_the_sun": "Shooting the sun",
    "jack_of_diamonds": f"Jack of diamonds {MINUS}{JACK_BONUS}",
    "old_queen": "Old queen rule",
}
FORM_CHOICES: Final[dict[str, dict[str, str]]] = {
    "moon": {
        MoonRule.OTHERS: "Everybody else takes 26",
        MoonRule.SELF: "The shooter takes 26 off",
        MoonRule.CHOOSE: "The shooter chooses",
        MoonRule.AUTOMATIC: "Automatic: others +26 unless that leaves the shooter behind",
    },
    "short_pack": {ShortPack.REMOVE: "Take low cards out", ShortPack.KITTY: "Deal them to a kitty"},
    "first_lead": {
        FirstLead.LOWEST_CLUB: "The lowest club leads",
        FirstLead.LEFT_OF_DEALER: "The player left of the dealer leads",
    },
    "ties": {TieRule.SHARE: "share", TieRule.PLAY_ON: "play another hand"},
    "clock": {Clock.RELAXED: "relaxed", Clock.STRICT: "strict"},
}
AS_THE_SET_SAYS: Final = "As the rule set says"


# The rules in short, one sentence an option (the game pages) ---------------------------------


def rules_in_short(rules: Rules) -> list[str]:
    """One short sentence per option, as the table's players met them."""
    lines = [f"{rules.players} players, to {rules.target} points."]
    if rules.removed_cards:
        removed = ", ".join(card.display for card in rules.removed_cards)
        lines.append(f"Removed from the pack: {removed}.")
    if rules.short_pack is ShortPack.KITTY and rules.kitty_size:
        lines.append(
            f"A kitty of {rules.kitty_size} cards goes to whoever takes the first penalty card."
        )
    if rules.first_lead is FirstLead.LOWEST_CLUB:
        lines.append("The lowest club in play leads the first trick.")
    else:
        lines.append("The player left of the dealer leads the first trick.")
    lines.append(
        "Points may be played on the first trick."
        if rules.points_on_first_trick
        else f"No hearts and no {QUEEN.display} on the first trick."
    )
    if rules.queen_breaks_hearts:
        lines.append(f"The {QUEEN.display} breaks hearts.")
    lines.append(_MOON_IN_SHORT[rules.moon])
    if rules.shoot_the_sun:
        lines.append("Shooting the sun (every trick) counts 52.")
    if rules.jack_of_diamonds:
        lines.append(f"The {JACK.display} takes {JACK_BONUS} points off whoever wins it.")
    if rules.old_queen:
        lines.append(f"The {QUEEN.display} must be discarded at the first chance.")
    lines.append(
        "Equal lowest totals share first place."
        if rules.ties is TieRule.SHARE
        else "Equal lowest totals play another hand."
    )
    lines.append(
        "Strict clock: a missed deadline ends the game."
        if rules.clock is Clock.STRICT
        else "Relaxed clock: the table plays for a player out of time."
    )
    return lines


_MOON_IN_SHORT: Final = {
    MoonRule.OTHERS: "Shooting the moon adds 26 to everyone else.",
    MoonRule.SELF: "Shooting the moon takes 26 off the shooter.",
    MoonRule.CHOOSE: "The moon shooter chooses: 26 to everyone else or 26 off their own total.",
    MoonRule.AUTOMATIC: "Shooting the moon adds 26 to everyone else, unless that leaves the "
    "shooter behind at the end; then 26 come off the shooter instead.",
}


# Places, end reasons and results -------------------------------------------------------------


def empty_seat(seat: int) -> str:
    """The name of a seat nobody sits in (a game's record before a player's name is known).

    >>> empty_seat(0)
    'Seat 1'
    """
    return f"Seat {seat + 1}"


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, ..., 21st.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd']
    """
    if 10 <= number % 100 <= 20:
        return f"{number}th"
    return f"{number}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(number % 10, 'th') }"


# How a game ended early, after the name of the player it ended against: "carol ran out of
# time" (the game pages and the replay).
ENDED_EARLY: Final[dict[str, str]] = {
    EndReason.RESIGNED: "resigned",
    EndReason.LEFT: "left",
    EndReason.TIMED_OUT: "ran out of time",
}
# The same, as a note after that player's line of the table's result: "(out of time)".
ENDED_EARLY_NOTES: Final[dict[str, str]] = {
    EndReason.RESIGNED: "resigned",
    EndReason.LEFT: "left",
    EndReason.TIMED_OUT: "out of time",
}
# The same, for the staff's list of abandonments.
ABANDONMENT_REASONS: Final[dict[str, str]] = {
    EndReason.LEFT: "Three time-outs in a row",
    EndReason.TIMED_OUT: "A missed deadline (strict clock)",
    EndReason.RESIGNED: "Resigned before the last hand",
}


def ended_by_clock(reason: str, name: str) -> str:
    """The table's notice of a game the clock ended against ``name`` (``reason`` is ``left``
    or ``timed out``)."""
    if reason == EndReason.LEFT:
        return f"{name} ran out of time three times in a row and left the game."
    return f"{name} ran out of time: the game ends against them."


def result_line(place: int, name: str, total: int, ended_early: str | None = None) -> str:
    """A seat's line of a finished game's result: "1st: alice, 45 points", and for the player
    the game ended against, how ("4th: bob, 60 points (resigned)").

    >>> result_line(4, "bob", 60, "timed out")
    '4th: bob, 60 points (out of time)'
    """
    note = f" ({ENDED_EARLY_NOTES[ended_early]})" if ended_early in ENDED_EARLY_NOTES else ""
    return f"{ordinal(place)}: {name}, {total} points{note}"


def outcome(winners: list[str], ended_early: tuple[str, str] | None = None) -> str:
    """The result in a few words: won by alice, shared by alice and bob; with ``ended_early``
    (the name and the end reason) who ended it how: "; carol resigned".

    >>> outcome(["alice", "bob"], ("carol", "timed out"))
    'Shared by alice and bob; carol ran out of time'
    """
    if len(winners) == 1:
        text = f"Won by {winners[0]}"
    else:
        text = f"Shared by {', '.join(winners[:-1])} and {winners[-1]}"
    if ended_early is not None:
        name, reason = ended_early
        text += f"; {name} {ENDED_EARLY[reason]}"
    return text


# The replay in words -------------------------------------------------------------------------


def replay_step(hand: Hand, made: int, names: list[str], resign: Move | None = None) -> str:
    """A replay's step in words: hand ``hand`` with its first ``made`` moves made, or the game's
    end by ``resign`` (a resignation's move: ``choice`` is how it ended)."""
    if resign is not None:
        reason = resign.choice or EndReason.RESIGNED
        return f"{names[resign.seat]} {ENDED_EARLY[reason]}: the game ends."
    if made == 0:
        dealer = names[hand.dealer]
        if hand.pass_offset == 0:
            return f"Hand {hand.number}, dealt by {dealer}: a hold hand, no passing."
        return (
            f"Hand {hand.number}, dealt by {dealer}: everyone passes three cards {hand.direction}."
        )
    move = hand.moves[made - 1]
    words = _move_words(hand, move, names)
    if move.timeout:
        words += " (the table moved for them: time ran out)"
    words += "."
    if move.kind == MoveKind.PASS and made == hand.players:
        words += " The passes change hands."
    if move.kind == MoveKind.PLAY and not hand.trick:
        trick = hand.tricks[-1]
        words += f" {names[trick.winner]} takes the trick"
        words += f" ({points_words(trick.points)})." if trick.points else "."
    if made == len(hand.moves) and hand.points is not None:
        words += f" Hand {hand.number} scores: {_scores(zip(names, hand.points, strict=True))}."
    return words


def _move_words(hand: Hand, move: Move, names: list[str]) -> str:
    name = names[move.seat]
    if move.kind == MoveKind.PASS:
        cards = ", ".join(card.display for card in move.cards)
        target = names[hand.pass_target(move.seat)]
        return f"{name} passes {cards} {hand.direction} to {target}"
    if move.kind == MoveKind.PLAY:
        card = move.cards[0]
        return f"{name} plays the {card.display} ({card.name})"
    value = moon_value(hand.rules)
    if move.choice == MoonRule.OTHERS:
        return f"{name} shot the moon and chose adding {value} to everyone else"
    return f"{name} shot the moon and chose taking {value} off their own total"


def points_words(points: int) -> str:
    """1 point, 13 points.

    >>> points_words(1), points_words(0)
    ('1 point', '0 points')
    """
    return f"{points} point{'' if points == 1 else 's'}"


# The verification form's words for what happens to the cards that do not divide evenly.
VERIFY_SHORT_PACK: Final[dict[str, str]] = {
    ShortPack.REMOVE: "Removed from the pack",
    ShortPack.KITTY: "Dealt to a kitty",
}


# At the table: its status line, its notices, and what its seats, cards and tricks say --------

# Words that read differently for the players they speak of come in two forms, one for those
# players ("your turn") and one for everyone else ("Bob to play"): the table sends both, and
# each screen shows its own (games/table_context.py, ``Worded``).

GAME_OVER: Final = "The game is over."
YOU_TAKE: Final = "You take"


def seat_facts(cards: int, points: int, total: int) -> str:
    """What a seat shows of its cards and points.

    >>> seat_facts(13, 1, 20)
    '13 cards · 1 point · total 20'
    """
    return f"{cards} cards · {points_words(points)} · total {total}"


def card_title(card: str, reason: str, *, received: bool, passed: str) -> str:
    """The tooltip of a card (``card``: its display) in a player's hand: whether it was passed
    to them, the direction they chose to pass it (``passed``, if they did) and why they may not
    play it.

    >>> card_title("Q♣", "You must follow hearts", received=True, passed="")
    'Q♣ (passed to you): You must follow hearts'
    """
    return _card_words(card, reason, received, passed, _CARD_TITLE)


def card_spoken(card: str, reason: str, *, received: bool, passed: str) -> str:
    """The same, as a screen reader says it (``card``: its name; ``reason`` only on the
    player's turn).

    >>> card_spoken("queen of clubs", "You must follow hearts", received=False, passed="left")
    'queen of clubs, passed left. You must follow hearts'
    """
    return _card_words(card, reason, received, passed, _CARD_SPOKEN)


# How a card's notes join it: passed to you, passed in a direction, and the reason.
_CARD_TITLE: Final = (" (passed to you)", " (passed {})", ": {}")
_CARD_SPOKEN: Final = (", passed to you", ", passed {}", ". {}")


def _card_words(
    card: str, reason: str, received: bool, passed: str, forms: tuple[str, str, str]
) -> str:
    to_you, passed_to, why = forms
    return (
        card
        + (to_you if received else "")
        + (passed_to.format(passed) if passed else "")
        + (why.format(reason) if reason else "")
    )


def played_by(card: str, name: str) -> str:
    """A card on the table and who played it ("Q♣ from Bob"; "queen of clubs from Bob")."""
    return f"{card} from {name}"


def takes(name: str) -> str:
    """The taker of a trick, for everyone but them ("Bob takes"; for them, ``YOU_TAKE``)."""
    return f"{name} takes"


def the_trick(points: int) -> str:
    """What follows the taker of a trick: " the trick", and its points if it holds any.

    >>> takes("Bob") + the_trick(2), YOU_TAKE + the_trick(0)
    ('Bob takes the trick: 2 points', 'You take the trick')
    """
    return f" the trick: {points_words(points)}" if points else " the trick"


def waiting_for_passes(hand: int, direction: str) -> str:
    return f"Hand {hand}: waiting for everyone to pass {direction}."


def choose_your_pass(hand: int, direction: str) -> str:
    return f"Hand {hand}: choose three cards to pass {direction}."


def choosing_moon(hand: int, name: str) -> str:
    return f"Hand {hand}: {name} shot the moon and is choosing how it scores."


def choose_your_moon(hand: int) -> str:
    return f"Hand {hand}: you shot the moon! Choose how it scores."


def to_play(hand: int, name: str) -> str:
    return f"Hand {hand}: {name} to play."


def your_turn(hand: int, led: str) -> str:
    """The status line on a player's turn, with the suit ``led`` (its plural) to the trick, or
    "" when they lead it.

    >>> your_turn(3, "clubs"), your_turn(3, "")
    ('Hand 3: your turn (clubs led).', 'Hand 3: your lead.')
    """
    return f"Hand {hand}: your turn ({led} led)." if led else f"Hand {hand}: your lead."


# The table's notices of the move it made for a player out of time.


def passed_for(name: str) -> str:
    return f"Time ran out for {name}: the table passed three cards for them."


def moon_chosen_for(name: str) -> str:
    return f"Time ran out for {name}: the table chose how the moon scores."


def played_for(name: str, card: str) -> str:
    """``card``: the display of the card the table played."""
    return f"Time ran out for {name}: the table played the {card} for them."


def hand_scored(hand: int, scores: list[tuple[str, int]]) -> str:
    """What a hand scored, by each player's name.

    >>> hand_scored(2, [("alice", 0), ("bob", 26)])
    'Hand 2 scored: alice +0, bob +26.'
    """
    return f"Hand {hand} scored: {_scores(scores)}."


def _scores(scores: Iterable[tuple[str, int]]) -> str:
    """Each player's points, signed: "alice +0, bob +26"."""
    return ", ".join(f"{name} {points:+d}" for name, points in scores)
