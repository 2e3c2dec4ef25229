"""bench/bot_arena.py: its figures come from whole duplicate deals, and a saved run can be
compared deal by deal with a later one, or extended by more deals."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ARENA = Path(__file__).resolve().parents[2] / "bench" / "bot_arena.py"


def arena(*args: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, str(ARENA), "--workers", "1", *args],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return done.stdout.splitlines()


def line(lines: list[str], start: str) -> str:
    return next(text for text in lines if text.startswith(start))


def test_a_run_reports_every_seat_of_every_deal_and_pairs_with_itself_at_zero(tmp_path):
    saved = tmp_path / "run.json"
    args = ["--candidate", "heuristic", "--opponent", "random", "--deals", "3"]

    first = arena(*args, "--save", str(saved))
    again = arena(*args, "--paired", str(saved))

    assert line(first, "deals:") == "deals: 3, hands: 12"
    assert line(first, "difference:") == line(again, "difference:")
    assert line(again, "paired").startswith("paired with the saved run, 3 deals: +0.00")


def test_a_saved_run_on_other_deals_is_not_paired(tmp_path):
    saved = tmp_path / "run.json"
    arena("--candidate", "heuristic", "--opponent", "random", "--deals", "2", "--save", str(saved))

    other = arena(
        "--candidate",
        "random",
        "--opponent",
        "heuristic",
        "--deals",
        "2",
        "--seed",
        "2",
        "--paired",
        str(saved),
    )

    assert line(other, "paired") == "paired: the saved run has other deals"


def test_a_saved_run_grows_by_the_deals_after_its_own(tmp_path):
    saved = tmp_path / "run.json"
    args = ["--candidate", "heuristic", "--opponent", "random"]
    arena(*args, "--deals", "2", "--save", str(saved))

    grown = arena(*args, "--deals", "1", "--extend", str(saved))
    again = arena(*args, "--deals", "3", "--paired", str(saved))

    assert line(grown, "deals:") == "deals: 3, hands: 12"
    assert line(grown, "difference:") == line(arena(*args, "--deals", "3"), "difference:")
    assert line(again, "paired").startswith("paired with the saved run, 3 deals: +0.00")


def test_a_run_of_another_setting_is_not_extended(tmp_path):
    saved = tmp_path / "run.json"
    arena("--candidate", "heuristic", "--opponent", "random", "--deals", "1", "--save", str(saved))

    refused = subprocess.run(
        [sys.executable, str(ARENA), "--deals", "1", "--extend", str(saved)],
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert refused.returncode == 2
    assert "another setting" in refused.stderr


def test_saved_runs_of_several_seeds_are_reported_together(tmp_path):
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    args = ["--candidate", "heuristic", "--opponent", "random"]
    played = arena(*args, "--deals", "2", "--save", str(one))
    arena(*args, "--deals", "1", "--seed", "2", "--save", str(two))

    alone = arena("--pool", str(one))
    both = arena("--pool", str(one), str(two))

    assert line(alone, "difference:") == line(played, "difference:")
    assert line(alone, "moons:") == line(played, "moons:")
    assert "seeds 1, 2, pooled" in both[0]
    assert line(both, "deals:") == "deals: 3, hands: 12"
    assert line(both, "difference:") != line(alone, "difference:")


def test_runs_of_other_bots_or_the_same_deals_twice_are_not_pooled(tmp_path):
    one, other = tmp_path / "one.json", tmp_path / "other.json"
    arena("--candidate", "heuristic", "--opponent", "random", "--deals", "1", "--save", str(one))
    arena("--candidate", "random", "--opponent", "random", "--deals", "1", "--save", str(other))

    for runs, why in (((one, other), "another setting"), ((one, one), "in two of the runs")):
        refused = subprocess.run(
            [sys.executable, str(ARENA), "--pool", *map(str, runs)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert refused.returncode == 2
        assert why in refused.stderr
