"""The project's modules in layers, and no import cycle between them (docs/architecture.md).

Every import is read from the source with ``ast``: at the top of a module, inside functions and
under ``if TYPE_CHECKING:`` alike, so that an import moved into a function to dodge a cycle is
still one. No Django setup is needed and nothing is imported.
"""

from __future__ import annotations

import ast
import sys
from fnmatch import fnmatchcase
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = (
    "hearts_site",
    "accounts",
    "games",
    "ratings",
    "moderation",
    "fairplay",
    "reports",
    "collusion",
    "learn",
    "pairing",
)

# The engine and the bots are pure Python: the standard library, and nothing else of the
# project than themselves and the loader of their compiled build (games/compiled.py).
PURE = ("games.engine", "games.engine.*", "games.bots", "games.bots.*", "games.compiled")
ENGINE = ("games.engine", "games.engine.*", "games.compiled")

# Lowest first. A module may import modules of its own layer or of a lower one, never of a
# higher one. The first layer whose patterns match a module is its layer.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("engine", ENGINE),
    ("bots", ("games.bots", "games.bots.*")),
    (
        "foundation",
        (
            # The project's packages themselves, its settings and plumbing.
            *APPS,
            "hearts_site.settings",
            "hearts_site.env",
            "hearts_site.celery",
            "hearts_site.converters",
            "hearts_site.origins",
            "hearts_site.admin_actions",
            "hearts_site.serve",
            # The tables, and what they are checked with.
            "*.models",
            "games.errors",
            "accounts.validators",
            "accounts.lockout",
            "moderation.permissions",
            # Pure helpers outside the engine.
            "ratings.maths",
            "pairing.matching",
            "learn.reasons",
            "games.broadcasts",
            "games.fragments",
            "games.words",
            "games.deals",
        ),
    ),
    (
        "domain",
        (
            # Reads, words, forms, and what the write path asks before and after a move.
            "*.selectors",
            "*.forms",
            "games.table_context",
            "games.records",
            "games.history_selectors",
            "games.history_words",
            "games.effects",
            "games.frames",
            "moderation.gates",
            "moderation.audit",
            "moderation.backends",
            "fairplay.penalties",
            "ratings.services",
            "ratings.stats",
            "collusion.signals",
            "learn.drills",
            "learn.rules_pages",
        ),
    ),
    (
        "services",
        (
            "games.services",
            "moderation.sanctions",
            "moderation.voiding",
            "reports.services",
            "pairing.services",
        ),
    ),
    (
        "edges",
        (
            # What people and workers reach: pages, sockets, tasks, the admin, commands.
            "*.views",
            "*.admin",
            "*.urls",
            "*.apps",
            "*.routing",
            "*.consumers",
            "*.tasks",
            "*.middleware",
            "*.context_processors",
            "*.templatetags",
            "*.templatetags.*",
            "*.management",
            "*.management.*",
            "games.live",
            "games.relays",
            "games.history",
            "games.verification",
            "hearts_site.asgi",
        ),
    ),
)


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


def _matches(name: str, patterns: tuple[str, ...]) -> bool:
    return any(fnmatchcase(name, pattern) for pattern in patterns)


def _layer(name: str) -> int | None:
    for number, (_, patterns) in enumerate(LAYERS):
        if _matches(name, patterns):
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
        if not _matches(name, PURE):
            continue
        for imported in sorted(_imported(name, MODULES[name])):
            top = imported.split(".")[0]
            module = _project_module(imported)
            if module is not None:
                allowed = ENGINE if _matches(name, ENGINE) else PURE
                if not _matches(module, allowed):
                    wrong.append(f"{name} imports {module}")
            elif top not in sys.stdlib_module_names and top != "__future__":
                wrong.append(f"{name} imports {imported}")
    assert not wrong, "\n".join(wrong)


def test_every_module_has_a_layer() -> None:
    unplaced = [name for name in MODULES if _layer(name) is None]
    assert not unplaced, "put these in a layer of LAYERS: " + ", ".join(unplaced)


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
