"""A match: hands dealt from one seed until a total reaches the target, or the game ends early.

The matches are played by a plain policy: every seat passes its first three cards in pack
order, plays its lowest legal card and, having shot the moon, gives the others the points.
Seeds are fixed, so every match below is the same on every run.
"""

import json

import pytest

from games.engine import (
    PRESETS,
    HandDealt,
    HandScored,
    IllegalMoveError,
    Match,
    MatchEnded,
    MatchOverError,
    Move,
    Phase,
    RecordError,
    Rules,
    TieRule,
    format_cards,
    places_for,
)
from tests.helpers.engine import play_out, play_until, seed, step


def running_totals(match):
    totals, history = [0] * match.players, []
    for points in match.hand_points():
        totals = [t + p for t, p in zip(totals, points, strict=True)]
        history.append(tuple(totals))
    return history


# Reaching the target -----------------------------------------------------------------------


def test_a_match_ends_after_the_hand_in_which_a_total_reaches_the_target():
    match = Match(Rules(target=25), seed(2))

    events = play_out(match)

    assert running_totals(match) == [(3, 2, 13, 8), (6, 16, 16, 14), (7, 33, 23, 15)]
    assert match.result.reason == "target"
    assert match.result.totals == match.totals == (7, 33, 23, 15)
    assert match.result.places == (1, 4, 3, 2)
    assert match.result.winners == (0,)
    assert events[-1] == MatchEnded("target", (1, 4, 3, 2))


def test_a_total_exactly_at_the_target_ends_the_match():
    match = Match(Rules(target=25), seed(4))

    play_out(match)

    assert match.totals == (3, 4, 20, 25)
    assert len(match.hands) == 2
    assert match.result.places == (1, 2, 3, 4)


def test_the_next_hand_is_dealt_when_nobody_has_reached_the_target():
    match = Match(Rules(target=25), seed(2))

    events = play_until(match, lambda: match.hand.number == 2)

    assert events[-2:] == [HandScored(1, (3, 2, 13, 8)), HandDealt(2, "right")]
    assert match.totals == (3, 2, 13, 8)
    assert not match.is_over


@pytest.mark.parametrize(
    "rules",
    [PRESETS["published"].make(3), PRESETS["club"].make(5), PRESETS["encyclopedia"].make(6)],
    ids=["3", "5", "6"],
)
def test_a_match_at_any_table_size_plays_to_the_target(rules):
    match = Match(rules.replace(target=25), seed(1))

    play_out(match)

    assert match.result.reason == "target"
    assert max(match.totals) >= 25
    assert all(max(totals) < 25 for totals in running_totals(match)[:-1])
    assert match.result.places == places_for(match.totals)


# Places ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("totals", "places"),
    [
        ((40, 40, 76, 106), (1, 1, 3, 4)),
        ((10, 20, 30, 40), (1, 2, 3, 4)),
        ((106, 76, 40, 40), (4, 3, 1, 1)),
        ((30, 30, 30, 30), (1, 1, 1, 1)),
        ((50, 20, 50, 20), (3, 1, 3, 1)),
        ((-26, 0, 0), (1, 2, 2)),
        ((5, 5, 9, 9, 1, 7), (2, 2, 5, 5, 1, 4)),
    ],
)
def test_a_place_is_one_plus_the_number_of_seats_with_a_strictly_lower_total(totals, places):
    assert places_for(totals) == places


@pytest.mark.parametrize(
    ("totals", "last", "places"),
    [
        ((40, 40, 76, 106), 0, (4, 1, 2, 3)),
        ((40, 40, 76, 106), 3, (1, 1, 3, 4)),
        ((0, 50, 50, 90), 0, (4, 1, 1, 3)),
    ],
)
def test_a_seat_placed_last_does_not_count_in_the_places_of_the_others(totals, last, places):
    assert places_for(totals, last=last) == places


# Equal lowest totals -----------------------------------------------------------------------

# With this seed the first hand ends 0, 1, 25, 0: the target 25 is reached, and seats 0 and
# 3 share the lowest total.
TIE_SEED = seed(12)


