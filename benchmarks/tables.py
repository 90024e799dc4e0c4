"""Tables of classmates under load: T tables of four classmates, all on one machine, against the
same play at T single-player tables.

It starts ``tricklab serve`` (the README's command) with a class store of its own and makes T
tables of Tricks & Stones in the store (every seat a classmate's, no bot). Each classmate opens
their seat's page (``table.ipynb?join=CODE``, the seat sent back as a returning device's is) and
plays as a quick learner would: Continue on a finished trick at once, and on their turn their
first legal card (or first choice, or Skip), waiting ``--think`` seconds after each click. Each
page notes when it first shows each action of the table's log (the board's step).

A classmate is, by default, a websocket client of their page's kernel: what the server sends a
device, read as the page reads it, with no browser drawing it (in a classroom every device draws
its own page). With ``--browsers`` each classmate is a headless Chromium page at phone size
instead, a script in the page clicking and a DOM observer timing, all the pages drawing on this
machine's cores.

It reports, for ``--tables`` (default 1 and 8):

- **action → others**: from a classmate's click to each other page at the table showing that
  action. All clients run on this machine, so their clocks are one.
- **action → own page**: from the click to the clicking page showing it; at the single-player
  tables (three bots, pace 0), the anchor, that alone.

p50, p95 and max of each, and how many actions never reached a page within the run. The delay to
other devices is bounded below by each seat's polling of the class store (every 0.25 s:
:data:`tricklab.widgets.sharedtable.POLL`). Every request a page makes outside 127.0.0.1 is
blocked.

Usage: python benchmarks/tables.py [--tables 1 8] [--seconds 60] [--think 0.5] [--browsers]
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from classroom import PROTOCOL, Kernel, block_outside, pct, server  # the serve benchmark's helpers

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
PHONE = {"width": 390, "height": 844}

#: a page that plays by itself: it goes on from every finished trick and, on its turn, clicks its
#: first legal card or choice; ``window.__seen[n]`` is when it first showed n actions of the log,
#: ``window.__clicks`` each click as ``[the number of actions it makes, the time]``
PLAYER = """(think) => {
  window.__seen = {}; window.__clicks = [];
  const board = () => document.querySelector('.tricklab-board');
  let shown = -1;
  const look = () => {
    const n = Math.floor(Number(board()?.dataset.step || 0) / 4);
    for (let k = shown + 1; k <= n; k++) window.__seen[k] = Date.now();
    shown = Math.max(shown, n);
  };
  new MutationObserver(look).observe(document.body, {subtree: true, childList: true, attributes: true});
  look();
  let rest = 0;
  setInterval(() => {
    const b = board();
    if (!b || Date.now() < rest) return;
    const go = b.querySelector("[data-intent='continue']");
    if (go) { go.click(); rest = Date.now() + 300; return; }
    if (b.dataset.turn !== 'true') return;
    const target = b.querySelector(".tl-decision [data-intent='act'][data-value='skip']")
      || b.querySelector("button.tl-card.tl-legal[data-intent='play']")
      || b.querySelector(".tl-decision [data-intent='act']");
    if (!target) return;
    window.__clicks.push([shown + 1, Date.now()]);
    target.click();
    rest = Date.now() + think * 1000;
  }, 50);
}"""


@dataclass
class Result:
    label: str
    tables: int
    others_ms: list[float] = field(default_factory=list)
    own_ms: list[float] = field(default_factory=list)
    actions: int = 0
    missed: int = 0
    browsers: bool = False  # each classmate a Chromium page, else a websocket client of the kernel


async def open_seat(browser: Any, url: str, code: str, token: str, timeout: float) -> Any:
    context = await browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    await block_outside(context)
    # the seat as a returning classmate's device keeps it: the page sits down at once
    await context.add_init_script(
        f"localStorage.setItem('tricklab-kept:' + location.pathname, 'seat={token}')" if token else "undefined"
    )
    page = await context.new_page()
    query = f"table.ipynb?join={code}&pace=0" if code else "play.ipynb?game=tricks-and-stones&players=4&pace=0"
    await page.goto(f"{url}/voila/render/{query}", timeout=timeout * 1000)
    await page.locator(".tricklab-board .tl-caption").first.wait_for(timeout=timeout * 1000)
    return page


async def run(label: str, tables: int, args: argparse.Namespace, folder: Path, *, shared: bool) -> Result:
    from playwright.async_api import async_playwright

    from tricklab.store import PLAYER as CLASSMATE
    from tricklab.store import Store

    result = Result(label, tables, browsers=True)
    db = folder / f"tables-{label}-{tables}.sqlite3"
    seats: list[list[tuple[str, str]]] = []
    if shared:
        store = Store.open(str(db))
        for t in range(tables):
            first = store.new_table("tricks-and-stones", 4, {}, [CLASSMATE] * 4, f"T{t} P1", now=time.time())
            others = [store.join_table(first.code, f"T{t} P{n}", now=time.time(), who=f"t{t}") for n in (2, 3, 4)]
            seats.append([(s.code, s.token) for s in (first, *others)])
        store.close()
    else:
        seats = [[("", "")] for _ in range(tables)]
    pages_per_table = len(seats[0])
    extra = ("--class-db", str(db), "--max-kernels", str(tables * pages_per_table + 8), "--pool-size", "0")
    with server(f"{label}-{tables}", folder / "apps", *extra) as served:
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(
                executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
            )
            gate = asyncio.Semaphore(args.open_at_once)

            async def sit(code: str, token: str) -> Any:
                async with gate:
                    return await open_seat(browser, served.url, code, token, args.timeout)

            pages = [await asyncio.gather(*(sit(code, token) for code, token in table)) for table in seats]
            for table_pages in pages:
                for page in table_pages:
                    await page.evaluate(PLAYER, args.think)
            await asyncio.sleep(args.seconds)
            for table, table_pages in zip(seats, pages, strict=True):
                seen = [await p.evaluate("() => window.__seen") for p in table_pages]
                clicks = [await p.evaluate("() => window.__clicks") for p in table_pages]
                whose = _whose(db, table[0][0]) if shared else None
                for who, made in enumerate(clicks):
                    for number, at in made:
                        own = seen[who].get(str(number))
                        if own is None or (whose is not None and whose.get(number - 1) != who):
                            continue  # refused (not the log's action), or not shown when the run ended
                        result.actions += 1
                        result.own_ms.append(max(0.0, own - at))
                        for other, shown in enumerate(seen):
                            if other == who:
                                continue
                            arrived = shown.get(str(number))
                            if arrived is None:
                                result.missed += 1
                            else:
                                result.others_ms.append(max(0.0, arrived - at))
            await browser.close()
    return result


#: what a seat's page would click, read from its scene: Continue, then on its turn Skip, its
#: first legal card, or its first choice
CLICKABLE = (
    re.compile(r'data-intent="(continue)" data-value="([^"]*)"'),
    re.compile(r'data-intent="(act)" data-value="(skip)"'),
    re.compile(r'class="tl-card tl-legal[^"]*"[^>]*data-intent="(play)" data-value="([^"]*)"'),
    re.compile(r'data-intent="(play)" data-value="([^"]*)"[^>]*class="tl-card tl-legal'),
    re.compile(r'data-intent="(act)" data-value="([^"]*)"'),
)


def unpacked(packed: str) -> dict[str, Any]:
    """The scene a board sends, as its page reads it (:func:`tricklab.widgets.board.pack`)."""
    import base64
    import json
    import zlib

    from tricklab.widgets.board import PACKED

    if packed.startswith(PACKED):
        packed = zlib.decompress(base64.b64decode(packed[len(PACKED) :])).decode("utf-8")
    scene: dict[str, Any] = json.loads(packed)
    return scene


@dataclass
class Socket:
    """One classmate's device as the server sees it: the websocket of their page's kernel, with
    no browser drawing the page (each device draws its own in a classroom)."""

    kernel: Kernel
    board: str = ""
    scene: dict[str, Any] = field(default_factory=dict)
    seen: dict[int, float] = field(default_factory=dict)
    clicks: list[tuple[int, float]] = field(default_factory=list)


async def open_socket(url: str, code: str, token: str, timeout: float) -> Socket:
    """Open the table app's page for a seat (as a returning device: its kept seat sent back)."""
    import uuid

    from tornado.httpclient import AsyncHTTPClient, HTTPRequest
    from tornado.websocket import websocket_connect

    app = f"table.ipynb?join={code}&pace=0" if code else "play.ipynb?game=tricks-and-stones&players=4&pace=0"
    response = await AsyncHTTPClient().fetch(f"{url}/voila/render/{app}", request_timeout=timeout, connect_timeout=30)
    found = re.search(r'"kernelId": "([0-9a-f-]{36})"', response.body.decode())
    if not found:
        raise RuntimeError("no kernel id in the table app's page")
    cookie = "; ".join(c.split(";")[0] for c in response.headers.get_list("Set-Cookie"))
    request = HTTPRequest(
        f"{url.replace('http://', 'ws://', 1)}/api/kernels/{found.group(1)}/channels?session_id={uuid.uuid4().hex}",
        headers={"Cookie": cookie},
        connect_timeout=30,
        request_timeout=60,
    )
    socket = Socket(Kernel(await websocket_connect(request, subprotocols=[PROTOCOL])))
    control = uuid.uuid4().hex
    socket.kernel.send(
        "comm_open", {"comm_id": control, "target_name": "jupyter.widget.control", "data": {}}, {"version": "1.0.0"}
    )
    socket.kernel.send("comm_msg", {"comm_id": control, "data": {"method": "request_states"}})
    lobby = ""
    while not lobby:
        _, header, content = await socket.kernel.receive(timeout)
        if header["msg_type"] == "comm_msg" and content.get("comm_id") == control:
            states = content["data"]["states"]
            boards = [k for k, v in states.items() if "_packed" in v["state"]]
            if not boards:
                raise RuntimeError("no board among the page's widgets")
            lobby = boards[0]
            if not code:  # a single-player table: the board is there at once
                socket.board, socket.scene = lobby, unpacked(states[lobby]["state"]["_packed"])
                return socket
    socket.kernel.send(
        "comm_msg",
        {"comm_id": lobby, "data": {"method": "custom", "content": {"intent": "recall", "value": f"seat={token}"}}},
    )
    while not socket.board:  # the table, in the lobby's place
        _, header, content = await socket.kernel.receive(timeout)
        state = content.get("data", {}).get("state", {})
        if header["msg_type"] == "comm_open" and "_packed" in state and "code" in state:
            socket.board, socket.scene = content["comm_id"], unpacked(state["_packed"])
    return socket


