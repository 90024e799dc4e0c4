"""The README's main command: ``tricklab serve`` serves the app gallery with Voilà."""

from __future__ import annotations

import json
import logging
import shutil
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psutil
import pytest
from tornado.httputil import HTTPHeaders, HTTPServerRequest, RequestStartLine
from tornado.web import Application
from traitlets.config import Config

from tricklab import serve, serve_settings
from tricklab.__main__ import main, serve_command

from .servers import (
    KernelSocket,
    Served,
    fetch,
    free_port,
    kernel_model,
    open_app_page,
    open_page,
    serving,
    tcp_nodelay_in_process,
    voila_command,
)

ROOT = Path(__file__).resolve().parent.parent


def test_serve_command_defaults_to_loopback() -> None:
    command = serve_command("127.0.0.1", 8866, ROOT / "voila_apps", open_browser=False)
    assert "--Voila.ip=127.0.0.1" in command and "--port=8866" in command and "--no-browser" in command


def test_serve_renders_the_rulebook_app(voila_url: str) -> None:
    with urllib.request.urlopen(voila_url + "/", timeout=10) as response:
        assert response.status == 200
        assert "Voilà" in response.read().decode()
    with urllib.request.urlopen(voila_url + "/voila/render/rulebooks.ipynb", timeout=60) as response:
        page = response.read().decode()
    # Voilà runs the notebook on the server: the rendered clause text is in the page
    assert "tricklab rulebooks" in page
    assert "Who leads first" in page


@pytest.mark.browser
def test_gallery_lists_the_apps_and_the_rulebook_shows_in_chromium(voila_url: str, browser: Any) -> None:
    page, _ = open_page(browser, voila_url + "/")
    for app in ("explain_trick.ipynb", "replay.ipynb", "rulebooks.ipynb"):
        page.get_by_text(app).first.wait_for(timeout=60_000)
    page.goto(voila_url + "/voila/render/rulebooks.ipynb")
    page.get_by_text("ts.lead.first").wait_for(timeout=60_000)
    # the headings are Markdown outputs, rendered after the rulebooks' own HTML
    page.get_by_role("heading", name="Tricks & Stones").wait_for(timeout=60_000)
    text = page.inner_text("body")
    page.close()
    assert "Tricks & Stones" in text and "Who leads first" in text


#: paths no page asks for, at which Voilà's or jupyter_server's own handlers failed with a 500
ODD_PATHS = (
    "/logout",
    "/voila/render/play.ipynb%00.png",
    "/voila/render/play.ipynb%0a.png",
    "/voila/files/x%00.png",
    "/voila/templates/../..",
    "/voila/templates/..",
    "/voila/templates/%2e%2e/%2e%2e",
    "/voila/templates/lab/foo",
    "/voila/templates/lab/static/../../x",
)


def test_odd_paths_are_not_found_and_the_apps_files_are(voila_url: str) -> None:
    for path in ODD_PATHS:
        answer = fetch(voila_url + path, timeout=30)
        assert answer.status == 404, (path, answer.status)
        assert "Traceback" not in answer.body
    for path in ("/voila/templates/lab/static/index.css", "/voila/static/voila.js", "/voila/render/rulebooks.ipynb"):
        assert fetch(voila_url + path).status == 200, path


@pytest.mark.parametrize("path", ODD_PATHS)
def test_an_odd_path_is_told_from_the_apps_paths(path: str) -> None:
    assert serve.is_odd_path(path)
    assert serve.is_odd_path("/base" + path, "/base/")


def test_the_apps_paths_are_not_odd() -> None:
    for path in (
        "/",
        "/voila/render/replay.ipynb",
        "/voila/templates/lab/static/index.css",
        "/voila/static/voila.js",
        "/voila/files/screenshots/play-light.png",
        "/voila/tree/",
        "/api/kernels/0c5e4d13-1c4b-4d7a-9f5e-1c2d3e4f5a6b/channels",
        "/login",
        "/voila/render/a%20b.ipynb",
    ):
        assert not serve.is_odd_path(path), path


# --- the classroom fixes of tricklab.serve -------------------------------------------------------

CULL_AFTER = 10  # seconds; short so that the culling test takes seconds (the default is 40)
CULL_EVERY = 2


