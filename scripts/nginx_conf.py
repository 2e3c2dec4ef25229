"""nginx in front of several daphne processes: the one configuration docs/deploy.md shows and
bench/load.py ``--proxy nginx`` measures.

    .venv/bin/python scripts/nginx_conf.py --ports 8001,8002,8003 [--listen 80] [--server-name _]

prints the block to put in nginx's ``http { }`` (e.g. ``/etc/nginx/conf.d/hearts.conf``): the
upstreams of the daphnes and a server that sends each table's sockets to one of them, by the
table's address, and everything else to the least busy. ``full_config`` wraps the same block in
a whole nginx.conf of its own (pid, logs and temp files under one directory), which the
benchmark runs and tests/test_nginx_conf.py checks with ``nginx -t``; the test also fails when
the block in docs/deploy.md is not what this prints for ports 8001, 8002 and 8003.
"""

from __future__ import annotations

import argparse
import os
import shutil
import string
import sys
from pathlib import Path


class _Template(string.Template):
    """``@name`` placeholders: nginx's own variables are written ``$name``."""

    delimiter = "@"


# Each table's sockets go to one daphne (live/relays.py: that process holds the table and
# does a move's work once). $uri is the path without the query (``?shown=``), so a page that
# reconnects lands where it was; "consistent" moves only a dead daphne's tables elsewhere.
# Host goes on with its port ($http_host, not $host): a socket's Origin must match it whole
# (hearts_site/origins.py). X-Forwarded-For ends with the client's address, where
# HEARTS_TRUSTED_PROXIES=1 reads it; X-Forwarded-Proto is set on every request, over whatever
# the client sent, so SECURE_PROXY_SSL_HEADER may name it. daphne pings every socket every
# 20 s, well within nginx's proxy_read_timeout (60 s), so an idle socket stays open.
SITE = _Template("""\
map $http_upgrade $connection_upgrade {
    default upgrade;
    "" "";
}

upstream hearts {
    least_conn;
@servers
    keepalive 16;
}

upstream hearts_tables {
    hash $uri consistent;
@servers
}

server {
    listen @listen;
    server_name @server_name;

    proxy_http_version 1.1;
    proxy_set_header Host $http_host;
    proxy_set_header Upgrade $http_upgrade;
    proxy_set_header Connection $connection_upgrade;
    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    proxy_set_header X-Forwarded-Proto $scheme;

    location /ws/table/ {
        proxy_pass http://hearts_tables;
    }

    location / {
        proxy_pass http://hearts;
    }
}
""")

# A whole nginx.conf around SITE, everything it writes under @prefix: as bench/load.py runs it.
FULL = _Template("""\
@{user}worker_processes @workers;
worker_rlimit_nofile @nofile;
pid @prefix/nginx.pid;
error_log @prefix/error.log warn;

events {
    worker_connections @connections;
}

http {
    access_log off;
    client_body_temp_path @prefix/client_body;
    proxy_temp_path @prefix/proxy;
    fastcgi_temp_path @prefix/fastcgi;
    uwsgi_temp_path @prefix/uwsgi;
    scgi_temp_path @prefix/scgi;

@site
}
""")

# A worker a core (two on the benchmark's machine). nginx's own work is small either way (1% of
# a core at 60 tables), but a frame waits for its worker to be scheduled: with one, every
# socket's frames wait whenever the daphnes hold both cores; with two, the kernel spreads the
# connections over them and the other core's worker relays. Two rounds of 60 tables each way
# (PostgreSQL, two daphnes): p99 34 and 29 ms with ``auto`` against 35 and 45 ms with one, a
# small difference but the same way both times.
WORKER_PROCESSES = "auto"
# Two connections a proxied socket (the client's and daphne's): room for 2,000 websockets even
# if one worker took them all, and a file for each connection and a few more.
WORKER_CONNECTIONS = 8192
WORKER_RLIMIT_NOFILE = 16384


def nginx_binary() -> str | None:
    """nginx's program: on the PATH, or where Debian puts it (/usr/sbin, which is not on every
    user's PATH); None if it is not installed."""
    found = shutil.which("nginx")
    if found:
        return found
    return "/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None


def upstreams(ports: list[int], host: str = "127.0.0.1") -> str:
    """The ``server`` lines of an upstream, one a daphne."""
    return "\n".join(f"    server {host}:{port};" for port in ports)


def server_block(
    ports: list[int], listen: str = "80", server_name: str = "_", host: str = "127.0.0.1"
) -> str:
    """What goes in nginx's ``http { }``: the daphnes on ``host``'s ``ports`` behind a server
    listening on ``listen`` (a port, or ``address:port``; ``443 ssl`` with certificates added
    for TLS)."""
    if not ports:
        raise ValueError("no daphne ports")
    return SITE.substitute(servers=upstreams(ports, host), listen=listen, server_name=server_name)


def full_config(
    ports: list[int],
    listen: str,
    prefix: Path,
    user: str | None = None,
    workers: str = WORKER_PROCESSES,
) -> str:
    """A whole nginx.conf serving ``server_block`` with its pid, error log and temp files under
    ``prefix`` and no access log. ``user``: the workers' user, when the master runs as root
    (otherwise nginx's ``nobody`` could not reach a temp directory that only its owner may)."""
    site = "\n".join(
        f"    {line}" if line else "" for line in server_block(ports, listen).split("\n")
    )
    return FULL.substitute(
        user=f"user {user};\n" if user else "",
        workers=workers,
        nofile=WORKER_RLIMIT_NOFILE,
        connections=WORKER_CONNECTIONS,
        prefix=prefix,
        site=site.rstrip("\n"),
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ports", required=True, help="the daphnes' ports: 8001,8002,8003")
    parser.add_argument("--host", default="127.0.0.1", help="the daphnes' address")
    parser.add_argument("--listen", default="80", help="nginx's listen: a port or address:port")
    parser.add_argument("--server-name", default="_", help="nginx's server_name")
    args = parser.parse_args(argv)
    ports = [int(part) for part in args.ports.split(",")]
    sys.stdout.write(server_block(ports, args.listen, args.server_name, args.host))
    return 0


if __name__ == "__main__":
    sys.exit(main())
