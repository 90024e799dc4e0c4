"""The "Connection lost" message only where it is right.

On an app's own page (Voilà, the static site) the board tells a learner that Python stopped
answering (tests/test_browser_connection.py). Elsewhere it must not: in JupyterLab a cell that
runs for a while keeps the kernel busy and every answer late, and JupyterLab shows the kernel's
state itself; a static export of the widgets' state (``nbconvert --to html``, nbviewer, a
Jupyter Book page) has no kernel at all, and its sends go nowhere.

The static export is opened with nothing from outside this machine: ``nbconvert`` is told to
load require.js and the widgets' HTML manager (``@jupyter-widgets/html-manager``, which the
exported page otherwise fetches from a CDN) from beside the page, where the test puts them from
the npm registry's packages (``npm pack``, kept in a cache) and anywidget's own AMD module from
its Python package, and the page is served on 127.0.0.1.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anywidget
import nbformat
import pytest
from playwright.sync_api import expect

from tricklab.platform import VOILA_MARKS

from .servers import ARTIFACTS, ROOT, free_port, open_page, open_phone_page, running

pytestmark = pytest.mark.browser

BOARD = ".tricklab-board"
BANNER = ".tricklab-connection"
#: long enough for an unanswered ping to have been declared lost (the board waits 3.5 s)
PAST_THE_WAIT_S = 4.5
#: how long the busy cell runs: room for a click, the wait above and a slow machine
BUSY_S = 10
#: what the exported page loads from beside it: (npm package, file in its tarball, name here)
FROM_NPM = (
    ("@jupyter-widgets/html-manager@1.0.15", "package/dist/embed-amd.js", "embed-amd.js"),
    ("requirejs@2.3.7", "package/require.js", "require.js"),
)
#: the kernel of the busy notebook: ipykernel 6, see :func:`ipykernel6`
IPYKERNEL6 = "6.29.5"
KERNEL = "ipykernel6"
KERNEL_NAME = "Python 3 (ipykernel 6)"
STEPPER = 'from tricklab.widgets import TrickStepper\n\nTrickStepper(game="jewel-vault", players=4, seed=3)'


def notebook(path: Path, *sources: str, kernel: str = "python3") -> Path:
    cells = [nbformat.v4.new_code_cell(source) for source in sources]
    book = nbformat.v4.new_notebook(cells=cells)
    book.metadata["kernelspec"] = {"name": kernel, "display_name": kernel, "language": "python"}
    nbformat.write(book, path)
    return path


def host_environment() -> dict[str, str]:
    """This process's environment without Voilà's marks (a notebook host's kernels have none)."""
    return {name: value for name, value in os.environ.items() if name not in VOILA_MARKS}


def no_banner_after_the_wait(page: Any) -> None:
    time.sleep(PAST_THE_WAIT_S)
    assert page.locator(BANNER).count() == 0, "the page says the connection is lost"


def screenshot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


# --- JupyterLab: a busy kernel is no lost connection ---------------------------------------------


def registry_cache() -> Path:
    """Where what the tests fetch from the package registries is kept between runs."""
    return Path(os.environ.get("TRICKLAB_TEST_CACHE") or Path.home() / ".cache" / "tricklab-tests")


@pytest.fixture(scope="module")
def ipykernel6() -> Path:
    """ipykernel 6 (what older hubs and hosted notebooks run), from PyPI into a folder of its own.

    ipykernel 7 handles a widget's messages while a cell runs, so its answers are never late;
    ipykernel 6 handles them after the cell, which is what this test needs. The kernel is this
    Python with that folder first on its path (everything else is this environment's).
    """
    folder = registry_cache() / f"ipykernel-{IPYKERNEL6}"
    if not (folder / "ipykernel_launcher.py").exists():
        partial = folder.with_name(folder.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        install = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(partial)]
        subprocess.run([*install, f"ipykernel=={IPYKERNEL6}", "nest_asyncio==1.6.0"], check=True, timeout=300)
        shutil.rmtree(folder, ignore_errors=True)
        partial.rename(folder)
    return folder


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory, ipykernel6: Path) -> Iterator[str]:
    """JupyterLab on a folder with one notebook (a stepper, then a cell that keeps the kernel
    busy) whose kernel is ipykernel 6."""
    folder = tmp_path_factory.mktemp("lab")
    share = tmp_path_factory.mktemp("share")
    spec = share / "kernels" / KERNEL
    spec.mkdir(parents=True)
    kernel = {
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": KERNEL_NAME,
        "language": "python",
        "env": {"PYTHONPATH": os.pathsep.join([str(ipykernel6), str(ROOT)])},
    }
    (spec / "kernel.json").write_text(json.dumps(kernel))
    notebook(folder / "busy.ipynb", STEPPER, f"import time\n\ntime.sleep({BUSY_S})", kernel=KERNEL)
    port = free_port()
    # the server's kernels inherit its environment: none of Voilà's marks in it
    assert os.environ == host_environment(), "run the tests outside a kernel Voilà started"
    with tempfile.TemporaryDirectory() as workspaces, contextlib.ExitStack() as stack:
        command = [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            f"--port={port}",
            "--ServerApp.ip=127.0.0.1",
            "--IdentityProvider.token=",
            "--ServerApp.password=",
            f"--ServerApp.root_dir={folder}",
            f"--LabApp.workspaces_dir={workspaces}",
            "--allow-root",
            "--LabApp.news_url=",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        ]
        with pytest.MonkeyPatch.context() as env:
            env.setenv("JUPYTER_PATH", os.pathsep.join([str(share), os.environ.get("JUPYTER_PATH", "")]))
            url = stack.enter_context(running(command, f"http://127.0.0.1:{port}/lab", timeout=90))
        yield url


