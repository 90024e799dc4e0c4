"""A class session under load: one teacher and N learners, each in headless Chromium, on one machine.

It starts ``tricklab serve`` (the README's command) with a class store of its own, opens the
teacher's projector page (``class.ipynb?teach=1``) and starts a session, then opens N learner
pages at phone size (``class.ipynb?join=CODE``: each is a Voilà page with a kernel of its own),
each typing a name and joining. Then, for ``--questions`` rounds, the teacher presses *Send to the
class* and every learner answers once, at a random moment of a ``--answer-window``.

It reports, for each N (``--learners``, default 1, 30 and 60; N = 1 is the anchor: one learner
alone on the same machine in the same run):

- **question → device**: from the teacher's click (in the teacher's page) to the question drawn
  on each learner's page (a DOM observer in that page). All pages run on this machine, so their
  clocks are one (``Date.now()``).
- **answer → projector**: from a learner's click to the projector's count reaching it. The
  count is a number, not a list of who answered: the k-th click (in time order) is taken as
  arriving when the count first reaches k. This is exact when the answers are processed in the
  order they were given, and otherwise moves latency between answers without changing the
  spread much.
- p50, p95 and max of each, and how many learners never saw a question or whose answer never
  counted (a timeout of ``--timeout`` seconds).
- **memory per learner**: the median resident memory of the server's kernels (one per learner,
  plus the teacher's and one preheated), and of
  a learner page's Chromium renderer (the device's side, which a real class spreads over its own
  devices); the Voilà server's and the class store's file size.

Both delays are bounded below by the pages' polling of the class store (every 0.5 s:
:data:`tricklab.widgets.classapp.POLL`): the mean wait for the next poll is a quarter second.
Every request a page makes outside 127.0.0.1 is blocked.

Usage: python benchmarks/class.py [--learners 1 30 60] [--questions 3] [--answer-window 5]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))
from classroom import MIB, block_outside, pct, rss_mib, server  # the serve benchmark's helpers

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
PHONE = {"width": 390, "height": 844}

#: a learner's page: the time each question was first drawn (``window.__seen[number]``)
SEEN = """() => {
  window.__seen = {};
  const look = () => {
    for (const el of document.querySelectorAll('.tricklab-board .tl-step-no')) {
      const found = /Question (\\d+)/.exec(el.textContent || '');
      if (found && !(found[1] in window.__seen)) window.__seen[found[1]] = Date.now();
    }
  };
  new MutationObserver(look).observe(document.body, {childList: true, subtree: true, characterData: true});
  look();
}"""

#: the projector: every change of its "N of M answered" count (``window.__counts``)
COUNTS = """() => {
  window.__counts = [];
  let last = -1;
  const look = () => {
    const el = document.querySelector('.tricklab-board .tl-class-answered');
    const found = el && /^(\\d+) of/.exec(el.textContent || '');
    const n = found ? Number(found[1]) : 0;
    if (n !== last) { last = n; window.__counts.push([Date.now(), n]); }
  };
  new MutationObserver(look).observe(document.body, {childList: true, subtree: true, characterData: true});
  look();
}"""

#: the teacher's click on Send to the class, timed in the page
SEND = """() => {
  const button = [...document.querySelectorAll('button')]
    .find(b => b.textContent.trim() === 'Send to the class');
  window.__counts = [];
  const sent = Date.now();
  button.click();
  return sent;
}"""

#: a learner's click on one of the question's choices after ``delay`` ms, timed in the page
ANSWER = """(delay) => new Promise(done => setTimeout(() => {
  const choices = [...document.querySelectorAll('.tricklab-board [data-intent="answer"]')];
  if (!choices.length) { done(null); return; }
  const at = Date.now();
  choices[Math.floor(Math.random() * choices.length)].click();
  done(at);
}, delay))"""


@dataclass
class Result:
    learners: int
    joined: int = 0
    join_s: float = 0.0
    delivery_ms: list[float] = field(default_factory=list)
    answer_ms: list[float] = field(default_factory=list)
    missed_questions: int = 0
    missed_answers: int = 0
    kernel_mib: list[float] = field(default_factory=list)
    renderer_mib: list[float] = field(default_factory=list)
    server_mib: float = 0.0
    store_kib: float = 0.0


async def open_teacher(browser: Any, url: str, timeout: float) -> tuple[Any, str]:
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    await block_outside(context)
    page = await context.new_page()
    await page.goto(f"{url}/voila/render/class.ipynb?teach=1", timeout=timeout * 1000)
    start = page.get_by_role("button", name="Start a class session")
    await start.wait_for(timeout=timeout * 1000)
    await start.click()
    code = page.locator(".tl-class-code")
    await code.wait_for(timeout=timeout * 1000)
    return page, (await code.inner_text()).strip()


async def open_learner(browser: Any, url: str, code: str, i: int, timeout: float) -> Any:
    context = await browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    await block_outside(context)
    page = await context.new_page()
    try:
        await page.goto(f"{url}/voila/render/class.ipynb?join={code}", timeout=timeout * 1000)
        name = page.get_by_label("Your name")
        await name.wait_for(timeout=timeout * 1000)
        await name.fill(f"Learner {i + 1}")
        await page.get_by_role("button", name="Join the class").click()
        await page.locator(".tricklab-board .tl-class-waiting").wait_for(timeout=timeout * 1000)
    except Exception as exc:  # say what the page showed
        shown = " ".join((await page.inner_text("body")).split())[:300]
        raise RuntimeError(f"{str(exc).splitlines()[0]}; the page showed: {shown!r}") from exc
    await page.evaluate(SEEN)
    return page


def renderers(browser_pid: int) -> list[psutil.Process]:
    found = []
    for child in psutil.Process(browser_pid).children(recursive=True):
        try:
            if "--type=renderer" in " ".join(child.cmdline()):
                found.append(child)
        except psutil.Error:
            continue
    return found


async def run(n: int, args: argparse.Namespace, folder: Path) -> Result:
    from playwright.async_api import async_playwright

    result = Result(n)
    store = folder / f"class-{n}.sqlite3"
    extra = ("--class-db", str(store), "--max-kernels", str(2 * n + 8))
    apps = folder / "apps"
    if not apps.exists():  # the class app alone: no other app's preheated kernel in the figures
        apps.mkdir()
        for name in ("class.ipynb", "voila.json"):
            shutil.copy(ROOT / "voila_apps" / name, apps / name)
    with server(f"class-{n}", apps, *extra) as served:
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(
                executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
            )
            before = {p.pid for p in renderers(_browser_pid(browser))}
            teacher, code = await open_teacher(browser, served.url, args.timeout)
            teacher_renderers = {p.pid for p in renderers(_browser_pid(browser))} - before
            await teacher.evaluate(COUNTS)
            started = time.monotonic()
            gate = asyncio.Semaphore(args.open_at_once)

            async def join(i: int) -> Any:
                async with gate:
                    try:
                        return await open_learner(browser, served.url, code, i, args.timeout)
                    except Exception as exc:  # a page that did not join is counted, not fatal
                        print(f"  learner {i + 1} did not join: {str(exc).splitlines()[0]}", flush=True)
                        return None

            pages = [p for p in await asyncio.gather(*(join(i) for i in range(n))) if p is not None]
            result.joined, result.join_s = len(pages), time.monotonic() - started
            await asyncio.sleep(2)  # the projector's count of students settles
            rng = random.Random(n)
            for number in range(1, args.questions + 1):
                await one_round(teacher, pages, number, args, rng, result)
            result.kernel_mib = [rss_mib(k) for k in served.kernels()]  # the learners', the teacher's, the pool's
            result.renderer_mib = [
                rss_mib(p) for p in renderers(_browser_pid(browser)) if p.pid not in before | teacher_renderers
            ]
            result.server_mib = rss_mib(served.process)
            result.store_kib = sum(f.stat().st_size for f in folder.glob(f"class-{n}.sqlite3*")) / 1024
            await browser.close()
    return result


def _browser_pid(browser: Any) -> int:
    """The pid of the Chromium that Playwright launched (its newest chromium child)."""
    own = psutil.Process(os.getpid())
    found = [
        p
        for p in own.children(recursive=True)
        if p.name().startswith("chrom") and "--type=" not in " ".join(p.cmdline())
    ]
    return max(found, key=lambda p: p.create_time()).pid


async def one_round(
    teacher: Any, pages: list[Any], number: int, args: argparse.Namespace, rng: random.Random, result: Result
) -> None:
    sent = await teacher.evaluate(SEND)
    deadline = time.monotonic() + args.timeout
    seen: list[float | None] = [None] * len(pages)
    while time.monotonic() < deadline and any(s is None for s in seen):
        for i, page in enumerate(pages):
            if seen[i] is None:
                seen[i] = await page.evaluate(f"() => window.__seen['{number}'] ?? null")
        await asyncio.sleep(0.2)
    result.delivery_ms += [s - sent for s in seen if s is not None]
    result.missed_questions += sum(s is None for s in seen)
    window = args.answer_window * 1000
    clicks = await asyncio.gather(*(p.evaluate(ANSWER, rng.uniform(0, window)) for p in pages))
    given = sorted(c for c in clicks if c is not None)
    deadline = time.monotonic() + args.timeout
    while time.monotonic() < deadline:
        counts = await teacher.evaluate("() => window.__counts")
        if counts and counts[-1][1] >= len(given):
            break
        await asyncio.sleep(0.2)
    for k, clicked in enumerate(given, start=1):
        arrived = next((t for t, c in counts if c >= k), None)
        if arrived is None:
            result.missed_answers += 1
        else:
            result.answer_ms.append(max(0.0, arrived - clicked))


def line(values: list[float]) -> str:
    if not values:
        return "n/a | n/a | n/a"
    return f"{pct(values, 0.5):.0f} | {pct(values, 0.95):.0f} | {max(values):.0f}"


def report(results: list[Result], args: argparse.Namespace) -> str:
    rows = [
        "| learners | joined (s to join all) | question → device ms p50 / p95 / max | answer → projector ms "
        "p50 / p95 / max | missed | kernel MiB per learner | renderer MiB per learner | server MiB | store KiB |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in results:
        kernel = statistics.median(r.kernel_mib) if r.kernel_mib else float("nan")
        renderer = statistics.median(r.renderer_mib) if r.renderer_mib else float("nan")
        rows.append(
            f"| {r.learners}{' (anchor)' if r.learners == 1 else ''} | {r.joined} ({r.join_s:.0f} s) | "
            f"{line(r.delivery_ms).replace(' | ', ' / ')} | {line(r.answer_ms).replace(' | ', ' / ')} | "
            f"{r.missed_questions} questions, {r.missed_answers} answers | {kernel:.0f} | {renderer:.0f} | "
            f"{r.server_mib:.0f} | {r.store_kib:.0f} |"
        )
    cpu = f"{psutil.cpu_count()} cores, {psutil.virtual_memory().total / MIB / 1024:.0f} GiB"
    head = (
        f"{args.questions} questions per class, answers spread over {args.answer_window:.0f} s; "
        f"{platform.python_implementation()} {platform.python_version()}, {cpu}"
    )
    return head + "\n\n" + "\n".join(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, nargs="+", default=[1, 30, 60])
    parser.add_argument("--questions", type=int, default=3)
    parser.add_argument("--answer-window", type=float, default=5.0, help="seconds over which a class answers")
    parser.add_argument("--open-at-once", type=int, default=4, help="learner pages opening at the same time")
    parser.add_argument("--timeout", type=float, default=180.0, help="seconds for a page, a question or the answers")
    args = parser.parse_args()
    if not CHROMIUM.exists():
        parser.error(f"Chromium is not installed at {CHROMIUM} (apt-get install -y chromium)")
    if min(args.learners) < 1 or max(args.learners) > 100 or not 1 <= args.questions <= 20:
        parser.error("1 to 100 learners and 1 to 20 questions")
    folder = Path(tempfile.mkdtemp(prefix="tricklab-class-bench-"))
    results = []
    try:
        for n in args.learners:
            print(f"{n} learner(s)…", flush=True)
            results.append(asyncio.run(run(n, args, folder)))
            print(report(results[-1:], args).splitlines()[-1], flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print()
    print(report(results, args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