def test_serve_command_carries_the_classroom_fixes() -> None:
    command = serve_command("127.0.0.1", 8866, ROOT / "voila_apps", open_browser=False)
    # Voilà with the link guard and the kernel limit, not plain Voilà
    assert command[1:3] == ["-m", "tricklab.serve"]
    assert f"--ClassroomKernelManager.max_kernels={serve_settings.default_max_kernels()}" in command
    assert "--VoilaConfiguration.allow_template_override=NO" in command
    assert "--Voila.kernel_websocket_connection_class=tricklab.serve.NoDelayKernelConnection" in command
    assert "--MappingKernelManager.cull_connected=False" in command
    assert f"--MappingKernelManager.cull_idle_timeout={serve_settings.CULL_AFTER}" in command
    assert "--VoilaConfiguration.preheat_kernel=True" in command
    plain = serve_command("127.0.0.1", 1, ROOT, False, options=serve_settings.ServeOptions(pool_size=0, nodelay=False))
    assert not any("kernel_websocket_connection_class" in part for part in plain)
    assert "--VoilaConfiguration.preheat_kernel=False" in plain
    assert not any("xsrf" in part.lower() for part in command + plain), "XSRF protection stays on"


@pytest.mark.parametrize(
    "bad",
    [
        ["--pool-size", "-1"],
        ["--pool-size", "1000"],
        ["--cull-after", "0"],
        ["--port", "x"],
        ["--max-kernels", "0"],
        ["--max-kernels", "x"],
        ["--max-kernels", "7"],  # the pool alone keeps 7: one per app of voila_apps/
    ],
)
def test_serve_refuses_bad_options(bad: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["serve", *bad])
    assert exit_.value.code == 2
    assert "error" in capsys.readouterr().err


def test_serve_refuses_a_port_already_taken(capsys: pytest.CaptureFixture[str]) -> None:
    """Voilà would quietly move to the next port and the printed address would be wrong."""
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(SystemExit) as exit_:
            main(["serve", "--port", str(port)])
    assert exit_.value.code == 2
    assert f"port {port} on 127.0.0.1 is taken" in capsys.readouterr().err
    assert "--Voila.port_retries=0" in serve_command("127.0.0.1", port, Path("."), False)  # nor would Voilà move


def test_the_version_has_one_source(capsys: pytest.CaptureFixture[str]) -> None:
    import importlib.metadata

    import tricklab

    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"tricklab {tricklab.__version__}"
    assert importlib.metadata.version("tricklab") == tricklab.__version__  # the package's metadata reads it


def test_help_is_plain_text(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    said = capsys.readouterr().out
    assert "tricklab serve" in said and "--version" in said
    assert "``" not in said and ":mod:" not in said and ":class:" not in said


def test_jupyter_config_has_the_same_fixes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["jupyter-config", "--cull-after", "300"]) == 0
    config = json.loads(capsys.readouterr().out)
    assert config["ServerApp"]["kernel_websocket_connection_class"] == "tricklab.serve.NoDelayKernelConnection"
    assert config["MappingKernelManager"] == {"cull_idle_timeout": 300, "cull_interval": 60, "cull_connected": False}
    assert issubclass(serve.NoDelayKernelConnection, serve.ZMQChannelsWebsocketConnection)
    # the link guard is a server extension; without it no link sets the theme or the template
    assert config["ServerApp"]["jpserver_extensions"] == {"tricklab.serve": True}
    assert config["VoilaConfiguration"]["allow_theme_override"] == "NO"
    assert config["VoilaConfiguration"]["allow_template_override"] == "NO"
    assert serve._jupyter_server_extension_points() == [{"module": "tricklab.serve"}]


def test_plain_voila_with_the_apps_config_takes_no_theme_or_template_from_a_link() -> None:
    settings = json.loads((ROOT / "voila_apps" / "voila.json").read_text())["VoilaConfiguration"]
    assert settings["allow_theme_override"] == "NO" and settings["allow_template_override"] == "NO"


class FakeServerApp:
    """What the extension uses of a Jupyter ServerApp: its tornado application, config and log."""

    def __init__(self) -> None:
        self.web_app = Application()
        self.config = Config({"VoilaConfiguration": {"allow_theme_override": "NO"}})
        self.log = logging.getLogger("test")


