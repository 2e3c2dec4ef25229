"""The options a table can set, as one frozen :class:`Rules` value, and the named rule sets.

The engine asks the options; it never branches on a rule set's name.

>>> rules = Rules(players=3)
>>> [str(card) for card in rules.removed_cards], rules.hand_size
(['2D'], 17)
>>> PRESETS["club"].rules.moon is MoonRule.CHOOSE
True
>>> Rules(players=4, short_pack=ShortPack.KITTY)
Traceback (most recent call last):
...
games.engine.errors.InvalidRulesError: Four players share the whole pack: there is no kitty
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final

from .cards import ALL_CARDS, Card, Suit
from .errors import InvalidRulesError

CARD_SECONDS: Final = 25
PASS_SECONDS: Final = 30
PASS_SIZE: Final = 3
JACK_OF_DIAMONDS_BONUS: Final = 10  # taken off its taker's points when the option is on


class ShortPack(StrEnum):
    """What happens to the cards that do not divide evenly among the players."""

    REMOVE = "remove"
    KITTY = "kitty"


class FirstLead(StrEnum):
    LOWEST_CLUB = "lowest_club"
    LEFT_OF_DEALER = "left_of_dealer"


class MoonRule(StrEnum):
    OTHERS = "others"  # everybody else takes 26
    SELF = "self"  # the shooter takes -26
    CHOOSE = "choose"  # the shooter picks one of the two
    AUTOMATIC = "automatic"  # others +26 unless that ends the match with the shooter behind


class TieRule(StrEnum):
    SHARE = "share"
    PLAY_ON = "play_on"


class Clock(StrEnum):
    RELAXED = "relaxed"
    STRICT = "strict"


# Cards removed so that the pack divides evenly, by number of players. The independent checkers
# (scripts/check_record.py, static/js/verify.js) keep their own copies of this table and the next
# on purpose; tests/test_check_record.py holds the script's copies to these.
_REMOVALS: Final = {3: ("2D",), 4: (), 5: ("2C", "2D"), 6: ("2C", "2D", "3C", "2S")}

# Pass offsets (seat + offset) in the order the cycle runs; 0 is a hand without a pass.
_PASS_CYCLES: Final = {
    3: (1, 2, 0),
    4: (1, 3, 2, 0),
    5: (1, 4, 2, 3, 0),
    6: (1, 5, 2, 4, 3, 0),
}


def pass_direction_name(offset: int, players: int) -> str:
    """``"left"``, ``"right"``, ``"across"``, ``"two left"``, ``"two right"`` or ``"hold"``."""
    offset %= players
    if offset == 0:
        return "hold"
    if 2 * offset == players:
        return "across"
    if offset == 1:
        return "left"
    if offset == players - 1:
        return "right"
    return "two left" if offset == 2 else "two right"


@dataclass(frozen=True)
class Rules:
    """Every option of a game. The defaults are the Standard rule set."""

    players: int = 4
    short_pack: ShortPack = ShortPack.REMOVE
    first_lead: FirstLead = FirstLead.LOWEST_CLUB
    points_on_first_trick: bool = False
    queen_breaks_hearts: bool = False
    moon: MoonRule = MoonRule.OTHERS
    shoot_the_sun: bool = False
    jack_of_diamonds: bool = False
    old_queen: bool = False
    target: int = 100
    ties: TieRule = TieRule.SHARE
    clock: Clock = Clock.RELAXED
    # Derived once, for speed; not options.
    deck: tuple[Card, ...] = field(init=False, repr=False, compare=False)
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name, kind in _ENUM_FIELDS.items():
            value = getattr(self, name)
            try:
                object.__setattr__(self, name, kind(value))
            except ValueError:
                choices = ", ".join(member.value for member in kind)
                raise InvalidRulesError(f"{name} must be one of {choices}, not {value!r}") from None
        for name in _BOOL_FIELDS:
            if not isinstance(getattr(self, name), bool):
                raise InvalidRulesError(f"{name} must be true or false")
        if type(self.players) is not int or self.players not in _PASS_CYCLES:
            raise InvalidRulesError("Hearts is played by 3, 4, 5 or 6 players")
        if type(self.target) is not int:
            raise InvalidRulesError("The target must be a whole number")
        if not 25 <= self.target <= 500:
            raise InvalidRulesError("The target must be between 25 and 500 points")
        if self.players == 4 and self.short_pack is ShortPack.KITTY:
            raise InvalidRulesError("Four players share the whole pack: there is no kitty")
        removed = {Card.parse(c) for c in _REMOVALS[self.players]}
        if self.short_pack is ShortPack.KITTY:
            removed = set()
        object.__setattr__(self, "deck", tuple(c for c in ALL_CARDS if c not in removed))
        # Rules key the deal's caches; hashing the enum fields each time would be slow.
        object.__setattr__(self, "_hash", hash(tuple(str(v) for v in self.to_json().values())))

    def __hash__(self) -> int:
        return self._hash

    @property
    def removed_cards(self) -> tuple[Card, ...]:
        in_deck = set(self.deck)
        return tuple(card for card in ALL_CARDS if card not in in_deck)

    @property
    def hand_size(self) -> int:
        return len(self.deck) // self.players

    @property
    def kitty_size(self) -> int:
        return len(self.deck) - self.hand_size * self.players

    @property
    def pass_cycle(self) -> tuple[int, ...]:
        """Pass offsets in cycle order: hand 1 uses the first, hand 2 the second, ..."""
        return _PASS_CYCLES[self.players]

    def pass_offset(self, hand_number: int) -> int:
        cycle = _PASS_CYCLES[self.players]
        return cycle[(hand_number - 1) % len(cycle)]

    def dealer(self, hand_number: int) -> int:
        """Seat 0 deals hand 1 and the deal moves left."""
        return (hand_number - 1) % self.players

    @property
    def lowest_club_in_pack(self) -> Card:
        return min(card for card in self.deck if card.suit is Suit.CLUBS)

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated like a new value)."""
        return dataclasses.replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        return {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self) if f.init}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Rules:
        if not isinstance(data, dict):
            raise InvalidRulesError("Rules must be an object of options")
        known = {f.name for f in dataclasses.fields(cls) if f.init}
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidRulesError(f"Unknown option: {', '.join(unknown)}")
        return cls(**data)


