"""A short run of bench/load.py on an SQLite file and a Redis of its own, for the tests that
check what a real site of several processes does (tests/test_scale_out.py, the nginx test in
tests/test_nginx_conf.py): its figures, as the benchmark writes them with ``--json``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from games import compiled

ROOT = Path(__file__).resolve().parents[2]


def load_run(tmp_path: Path, *arguments: str) -> dict[str, Any]:
    """bench/load.py with ``arguments``, a few tables of people who think for no more than
    20 ms; the figures it wrote."""
    figures_file = tmp_path / "figures.json"
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    subprocess.run(
        [
            sys.executable,
            "bench/load.py",
            *arguments,
            "--database",
            "sqlite",
            "--seconds",
            "6",
            "--think",
            "0,0.02",
            "--json",
            str(figures_file),
            "--log",
            str(tmp_path / "site.log"),
            *([] if compiled.in_use() else ["--pure-python"]),  # a machine that cannot build it
        ],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=240,
        stdout=subprocess.DEVNULL,
    )
    figures: dict[str, Any] = json.loads(figures_file.read_text())
    return figures
