"""A throwaway PostgreSQL on loopback for the DuckLake catalog: start, create databases, stop.

Used by the tests (tests/warehouse/conftest.py starts one per session) and by people trying the
DuckLake backend on one machine::

    python scripts/pg_loopback.py start /tmp/edgar-pg 55432   # prints the catalog string to use
    python scripts/pg_loopback.py createdb /tmp/edgar-pg 55432 lake
    python scripts/pg_loopback.py stop /tmp/edgar-pg

The binaries are Debian's (``apt-get install postgresql``; .ci/install-services.sh does it): initdb
and pg_ctl from /usr/lib/postgresql/<version>/bin. PostgreSQL refuses to run as root, so when we
are root the cluster is owned by and run as the ``postgres`` user. Trust authentication, one
superuser ``edgar``, listening on 127.0.0.1 only (and a Unix socket inside the folder).
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

USER = "edgar"


class PostgresUnavailable(RuntimeError):
    """PostgreSQL's server binaries are not installed here (the message says how to get them)."""


def bin_dir() -> Path:
    """The newest /usr/lib/postgresql/*/bin holding initdb and pg_ctl (or PG_BIN_DIR)."""
    env = os.environ.get("PG_BIN_DIR")
    candidates = [Path(env)] if env else sorted(
        (Path(p) for p in glob.glob("/usr/lib/postgresql/*/bin")),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0, reverse=True)
    for c in candidates:
        if (c / "initdb").exists() and (c / "pg_ctl").exists():
            return c
    raise PostgresUnavailable("PostgreSQL server binaries not found in /usr/lib/postgresql/*/bin "
                              "(install Debian's `postgresql`: .ci/install-services.sh does it)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _run(args: list[str], *, as_owner: bool) -> subprocess.CompletedProcess:
    if as_owner and os.geteuid() == 0:
        if shutil.which("su") is None:
            raise PostgresUnavailable("running as root without `su`: cannot run PostgreSQL as postgres")
        cmd = " ".join("'" + a.replace("'", "'\\''") + "'" for a in args)
        args = ["su", "postgres", "-s", "/bin/sh", "-c", cmd]
    return subprocess.run(args, capture_output=True, text=True, timeout=120)


def _check(proc: subprocess.CompletedProcess, what: str) -> None:
    if proc.returncode != 0:
        raise RuntimeError(f"{what} failed ({proc.returncode}): {(proc.stderr or proc.stdout).strip()[-800:]}")


def catalog(port: int, dbname: str) -> str:
    """The DuckLake catalog string for database ``dbname`` of the loopback server."""
    return f"postgres:dbname={dbname} host=127.0.0.1 port={port} user={USER}"


def start(folder: str | Path, port: int) -> str:
    """initdb (first time) and start a server on 127.0.0.1:port with its data in ``folder``/data;
    returns the catalog string of its ``postgres`` database."""
    folder = Path(folder).resolve()
    binaries = bin_dir()
    folder.mkdir(parents=True, exist_ok=True)
    if os.geteuid() == 0:
        import pwd

        try:
            owner = pwd.getpwnam("postgres")
        except KeyError as exc:
            raise PostgresUnavailable("running as root and there is no `postgres` user") from exc
        os.chown(folder, owner.pw_uid, owner.pw_gid)
    data = folder / "data"
    if not (data / "PG_VERSION").exists():
        _check(_run([str(binaries / "initdb"), "-D", str(data), "-A", "trust", "-U", USER, "-E", "UTF8"],
                    as_owner=True), "initdb")
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
    _check(_run([str(binaries / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(folder / "server.log"),
                 "-w", "-t", "60", "start"], as_owner=True), "pg_ctl start")
    return catalog(port, "postgres")


def createdb(folder: str | Path, port: int, name: str) -> str:
    """Create database ``name`` (dropping an older one of that name); returns its catalog string."""
    binaries = bin_dir()
    for tool, extra in (("dropdb", ["--if-exists"]), ("createdb", [])):
        _check(_run([str(binaries / tool), "-h", "127.0.0.1", "-p", str(port), "-U", USER, *extra, name],
                    as_owner=False), tool)
    return catalog(port, name)


def stop(folder: str | Path) -> None:
    """Stop the server (fast shutdown) if it runs; the folder is left for the caller to remove."""
    data = Path(folder).resolve() / "data"
    if (data / "postmaster.pid").exists():
        _check(_run([str(bin_dir() / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"], as_owner=True),
               "pg_ctl stop")


def main(argv: list[str]) -> int:
    usage = "usage: pg_loopback.py start DIR PORT | createdb DIR PORT NAME | stop DIR"
    if len(argv) < 2:
        print(usage, file=sys.stderr)
        return 2
    verb, folder = argv[0], argv[1]
    if verb == "start" and len(argv) == 3:
        print(start(folder, int(argv[2])))
    elif verb == "createdb" and len(argv) == 4:
        print(createdb(folder, int(argv[2]), argv[3]))
    elif verb == "stop" and len(argv) == 2:
        stop(folder)
    else:
        print(usage, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
