"""The apps under a real JupyterHub on 127.0.0.1, opened by two learners from one shared link.

JupyterHub runs as a school would run it, scaled down to this machine: configurable-http-proxy
from the npm registry in front (installed once into a temporary folder), the dummy authenticator
(any name logs in) and a local-process spawner, each learner's own Jupyter server with Voilà's
server extension, the apps folder as its root, and the Jupyter config that ``tricklab jupyter-config``
prints (TCP_NODELAY, culling of closed pages' kernels, Voilà's settings) found on the config path
as a user image's ``/etc/jupyter`` would hold it. Chromium follows the teacher's link
``/hub/user-redirect/voila/render/replay.ipynb?...`` as two learners, logs in, and lands in each
learner's own server at ``/user/<name>/voila/render/replay.ipynb``. A learner who is logged in
follows a hostile link too: no script runs, whatever the link's ``theme`` and parameters say.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote

import psutil
import pytest

from tricklab.classservice import StoreClient
from tricklab.serve_settings import jupyter_server_config
from tricklab.store import NotAllowed

from .servers import PAYLOADS, ROOT, assert_no_script_ran, free_port

pytestmark = pytest.mark.browser

NPM_FOLDER = Path(tempfile.gettempdir()) / "tricklab-test-npm"
PROXY = NPM_FOLDER / "node_modules" / ".bin" / "configurable-http-proxy"
LINK = "voila/render/replay.ipynb?game=band-of-tricks&players=4&seed=3"
BOARD = ".tricklab-board"
#: the hub service that plays tables of classmates
TABLES = "tricklab"
#: a hub token of the learner ``ada``
LEARNER_TOKEN = secrets.token_hex(16)


def configurable_http_proxy() -> Path:
    """JupyterHub's proxy from the npm registry, installed once into a temporary folder."""
    if PROXY.exists():
        return PROXY
    if not (shutil.which("npm") and shutil.which("node")):
        pytest.skip("Node.js and npm are needed for JupyterHub's proxy (apt-get install -y nodejs npm)")
    done = subprocess.run(
        ["npm", "install", "--prefix", str(NPM_FOLDER), "--no-audit", "--no-fund", "configurable-http-proxy@5"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0 and PROXY.exists(), f"npm could not install configurable-http-proxy:\n{done.stderr}"
    return PROXY


def hub_config(
    folder: Path, *, port: int, proxy: Path, class_db: str = "", service_url: str = "", tables_url: str = ""
) -> Path:
    """A ``jupyterhub_config.py`` for 127.0.0.1, and the users' Jupyter config beside it."""
    etc_jupyter = folder / "etc-jupyter"
    etc_jupyter.mkdir()
    (etc_jupyter / "jupyter_server_config.json").write_text(json.dumps(jupyter_server_config(), indent=2))
    singleuser = Path(sys.executable).with_name("jupyterhub-singleuser")
    args = ["--allow-root"] if os.geteuid() == 0 else []  # CI runs as root
    settings = {
        "JupyterHub.ip": "127.0.0.1",
        "JupyterHub.port": port,
        "JupyterHub.hub_ip": "127.0.0.1",
        "JupyterHub.hub_port": free_port(),
        "ConfigurableHTTPProxy.api_url": f"http://127.0.0.1:{free_port()}",
        "ConfigurableHTTPProxy.command": [str(proxy)],
        "JupyterHub.authenticator_class": "dummy",
        "JupyterHub.spawner_class": "simple",
        "JupyterHub.implicit_spawn_seconds": 0.5,  # a learner following a link starts their server
        "JupyterHub.db_url": f"sqlite:///{folder / 'jupyterhub.sqlite'}",
        "JupyterHub.cookie_secret_file": str(folder / "cookie_secret"),
        "SimpleLocalProcessSpawner.home_dir_template": str(folder / "home" / "{username}"),
        "Spawner.cmd": [str(singleuser)],
        "Spawner.args": args,
        "Spawner.notebook_dir": str(ROOT / "voila_apps"),
        # the class store every learner's server shares: the class service's address, never the
        # database's (a learner may run any code in their own server)
        "Spawner.environment": {
            "JUPYTER_CONFIG_PATH": str(etc_jupyter),
            "TRICKLAB_CLASS_DB": service_url,
            # where tables of classmates are played: the hub's tricklab serve, never a learner's server
            "TRICKLAB_TABLES": f"/services/{TABLES}/voila/render/",
        },
        # the class service holds the database's URL, in its own environment only
        "JupyterHub.services": [
            {
                "name": "tricklab-class",
                "url": service_url,
                "command": [sys.executable, "-m", "tricklab", "class-service"],
                "environment": {"TRICKLAB_CLASS_DB": class_db},
            },
            # the tables of classmates (a seat's kernel holds its table's seed): tricklab serve as a
            # service, each page behind the hub's login, where no learner runs code
            {
                "name": TABLES,
                "url": tables_url,
                "command": [sys.executable, "-m", "tricklab", "serve", "--apps", str(ROOT / "voila_apps")],
                "environment": {"TRICKLAB_CLASS_DB": class_db},
                "oauth_no_confirm": True,
            },
        ],
        # every user may open the tables service's pages
        "JupyterHub.load_roles": [{"name": "user", "scopes": ["self", f"access:services!service={TABLES}"]}],
        # a token of a learner's own, for the raw requests a learner could send the class service
        "JupyterHub.api_tokens": {LEARNER_TOKEN: "ada"},
        "Spawner.start_timeout": 120,
        "Spawner.http_timeout": 120,
    }
    lines = ["c = get_config()  # noqa: F821"]
    lines += [f"c.{name} = {value!r}" for name, value in settings.items()]
    path = folder / "jupyterhub_config.py"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture(scope="module")
def class_service() -> str:
    """Where the hub runs the class service."""
    return f"http://127.0.0.1:{free_port()}"


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory, postgres_url: str, class_service: str) -> Iterator[tuple[str, Path]]:
    """A running JupyterHub whose learners' servers share one class store on PostgreSQL; yields
    its URL and its log file."""
    pytest.importorskip("jupyterhub", reason="JupyterHub is in the test extra: pip install -e '.[test]'")
    proxy = configurable_http_proxy()
    folder = tmp_path_factory.mktemp("hub")
    port = free_port()
    tables = f"http://127.0.0.1:{free_port()}"
    config = hub_config(
        folder, port=port, proxy=proxy, class_db=postgres_url, service_url=class_service, tables_url=tables
    )
    log_path = folder / "hub.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "jupyterhub", "-f", str(config)], cwd=folder, stdout=log, stderr=subprocess.STDOUT
        )
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 90
            while True:
                try:
                    with urllib.request.urlopen(f"{url}/hub/api", timeout=2) as response:
                        assert "version" in json.loads(response.read())
                        break
                except OSError:
                    if proc.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError(f"JupyterHub did not start:\n{log_path.read_text()[-3000:]}") from None
                    time.sleep(0.5)
            yield url, log_path
        finally:
            started = psutil.Process(proc.pid).children(recursive=True)
            proc.terminate()  # the hub stops the learners' servers and its proxy
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
            for child in started:  # anything it left behind, by process id
                if child.is_running():
                    child.kill()


