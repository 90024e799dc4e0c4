"""Command line: ``tricklab serve`` starts the Voilà app gallery on this machine.

``tricklab serve`` runs Voilà with the classroom fixes of :mod:`tricklab.serve` (TCP_NODELAY on
kernel websockets, culling of closed pages' kernels, a preheated pool, links that may choose only
the light or dark theme, at most ``--max-kernels`` kernels); ``tricklab jupyter-config`` prints the
same fixes as a Jupyter server config for the user image of a JupyterHub.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import socket
import sys
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit

from . import __version__
from .errors import TricklabError
from .resources import apps_dir, copy_tutorials
from .serve_settings import (
    CULL_AFTER,
    CULL_EVERY,
    HUB_CULL_AFTER,
    HUB_CULL_EVERY,
    KERNEL_MIB,
    POOL_SIZE,
    ServeOptions,
    default_max_kernels,
    hub_service_arguments,
    jupyter_server_config,
    machine_memory,
    pooled_kernels,
    voila_arguments,
)


def serve_command(
    host: str, port: int, apps: Path, open_browser: bool, *, options: ServeOptions | None = None
) -> list[str]:
    """The command line that ``tricklab serve`` runs: Voilà with its guard and its kernel limit."""
    command = [
        sys.executable,
        "-m",
        "tricklab.serve",
        str(apps),
        f"--Voila.ip={host}",
        f"--port={port}",
        *voila_arguments(options),
        *hub_service_arguments(),
    ]
    if not open_browser:
        command.append("--no-browser")
    return command


def kernel_limit(max_kernels: int, *, chosen: bool) -> str:
    """The line ``tricklab serve`` prints about its limit on kernels."""
    why = "set by --max-kernels"
    if not chosen:
        memory = machine_memory()
        size = f"{memory / 2**30:.1f} GiB" if memory else "unknown"
        why = f"the default: half of this machine's memory ({size}) at {KERNEL_MIB} MiB a kernel"
    return f"at most {max_kernels} kernels at once, one per open app page and the preheated pool ({why})"


def site_command(args: argparse.Namespace) -> int:
    """``tricklab site build DIR`` and ``tricklab site serve DIR``."""
    from . import site

    if args.site_command == "serve":
        site.serve(args.dir.resolve(), args.host, args.port)
        return 0
    gallery = site.build(args.dir, (args.apps or apps_dir()).resolve())
    print(f"tricklab site: built {args.dir} ({site.site_size(args.dir) / 2**20:.0f} MiB); the gallery is {gallery}")
    return 0


def notebooks_command(args: argparse.Namespace) -> int:
    """``tricklab notebooks DIR``: the tutorials copied where a learner can open and change them."""
    copied, kept = copy_tutorials(args.dir, overwrite=args.overwrite)
    for path in copied:
        print(f"tricklab: copied {path}")
    for path in kept:
        print(f"tricklab: kept {path} as it was (it is already there; --overwrite replaces it)")
    print(f"tricklab: open them with  jupyter lab {args.dir}")
    print("tricklab: (the widgets need  pip install 'tricklab[widgets]' jupyterlab)")
    return 0


def class_service_command(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """``tricklab class-service``: the class store behind the hub (:mod:`tricklab.classservice`)."""
    from .classservice import serve

    bound = urlsplit(os.environ.get("JUPYTERHUB_SERVICE_URL", ""))
    host = args.host or bound.hostname or "127.0.0.1"
    port = args.port or bound.port
    if port is None:
        parser.error("give --port, or run it as a JupyterHub service with a url (it sets $JUPYTERHUB_SERVICE_URL)")
    try:
        serve(host, port, args.class_db)
    except TricklabError as error:
        parser.error(str(error))
    return 0


#: what each command needs beyond the engine, and the extra that installs it
EXTRAS = {"serve": ("voila", "apps"), "class-service": ("tornado", "apps")}


def missing_extra(command: str) -> str | None:
    """What to install for ``command`` when a module it needs is missing, else None."""
    if command not in EXTRAS:
        return None
    module, extra = EXTRAS[command]
    if importlib.util.find_spec(module) is not None:
        return None
    return f"tricklab {command} needs the {extra} extra: pip install 'tricklab[{extra}]'"


#: what ``tricklab --help`` says first, in plain text
DESCRIPTION = """\
tricklab: learn the rules of trick-taking card games, Kalah and Mandala.

  tricklab serve           start the app gallery on this machine (Voilà)
  tricklab site build DIR  build the apps as a static site that runs in the browser
  tricklab site serve DIR  serve a built site on this machine
  tricklab notebooks DIR   copy the tutorial notebooks into DIR, to open in JupyterLab
  tricklab jupyter-config  print the server settings for a JupyterHub user image
  tricklab class-service   run the class store as a JupyterHub service

