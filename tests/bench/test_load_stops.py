"""bench/load.py stopped by SIGTERM (a CI job's time limit, ``kill``) stops the site's processes
it started (daphne, the Celery worker and beat, Redis, and with ``--proxy nginx`` nginx) before
it exits: they run in sessions of their own, so nothing else would."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil  # type: ignore[import-untyped]
import pytest

from games import compiled
from scripts.nginx_conf import nginx_binary

ROOT = Path(__file__).resolve().parents[2]
PATIENCE = 120  # seconds for the site to come up, on a busy machine
NGINX = nginx_binary() is not None


def _serving(load: psutil.Process, program: str) -> list[psutil.Process]:
    """Every process ``load`` started, once ``program`` (daphne, nginx) listens (empty until
    then)."""
    started = load.children(recursive=True)
    for process in started:
        try:
            listening = program in " ".join(process.cmdline()) and any(
                c.status == psutil.CONN_LISTEN for c in process.net_connections("tcp")
            )
        except psutil.Error:
            continue
        if listening:
            return started
    return []


@pytest.mark.slow
@pytest.mark.parametrize(
    "proxy",
    [
        "none",
        pytest.param("nginx", marks=pytest.mark.skipif(not NGINX, reason="nginx is not installed")),
    ],
)
def test_sigterm_stops_every_process_of_the_site_before_the_benchmark_exits(
    tmp_path: Path, proxy: str
) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    command = [sys.executable, "bench/load.py", "--database", "sqlite", "--tables", "1"]
    command += ["--seconds", "600", "--ramp", "0", "--log", str(tmp_path / "site.log")]
    command += ["--proxy", proxy]
    command += [] if compiled.in_use() else ["--pure-python"]  # a machine that cannot build it
    last = "nginx" if proxy == "nginx" else "daphne"  # the last to listen
    bench = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    started: list[psutil.Process] = []
    try:
        load = psutil.Process(bench.pid)
        deadline = time.monotonic() + PATIENCE
        while not started and time.monotonic() < deadline and bench.poll() is None:
            time.sleep(0.5)
            started = _serving(load, last)
        assert started, "the site did not come up"
        names = " ".join(" ".join(p.cmdline()) for p in started)
        assert "daphne" in names and "celery" in names and "redis" in names
        assert (proxy == "nginx") == ("nginx" in names)

        bench.send_signal(signal.SIGTERM)
        bench.wait(timeout=PATIENCE)
        _, left = psutil.wait_procs(started, timeout=30)

        assert [p.pid for p in left] == [], "still running after the benchmark exited"
        assert bench.returncode == 128 + signal.SIGTERM
    finally:
        if bench.poll() is None:
            bench.kill()
            bench.wait()
        for process in started:  # what this test started, if the benchmark left it
            with contextlib.suppress(psutil.Error):
                process.kill()