def test_in_jupyterlab_a_busy_cell_raises_no_banner_and_the_widget_answers_after(lab: str, browser: Any) -> None:
    page, log = open_page(browser, f"{lab}/tree/busy.ipynb?reset", viewport=(1280, 900))
    idle = page.get_by_text(f"{KERNEL_NAME} | Idle")
    busy = page.get_by_text(f"{KERNEL_NAME} | Busy")
    idle.wait_for(timeout=90_000)
    editors = page.locator(".jp-Notebook .jp-Cell .jp-InputArea-editor")
    editors.nth(0).click()
    page.keyboard.press("Shift+Enter")  # the stepper's cell alone
    board = page.locator(BOARD)
    expect(board.locator(".tl-card").first).to_be_visible(timeout=120_000)
    idle.wait_for(timeout=60_000)
    # the kernel has answered this page (a step, and the board's hello): a watching board would
    # from now on take a late answer for a lost connection
    start = int(board.get_attribute("data-step") or "0")
    board.click()
    page.keyboard.press("ArrowRight")
    expect(board).to_have_attribute("data-step", str(start + 1))

    editors.nth(1).click()
    page.keyboard.press("Shift+Enter")  # the cell that sleeps
    busy.wait_for(timeout=30_000)
    board.click()  # a click and keys while the kernel cannot answer
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    no_banner_after_the_wait(page)
    assert busy.is_visible(), "the cell ended before the check: the check proves nothing"
    assert board.get_attribute("data-step") == str(start + 1), "the kernel answered while busy: nothing was late"
    screenshot(page, "jupyterlab-busy-no-banner")

    # once the cell is over the keys pressed meanwhile are heard, and the widget goes on
    idle.wait_for(timeout=60_000)
    expect(board).to_have_attribute("data-step", str(start + 3), timeout=15_000)
    page.keyboard.press("ArrowRight")
    expect(board).to_have_attribute("data-step", str(start + 4))
    assert page.locator(BANNER).count() == 0
    page.close()
    assert not [e for e in log.errors if "tricklab" in e or "anywidget" in e]


# --- a static export: no kernel at all -----------------------------------------------------------


@pytest.fixture(scope="module")
def page_scripts() -> dict[str, Path]:
    """require.js and the widgets' HTML manager from the npm registry (cached), anywidget's AMD module."""
    cache = registry_cache() / "npm"
    found: dict[str, Path] = {}
    for package, member, name in FROM_NPM:
        target = cache / package.replace("/", "+") / name
        if not target.exists():
            npm = shutil.which("npm")
            if npm is None:
                pytest.skip(f"npm is needed to fetch {package} for the static export (apt-get install -y npm)")
            with tempfile.TemporaryDirectory() as work:
                subprocess.run([npm, "pack", package, "--silent"], cwd=work, check=True, capture_output=True)
                (tarball,) = Path(work).glob("*.tgz")
                with tarfile.open(tarball) as archive:
                    extracted = archive.extractfile(member)
                    assert extracted is not None, f"{member} is not in {package}"
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(extracted.read())
        found[name] = target
    # the classic notebook's module of anywidget, an AMD module the HTML manager loads as "anywidget"
    found["anywidget.js"] = Path(anywidget.__file__).parent / "nbextension" / "index.js"
    return found