def test_equal_lowest_totals_share_first_place():
    match = Match(Rules(target=25, ties=TieRule.SHARE), TIE_SEED)

    play_out(match)

    assert len(match.hands) == 1
    assert match.result.totals == (0, 1, 25, 0)
    assert match.result.places == (1, 3, 4, 1)
    assert match.result.winners == (0, 3)


def test_with_play_on_equal_lowest_totals_play_another_hand():
    match = Match(Rules(target=25, ties=TieRule.PLAY_ON), TIE_SEED)

    events = play_until(match, lambda: len(match.hands) == 1)

    assert match.totals == (0, 1, 25, 0)
    assert not match.is_over
    assert events[-1] == HandDealt(2, "right")


def test_with_play_on_the_match_ends_once_the_lowest_total_is_not_shared():
    match = Match(Rules(target=25, ties=TieRule.PLAY_ON), TIE_SEED)

    play_out(match)

    history = running_totals(match)
    assert all(max(totals) < 25 or totals.count(min(totals)) > 1 for totals in history[:-1])
    assert match.totals == (8, 28, 42, 0)
    assert match.result.places == (2, 3, 4, 1)
    assert match.result.winners == (3,)


def test_the_classic_rule_set_plays_another_hand_on_equal_lowest_totals():
    assert PRESETS["classic"].rules.ties is TieRule.PLAY_ON


# Ending early ------------------------------------------------------------------------------

# With this seed the first hand ends 17, 4, 1, 4.
RESIGN_SEED = seed(36)


def after_the_first_hand():
    match = Match(Rules(), RESIGN_SEED)
    play_until(match, lambda: len(match.hands) == 1)
    return match


def test_a_seat_that_resigns_is_placed_last_and_the_others_by_their_totals():
    match = after_the_first_hand()
    play_until(match, lambda: match.hand.cards_played == 1)

    events = match.resign(2)

    assert match.totals == (17, 4, 1, 4)
    assert match.result.reason == "resigned"
    assert match.result.forfeited == 2
    assert match.result.places == (3, 1, 4, 1)  # seat 2 had the lowest total
    assert match.result.winners == (1, 3)
    assert events == [MatchEnded("resigned", (3, 1, 4, 1))]
    assert match.moves[-1] == Move("resign", 2, choice="resigned")


@pytest.mark.parametrize("reason", ["resigned", "left", "timed out"])
def test_leaving_and_a_missed_deadline_end_the_game_against_the_seat_too(reason):
    match = after_the_first_hand()

    match.resign(1, reason)

    assert match.result.reason == reason
    assert match.result.places == (3, 4, 1, 2)


def test_a_game_cannot_end_early_for_another_reason():
    match = after_the_first_hand()

    with pytest.raises(IllegalMoveError, match="A game cannot end early because of 'bored'"):
        match.resign(1, "bored")
    with pytest.raises(IllegalMoveError, match="A game cannot end early because of 'target'"):
        match.resign(1, "target")
    assert not match.is_over


@pytest.mark.parametrize("seat", [-1, 4, True])
def test_a_seat_that_is_not_at_the_table_cannot_resign(seat):
    match = after_the_first_hand()

    with pytest.raises(IllegalMoveError, match="There is no seat"):
        match.resign(seat)
    assert not match.is_over


@pytest.mark.parametrize("passes", [0, 4], ids=["at once", "after the pass"])
def test_a_player_who_walks_away_before_the_first_card_loses_the_game(passes):
    match = Match(Rules(), RESIGN_SEED)
    for _ in range(passes):
        step(match)
    assert match.hand.cards_played == 0

    events = match.resign(1, "left")

    assert match.result.reason == "left"
    assert match.result.places == (1, 4, 1, 1)
    assert match.result.winners == (0, 2, 3)
    assert match.result.forfeited == 1
    assert events == [MatchEnded("left", (1, 4, 1, 1))]


