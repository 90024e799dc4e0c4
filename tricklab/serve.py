"""Serving the apps to a classroom: Voilà (or a JupyterHub user's server), made safe and bounded.

Measured on a 2-core machine (``benchmarks/classroom.py``),
plain Voilà 0.5 has three weaknesses when a whole class opens one link; each has a cure here,
applied through ordinary Jupyter configuration, so nothing in Voilà or jupyter_server is patched:

1. **TCP_NODELAY on the kernel websocket.** A click sends a small "busy" status and then the
   widget update; with Nagle's algorithm on, the update waits for the browser's delayed ACK,
   about 40 ms per step. Tornado resets TCP_NODELAY after every HTTP response, so it has to be
   set on the websocket itself once it is open (tornado's ``WebSocketHandler.set_nodelay``).
   :class:`NoDelayKernelConnection` does that: it is jupyter_server's kernel websocket
   connection, which ``open`` calls once the upgrade is done, and it sets the option before
   connecting the kernel's channels. It is chosen with the ``kernel_websocket_connection_class``
   setting that Voilà (``Voila.``) and jupyter_server (``ServerApp.``) both have.
2. **Culling disconnected kernels.** A closed tab never shuts its kernel down (the page's
   shutdown request is refused for a missing XSRF token, voila#1458), so each closed page
   would keep about 55 MB. jupyter_server's culler shuts down kernels that have been idle for
   ``cull_idle_timeout`` seconds *and have no open connection* (``cull_connected`` stays off),
   checked every ``cull_interval`` seconds. With the defaults here a closed page's kernel is gone
   40 to 50 s after its last message; a page that is still open is never culled, however long
   the learner stays idle. Voilà's own kernel manager never culls its preheated pool.
3. **A preheated pool.** Voilà starts ``pool_size`` kernels per app ahead of time and runs the
   app in them, so a learner's page does not wait for a kernel start (about 0.4 s of 1.9 s).

Three more make a link harmless, the server bounded and its answers plain:

4. **A link chooses light or dark, nothing else.** Voilà's lab template writes the ``theme``
   parameter into ``data-jp-theme-name="…"`` unescaped, and a ``template`` parameter into
   stylesheet links; either lets a link run script. :class:`ThemeGuard`, a tornado transform
   (built for each request before its handler runs), removes every ``template`` argument and
   every ``theme`` argument whose value is not exactly ``light`` or ``dark``, so Voilà renders
   its default instead. Voilà's theme override is switched on only by code that has installed
   the guard: :class:`ClassroomVoila` (``tricklab serve``) and, under JupyterHub, this module
   as a Jupyter server extension (:func:`_load_jupyter_server_extension`). Everywhere else the
   shipped settings (``voila_apps/voila.json``, ``tricklab jupyter-config``) keep it off.
5. **At most** ``max_kernels`` **kernels.** Each page of an app runs in its own kernel of about
   :data:`~tricklab.serve_settings.KERNEL_MIB` MiB, so a loop of requests could exhaust the machine's memory.
   :class:`ClassroomKernelManager` never starts a kernel beyond ``max_kernels`` (the preheated
   pool included), and :class:`ClassroomVoilaHandler` answers a page it cannot serve with a
   short 503 page ("The class is full") before any kernel is started for it. The default,
   :func:`~tricklab.serve_settings.default_max_kernels`, is half of the machine's memory at
   :data:`~tricklab.serve_settings.KERNEL_MIB` a kernel.

6. **An odd path is not found.** A few paths that no page asks for make Voilà's or jupyter_server's
   own handlers fail with a 500: a control character (``play.ipynb%00.png``: Voilà redirects a
   file that is not a notebook, and tornado refuses the character in the header), a ``..``
   segment or anything but ``<template>/static/<file>`` under ``/voila/templates/``, and
   ``/logout``, a page Voilà has no template for (no one logs in). :class:`ClassroomVoila` answers
   them with a plain 404 (:func:`is_odd_path`) before any of those handlers sees them.

7. **As a JupyterHub service.** Run by the hub (``JupyterHub.services``), ``tricklab serve`` takes
   its address from ``$JUPYTERHUB_SERVICE_URL`` and its prefix from ``$JUPYTERHUB_SERVICE_PREFIX``,
   and every page is opened only by a user the hub logs in, through the hub's OAuth as a user's own
   server does (:func:`~tricklab.serve_settings.hub_service_arguments`). That is where a hub plays
   tables of classmates: a seat's kernel holds its table's seed, and here no learner runs code.

XSRF protection is left on: nothing here disables a check.

``tricklab serve`` (see :mod:`tricklab.__main__`) runs :class:`ClassroomVoila` (``python -m
tricklab.serve``) with :func:`~tricklab.serve_settings.voila_arguments`. Under JupyterHub, where
Voilà runs inside each user's Jupyter server and has no pool, the fixes are the JSON from
:func:`~tricklab.serve_settings.jupyter_server_config` (``tricklab jupyter-config``), saved in the
user image as a Jupyter config file; it enables this module as a server extension.
The README's "Serving a classroom" says how.
"""

