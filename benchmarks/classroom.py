"""A class on one machine: N learners open the replay app from one shared link and take 50 steps.

For N = 10, 30 and 60 (``--learners``) it reports the step latency (p50, p95, max, and p95 of
the steps taken once every learner's page had loaded), page loads, errors, the Voilà server's
and each kernel's memory, CPU time, and how many of the learners' kernels are still there two
minutes after they closed their pages. Each N runs twice in the same run, side by side: against
``tricklab serve`` (TCP_NODELAY on the kernel websockets) and against ``tricklab serve
--no-nodelay``, the same server without that fix. Everything else is the shipped configuration:
a pool of one preheated kernel, closed pages' kernels culled after 40 s idle (checked every 10 s),
except ``--max-kernels``, set to twice the largest class plus the pool whatever the machine's
memory, so that no page is refused: the limit is not what is measured.

**Learners are protocol clients, not browsers.** In a classroom each learner's browser runs on
the learner's own device; only the server runs here. Sixty headless Chromium pages on this
2-core machine would spend most of its CPU drawing pages and measure Chromium, not the server.
So each learner speaks exactly what a Voilà page sends and receives: it GETs the app's page (Voilà
runs the notebook in a kernel for it), opens the kernel's websocket (protocol v1, as Voilà's
front end does) and sends ``kernel_info_request``, opens ipywidgets' control comm and asks for
every widget's state, as the page's widget manager does, then clicks ▶ by sending the Button's
``click`` message. A step's latency is from sending that click to receiving the board's update
with the next step number, the message that the page turns into the DOM update. It does not count
the browser's own work (≈ 2 ms for a board update in Chromium) nor the page's static files (the
browser caches them after the first load). Closing a page is closing its websocket: the page's
own shutdown request is refused by Voilà for a missing XSRF token (voila#1458), so it changes
nothing and is not sent.

A learner clicks through a trick and then reads: every fifth step comes after a pause of 1 to 3 s
(``--pause``), the others 0.1 to 0.3 s after the previous update (``--click``), as fast as one
clicks a button; the last 10 of the 50 steps come 0.04 s apart, as when the → key is held down
(the board sends a step for each key repeat). The three kinds are reported apart because Nagle's
algorithm shows mostly in the quick ones: after a pause the receiving Linux TCP stack acknowledges
at once ("quick ACK" mode), while between quick steps it delays its ACKs and the server's second
message waits for one (about 40 ms).
The N learners open the link spread over ``--ramp`` seconds, as a class does after the teacher
shares it. Before the class, a probe: one learner alone takes 30 steps 40-50 ms apart on each
server, which shows the delayed-ACK wait by itself. All traffic is to
127.0.0.1; every wait has a timeout, the whole run a deadline (``--deadline``), after which the
learners still at work stop and the report says so.

Usage: python benchmarks/classroom.py [--learners 10 30 60] [--steps 50] [--ramp 20]
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import os
import platform
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest
from tornado.websocket import WebSocketClientConnection, websocket_connect

ROOT = Path(__file__).resolve().parent.parent
PROTOCOL = "v1.kernel.websocket.jupyter.org"
LINK = "game=tricks-and-stones&players=4&seed=7"
MIB = 2**20
STEP_TIMEOUT = 10.0
PAGE_TIMEOUT = 180.0
LEFT_AFTER = 120.0
PROBE = argparse.Namespace(ramp=0.0, steps=30, click=[0.05, 0.05], pause=[0.05, 0.05])


# --- the kernel websocket protocol (v1) --------------------------------------------------------


def pack(channel: str, message: dict[str, Any]) -> bytes:
    parts = [json.dumps(message[key]).encode() for key in ("header", "parent_header", "metadata", "content")]
    offsets = [8 * (2 + len(parts) + 1)]
    for part in [channel.encode(), *parts]:
        offsets.append(offsets[-1] + len(part))
    head = len(offsets).to_bytes(8, "little") + b"".join(o.to_bytes(8, "little") for o in offsets)
    return head + channel.encode() + b"".join(parts)


def unpack(data: bytes) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """Channel, header and content of a message (the parent header and metadata are not needed)."""
    count = int.from_bytes(data[:8], "little")
    offsets = [int.from_bytes(data[8 * (i + 1) : 8 * (i + 2)], "little") for i in range(count)]
    channel = data[offsets[0] : offsets[1]].decode()
    header = json.loads(data[offsets[1] : offsets[2]])
    content = json.loads(data[offsets[4] : offsets[5]])
    return channel, header, content


class Kernel:
    """One page's connection to its kernel."""

    def __init__(self, ws: WebSocketClientConnection) -> None:
        self.ws = ws
        self.session = uuid.uuid4().hex

    def send(self, msg_type: str, content: dict[str, Any], metadata: dict[str, Any] | None = None) -> str:
        msg_id = uuid.uuid4().hex
        header = {
            "msg_id": msg_id,
            "msg_type": msg_type,
            "session": self.session,
            "username": "learner",
            "date": datetime.datetime.now(datetime.UTC).isoformat(),
            "version": "5.3",
        }
        message = {"header": header, "parent_header": {}, "metadata": metadata or {}, "content": content}
        self.ws.write_message(pack("shell", message), binary=True)
        return msg_id

    async def receive(self, timeout: float) -> tuple[str, dict[str, Any], dict[str, Any]]:
        data = await asyncio.wait_for(self.ws.read_message(), timeout)
        if data is None:
            raise ConnectionError("the server closed the kernel websocket")
        if isinstance(data, str):
            raise ConnectionError("a text frame on a v1 kernel websocket")
        return unpack(data)


