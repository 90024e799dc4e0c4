"""What a class meets: the static site against ``tricklab serve``, each app's first card, side by side in one run.

Builds the site (``tricklab site build``, or takes ``--site DIR`` already built), serves it with
``tricklab site serve``'s server (compressed, with caching headers, as a real host), and starts
``tricklab serve`` on ``voila_apps/`` as it runs for a class (its preheated kernels included).
Both are reached through a relay of this script's own (:class:`Link`), so everything a page
and its workers fetch goes over the same link and is counted: on loopback as it is, or, with
``--mbit 10 --rtt 40``, a school's network (10 Mbit/s each way shared by every connection,
40 ms round trips), which throttles Python's Web Worker in the site too (Chromium's own
throttling does not).

Each app is opened in turn on both, round robin, by Debian's Chromium driven by Playwright, in
a browser profile of its own on disk, every request that is not to 127.0.0.1 sent to a dead
proxy:

- first visit: a new profile (nothing cached); for Voilà the page takes a preheated kernel, as
  every visitor of ``tricklab serve`` does while the pool lasts. The site's page then prepares
  an interpreter for the next visit while the learner reads; the run waits for it as a
  learner would stay on the page;
- second visit: Chromium is closed and opened again on the same profile (its disk cache, and
  the site's prepared interpreter), and the same link opened again.

A first card is the first frame in which the app's first element (a card, a pit, the gallery,
a rulebook) is visible, from the navigation's start, measured in the page. Bytes are those the
link carried to the browser for the whole visit, the site's preparing of the next one included
(compressed as served, headers included).

Prints figures; asserts nothing. Needs Debian's Chromium at /usr/bin/chromium, and npm for
the site's build. Usage: python benchmarks/site.py [--loads 3] [--site DIR] [--mbit 10 --rtt 40]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any

from voila_apps import (
    AWAIT_SEEN_JS,
    CHROMIUM,
    WATCH_JS,
    Errors,
    chromium_args,
    pool_size,
    settle,
    voila_flags,
    voila_server,
)

ROOT = Path(__file__).resolve().parent.parent
APPS = ROOT / "voila_apps"
sys.path.insert(0, str(ROOT))

from tricklab import site  # noqa: E402

CARD = ".tricklab-board .tl-card"
#: app -> (query, what its first card is)
PAGES = {
    "index": ("", ".tricklab-gallery"),
    "explain_trick": ("game=tricks-and-stones&players=4", CARD),
    "replay": ("game=tricks-and-stones&players=4&seed=7", CARD),
    "play": ("game=tricks-and-stones&players=4&seed=1", CARD),
    "quiz": ("game=tricks-and-stones&players=4&seed=1", CARD),
    "bid_trainer": ("game=tricks-and-stones&players=4&seed=12", CARD),
    "rulebooks": ("", "table.tl-rulebook"),
}
MIB = 2**20


def out(*values: object) -> None:
    print(*values, flush=True)


class Link:
    """A TCP relay from a loopback port to ``target``: every byte both ways, held back to ``mbit``
    Mbit/s (each way, shared by all connections, as one home or school line) and delayed by half
    of ``rtt`` milliseconds each way; ``mbit=0`` for no limit. ``received`` counts the bytes
    carried towards the browser."""

    def __init__(self, target: int, mbit: float = 0, rtt: float = 0) -> None:
        self.target = target
        self.rate = mbit * 1e6 / 8 if mbit else 0.0
        self.delay = rtt / 2000
        self.received = 0
        self.lock = threading.Lock()
        self.free_at = {"down": 0.0, "up": 0.0}  # when each direction's line is free again
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.target))
            for sock in (client, upstream):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            threading.Thread(target=self._pump, args=(upstream, client, "down"), daemon=True).start()
            threading.Thread(target=self._pump, args=(client, upstream, "up"), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, way: str) -> None:
        """Read from ``source`` and write to ``sink`` when the line has carried it (a second thread
        writes, so reading goes on while a chunk waits)."""
        chunks: deque[tuple[float, bytes]] = deque()
        ready = threading.Condition()
        done = False

        def write() -> None:
            while True:
                with ready:
                    while not chunks and not done:
                        ready.wait()
                    if not chunks:
                        break
                    due, data = chunks.popleft()
                wait = due - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
                try:
                    sink.sendall(data)
                except OSError:
                    break
            with contextlib.suppress(OSError):
                sink.shutdown(socket.SHUT_WR)

        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        while True:
            try:
                data = source.recv(16384)
            except OSError:
                data = b""
            if not data:
                break
            now = time.monotonic()
            with self.lock:
                start = max(now, self.free_at[way])
                self.free_at[way] = start + (len(data) / self.rate if self.rate else 0)
                due = self.free_at[way] + self.delay
                if way == "down":
                    self.received += len(data)
            with ready:
                chunks.append((due, data))
                ready.notify()
        with ready:
            done = True
            ready.notify()
        writer.join()
        source.close()

    def close(self) -> None:
        self.server.close()


def first_card(page: Any) -> float:
    """Seconds from the navigation's start to the first visible card of the page (NaN: none)."""
    try:
        result = page.evaluate(AWAIT_SEEN_JS, 240_000)
    except Exception as error:
        out(f"  no first card at {page.url}: {str(error).splitlines()[0]}")
        return float("nan")
    return float(min(result["seen"].values())) / 1000


def browser(playwright: Any, profile: Path, proxy: str) -> Any:
    """Chromium on the on-disk ``profile``, every request not to 127.0.0.1 sent to ``proxy`` (a dead one)."""
    return playwright.chromium.launch_persistent_context(
        str(profile),
        executable_path=str(CHROMIUM),
        viewport={"width": 1280, "height": 1000},
        args=chromium_args(proxy),
    )