def export(folder: Path, scripts: dict[str, Path], env: dict[str, str]) -> Path:
    """``nbconvert --execute --to html`` of a stepper's notebook (its widget state kept), the
    scripts the page loads beside it."""
    source = notebook(folder / "stepper.ipynb", STEPPER)
    command = [
        sys.executable,
        "-m",
        "jupyter",
        "nbconvert",
        "--to",
        "html",
        "--execute",
        "--HTMLExporter.require_js_url=require.js",
        "--HTMLExporter.widget_renderer_url=embed-amd.js",
        str(source),
    ]
    subprocess.run(command, cwd=folder, env=env, check=True, capture_output=True, timeout=300)
    for name, path in scripts.items():
        shutil.copy(path, folder / name)
    return folder / "stepper.html"


def saved_watch_connection(page: Path) -> bool:
    """The boards' ``watch_connection`` as the export saved it (the same for every board)."""
    text = page.read_text()
    start = text.index('<script type="application/vnd.jupyter.widget-state+json">')
    state = json.loads(text[text.index(">", start) + 1 : text.index("</script>", start)])["state"]
    saved = {model["state"]["watch_connection"] for model in state.values() if "watch_connection" in model["state"]}
    assert len(saved) == 1, f"the boards of one page disagree: {saved}"
    watch: bool = saved.pop()
    return watch


@contextlib.contextmanager
def served(folder: Path) -> Iterator[str]:
    """``folder`` served on a free loopback port."""
    handler = functools.partial(_Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.mark.parametrize(
    ("made", "watching"),
    [
        ("in a notebook host", False),  # Python said: a host, nothing to watch
        ("under voila", True),  # Python said: an app's page; the page's own guard holds
    ],
)
def test_a_static_export_never_says_the_connection_is_lost(
    page_scripts: dict[str, Path], browser: Any, tmp_path: Path, made: str, watching: bool
) -> None:
    env = host_environment()
    if watching:
        env["VOILA_PREHEAT"] = "False"  # as in a kernel Voilà started
    exported = export(tmp_path, page_scripts, env)
    assert saved_watch_connection(exported) is watching

    with served(tmp_path) as url:
        page, log = open_page(browser, f"{url}/{exported.name}", viewport=(1280, 900))
        board = page.locator(BOARD)
        expect(board.locator(".tl-card").first).to_be_visible(timeout=60_000)
        loaded = " ".join(log.blocked)
        assert "html-manager" not in loaded and "anywidget" not in loaded, log.blocked
        board.click()
        page.keyboard.press("ArrowRight")
        page.get_by_role("button", name="▶", exact=True).click()
        no_banner_after_the_wait(page)
        # the board watched (or not) as it was told: a watching board did ask, and heard nothing
        watched = page.evaluate(
            "(() => { const p = globalThis[Symbol.for('tricklab.connection')];"
            " return p ? { probes: p.probes.size, pings: p.pings, heard: !!p.heard } : null; })()"
        )
        if watching:
            assert watched is not None and watched["probes"] >= 1 and not watched["heard"]
            assert watched["pings"] > watched["probes"], "only the hellos were sent, the click asked nothing"
        else:
            assert watched is None
        screenshot(page, f"static-export-{'watching' if watching else 'host'}")
        page.close()
        assert not [e for e in log.javascript_errors() if "tricklab" in e or "anywidget" in e]

        phone, _ = open_phone_page(browser, f"{url}/{exported.name}")
        expect(phone.locator(BOARD).locator(".tl-card").first).to_be_visible(timeout=60_000)
        phone.locator(BOARD).tap()
        no_banner_after_the_wait(phone)
        screenshot(phone, f"static-export-{'watching' if watching else 'host'}-phone")
        phone.context.close()