def test_the_server_extension_guards_links_before_it_lets_them_choose_a_theme() -> None:
    app = FakeServerApp()
    serve._load_jupyter_server_extension(app)  # type: ignore[arg-type]
    assert serve.ThemeGuard in app.web_app.transforms
    assert app.config.VoilaConfiguration.allow_theme_override == "YES"
    assert app.config.VoilaConfiguration.allow_template_override == "NO"


def request(uri: str, *, body: bytes = b"", method: str = "GET") -> HTTPServerRequest:
    headers = HTTPHeaders({"Host": "127.0.0.1"})
    if body:
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    return HTTPServerRequest(start_line=RequestStartLine(method, uri, "HTTP/1.1"), headers=headers, body=body)


@pytest.mark.parametrize(
    ("query", "kept"),
    [
        ("theme=dark", [b"dark"]),
        ("theme=light", [b"light"]),
        ("theme=dark&theme=%22%3E%3Cscript%3E", [b"dark"]),
        ("theme=%22%3E%3Cscript%3E&theme=light", [b"light"]),
        ("theme=light&theme=dark", [b"dark"]),  # the last, as tornado's get_argument reads it
        ("theme=%22%3E%3Cscript%3E", None),
        ("theme=Dark", None),
        ("theme=JupyterLab%20Dark", None),
        ("theme=dark%20", None),
        ("theme=%2564ark", None),
        ("theme=", None),
        ("game=jewel-vault", None),
    ],
)
def test_the_guard_keeps_a_theme_only_if_it_is_light_or_dark(query: str, kept: list[bytes] | None) -> None:
    checked = request(f"/voila/render/replay.ipynb?{query}&seed=3&template=lab")
    serve.ThemeGuard(checked)
    for arguments in (checked.arguments, checked.query_arguments):
        assert arguments.get("theme") == kept
        assert "template" not in arguments  # a link never picks a template
        assert arguments["seed"] == [b"3"]  # the app's own parameters are the app's to check


def test_the_guard_drops_a_gets_body_which_would_add_arguments() -> None:
    checked = request("/voila/render/replay.ipynb?theme=dark", body=b"theme=%22%3E%3Cscript%3E")
    serve.ThemeGuard(checked)
    checked._parse_body()  # what tornado does next
    assert checked.arguments["theme"] == [b"dark"]
    posted = request("/voila/api/shutdown/x", body=b"a=1", method="POST")
    serve.ThemeGuard(posted)
    assert posted.body == b"a=1"


def test_the_default_limit_on_kernels_is_half_the_memory_at_62_mib_a_kernel() -> None:
    gib = 2**30
    assert serve_settings.KERNEL_MIB == 62
    assert serve_settings.default_max_kernels(16 * gib) == 16 * 1024 // 2 // 62 == 132
    assert serve_settings.default_max_kernels(24 * gib) == 198
    assert serve_settings.default_max_kernels(gib) == serve_settings.MIN_KERNELS  # 8 by memory: too few
    assert serve_settings.default_max_kernels(4096 * gib) == serve_settings.MAX_KERNELS
    here = serve_settings.machine_memory()
    assert here is None or serve_settings.default_max_kernels() == serve_settings.default_max_kernels(here)


def test_the_class_full_page_says_what_to_do_in_escaped_html() -> None:
    page = serve.class_full_page(12)
    assert "The class is full: this server runs at most 12 apps at once; close a tab or try again in a minute." in page
    assert page.startswith("<!DOCTYPE html>") and "Traceback" not in page


def classroom_command(port: int, apps: Path, *extra: str) -> list[str]:
    return [*voila_command(port), "--apps", str(apps), *extra]


