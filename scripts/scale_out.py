"""The scale-out layout on one machine: two daphne processes, two Celery workers and one beat
on one Redis and one database.

    DATABASE_URL=postgres://hearts@127.0.0.1:5432/hearts REDIS_URL=redis://127.0.0.1:6379/0 \\
    SECRET_KEY=... .venv/bin/python scripts/scale_out.py --port 8000

migrates the database, then serves on 127.0.0.1:8000 and 127.0.0.1:8001 (a proxy in front
spreads the browsers over them: docs/deploy.md, "Several processes") until Ctrl-C or SIGTERM,
which stops them all. A process that dies stops the others too: supervising is the job of
whatever runs this in production (systemd, supervisord), as ``./dev serve`` does for one of
each. ``--webs`` and ``--workers`` take other counts. ``bench/load.py --layout two`` starts
the same layout through ``Layout``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hearts_site.serve import ASGI_APPLICATION, DAPHNE_OPTIONS  # noqa: E402


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_for_port(
    host: str, port: int, what: str, check_alive: Callable[[], None], patience: float
) -> None:
    """Until something accepts connections on ``port``; ``check_alive`` raises if the process
    that should has died meanwhile. RuntimeError naming ``what`` after ``patience`` seconds."""
    deadline = time.monotonic() + patience
    while True:
        check_alive()
        try:
            socket.create_connection((host, port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise RuntimeError(f"{what} on port {port} did not start") from None
            time.sleep(0.1)


def _tool(name: str) -> str:
    return shutil.which(name, path=str(Path(sys.executable).parent)) or name


@dataclass
class Layout:
    """``webs`` daphne processes on ``ports``, ``workers`` Celery workers of ``concurrency``
    pool processes each, and one beat, all with the environment ``env``."""

    env: dict[str, str]
    var_dir: Path
    ports: list[int]
    workers: int = 2
    concurrency: int = 1
    host: str = "127.0.0.1"
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    def commands(self) -> dict[str, list[str]]:
        celery = [_tool("celery"), "-A", "hearts_site"]
        listed = {
            f"web{i + 1}": [
                _tool("daphne"),
                "-b",
                self.host,
                "-p",
                str(port),
                *DAPHNE_OPTIONS,
                ASGI_APPLICATION,
            ]
            for i, port in enumerate(self.ports)
        }
        for i in range(self.workers):
            listed[f"worker{i + 1}"] = [
                *celery,
                "worker",
                "--loglevel",
                "WARNING",
                "--concurrency",
                str(self.concurrency),
                "--hostname",
                f"worker{i + 1}@%h",
            ]
        schedule = str(self.var_dir / "celerybeat-schedule")
        listed["beat"] = [*celery, "beat", "--loglevel", "WARNING", "--schedule", schedule]
        return listed

    def start(self, log: Path | None = None) -> None:
        self.var_dir.mkdir(parents=True, exist_ok=True)
        output = open(log, "ab") if log else None  # noqa: SIM115 (kept open for the children)
        # This checkout's code, not whichever one the virtualenv's editable install points at.
        path = os.pathsep.join(filter(None, [str(ROOT), self.env.get("PYTHONPATH")]))
        env = {**self.env, "PYTHONPATH": path}
        for name, command in self.commands().items():
            self.processes[name] = subprocess.Popen(
                command,
                cwd=ROOT,
                env=env,
                stdout=output,
                stderr=subprocess.STDOUT if output else None,
                start_new_session=True,  # stopped as a group, with Celery's pool
            )

    def wait_ready(self, patience: float = 60) -> None:
        """Until every daphne accepts connections (or one process has died)."""
        started = time.monotonic()
        for port in self.ports:
            left = patience - (time.monotonic() - started)
            wait_for_port(self.host, port, "daphne", self.check_alive, left)

    def check_alive(self) -> None:
        for name, process in self.processes.items():
            if process.poll() is not None:
                raise RuntimeError(f"{name} exited with {process.returncode}")

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes.values():
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000, help="the first daphne's port")
    parser.add_argument("--webs", type=int, default=2, help="daphne processes")
    parser.add_argument("--workers", type=int, default=2, help="Celery workers")
    parser.add_argument("--concurrency", type=int, default=1, help="pool processes a worker")
    args = parser.parse_args()
    env = dict(os.environ)
    env.setdefault("DJANGO_SETTINGS_MODULE", "hearts_site.settings")
    missing = [name for name in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY") if not env.get(name)]
    if missing:
        print(f"scale_out: set {', '.join(missing)} (docs/deploy.md)", file=sys.stderr)
        return 2
    var_dir = Path(env.get("HEARTS_VAR_DIR", ROOT / "var"))
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    subprocess.run([*manage, "resume_clocks"], cwd=ROOT, env=env, check=True)
    ports = [args.port + i for i in range(args.webs)]
    layout = Layout(env, var_dir, ports, args.workers, args.concurrency, args.host)
    stopping = False

    def stop(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    layout.start()
    try:
        layout.wait_ready()
        addresses = ", ".join(f"http://{args.host}:{port}/" for port in ports)
        print(f"hearts: serving at {addresses} (Ctrl-C stops it)", flush=True)
        while not stopping:
            layout.check_alive()
            time.sleep(0.5)
    except RuntimeError as error:
        print(f"hearts: {error}; stopping", file=sys.stderr)
        return 1
    finally:
        layout.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
