"""bench/bot_cpu.py: an earlier revision's bots and this tree's decide in the very same
positions, each in a process of its own."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "bot_cpu.py"
# One hand (it passes left): four passes and a play of each stage, at the quickest level.
TINY = ["--levels", "easy", "--hands", "1", "--plays", "1"]


def bot_cpu(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *TINY, *args], capture_output=True, text=True, timeout=120
    )


def test_the_old_and_the_new_code_are_measured_on_the_same_decisions(tmp_path):
    figures = tmp_path / "figures.json"

    done = bot_cpu("--before", "HEAD", "--json", str(figures))

    assert done.returncode == 0, done.stderr
    report = json.loads(figures.read_text())
    times = report["times_ms"]["easy"]
    assert times["kinds"] == ["pass"] * 4 + ["early", "middle", "late"]
    assert len(times["old"]) == len(times["new"]) == 7
    every = next(row for row in report["rows"] if row["kind"] == "all")
    assert every["decisions"] == 7
    assert every["old"].keys() == every["new"].keys() == {"median_ms", "p99_ms", "at_budget"}
    assert "easy: the same choice in" in done.stdout
    assert "of 7 decisions" in done.stdout


def test_without_an_earlier_revision_only_this_tree_is_measured():
    done = bot_cpu()

    assert done.returncode == 0, done.stderr
    header = next(line for line in done.stdout.splitlines() if line.startswith("level"))
    assert "new median" in header
    assert "old" not in header
    assert "easy    late" in done.stdout


def test_a_revision_that_does_not_exist_is_refused():
    done = bot_cpu("--before", "no-such-revision")

    assert done.returncode == 2
    assert "no revision no-such-revision" in done.stderr
