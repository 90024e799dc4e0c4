"""Voilà apps: first visible card, click-to-update latency and kernel memory, each side by side
with a trivial ipywidgets + anywidget notebook served by the same Voilà server in the same run.

One server (``tricklab serve``, with the checked-in ``voila_apps/voila.json``) serves a
temporary folder holding copies of ``explain_trick.ipynb``, ``replay.ipynb`` and the
``voila.json``, plus a trivial notebook written here. Debian's Chromium, driven by Playwright,
loads each page in a fresh browser context (cold HTTP cache, a new kernel per load); every
request that is not to 127.0.0.1 goes to a dead proxy, so nothing outside this machine takes
part (Voilà's template asks a CDN for Font Awesome).

The server runs as ``tricklab serve`` runs it: ``voila.json`` plus the settings the command
adds, both printed. That configuration preheats a pool of kernels per notebook, so page loads
are measured twice: with the pooled kernel and with a fresh kernel (``?theme=dark``: Voilà uses
a pooled kernel only when the requested theme matches the pre-rendered one).
Times are taken in the page: from navigation start to the first frame in which a card (the
trivial notebook: a widget) is visible, and from an in-page ``element.click()`` to the DOM
mutation that shows the update, so Playwright's own overhead is not counted.

Prints figures; asserts nothing. Needs Debian's Chromium at /usr/bin/chromium.

Usage: python benchmarks/voila_apps.py [--loads 5] [--clicks 30] [--game tricks-and-stones]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parent.parent
APPS = ROOT / "voila_apps"
CHROMIUM = Path("/usr/bin/chromium")
TRIVIAL = "trivial"
MIB = 2**20

TRIVIAL_SOURCE = '''\
import anywidget
import ipywidgets as w
import traitlets


class Hello(anywidget.AnyWidget):
    _esm = """
    function render({ model, el }) {
      const div = document.createElement("div");
      div.className = "bench-any";
      const draw = () => { div.textContent = `anywidget ${model.get("value")}`; };
      model.on("change:value", draw);
      draw();
      el.appendChild(div);
    }
    export default { render };
    """
    value = traitlets.Int(0).tag(sync=True)


label = w.HTML(value="clicked 0 times")
label.add_class("bench-label")
button = w.Button(description="Click me")
button.add_class("bench-button")
clicks = 0


def on_click(_):
    global clicks
    clicks += 1
    label.value = f"clicked {clicks} times"


button.on_click(on_click)
w.VBox([button, label, Hello()])
'''

# Installed in every new document: once per frame, note when each selector first matches a
# visible element. ``window.__benchSeen`` resolves when all have been seen.
WATCH_JS = """
(() => {
  const wanted = %s;
  const seen = {};
  let finish;
  window.__benchSeen = new Promise((resolve) => { finish = resolve; });
  const visible = (el) => {
    if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return false;
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  };
  const tick = () => {
    for (const [name, selector] of Object.entries(wanted)) {
      if (name in seen) continue;
      for (const el of document.querySelectorAll(selector)) {
        if (visible(el)) { seen[name] = performance.now(); break; }
      }
    }
    if (Object.keys(seen).length === Object.keys(wanted).length) finish(seen);
    else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();
"""

AWAIT_SEEN_JS = """
async (timeout) => {
  const seen = await Promise.race([
    window.__benchSeen,
    new Promise((_, reject) => setTimeout(() => reject(new Error("nothing visible in time")), timeout)),
  ]);
  const nav = performance.getEntriesByType("navigation")[0];
  return { seen, responseStart: nav.responseStart, responseEnd: nav.responseEnd };
}
"""

# Run in a fresh interpreter: seconds, RSS and Voilà modules loaded after each step an app's kernel takes.
KERNEL_SIDE = """
import json, os, sys, time
import psutil

# the environment Voilà gives a kernel it starts for a page (no pool)
os.environ.update({"VOILA_KERNEL_ID": "benchmark", "VOILA_PREHEAT": "False", "QUERY_STRING": sys.argv[1]})
process = psutil.Process()
marks = []


def mark(name, start):
    voila = sum(1 for m in sys.modules if m == "voila" or m.startswith("voila."))
    marks.append([name, time.perf_counter() - start, process.memory_info().rss, voila])


start = time.perf_counter()
import ipykernel.kernelapp
mark("ipykernel", start)
start = time.perf_counter()
import anywidget, ipywidgets
mark("import ipywidgets, anywidget", start)
start = time.perf_counter()
from tricklab.widgets.apps import explain_trick_app, replay_app
mark("import tricklab.widgets.apps", start)
start = time.perf_counter()
explain_trick_app()
mark("explain_trick_app()", start)
start = time.perf_counter()
replay_app()
mark("replay_app()", start)
print(json.dumps(marks))
"""

# Installed in the pages that are clicked: note the arrival time of every websocket frame.
FRAMES_JS = """
(() => {
  const frames = (window.__benchFrames = []);
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", () => frames.push(performance.now()));
    }
  };
})();
"""

# In-page clicks: element.click(), then a MutationObserver until the watched value changes. Per
# click: the time to the update, to the first and to the last websocket frame received before
# it, and the number of frames received until the next click.
CLICK_JS = """
async ([buttonText, targetSelector, attribute, count, gap]) => {
  const button = [...document.querySelectorAll("button.widget-button")]
    .find((b) => b.textContent.trim() === buttonText);
  const target = document.querySelector(targetSelector);
  if (!button || !target) throw new Error(`no button ${buttonText} or no ${targetSelector}`);
  const read = () => (attribute ? target.getAttribute(attribute) : target.textContent);
  const frames = window.__benchFrames || [];
  const clicks = [];
  for (let i = 0; i < count; i++) {
    const before = read();
    frames.length = 0;
    const [start, end] = await new Promise((resolve, reject) => {
      let start = 0;
      const timer = setTimeout(() => { observer.disconnect(); reject(new Error("no update within 10 s")); }, 10000);
      const observer = new MutationObserver(() => {
        if (read() === before) return;
        const end = performance.now();
        observer.disconnect();
        clearTimeout(timer);
        resolve([start, end]);
      });
      observer.observe(target, { attributes: true, childList: true, subtree: true, characterData: true });
      start = performance.now();
      button.click();
    });
    await new Promise((resolve) => setTimeout(resolve, gap));
    const before_update = frames.filter((t) => t <= end).map((t) => t - start);
    clicks.push({
      update: end - start,
      first: before_update.length ? before_update[0] : null,
      last: before_update.length ? before_update[before_update.length - 1] : null,
      frames: frames.length,
    });
  }
  return clicks;
}
"""


@dataclass
class Notebook:
    name: str
    query: str
    visible: dict[str, str]  # name -> CSS selector watched for its first visible element

    def url(self, base: str, *, fresh_kernel: bool) -> str:
        query = "&".join(q for q in (self.query, "theme=dark" if fresh_kernel else "") if q)
        return f"{base}/voila/render/{self.name}.ipynb" + (f"?{query}" if query else "")


@dataclass
class Load:
    response_end: float
    first: float
    last: float
    kernel_rss: float  # bytes, when the page shows its first card


@dataclass
class Errors:
    """JavaScript errors per notebook; failed loads of blocked (non-loopback) URLs are counted apart."""

    by_notebook: dict[str, list[str]] = field(default_factory=dict)
    blocked: set[str] = field(default_factory=set)

    def watch(self, page: Any, name: str) -> None:
        errors = self.by_notebook.setdefault(name, [])

        def on_console(msg: Any) -> None:
            if msg.type == "error":
                where = (msg.location or {}).get("url", "")
                if not (where and not is_loopback(where) and "net::ERR_" in msg.text):
                    errors.append(f"console: {msg.text[:300]}")

        def on_request(request: Any) -> None:
            if not is_loopback(request.url):
                self.blocked.add(request.url)

        page.on("pageerror", lambda exc: errors.append(f"uncaught: {str(exc)[:300]}"))
        page.on("console", on_console)
        page.on("request", on_request)


def chromium_args(proxy: str) -> list[str]:
    """Chromium's flags for a benchmark: headless and quiet, every request that is not to
    127.0.0.1 sent to ``proxy`` (a dead one: such requests fail at once)."""
    return [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        f"--proxy-server={proxy}",
        "--proxy-bypass-list=<-loopback>;127.0.0.1",
    ]


def launch_chromium(playwright: Any, proxy: str) -> Any:
    """Debian's Chromium, headless, with :func:`chromium_args`."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=chromium_args(proxy))


def is_loopback(url: str) -> bool:
    return url.startswith(("http://127.0.0.1:", "ws://127.0.0.1:", "data:", "blob:", "about:"))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def write_apps(folder: Path) -> None:
    import nbformat

    for name in ("explain_trick.ipynb", "replay.ipynb", "voila.json"):
        shutil.copy(APPS / name, folder / name)
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    notebook.cells.append(nbformat.v4.new_code_cell(TRIVIAL_SOURCE))
    nbformat.write(notebook, folder / f"{TRIVIAL}.ipynb")


@contextmanager
def voila_server(folder: Path, log_path: Path) -> Iterator[tuple[str, psutil.Process]]:
    """``tricklab serve`` on a free loopback port, serving ``folder``; stopped afterwards."""
    port = free_port()
    command = [sys.executable, "-m", "tricklab", "serve", "--port", str(port), "--apps", str(folder)]
    url = f"http://127.0.0.1:{port}"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            command, cwd=folder, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"}
        )
    server = psutil.Process(proc.pid)
    kernels_seen: set[psutil.Process] = set()
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(url + "/", timeout=2):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    tail = log_path.read_text(errors="replace")[-3000:]
                    raise RuntimeError(f"Voilà did not start:\n{tail}") from None
                time.sleep(0.25)
        yield url, server
    finally:
        kernels_seen.update(kernels(server))
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        for kernel in kernels_seen:  # Voilà shuts its kernels down on SIGTERM; make sure
            with suppress(psutil.NoSuchProcess):
                kernel.kill()


