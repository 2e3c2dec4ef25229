"""The compiled build of the modules the bots' play-outs spend their time in, when it is there
and up to date.

mypyc compiles :data:`MODULES` from the very same source into ``var/compiled/``
(``scripts/compile.py``, which ``./dev setup`` runs): about three times the play-outs a second.
A package holding one of them puts its folder in the build ahead of its own on its
``__path__`` (:func:`package_path`), so Python imports the compiled module instead of the
source. It does so only while the build's record of the sources matches them byte for byte:
a source edited since runs as written until the next build. ``HEARTS_PURE_PYTHON=1`` ignores the
build; the tests run the engine and the bots both ways.

Nothing here imports Django: the engine asks this module too.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "var" / "compiled"
RECORD = BUILD / "SOURCES"
MODULES = (
    "games/engine/cards.py",
    "games/engine/hand.py",
    "games/bots/basic.py",
    "games/bots/knowledge.py",
    "games/bots/policy.py",
    "games/bots/race.py",
    "games/bots/search.py",
)


def fingerprint() -> str:
    """What the build records of the sources it compiled, and of the Python it built for."""
    digest = hashlib.sha256(sys.version.encode())
    for module in MODULES:
        digest.update(module.encode())
        digest.update((ROOT / module).read_bytes())
    return digest.hexdigest()


def built() -> bool:
    """Whether the build in var/compiled/ was made from the sources as they are now."""
    try:
        return RECORD.read_text().strip() == fingerprint()
    except OSError:
        return False


def in_use() -> bool:
    """Whether the compiled modules are imported instead of their sources."""
    return os.environ.get("HEARTS_PURE_PYTHON") != "1" and built()


def package_path(package: str, path: list[str]) -> list[str]:
    """``path``, a package's ``__path__``, with the package's folder in the build first while
    the build is in use."""
    if not _IN_USE:
        return path
    if str(BUILD) not in sys.path:
        sys.path.append(str(BUILD))  # the build's shared runtime, a top-level module
    return [str(BUILD / package.replace(".", "/")), *path]


_IN_USE = in_use()
