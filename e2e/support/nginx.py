"""A real nginx running one of the documented examples (docs/remote.md) as written, but for its ports: on a free port
of 127.0.0.1, with a directory of its own for its temporary files, its pid and its log.

The examples are whole `nginx.conf` files; only what a test needs changes: the ports, and
where nginx may write (its temporary files, no access log, as a user without root).

The binary is `nginx` on the PATH, else Debian's /usr/sbin/nginx (`nginx-light` will do); a test
that needs one and finds none is skipped, saying so.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import pytest
from documented import blocks

NGINX = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin")
NEEDS_NGINX = "needs nginx (Debian's nginx-light package) for the documented proxy example"


def documented_blocks(info: str) -> list[str]:
    """The documentation's code blocks of this kind (`sh`, `nginx`), in order."""
    return [block.text for block in blocks(info)]


def documented_nginx_config(upstream: str) -> str:
    """The documented nginx configuration that defines `upstream <upstream>`."""
    (block,) = [block for block in documented_blocks("nginx") if f"upstream {upstream} " in block]
    return block


def listens(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        return False
    return True


@contextmanager
def running_nginx(
    config: str, directory: Path, port: int, servers: Mapping[str, str]
) -> Iterator[str]:
    """nginx serving `config` (its `listen 8080;` on 127.0.0.1:`port`, each address of `servers`
    as written replaced by the one given) until the block ends; its URL. Skips without nginx."""
    if NGINX is None:
        pytest.skip(NEEDS_NGINX)
    for written, actual in servers.items():
        assert written in config, f"the documented configuration has no {written}"
        config = config.replace(written, actual)
    config = config.replace("listen 8080;", f"listen 127.0.0.1:{port};")
    writable = " ".join(
        f"{kind}_temp_path {directory / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    config = config.replace("http {\n", f"http {{\n    access_log off; {writable}\n", 1)
    (directory / "nginx.conf").write_text(config)
    main = f"daemon off; worker_processes 1; pid {directory / 'nginx.pid'};"
    log = directory / "nginx.log"
    command = [NGINX, "-p", str(directory), "-c", str(directory / "nginx.conf"), "-e", "stderr"]
    nginx = subprocess.Popen([*command, "-g", main], stderr=log.open("wb"))
    try:
        deadline = time.monotonic() + 10
        while not listens(port):
            assert nginx.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "nginx did not listen within 10 s"
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        nginx.terminate()
        nginx.wait(timeout=10)
