"""scripts/check_record.py, the standard-library checker anyone can run on a downloaded record:
it deals as the engine does, passes a true record and catches a tampered one."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from games.engine import Match, Rules, ShortPack, deal_hand, fingerprint
from games.records import match_record
from tests.helpers.engine import seed, step
from tests.helpers.vectors import VECTORS, Vector

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "check_record.py"


def _load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_record", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


checker = _load_script()


def _played_record(
    rules: Rules, added: tuple[str, ...] = (), resign_after: int | None = None
) -> dict[str, Any]:
    """A whole match played with plain legal moves, written down as the site's record; or, with
    ``resign_after``, one that seat 0 resigned after that many moves."""
    match = Match(rules, seed(12), added)
    while not match.is_over:
        if match.version == resign_after:
            match.resign(0)
            break
        step(match)
    names = ["alice", "bob", "carol", "dave", "erin", "frank"]
    return {
        "format": "hearts-record-v1",
        "players": [{"seat": s, "name": names[s], "bot": False} for s in range(rules.players)],
        **match_record(match),
    }


def _check(record: dict[str, Any], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "hearts-game-12.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(path)], capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize("vector", VECTORS, ids=lambda vector: vector.name)
def test_the_script_deals_every_vector_of_the_document(vector: Vector) -> None:
    kitty = vector.short_pack == "kitty"
    dealer, hands, left = checker.deal(
        vector.seed, vector.players, vector.hand, kitty, list(vector.added)
    )
    assert dealer == vector.dealer
    assert tuple(map(tuple, hands)) == vector.hands
    assert tuple(left) == vector.kitty


def test_the_script_deals_as_the_engine_for_every_table_and_added_seeds() -> None:
    for rules in (
        Rules(),
        Rules(players=3),
        Rules(players=5),
        Rules(players=6, short_pack=ShortPack.KITTY),
    ):
        added = ("alice", "", "ümlaut ", "dave", "", "")[: rules.players]
        for number in (1, 2, 7):
            deal = deal_hand(rules, seed(3), number, added)
            _, hands, kitty = checker.deal(
                seed(3), rules.players, number, rules.short_pack == "kitty", list(added)
            )
            assert hands == [[str(card) for card in hand] for hand in deal.hands]
            assert kitty == [str(card) for card in deal.kitty]


@pytest.mark.parametrize(
    ("rules", "added"),
    [
        (Rules(), ()),
        (Rules(players=3, short_pack=ShortPack.KITTY), ("alice", "", "carol")),
        (Rules(players=5), ()),
    ],
    ids=["standard", "three-with-kitty-and-added-seeds", "five"],
)
def test_a_true_record_matches_hand_by_hand(
    rules: Rules, added: tuple[str, ...], tmp_path: Path
) -> None:
    record = _played_record(rules, added)
    run = _check(record, tmp_path)
    hands = len(record["hands"])
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith("Fingerprint: matches")
    assert [line for line in lines if line.startswith("Hand ")] == [
        f"Hand {n}: dealt cards, kitty, passes and plays match" for n in range(1, hands + 1)
    ]
    assert lines[-1] == f"All {hands} hands match the seed."


def test_two_cards_swapped_between_seats_are_a_mismatch(tmp_path: Path) -> None:
    record = _played_record(Rules())
    dealt = record["hands"][0]["dealt"]
    alice, bob = dealt[0].split(), dealt[1].split()
    alice[0], bob[0] = bob[0], alice[0]
    dealt[0], dealt[1] = " ".join(alice), " ".join(bob)
    run = _check(record, tmp_path)
    assert run.returncode == 1
    assert "Hand 1: MISMATCH" in run.stdout
    assert "seat 1 (alice) was dealt" in run.stdout
    assert "seat 2 (bob) was dealt" in run.stdout
    assert "Hand 2: dealt cards, kitty, passes and plays match" in run.stdout
    assert run.stdout.splitlines()[-1].startswith("MISMATCH")


def test_another_seed_is_a_mismatch_even_with_its_own_fingerprint(tmp_path: Path) -> None:
    record = _played_record(Rules())
    other = seed(13)
    record["seed"], record["fingerprint"] = other.hex(), fingerprint(other)
    run = _check(record, tmp_path)
    assert run.returncode == 1
    assert "Fingerprint: matches" in run.stdout
    assert "Hand 1: MISMATCH" in run.stdout


def test_a_fingerprint_that_is_not_the_seeds_is_a_mismatch(tmp_path: Path) -> None:
    record = _played_record(Rules())
    record["fingerprint"] = fingerprint(seed(13))
    run = _check(record, tmp_path)
    assert run.returncode == 1
    assert run.stdout.startswith("Fingerprint: MISMATCH")
    assert "Hand 1: dealt cards, kitty, passes and plays match" in run.stdout


def test_a_card_played_that_was_never_held_is_a_mismatch(tmp_path: Path) -> None:
    record = _played_record(Rules())
    passes = record["hands"][0]["passes"]
    first_play = next(m for m in record["moves"] if m["kind"] == "play")
    held_elsewhere = next(
        card
        for seat, cards in enumerate(record["hands"][0]["dealt"])
        if seat != first_play["seat"]
        for card in cards.split()
        if card not in " ".join(passes)
    )
    first_play["cards"] = held_elsewhere
    run = _check(record, tmp_path)
    assert run.returncode == 1
    assert f"played {held_elsewhere}, not in their hand then" in run.stdout


def test_a_pass_of_cards_never_dealt_is_a_mismatch(tmp_path: Path) -> None:
    record = _played_record(Rules())
    hand = record["hands"][0]
    foreign = hand["dealt"][1].split()[:3]
    hand["passes"][0] = " ".join(foreign)
    next(m for m in record["moves"] if m["kind"] == "pass" and m["seat"] == 0)["cards"] = " ".join(
        foreign
    )
    run = _check(record, tmp_path)
    assert run.returncode == 1
    assert "seat 1 (alice) passed" in run.stdout and "not dealt to them" in run.stdout


def test_a_file_that_is_no_record_is_refused_plainly(tmp_path: Path) -> None:
    run = _check({"hello": "world"}, tmp_path)  # type: ignore[arg-type]
    assert run.returncode == 2
    assert "Cannot check" in run.stderr and "not a game record" in run.stderr


def test_a_game_resigned_in_the_middle_of_a_hand_matches_up_to_where_it_stopped(
    tmp_path: Path,
) -> None:
    record = _played_record(Rules(), resign_after=40)  # 4 passes, then 36 cards of hand 1
    assert len(record["hands"]) == 1 and record["hands"][0]["points"] is None
    run = _check(record, tmp_path)
    assert run.returncode == 0, run.stdout
    assert run.stdout.splitlines()[-1] == "The one hand matches the seed."


def test_a_hand_that_cannot_be_read_is_a_mismatch_not_a_crash(tmp_path: Path) -> None:
    record = _played_record(Rules())
    record["hands"][1] = ["not", "a", "hand"]
    run = _check(record, tmp_path)
    assert run.returncode == 1, run.stderr
    assert "Hand 2: MISMATCH: cannot be read" in run.stdout
    assert "Hand 3: dealt cards, kitty, passes and plays match" in run.stdout


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_checkers_own_tables_are_the_engines(players: int) -> None:
    # The checker copies the cards taken out and the pass cycles on purpose (it stands alone):
    # the copies must say what the engine plays.
    rules = Rules(players=players)
    assert set(checker.REMOVED[players]) == {str(card) for card in rules.removed_cards}
    assert tuple(checker.PASS_CYCLES[players]) == rules.pass_cycle