def voila_flags(server: psutil.Process) -> list[str]:
    """The settings on the Voilà command line besides the address (``tricklab serve`` adds some)."""
    skip = ("--port=", "--Voila.ip=", "--no-browser")
    return [arg for arg in server.cmdline() if arg.startswith("--") and not arg.startswith(skip)]


def pool_size(config: dict[str, Any], flags: list[str]) -> int:
    """Preheated kernels per notebook: the command line's settings over ``voila.json``'s."""
    settings = dict(config.get("VoilaConfiguration", {}))
    for flag in flags:
        key, _, value = flag.removeprefix("--").partition("=")
        if key in ("VoilaConfiguration.preheat_kernel", "VoilaConfiguration.default_pool_size"):
            settings[key.split(".")[1]] = value.lower() == "true" if key.endswith("kernel") else int(value)
    return int(settings.get("default_pool_size", 1)) if settings.get("preheat_kernel") else 0


def kernels(server: psutil.Process) -> list[psutil.Process]:
    """The live ipykernel processes started by the server."""
    found = []
    try:
        children = server.children()
    except psutil.NoSuchProcess:
        return []
    for child in children:
        try:
            if child.status() != psutil.STATUS_ZOMBIE and "ipykernel_launcher" in " ".join(child.cmdline()):
                found.append(child)
        except psutil.NoSuchProcess:
            pass
    return found


