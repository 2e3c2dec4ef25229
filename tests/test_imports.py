"""The project's modules in layers, and no import cycle between them (docs/architecture.md).

The layers are import-linter's contracts in pyproject.toml ([tool.importlinter]), which
``lint-imports`` checks in ./dev test; these tests read the same contracts, and check what
import-linter does not: that every module of the project is in a layer, that the engine and the
bots import no third-party package at all (the contract names those the site uses), and that no
module imports itself back through others.

Every import is read from the source with ``ast``: at the top of a module, inside functions and
under ``if TYPE_CHECKING:`` alike, so that an import moved into a function to dodge a cycle is
still one. No Django setup is needed and nothing is imported.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
IMPORT_LINTER: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"][
    "importlinter"
]
CONTRACTS: dict[str, dict[str, Any]] = {
    contract["id"]: contract for contract in IMPORT_LINTER["contracts"]
}
APPS: tuple[str, ...] = tuple(IMPORT_LINTER["root_packages"])

# The engine and the bots are pure Python: the standard library, and nothing else of the
# project than themselves and the loader of their compiled build (games/compiled.py).
PURE: tuple[str, ...] = tuple(CONTRACTS["pure"]["source_modules"])


def _layer_members(layer: str) -> frozenset[str]:
    """The modules a layer of a layers contract lists ("a : b", "a | b", "(optional)")."""
    return frozenset(name.strip(" \n()") for name in re.split(r"[:|]", layer))


# Lowest first, as docs/architecture.md numbers them; the contract lists them highest first. A
# module may import modules of its own layer or of a lower one, never of a higher one. A package
# named in a layer stands for all its modules; the apps' own packages sit with the foundation.
LAYER_NAMES = ("engine", "bots", "foundation", "domain", "services", "edges")
LAYERS: tuple[tuple[str, frozenset[str]], ...] = tuple(
    zip(LAYER_NAMES, map(_layer_members, reversed(CONTRACTS["layers"]["layers"])), strict=True)
)
FOUNDATION = LAYER_NAMES.index("foundation")


def _in(name: str, packages: tuple[str, ...] | frozenset[str]) -> bool:
    """Whether module ``name`` is one of ``packages`` or inside one."""
    return any(name == package or name.startswith(f"{package}.") for package in packages)


def _modules() -> dict[str, Path]:
    modules = {}
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if "migrations" in parts:
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = path
    return modules


MODULES = _modules()


def _imported(name: str, path: Path) -> set[str]:
    """The modules and names ``name`` imports anywhere in its source, made absolute."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            # ``from games import services`` imports the module games.services; ``from
            # games.engine import Match`` a name of games.engine.
            for alias in node.names:
                submodule = f"{module}.{alias.name}"
                names.add(submodule if submodule in MODULES else module)
    return names


def _project_module(name: str) -> str | None:
    """The project module ``name`` is, or is in (``games.engine.Match`` is ``games.engine``)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _graph() -> dict[str, set[str]]:
    graph = {}
    for name, path in MODULES.items():
        found = {_project_module(imported) for imported in _imported(name, path)}
        graph[name] = {module for module in found if module is not None and module != name}
    return graph


GRAPH = _graph()


def _layer(name: str) -> int | None:
    if name in APPS:
        return FOUNDATION
    for number, (_, members) in enumerate(LAYERS):
        if _in(name, members):
            return number
    return None


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle in ``graph`` as the path around it (its first module again at the end),
    or None.

    >>> find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}})
    ['a', 'b', 'c', 'a']
    >>> find_cycle({"a": {"b"}, "b": set()}) is None
    True
    """
    done: set[str] = set()
    for start in sorted(graph):
        if start in done:
            continue
        path = [start]
        branches = [iter(sorted(graph.get(start, ())))]
        while branches:
            following = next(branches[-1], None)
            if following is None:
                done.add(path.pop())
                branches.pop()
            elif following in path:
                return [*path[path.index(following) :], following]
            elif following not in done:
                path.append(following)
                branches.append(iter(sorted(graph.get(following, ()))))
    return None


def test_no_module_of_the_project_imports_itself_back_through_others() -> None:
    cycle = find_cycle(GRAPH)
    assert cycle is None, "an import cycle: " + " -> ".join(cycle or [])


def test_the_engine_and_the_bots_import_only_the_standard_library_and_themselves() -> None:
    wrong = []
    for name in MODULES:
        if not _in(name, PURE):
            continue
        for imported in sorted(_imported(name, MODULES[name])):
            top = imported.split(".")[0]
            module = _project_module(imported)
            if module is not None:
                # Which of the two may import the other is the layers' business.
                if not _in(module, PURE):
                    wrong.append(f"{name} imports {module}")
            elif top not in sys.stdlib_module_names and top != "__future__":
                wrong.append(f"{name} imports {imported}")
    assert not wrong, "\n".join(wrong)


def test_every_module_has_a_layer() -> None:
    unplaced = [name for name in MODULES if _layer(name) is None]
    assert not unplaced, (
        "put these in a layer of the layers contract in pyproject.toml: " + ", ".join(unplaced)
    )


def test_no_module_imports_one_of_a_higher_layer() -> None:
    wrong = []
    for name, imported in sorted(GRAPH.items()):
        own = _layer(name)
        for module in sorted(imported):
            theirs = _layer(module)
            if own is not None and theirs is not None and theirs > own:
                wrong.append(f"{name} ({LAYERS[own][0]}) imports {module} ({LAYERS[theirs][0]})")
    assert not wrong, "\n".join(wrong)


def test_a_cycle_through_an_import_inside_a_function_is_found(tmp_path: Path) -> None:
    lower = tmp_path / "lower.py"
    lower.write_text("def check():\n    from upper import Refused\n")
    upper = tmp_path / "upper.py"
    upper.write_text("import lower\n\nclass Refused(ValueError): ...\n")
    modules = {"lower": lower, "upper": upper}
    graph = {name: set(_imported(name, path)) & set(modules) for name, path in modules.items()}
    assert find_cycle(graph) == ["lower", "upper", "lower"]
