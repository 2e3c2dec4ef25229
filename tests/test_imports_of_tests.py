"""No module under tests/ imports a test module: what tests share lives in tests/helpers/ (or a
package's conftest.py, or tests/browser/helpers.py), so that running one test file never runs
another's import-time code, and moving a test never breaks another."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def _is_test_module(name: str) -> bool:
    """Whether the dotted ``name`` is a test module (``test_*.py``) under tests/."""
    parts = name.split(".")
    return parts[0] == "tests" and parts[-1].startswith("test_")


def imported_modules(code: str, path: Path) -> set[str]:
    """Every module ``code`` (the file at ``path``) imports, anywhere in it (inside functions
    too), relative imports resolved; for ``from package import name`` both the package and
    ``package.name``."""
    package = _module_name(path).split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(code, str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            source = ".".join([*base, *(node.module or "").split(".")]).strip(".")
            found.add(source)
            found.update(f"{source}.{alias.name}" for alias in node.names)
    return found


def test_imports_are_read_relative_and_absolute_inside_functions_too() -> None:
    code = (
        "from .test_clocks import four_people\n"
        "from tests.engine import test_fairness\n"
        "def f():\n"
        "    import tests.bots.test_compiled\n"
        "    from ..helpers.tables import FOUR\n"
    )
    found = imported_modules(code, TESTS / "games" / "test_sample.py")
    assert {m for m in found if _is_test_module(m)} == {
        "tests.games.test_clocks",
        "tests.engine.test_fairness",
        "tests.bots.test_compiled",
    }
    assert "tests.helpers.tables" in found


def test_no_module_of_the_tests_imports_a_test_module() -> None:
    offenders = []
    for path in sorted(TESTS.rglob("*.py")):
        name = _module_name(path)
        for imported in sorted(imported_modules(path.read_text(encoding="utf-8"), path)):
            if _is_test_module(imported) and imported != name:
                offenders.append(f"{path.relative_to(ROOT)} imports {imported}")
    assert not offenders, "test modules imported (move what they share to tests/helpers/):\n" + (
        "\n".join(offenders)
    )
