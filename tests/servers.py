"""Real servers and a real browser for the end-to-end tests.

Servers listen on 127.0.0.1 only; the browser is Debian's Chromium driven by
Playwright, and every request that is not to the loopback address is blocked, so
nothing outside this machine can decide a test.
"""

from __future__ import annotations

import ctypes
import errno
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "tests" / "artifacts"
NO_CHROMIUM = "Debian's Chromium is not installed at /usr/bin/chromium (apt-get install -y chromium)"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Served:
    """A server process that answers at ``url``, and what it has printed so far."""

    url: str
    pid: int
    lines: deque[str] = field(default_factory=lambda: deque(maxlen=20_000))

    def output(self) -> str:
        return "".join(self.lines)


@contextmanager
def running(command: list[str], url: str, *, cwd: Path = ROOT, timeout: float = 60) -> Iterator[str]:
    """Start a server process and yield ``url`` once it answers; stop it afterwards."""
    with serving(command, url, cwd=cwd, timeout=timeout) as served:
        yield served.url


@contextmanager
def serving(
    command: list[str], url: str, *, cwd: Path = ROOT, timeout: float = 60, env: dict[str, str] | None = None
) -> Iterator[Served]:
    """Like :func:`running`, and tell the server's process id (``tricklab serve`` execs Voilà in place).

    The server's output is read as it comes (a full pipe would stall the server) and kept, the
    last lines of it, in ``Served.lines``.
    """
    proc = subprocess.Popen(
        command,
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**(os.environ if env is None else env), "PYTHONUNBUFFERED": "1"},
    )
    served = Served(url, proc.pid)
    SERVED.append(served)

    def drain() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            served.lines.append(line.decode(errors="replace"))

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(url, timeout=2):
                    break
            except OSError:
                if proc.poll() is not None:
                    reader.join(timeout=5)
                    raise RuntimeError(f"{command[2:4]} exited early:\n{served.output()[-3000:]}") from None
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{url} did not answer within {timeout:.0f} s") from None
                time.sleep(0.25)
        yield served
    finally:
        SERVED.remove(served)
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
        reader.join(timeout=5)


def voila_command(port: int) -> list[str]:
    return [sys.executable, "-m", "tricklab", "serve", "--port", str(port)]


@dataclass
class PageLog:
    """What a page reported: uncaught errors, console errors, the requests we blocked and the
    dialogs (``alert``, ``confirm``, ``prompt``) it opened, each dismissed; and every text it
    showed (``shown``: the page's visible text each time it changed, see :data:`SHOWN_TEXT`)."""

    url: str = ""
    errors: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    shown: list[str] = field(default_factory=list)
    #: loopback requests that failed or were answered with an error (``"404 GET <url>"``) and
    #: those still waiting for their answer (by request): what a stuck page was waiting on
    unanswered: list[str] = field(default_factory=list)
    waiting: dict[Any, str] = field(default_factory=dict)
    checked: int = 0  # the texts of ``shown`` already checked
    blocked_checked: int = 0  # the requests of ``blocked`` already checked

    def javascript_errors(self) -> list[str]:
        """Errors not explained by a request we blocked on purpose (e.g. a CDN font)."""
        own = [e for e in self.console_errors if not (self.blocked and "net::ERR_FAILED" in e)]
        return self.errors + own

    def unplain_words(self, since: int = 0) -> list[str]:
        """Texts the page showed (from the ``since``-th on) that a learner should never read:
        notebook words ("kernel", "Executing 1 of 1", "cell") and actions written as codes
        ("pass 9H 3C", "bid 0 1 0")."""
        return [
            f"{found.group(0)!r} in {text[max(0, found.start() - 80) : found.end() + 80]!r}"
            for text in self.shown[since:]
            for found in UNPLAIN.finditer(text)
        ]


#: the pages every test opened (app pages are checked for unplain words after each test)
OPENED: list[PageLog] = []
#: the servers running in this process (their last lines go into a failed browser test's report)
SERVED: list[Served] = []

