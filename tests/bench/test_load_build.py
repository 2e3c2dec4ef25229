"""bench/load.py measures the site as it serves: with the compiled build of the engine and the
bots, or, asked for by name, without it; never without it by accident."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_benchmark_refuses_to_run_without_the_compiled_build_unless_asked() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["HEARTS_PURE_PYTHON"] = "1"  # as where the build is missing or out of date
    command = [sys.executable, "bench/load.py", "--database", "sqlite", "--tables", "1"]

    refused = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)

    assert refused.returncode == 2
    assert "compiled build is not in use" in refused.stderr
    assert "--pure-python" in refused.stderr