def _plain(value: object) -> object:
    return value.value if isinstance(value, StrEnum) else value


_ENUM_FIELDS: Final = {
    "short_pack": ShortPack,
    "first_lead": FirstLead,
    "moon": MoonRule,
    "ties": TieRule,
    "clock": Clock,
}
_BOOL_FIELDS: Final = (
    "points_on_first_trick",
    "queen_breaks_hearts",
    "shoot_the_sun",
    "jack_of_diamonds",
    "old_queen",
)


@dataclass(frozen=True)
class Preset:
    """A named rule set from one of the source texts.

    ``players`` lists the table sizes it is played at; ``options`` names the fields a host may
    change on top of it (with ``targets`` the targets it offers).
    """

    key: str
    title: str
    rules: Rules
    players: tuple[int, ...]
    options: tuple[str, ...] = ()
    targets: tuple[int, ...] = (100,)

    def make(self, players: int | None = None, **changes: Any) -> Rules:
        """The preset's rules for a table of ``players``, with allowed options changed."""
        players = self.rules.players if players is None else players
        if players not in self.players:
            sizes = " or ".join(str(p) for p in self.players)
            raise InvalidRulesError(f"{self.title} is played by {sizes} players")
        refused = sorted(set(changes) - set(self.options) - {"target"})
        if refused:
            raise InvalidRulesError(f"{self.title} does not offer: {', '.join(refused)}")
        if "target" in changes and changes["target"] not in self.targets:
            targets = " or ".join(str(target) for target in self.targets)
            raise InvalidRulesError(f"{self.title} plays to {targets} points")
        return self.rules.replace(players=players, **changes)


PRESETS: Final[dict[str, Preset]] = {
    preset.key: preset
    for preset in (
        Preset("standard", "Standard", Rules(), players=(4,)),
        Preset(
            "published",
            "Published",
            Rules(points_on_first_trick=True, moon=MoonRule.AUTOMATIC, clock=Clock.STRICT),
            players=(4, 3),
        ),
        Preset(
            "classic",
            "Classic",
            Rules(points_on_first_trick=True, ties=TieRule.PLAY_ON),
            players=(4,),
        ),
        Preset(
            "club",
            "Club",
            Rules(points_on_first_trick=True, queen_breaks_hearts=True, moon=MoonRule.CHOOSE),
            players=(4, 5),
            targets=(100, 50),
        ),
        Preset(
            "encyclopedia",
            "Encyclopedia",
            Rules(queen_breaks_hearts=True, moon=MoonRule.SELF),
            players=(3, 4, 5, 6),
            options=(
                "jack_of_diamonds",
                "shoot_the_sun",
                "short_pack",
                "first_lead",
                "old_queen",
            ),
        ),
    )
}