@pytest.fixture(scope="module")
def replay_only(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An app folder with the replay app alone, so a server's pool holds one kernel."""
    folder = tmp_path_factory.mktemp("apps")
    for name in ("replay.ipynb", "voila.json"):
        shutil.copy(ROOT / "voila_apps" / name, folder / name)
    return folder


@pytest.fixture(scope="module")
def classroom(replay_only: Path) -> Iterator[Served]:
    """``tricklab serve`` with its fixes, a pool of one and culling in seconds."""
    port = free_port()
    timings = ("--pool-size", "1", "--cull-after", str(CULL_AFTER), "--cull-every", str(CULL_EVERY))
    with serving(classroom_command(port, replay_only, *timings), f"http://127.0.0.1:{port}/") as served:
        yield Served(served.url.rstrip("/"), served.pid)


def nodelay_of_a_live_kernel_websocket(server: Served) -> bool:
    """Open an app, connect to its kernel's websocket, check it carries messages, read the option."""
    kernel_id, cookie = open_app_page(server.url, "replay", "game=band-of-tricks&seed=3")
    client = KernelSocket(server.url, kernel_id, cookie)
    try:
        assert client.request("kernel_info_request", {})["status"] == "ok"
        model = kernel_model(server.url, kernel_id)
        assert model is not None and model["connections"] == 1
        try:
            return tcp_nodelay_in_process(server.pid, client.local_address)
        except PermissionError as error:
            pytest.skip(f"this system does not let a process read another's socket (pidfd_getfd): {error}")
    finally:
        client.close()


def test_tcp_nodelay_is_set_on_the_live_kernel_websocket(classroom: Served, replay_only: Path) -> None:
    assert nodelay_of_a_live_kernel_websocket(classroom) is True
    # the control: the same server without the fix leaves the option off, so the fix is what sets it
    port = free_port()
    command = classroom_command(port, replay_only, "--pool-size", "0", "--no-nodelay")
    with serving(command, f"http://127.0.0.1:{port}/") as plain:
        assert nodelay_of_a_live_kernel_websocket(Served(plain.url.rstrip("/"), plain.pid)) is False


def test_xsrf_protection_is_left_on(classroom: Served) -> None:
    kernel_id, cookie = open_app_page(classroom.url, "replay")
    request = urllib.request.Request(
        f"{classroom.url}/voila/api/shutdown/{kernel_id}", method="POST", headers={"Cookie": cookie}
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 403 and "_xsrf" in refused.value.read().decode()
    assert kernel_model(classroom.url, kernel_id) is not None


def kernel_of(page: Any) -> str:
    config = page.evaluate("JSON.parse(document.getElementById('jupyter-config-data').textContent)")
    kernel_id: str = config["kernelId"]
    return kernel_id


def wait_connected(base: str, kernel_id: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while (model := kernel_model(base, kernel_id)) is None or model["connections"] < 1:
        assert model is not None, "the kernel went away before its page connected"
        assert time.monotonic() < deadline, "the page never connected to its kernel"
        time.sleep(0.2)


def kernel_processes(pid: int) -> int:
    return sum("ipykernel" in " ".join(p.cmdline()) for p in psutil.Process(pid).children(recursive=True))


@pytest.mark.browser
def test_a_closed_pages_kernel_is_culled_and_an_open_pages_is_not(classroom: Served, browser: Any) -> None:
    base = classroom.url
    open_, _ = open_page(browser, f"{base}/voila/render/replay.ipynb?game=tricks-and-stones&seed=7")
    open_.locator(".tricklab-board .tl-card").first.wait_for(timeout=90_000)
    kept = kernel_of(open_)
    wait_connected(base, kept)
    closing, _ = open_page(browser, f"{base}/voila/render/replay.ipynb?game=jewel-vault&seed=2")
    closing.locator(".tricklab-board .tl-card").first.wait_for(timeout=90_000)
    gone = kernel_of(closing)
    wait_connected(base, gone)
    assert gone != kept
    closing.close(run_before_unload=True)  # as a closed tab: its shutdown request is refused (XSRF)
    started = time.monotonic()
    while kernel_model(base, gone) is not None:
        assert time.monotonic() - started < CULL_AFTER + 3 * CULL_EVERY + 20, "the closed page's kernel was not culled"
        time.sleep(0.5)
    # the open page has been idle at least as long; let two more culling passes go by
    time.sleep(2 * CULL_EVERY + 1)
    model = kernel_model(base, kept)
    assert model is not None, "the open page's kernel was culled"
    assert model["connections"] >= 1 and model["execution_state"] == "idle"
    idle = datetime.now(UTC) - datetime.fromisoformat(model["last_activity"].replace("Z", "+00:00"))
    assert idle.total_seconds() > CULL_AFTER, "idle long enough to be culled, kept for its connection"
    assert kernel_processes(classroom.pid) == 2, "the open page's kernel and the preheated one remain"
    # and the open page still works
    open_.get_by_role("button", name="▶", exact=True).click()
    open_.wait_for_function("document.querySelector('.tricklab-board')?.dataset.step === '1'")
    open_.close()


def test_a_page_keeps_the_long_preheated_kernel_it_takes_until_it_connects(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """A kernel that waited in the pool longer than the cull timeout is idle since it was
    preheated; the page that takes it connects a second or so later. The culler must not take it
    in that gap (the page would load a dead kernel), and must still take it if no page ever connects."""
    folder = tmp_path_factory.mktemp("rulebooks")
    for name in ("rulebooks.ipynb", "voila.json"):  # an app that runs wholly while preheating
        shutil.copy(ROOT / "voila_apps" / name, folder / name)
    cull_after, cull_every = 3, 1
    port = free_port()
    timings = ("--pool-size", "1", "--cull-after", str(cull_after), "--cull-every", str(cull_every))
    with serving(classroom_command(port, folder, *timings), f"http://127.0.0.1:{port}/") as served:
        base = served.url.rstrip("/")
        time.sleep(cull_after + 2 * cull_every)  # the pool's kernel is now idle for longer than the timeout
        taken, _ = open_app_page(base, "rulebooks")  # a page takes it; no websocket connects here
        time.sleep(2 * cull_every + 0.5)  # two culling passes
        assert kernel_model(base, taken) is not None, "the kernel a page just took was culled before it connected"
        started = time.monotonic()
        while kernel_model(base, taken) is not None:  # a page that never connects: culled one timeout later
            assert time.monotonic() - started < cull_after + 4 * cull_every + 10, "a never-connected kernel stays"
            time.sleep(0.25)


# --- at most --max-kernels kernels ----------------------------------------------------------------

MAX_KERNELS = 3  # the pool's kernel and two pages


@pytest.fixture(scope="module")
def capped(replay_only: Path) -> Iterator[Served]:
    """``tricklab serve --max-kernels 3`` for the replay app alone (its pool keeps one kernel)."""
    port = free_port()
    limits = ("--pool-size", "1", "--max-kernels", str(MAX_KERNELS), "--cull-after", "600")
    with serving(classroom_command(port, replay_only, *limits), f"http://127.0.0.1:{port}/") as served:
        served.url = served.url.rstrip("/")
        yield served


def test_a_full_server_refuses_new_pages_with_a_clear_page_and_starts_no_kernel(capped: Served) -> None:
    assert f"tricklab: at most {MAX_KERNELS} kernels at once" in capped.output()
    deadline = time.monotonic() + 60
    while kernel_processes(capped.pid) < 1:  # the pool's kernel
        assert time.monotonic() < deadline, "the pool never started its kernel"
        time.sleep(0.2)
    peak = 0
    done = threading.Event()

    def watch() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, kernel_processes(capped.pid))
            time.sleep(0.05)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        # six learners open the link at once
        url = f"{capped.url}/voila/render/replay.ipynb?game=band-of-tricks&seed=3"
        with ThreadPoolExecutor(6) as learners:
            pages = list(learners.map(lambda _: fetch(url), range(6)))
        # Voilà refills its pool a second after a page takes its kernel: the server reaches its limit
        deadline = time.monotonic() + 60
        while kernel_processes(capped.pid) < MAX_KERNELS and time.monotonic() < deadline:
            time.sleep(0.2)
        settled = kernel_processes(capped.pid)
        late = fetch(url)  # and one more once the server has settled
        time.sleep(3)
        after = kernel_processes(capped.pid)
    finally:
        done.set()
        watcher.join()
    served = [page for page in pages if page.status == 200]
    refused = [page for page in pages if page.status == 503]
    assert len(served) == MAX_KERNELS - 1 and len(refused) == 6 - len(served), [p.status for p in pages]
    assert all("Band of Tricks" in page.body or "kernelId" in page.body for page in served)
    assert peak <= MAX_KERNELS, f"{peak} kernels ran at once"
    assert settled == after == MAX_KERNELS, "the refused pages started no kernel"
    for page in [*refused, late]:
        assert page.status == 503
        assert page.headers["Content-Type"].startswith("text/html")
        assert page.headers["Retry-After"] == "60"
        assert (
            f"The class is full: this server runs at most {MAX_KERNELS} apps at once; "
            "close a tab or try again in a minute." in page.body
        )
        assert "Traceback" not in page.body and "kernelId" not in page.body
