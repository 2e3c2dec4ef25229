"""The README's first command: the whole site comes up, prints its address, stops on Ctrl-C."""

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.slow
def test_serve_runs_the_site_prints_its_address_and_stops_on_ctrl_c(tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.pop("SECRET_KEY", None)
    env["HEARTS_VAR_DIR"] = str(tmp_path)
    server = subprocess.Popen(
        [sys.executable, "-m", "hearts_site.serve", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        address = f"http://127.0.0.1:{port}/"
        lines = []
        for line in server.stdout:
            lines.append(line)
            if address in line:
                break
        assert any(address in line for line in lines), "".join(lines)
        page = ""
        for _ in range(60):
            try:
                page = urllib.request.urlopen(address, timeout=2).read().decode()
                break
            except OSError:
                time.sleep(0.5)
        assert "Tables" in page
        assert (tmp_path / "hearts.sqlite3").exists()
        server.send_signal(signal.SIGINT)
        assert server.wait(timeout=30) is not None
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
