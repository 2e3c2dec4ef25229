"""The options a table can set, the named rule sets, and what follows from the player count."""

import dataclasses
import json

import pytest

from games.engine import (
    CARD_SECONDS,
    PASS_SECONDS,
    PRESETS,
    Clock,
    FirstLead,
    InvalidRulesError,
    MoonRule,
    Rules,
    ShortPack,
    TieRule,
    format_cards,
    pass_direction_name,
)

# The table of named rule sets in rules.md: players, points on the first trick, the queen
# breaks hearts, moon, ties, clock.
PRESET_TABLE = {
    "standard": ({4}, False, False, MoonRule.OTHERS, TieRule.SHARE, Clock.RELAXED),
    "published": ({4, 3}, True, False, MoonRule.AUTOMATIC, TieRule.SHARE, Clock.STRICT),
    "classic": ({4}, True, False, MoonRule.OTHERS, TieRule.PLAY_ON, Clock.RELAXED),
    "club": ({4, 5}, True, True, MoonRule.CHOOSE, TieRule.SHARE, Clock.RELAXED),
    "encyclopedia": ({3, 4, 5, 6}, False, True, MoonRule.SELF, TieRule.SHARE, Clock.RELAXED),
}


# Named rule sets ---------------------------------------------------------------------------


def test_there_is_one_named_rule_set_per_source_text():
    assert set(PRESETS) == set(PRESET_TABLE)


@pytest.mark.parametrize("key", PRESET_TABLE)
def test_each_named_rule_set_has_the_options_of_the_table_in_the_rules(key):
    players, points_on_first_trick, queen_breaks, moon, ties, clock = PRESET_TABLE[key]
    preset = PRESETS[key]
    rules = preset.rules

    assert set(preset.players) == players
    assert rules.points_on_first_trick is points_on_first_trick
    assert rules.queen_breaks_hearts is queen_breaks
    assert rules.moon is moon
    assert rules.ties is ties
    assert rules.clock is clock


@pytest.mark.parametrize("key", PRESET_TABLE)
def test_a_named_rule_set_starts_with_the_plain_options(key):
    rules = PRESETS[key].rules

    assert rules.first_lead is FirstLead.LOWEST_CLUB
    assert rules.short_pack is ShortPack.REMOVE
    assert not (rules.shoot_the_sun or rules.jack_of_diamonds or rules.old_queen)
    assert rules.target == 100


def test_the_standard_rule_set_is_the_default():
    assert Rules() == PRESETS["standard"].rules
    assert Rules().players == 4


@pytest.mark.parametrize(
    ("key", "players"),
    [
        ("standard", 4),
        ("published", 3),
        ("published", 4),
        ("classic", 4),
        ("club", 4),
        ("club", 5),
        ("encyclopedia", 3),
        ("encyclopedia", 4),
        ("encyclopedia", 5),
        ("encyclopedia", 6),
    ],
)
def test_a_named_rule_set_is_made_for_each_table_size_it_is_played_at(key, players):
    rules = PRESETS[key].make(players)

    assert rules.players == players
    assert rules.moon is PRESETS[key].rules.moon


@pytest.mark.parametrize(
    ("key", "players", "message"),
    [
        ("standard", 3, "Standard is played by 4 players"),
        ("standard", 5, "Standard is played by 4 players"),
        ("published", 5, "Published is played by 4 or 3 players"),
        ("classic", 3, "Classic is played by 4 players"),
        ("club", 3, "Club is played by 4 or 5 players"),
        ("club", 6, "Club is played by 4 or 5 players"),
    ],
)
def test_a_named_rule_set_refuses_a_table_size_it_is_not_played_at(key, players, message):
    with pytest.raises(InvalidRulesError, match=message):
        PRESETS[key].make(players)


@pytest.mark.parametrize(
    "change",
    [
        {"jack_of_diamonds": True},
        {"shoot_the_sun": True},
        {"short_pack": "kitty"},
        {"first_lead": "left_of_dealer"},
        {"old_queen": True},
    ],
)
def test_encyclopedia_tables_offer_its_variants(change):
    players = 5 if "short_pack" in change else 4
    rules = PRESETS["encyclopedia"].make(players, **change)

    ((name, value),) = change.items()
    assert rules.to_json()[name] == value
    assert rules.moon is MoonRule.SELF


def test_encyclopedia_tables_offer_every_variant_at_once():
    rules = PRESETS["encyclopedia"].make(
        3,
        jack_of_diamonds=True,
        shoot_the_sun=True,
        short_pack="kitty",
        first_lead="left_of_dealer",
        old_queen=True,
    )

    assert rules.kitty_size == 1
    assert rules.first_lead is FirstLead.LEFT_OF_DEALER