# --- one learner -------------------------------------------------------------------------------


KINDS = ("after a pause", "clicks", "key held")


@dataclass(frozen=True)
class Pace:
    """How a learner steps: every ``every``-th step after a reading pause, the others clicked
    quickly, and the last ``held`` steps at the key-repeat rate."""

    click: tuple[float, float] = (0.1, 0.3)
    pause: tuple[float, float] = (1.0, 3.0)
    every: int = 5
    held: int = 10
    repeat: float = 0.04

    def wait(self, step: int, steps: int, rng: random.Random) -> tuple[float, str]:
        """Seconds to wait before this step, and its kind."""
        if step >= steps - self.held:
            return self.repeat, "key held"
        if step % self.every == 0:
            return rng.uniform(*self.pause), "after a pause"
        return rng.uniform(*self.click), "clicks"


@dataclass
class Step:
    sent: float  # perf_counter() when the click was sent
    ms: float
    kind: str


@dataclass
class Learner:
    index: int
    page_s: float | None = None
    kernel_id: str | None = None
    steps: list[Step] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


async def learn(learner: Learner, base: str, *, delay: float, steps: int, pace: Pace, rng: random.Random) -> None:
    await asyncio.sleep(delay)
    try:
        start = time.perf_counter()
        http = AsyncHTTPClient()
        response = await http.fetch(
            f"{base}/voila/render/replay.ipynb?{LINK}", request_timeout=PAGE_TIMEOUT, connect_timeout=30
        )
        page = response.body.decode()
        learner.page_s = time.perf_counter() - start
        if "Traceback" in page:
            learner.errors.append("the page shows a traceback")
        found = re.search(r'"kernelId": "([0-9a-f-]{36})"', page)
        if not found:
            learner.errors.append("no kernel id in the page")
            return
        learner.kernel_id = found.group(1)
        cookie = "; ".join(c.split(";")[0] for c in response.headers.get_list("Set-Cookie"))
        session = uuid.uuid4().hex
        request = HTTPRequest(
            f"{base.replace('http://', 'ws://', 1)}/api/kernels/{learner.kernel_id}/channels?session_id={session}",
            headers={"Cookie": cookie},
            connect_timeout=30,
            request_timeout=60,
        )
        kernel = Kernel(await websocket_connect(request, subprotocols=[PROTOCOL]))
        try:
            await step_through(kernel, learner, steps=steps, pace=pace, rng=rng)
        finally:
            kernel.ws.close()  # the learner closes the page
    except (OSError, HTTPClientError, ConnectionError, TimeoutError, KeyError, ValueError) as error:
        learner.errors.append(f"{type(error).__name__}: {error}")