def follow_the_link_as(
    browser: Any,
    hub_url: str,
    name: str,
    *,
    link: str = LINK,
    dialogs: list[str] | None = None,
    drawn: str = ".tl-card",
) -> tuple[Any, Any]:
    """A learner's own browser session: open the shared link, log in, get to the app.

    The page's dialogs (``alert`` and the like) are dismissed and, if ``dialogs`` is given, kept there.
    """
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    context.route(
        "**/*",
        lambda route: route.continue_() if route.request.url.startswith("http://127.0.0.1") else route.abort(),
    )
    page = context.new_page()
    seen = [] if dialogs is None else dialogs
    page.on("dialog", lambda dialog: (seen.append(f"{dialog.type}: {dialog.message}"), dialog.dismiss()))
    page.goto(f"{hub_url}/hub/user-redirect/{link}")
    page.locator("input[name=username]").fill(name)
    page.locator("input[name=password]").fill("any")
    page.locator("input[type=submit], button[type=submit]").first.click()
    page.locator(f"{BOARD} {drawn}").first.wait_for(timeout=150_000)
    return context, page


def test_two_learners_open_an_app_in_their_own_servers(browser: Any, hub: tuple[str, Path]) -> None:
    hub_url, log = hub
    captions = {}
    sessions = {}
    for name in ("ada", "bo"):
        context, page = follow_the_link_as(browser, hub_url, name)
        sessions[name] = (context, page)
        assert page.url.startswith(f"{hub_url}/user/{name}/voila/render/replay.ipynb?game=band-of-tricks")
        assert "Traceback" not in page.inner_text("body")
        captions[name] = page.locator(f"{BOARD} .tl-caption").inner_text()
        # a step goes through the proxy to the learner's kernel and back
        page.get_by_role("button", name="▶", exact=True).click()
        page.wait_for_function(f"document.querySelector('{BOARD}')?.dataset.step === '1'")
    assert captions["ada"] == captions["bo"], "one link, one deal"
    # one learner cannot open another's server
    _, bo = sessions["bo"]
    response = bo.goto(f"{hub_url}/user/ada/{LINK}")
    assert response is not None and response.status == 403
    # each server read the config from the config path: its culler runs with its settings
    culling = f"idle durations > {jupyter_server_config()['MappingKernelManager']['cull_idle_timeout']} seconds"
    assert log.read_text(errors="replace").count(culling) == 2
    for context, _ in sessions.values():
        context.close()


