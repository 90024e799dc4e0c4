"""Serving the apps to a classroom: Voilà (or a JupyterHub user's server) with three fixes.

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

XSRF protection is left on: nothing here disables a check. And a link cannot pick another Voilà
template (``?template=...``): Voilà would start a kernel for it and then fail on a missing
template, leaving the page hanging; the apps need only the default one (``?theme=dark`` stays).

``tricklab serve`` (see :mod:`tricklab.__main__`) runs Voilà with :func:`voila_arguments`.
Under JupyterHub, where Voilà runs inside each user's Jupyter server and has no pool, the
same fixes are the JSON from :func:`jupyter_server_config` (``tricklab jupyter-config``),
saved in the user image as a Jupyter config file; the README's "Serving a classroom" says how.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection

#: seconds a disconnected kernel may stay idle before it is shut down
CULL_AFTER = 40
#: seconds between two checks of the culler
CULL_EVERY = 10
#: preheated kernels kept ready per app
POOL_SIZE = 1
#: under JupyterHub the same server also runs JupyterLab, whose users expect a notebook's kernel
#: to survive a closed tab for a while: cull later there
HUB_CULL_AFTER = 600
HUB_CULL_EVERY = 60

CONNECTION_CLASS = "tricklab.serve.NoDelayKernelConnection"


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


@dataclass(frozen=True)
class ServeOptions:
    """What ``tricklab serve`` can change besides the address."""

    pool_size: int = POOL_SIZE
    cull_after: int = CULL_AFTER
    cull_every: int = CULL_EVERY
    nodelay: bool = True

    def __post_init__(self) -> None:
        if not 0 <= self.pool_size <= 100:
            raise ValueError(f"the pool size is a number of kernels from 0 to 100, not {self.pool_size}")
        if self.cull_after < 1 or self.cull_every < 1:
            raise ValueError(f"culling needs whole seconds of at least 1, not {self.cull_after} and {self.cull_every}")


def voila_arguments(options: ServeOptions | None = None) -> list[str]:
    """Voilà command-line settings for the fixes (they override ``voila_apps/voila.json``)."""
    options = options or ServeOptions()
    return [
        # 1. TCP_NODELAY on every kernel websocket (leave it out to measure without it)
        *([f"--Voila.kernel_websocket_connection_class={CONNECTION_CLASS}"] if options.nodelay else []),
        # 2. cull kernels without a connection; never those of open pages
        f"--MappingKernelManager.cull_idle_timeout={options.cull_after}",
        f"--MappingKernelManager.cull_interval={options.cull_every}",
        "--MappingKernelManager.cull_connected=False",
        # 3. the preheated pool, per app
        f"--VoilaConfiguration.preheat_kernel={options.pool_size > 0}",
        f"--VoilaConfiguration.default_pool_size={options.pool_size}",
        # a link chooses the theme, not the template
        "--VoilaConfiguration.allow_template_override=NO",
    ]


def jupyter_server_config(*, cull_after: int = HUB_CULL_AFTER, cull_every: int = HUB_CULL_EVERY) -> dict[str, Any]:
    """A ``jupyter_server_config.json`` for each user's server under JupyterHub.

    It sets TCP_NODELAY on kernel websockets, culls kernels of closed pages after ``cull_after``
    seconds (connected ones never), and gives Voilà's apps the settings of ``tricklab serve``
    (no tracebacks shown, ``?theme=dark`` allowed, no ``?template=``).
    """
    ServeOptions(cull_after=cull_after, cull_every=cull_every)  # checks the numbers
    return {
        "ServerApp": {"kernel_websocket_connection_class": CONNECTION_CLASS},
        "MappingKernelManager": {
            "cull_idle_timeout": cull_after,
            "cull_interval": cull_every,
            "cull_connected": False,
        },
        "VoilaConfiguration": {
            "show_tracebacks": False,
            "allow_theme_override": "YES",
            "allow_template_override": "NO",
        },
    }