from __future__ import annotations

import asyncio
import html
import os
import re
import urllib.parse
import uuid
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jupyter_core.utils import ensure_async
from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from jupyter_server.utils import url_path_join
from tornado.httputil import HTTPServerRequest
from tornado.routing import Matcher, Rule
from tornado.web import HTTPError, OutputTransform, RequestHandler, authenticated
from traitlets import Integer
from voila.app import Voila
from voila.tornado.handler import TornadoVoilaHandler

from .serve_settings import (  # the settings, kept importable from here
    LINK_THEMES,
)

if TYPE_CHECKING:
    from jupyter_server.serverapp import ServerApp


class NoDelayKernelConnection(ZMQChannelsWebsocketConnection):
    """jupyter_server's kernel websocket connection, with TCP_NODELAY set on the websocket.

    ``KernelWebsocketHandler.open`` calls :meth:`connect` once the websocket is open, which is
    where tornado documents ``set_nodelay(True)``: from then on the socket belongs to the
    websocket and no HTTP response resets the option.
    """

    # the signature of ZMQChannelsWebsocketConnection.connect, which differs from its base's too
    def connect(self) -> asyncio.Future[None] | None:  # type: ignore[override]
        handler = self.websocket_handler
        if handler is not None and handler.ws_connection is not None:
            handler.set_nodelay(True)
        return super().connect()


# --- 4. a link chooses light or dark, nothing else ---------------------------------------------


def keep_checked_link_arguments(request: HTTPServerRequest) -> None:
    """Remove from ``request`` every ``template`` argument and every ``theme`` but light or dark.

    Of several ``theme`` values (``?theme=dark&theme=...``) the last checked one stays, as
    tornado's ``get_argument`` takes the last. A GET's body would be parsed into its arguments
    after this point; no link can send one and no handler reads one, so it is dropped.
    """
    for arguments in (request.arguments, request.query_arguments, request.body_arguments):
        arguments.pop("template", None)
        themes = arguments.pop("theme", None)
        checked = [value for value in themes or () if value in LINK_THEMES]
        if checked:
            arguments["theme"] = checked[-1:]
    if request.method in ("GET", "HEAD") and request.body:
        request.body = b""


class ThemeGuard(OutputTransform):
    """A tornado transform that checks a request's link arguments before its handler runs.

    Tornado builds each of an application's transforms for a request, with the request, just
    before the handler's ``prepare`` and ``get``: the one place that sees every request of every
    handler, Voilà's and jupyter_server's alike. The output passes through unchanged.
    """

    def __init__(self, request: HTTPServerRequest) -> None:
        super().__init__(request)
        keep_checked_link_arguments(request)


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    """This module is also a Jupyter server extension (``ServerApp.jpserver_extensions``)."""
    return [{"module": "tricklab.serve"}]


def _load_jupyter_server_extension(server_app: ServerApp) -> None:
    """Install :class:`ThemeGuard` on a Jupyter server, then let Voilà's links pick the theme.

    jupyter_server loads its extensions in the order of their names, so this one runs before
    ``voila.server_extension`` reads ``VoilaConfiguration``: the theme override it turns on
    reaches Voilà. Were Voilà loaded first, the override would stay off, never unguarded.
    """
    server_app.web_app.add_transform(ThemeGuard)
    server_app.config.VoilaConfiguration.allow_theme_override = "YES"
    server_app.config.VoilaConfiguration.allow_template_override = "NO"
    find_template()
    server_app.config.VoilaConfiguration.template = TEMPLATE
    server_app.log.info("tricklab: a link may choose only the light or the dark theme")


# --- the apps' template: a loading screen in words ---------------------------------------------

