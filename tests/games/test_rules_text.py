"""A table's rules in words: every option shows in the text, and changing it changes the text."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import PRESETS, Clock, MoonRule, Rules, ShortPack
from games.words import describe, summary


def _text(rules: Rules, option: str) -> str:
    lines = [line for line in describe(rules) if line.option == option]
    assert len(lines) == 1, option
    return lines[0].text


def test_every_option_of_the_rules_has_a_line() -> None:
    options = {line.option for line in describe(Rules())}
    fields = set(Rules().to_json())
    assert fields <= options | {"players"}
    assert {"pass", "points"} <= options


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("points_on_first_trick", True),
        ("queen_breaks_hearts", True),
        ("moon", "self"),
        ("moon", "choose"),
        ("moon", "automatic"),
        ("shoot_the_sun", True),
        ("jack_of_diamonds", True),
        ("old_queen", True),
        ("first_lead", "left_of_dealer"),
        ("target", 50),
        ("ties", "play_on"),
        ("clock", "strict"),
    ],
)
def test_changing_an_option_changes_its_words_and_the_summary(option: str, value: Any) -> None:
    changed = Rules(**{option: value})
    assert _text(changed, option) != _text(Rules(), option)
    assert summary(changed) != summary(Rules())


def test_the_moon_words_say_who_takes_the_points() -> None:
    assert "everybody else takes 26" in _text(Rules(), "moon")
    assert "take 26 off" in _text(Rules(moon=MoonRule.SELF), "moon")
    assert "choose" in _text(Rules(moon=MoonRule.CHOOSE), "moon")


def test_the_sun_doubles_the_moon() -> None:
    assert "52" in _text(Rules(shoot_the_sun=True), "shoot_the_sun")
    assert "sun 52" in summary(Rules(shoot_the_sun=True))


def test_three_players_are_told_which_card_is_taken_out_and_the_pass_cycle() -> None:
    rules = Rules(players=3)
    assert "17 cards each" in _text(rules, "players")
    assert "2♦" in _text(rules, "short_pack")
    assert "left, right, then a hand with no passing" in _text(rules, "pass")
    assert summary(rules).startswith("3 players")


def test_five_players_lead_the_three_of_clubs_and_pass_two_seats_away() -> None:
    rules = Rules(players=5)
    assert "3♣" in _text(rules, "first_lead")
    assert "2♣ and the 2♦" in _text(rules, "short_pack")
    assert "two left, two right" in _text(rules, "pass")


def test_a_kitty_is_explained_instead_of_removed_cards() -> None:
    rules = Rules(players=3, short_pack=ShortPack.KITTY)
    assert "kitty" in _text(rules, "short_pack")
    assert "taken out" not in _text(rules, "short_pack")
    assert "kitty" in summary(rules)


def test_the_queen_breaking_hearts_is_said() -> None:
    assert "Q♠ does not break hearts" in _text(Rules(), "queen_breaks_hearts")
    assert "a heart or the Q♠" in _text(Rules(queen_breaks_hearts=True), "queen_breaks_hearts")


def test_the_target_and_the_clock_are_in_the_words() -> None:
    assert "reaches 75 points" in _text(Rules(target=75), "target")
    assert "to 75" in summary(Rules(target=75))
    assert "25 seconds" in _text(Rules(), "clock")
    assert "ends the game" in _text(Rules(clock=Clock.STRICT), "clock")


def test_the_jack_of_diamonds_shows_its_bonus_in_the_summary() -> None:
    assert summary(Rules(jack_of_diamonds=True)).endswith("jack of diamonds \N{MINUS SIGN}10")
    assert "jack" not in summary(Rules())


def test_each_rule_set_reads_differently() -> None:
    summaries = {summary(preset.rules) for preset in PRESETS.values()}
    assert len(summaries) == len(PRESETS)
