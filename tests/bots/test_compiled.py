"""The compiled build of the play-outs' hot modules (games/compiled.py) runs while it is up to
date, a source edited since runs as written, and the build decides exactly as the source does."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys

import pytest

from games import compiled
from tests.helpers.bots import decisions

# Play a few hands of small searches, and print every decision's view and choice.
DECISIONS = """
import json, sys
sys.path.insert(0, ".")
from tests.helpers.bots import decisions
print(json.dumps(decisions()))
"""


def test_each_hot_module_is_imported_compiled_exactly_while_the_build_is_in_use():
    for path in compiled.MODULES:
        module = importlib.import_module(path.removesuffix(".py").replace("/", "."))
        assert module.__file__.endswith(".py") is not compiled.in_use(), module.__file__


def test_a_build_that_no_longer_matches_its_sources_is_not_used(tmp_path, monkeypatch):
    record = tmp_path / "SOURCES"
    record.write_text(compiled.fingerprint() + "\n")
    monkeypatch.setattr(compiled, "RECORD", record)
    monkeypatch.delenv("HEARTS_PURE_PYTHON", raising=False)
    assert compiled.in_use()

    record.write_text("the fingerprint of sources since edited\n")
    assert not compiled.in_use()


def test_the_pure_python_switch_turns_the_build_off(monkeypatch):
    monkeypatch.setenv("HEARTS_PURE_PYTHON", "1")

    assert not compiled.in_use()


def test_the_compiled_bots_decide_exactly_as_their_source_does():
    if not compiled.in_use():
        pytest.skip("no compiled build in use here: ./dev setup makes one")
    source = subprocess.run(
        [sys.executable, "-c", DECISIONS],
        env={**os.environ, "HEARTS_PURE_PYTHON": "1"},
        cwd=compiled.ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )

    assert decisions() == json.loads(source.stdout)
