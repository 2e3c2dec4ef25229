"""A match's snapshot for live play: restored, it is the match replayed from its log, at any
point of any match, restored without replaying a move however long the match."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import (
    PRESETS,
    Hand,
    Match,
    RecordError,
    last_trick,
    seat_view,
    taken_in_last_hand,
)
from games.engine.events import Event
from tests.helpers.engine import seed, step
from tests.helpers.strategies import MATCHES, Chooser, checkpoints, play_match, short_matches


def restored(match: Match) -> Match:
    return Match.from_snapshot(json.loads(json.dumps(match.to_snapshot())))


def assert_same_state(copy: Match, match: Match) -> None:
    assert copy.snapshot() == match.snapshot()
    assert copy.to_snapshot() == match.to_snapshot()
    assert (copy.version, copy.cards_played, copy.is_over) == (
        match.version,
        match.cards_played,
        match.is_over,
    )
    assert (copy.totals, copy.hand_points(), copy.result) == (
        match.totals,
        match.hand_points(),
        match.result,
    )
    assert copy.hand.moves == match.hand.moves
    assert copy.moves == match.moves[len(match.moves) - len(copy.moves) :]
    for seat in [None, *range(match.players)]:
        assert seat_view(copy, seat) == seat_view(match, seat)
    assert last_trick(copy) == last_trick(match)
    assert taken_in_last_hand(copy) == taken_in_last_hand(match)


@MATCHES
@given(short_matches(), checkpoints, st.one_of(st.none(), st.integers(0, 300)))
def test_a_restored_snapshot_is_the_match_replayed_and_plays_on_the_same(
    drawn: tuple[Match, Chooser], stops: set[int], resign_at: int | None
) -> None:
    played, chooser = drawn
    for _ in play_match(played, chooser, resign_at):
        pass
    match = Match(played.rules, played.seed, played.added_seeds)
    copies: list[Match] = []
    for number, move in enumerate(played.moves, start=1):
        events: list[Event] = match.apply(move)
        for copy in copies:
            assert copy.apply(move) == events
        if number in stops or number == len(played.moves):
            copy = restored(match)
            assert_same_state(copy, match)
            copies.append(copy)
    for copy in copies:
        assert_same_state(copy, match)


@pytest.mark.parametrize("preset", PRESETS)
def test_a_snapshot_restores_without_replaying_a_move_however_long_the_match(
    preset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = PRESETS[preset].rules.replace(target=500)
    match = Match(rules, seed(7))
    while len(match.hands) < 10:
        step(match)
    step(match)
    snapshot = match.to_snapshot()
    assert len(snapshot["hand_points"]) == 9  # the tenth is the last hand's, kept whole

    def no_replay(*args: object, **kwargs: object) -> None:
        raise AssertionError("a move was replayed")

    monkeypatch.setattr(Hand, "apply", no_replay)
    monkeypatch.setattr(Hand, "pass_mask", no_replay)
    monkeypatch.setattr(Hand, "play_index", no_replay)
    copy = restored(match)
    monkeypatch.undo()
    assert_same_state(copy, match)


def test_a_restored_match_makes_no_record_of_the_moves_it_never_saw() -> None:
    match = Match(PRESETS["standard"].rules.replace(target=500), seed(3))
    while len(match.hands) < 3:
        step(match)
    with pytest.raises(RecordError):
        restored(match).to_json()
    assert Match.from_json(match.to_json()).snapshot() == match.snapshot()


def test_a_snapshot_of_another_format_is_refused() -> None:
    snapshot = Match(PRESETS["standard"].rules, seed(3)).to_snapshot()
    with pytest.raises(RecordError):
        Match.from_snapshot({**snapshot, "format": 0})
    with pytest.raises(RecordError):
        Match.from_snapshot({key: value for key, value in snapshot.items() if key != "hand_points"})
    with pytest.raises(RecordError):
        Match.from_snapshot({**snapshot, "hand": {**snapshot["hand"], "hands": [0, 0]}})
    with pytest.raises(RecordError):
        Match.from_snapshot({**snapshot, "hand": {**snapshot["hand"], "phase": "napping"}})