def kernel_process(server: psutil.Process, kernel_id: str) -> psutil.Process | None:
    for kernel in kernels(server):
        try:
            if any(f"kernel-{kernel_id}.json" in part for part in kernel.cmdline()):
                return kernel
        except psutil.NoSuchProcess:
            pass
    return None


def cpu_seconds(procs: list[psutil.Process]) -> float:
    total = 0.0
    for proc in procs:
        try:
            times = proc.cpu_times()
            total += times.user + times.system
        except psutil.NoSuchProcess:
            pass
    return total


def settle(server: psutil.Process, want_kernels: int, *, timeout: float = 60, window: float = 0.5) -> None:
    """Wait until the server has ``want_kernels`` kernels (the pool refilled) and it and its kernels
    together have used less than 8 % of a core for ``window`` seconds (idle, they use 2 to 3 %; a
    kernel starting or running a notebook uses 30 % or more)."""
    deadline = time.monotonic() + timeout
    count, busy = 0, 1.0
    while time.monotonic() < deadline:
        procs = [server, *kernels(server)]
        before = cpu_seconds(procs)
        time.sleep(window)
        count, busy = len(procs) - 1, (cpu_seconds(procs) - before) / window
        if count >= want_kernels and busy < 0.08:
            return
    out(f"  (note: not settled after {timeout:.0f} s: {count} of {want_kernels} kernels, {busy:.0%} of a core)")