def visit(
    playwright: Any, profile: Path, proxy: str, link: Link, url: str, selector: str, errors: Errors, app: str
) -> tuple[float, int]:
    """Open ``url`` in Chromium on ``profile``: the first card's seconds and the bytes the link carried.
    A site page that prepares an interpreter for the next visit is left to finish it first."""
    context = browser(playwright, profile, proxy)
    try:
        context.add_init_script(WATCH_JS % json.dumps({"first": selector}))
        page = context.new_page()
        errors.watch(page, app)
        before = link.received
        page.goto(url, wait_until="commit", timeout=240_000)
        seconds = first_card(page)
        if "/voici/" in url:
            page.wait_for_function(
                "window.tricklabStart && (window.tricklabStart.restored || window.tricklabPrepared !== undefined)",
                timeout=240_000,
            )
        else:
            page.wait_for_timeout(500)
        return seconds, link.received - before
    finally:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--loads", type=int, default=3, help="loads per app and mode")
    parser.add_argument("--site", type=Path, help="a site already built (default: build one into a temporary folder)")
    parser.add_argument("--apps", default=",".join(PAGES), help="the apps to open, comma-separated")
    parser.add_argument("--mbit", type=float, default=0, help="the link's speed each way (default: no limit)")
    parser.add_argument("--rtt", type=float, default=0, help="the link's round trip in milliseconds (default: 0)")
    args = parser.parse_args()
    if not CHROMIUM.exists():
        raise SystemExit("Debian's Chromium is not installed at /usr/bin/chromium (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    apps = [app for app in args.apps.split(",") if app]
    modes = ("Voilà, first", "Voilà, second", "site, first", "site, second")
    times: dict[tuple[str, str], list[float]] = {}
    carried: dict[tuple[str, str], list[int]] = {}
    with tempfile.TemporaryDirectory(prefix="tricklab-site-bench-") as tmp, socket.socket() as dead_proxy:
        folder = args.site
        if folder is None:
            folder = Path(tmp) / "site"
            started = time.monotonic()
            site.build(folder, APPS)
            out(f"site built in {time.monotonic() - started:.0f} s")
        out(f"site: {folder}, {site.site_size(folder) / MIB:.1f} MiB in all (besides its compressed copies)")
        httpd = site.server(folder, port=0)
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        site_link = Link(httpd.server_address[1], args.mbit, args.rtt)
        dead_proxy.bind(("127.0.0.1", 0))
        proxy = f"http://127.0.0.1:{dead_proxy.getsockname()[1]}"
        config = json.loads((APPS / "voila.json").read_text())
        errors = Errors()
        with voila_server(APPS, Path(tmp) / "voila.log") as (voila_base, server), sync_playwright() as playwright:
            voila_link = Link(int(voila_base.rsplit(":", 1)[1]), args.mbit, args.rtt)
            pool = pool_size(config, voila_flags(server))
            settle(server, pool * len(PAGES), timeout=120)
            version = playwright.chromium.launch(executable_path=str(CHROMIUM))
            out(
                f"tricklab site benchmark: Chromium {version.version}, Python {platform.python_version()} here, "
                f"Pyodide {site.PYODIDE} in the page, {os.cpu_count()} cores; {args.loads} loads per app and mode"
            )
            version.close()
            network = f"{args.mbit:g} Mbit/s each way, {args.rtt:g} ms round trips" if args.mbit else "loopback"
            out(f"link: {network}; Voilà: tricklab serve (pool {pool} per app)\n")
            for load in range(args.loads):
                for app in apps:
                    query, selector = PAGES[app]
                    for name, link, path in (
                        ("Voilà", voila_link, f"voila/render/{app}.ipynb?{query}"),
                        ("site", site_link, f"voici/render/{app}.html?{query}"),
                    ):
                        profile = Path(tmp) / f"profile-{name}-{app}-{load}"
                        url = f"http://127.0.0.1:{link.port}/{path}"
                        for which in ("first", "second"):
                            if name == "Voilà":
                                settle(server, pool * len(PAGES), timeout=120)
                            seconds, got = visit(playwright, profile, proxy, link, url, selector, errors, app)
                            times.setdefault((app, f"{name}, {which}"), []).append(seconds)
                            carried.setdefault((app, f"{name}, {which}"), []).append(got)
            voila_link.close()
        site_link.close()
        httpd.shutdown()

    out("first card, seconds: median (slowest) of the loads; ratios: the site's to Voilà's, first and second visits")
    out(f"| app | {' | '.join(modes)} | site ÷ Voilà, first | site ÷ Voilà, second |")
    out("|---|" + "---|" * (len(modes) + 2))
    for app in apps:
        cells = [f"{statistics.median(times[app, m]):.1f} ({max(times[app, m]):.1f})" for m in modes]
        first = statistics.median(times[app, modes[2]]) / statistics.median(times[app, modes[0]])
        second = statistics.median(times[app, modes[3]]) / statistics.median(times[app, modes[1]])
        out(f"| {app} | {' | '.join(cells)} | {first:.2f} | {second:.2f} |")
    out("\nbytes the link carried to the browser, MiB: median of the loads (compressed as served)")
    out(f"| app | {' | '.join(modes)} |")
    out("|---|" + "---|" * len(modes))
    for app in apps:
        cells = [f"{statistics.median(carried[app, m]) / MIB:.2f}" for m in modes]
        out(f"| {app} | {' | '.join(cells)} |")
    for app, found in errors.by_notebook.items():
        if found:
            out(f"errors in {app}: {found[:3]}")


if __name__ == "__main__":
    main()