_COLOUR = "(?:red|orange|yellow|green|blue|purple)"
_CARD = r"(?:10|[2-9AKQJT])[SHDC]"
#: words of notebooks and action codes, never to be shown to a learner (a code in quotes is notation)
UNPLAIN = re.compile(
    r"\b(?:[Kk]ernels?|Executing|[Cc]ells?)\b"
    # a card's code where the narration names a card ("R15 beats R8", "AS is winning so far")
    + r"|\b(?:[RSPM]1?[0-9]|"
    + _CARD
    + r") (?:beats|places above|is winning)\b"
    # an action's written form in quotes is its notation explained (the rulebooks: "'sow 3' sows pit 3")
    + r"|(?<![\'\u2018\u201c])\b(?:(?i:play|plays|leads|follows with|wins trick [0-9]+ with) (?:"
    + _CARD
    + r"|[RSPM]1?[0-9])|(?i:pass) "
    + _CARD
    + r"(?: "
    + _CARD
    + r")*|(?<!you )(?<!to )predict [0-9]"
    + r"|bid (?:[0-6] [0-6] [0-6]|zero)|announce [1-3]|steal [0-9]|sow [1-6]|place [0-5](?: [0-5])?"
    + r"|move [0-5]>[0-5]|metal (?:rock|soul|pops)|mountain [12] "
    + _COLOUR
    + r"|field [12] "
    + _COLOUR
    + r" [0-9]|discard "
    + _COLOUR
    + r" [0-9]|claim "
    + _COLOUR
    + r")\b"
)
#: a script each page runs from its start: it reports the page's visible text each time it
#: changes (the loading screen's alone while it covers the page, as a learner sees it)
SHOWN_TEXT = """(() => {
  let last = "", queued = false;
  const report = () => {
    queued = false;
    if (!document.body) return;
    const cover = document.getElementById("tricklab-loading");
    const text = (cover || document.body).innerText;
    if (text !== last) { last = text; window.__tricklabShown(text); }
  };
  new MutationObserver(() => {
    if (!queued) { queued = true; requestAnimationFrame(report); }
  }).observe(document, {childList: true, subtree: true, characterData: true, attributes: true});
})();"""


def open_page(
    browser: Any, url: str, *, viewport: tuple[int, int] = (1280, 1000), reduced_motion: str | None = None
) -> tuple[Any, PageLog]:
    """A new page that blocks every non-loopback request and records errors (``reduced_motion="reduce"``:
    the page is told that its reader asked for reduced motion)."""
    options: dict[str, Any] = {"viewport": {"width": viewport[0], "height": viewport[1]}}
    if reduced_motion is not None:
        options["reduced_motion"] = reduced_motion
    page = browser.new_page(**options)
    return page, _watch(page, url)


#: a phone held upright: its screen in CSS pixels
PHONE = (390, 844)


def open_phone_page(browser: Any, url: str, *, viewport: tuple[int, int] = PHONE) -> tuple[Any, PageLog]:
    """Like :func:`open_page`, on a phone: a touch screen, a mobile viewport, two device pixels
    to a CSS pixel. The page's own context is closed with ``page.context.close()``."""
    context = browser.new_context(
        viewport={"width": viewport[0], "height": viewport[1]}, has_touch=True, is_mobile=True, device_scale_factor=2
    )
    page = context.new_page()
    return page, _watch(page, url)


def _watch(page: Any, url: str) -> PageLog:
    """Record what ``page`` reports, block every non-loopback request, then open ``url``."""
    log = PageLog(url)
    OPENED.append(log)

    def shown(text: str) -> None:
        log.shown.append(text)

    page.expose_function("__tricklabShown", shown)
    page.add_init_script(SHOWN_TEXT)
    page.on("pageerror", lambda exc: log.errors.append(str(exc)))
    page.on("console", lambda msg: log.console_errors.append(msg.text) if msg.type == "error" else None)

    def dialog(dialog: Any) -> None:
        log.dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    page.on("dialog", dialog)

    def asked(request: Any) -> None:
        log.waiting[request] = f"{request.method} {request.url[:200]}"

    def answered(response: Any) -> None:
        if response.status >= 400:
            log.unanswered.append(f"{response.status} {log.waiting.get(response.request, response.url[:200])}")

    def failed(request: Any) -> None:
        text = log.waiting.pop(request, request.url[:200])
        if request.url.startswith(("http://127.0.0.1", "ws://127.0.0.1")):
            log.unanswered.append(f"failed ({request.failure}) {text}")

    page.on("request", asked)
    page.on("response", answered)
    page.on("requestfinished", lambda request: log.waiting.pop(request, None))
    page.on("requestfailed", failed)

    _block_outside(page, log)
    page.goto(url)
    return log


def _block_outside(page: Any, log: PageLog) -> None:
    """Block every non-loopback request of ``page``'s browser context, so a page it opens (a link
    to a new tab) is blocked from its first request too; each blocked request is written to the
    log of the page that made it (a page opened from a watched page: the first page's log)."""
    context = page.context
    logs: dict[Any, PageLog] | None = getattr(context, "_tricklab_logs", None)
    if logs is not None:
        logs[page] = log
        return
    logs = {page: log}
    context._tricklab_logs = logs

    def route(route: Any) -> None:
        request_url = route.request.url
        if request_url.startswith(("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:")):
            route.continue_()
            return
        try:
            owner = logs.get(route.request.frame.page, log)
        except Exception:  # a request of no frame (a service worker's)
            owner = log
        owner.blocked.append(request_url)
        route.abort()

    context.route("**/*", route)