async def follow(socket: Socket, stop: float) -> None:
    """Read what the kernel sends until ``stop``: each scene's step, when first shown."""
    while time.monotonic() < stop:
        try:
            _, header, content = await socket.kernel.receive(max(0.05, stop - time.monotonic()))
        except TimeoutError:
            continue
        if header["msg_type"] != "comm_msg" or content.get("comm_id") != socket.board:
            continue
        packed = content["data"].get("state", {}).get("_packed")
        if packed is not None:
            socket.scene = scene = unpacked(packed)
            shown = int(scene.get("step", 0)) // 4
            for n in range(max(socket.seen, default=-1) + 1, shown + 1):
                socket.seen[n] = time.time()


async def play(socket: Socket, think: float, stop: float) -> None:
    """Click as the page's player script does, from what the last scene offers."""
    while time.monotonic() < stop:
        await asyncio.sleep(0.05)
        scene = socket.scene
        html = str(scene.get("html", ""))
        turn = bool(scene.get("data", {}).get("turn"))
        for number, pattern in enumerate(CLICKABLE):
            found = pattern.search(html)
            if found is None or (number > 0 and not turn):
                continue
            shown = max(socket.seen, default=0)
            if number > 0:
                socket.clicks.append((shown + 1, time.time()))
            content = {"intent": found.group(1), "value": found.group(2)}
            socket.kernel.send("comm_msg", {"comm_id": socket.board, "data": {"method": "custom", "content": content}})
            before = scene.get("step")
            while socket.scene.get("step") == before and time.monotonic() < stop:
                await asyncio.sleep(0.01)
            await asyncio.sleep(think if number > 0 else 0.3)
            break


