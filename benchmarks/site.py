"""The static site against ``tricklab serve``: each app's first card, side by side in the same run.

Builds the site (``tricklab site build``, or takes ``--site DIR`` already built), serves it with
``tricklab site serve``'s server, and starts ``tricklab serve`` on ``voila_apps/`` as it runs for
a class (its preheated kernels included). Debian's Chromium, driven by Playwright, then opens
each app in turn on both, round robin, every request that is not to 127.0.0.1 sent to a dead
proxy:

- Voilà, first visit: a new browser context (cold HTTP cache); the page takes a preheated
  kernel, as every visitor of ``tricklab serve`` does while the pool lasts;
- Voilà, fresh kernel: the same with ``theme=dark``, which Voilà never takes from the pool;
- site, first visit: a new browser context, so Pyodide and every wheel come over the network;
- site, second visit: the same context opens the page again (the browser's cache, and its
  cache of compiled WebAssembly).

A first card is the first frame in which the app's first element (a card, a pit, the gallery,
a rulebook) is visible, from the navigation's start, measured in the page (as in
``voila_apps.py``). The server and kernels are left to settle before each Voilà load. On
loopback the network costs nothing; ``--mbit 20`` gives each page a school's network
(Chromium's own throttling), where a first visit pays for what it downloads.

Prints figures; asserts nothing. Needs Debian's Chromium at /usr/bin/chromium, and npm for
the site's build. Usage: python benchmarks/site.py [--loads 3] [--site DIR]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from voila_apps import (
    AWAIT_SEEN_JS,
    CHROMIUM,
    WATCH_JS,
    Errors,
    launch_chromium,
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
MODES = ("Voilà, first visit", "Voilà, fresh kernel", "site, first visit", "site, second visit")


def out(*values: object) -> None:
    print(*values, flush=True)


def first_card(page: Any) -> float:
    """Seconds from the navigation's start to the first visible card of the page (NaN: none)."""
    try:
        result = page.evaluate(AWAIT_SEEN_JS, 240_000)
    except Exception as error:
        out(f"  no first card at {page.url}: {str(error).splitlines()[0]}")
        return float("nan")
    return float(min(result["seen"].values())) / 1000


def open_page(context: Any, errors: Errors, app: str, url: str, mbit: float = 0) -> Any:
    page = context.new_page()
    errors.watch(page, app)
    if mbit:  # a network such as a school's: ``mbit`` Mbit/s each way, 20 ms there and back
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        rate = mbit * 1e6 / 8
        conditions = {"offline": False, "latency": 20, "downloadThroughput": rate, "uploadThroughput": rate}
        cdp.send("Network.emulateNetworkConditions", conditions)
    page.goto(url, wait_until="commit", timeout=240_000)
    return page


