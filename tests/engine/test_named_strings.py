"""The strings the engine stores and says have names: a move's kind, how a game ended and why
a card is refused. The stored strings stay what records and move logs already hold."""

from __future__ import annotations

from games.engine import (
    EARLY_ENDS,
    END_REASONS,
    EndReason,
    Match,
    MoveKind,
    Phase,
    Refusal,
    Rules,
)
from tests.helpers.engine import seed, step


def test_the_kinds_and_end_reasons_are_the_strings_records_hold() -> None:
    assert [kind.value for kind in MoveKind] == ["pass", "play", "moon", "resign"]
    assert END_REASONS == ("target", "resigned", "left", "timed out")
    assert EARLY_ENDS == ("resigned", "left", "timed out")
    assert not EndReason.TARGET.early and EndReason.TIMED_OUT.early


def test_a_resignations_move_and_result_keep_their_stored_strings() -> None:
    match = Match(Rules(), seed(3))
    match.resign(2, EndReason.TIMED_OUT)
    assert match.to_json()["moves"][-1] == {"kind": "resign", "seat": 2, "choice": "timed out"}
    assert match.result is not None and match.result.reason == "timed out"
    assert type(match.result.reason) is str


def test_every_refusal_in_a_match_is_worded_by_its_code_and_read_back() -> None:
    match = Match(Rules(), seed(5))
    seen = set()
    while not match.is_over and match.hand.number < 3:
        hand = match.hand
        for seat in range(match.players):
            for card in hand.holding(seat):
                text = hand.why_not(seat, card)
                refusal = hand.refusal(seat, card)
                assert (text is None) == (refusal is None)
                if refusal is not None:
                    assert Refusal.of(text or "") is refusal
                    seen.add(refusal)
        if hand.phase is Phase.OVER:
            break
        step(match)
    assert {Refusal.PASSING, Refusal.NOT_YOUR_TURN, Refusal.FIRST_LEAD} <= seen
    assert Refusal.FOLLOW_SUIT in seen
