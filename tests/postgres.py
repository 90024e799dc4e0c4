"""A throwaway PostgreSQL server for the tests, from Debian's ``postgresql`` package (never a mock).

:func:`postgres_server` starts one in a temporary folder, listening only on a Unix socket there, and
yields its URL; it is stopped and removed afterwards. Where Debian's PostgreSQL is not installed
the tests that need it are skipped with that reason (``.ci/run`` installs it, so CI never skips).
The server refuses to run as root: as root it runs as the ``postgres`` user the package made.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

BIN = next(iter(sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)), None)


def _as_server_user(command: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


@contextmanager
def postgres_server() -> Iterator[str]:
    if BIN is None or not (BIN / "initdb").exists():
        pytest.skip("Debian's PostgreSQL is not installed (apt-get install -y postgresql)")
    folder = Path(tempfile.mkdtemp(prefix="tricklab-pg-"))
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres")
        os.chown(folder, user.pw_uid, user.pw_gid)
    data = folder / "data"
    try:
        subprocess.run(
            _as_server_user([str(BIN / "initdb"), "-D", str(data), "-U", "tricklab", "--auth=trust", "-E", "UTF8"]),
            check=True,
            capture_output=True,
        )
        options = f"-k {folder} -c listen_addresses='' -c fsync=off -c full_page_writes=off"
        subprocess.run(
            _as_server_user(
                [str(BIN / "pg_ctl"), "-D", str(data), "-o", options, "-w", "-l", str(folder / "log"), "start"]
            ),
            check=True,
            capture_output=True,
        )
        yield f"postgresql://tricklab@/postgres?host={folder}"
    finally:
        subprocess.run(
            _as_server_user([str(BIN / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]), capture_output=True
        )
        shutil.rmtree(folder, ignore_errors=True)
