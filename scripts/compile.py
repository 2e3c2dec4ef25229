"""Compiles the play-outs' hot modules (games.compiled.MODULES) with mypyc into var/compiled/.

    python scripts/compile.py

Run by ``./dev test`` and ``./dev bench`` before they start, and by ``./dev serve`` in the
background once the site is up (the build is used from the next start), whenever those sources
or the packages changed. The site and its tests run the same modules from source when the build
is missing or out of date (games/compiled.py), so a machine without a C compiler loses speed,
not function.

The build is made in a folder of its own and put in place whole when it is finished, so a
process starting meanwhile finds the old build or none, never half of one; a second compile
started meanwhile waits for the first and then finds nothing left to do.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from setuptools import setup  # noqa: E402

from games.compiled import BUILD, MODULES, RECORD, built, fingerprint  # noqa: E402


def build(into: Path) -> None:
    from mypyc.build import mypycify

    # mypyc type-checks what it compiles; the project's mypy settings load the Django plugin,
    # which these Django-free modules need not wait for.
    config = into / "mypy.ini"
    config.write_text("[mypy]\npython_version = 3.11\n")
    extensions = mypycify(
        ["--config-file", str(config), *MODULES], opt_level="3", target_dir=str(into / "c")
    )
    setup(
        name="hearts-compiled",
        ext_modules=extensions,
        script_args=["build_ext", "--build-lib", str(into), "--build-temp", str(into / "tmp")],
    )
    (into / RECORD.name).write_text(fingerprint() + "\n")


def main() -> None:
    os.chdir(ROOT)
    BUILD.parent.mkdir(parents=True, exist_ok=True)
    with open(BUILD.parent / "compile.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        # Holding the lock, any build folder but the build itself is a dead run's leftover
        # (killed half way, or the machine stopped).
        for leftover in [
            *BUILD.parent.glob("compiled.new-*"),
            *BUILD.parent.glob("compiled.old-*"),
        ]:
            shutil.rmtree(leftover, ignore_errors=True)
        if built():
            return
        fresh = Path(tempfile.mkdtemp(dir=BUILD.parent, prefix="compiled.new-"))
        try:
            build(fresh)
            old = BUILD.with_name(f"compiled.old-{os.getpid()}")
            if BUILD.exists():
                BUILD.rename(old)
            fresh.rename(BUILD)
        finally:
            shutil.rmtree(fresh, ignore_errors=True)
        shutil.rmtree(old, ignore_errors=True)


if __name__ == "__main__":
    main()