async def step_through(kernel: Kernel, learner: Learner, *, steps: int, pace: Pace, rng: random.Random) -> None:
    kernel.send("kernel_info_request", {})
    while True:
        channel, header, _ = await kernel.receive(30)
        if channel == "shell" and header["msg_type"] == "kernel_info_reply":
            break
    control = uuid.uuid4().hex
    kernel.send(
        "comm_open", {"comm_id": control, "target_name": "jupyter.widget.control", "data": {}}, {"version": "1.0.0"}
    )
    kernel.send("comm_msg", {"comm_id": control, "data": {"method": "request_states"}})
    states: dict[str, Any] | None = None
    while states is None:
        _, header, content = await kernel.receive(30)
        if header["msg_type"] == "comm_msg" and content.get("comm_id") == control:
            states = content["data"]["states"]
    forward = next(k for k, v in states.items() if v["state"].get("description") == "▶")
    board = next(k for k, v in states.items() if "scene" in v["state"])
    step = states[board]["state"]["scene"]["step"]
    for index in range(steps):
        wait, kind = pace.wait(index, steps, rng)
        await asyncio.sleep(wait)
        sent = time.perf_counter()
        kernel.send("comm_msg", {"comm_id": forward, "data": {"method": "custom", "content": {"event": "click"}}})
        deadline = sent + STEP_TIMEOUT
        while True:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                learner.errors.append(f"no board update for step {step + 1} within {STEP_TIMEOUT:.0f} s")
                return
            try:
                _, header, content = await kernel.receive(remaining)
            except TimeoutError:
                continue
            if header["msg_type"] != "comm_msg" or content.get("comm_id") != board:
                continue
            scene = content["data"].get("state", {}).get("scene")
            if scene is None:
                continue
            if scene["step"] != step + 1:
                learner.errors.append(f"the board showed step {scene['step']}, not {step + 1}")
                return
            learner.steps.append(Step(sent, (time.perf_counter() - sent) * 1000, kind))
            step += 1
            break


# --- servers and what they use -----------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Server:
    label: str
    url: str
    process: psutil.Process

    def kernels(self) -> list[psutil.Process]:
        found: list[psutil.Process] = []
        try:
            children = self.process.children(recursive=True)
        except psutil.Error:  # the server has stopped
            return found
        for child in children:
            try:
                if "ipykernel" in " ".join(child.cmdline()):
                    found.append(child)
            except psutil.Error:
                continue
        return found


@contextmanager
def server(label: str, apps: Path, *extra: str) -> Iterator[Server]:
    """``tricklab serve`` (the README's command) on a free loopback port, logging to a temp file."""
    pooled = "--pool-size" not in extra or extra[extra.index("--pool-size") + 1] != "0"
    port = free_port()
    log = open(apps.parent / f"{label}.log", "wb")  # noqa: SIM115 - closed below
    command = [sys.executable, "-m", "tricklab", "serve", "--port", str(port), "--apps", str(apps), *extra]
    proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=apps.parent)
    try:
        served = Server(label, f"http://127.0.0.1:{port}", psutil.Process(proc.pid))
        deadline = time.monotonic() + 120
        while True:  # answering, and its preheated kernel started
            if proc.poll() is not None:
                raise RuntimeError(f"{label} server exited: see {log.name}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    if served.kernels() or not pooled:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"{label} server not ready within 120 s")
            time.sleep(0.5)
        time.sleep(3)  # let the pool's kernel finish running the app
        yield served
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@dataclass
class Usage:
    server_peak_mib: float = 0.0
    kernels_peak: int = 0
    kernel_mib: list[float] = field(default_factory=list)  # each kernel, when the steps were over
    cpu_s: float = 0.0


def rss_mib(proc: psutil.Process) -> float:
    try:
        return float(proc.memory_info().rss) / MIB
    except psutil.Error:
        return 0.0


def cpu_s(procs: list[psutil.Process]) -> float:
    total = 0.0
    for proc in procs:
        try:
            times = proc.cpu_times()
            total += times.user + times.system
        except psutil.Error:
            continue
    return total


async def watch(served: Server, usage: Usage, stop: asyncio.Event) -> None:
    while not stop.is_set():
        usage.server_peak_mib = max(usage.server_peak_mib, rss_mib(served.process))
        usage.kernels_peak = max(usage.kernels_peak, len(served.kernels()))
        with suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.5)


async def kernels_left(served: Server, kernel_ids: list[str]) -> int:
    http = AsyncHTTPClient()
    left = 0
    for kernel_id in kernel_ids:
        try:
            await http.fetch(f"{served.url}/api/kernels/{kernel_id}", request_timeout=10)
            left += 1
        except HTTPClientError as error:
            if error.code != 404:
                left += 1
    return left


# --- one run: N learners on one server -----------------------------------------------------------


@dataclass
class Run:
    label: str
    learners: list[Learner]
    usage: Usage
    last_page_at: float
    closed_at: float
    left: int | None = None
    unfinished: int = 0