@pytest.mark.parametrize("key", ["standard", "published", "classic", "club"])
@pytest.mark.parametrize(
    "option", ["jack_of_diamonds", "shoot_the_sun", "old_queen", "queen_breaks_hearts"]
)
def test_other_named_rule_sets_refuse_the_variants_they_do_not_offer(key, option):
    with pytest.raises(InvalidRulesError, match=f"does not offer: {option}"):
        PRESETS[key].make(**{option: True})


def test_a_named_rule_set_refuses_changes_to_its_own_defining_options():
    with pytest.raises(InvalidRulesError, match="Standard does not offer: moon"):
        PRESETS["standard"].make(moon="self")
    with pytest.raises(InvalidRulesError, match="Encyclopedia does not offer: moon"):
        PRESETS["encyclopedia"].make(moon="others")


def test_club_tables_offer_the_target_50():
    assert PRESETS["club"].make(target=50).target == 50
    assert PRESETS["club"].make(5, target=50).target == 50


@pytest.mark.parametrize(("key", "target"), [("club", 75), ("standard", 50), ("published", 200)])
def test_a_named_rule_set_refuses_a_target_it_does_not_offer(key, target):
    with pytest.raises(InvalidRulesError, match="plays to"):
        PRESETS[key].make(target=target)


def test_a_named_rule_set_refuses_a_kitty_at_four_players():
    with pytest.raises(InvalidRulesError, match="there is no kitty"):
        PRESETS["encyclopedia"].make(4, short_pack="kitty")


# Invalid values ----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 7, 0, True])
def test_a_table_of_fewer_than_three_or_more_than_six_players_is_refused(players):
    with pytest.raises(InvalidRulesError, match="Hearts is played by 3, 4, 5 or 6 players"):
        Rules(players=players)


def test_a_player_count_that_is_not_a_whole_number_is_refused():
    with pytest.raises(InvalidRulesError):
        Rules.from_json({"players": 4.0})


@pytest.mark.parametrize("target", [24, 501, 0, -100])
def test_a_target_outside_25_to_500_is_refused(target):
    with pytest.raises(InvalidRulesError, match="The target must be between 25 and 500 points"):
        Rules(target=target)


@pytest.mark.parametrize("target", [25, 100, 500])
def test_a_target_from_25_to_500_is_accepted(target):
    assert Rules(target=target).target == target


@pytest.mark.parametrize("target", ["100", 100.0, True])
def test_a_target_that_is_not_a_whole_number_is_refused(target):
    with pytest.raises(InvalidRulesError, match="The target must be a whole number"):
        Rules(target=target)


def test_four_players_cannot_have_a_kitty():
    with pytest.raises(
        InvalidRulesError, match="Four players share the whole pack: there is no kitty"
    ):
        Rules(players=4, short_pack=ShortPack.KITTY)


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("moon", "sideways", "moon must be one of others, self, choose, automatic, not 'sideways'"),
        ("ties", "coin", "ties must be one of share, play_on"),
        ("clock", "fast", "clock must be one of relaxed, strict"),
        ("short_pack", "burn", "short_pack must be one of remove, kitty"),
        ("first_lead", "dealer", "first_lead must be one of lowest_club, left_of_dealer"),
        ("moon", "OTHERS", "moon must be one of"),
    ],
)
def test_an_unknown_choice_for_an_option_is_refused_with_the_choices(option, value, message):
    with pytest.raises(InvalidRulesError, match=message):
        Rules.from_json({option: value})


@pytest.mark.parametrize("option", ["points_on_first_trick", "queen_breaks_hearts", "old_queen"])
def test_a_yes_or_no_option_refuses_anything_but_true_or_false(option):
    with pytest.raises(InvalidRulesError, match=f"{option} must be true or false"):
        Rules.from_json({option: "yes"})


def test_rules_from_json_refuse_an_unknown_option():
    with pytest.raises(InvalidRulesError, match="Unknown option: colour"):
        Rules.from_json({"players": 4, "colour": "red"})


def test_rules_from_json_refuse_derived_values_that_are_not_options():
    with pytest.raises(InvalidRulesError, match="Unknown option: deck"):
        Rules.from_json({"deck": []})


def test_rules_from_json_refuse_something_that_is_not_an_object():
    with pytest.raises(InvalidRulesError, match="Rules must be an object of options"):
        Rules.from_json(["players", 4])  # type: ignore[arg-type]


def test_a_changed_copy_of_the_rules_is_validated_like_new_rules():
    with pytest.raises(InvalidRulesError, match="3, 4, 5 or 6 players"):
        Rules().replace(players=7)


def test_rules_cannot_be_changed_in_place():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Rules().players = 5  # type: ignore[misc]


def test_option_values_given_as_strings_become_their_enum_members():
    rules = Rules(moon="choose", ties="play_on", clock="strict", first_lead="left_of_dealer")

    assert rules.moon is MoonRule.CHOOSE
    assert rules.ties is TieRule.PLAY_ON
    assert rules.clock is Clock.STRICT
    assert rules.first_lead is FirstLead.LEFT_OF_DEALER