async def run_sockets(tables: int, args: argparse.Namespace, folder: Path, *, shared: bool) -> Result:
    """T tables of four classmates (or, not ``shared``, T single-player tables), each page a
    websocket client of its kernel (no browser)."""
    from tricklab.store import PLAYER as CLASSMATE
    from tricklab.store import Store

    result = Result("classmates" if shared else "single-player", tables)
    db = folder / f"tables-sockets-{shared}-{tables}.sqlite3"
    seats: list[list[tuple[str, str]]] = [[("", "")] for _ in range(tables)]
    if shared:
        store = Store.open(str(db))
        seats = []
        for t in range(tables):
            first = store.new_table("tricks-and-stones", 4, {}, [CLASSMATE] * 4, f"T{t} P1", now=time.time())
            others = [store.join_table(first.code, f"T{t} P{n}", now=time.time(), who=f"t{t}") for n in (2, 3, 4)]
            seats.append([(s.code, s.token) for s in (first, *others)])
        store.close()
    extra = ("--class-db", str(db), "--max-kernels", str(tables * 4 + 8), "--pool-size", "0")
    with server(f"sockets-{tables}", folder / "apps", *extra) as served:
        gate = asyncio.Semaphore(args.open_at_once)

        async def sit(code: str, token: str) -> Socket:
            async with gate:
                return await open_socket(served.url, code, token, args.timeout)

        sockets = [await asyncio.gather(*(sit(code, token) for code, token in table)) for table in seats]
        stop = time.monotonic() + args.seconds
        everyone = [s for table in sockets for s in table]
        await asyncio.gather(*(follow(s, stop) for s in everyone), *(play(s, args.think, stop) for s in everyone))
        for table, table_sockets in zip(seats, sockets, strict=True):
            whose = _whose(db, table[0][0]) if shared else None
            for who, socket in enumerate(table_sockets):
                for number, at in socket.clicks:
                    own = socket.seen.get(number)
                    if own is None or (whose is not None and whose.get(number - 1) != who):
                        continue
                    result.actions += 1
                    result.own_ms.append(max(0.0, (own - at) * 1000))
                    for other, peer in enumerate(table_sockets):
                        if other == who:
                            continue
                        arrived = peer.seen.get(number)
                        if arrived is None:
                            result.missed += 1
                        else:
                            result.others_ms.append(max(0.0, (arrived - at) * 1000))
        for socket in everyone:
            socket.kernel.ws.close()
    return result


