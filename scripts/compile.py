"""Compiles the play-outs' hot modules (games.compiled.MODULES) with mypyc into var/compiled/.

    python scripts/compile.py

Run by ``./dev setup`` whenever those sources or the lock file change. The site and its tests
run the same modules from source when the build is missing or out of date (games/compiled.py),
so a machine without a C compiler loses speed, not function.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from setuptools import setup  # noqa: E402

from games.compiled import BUILD, MODULES, RECORD, fingerprint  # noqa: E402


def main() -> None:
    from mypyc.build import mypycify

    shutil.rmtree(BUILD, ignore_errors=True)
    BUILD.mkdir(parents=True)
    # mypyc type-checks what it compiles; the project's mypy settings load the Django plugin,
    # which these Django-free modules need not wait for.
    config = BUILD / "mypy.ini"
    config.write_text("[mypy]\npython_version = 3.11\n")
    extensions = mypycify(
        ["--config-file", str(config), *MODULES], opt_level="3", target_dir=str(BUILD / "c")
    )
    setup(
        name="hearts-compiled",
        ext_modules=extensions,
        script_args=["build_ext", "--build-lib", str(BUILD), "--build-temp", str(BUILD / "tmp")],
    )
    RECORD.write_text(fingerprint() + "\n")


if __name__ == "__main__":
    main()
