"""Production settings: Django's deploy check passes with the environment docs/deploy.md
describes, and a weak SECRET_KEY stops the site before it starts. Each run loads the settings
afresh in a process of its own, as daphne or a worker would."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _production(tmp_path: Path, **changes: str) -> dict[str, str]:
    """The environment of docs/deploy.md: PostgreSQL and Redis (never reached by the check),
    behind a TLS proxy that sets X-Forwarded-Proto."""
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECURE_COOKIES")}
    env.update(
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="hearts.example",
        CSRF_TRUSTED_ORIGINS="https://hearts.example",
        DATABASE_URL="postgres://hearts@db.invalid:5432/hearts",
        REDIS_URL="redis://redis.invalid:6379/0",
        SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto",
        SECURE_HSTS_INCLUDE_SUBDOMAINS="true",
        SECURE_HSTS_PRELOAD="true",
        HEARTS_VAR_DIR=str(tmp_path),
    )
    env.update(changes)
    return env


def _manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _settings(env: dict[str, str], *names: str) -> subprocess.CompletedProcess[str]:
    """Prints the named settings, one a line, as the site would see them."""
    code = "from django.conf import settings\n" + "".join(
        f"print(repr(settings.{name}))\n" for name in names
    )
    return _manage(env, "shell", "--no-imports", "-c", code)


def test_the_deploy_check_finds_nothing_in_the_documented_production_environment(
    tmp_path: Path,
) -> None:
    run = _manage(_production(tmp_path), "check", "--deploy", "--fail-level", "WARNING")
    assert run.returncode == 0, run.stderr
    assert "System check identified no issues" in run.stdout


def test_behind_the_proxy_plain_http_is_redirected_and_browsers_told_to_stay_on_https(
    tmp_path: Path,
) -> None:
    run = _settings(
        _production(tmp_path),
        "SECURE_PROXY_SSL_HEADER",
        "SECURE_SSL_REDIRECT",
        "SECURE_HSTS_SECONDS",
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["('HTTP_X_FORWARDED_PROTO',", "'https')", "True", "31536000"]


def test_without_the_proxy_header_the_site_does_not_redirect_to_https(tmp_path: Path) -> None:
    """Every request would look like plain HTTP, and the redirect would loop."""
    env = _production(tmp_path)
    del env["SECURE_PROXY_SSL_HEADER"]
    run = _settings(env, "SECURE_PROXY_SSL_HEADER", "SECURE_SSL_REDIRECT")
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["None", "False"]


@pytest.mark.parametrize(
    "key",
    [
        "test-secret-key-not-for-production",  # 34 characters
        "a" * 60,  # long, but one character over and over
        "django-insecure-" + secrets.token_urlsafe(50),
    ],
    ids=["short", "repetitive", "from startproject"],
)
def test_a_weak_secret_key_stops_the_settings_from_loading(tmp_path: Path, key: str) -> None:
    run = _manage(_production(tmp_path, SECRET_KEY=key), "check")
    assert run.returncode != 0
    assert "SECRET_KEY is too weak: use at least 50 random characters" in run.stderr


def test_a_short_secret_key_in_the_embedded_runs_key_file_stops_it_too(tmp_path: Path) -> None:
    env = _production(tmp_path)
    for name in ("SECRET_KEY", "DATABASE_URL", "REDIS_URL"):
        del env[name]
    (tmp_path / "secret_key").write_text("short")
    run = _manage(env, "check")
    assert run.returncode != 0
    assert "SECRET_KEY is too weak" in run.stderr


def test_with_debug_on_any_secret_key_will_do(tmp_path: Path) -> None:
    run = _manage(_production(tmp_path, SECRET_KEY="dev", DEBUG="true"), "check")
    assert run.returncode == 0, run.stderr
