"""Play the stored games and write them down with what the code of a given tree shows of them.

    .venv/bin/python scripts/store_games.py --root TREE OUT.jsonl

``TREE`` (this tree, by default) is a checkout of the project whose engine, bots and words play
and word the games; the games themselves, and how to write down what a person sees of them,
are ``tests/helpers/stored_games.py`` of this tree, loaded into ``TREE``'s code. The stored
games under ``tests/data/`` were made from the tree of 44e08bc (docs/records.md); the same
command on a later tree writes the same file as long as it plays, scores and words the games
as that code did.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import time
from pathlib import Path
from types import ModuleType

HELPER = Path(__file__).resolve().parent.parent / "tests" / "helpers" / "stored_games.py"


def load_helper(root: Path) -> ModuleType:
    """The stored games' module, importing the site's code from ``root``."""
    sys.path.insert(0, str(root))
    os.environ.setdefault(
        "SECRET_KEY", "stored-games-only-this-key-signs-nothing-and-guards-nothing"
    )
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hearts_site.settings")
    import django

    django.setup()
    spec = importlib.util.spec_from_file_location("stored_games", HELPER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # for its dataclasses
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the JSON lines file to write")
    parser.add_argument("--root", type=Path, default=HELPER.parents[2], help="the tree to run")
    args = parser.parse_args()
    root = args.root.resolve()
    stored = load_helper(root)
    games = []
    for table in stored.TABLES:
        start = time.monotonic()
        games.append(stored.store(table))
        print(f"{table.name}: {time.monotonic() - start:.1f} s", file=sys.stderr)
    stored.write(games, args.out)
    print(f"{len(games)} games from {root} written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
