"""Tables of classmates under load: T tables of four classmates, each classmate a headless Chromium
page with a kernel of its own, all on one machine, against the same play at single-player tables.

It starts ``tricklab serve`` (the README's command) with a class store of its own, makes T tables
of Tricks & Stones in the store (every seat a classmate's, no bot) and opens each seat's page
(``table.ipynb?join=CODE``, the seat kept on the device as a returning classmate's is). In every
page a script plays as a quick learner would: it presses Continue on a finished trick, and when it
is the page's turn it clicks its first legal card (or its first choice, or Skip), waiting
``--think`` seconds after each click. A DOM observer in every page notes when the page first shows
each action of the table's log (the board's ``data-step``).

It reports, for ``--tables`` (default 1 and 8; one table alone is the first anchor):

- **action → other devices**: from a classmate's click (in their page) to each other page at the
  table showing that action. All pages run on this machine, so their clocks are one.
- **action → own page**: from the click to the clicking page showing it.

and, as the second anchor, the same script at T single-player tables (``play.ipynb``, three bots
at pace 0): **action → own page** there. p50, p95 and max of each, and how many actions never
reached a page within the run.

The delay to other devices is bounded below by each seat's polling of the class store (every
0.25 s: :data:`tricklab.widgets.sharedtable.POLL`): the mean wait for the next poll is an
eighth of a second. Every request a page makes outside 127.0.0.1 is blocked.

Usage: python benchmarks/tables.py [--tables 1 8] [--seconds 60] [--think 0.5]
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from classroom import pct, server  # the serve benchmark's helpers

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


async def block_outside(context: Any) -> None:
    async def route(r: Any) -> None:
        if r.request.url.startswith(("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:")):
            await r.continue_()
        else:
            await r.abort()

    await context.route("**/*", route)


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

    result = Result(label, tables)
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
        f"{'run':<26} {'tables':>6} {'actions':>8}   {'→ others p50':>12} {'p95':>8} {'max':>8}"
        f"   {'→ own p50':>10} {'p95':>8} {'max':>8} {'missed':>7}"
    )
    rows = [head]
    for r in results:
        others = line(r.others_ms) if r.label == "classmates" else f"{'-':>8} {'-':>8} {'-':>8}"
        rows.append(
            f"{r.label + (' (tables of 4)' if r.label == 'classmates' else ' (vs 3 bots)'):<26} {r.tables:>6} "
            f"{r.actions:>8}   {others:>30}   {line(r.own_ms):>28} {r.missed:>7}"
        )
    return "\n".join(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[1, 8])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the tables play")
    parser.add_argument("--think", type=float, default=0.5, help="seconds a page waits after each click")
    parser.add_argument("--open-at-once", type=int, default=4, help="pages opening at the same time")
    parser.add_argument("--timeout", type=float, default=180.0, help="seconds for a page to open")
    args = parser.parse_args()
    if not CHROMIUM.exists():
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
                results.append(asyncio.run(run(label, tables, args, folder, shared=shared)))
                print(report(results[-1:]).splitlines()[-1], flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print()
    print(f"Python {platform.python_version()}, {platform.machine()}, times in ms, {args.seconds:g} s of play")
    print(report(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