Each command has its own --help."""


def port_taken(host: str, port: int) -> bool:
    """Whether something on this machine already listens on ``host:port`` (Voilà would then
    quietly move to another port, and the address printed would be wrong)."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return True
    return False


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="tricklab", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--version", action="version", version=f"tricklab {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="serve the app gallery with Voilà")
    serve.add_argument(
        "--host", default=None, help="address to listen on (default 127.0.0.1, or from $JUPYTERHUB_SERVICE_URL)"
    )
    serve.add_argument(
        "--port", type=int, default=None, help="port to listen on (default 8866, or from $JUPYTERHUB_SERVICE_URL)"
    )
    serve.add_argument("--apps", type=Path, default=None, help="folder of app notebooks (default voila_apps/)")
    serve.add_argument("--open", action="store_true", help="open a browser tab")
    serve.add_argument(
        "--pool-size",
        type=int,
        default=POOL_SIZE,
        metavar="N",
        help=f"preheated kernels kept ready per app, 0 for none (default {POOL_SIZE})",
    )
    serve.add_argument(
        "--cull-after",
        type=int,
        default=CULL_AFTER,
        metavar="SECONDS",
        help=f"shut down a kernel with no open page after this many idle seconds (default {CULL_AFTER})",
    )
    serve.add_argument(
        "--cull-every",
        type=int,
        default=CULL_EVERY,
        metavar="SECONDS",
        help=f"look for such kernels this often (default {CULL_EVERY})",
    )
    serve.add_argument(
        "--max-kernels",
        type=int,
        default=None,
        metavar="N",
        help=(
            "run at most N kernels at once, the preheated pool included: one per open app page; a page beyond "
            "is refused with 'The class is full' (default: half of this machine's memory at "
            f"{KERNEL_MIB} MiB a kernel, here {default_max_kernels()})"
        ),
    )
    serve.add_argument(
        "--class-db",
        default=None,
        metavar="URL",
        help=(
            "where the class app keeps its sessions: a SQLite file's path (default: $TRICKLAB_CLASS_DB, else "
            "tricklab/class.sqlite3 in your data folder) or a postgresql:// URL"
        ),
    )
    serve.add_argument(
        "--nodelay",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="set TCP_NODELAY on kernel websockets (default on; --no-nodelay only to measure without it)",
    )
    config = sub.add_parser(
        "jupyter-config", help="print the Jupyter server config with the same fixes, for a JupyterHub user image"
    )
    config.add_argument("--cull-after", type=int, default=HUB_CULL_AFTER, metavar="SECONDS")
    config.add_argument("--cull-every", type=int, default=HUB_CULL_EVERY, metavar="SECONDS")
    service = sub.add_parser(
        "class-service",
        help="run the class store as a JupyterHub service, so that learners' servers hold no database password",
    )
    service.add_argument("--host", default=None, help="address to listen on (default: from $JUPYTERHUB_SERVICE_URL)")
    service.add_argument("--port", type=int, default=None, help="port (default: from $JUPYTERHUB_SERVICE_URL)")
    service.add_argument(
        "--class-db", default=None, metavar="URL", help="the class store (default $TRICKLAB_CLASS_DB): postgresql://..."
    )
    site = sub.add_parser("site", help="build or serve the apps as a static site that runs in the browser")
    site_sub = site.add_subparsers(dest="site_command", required=True)
    site_build = site_sub.add_parser("build", help="build the static site into DIR (tools fetched, pinned, once)")
    site_build.add_argument("dir", type=Path)
    site_build.add_argument("--apps", type=Path, default=None, help="folder of app notebooks (default voila_apps/)")
    notebooks = sub.add_parser("notebooks", help="copy the tutorial notebooks into a folder, to open in JupyterLab")
    notebooks.add_argument("dir", type=Path)
    notebooks.add_argument("--overwrite", action="store_true", help="replace tutorials already in DIR")
    site_serve = site_sub.add_parser("serve", help="serve a built site on this machine")
    site_serve.add_argument("dir", type=Path)
    site_serve.add_argument("--host", default="127.0.0.1")
    site_serve.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    if args.command == "notebooks":
        try:
            return notebooks_command(args)
        except (TricklabError, OSError) as error:
            parser.error(str(error))
    needed = missing_extra(args.command)
    if needed is not None:
        parser.error(needed)
    if args.command == "site":
        return site_command(args)
    if args.command == "class-service":
        return class_service_command(args, parser)
    try:
        if args.command == "jupyter-config":
            print(json.dumps(jupyter_server_config(cull_after=args.cull_after, cull_every=args.cull_every), indent=2))
            return 0
        options = ServeOptions(
            pool_size=args.pool_size,
            cull_after=args.cull_after,
            cull_every=args.cull_every,
            nodelay=args.nodelay,
            max_kernels=default_max_kernels() if args.max_kernels is None else args.max_kernels,
        )
    except ValueError as error:
        parser.error(str(error))
    # as a JupyterHub service, where the hub said it runs (else 127.0.0.1:8866)
    bound = urlsplit(os.environ.get("JUPYTERHUB_SERVICE_URL", ""))
    args.host = args.host or bound.hostname or "127.0.0.1"
    args.port = args.port or bound.port or 8866
    prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX", "/") or "/"
    apps = (args.apps or apps_dir()).resolve()
    if not apps.is_dir():
        parser.error(f"no app folder at {apps}")
    pooled = pooled_kernels(apps, options.pool_size)
    if pooled >= options.max_kernels:
        parser.error(
            f"--max-kernels {options.max_kernels} leaves no kernel for a page: the preheated pool alone keeps "
            f"{pooled} ({options.pool_size} for each app); raise --max-kernels or lower --pool-size"
        )
    if port_taken(args.host, args.port):
        parser.error(
            f"port {args.port} on {args.host} is taken (is tricklab already serving?): "
            f"stop that server or choose another port with --port"
        )
    command = serve_command(args.host, args.port, apps, args.open, options=options)
    print(f"tricklab: serving {apps} at http://{args.host}:{args.port}{prefix}", flush=True)
    print(f"tricklab: {kernel_limit(options.max_kernels, chosen=args.max_kernels is not None)}", flush=True)
    print(f"tricklab: the app gallery is http://{args.host}:{args.port}{prefix}voila/render/index.ipynb", flush=True)
    if args.class_db is not None:
        os.environ["TRICKLAB_CLASS_DB"] = args.class_db  # the kernels' environment: the class app's store
    from .store import Store

    print(f"tricklab: class sessions are kept in {Store.location()}", flush=True)
    os.chdir(apps)
    os.execv(command[0], command)
    return 0  # not reached


if __name__ == "__main__":
    raise SystemExit(main())
