"""The lock file that ./dev setup installs from agrees with pyproject.toml's ranges."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
PIN = re.compile(r"^([A-Za-z0-9_.\-]+)(?:\[[^\]]*\])?==([^\s;\\]+)")


def _pins() -> dict[str, tuple[str, int]]:
    """Each locked package's version and how many hashes it carries."""
    pins: dict[str, tuple[str, int]] = {}
    name = ""
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        match = PIN.match(line)
        if match:
            name = canonicalize_name(match.group(1))
            pins[name] = (match.group(2), 0)
        elif line.strip().startswith("--hash=sha256:") and name:
            version, hashes = pins[name]
            pins[name] = (version, hashes + 1)
    return pins


def _declared() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = project["dependencies"] + project["optional-dependencies"]["dev"]
    return [Requirement(text) for text in names]


def test_every_declared_dependency_is_locked_at_a_version_its_range_allows() -> None:
    pins = _pins()
    for requirement in _declared():
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{name} is not in requirements.lock: run ./dev lock"
        version = pins[name][0]
        assert requirement.specifier.contains(version, prereleases=True), (
            f"requirements.lock has {name} {version}, outside {requirement}: run ./dev lock"
        )


def test_every_locked_package_carries_a_hash() -> None:
    pins = _pins()
    assert len(pins) > 20
    assert [name for name, (_, hashes) in pins.items() if hashes == 0] == []