def launch(playwright: Any) -> Any:
    return playwright.chromium.launch(
        executable_path=str(CHROMIUM),
        args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
    )


# --- hostile links ------------------------------------------------------------------------------

#: what a payload sets when it runs
MARK = "__pwned"
#: attribute-breaking payloads for link parameters, each short enough that an app's message
#: quotes it whole (40 characters)
PAYLOADS = (
    f'"><img src=x onerror={MARK}=1>',
    f"' onmouseover='{MARK}=1' x='",
    f"</script><script>{MARK}=1</script>",
    f"javascript:{MARK}=1//",
    '"><svg onload=alert(1)>',
)


def assert_no_script_ran(page: Any, dialogs: list[str]) -> None:
    """No payload ran on ``page``: no dialog, no ``window.__pwned``, no injected handler or
    ``javascript:`` address, even after a mouseover on every element (that would run one)."""
    page.evaluate(
        "() => document.querySelectorAll('*')"
        ".forEach(e => e.dispatchEvent(new MouseEvent('mouseover', {bubbles: true})))"
    )
    page.wait_for_timeout(300)
    assert page.evaluate(f"() => window.{MARK}") is None, "a link's payload ran"
    assert dialogs == [], dialogs
    handlers = page.evaluate(
        """() => [...document.querySelectorAll('*')].flatMap(e => [...e.attributes]
            .filter(a => a.name.startsWith('on') || /^\\s*javascript:/i.test(a.value))
            .map(a => `<${e.tagName} ${a.name}=${a.value}>`))"""
    )
    assert handlers == [], handlers
    assert page.locator("img[src='x'], svg[onload]").count() == 0


# --- the kernel websocket, spoken as a Voilà page speaks it --------------------------------------

KERNEL_PROTOCOL = "v1.kernel.websocket.jupyter.org"
SYS_PIDFD_GETFD = 438  # the same number on every Linux architecture


@dataclass
class Fetched:
    """An HTTP response as the tests read it: error statuses included, the body as text."""

    status: int
    headers: Any  # email.message.Message
    body: str
    cookie: str  # the cookies the server set, as a Cookie header sends them back