def _whose(db: Path, code: str) -> dict[int, int]:
    """Which seat made each action of the table's log (read from the store after the run): a
    page's click is timed only if the log's action of that number is its seat's."""
    import sqlite3

    with sqlite3.connect(db) as connection:
        rows = connection.execute(
            "SELECT number, seat FROM table_action JOIN play_table ON play_table.id = table_action.table_id "
            "WHERE play_table.code = ?",
            (code,),
        ).fetchall()
    return {int(number): int(seat) for number, seat in rows}


def line(values: list[float]) -> str:
    if not values:
        return f"{'-':>8} {'-':>8} {'-':>8}"
    return f"{pct(values, 0.5):8.0f} {pct(values, 0.95):8.0f} {max(values):8.0f}"


def report(results: list[Result]) -> str:
    head = (
        f"{'run':<34} {'tables':>6} {'actions':>8}   {'→ others p50':>12} {'p95':>8} {'max':>8}"
        f"   {'→ own p50':>10} {'p95':>8} {'max':>8} {'missed':>7}"
    )
    rows = [head]
    for r in results:
        others = line(r.others_ms) if r.label == "classmates" else f"{'-':>8} {'-':>8} {'-':>8}"
        kind = (" (tables of 4)" if r.label == "classmates" else " (vs 3 bots)") + (", pages" if r.browsers else "")
        rows.append(
            f"{r.label + kind:<34} {r.tables:>6} {r.actions:>8}   {others:>30}   {line(r.own_ms):>28} {r.missed:>7}"
        )
    return "\n".join(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[1, 8])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the tables play")
    parser.add_argument("--think", type=float, default=0.5, help="seconds a page waits after each click")
    parser.add_argument("--open-at-once", type=int, default=4, help="pages opening at the same time")
    parser.add_argument("--timeout", type=float, default=180.0, help="seconds for a page to open")
    parser.add_argument(
        "--browsers", action="store_true", help="each classmate a headless Chromium page (else a websocket client)"
    )
    args = parser.parse_args()
    if args.browsers and not CHROMIUM.exists():
        parser.error(f"Chromium is not installed at {CHROMIUM} (apt-get install -y chromium)")
    if min(args.tables) < 1 or max(args.tables) > 16:
        parser.error("1 to 16 tables")
    folder = Path(tempfile.mkdtemp(prefix="tricklab-tables-bench-"))
    (folder / "apps").mkdir()
    for name in ("table.ipynb", "play.ipynb", "voila.json"):
        shutil.copy(ROOT / "voila_apps" / name, folder / "apps" / name)
    results = []
    try:
        for tables in args.tables:
            for label, shared in (("single-player", False), ("classmates", True)):
                print(f"{tables} {label} table(s)…", flush=True)
                if args.browsers:
                    results.append(asyncio.run(run(label, tables, args, folder, shared=shared)))
                else:
                    results.append(asyncio.run(run_sockets(tables, args, folder, shared=shared)))
                print(report(results[-1:]).splitlines()[-1], flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print()
    print(f"Python {platform.python_version()}, {platform.machine()}, times in ms, {args.seconds:g} s of play")
    print(report(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