def hostile_link() -> str:
    """The shared link with a payload in each of the app's parameters and in Voilà's: ``theme``
    (after ``dark``, as Voilà reads the last value) and ``template``."""
    hostile = {"seat": PAYLOADS[0], "step": PAYLOADS[1], "seed": PAYLOADS[2], "players": PAYLOADS[3]}
    query = "&".join(f"{name}={quote(value, safe='')}" for name, value in hostile.items())
    theme = f"theme=dark&theme={quote(PAYLOADS[0], safe='')}&template={quote(PAYLOADS[4], safe='')}"
    return f"voila/render/replay.ipynb?game=band-of-tricks&{query}&{theme}"


def test_a_hostile_link_runs_no_script_for_a_logged_in_learner(browser: Any, hub: tuple[str, Path]) -> None:
    hub_url, log = hub
    dialogs: list[str] = []
    context, page = follow_the_link_as(browser, hub_url, "ada", link=hostile_link(), dialogs=dialogs)
    try:
        assert page.url.startswith(f"{hub_url}/user/ada/voila/render/replay.ipynb?game=band-of-tricks")
        # the app got the payloads and shows them as text
        page.get_by_role("alert").first.wait_for(timeout=30_000)
        assert PAYLOADS[0] in " ".join(page.get_by_role("alert").all_inner_texts())
        assert_no_script_ran(page, dialogs)
        # the link's one checked value stays: the dark theme
        assert page.locator("body").get_attribute("data-jp-theme-name") == "JupyterLab Dark"
        assert "Traceback" not in page.inner_text("body")
    finally:
        context.close()
    # the learner's server ran the guard: tricklab's extension, loaded before Voilà's
    assert "tricklab: a link may choose only the light or the dark theme" in log.read_text(errors="replace")


def test_a_class_session_across_the_learners_servers_uses_their_hub_names(
    browser: Any, hub: tuple[str, Path], class_service: str
) -> None:
    """The teacher starts a session in her own server; two learners join from their own servers
    (one class store on PostgreSQL, behind the hub's class service), each under their hub name,
    with no name to type. A learner's raw requests to the service get nothing a student may not."""
    hub_url, _ = hub
    teacher_context, teacher = follow_the_link_as(
        browser, hub_url, "rivera", link="voila/render/class.ipynb?teach=1", drawn=".tl-summary"
    )
    teacher.get_by_role("button", name="Start a class session").click()
    code = teacher.locator(".tl-class-code").inner_text(timeout=60_000)
    learners = []
    for name in ("ada", "bo"):
        context, page = follow_the_link_as(
            browser, hub_url, name, link=f"voila/render/class.ipynb?join={code}", drawn=".tl-summary"
        )
        assert page.url.startswith(f"{hub_url}/user/{name}/voila/render/class.ipynb")
        assert not page.get_by_label("Your name").is_visible(), "the hub name is used"
        page.get_by_role("button", name="Join the class").click()
        page.get_by_text(f"You are {name}").wait_for(timeout=30_000)
        learners.append((context, page))
    teacher.get_by_text("2 joined").wait_for(timeout=30_000)
    teacher.get_by_role("button", name="Send to the class").click()
    for _, page in learners:
        page.get_by_text("Question 1:").wait_for(timeout=30_000)
        page.locator(".tl-class-picture [data-intent=answer]").first.click()
    teacher.get_by_text("2 of 2 students answered").wait_for(timeout=30_000)
    teacher.get_by_role("button", name="Results").click()
    results = teacher.locator(".tl-class-results").inner_text(timeout=30_000)
    assert "ada" in results and "bo" in results
    # ada, holding the teacher's secret (as if taken from the teacher's tab) and her own hub
    # token, is still no teacher; without a hub token nobody is answered
    kept = teacher.evaluate("sessionStorage.getItem('tricklab-kept:' + location.pathname)")
    secret = parse_qs(kept)["teacher"][0]
    with pytest.raises(NotAllowed, match="only the teacher who started this class session"):
        StoreClient(class_service, token=LEARNER_TOKEN).teacher_session(secret)
    for token in ("", "not-a-hub-token"):
        with pytest.raises(NotAllowed, match="needs a hub user's token"):
            StoreClient(class_service, token=token).teacher_session(secret)
    # the teacher's own session is there to her: the projector still counts both answers
    teacher.reload()
    teacher.get_by_text("2 of 2 students answered").wait_for(timeout=60_000)
    for context in (teacher_context, *(c for c, _ in learners)):
        context.close()


