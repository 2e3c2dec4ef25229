"""Every bot passes three cards of its hand, plays only legal cards and answers the moon
question, whatever the table: every rule set at every size it is played at, and custom tables."""

from __future__ import annotations

import dataclasses

import pytest

from games.bots import Bot, SearchBot, make_bot
from games.engine import PRESETS, Card, FirstLead, MoonRule, Rules, SeatView, ShortPack
from tests.helpers.bots import dealt, play_until

TABLES = {
    f"{preset.key}, {players} players": preset.make(players)
    for preset in PRESETS.values()
    for players in preset.players
} | {
    "kitty, 3 players": Rules(players=3, short_pack=ShortPack.KITTY),
    "kitty, 5 players, jack of diamonds": Rules(
        players=5, short_pack=ShortPack.KITTY, jack_of_diamonds=True
    ),
    "kitty, 6 players, old queen": Rules(players=6, short_pack=ShortPack.KITTY, old_queen=True),
    "jack of diamonds": Rules(jack_of_diamonds=True),
    "shoot the sun, moon chosen": Rules(shoot_the_sun=True, moon=MoonRule.CHOOSE),
    "old queen, points on the first trick": Rules(old_queen=True, points_on_first_trick=True),
    "left of dealer leads": Rules(first_lead=FirstLead.LEFT_OF_DEALER),
    "every option, kitty, 5 players": Rules(
        players=5,
        short_pack=ShortPack.KITTY,
        first_lead=FirstLead.LEFT_OF_DEALER,
        queen_breaks_hearts=True,
        moon=MoonRule.AUTOMATIC,
        shoot_the_sun=True,
        jack_of_diamonds=True,
        old_queen=True,
    ),
}


@dataclasses.dataclass
class Checked:
    """A bot whose every answer is checked against the view it was given."""

    bot: Bot
    decisions: int = 0

    def choose_pass(self, view: SeatView) -> list[Card]:
        cards = self.bot.choose_pass(view)
        assert len(cards) == 3
        assert len(set(cards)) == 3
        assert set(cards) <= set(view.hand)
        self.decisions += 1
        return cards

    def choose_play(self, view: SeatView) -> Card:
        card = self.bot.choose_play(view)
        assert card in view.legal, f"{card} is not legal: {view.reasons.get(card)}"
        self.decisions += 1
        return card

    def choose_moon(self, view: SeatView) -> str:
        choice = self.bot.choose_moon(view)
        assert choice in ("others", "self")
        self.decisions += 1
        return choice


def quick(bot: Bot) -> Bot:
    """The same bot on a small sample budget and no clock, so the tests stay fast."""
    if isinstance(bot, SearchBot):
        return dataclasses.replace(
            bot, seconds=None, samples=min(bot.samples, 12), pass_deals=min(bot.pass_deals, 4)
        )
    return bot


def play_hand(rules: Rules, number: int, bots: list[Bot]) -> list[Checked]:
    checked = [Checked(bot) for bot in bots]
    hand = play_until(dealt(rules, number, deal_seed=number), checked, lambda hand: False)
    assert hand.is_over
    return checked


@pytest.mark.parametrize("number", [1, 0], ids=["first hand", "hold hand"])
@pytest.mark.parametrize("rules", TABLES.values(), ids=TABLES.keys())
def test_bots_make_only_legal_decisions_at_every_table(rules: Rules, number: int) -> None:
    n = rules.players
    number = number or len(rules.pass_cycle)  # the last hand of the cycle holds its cards
    bots: list[Bot] = [make_bot("heuristic") for _ in range(n)]
    bots[number % n] = SearchBot(seconds=None, samples=12, pass_deals=4, seed=number)
    bots[(number + 1) % n] = make_bot("random", seed=number)
    bots[(number + 2) % n] = SearchBot(seconds=None, samples=6, lookahead=True, seed=number)

    checked = play_hand(rules, number, bots)

    assert checked[number % n].decisions >= rules.hand_size


@pytest.mark.parametrize(
    "name", ["easy", "normal", "strong", "heuristic", "refined", "random", "montecarlo", "reader"]
)
@pytest.mark.parametrize("rules", [Rules(), Rules(players=3, short_pack=ShortPack.KITTY)])
def test_every_bot_level_makes_only_legal_decisions(name, rules):
    bots = [quick(make_bot(name, seed=seat)) for seat in range(rules.players)]

    checked = play_hand(rules, 1, bots)

    assert all(bot.decisions >= rules.hand_size + 1 for bot in checked)  # a pass, then cards


def test_an_unknown_bot_name_is_refused():
    with pytest.raises(ValueError, match="No bot called 'grandmaster'"):
        make_bot("grandmaster")