#: tricklab's Voilà template: Voilà's own, with a loading screen that names the app and says what
#: is coming, with a progress bar, instead of a spinner saying "Executing 1 of 1" (its files are in
#: ``tricklab/share/voila/templates/tricklab``)
TEMPLATE = "tricklab"
#: the Jupyter data folder in the package that holds it (a wheel also installs it under
#: ``share/jupyter``, where a JupyterHub user's server looks)
TEMPLATE_ROOT = Path(__file__).resolve().parent / "share"


def find_template() -> None:
    """Let Voilà find tricklab's template in the package itself, before the usual Jupyter data
    folders (so the package's own copy is used, also from a source tree)."""
    paths = [p for p in os.environ.get("JUPYTER_PATH", "").split(os.pathsep) if p]
    if str(TEMPLATE_ROOT) not in paths:
        os.environ["JUPYTER_PATH"] = os.pathsep.join([str(TEMPLATE_ROOT), *paths])


# --- 5. at most max_kernels kernels -------------------------------------------------------------


class ClassFull(RuntimeError):
    """No kernel can start: the server already runs (or is starting) ``limit`` of them."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"this server runs at most {limit} apps at once")
        self.limit = limit


class Admission:
    """A page admitted by :meth:`ClassroomKernelManager.admitting_a_page`, counted as one kernel
    until its own kernel or the pool's refill for it is counted instead."""

    def __init__(self, manager: ClassroomKernelManager) -> None:
        self.manager = manager
        self.pending = True
        manager._admitted += 1

    def settle(self) -> None:
        """The page's kernel is now counted otherwise: starting, running or as the pool's refill."""
        if self.pending:
            self.pending = False
            self.manager._admitted -= 1


#: the page whose handler is running (a task copies it): its own kernel start settles its admission
_admission: ContextVar[Admission | None] = ContextVar("tricklab_admission", default=None)