def fetch(url: str, *, timeout: float = 120) -> Fetched:
    """GET ``url`` (on 127.0.0.1) and return the response, whatever its status."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            status, headers, body = response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        status, headers, body = error.code, error.headers, error.read()
    cookies = [c.split(";")[0] for c in headers.get_all("Set-Cookie") or []]
    return Fetched(status, headers, body.decode(errors="replace"), "; ".join(cookies))


def kernel_id_in(page: str) -> str | None:
    """The kernel id a Voilà page connects to, if the page has one."""
    found = re.search(r'"kernelId": "([0-9a-f-]{36})"', page)
    return found.group(1) if found else None


def shut_down_kernel(base: str, kernel_id: str, cookie: str) -> None:
    """Shut a page's kernel down as its page would, with an XSRF token (cookie and header agree)."""
    token = uuid.uuid4().hex
    request = urllib.request.Request(
        f"{base}/voila/api/shutdown/{kernel_id}",
        method="POST",
        data=b"",
        headers={"Cookie": f"{cookie}; _xsrf={token}" if cookie else f"_xsrf={token}", "X-XSRFToken": token},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status in (200, 204), response.status


def open_app_page(base: str, app: str, query: str = "", *, timeout: float = 120) -> tuple[str, str]:
    """GET an app's page as a browser does (Voilà runs the notebook in a kernel for it).

    Returns the page's kernel id and the cookies the server set.
    """
    url = f"{base}/voila/render/{app}.ipynb" + (f"?{query}" if query else "")
    with urllib.request.urlopen(url, timeout=timeout) as response:
        page = response.read().decode()
        cookies = [c.split(";")[0] for c in response.headers.get_all("Set-Cookie") or []]
    found = re.search(r'"kernelId": "([0-9a-f-]{36})"', page)
    if not found:
        raise AssertionError(f"no kernel id in the page of {url}")
    return found.group(1), "; ".join(cookies)


def kernel_model(base: str, kernel_id: str) -> dict[str, Any] | None:
    """The server's record of a kernel (``connections``, ``execution_state``...), None once it is gone."""
    try:
        with urllib.request.urlopen(f"{base}/api/kernels/{kernel_id}", timeout=10) as response:
            model: dict[str, Any] = json.loads(response.read())
            return model
    except urllib.error.HTTPError as error:
        if error.code == 404:
            return None
        raise


def _pack(channel: str, message: dict[str, Any]) -> bytes:
    parts = [json.dumps(message[key]).encode() for key in ("header", "parent_header", "metadata", "content")]
    offsets = [8 * (2 + len(parts) + 1)]
    for part in [channel.encode(), *parts]:
        offsets.append(offsets[-1] + len(part))
    head = len(offsets).to_bytes(8, "little") + b"".join(o.to_bytes(8, "little") for o in offsets)
    return head + channel.encode() + b"".join(parts)


def _unpack(data: bytes) -> tuple[str, dict[str, Any]]:
    count = int.from_bytes(data[:8], "little")
    offsets = [int.from_bytes(data[8 * (i + 1) : 8 * (i + 2)], "little") for i in range(count)]
    channel = data[offsets[0] : offsets[1]].decode()
    keys = ("header", "parent_header", "metadata", "content")
    message = {key: json.loads(data[offsets[i + 1] : offsets[i + 2]]) for i, key in enumerate(keys)}
    return channel, message


class KernelSocket:
    """A client of one kernel's websocket (protocol v1, as JupyterLab's and Voilà's front ends use)."""

    def __init__(self, base: str, kernel_id: str, cookie: str, *, timeout: float = 30) -> None:
        import websocket  # websocket-client, a dependency of jupyter_server

        self.session = uuid.uuid4().hex
        url = base.replace("http://", "ws://", 1) + f"/api/kernels/{kernel_id}/channels?session_id={self.session}"
        self.ws = websocket.create_connection(url, subprotocols=[KERNEL_PROTOCOL], cookie=cookie, timeout=timeout)

    @property
    def local_address(self) -> tuple[str, int]:
        """This end of the TCP connection: the server sees it as the peer."""
        address: tuple[str, int] = self.ws.sock.getsockname()
        return address

    def send(self, channel: str, msg_type: str, content: dict[str, Any], metadata: dict[str, Any] | None = None) -> str:
        msg_id = uuid.uuid4().hex
        header = {
            "msg_id": msg_id,
            "msg_type": msg_type,
            "session": self.session,
            "username": "",
            "date": datetime.now(UTC).isoformat(),
            "version": "5.3",
        }
        message = {"header": header, "parent_header": {}, "metadata": metadata or {}, "content": content}
        self.ws.send_binary(_pack(channel, message))
        return msg_id

    def request(self, msg_type: str, content: dict[str, Any], *, timeout: float = 30) -> dict[str, Any]:
        """Send a shell request and return the content of its reply."""
        msg_id = self.send("shell", msg_type, content)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            channel, message = _unpack(self.ws.recv())
            if channel == "shell" and message["parent_header"].get("msg_id") == msg_id:
                reply: dict[str, Any] = message["content"]
                return reply
        raise TimeoutError(f"no reply to {msg_type} within {timeout:.0f} s")

    def close(self) -> None:
        self.ws.close()


def tcp_nodelay_in_process(pid: int, peer: tuple[str, int]) -> bool:
    """TCP_NODELAY as set on the socket that process ``pid`` holds for its connection from ``peer``.

    The server's own socket is duplicated out of it with pidfd_getfd(2) (Linux 5.6 or newer; the
    same user with ptrace rights over the process, or root) and the option read back from the
    kernel with getsockopt, so the server needs no debug code and cannot report a stale flag.
    Raises ``PermissionError`` where the system does not allow it.
    """
    libc = ctypes.CDLL(None, use_errno=True)
    pidfd = os.pidfd_open(pid)
    try:
        for name in os.listdir(f"/proc/{pid}/fd"):
            try:
                if not os.readlink(f"/proc/{pid}/fd/{name}").startswith("socket:"):
                    continue
            except OSError:
                continue  # closed meanwhile
            fd = libc.syscall(SYS_PIDFD_GETFD, pidfd, int(name), 0)
            if fd < 0:
                err = ctypes.get_errno()
                if err == errno.EBADF:  # closed meanwhile
                    continue
                kind = PermissionError if err in (errno.EPERM, errno.EACCES) else OSError
                raise kind(err, os.strerror(err), "pidfd_getfd")
            with socket.socket(fileno=fd) as sock:
                try:
                    if sock.family != socket.AF_INET or sock.getpeername() != peer:
                        continue
                except OSError:
                    continue  # listening or not connected
                return bool(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
    finally:
        os.close(pidfd)
    raise LookupError(f"process {pid} holds no socket connected to {peer}")