def log_in_at(browser: Any, url: str, name: str) -> tuple[Any, Any]:
    """A learner's own browser session opening ``url`` and logging in at the hub when asked."""
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    context.route(
        "**/*",
        lambda route: route.continue_() if route.request.url.startswith("http://127.0.0.1") else route.abort(),
    )
    page = context.new_page()
    page.goto(url)
    page.locator("input[name=username]").fill(name)
    page.locator("input[name=password]").fill("any")
    page.locator("input[type=submit], button[type=submit]").first.click()
    return context, page


def test_classmates_play_at_a_table_of_the_hubs_tricklab_service(
    browser: Any, hub: tuple[str, Path], class_service: str, postgres_url: str
) -> None:
    """A table's seed stays where no learner runs code. Ada's own server seats no one (the class
    service answers no seat's call) and its table app sends her to the hub's tricklab service;
    there, each logged in by the hub, Ada makes a Kalah table and Bo joins it, and they play. No
    frame either page receives holds the seed, and the service's pages open only after the hub's
    login."""
    from tricklab.store import Store

    from .test_browser_tables import Log, Seat, _act, _kept_seat, _listen

    hub_url, _ = hub
    service = f"{hub_url}/services/{TABLES}/voila/render/table.ipynb"
    # a raw request from Ada's own server, with her hub token: no seat, no seed
    request = urllib.request.Request(
        f"{class_service}/call/table_start",
        data=json.dumps({"args": ["a-seat-token"]}).encode(),
        method="POST",
        headers={"Authorization": f"token {LEARNER_TOKEN}"},
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert "not 'table_start'" in refused.value.read().decode()
    # the service's page is the hub's login first
    context, page = log_in_at(browser, f"{service}?game=kalah&players=2", "ada")
    context.close()
    # Ada's own server: the table app links to the service
    context, page = log_in_at(browser, f"{hub_url}/hub/user-redirect/voila/render/table.ipynb?game=kalah", "ada")
    link = page.get_by_role("link", name="Open the table there")
    link.wait_for(timeout=150_000)
    assert page.url.startswith(f"{hub_url}/user/ada/voila/render/table.ipynb")
    ana = Seat(page, 0)
    _listen(ana)
    link.click()
    page.get_by_label("Your name").fill("Ada", timeout=120_000)
    assert page.url.startswith(f"{service}?game=kalah"), page.url
    page.get_by_label("Player 2", exact=True).select_option(label="A classmate")
    page.get_by_role("button", name="Make the table").click()
    code = page.locator(".tl-code").inner_text(timeout=90_000)
    bo_context, bo_page = log_in_at(browser, f"{service}?join={code}", "bo")
    bo = Seat(bo_page, 1)
    _listen(bo)
    bo_page.get_by_label("Your name").fill("Bo", timeout=120_000)
    bo_page.get_by_role("button", name="Join the table").click()
    bo_page.locator(".tl-code").wait_for(timeout=90_000)
    store = Store.open(postgres_url)
    try:
        log = Log(store, _kept_seat(page))
        deadline = time.monotonic() + 120
        while len(log.match().actions) < 6:
            assert time.monotonic() < deadline, "the classmates' moves did not reach the table's log"
            if not any(_act(seat, "kalah") for seat in (ana, bo)):
                time.sleep(0.3)
        assert log.match().rules.name == "kalah", "the game of Ada's link"
        seed = str(log.seed)
        for seat in (ana, bo):
            said = seat.page.content() + " ".join(text + markup for text, markup in seat.frames)
            assert seed not in said and not re.search(r'"seed"\s*:', said), "the table's seed reached a page"
    finally:
        store.close()
        context.close()
        bo_context.close()
