"""The bots' compiled build (scripts/compile.py) is put in place whole or not at all, is not
made twice, and ``./dev serve`` makes it in the background without waiting for it."""

from __future__ import annotations

import importlib.util
import os
import time
from pathlib import Path
from types import ModuleType

import pytest

from games import compiled
from hearts_site import serve

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def compile_script(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """scripts/compile.py, building into ``tmp_path/compiled`` a build whose record is "new"."""
    spec = importlib.util.spec_from_file_location("compile_script", ROOT / "scripts/compile.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    build = tmp_path / "compiled"
    for where in (module, compiled):
        monkeypatch.setattr(where, "BUILD", build)
        monkeypatch.setattr(where, "RECORD", build / "SOURCES")
        monkeypatch.setattr(where, "fingerprint", lambda: "new")
    return module


def _old_build(build: Path) -> None:
    build.mkdir()
    (build / "SOURCES").write_text("old\n")
    (build / "module.so").write_text("old")


def test_a_finished_build_replaces_the_old_one_whole(compile_script, tmp_path, monkeypatch):
    def build(into: Path) -> None:
        (into / "module.so").write_text("new")
        (into / "SOURCES").write_text("new\n")

    monkeypatch.setattr(compile_script, "build", build)
    _old_build(tmp_path / "compiled")
    compile_script.main()
    assert (tmp_path / "compiled" / "module.so").read_text() == "new"
    assert compiled.built()
    leftovers = {path.name for path in tmp_path.iterdir()} - {"compiled", "compile.lock"}
    assert leftovers == set()


def test_a_failed_build_leaves_the_old_one_in_place(compile_script, tmp_path, monkeypatch):
    def build(into: Path) -> None:
        (into / "module.so").write_text("half")
        raise RuntimeError("no C compiler")

    monkeypatch.setattr(compile_script, "build", build)
    _old_build(tmp_path / "compiled")
    with pytest.raises(RuntimeError):
        compile_script.main()
    assert (tmp_path / "compiled" / "module.so").read_text() == "old"
    leftovers = {path.name for path in tmp_path.iterdir()} - {"compiled", "compile.lock"}
    assert leftovers == set()


def test_a_killed_runs_leftovers_are_cleared_by_the_next(compile_script, tmp_path, monkeypatch):
    monkeypatch.setattr(compile_script, "build", lambda into: (into / "SOURCES").write_text("new"))
    (tmp_path / "compiled.new-abc123").mkdir()
    (tmp_path / "compiled.old-4242").mkdir()
    compile_script.main()
    assert {path.name for path in tmp_path.iterdir()} == {"compiled", "compile.lock"}


def test_an_up_to_date_build_is_not_made_again(compile_script, tmp_path, monkeypatch):
    def build(into: Path) -> None:
        raise AssertionError("built again")

    monkeypatch.setattr(compile_script, "build", build)
    (tmp_path / "compiled").mkdir()
    (tmp_path / "compiled" / "SOURCES").write_text("new\n")
    compile_script.main()


def test_serve_makes_the_build_in_the_background_at_the_lowest_priority(tmp_path, monkeypatch):
    """With no build in use, the site does not wait: the compile runs on, in a session of its
    own (Ctrl-C on the site does not stop it), niced, its output in var/compile.log."""
    (tmp_path / "scripts").mkdir()
    done = tmp_path / "done"
    (tmp_path / "scripts" / "compile.py").write_text(
        "import os, pathlib, time\n"
        "time.sleep(0.5)\n"
        f"pathlib.Path({str(done)!r}).write_text(f'{{os.nice(0)}} {{os.getsid(0)}}')\n"
        "print('compiled')\n"
    )
    monkeypatch.setattr(serve, "BASE_DIR", tmp_path)
    monkeypatch.setattr("games.compiled.in_use", lambda: False)
    started = time.monotonic()
    assert serve.compile_in_background({})
    assert time.monotonic() - started < 0.4  # it did not wait for the compile
    deadline = time.monotonic() + 30
    while not done.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    niceness, session = done.read_text().split()
    assert int(niceness) == 19
    assert int(session) != os.getsid(0)
    deadline = time.monotonic() + 10
    while "compiled" not in (tmp_path / "var" / "compile.log").read_text():
        assert time.monotonic() < deadline
        time.sleep(0.1)


def test_serve_does_not_compile_what_is_in_use_or_when_told_to_run_from_source(monkeypatch):
    monkeypatch.setattr("games.compiled.in_use", lambda: True)
    assert not serve.compile_in_background({})
    monkeypatch.setattr("games.compiled.in_use", lambda: False)
    assert not serve.compile_in_background({"HEARTS_PURE_PYTHON": "1"})
