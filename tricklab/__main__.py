"""Command line: ``tricklab serve`` starts the Voilà app gallery on this machine."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path


def apps_dir() -> Path:
    """The ``voila_apps`` folder: the one in the current directory, else the source tree's."""
    here = Path.cwd() / "voila_apps"
    if here.is_dir():
        return here
    return Path(__file__).resolve().parent.parent / "voila_apps"


def serve_command(host: str, port: int, apps: Path, open_browser: bool) -> list[str]:
    command = [
        sys.executable,
        "-m",
        "voila",
        str(apps),
        f"--Voila.ip={host}",
        f"--port={port}",
    ]
    if not open_browser:
        command.append("--no-browser")
    return command


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tricklab", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="serve the app gallery with Voilà")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8866, help="port to listen on (default 8866)")
    serve.add_argument("--apps", type=Path, default=None, help="folder of app notebooks (default voila_apps/)")
    serve.add_argument("--open", action="store_true", help="open a browser tab")
    args = parser.parse_args(argv)
    apps = args.apps or apps_dir()
    if not apps.is_dir():
        parser.error(f"no app folder at {apps}")
    command = serve_command(args.host, args.port, apps, args.open)
    print(f"tricklab: serving {apps} at http://{args.host}:{args.port}/", flush=True)
    os.chdir(apps)
    os.execv(command[0], command)
    return 0  # not reached


if __name__ == "__main__":
    raise SystemExit(main())
