"""The bots decide as they did when tests/bots/pinned_decisions.json was written (see
tests/helpers/pinned.py): the play-outs made cheaper, each decision the same, for the same seed
in the same position, by the compiled build and by the source alike."""

from __future__ import annotations

import json

import pytest

from tests.helpers.pinned import FILE, LEVELS, decide, positions

MATCHES = json.loads(FILE.read_text())


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("pinned", MATCHES, ids=[match["table"] for match in MATCHES])
def test_each_pinned_position_gets_the_pinned_decision(pinned: dict, level: str) -> None:
    record = pinned["record"]
    found = positions(record)
    assert len(found) == len(pinned["choices"][level])

    made = [decide(level, record, *position) for position in found]

    differ = [
        (position, want, got)
        for position, want, got in zip(found, pinned["choices"][level], made, strict=True)
        if want != got
    ]
    assert not differ, f"{len(differ)} of {len(found)} decisions changed: {differ[:5]}"