class ClassroomKernelManager(AsyncMappingKernelManager):
    """jupyter_server's kernel manager, which never runs more than ``max_kernels`` kernels.

    Voilà builds its pooling kernel manager on top of this class
    (``VoilaConfiguration.multi_kernel_manager_class``), so every kernel, the pool's and the
    pages', starts through :meth:`start_kernel`, which refuses a page's kernel beyond the limit
    with :class:`ClassFull` and lets a kernel for the pool wait for a free place.

    A page is admitted (:meth:`admitting_a_page`) only if every kernel the server will need
    fits: those running or starting, those the pool is yet to start (each of its tasks until its
    kernel starts, also once a page has taken it), and one for each page admitted whose own
    kernel, or the refill its pooled kernel asks of the pool, is not yet counted. So an admitted
    page never waits for a place, and a page that cannot be served is refused before any work.
    """

    max_kernels = Integer(
        0, config=True, help="At most this many kernels at once, the preheated pool included (0: no limit)."
    )
    #: seconds between two looks for a free place, for a kernel the pool is waiting to start
    wait_step = 0.5

    def __init__(self, **kwargs: Any) -> None:
        self._starting: set[str] = set()  # kernel ids being started
        self._pool_starting: set[asyncio.Task[Any]] = set()  # the pool's tasks among them
        self._pool_tasks: weakref.WeakSet[asyncio.Future[Any]] = weakref.WeakSet()  # all seen in Voilà's pool
        self._admitted = 0
        self._closing = False
        self._connected_once: set[str] = set()  # kernels a page's websocket has connected to
        self._unconnected_since: dict[str, float] = {}  # when the culler first saw one that never was
        super().__init__(**kwargs)  # type: ignore[no-untyped-call]

    def kernels_running_or_starting(self) -> int:
        return len(self._starting.union(self.list_kernel_ids()))

    def kernels_held(self) -> int:
        """The kernels this server will run without a new page (see the class's description)."""
        pools: dict[str, list[asyncio.Future[Any]]] = getattr(self, "_pools", {})  # Voilà's pool
        self._pool_tasks.update(task for pool in pools.values() for task in pool)
        pool_to_start = sum(not task.done() and task not in self._pool_starting for task in self._pool_tasks)
        return self.kernels_running_or_starting() + pool_to_start + self._admitted

    def is_full(self) -> bool:
        return 0 < self.max_kernels <= self.kernels_held()

    @contextmanager
    def admitting_a_page(self) -> Iterator[Admission]:
        """Admit a page, or raise :class:`ClassFull` if it could need a kernel beyond the limit.

        The page settles its admission once it has sent its first byte (its pooled kernel has
        been taken and the refill is in the pool by then); its own kernel start settles it earlier.
        """
        if self.is_full():
            raise ClassFull(self.max_kernels)
        admission = Admission(self)
        token = _admission.set(admission)
        try:
            yield admission
        finally:
            admission.settle()
            _admission.reset(token)

    # jupyter_client types start_kernel as blocking; jupyter_server's async one has the same ignore
    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:  # type: ignore[override]
        existing = kwargs.get("kernel_id")
        if isinstance(existing, str) and existing in self:
            return str(await super().start_kernel(*args, **kwargs))  # not a new kernel
        env = kwargs.get("env") or {}
        pool_task = asyncio.current_task() if env.get("VOILA_PREHEAT") == "True" else None
        while self.max_kernels and self.kernels_running_or_starting() >= self.max_kernels:
            if pool_task is None or self._closing:
                raise ClassFull(self.max_kernels)
            await asyncio.sleep(self.wait_step)
        # the id is chosen here, so that the kernel is counted once, starting and then running
        kernel_id = kwargs["kernel_id"] = existing if isinstance(existing, str) else str(uuid.uuid4())
        self._starting.add(kernel_id)
        if pool_task is not None:
            self._pool_starting.add(pool_task)
        else:
            admission = _admission.get()
            if admission is not None:
                admission.settle()
        try:
            started: str = await super().start_kernel(*args, **kwargs)
        finally:
            self._starting.discard(kernel_id)
            if pool_task is not None:
                self._pool_starting.discard(pool_task)
        return started

    def notify_connect(self, kernel_id: str) -> None:
        self._connected_once.add(kernel_id)
        self._unconnected_since.pop(kernel_id, None)
        super().notify_connect(kernel_id)  # type: ignore[no-untyped-call]

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        """Cull as jupyter_server does, but give a kernel no page has connected to yet a full
        ``cull_idle_timeout`` from the moment the culler first sees it outside the pool.

        Voilà never culls a kernel waiting in its pool; once a page takes it, it is idle since it
        was preheated, possibly for minutes, and has no connection until the page's websocket
        opens a second or so later. Culled in that gap, the page would load a dead kernel.
        A page closed before it ever connected is still culled, one timeout later.
        """
        if kernel_id not in self._connected_once:
            now = asyncio.get_running_loop().time()
            first_seen = self._unconnected_since.setdefault(kernel_id, now)
            if now - first_seen < self.cull_idle_timeout:
                return
        await ensure_async(super().cull_kernel_if_idle(kernel_id))  # type: ignore[no-untyped-call]

    async def _remove_kernel_when_ready(self, kernel_id: str, kernel_awaitable: Any) -> None:
        await super()._remove_kernel_when_ready(kernel_id, kernel_awaitable)  # type: ignore[no-untyped-call]
        self._connected_once.discard(kernel_id)
        self._unconnected_since.pop(kernel_id, None)

    async def shutdown_all(self, now: bool = False) -> None:  # type: ignore[override]  # as start_kernel
        self._closing = True  # a pool kernel still waiting for a place gives up
        await ensure_async(super().shutdown_all(now=now))


def class_full_page(limit: int) -> str:
    """The page a learner sees when the server runs as many apps as it may."""
    message = html.escape(
        f"The class is full: this server runs at most {limit} apps at once; close a tab or try again in a minute."
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        "<title>The class is full</title>"
        "<style>body{font:1.1rem/1.5 system-ui,sans-serif;max-width:38rem;margin:4rem auto;padding:0 1rem}"
        "@media (prefers-color-scheme:dark){body{background:#111;color:#eee}}</style></head>"
        f'<body><main><h1>The class is full</h1><p role="alert">{message}</p></main></body></html>\n'
    )