def shutdown_kernel(base: str, kernel_id: str) -> None:
    """Voilà 0.5.13 does not shut a closed page's kernel down (the page's request lacks the XSRF
    token, voila#1458); do it here so that kernels do not pile up during the run."""
    request = urllib.request.Request(
        f"{base}/voila/api/shutdown/{kernel_id}",
        method="POST",
        headers={"Cookie": "_xsrf=62656e6368", "X-XSRFToken": "62656e6368"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30):
            pass
    except urllib.error.URLError as exc:
        print(f"  (note: could not shut kernel {kernel_id} down: {exc})", flush=True)


class Browser:
    def __init__(self, chromium: Any, errors: Errors) -> None:
        self.chromium = chromium
        self.errors = errors

    def open(self, notebook: Notebook, url: str, *, frames: bool = False) -> tuple[Any, Any, list[str]]:
        """A page in a new context, navigated to ``url``; returns (context, page, kernel ids)."""
        context = self.chromium.new_context(viewport={"width": 1280, "height": 1000})
        context.add_init_script(WATCH_JS % json.dumps(notebook.visible))
        if frames:
            context.add_init_script(FRAMES_JS)
        page = context.new_page()
        self.errors.watch(page, notebook.name)
        kernel_ids: list[str] = []

        def on_websocket(ws: Any) -> None:
            found = re.search(r"/api/kernels/([0-9a-f-]{36})/channels", ws.url)
            if found:
                kernel_ids.append(found.group(1))

        page.on("websocket", on_websocket)
        page.goto(url, wait_until="commit", timeout=90_000)
        return context, page, kernel_ids


def page_kernel_ids(page: Any, from_websockets: list[str]) -> list[str]:
    """The kernel behind a page: from its websocket, else from the page's config."""
    if from_websockets:
        return list(dict.fromkeys(from_websockets))
    return re.findall(r'"kernelId": "([0-9a-f-]{36})"', page.content())[:1]


def measure_load(
    browser: Browser, base: str, server: psutil.Process, notebook: Notebook, *, fresh_kernel: bool
) -> tuple[Load, list[str]]:
    context, page, kernel_ids = browser.open(notebook, notebook.url(base, fresh_kernel=fresh_kernel))
    try:
        result = page.evaluate(AWAIT_SEEN_JS, 90_000)
        seen = result["seen"].values()
        ids = page_kernel_ids(page, kernel_ids)
        process = kernel_process(server, ids[0]) if ids else None
        rss = process.memory_info().rss if process else float("nan")
        return Load(result["responseEnd"], min(seen), max(seen), rss), ids
    finally:
        context.close()


def out(*values: object) -> None:
    print(*values, flush=True)


def median(values: list[float]) -> float:
    return statistics.median(values)


def spread(values: list[float]) -> str:
    if len(values) < 4:
        return f"{min(values):.0f} to {max(values):.0f}"
    q1, _, q3 = statistics.quantiles(values, n=4)
    return f"{q1:.0f} to {q3:.0f}"


def step_cost(game: str, steps: int) -> float:
    """Milliseconds per ``TrickStepper.go(step + 1)`` in this process: the Python side of a step."""
    from tricklab.widgets.stepper import TrickStepper

    stepper = TrickStepper(game=game, players=4, seed=7)
    times = []
    for _ in range(steps):
        start = time.perf_counter()
        stepper.go(stepper.step + 1)
        times.append((time.perf_counter() - start) * 1000)
    return median(times)


def log_errors(log: str) -> list[str]:
    """The exception line of each traceback (the last of a chain) and each ERROR line in Voilà's log."""
    lines = [line for line in log.splitlines() if line.strip()]
    found = []
    for i, line in enumerate(lines):
        if line.startswith("Traceback"):
            end = next((j for j in range(i + 1, len(lines)) if not lines[j].startswith((" ", "\t"))), None)
            chained = (
                end is not None and end + 1 < len(lines) and lines[end + 1].startswith(("During handling", "The above"))
            )
            if not chained:
                found.append(lines[end].strip() if end is not None else "?")
        elif "ERROR" in line:
            found.append(line.strip())
    return found


def kernel_side(cwd: Path, query: str, runs: int = 3) -> list[tuple[str, float, float, int]]:
    """What the apps cost a kernel beyond ipykernel, in fresh interpreters given the environment of
    a kernel Voilà starts for a page: (step, seconds, MiB added, Voilà modules loaded after it),
    medians of ``runs``."""
    seconds: dict[str, list[float]] = {}
    added: dict[str, list[float]] = {}
    voila: dict[str, int] = {}
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, "-c", KERNEL_SIDE, query], cwd=cwd, capture_output=True, text=True, check=True
        )
        for (_, _, before, _), (name, took, after, modules) in itertools.pairwise(json.loads(done.stdout)):
            seconds.setdefault(name, []).append(took)
            added.setdefault(name, []).append((after - before) / MIB)
            voila[name] = modules
    return [(name, median(seconds[name]), median(added[name]), voila[name]) for name in seconds]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--loads", type=int, default=5, help="fresh page loads per notebook and kernel mode")
    parser.add_argument("--clicks", type=int, default=30, help="timed clicks per notebook")
    parser.add_argument("--game", default="tricks-and-stones", help="game shown by both apps")
    parser.add_argument("--server-log", type=Path, help="save Voilà's log to this file")
    args = parser.parse_args()
    if not CHROMIUM.exists():
        raise SystemExit("Debian's Chromium is not installed at /usr/bin/chromium (apt-get install -y chromium)")

    import anywidget
    import ipywidgets
    import voila
    from playwright.sync_api import sync_playwright

    started = time.monotonic()
    query = f"game={args.game}&players=4"
    notebooks = [
        Notebook(TRIVIAL, "", {"button": ".bench-button", "label": ".bench-label", "anywidget": ".bench-any"}),
        Notebook("explain_trick", query, {"card": ".tricklab-board .tl-card"}),
        Notebook("replay", query + "&seed=7", {"card": ".tricklab-board .tl-card"}),
    ]
    config = json.loads((APPS / "voila.json").read_text())
    errors = Errors()

    with tempfile.TemporaryDirectory(prefix="tricklab-bench-") as tmp, socket.socket() as dead_proxy:
        folder = Path(tmp) / "apps"
        folder.mkdir()
        write_apps(folder)
        dead_proxy.bind(("127.0.0.1", 0))  # bound, never listening: connections are refused at once
        proxy = f"http://127.0.0.1:{dead_proxy.getsockname()[1]}"
        log_path = Path(tmp) / "voila.log"
        with voila_server(folder, log_path) as (base, server), sync_playwright() as playwright:
            settle(server, pool_size(config, voila_flags(server)) * len(notebooks), timeout=90)
            server_rss = {"start (pools filled)": server.memory_info().rss}
            chromium = launch_chromium(playwright, proxy)
            browser = Browser(chromium, errors)
            out(
                f"tricklab Voilà apps benchmark: Voilà {voila.__version__}, ipywidgets {ipywidgets.__version__}, "
                f"anywidget {anywidget.__version__}, Chromium {chromium.version}, "
                f"Python {platform.python_version()}, {os.cpu_count()} cores"
            )
            flags = voila_flags(server)
            pool = pool_size(config, flags)
            out(f"server: tricklab serve --apps <tmp>, voila_apps/voila.json as checked in: {json.dumps(config)}")
            out(
                f"        and the settings tricklab serve adds: {' '.join(flags) or 'none'} (pool: {pool} per notebook)"
            )
            out(
                f"apps: explain_trick?{notebooks[1].query}, replay?{notebooks[2].query}; "
                "trivial = ipywidgets Button + HTML + one anywidget"
            )
            out(
                "each load: a new browser context (cold HTTP cache) and a new kernel; the server and its kernels "
                "are idle (pool refilled) before each load; non-loopback requests are blocked\n"
            )

            # 1. page loads: pooled kernel (as checked in) and fresh kernel, round robin
            # mode -> (fresh kernel?, how the page gets its kernel)
            modes = {
                "pooled kernel": (False, "the page takes the preheated kernel, as configured"),
                "fresh kernel": (
                    True,
                    "?theme=dark: Voilà skips the pool when the theme differs from the pooled page's",
                ),
            }
            if not pool:
                modes = {"fresh kernel": (False, "no preheated pool is configured")}
            loads: dict[tuple[str, str], list[Load]] = {}
            phases = {"start": time.monotonic() - started}
            settle(server, pool * len(notebooks))
            warm_up, kernel_ids = measure_load(browser, base, server, notebooks[0], fresh_kernel=False)
            for kernel_id in kernel_ids:
                shutdown_kernel(base, kernel_id)
            for _ in range(args.loads):
                for mode, (fresh, _) in modes.items():
                    for notebook in notebooks:
                        settle(server, pool * len(notebooks))
                        load, kernel_ids = measure_load(browser, base, server, notebook, fresh_kernel=fresh)
                        loads.setdefault((mode, notebook.name), []).append(load)
                        for kernel_id in kernel_ids:
                            shutdown_kernel(base, kernel_id)
            server_rss[f"after {len(notebooks) * len(modes) * args.loads + 1} loads"] = server.memory_info().rss
            phases["loads"] = time.monotonic() - started - sum(phases.values())

            out(
                f"1. navigation start → first visible card (trivial: first visible widget), ms, "
                f"median of {args.loads} loads (interquartile range);"
                "\n   html = HTML fully received; kernel = the page's kernel RSS then, MiB"
            )
            for mode, (_, how) in modes.items():
                out(f"   {mode} ({how})")
                trivial = median([x.first for x in loads[(mode, TRIVIAL)]])
                for notebook in notebooks:
                    runs = loads[(mode, notebook.name)]
                    first = [x.first for x in runs]
                    html = median([x.response_end for x in runs])
                    rss = median([x.kernel_rss for x in runs]) / MIB
                    line = (
                        f"     {notebook.name:<14} html {html:6.0f}   kernel {rss:5.1f}   "
                        f"visible {median(first):6.0f} ({spread(first)})"
                    )
                    if notebook.name == TRIVIAL:
                        line += f"   all 3 widgets {median([x.last for x in runs]):6.0f}"
                    else:
                        line += f"   ratio to trivial {median(first) / trivial:4.2f}x (target ≤ 2x)"
                    out(line)
            out(f"   first load after the server started (trivial; not in the medians): {warm_up.first:.0f}")

            # 2. and 3. one open page per notebook (pooled kernel, as a user gets it): clicks and memory
            pages: dict[str, tuple[Any, Any, psutil.Process | None]] = {}
            for notebook in notebooks:
                settle(server, pool * len(notebooks) + len(pages))
                context, page, kernel_ids = browser.open(notebook, notebook.url(base, fresh_kernel=False), frames=True)
                page.evaluate(AWAIT_SEEN_JS, 90_000)
                ids = page_kernel_ids(page, kernel_ids)
                process = kernel_process(server, ids[0]) if ids else None
                pages[notebook.name] = (context, page, process)
            settle(server, pool * len(notebooks) + len(pages))
            rss_loaded = {name: proc.memory_info().rss if proc else 0 for name, (_, _, proc) in pages.items()}

            targets = {
                "replay": ("▶", ".tricklab-board", "data-step"),
                TRIVIAL: ("Click me", ".bench-label", None),
            }
            clicks: dict[str, list[dict[str, float]]] = {name: [] for name in targets}
            batch, gap = 10, 150
            for name, (text, target, attribute) in targets.items():  # warm-up clicks, not counted
                pages[name][1].evaluate(CLICK_JS, [text, target, attribute, 3, gap])
            while any(len(times) < args.clicks for times in clicks.values()):
                for name, (text, target, attribute) in targets.items():
                    count = min(batch, args.clicks - len(clicks[name]))
                    if count <= 0:
                        continue
                    page = pages[name][1]
                    if name == "replay":  # go back to the start before running off the end of the match
                        label = page.locator(".tricklab-board").get_attribute("aria-label") or ""
                        step, total = (int(x) for x in re.findall(r"step (\d+) of (\d+)", label)[0])
                        if step + count > total:
                            page.evaluate(CLICK_JS, ["|◀", target, attribute, 1, gap])
                    clicks[name] += page.evaluate(CLICK_JS, [text, target, attribute, count, gap])
            settle(server, pool * len(notebooks) + len(pages))
            phases["clicks"] = time.monotonic() - started - sum(phases.values())
            rss_clicked = {name: proc.memory_info().rss if proc else 0 for name, (_, _, proc) in pages.items()}

            out(
                f"\n2. click → DOM updated, in-page element.click() and a MutationObserver, ms, median of "
                f"{args.clicks} clicks (interquartile range), pooled-kernel pages, {gap} ms between clicks;"
                "\n   websocket frames: the first and the last received before the update, and all until the next click"
            )
            updates = {name: [c["update"] for c in found] for name, found in clicks.items()}
            for name, what in (("replay", "replay ▶ → board data-step"), (TRIVIAL, "trivial button → HTML label")):
                found = clicks[name]
                first = median([c["first"] for c in found if c["first"] is not None] or [float("nan")])
                last = median([c["last"] for c in found if c["last"] is not None] or [float("nan")])
                frames = median([c["frames"] for c in found])
                out(
                    f"     {what:<30} {median(updates[name]):6.1f} ({spread(updates[name])})   "
                    f"frames: first {first:5.1f}, last {last:5.1f}, {frames:.0f} per click"
                )
            ratio = median(updates["replay"]) / median(updates[TRIVIAL])
            out(f"     ratio replay / trivial         {ratio:6.2f}x (target ≤ 1.5x)")
            out(
                f"     Python side of one step (TrickStepper.go in this process, no browser): "
                f"{step_cost(args.game, args.clicks):.2f} ms"
            )

            out("\n3. kernel RSS of each open page (MiB), after load and after the clicks")
            for name in rss_loaded:
                after = f"{rss_clicked[name] / MIB:6.1f}" if name in targets else "     -"
                extra = ""
                if name != TRIVIAL:
                    diff = (rss_clicked[name] - rss_clicked[TRIVIAL]) / MIB
                    extra = f"   app - trivial {diff:+5.1f} MiB (target ≤ +30)"
                out(f"     {name:<14} {rss_loaded[name] / MIB:6.1f} → {after}{extra}")
            out(
                "     the apps' share of a kernel, in a fresh interpreter with the environment Voilà gives a "
                "kernel it starts\n     for a page, after importing ipykernel (median of 3):"
            )
            try:
                for name, seconds, mib, voila_modules in kernel_side(folder, notebooks[2].query):
                    out(f"       {name:<29} {seconds:5.2f} s {mib:+6.1f} MiB   Voilà modules loaded: {voila_modules}")
            except subprocess.CalledProcessError as exc:
                out(f"       failed: {exc.stderr.strip().splitlines()[-1:]}")
            open_ids = {proc.pid for _, _, proc in pages.values() if proc}
            pooled = sorted(k.memory_info().rss / MIB for k in kernels(server) if k.pid not in open_ids)
            out("     unused pooled kernels (one per notebook): " + ", ".join(f"{x:.1f}" for x in pooled))

            server_rss["3 pages open"] = server.memory_info().rss
            out("\n4. Voilà server RSS (MiB): " + ", ".join(f"{k} {v / MIB:.1f}" for k, v in server_rss.items()))

            for context, _, _ in pages.values():
                context.close()
            chromium.close()
            log = log_path.read_text(errors="replace")

        out("\nJavaScript errors: " + ("none" if not any(errors.by_notebook.values()) else ""))
        for name, found in errors.by_notebook.items():
            for message in sorted(set(found)):
                out(f"     {name}: {message} (x{found.count(message)})")
        out(f"blocked non-loopback requests: {', '.join(sorted(errors.blocked)) or 'none'}")
        problems = log_errors(log)
        out(f"server log before shutdown: {len(problems)} error(s)" + (":" if problems else ""))
        for message in sorted(set(problems)):
            out(f"     {message[:300]} (x{problems.count(message)})")
        if args.server_log:
            args.server_log.write_text(log)
    phases["rest"] = time.monotonic() - started - sum(phases.values())
    out(f"total time {sum(phases.values()):.0f} s (" + ", ".join(f"{k} {v:.0f} s" for k, v in phases.items()) + ")")


if __name__ == "__main__":
    main()