async def run_class(served: Server, n: int, args: argparse.Namespace, seed: int, deadline: float) -> Run:
    rng = random.Random(seed)
    learners = [Learner(i) for i in range(n)]
    usage = Usage()
    stop = asyncio.Event()
    watcher = asyncio.create_task(watch(served, usage, stop))
    before = cpu_s([served.process, *served.kernels()])
    tasks = [
        asyncio.create_task(
            learn(
                learner,
                served.url,
                delay=args.ramp * i / max(1, n - 1) if n > 1 else 0.0,
                steps=args.steps,
                pace=Pace(click=(args.click[0], args.click[1]), pause=(args.pause[0], args.pause[1])),
                rng=random.Random(rng.random()),
            )
        )
        for i, learner in enumerate(learners)
    ]
    # the kernels' memory is read just before the last learner leaves, when all have stepped
    _done, pending = await asyncio.wait(tasks, timeout=max(1.0, deadline - time.monotonic()))
    for task in pending:
        task.cancel()
    unfinished = len(pending)
    if pending:
        await asyncio.wait(pending)
    closed_at = time.monotonic()
    usage.cpu_s = cpu_s([served.process, *served.kernels()]) - before
    stop.set()
    await watcher
    ids = {learner.kernel_id for learner in learners if learner.kernel_id}
    usage.kernel_mib = [rss_mib(k) for k in served.kernels() if kernel_id_of(k) in ids]
    last_page = max((ln.page_s or 0.0) + args.ramp * ln.index / max(1, n - 1) for ln in learners)
    return Run(served.label, learners, usage, last_page, closed_at, unfinished=unfinished)


def kernel_id_of(proc: psutil.Process) -> str | None:
    """The kernel id from a kernel's connection file name (``kernel-<id>.json``)."""
    try:
        found = re.search(r"kernel-([0-9a-f-]{36})\.json", " ".join(proc.cmdline()))
    except psutil.Error:
        return None
    return found.group(1) if found else None


# --- the report ----------------------------------------------------------------------------------


async def block_outside(context: Any) -> None:
    """Block every request of a Playwright browser ``context`` that leaves 127.0.0.1."""

    async def route(r: Any) -> None:
        if r.request.url.startswith(("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:")):
            await r.continue_()
        else:
            await r.abort()

    await context.route("**/*", route)


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def latencies(run: Run, *, kind: str | None = None, from_: float = 0.0) -> list[float]:
    return [
        step.ms
        for learner in run.learners
        for step in learner.steps
        if (kind is None or step.kind == kind) and step.sent >= from_
    ]


def slow(values: list[float]) -> float:
    """Per cent of steps of 40 ms or more, the delayed-ACK wait that Nagle's algorithm adds."""
    return 100 * sum(v >= 40 for v in values) / len(values) if values else float("nan")


def row(n: int, run: Run, started: float) -> str:
    every = latencies(run)
    steady = latencies(run, from_=started + run.last_page_at)
    kinds = " / ".join(f"{pct(latencies(run, kind=kind), 0.5):.0f}" for kind in KINDS)
    pages = [learner.page_s for learner in run.learners if learner.page_s is not None]
    errors = sum(len(learner.errors) for learner in run.learners)
    kernel = statistics.median(run.usage.kernel_mib) if run.usage.kernel_mib else float("nan")
    left = "?" if run.left is None else str(run.left)
    return (
        f"| {n} | {run.label} | {len(every)} | {pct(every, 0.5):.0f} | {pct(every, 0.95):.0f} "
        f"| {max(every, default=float('nan')):.0f} | {slow(every):.0f} | {kinds} "
        f"| {pct(steady, 0.95):.0f} "
        f"| {pct(pages, 0.5):.1f} / {pct(pages, 0.95):.1f} | {errors + run.unfinished} "
        f"| {run.usage.server_peak_mib:.0f} | {kernel:.0f} | {run.usage.kernels_peak} "
        f"| {run.usage.cpu_s:.0f} | {left} |"
    )


HEADER = (
    "| learners | server | steps | p50 ms | p95 ms | max ms | steps ≥ 40 ms % "
    "| p50 after a pause / clicks / key held ms | p95 once all loaded ms "
    "| page p50 / p95 s | errors | server RSS peak MiB | kernel RSS MiB (median) | kernels peak | CPU s "
    "| kernels left 2 min after |\n"
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
)


