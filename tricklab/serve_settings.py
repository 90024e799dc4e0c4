"""What ``tricklab serve`` and ``tricklab jupyter-config`` set, without importing Voilà.

The numbers and command-line settings of the classroom fixes live here, so that the command line
(``tricklab --help``, ``tricklab jupyter-config``) works in an install without the ``apps`` extra;
:mod:`tricklab.serve` holds the server classes that use them.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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

#: the values a link may give ``theme``
LINK_THEMES = (b"light", b"dark")
#: resident memory of one app's kernel, MiB: 57 to 63 measured here for each of the seven apps with
#: its page open in Chromium (41 to 46 MiB of it the kernel's own, the rest shared libraries)
KERNEL_MIB = 62
#: the default ``max_kernels`` stays within these bounds, whatever the machine's memory
MIN_KERNELS = 10
MAX_KERNELS = 500
#: the default when the machine's memory cannot be read
FALLBACK_KERNELS = 30


def machine_memory() -> int | None:
    """Bytes of memory this process may use: the machine's, or its container's limit if lower."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, OSError, ValueError):  # not a POSIX system
        return None
    for limit in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            text = Path(limit).read_text().strip()
        except OSError:
            continue
        if text.isdigit():
            total = min(total, int(text))
    return total if total > 0 else None


def default_max_kernels(memory: int | None = None) -> int:
    """Half of ``memory`` (default: this machine's) at :data:`KERNEL_MIB` MiB a kernel, bounded."""
    memory = machine_memory() if memory is None else memory
    if memory is None:
        return FALLBACK_KERNELS
    return max(MIN_KERNELS, min(MAX_KERNELS, memory // 2 // (KERNEL_MIB * 2**20)))


def pooled_kernels(apps: Path, pool_size: int) -> int:
    """How many kernels Voilà's preheated pool keeps for the notebooks under ``apps``."""
    notebooks = [path for path in apps.rglob("*.ipynb") if ".ipynb_checkpoints" not in path.parts]
    return pool_size * len(notebooks)


# --- what tricklab serve and tricklab jupyter-config pass on ------------------------------------


@dataclass(frozen=True)
class ServeOptions:
    """What ``tricklab serve`` can change besides the address."""

    pool_size: int = POOL_SIZE
    cull_after: int = CULL_AFTER
    cull_every: int = CULL_EVERY
    nodelay: bool = True
    max_kernels: int = field(default_factory=default_max_kernels)

    def __post_init__(self) -> None:
        if not 0 <= self.pool_size <= 100:
            raise ValueError(f"the pool size is a number of kernels from 0 to 100, not {self.pool_size}")
        if self.cull_after < 1 or self.cull_every < 1:
            raise ValueError(f"culling needs whole seconds of at least 1, not {self.cull_after} and {self.cull_every}")
        if not 1 <= self.max_kernels <= 10_000:
            raise ValueError(f"the most kernels at once is a number from 1 to 10000, not {self.max_kernels}")


#: the identity provider of a page of ``tricklab serve`` run as a JupyterHub service: the hub's login
HUB_IDENTITY = "jupyterhub.singleuser.extension.JupyterHubIdentityProvider"


def hub_service_arguments(environ: Mapping[str, str] | None = None) -> list[str]:
    """Voilà settings for ``tricklab serve`` run as a JupyterHub service (the hub sets
    ``$JUPYTERHUB_SERVICE_PREFIX`` for it): its pages under the service's prefix, each page opened
    only by a user the hub logs in (OAuth, as a user's own server does). None elsewhere."""
    prefix = (os.environ if environ is None else environ).get("JUPYTERHUB_SERVICE_PREFIX", "")
    if not prefix:
        return []
    return [f"--Voila.base_url={prefix}", f"--Voila.identity_provider_class={HUB_IDENTITY}"]


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
        # 5. at most this many kernels (ClassroomVoila uses ClassroomKernelManager and ThemeGuard)
        f"--ClassroomKernelManager.max_kernels={options.max_kernels}",
        # 4. a link chooses the theme (checked: light or dark), not the template
        "--VoilaConfiguration.allow_template_override=NO",
        # 6. the port asked for or none: never a quiet move to the next one (the address printed holds)
        "--Voila.port_retries=0",
        # 7. kernels reached over Unix sockets beside their connection files, not loopback TCP ports:
        # a TCP port is picked free and bound by the kernel later, and any other process's connection
        # can take it in between (the kernel dies with "Address already in use")
        "--KernelManager.transport=ipc",
    ]


def jupyter_server_config(*, cull_after: int = HUB_CULL_AFTER, cull_every: int = HUB_CULL_EVERY) -> dict[str, Any]:
    """A ``jupyter_server_config.json`` for each user's server under JupyterHub.

    It sets TCP_NODELAY on kernel websockets, culls kernels of closed pages after ``cull_after``
    seconds (connected ones never), enables this module as a server extension (:class:`ThemeGuard`)
    and gives Voilà's apps the settings of ``tricklab serve``: no tracebacks shown, no
    ``?template=``, and ``?theme=`` off here, turned on (light or dark only) by the extension once
    its guard is in place, so a server without it never takes a theme from a link.
    """
    ServeOptions(cull_after=cull_after, cull_every=cull_every, max_kernels=1)  # checks the numbers
    return {
        "ServerApp": {
            "kernel_websocket_connection_class": CONNECTION_CLASS,
            "jpserver_extensions": {"tricklab.serve": True},
        },
        "MappingKernelManager": {
            "cull_idle_timeout": cull_after,
            "cull_interval": cull_every,
            "cull_connected": False,
        },
        "VoilaConfiguration": {
            "show_tracebacks": False,
            "allow_theme_override": "NO",
            "allow_template_override": "NO",
        },
    }