def loaded_bytes(folder: Path, files: list[str]) -> tuple[int, int, int]:
    """What a first visit to an app page downloads: files, bytes as served, and gzip-compressed."""
    raw = packed = 0
    for name in files:
        data = (folder / name).read_bytes()
        raw += len(data)
        packed += len(gzip.compress(data, compresslevel=6))
    return len(files), raw, packed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--loads", type=int, default=3, help="loads per app and mode")
    parser.add_argument("--site", type=Path, help="a site already built (default: build one into a temporary folder)")
    parser.add_argument("--apps", default=",".join(PAGES), help="the apps to open, comma-separated")
    parser.add_argument("--mbit", type=float, default=0, help="the network's speed (default: loopback, unthrottled)")
    args = parser.parse_args()
    if not CHROMIUM.exists():
        raise SystemExit("Debian's Chromium is not installed at /usr/bin/chromium (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    apps = [app for app in args.apps.split(",") if app]
    with tempfile.TemporaryDirectory(prefix="tricklab-site-bench-") as tmp, socket.socket() as dead_proxy:
        folder = args.site
        if folder is None:
            folder = Path(tmp) / "site"
            started = time.monotonic()
            site.build(folder, APPS)
            out(f"site built in {time.monotonic() - started:.0f} s")
        out(f"site: {folder}, {site.site_size(folder) / 2**20:.1f} MiB in all")
        httpd = site.server(folder, port=0)
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        site_base = f"http://127.0.0.1:{httpd.server_address[1]}/voici/render"
        served: list[str] = []
        dead_proxy.bind(("127.0.0.1", 0))
        proxy = f"http://127.0.0.1:{dead_proxy.getsockname()[1]}"
        config = json.loads((APPS / "voila.json").read_text())
        errors = Errors()
        times: dict[tuple[str, str], list[float]] = {}
        with voila_server(APPS, Path(tmp) / "voila.log") as (voila_base, server), sync_playwright() as playwright:
            pool = pool_size(config, voila_flags(server))
            settle(server, pool * len(PAGES), timeout=120)
            chromium = launch_chromium(playwright, proxy)
            out(
                f"tricklab site benchmark: Chromium {chromium.version}, Python {platform.python_version()} here, "
                f"Pyodide {site.PYODIDE} in the page, {os.cpu_count()} cores; {args.loads} loads per app and mode"
            )
            network = f"{args.mbit:g} Mbit/s each way and 20 ms round trips" if args.mbit else "loopback, unthrottled"
            out(f"network: {network}")
            out(f"Voilà: tricklab serve --apps voila_apps/ ({' '.join(voila_flags(server))}; pool {pool} per app)\n")
            for _ in range(args.loads):
                for app in apps:
                    query, selector = PAGES[app]
                    watch = WATCH_JS % json.dumps({"first": selector})
                    for mode, url in (
                        (MODES[0], f"{voila_base}/voila/render/{app}.ipynb?{query}"),
                        (MODES[1], f"{voila_base}/voila/render/{app}.ipynb?{query}&theme=dark"),
                    ):
                        settle(server, pool * len(PAGES), timeout=120)
                        context = chromium.new_context(viewport={"width": 1280, "height": 1000})
                        context.add_init_script(watch)
                        page = open_page(context, errors, app, url, args.mbit)
                        times.setdefault((app, mode), []).append(first_card(page))
                        context.close()
                    context = chromium.new_context(viewport={"width": 1280, "height": 1000})
                    context.add_init_script(watch)
                    if not served:  # what the first page of the run loads
                        context.on("request", lambda request: served.append(request.url))
                    page = open_page(context, errors, app, f"{site_base}/{app}.html?{query}", args.mbit)
                    times.setdefault((app, MODES[2]), []).append(first_card(page))
                    page.close()
                    page = open_page(context, errors, app, f"{site_base}/{app}.html?{query}", args.mbit)
                    times.setdefault((app, MODES[3]), []).append(first_card(page))
                    context.close()
            chromium.close()
        httpd.shutdown()
        paths = {url.split("/", 3)[3].split("?")[0] for url in served if url.startswith("http://127.0.0.1")}
        downloads = loaded_bytes(folder, sorted(name for name in paths if (folder / name).is_file()))

    out("first card, seconds: median (slowest) of the loads; ratio: the site's first visit to Voilà's first visit")
    out(f"| app | {' | '.join(MODES)} | ratio |")
    out("|---|" + "---|" * (len(MODES) + 1))
    for app in apps:
        cells = [f"{statistics.median(times[app, m]):.1f} ({max(times[app, m]):.1f})" for m in MODES]
        ratio = statistics.median(times[app, MODES[2]]) / statistics.median(times[app, MODES[0]])
        out(f"| {app} | {' | '.join(cells)} | {ratio:.1f} |")
    count, raw, packed = downloads
    out(f"\na first visit loads {count} files: {raw / 2**20:.1f} MiB as served, {packed / 2**20:.1f} MiB gzipped")
    for app, found in errors.by_notebook.items():
        if found:
            out(f"errors in {app}: {found[:3]}")


if __name__ == "__main__":
    main()
