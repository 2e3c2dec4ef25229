"""The nginx configuration of the deploy (scripts/nginx_conf.py) is the one docs/deploy.md shows,
nginx accepts it, and bench/load.py ``--proxy nginx`` plays through it: every socket through
nginx, each table's on one daphne, and every move reaching every screen."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from scripts.nginx_conf import full_config, main, nginx_binary, server_block
from tests.helpers.load_runs import load_run

ROOT = Path(__file__).resolve().parent.parent
NGINX = nginx_binary()
needs_nginx = pytest.mark.skipif(
    NGINX is None, reason="nginx is not installed (.ci/run installs it)"
)


def test_the_block_in_the_deploy_doc_is_what_the_renderer_writes():
    doc = (ROOT / "docs" / "deploy.md").read_text()
    blocks = re.findall(r"^```nginx\n(.*?)^```$", doc, re.S | re.M)
    assert blocks == [server_block([8001, 8002, 8003])], (
        "docs/deploy.md's nginx block differs from "
        "`.venv/bin/python scripts/nginx_conf.py --ports 8001,8002,8003`"
    )


def test_tables_are_hashed_by_their_path_and_everything_else_spread(capsys):
    assert main(["--ports", "8001,8002"]) == 0
    written = capsys.readouterr().out
    tables = re.search(r"upstream hearts_tables \{(.*?)\}", written, re.S)
    assert tables is not None
    assert "hash $uri consistent;" in tables.group(1)
    for upstream in ("hearts", "hearts_tables"):
        servers = re.search(rf"upstream {upstream} \{{(.*?)\}}", written, re.S)
        assert servers is not None
        assert re.findall(r"server (\S+);", servers.group(1)) == [
            "127.0.0.1:8001",
            "127.0.0.1:8002",
        ]
    assert "proxy_set_header Host $http_host;" in written  # with its port, for the Origin check
    assert "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;" in written


@needs_nginx
def test_nginx_accepts_the_whole_configuration(tmp_path):
    conf = tmp_path / "nginx.conf"
    user = "root" if os.geteuid() == 0 else None
    conf.write_text(full_config([8001, 8002, 8003], "127.0.0.1:8000", tmp_path, user))
    checked = subprocess.run(
        [NGINX, "-t", "-p", str(tmp_path), "-c", str(conf), "-e", str(tmp_path / "error.log")],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert checked.returncode == 0, checked.stderr
    assert "test is successful" in checked.stderr


@pytest.mark.slow
@needs_nginx
def test_every_move_reaches_every_screen_through_nginx_in_front_of_three_daphnes(tmp_path):
    figures = load_run(tmp_path, "--proxy", "nginx", "--webs", "3", "--tables", "2")
    (played,) = figures["rounds"]
    assert played["proxy"] == "nginx" and played["daphnes"] == 3
    ports = {port for ports in played["screens_ports"].values() for port in ports}
    assert len(ports) == 1, "every socket went to nginx's one port"
    assert len(played["screens_ports"]) >= 2, "both tables' games had screens"
    assert all(len(ports) == 4 for ports in played["screens_ports"].values())
    assert played["latency_ms"]["count"] >= 20, "the players made their moves"
    assert played["unseen"] == 0, "a move did not reach every screen"
    assert played["closed"] == 0
    assert not [reason for reason in played["refused_because"] if "not opened" in reason]
    assert played["cpu_percent"].get("nginx") is not None, "nginx's CPU is counted"
    assert figures["replays"]["mismatched"] == 0
