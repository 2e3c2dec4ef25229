"""A new person's first minute: a fresh clone, ``./dev setup``, then ``./dev serve`` until the
site answers, as the README tells it.

    python bench/first_minute.py [--source PATH] [--keep]

Clones ``--source`` (this checkout by default: its last commit, as a new machine gets it) into
a folder of its own, with empty download caches for uv, pip and npm (a new machine has none),
and no DATABASE_URL or REDIS_URL (the embedded SQLite and Redis). It prints the seconds
``./dev setup`` took, the seconds from ``./dev serve`` to the site's first answer (the lobby,
HTTP 200), their sum, the console's lines up to the address (the first screen, printed too),
and then how long after the start the bots' compiled build, made in the background, was in
place. The clone is removed afterwards unless ``--keep`` is given.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.scale_out import free_port  # noqa: E402

PATIENCE = 600  # seconds for any one step, far above what it takes


def answers(address: str) -> bool:
    try:
        with urllib.request.urlopen(address, timeout=2) as response:
            return bool(response.status == 200)
    except OSError:
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", default=str(ROOT), help="the repository to clone")
    parser.add_argument("--keep", action="store_true", help="leave the clone in place")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="hearts-first-minute-"))
    clone = work / "hearts"
    subprocess.run(["git", "clone", "--quiet", args.source, str(clone)], check=True)
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.pop("VIRTUAL_ENV", None)
    env.update(
        UV_CACHE_DIR=str(work / "uv-cache"),
        PIP_NO_CACHE_DIR="1",
        npm_config_cache=str(work / "npm-cache"),
    )
    try:
        started = time.monotonic()
        subprocess.run(["./dev", "setup"], cwd=clone, env=env, check=True, timeout=PATIENCE)
        set_up = time.monotonic() - started

        port = free_port()
        address = f"http://127.0.0.1:{port}/"
        serving = time.monotonic()
        server = subprocess.Popen(
            ["./dev", "serve", "--port", str(port)],
            cwd=clone,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        lines: list[str] = []
        assert server.stdout is not None
        threading.Thread(target=lines.extend, args=(server.stdout,), daemon=True).start()
        while not answers(address):
            if server.poll() is not None or time.monotonic() - serving > PATIENCE:
                sys.exit("the site did not answer:\n" + "".join(lines))
            time.sleep(0.1)
        served = time.monotonic() - serving

        record = clone / "var" / "compiled" / "SOURCES"
        while not record.exists() and time.monotonic() - started < PATIENCE:
            time.sleep(0.5)
        compiled = time.monotonic() - started if record.exists() else None
        os.killpg(server.pid, signal.SIGINT)
        server.wait(timeout=60)

        screen = "".join(lines).split(address)[0] + address
        print(f"./dev setup                 {set_up:6.1f} s")
        print(f"./dev serve to the lobby    {served:6.1f} s")
        print(f"together                    {set_up + served:6.1f} s")
        print(f"console lines to the address {screen.count(chr(10)) + 1:5d}")
        if compiled is None:
            print("the bots' compiled build    not made (see var/compile.log)")
        else:
            print(f"the bots' compiled build    {compiled:6.1f} s after the clone (next start)")
        print("\nThe first screen:\n" + screen)
    finally:
        if args.keep:
            print(f"kept: {clone}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