# The short pack: removals and kitty --------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "removed", "hand_size"),
    [(3, "2D", 17), (4, "", 13), (5, "2C 2D", 10), (6, "2C 3C 2D 2S", 8)],
)
def test_cards_are_removed_so_that_the_pack_divides_evenly(players, removed, hand_size):
    rules = Rules(players=players)

    assert format_cards(rules.removed_cards) == removed
    assert rules.hand_size == hand_size
    assert rules.kitty_size == 0
    assert len(rules.deck) == hand_size * players


@pytest.mark.parametrize(
    ("players", "kitty_size", "hand_size"), [(3, 1, 17), (5, 2, 10), (6, 4, 8)]
)
def test_with_a_kitty_the_whole_pack_is_used_and_the_leftover_cards_form_the_kitty(
    players, kitty_size, hand_size
):
    rules = Rules(players=players, short_pack=ShortPack.KITTY)

    assert rules.removed_cards == ()
    assert len(rules.deck) == 52
    assert rules.hand_size == hand_size
    assert rules.kitty_size == kitty_size


@pytest.mark.parametrize(
    ("players", "short_pack", "lowest"),
    [
        (3, "remove", "2C"),
        (4, "remove", "2C"),
        (5, "remove", "3C"),
        (6, "remove", "4C"),
        (5, "kitty", "2C"),
        (6, "kitty", "2C"),
    ],
)
def test_the_lowest_club_in_the_pack_depends_on_the_removals(players, short_pack, lowest):
    assert str(Rules(players=players, short_pack=short_pack).lowest_club_in_pack) == lowest


def test_no_penalty_card_is_ever_removed():
    for players in (3, 5, 6):
        assert sum(card.points for card in Rules(players=players).deck) == 26


# Pass cycles and dealers -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "cycle"),
    [
        (3, ["left", "right", "hold"]),
        (4, ["left", "right", "across", "hold"]),
        (5, ["left", "right", "two left", "two right", "hold"]),
        (6, ["left", "right", "two left", "two right", "across", "hold"]),
    ],
)
def test_the_pass_cycle_depends_on_the_number_of_players_and_repeats(players, cycle):
    rules = Rules(players=players)
    hands = range(1, 2 * len(cycle) + 1)

    names = [pass_direction_name(rules.pass_offset(number), players) for number in hands]

    assert names == cycle + cycle


@pytest.mark.parametrize(
    ("players", "offsets"),
    [(3, (1, 2, 0)), (4, (1, 3, 2, 0)), (5, (1, 4, 2, 3, 0)), (6, (1, 5, 2, 4, 3, 0))],
)
def test_a_pass_goes_left_as_seat_plus_one_and_across_six_is_seat_plus_three(players, offsets):
    assert Rules(players=players).pass_cycle == offsets


@pytest.mark.parametrize(
    ("offset", "players", "name"),
    [
        (1, 4, "left"),
        (3, 4, "right"),
        (2, 4, "across"),
        (0, 4, "hold"),
        (4, 4, "hold"),
        (2, 3, "right"),
        (2, 5, "two left"),
        (3, 5, "two right"),
        (4, 6, "two right"),
        (3, 6, "across"),
        (-1, 6, "right"),
    ],
)
def test_a_pass_offset_is_named_in_words(offset, players, name):
    assert pass_direction_name(offset, players) == name


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_seat_0_deals_the_first_hand_and_the_deal_moves_left(players):
    rules = Rules(players=players)

    dealers = [rules.dealer(number) for number in range(1, players + 2)]

    assert dealers == [*range(players), 0]


# Records and the clock ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "rules",
    [preset.rules for preset in PRESETS.values()]
    + [
        PRESETS["encyclopedia"].make(
            6, jack_of_diamonds=True, shoot_the_sun=True, short_pack="kitty", old_queen=True
        ),
        Rules(players=3, first_lead=FirstLead.LEFT_OF_DEALER, target=25, ties=TieRule.PLAY_ON),
    ],
)
def test_rules_round_trip_through_json(rules):
    text = json.dumps(rules.to_json())

    assert Rules.from_json(json.loads(text)) == rules


def test_rules_json_holds_every_option_as_a_plain_value():
    data = PRESETS["published"].rules.to_json()

    assert data == {
        "players": 4,
        "short_pack": "remove",
        "first_lead": "lowest_club",
        "points_on_first_trick": True,
        "queen_breaks_hearts": False,
        "moon": "automatic",
        "shoot_the_sun": False,
        "jack_of_diamonds": False,
        "old_queen": False,
        "target": 100,
        "ties": "share",
        "clock": "strict",
    }


def test_equal_rules_hash_alike_and_different_rules_differ():
    assert hash(Rules(moon="self")) == hash(Rules(moon=MoonRule.SELF))
    assert Rules(moon="self") != Rules()


def test_both_clocks_allow_25_seconds_a_card_and_30_seconds_a_pass():
    assert (CARD_SECONDS, PASS_SECONDS) == (25, 30)