class ClassroomVoilaHandler(TornadoVoilaHandler):  # type: ignore[misc]  # Voilà ships no types
    """Voilà's page of an app, refused with :func:`class_full_page` when no kernel may start."""

    @authenticated
    async def get(self, path: str | None = None) -> None:
        manager = self.kernel_manager
        if not isinstance(manager, ClassroomKernelManager):
            await super().get(path)
            return
        try:
            with manager.admitting_a_page() as admission:
                async for snippet in self.get_generator(path=path):
                    self.write(snippet)
                    self.flush()
                    admission.settle()
        except ClassFull as full:
            if self._headers_written:  # not reached: a kernel starts before the page's first byte
                raise
            self.refuse(full.limit)

    def refuse(self, limit: int) -> None:
        self.log.warning("Refused a page of %s: %d kernels at once is this server's limit", self.request.path, limit)
        self.clear()
        self.set_status(503)
        self.set_header("Content-Type", "text/html; charset=UTF-8")
        self.set_header("Cache-Control", "no-cache, no-store, must-revalidate")
        self.set_header("Retry-After", "60")
        self.finish(class_full_page(limit))


# --- 6. an odd path is not found ---------------------------------------------------------------

#: what a page asks for under ``voila/templates/``: a template's static file
_TEMPLATE_FILE = re.compile(r"voila/templates/[^/]+/static/[^/].*", re.DOTALL)
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def is_odd_path(path: str, root: str = "/") -> bool:
    """Whether a request's ``path`` (percent-encoded, as sent; ``root`` is the server's URL prefix)
    names nothing a page asks for, in one of the ways Voilà's handlers answer with a 500:
    a control character, a ``.`` or ``..`` segment (a browser resolves them before it asks),
    ``logout``, or anything under ``voila/templates/`` but ``<template>/static/<file>``."""
    decoded = urllib.parse.unquote(path)
    if _CONTROL.search(decoded) or {".", ".."} & set(decoded.split("/")):
        return True
    prefix = root.rstrip("/") + "/"
    if not decoded.startswith(prefix):
        return False
    rest = decoded[len(prefix) :]
    return rest.rstrip("/") == "logout" or (rest.startswith("voila/templates/") and not _TEMPLATE_FILE.fullmatch(rest))


class OddPath(Matcher):
    """Matches a request whose path :func:`is_odd_path` finds odd."""

    def __init__(self, root: str = "/") -> None:
        self.root = root

    def match(self, request: HTTPServerRequest) -> dict[str, Any] | None:
        return {} if is_odd_path(request.path, self.root) else None


class NotFoundHandler(RequestHandler):
    """A plain 404, whatever the method."""

    def prepare(self) -> None:
        raise HTTPError(404)


class ClassroomVoila(Voila):  # type: ignore[misc]  # Voilà ships no types
    """Voilà as ``tricklab serve`` runs it: :class:`ThemeGuard` on every request, at most
    ``ClassroomKernelManager.max_kernels`` kernels, pages beyond that refused, and an odd path
    (:func:`is_odd_path`) not found."""

    def initialize(self, argv: list[str] | None = None) -> None:
        super().initialize(argv)
        configuration = self.voila_configuration
        if not issubclass(configuration.multi_kernel_manager_class, ClassroomKernelManager):
            configuration.multi_kernel_manager_class = ClassroomKernelManager
        configuration.allow_template_override = "NO"
        configuration.allow_theme_override = "YES"  # checked by ThemeGuard, installed before any handler

    def setup_template_dirs(self) -> None:
        """Voilà's template folders, with tricklab's template (the apps' loading screen) chosen."""
        find_template()
        self.voila_configuration.template = TEMPLATE
        super().setup_template_dirs()

    def init_handlers(self) -> list[Any]:
        self.app.add_transform(ThemeGuard)
        handlers: list[Any] = super().init_handlers()
        self.log.info("At most %d kernels at once, the preheated pool included", self.kernel_manager.max_kernels)
        voila_page = TornadoVoilaHandler
        pages = [(rule[0], ClassroomVoilaHandler, *rule[2:]) if rule[1] is voila_page else rule for rule in handlers]
        # the identity provider's pages come unprefixed: as a JupyterHub service (hub_service_arguments)
        # the hub sends its login back to <prefix>oauth_callback
        pages = [
            (url_path_join(self.server_url, rule[0]), *rule[1:])
            if isinstance(rule, tuple) and rule[0] == "/oauth_callback"
            else rule
            for rule in pages
        ]
        return [Rule(OddPath(self.server_url), NotFoundHandler), *pages]


if __name__ == "__main__":  # python -m tricklab.serve: what tricklab serve runs
    from tricklab.serve import ClassroomVoila as _Voila  # the module's own classes, not __main__'s

    _Voila.launch_instance()