async def main_async(args: argparse.Namespace) -> int:
    AsyncHTTPClient.configure(None, max_clients=max(args.learners) * 2 + 10)
    began = time.monotonic()
    deadline = began + args.deadline
    print(
        f"classroom: replay app ({LINK}), {args.steps} steps per learner: clicks {args.click[0]}-{args.click[1]} s"
        f" apart, a pause of {args.pause[0]}-{args.pause[1]} s before every 5th, the last {Pace.held} steps"
        f" {Pace.repeat} s apart (key held); arrivals over {args.ramp:.0f} s; learners {args.learners}"
    )
    print(
        f"machine: {os.cpu_count()} cores, {psutil.virtual_memory().total / 2**30:.0f} GiB, Python "
        f"{platform.python_version()}, {versions()}"
    )
    work = Path(tempfile.mkdtemp(prefix="tricklab-classroom-"))
    apps = work / "apps"
    apps.mkdir()
    for name in ("replay.ipynb", "voila.json"):
        shutil.copy(ROOT / "voila_apps" / name, apps / name)
    results: list[tuple[int, Run, float]] = []
    checks: list[asyncio.Task[None]] = []
    # a class's kernels may outlive it by a minute while the next class arrives
    room = ("--max-kernels", str(2 * max(args.learners) + 2))
    try:
        with server("nodelay", apps, *room) as fixed, server("no-nodelay", apps, "--no-nodelay", *room) as plain:
            print(
                f"idle: server RSS {rss_mib(fixed.process):.0f} MiB, preheated kernel "
                f"{statistics.median(rss_mib(k) for k in fixed.kernels()):.0f} MiB"
            )
            # the mechanism alone first: one learner holding → (a step every 40-50 ms), on each server
            for served in (fixed, plain):
                probe = await run_class(served, 1, PROBE, seed=1, deadline=deadline - LEFT_AFTER)
                steps = latencies(probe)
                print(
                    f"  probe, 1 learner, {PROBE.steps} steps 40-50 ms apart, {served.label}:"
                    f" p50 {pct(steps, 0.5):.0f} ms, p95 {pct(steps, 0.95):.0f} ms,"
                    f" steps ≥ 40 ms {slow(steps):.0f} %",
                    flush=True,
                )
            for order, n in enumerate(args.learners):
                # alternate which server goes first, so that other work on the machine favours neither
                for index, served in enumerate((fixed, plain) if order % 2 == 0 else (plain, fixed)):
                    if time.monotonic() > deadline - LEFT_AFTER:
                        print(f"deadline: {n} learners on {served.label} not run")
                        continue
                    started = time.perf_counter()
                    load = os.getloadavg()[0]
                    run = await run_class(served, n, args, seed=n * 2 + index, deadline=deadline - LEFT_AFTER)
                    results.append((n, run, started))
                    print(
                        f"  {n} learners, {served.label}: done in {time.perf_counter() - started:.0f} s"
                        f" (1-minute load average of the machine {load:.1f} before, {os.getloadavg()[0]:.1f} after)",
                        flush=True,
                    )
                    checks.append(asyncio.create_task(count_left(served, run)))
            await asyncio.gather(*checks)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print()
    print(HEADER)
    for n, run, started in results:
        print(row(n, run, started))
    print()
    for n in args.learners:
        pair = {run.label: run for m, run, _ in results if m == n}
        if len(pair) == 2:
            for kind in (None, *KINDS):
                on = pct(latencies(pair["nodelay"], kind=kind), 0.5)
                off = pct(latencies(pair["no-nodelay"], kind=kind), 0.5)
                print(
                    f"{n} learners, {kind or 'all steps'}: step p50 without TCP_NODELAY / with"
                    f" = {off:.0f} / {on:.0f} ms = {off / on:.1f}x"
                )
    errors = [(n, run.label, e) for n, run, _ in results for ln in run.learners for e in ln.errors]
    for n, label, error in errors[:10]:
        print(f"error ({n} learners, {label}): {error}")
    print(f"total time {time.monotonic() - began:.0f} s")
    return 0


async def count_left(served: Server, run: Run) -> None:
    await asyncio.sleep(max(0.0, run.closed_at + LEFT_AFTER - time.monotonic()))
    run.left = await kernels_left(served, [ln.kernel_id for ln in run.learners if ln.kernel_id])


def versions() -> str:
    from importlib.metadata import version

    return ", ".join(f"{name} {version(name)}" for name in ("voila", "jupyter_server", "tornado", "ipywidgets"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, nargs="+", default=[10, 30, 60])
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--click", type=float, nargs=2, default=[0.1, 0.3], metavar=("MIN", "MAX"))
    parser.add_argument("--pause", type=float, nargs=2, default=[1.0, 3.0], metavar=("MIN", "MAX"))
    parser.add_argument("--ramp", type=float, default=20.0, help="seconds over which the learners arrive")
    parser.add_argument("--deadline", type=float, default=1800.0, help="seconds for the whole run")
    args = parser.parse_args()
    if max(args.learners) > 200 or args.steps > 500 or min(args.learners) < 1:
        parser.error("1 to 200 learners and at most 500 steps")
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    raise SystemExit(main())