def test_a_game_ended_early_does_not_score_the_hand_in_progress():
    match = after_the_first_hand()
    play_until(match, lambda: sum(match.hand.penalty_points()) > 0)
    assert match.hand.penalty_points() == (0, 0, 13, 0)

    match.resign(0)

    assert match.result.totals == match.totals == (17, 4, 1, 4)
    assert match.hand_points() == [(17, 4, 1, 4)]
    assert match.result.places == (4, 2, 1, 2)


def test_a_game_ended_while_the_shooter_chooses_does_not_score_the_moon():
    match = Match(PRESETS["club"].rules, seed(18))  # seat 3 shoots the moon in hand 1
    play_until(match, lambda: match.hand.phase is Phase.MOON_CHOICE)

    match.resign(3)

    assert match.result.totals == (0, 0, 0, 0)
    assert match.result.places == (1, 1, 1, 4)


@pytest.mark.parametrize(
    "action",
    [
        lambda match: match.play(match.hand.turn, match.hand.holding(match.hand.turn)[0]),
        lambda match: match.pass_cards(0, match.hand.holding(0)[:3]),
        lambda match: match.choose_moon(0, "others"),
        lambda match: match.resign(1),
        lambda match: match.apply(Move("resign", 1, choice="left")),
    ],
    ids=["play", "pass", "moon", "resign", "apply"],
)
def test_no_move_is_accepted_once_the_match_is_over(action):
    match = after_the_first_hand()
    match.resign(0)
    before = match.snapshot()

    with pytest.raises(MatchOverError, match="The game is over"):
        action(match)

    assert match.snapshot() == before


def test_no_move_is_accepted_after_the_target_is_reached():
    match = Match(Rules(target=25), seed(2))
    play_out(match)

    with pytest.raises(MatchOverError):
        match.play(0, "2C")


# Records -----------------------------------------------------------------------------------


def round_trip(match):
    return Match.from_json(json.loads(json.dumps(match.to_json())))


def test_a_match_in_progress_round_trips_through_json():
    match = after_the_first_hand()
    play_until(match, lambda: match.hand.cards_played == 10)

    copy = round_trip(match)

    assert copy.snapshot() == match.snapshot()
    assert copy.version == match.version == len(match.moves)


def test_a_finished_match_round_trips_through_json():
    match = Match(Rules(target=25, ties=TieRule.PLAY_ON), TIE_SEED)
    play_out(match)

    copy = round_trip(match)

    assert copy.snapshot() == match.snapshot()
    assert copy.result == match.result


def test_a_resigned_match_round_trips_through_json():
    match = after_the_first_hand()
    play_until(match, lambda: match.hand.cards_played == 5)
    match.resign(2, "timed out")

    assert round_trip(match).snapshot() == match.snapshot()


def test_a_match_record_holds_the_rules_the_seed_and_the_moves():
    match = Match(PRESETS["club"].rules, RESIGN_SEED)
    three = match.hand.holding(0)[:3]
    match.pass_cards(0, three)

    record = match.to_json()

    assert record["rules"] == PRESETS["club"].rules.to_json()
    assert record["seed"] == RESIGN_SEED.hex()
    assert record["moves"] == [{"kind": "pass", "seat": 0, "cards": format_cards(three)}]


def test_a_move_made_for_a_seat_whose_time_ran_out_is_marked_in_the_record():
    match = Match(PRESETS["published"].rules, RESIGN_SEED)
    three = match.hand.holding(0)[:3]

    match.pass_cards(0, three, timeout=True)

    assert match.moves[-1] == Move("pass", 0, tuple(three), timeout=True)
    assert match.to_json()["moves"][-1]["timeout"] is True
    assert round_trip(match).moves == match.moves


def test_a_record_that_is_not_a_match_is_refused():
    with pytest.raises(RecordError):
        Match.from_json({"rules": Rules().to_json()})
    with pytest.raises(RecordError):
        Match.from_json({"rules": Rules().to_json(), "seed": "zz", "moves": []})


def test_the_same_seed_and_moves_give_the_same_match():
    one, two = Match(Rules(), RESIGN_SEED), Match(Rules(), RESIGN_SEED)
    play_until(one, lambda: one.hand.number == 2)
    play_until(two, lambda: two.hand.number == 2)

    assert one.snapshot() == two.snapshot()
