"""The apps as a static site (``tricklab site build``), opened in Chromium with no network beyond localhost.

Building fetches the pinned build tools, Pyodide and the browser's wheels once into the site cache
(``$TRICKLAB_SITE_CACHE``); later builds take seconds. Each page boots Python in the browser, so
each test opens as few pages as it can.
"""

from __future__ import annotations

import json
import re
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from tricklab import site
from tricklab.widgets.gallery import APPS

from .installs import build_distributions, install
from .servers import PAYLOADS, ROOT, assert_no_script_ran, open_page, open_phone_page

BOARD = ".tricklab-board"
CARD = f"{BOARD} .tl-card"
#: Pyodide boots in the page: tens of seconds on a busy machine
BOOT = 180_000


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site as a user builds it: ``tricklab site build`` of the wheel installed in a fresh
    environment (the engine alone: the build's tools come into their own cache), run away from
    the source tree, so the apps are the package's own."""
    wheel, _ = build_distributions(tmp_path_factory.mktemp("dist"))
    installed = install(wheel, tmp_path_factory.mktemp("installed"))
    out = tmp_path_factory.mktemp("site") / "site"
    done = installed.run(installed.tricklab, "site", "build", out, timeout=1800)
    assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]
    return out


@pytest.fixture(scope="module")
def site_url(built: Path) -> Iterator[str]:
    httpd = site.server(built, port=0)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def app_page(browser: Any, site_url: str, page: str, ready: str, *, phone: bool = False) -> tuple[Any, Any]:
    opened = (open_phone_page if phone else open_page)(browser, f"{site_url}/voici/render/{page}")
    shown, log = opened
    try:
        shown.locator(ready).first.wait_for(timeout=BOOT)
    except Exception:
        pytest.fail(f"{page}: nothing shown; errors {log.errors + log.console_errors}, blocked {log.blocked}")
    return shown, log


def no_errors(log: Any) -> None:
    assert log.javascript_errors() == [] and log.blocked == [], (log.javascript_errors(), log.blocked)


# --- what the build writes -------------------------------------------------------------------------------


def test_the_site_has_every_app_and_what_they_load_and_nothing_unused(built: Path) -> None:
    for app in APPS:
        page = built / "voici" / "render" / app.notebook.replace(".ipynb", ".html")
        picture = built / "voici" / "files" / "screenshots" / app.picture
        if app.needs_server:  # the class app: not in the static site, nor its pictures
            assert not page.exists() and not picture.exists(), app.notebook
            continue
        assert page.is_file(), app.notebook
        assert picture.is_file(), app.picture
    runtime = built / site.RUNTIME
    lock = json.loads((runtime / "pyodide-lock.json").read_text())
    for name, package in lock["packages"].items():
        assert (runtime / package["file_name"]).is_file(), name
        assert set(package["depends"]) <= set(lock["packages"]), name
    assert {"tricklab", "ipywidgets", "anywidget", "traitlets", "comm"} <= set(lock["packages"])
    # no notebook front end, IPython, kernel or highlighter in the browser: the widgets and tricklab
    servers = {"jupyterlab", "voila", "jupyter-server", "notebook", "ipython", "ipykernel", "pygments", "jedi"}
    assert not servers & set(lock["packages"]), set(lock["packages"])
    wheels = sorted(path.name for path in runtime.glob("*.whl"))
    assert wheels == sorted(package["file_name"] for package in lock["packages"].values()), "nothing unused"
    assert sorted(path.name for path in built.iterdir()) == [".nojekyll", "index.html", "static", "voici"]
    assert not list(built.rglob("*.map")) and not list(built.rglob("*.ipynb"))
    screenshots = [path for path in built.rglob("*.png")]
    assert len({path.name for path in screenshots}) == len(screenshots), "each picture stored once"
    for page in (built / "voici" / "render").glob("*.html"):
        text = page.read_text()
        assert text.index("<script") == text.index(site.THEME_GUARD), page
        assert not re.search(r"\b(kernel|notebook|IPython|Voici)\b", text.split("TRICKLAB_SITE")[0]), page


def test_the_site_holds_compressed_copies_of_what_compresses(built: Path) -> None:
    """Brotli and gzip copies beside each file they make smaller, each unpacking to the file."""
    import gzip

    import brotli

    runtime = built / "static" / "pyodide"
    for path in (runtime / "pyodide.asm.wasm", runtime / "pyodide.asm.js", built / "voici" / "render" / "play.html"):
        data = path.read_bytes()
        assert gzip.decompress(Path(f"{path}.gz").read_bytes()) == data, path
        assert brotli.decompress(Path(f"{path}.br").read_bytes()) == data, path
    wasm = (runtime / "pyodide.asm.wasm").stat().st_size
    assert Path(f"{runtime / 'pyodide.asm.wasm'}.br").stat().st_size < wasm / 3, "the runtime, a third or less"
    # every copy saves a tenth at least, and unpacks to its file
    for copy in [*built.rglob("*.br"), *built.rglob("*.gz")]:
        original = copy.with_suffix("")
        assert copy.stat().st_size <= 0.9 * original.stat().st_size, copy
        unpack = brotli.decompress if copy.suffix == ".br" else gzip.decompress
        assert unpack(copy.read_bytes()) == original.read_bytes(), copy
    # a wheel deflated already gets none
    for name in ("tricklab-*.whl", "ipywidgets-*.whl"):
        wheel = next(runtime.glob(name))
        assert not Path(f"{wheel}.br").exists() and not Path(f"{wheel}.gz").exists(), wheel.name
    small = [path for path in built.rglob("*") if path.is_file() and path.stat().st_size < 1024]
    assert small and not any(Path(f"{path}.gz").exists() for path in small if path.suffix not in (".br", ".gz"))
    assert site.site_size(built) < sum(path.stat().st_size for path in built.rglob("*") if path.is_file())


def test_the_site_s_wheels_hold_bytecode_in_their_sources_place_and_the_lock_knows_them(built: Path) -> None:
    import hashlib
    import zipfile

    runtime = built / "static" / "pyodide"
    lock = json.loads((runtime / "pyodide-lock.json").read_text())
    for name, package in lock["packages"].items():
        wheel = runtime / package["file_name"]
        assert hashlib.sha256(wheel.read_bytes()).hexdigest() == package["sha256"], name
        assert package["imports"], f"{name}: its modules are named, as read before compiling"
        files = zipfile.ZipFile(wheel).namelist()
        assert not [f for f in files if f.endswith(".py")], f"{name}: a source left"
    tricklab_files = zipfile.ZipFile(runtime / lock["packages"]["tricklab"]["file_name"]).namelist()
    assert "tricklab/rules.pyc" in tricklab_files or "tricklab/match.pyc" in tricklab_files
    assert not [f for f in tricklab_files if "__pycache__" in f], "bytecode in the sources' place"


def test_site_serve_sends_the_compressed_copy_with_caching_headers(built: Path, site_url: str) -> None:
    import gzip
    import urllib.request

    def fetch(path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
        request = urllib.request.Request(f"{site_url}/{path}", headers=headers)
        try:
            with urllib.request.urlopen(request) as answer:
                return answer.status, dict(answer.headers), answer.read()
        except urllib.error.HTTPError as refused:
            return refused.code, dict(refused.headers), b""

    wasm = "static/pyodide/pyodide.asm.wasm"
    status, headers, body = fetch(wasm, **{"Accept-Encoding": "gzip, deflate"})
    assert status == 200 and headers["Content-Encoding"] == "gzip" and headers["Content-Type"] == "application/wasm"
    assert gzip.decompress(body) == (built / wasm).read_bytes() and headers["Vary"] == "Accept-Encoding"
    status, headers, body = fetch(wasm, **{"Accept-Encoding": "gzip, br"})
    assert headers["Content-Encoding"] == "br" and int(headers["Content-Length"]) == len(body) < len(
        Path(f"{built / wasm}.gz").read_bytes()
    ), "Brotli where the browser takes it"
    status, headers, body = fetch(wasm, **{"Accept-Encoding": "identity, gzip;q=0"})
    assert "Content-Encoding" not in headers and body == (built / wasm).read_bytes(), "as it is, when refused"
    assert headers["Cache-Control"] == "no-cache", "a name without its content's hash: asked each time"
    status, _, body = fetch(wasm, **{"If-Modified-Since": headers["Last-Modified"]})
    assert status == 304 and body == b"", "and told it is not modified"
    hashed = next(path for path in built.rglob("*.js") if site.HASHED.search(path.name))
    _, headers, _ = fetch(str(hashed.relative_to(built)))
    assert "immutable" in headers["Cache-Control"], hashed.name
    assert fetch("no/such/file.js")[0] == 404


def test_a_page_holds_the_app_s_code_and_words_safely_and_its_first_script_is_the_theme_guard(
    tmp_path: Path,
) -> None:
    """The page is made from the app's notebook: its cells are the page's code and its words the
    loading screen's, which nothing in them can end early (a cell that says "</script>")."""
    notebook = tmp_path / "odd.ipynb"
    cells = [{"cell_type": "code", "source": ["x = '</script><script>alert(1)</script>'\n", "x"], "metadata": {}}]
    cells.append({"cell_type": "markdown", "source": "not code", "metadata": {}})
    meta = {"tricklab": {"app": "A <b>&</b> app", "coming": "</script>"}}
    notebook.write_text(json.dumps({"cells": cells, "metadata": meta, "nbformat": 4, "nbformat_minor": 5}))
    static = {
        "app.js": "app.0123456789ab.js",
        "worker.js": "worker.0123456789ab.js",
        "page.css": "page.0123456789ab.css",
    }
    text = site.page(notebook, static=static, wheels=["w-1.0-py3-none-any.0123456789ab.whl"], prepared=None)
    assert text.index("<script") == text.index(site.THEME_GUARD)
    assert text.count("</script>") == text.count("<script"), "no script ends early"
    assert "<title>A &lt;b&gt;&amp;&lt;/b&gt; app · tricklab</title>" in text
    config = re.search(r"window.TRICKLAB_SITE = (.*);</script>", text)
    assert config is not None
    given = json.loads(config.group(1))
    assert given["cells"] == [{"code": "x = '</script><script>alert(1)</script>'\nx"}, {"html": "<p>not code</p>"}]
    rendered = site.page(notebook, static=static, wheels=[], prepared=None, markdown={"not code": "<p><b>not</b></p>"})
    assert '{"html": "\\u003cp\\u003e\\u003cb\\u003enot' in rendered, "a Markdown cell as the build rendered it"
    assert given["wheels"] == ["static/pyodide/w-1.0-py3-none-any.0123456789ab.whl"] and given["root"] == "../../"
    assert f'src="../../static/tricklab/{static["app.js"]}"' in text


# --- each app in the browser ------------------------------------------------------------------------------


def test_the_site_root_opens_the_gallery_whose_links_open_the_apps(site_url: str, browser: Any) -> None:
    page, log = open_page(browser, f"{site_url}/index.html")
    page.wait_for_url("**/voici/render/index.html", timeout=30_000)
    page.locator(".tricklab-gallery").wait_for(timeout=BOOT)
    assert page.evaluate("window.tricklabStart.python") is False, "the gallery needs no Python in the page"
    hrefs = page.locator(".tricklab-landing a").evaluate_all("links => links.map(a => a.getAttribute('href'))")
    assert hrefs and all(".html" in href and ".ipynb" not in href for href in hrefs), hrefs
    assert not any(href.startswith(("class.html", "table.html")) for href in hrefs), "they need a server: not here"
    assert page.locator(".tricklab-app-card").count() == len([a for a in APPS if not a.needs_server])
    pictures = page.locator(".tricklab-gallery img.tricklab-picture-light")
    pictures.last.scroll_into_view_if_needed()
    page.wait_for_function(
        "[...document.querySelectorAll('.tricklab-gallery img.tricklab-picture-light')]"
        ".every(i => i.complete && i.naturalWidth > 0)",
        timeout=30_000,
    )
    page.get_by_role("link", name="Play your first round of Tricks & Stones").click()
    page.locator(f"{BOARD} .tl-card").first.wait_for(timeout=BOOT)
    assert "/voici/render/play.html?game=tricks-and-stones" in page.url
    expect(page.locator(".tricklab-app-header h2")).to_contain_text("Play Tricks & Stones, seed 1")
    no_errors(log)
    page.close()


def test_explain_trick_answers_a_click(site_url: str, browser: Any) -> None:
    """It works from the compressed copies: the page's and its kernel's worker's requests are sent them."""
    from .servers import _watch

    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    encodings: dict[str, str | None] = {}
    page.on(
        "response",
        lambda r: encodings.setdefault(r.url.split("?")[0].rsplit("/", 1)[-1], r.headers.get("content-encoding")),
    )
    log = _watch(page, f"{site_url}/voici/render/explain_trick.html?game=tricks-and-stones&players=4")
    said = [page.evaluate("document.body.innerText")]
    page.locator("#tricklab-loading").wait_for(timeout=BOOT)
    said.append(page.evaluate("document.body.innerText"))
    page.locator(CARD).first.wait_for(timeout=BOOT)
    said.append(page.evaluate("document.body.innerText"))
    words = re.compile(r"kernel|notebook|ipython|jupyter|voici|executing|running", re.IGNORECASE)
    assert not [text for text in said if words.search(text)], "the learner reads about the app, not its machinery"
    assert encodings.get("explain_trick.html") in ("gzip", "br"), encodings
    assert encodings.get("pyodide.asm.wasm") in ("gzip", "br"), "the runtime, fetched by the kernel's worker"
    before = page.locator(f"{BOARD} .tl-trick .tl-card").count()
    page.locator(f"{BOARD} .tl-deck button:not([disabled])").first.click()
    page.wait_for_function(
        f"document.querySelectorAll('{BOARD} .tl-trick .tl-card').length !== {before}", timeout=30_000
    )
    no_errors(log)
    page.close()


def test_a_next_visit_restores_the_interpreter_the_first_prepared_and_one_that_is_not_is_dropped(
    site_url: str, browser: Any
) -> None:
    """After a first visit's app is drawn, the page prepares an interpreter (every module a page
    runs imported) and the browser keeps it; the next visit of another app restores it and works
    as ever; a kept one that cannot be restored is dropped, and Python starts afresh."""
    from .servers import _watch

    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    started = "window.tricklabStart && window.tricklabStart.restored"
    try:
        first = context.new_page()
        logs = [_watch(first, f"{site_url}/voici/render/explain_trick.html?game=tricks-and-stones&players=4")]
        first.locator(CARD).first.wait_for(timeout=BOOT)
        assert first.evaluate(started) is False, "nothing kept yet: a normal start"
        first.wait_for_function("window.tricklabPrepared !== undefined", timeout=BOOT)
        assert first.evaluate("window.tricklabPrepared") is True
        first.close()
        second = context.new_page()
        logs.append(_watch(second, f"{site_url}/voici/render/replay.html?game=band-of-tricks&players=5&seed=7&step=4"))
        second.locator(CARD).first.wait_for(timeout=BOOT)
        assert second.evaluate(started) is True, "the prepared interpreter, restored"
        caption = second.locator(f"{BOARD} .tl-caption")
        expect(caption).to_contain_text("Step 4 of")
        second.get_by_role("button", name="▶", exact=True).click()
        expect(caption).to_contain_text("Step 5 of")
        # what the browser keeps is spoilt: the page drops it and starts Python afresh
        spoil = (
            "async () => { const cache = await caches.open('tricklab-prepared'); const [key] = await cache.keys();"
            " await cache.put(key, new Response(new Uint8Array(4096).fill(7))); return key.url; }"
        )
        assert "tricklab-prepared/" in second.evaluate(spoil)
        second.close()
        third = context.new_page()
        logs.append(_watch(third, f"{site_url}/voici/render/quiz.html?game=kalah&seed=1"))
        third.locator(f"{BOARD} .tl-pit").first.wait_for(timeout=BOOT)
        assert third.evaluate(started) is False
        third.wait_for_function("window.tricklabPrepared !== undefined", timeout=BOOT)
        assert third.evaluate("window.tricklabPrepared") is True, "and prepares a good one again"
        for log in logs:
            no_errors(log)
    finally:
        context.close()


def test_the_site_watches_its_connection_as_voila_does(site_url: str, browser: Any) -> None:
    """Python in the browser tells its boards that this is an app's page: they watch the
    connection (see tests/test_browser_connection.py), and the kernel answers their hello."""
    page, log = app_page(browser, site_url, "replay.html?game=kalah&seed=3", BOARD)
    watching = (
        "(() => { const p = globalThis[Symbol.for('tricklab.connection')];"
        " return p ? { probes: p.probes.size, heard: !!p.heard } : null; })()"
    )
    page.wait_for_function(f"{watching}?.heard === true", timeout=30_000)
    assert page.evaluate(watching)["probes"] >= 1
    page.locator(BOARD).first.click()
    page.keyboard.press("ArrowRight")
    time.sleep(4.5)  # past the board's wait for an answer
    assert page.locator(".tricklab-connection").count() == 0
    no_errors(log)
    page.close()


def test_replay_takes_a_step_and_keeps_its_link_in_the_address(site_url: str, browser: Any) -> None:
    page, log = app_page(browser, site_url, "replay.html?game=band-of-tricks&players=5&seed=7&step=4", CARD)
    expect(page.locator(".tricklab-app-header h2")).to_contain_text("Band of Tricks, 5 players, seed 7")
    caption = page.locator(f"{BOARD} .tl-caption")
    expect(caption).to_contain_text("Step 4 of")
    page.get_by_role("button", name="▶", exact=True).click()
    expect(caption).to_contain_text("Step 5 of")
    page.wait_for_function("new URLSearchParams(location.search).get('step') === '5'", timeout=30_000)
    no_errors(log)
    page.close()


def test_the_bid_trainer_tries_a_bid_without_threads(site_url: str, browser: Any) -> None:
    page, log = app_page(browser, site_url, "bid_trainer.html?game=tricks-and-stones&players=3&seed=3", CARD)
    try_it = page.get_by_role("button", name="Try it")
    try_it.click()
    expect(page.locator(BOARD).first).to_contain_text("and play for it", timeout=120_000)
    expect(try_it).to_be_enabled()
    no_errors(log)
    page.close()


def test_play_lets_the_bots_move_at_their_pace_and_the_learner_bid(site_url: str, browser: Any) -> None:
    page, log = app_page(browser, site_url, "play.html?game=tricks-and-stones&players=4&seed=1&pace=0.2", CARD)
    page.locator(f"{BOARD} button.tl-choice").first.wait_for(timeout=60_000)
    page.locator(f"{BOARD} button.tl-choice", has_text="1").first.click()
    page.wait_for_function("(new URLSearchParams(location.search).get('moves') || '').length > 0", timeout=30_000)
    no_errors(log)
    page.close()


@pytest.mark.parametrize(
    ("page_name", "ready"),
    [
        ("quiz.html?game=kalah&seed=1", f"{BOARD} .tl-pit"),
        ("rulebooks.html", "table.tl-rulebook"),
    ],
)
def test_the_quiz_and_the_rulebooks_render(site_url: str, browser: Any, page_name: str, ready: str) -> None:
    page, log = app_page(browser, site_url, page_name, ready)
    if page_name.startswith("rulebooks"):
        assert page.evaluate("window.tricklabStart.python") is False, "markup only: shown as the build made it"
        expect(page.locator("h2[id='Mandala']")).to_have_count(1)
        heading = page.locator("#tricklab-app h1").first
        expect(heading).to_have_text("tricklab rulebooks")  # the notebook's Markdown cell, first
        assert heading.evaluate("h => h.compareDocumentPosition(document.querySelector('table.tl-rulebook')) & 4")
        assert page.locator("table.tl-rulebook td").first.evaluate("td => getComputedStyle(td).textAlign") == "left"
    page.wait_for_timeout(1500)  # late errors: pictures, widget state
    no_errors(log)
    page.close()


def test_a_hostile_link_is_refused_in_the_site_too(site_url: str, browser: Any) -> None:
    page, log = app_page(browser, site_url, f"replay.html?seed={quote(PAYLOADS[0])}", ".tricklab-message:not([hidden])")
    expect(page.locator(".tricklab-message:not([hidden])")).to_contain_text("The seed must be a whole number")
    assert_no_script_ran(page, log.dialogs)
    page.close()


KALAH = "play.html?game=kalah&seed=3"


@pytest.mark.parametrize(
    ("page_name", "light", "kept"),
    [
        ("explain_trick.html?theme=dark", "false", ["dark"]),
        (f"{KALAH}&theme=%25", "true", []),  # Voici decoded the "%" again: URIError, a spinner for ever
        (f"{KALAH}&theme=%", "true", []),
        ("explain_trick.html?theme=<script>", "true", []),
        (f"explain_trick.html?theme={quote(PAYLOADS[0])}", "true", []),
        ("explain_trick.html?theme=JupyterLab%20Dark", "true", []),  # Voici's own name, not a link's choice
        (f"{KALAH}&theme=light&theme=dark&theme=%25", "false", ["dark"]),  # the last good one, as tricklab serve
    ],
)
def test_a_link_s_theme_is_dark_or_light_and_runs_nothing(
    site_url: str, browser: Any, page_name: str, light: str, kept: list[str]
) -> None:
    ready = f"{BOARD} .tl-pit" if page_name.startswith(KALAH) else CARD
    page, log = app_page(browser, site_url, page_name, ready)
    assert page.evaluate("document.body.dataset.jpThemeLight") == light
    query = page.evaluate(
        "Object.fromEntries(['theme', 'seed'].map(k => [k, new URLSearchParams(location.search).getAll(k)]))"
    )
    assert query["theme"] == kept, query
    if page_name.startswith(KALAH):  # the rest of the link is the app's, as it was
        assert query["seed"] == ["3"], query
    assert_no_script_ran(page, log.dialogs)
    no_errors(log)  # nor is a theme the site lacks asked for
    page.close()


@pytest.mark.parametrize(
    ("page_name", "ready"),
    [("play.html?game=kalah&seed=1", f"{BOARD} .tl-pit"), ("rulebooks.html", "table.tl-rulebook")],
)
def test_on_a_phone_the_app_fits_the_screen(site_url: str, browser: Any, page_name: str, ready: str) -> None:
    """Nothing makes the page wider than the phone: a wide table scrolls in its own place."""
    page, log = app_page(browser, site_url, page_name, ready, phone=True)
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, overflow
    margin = page.locator("#tricklab-app").evaluate("el => parseFloat(getComputedStyle(el).paddingLeft)")
    assert margin >= 12, "the text keeps off the screen's edge"
    no_errors(log)
    page.close()


def test_voici_s_own_folder_opens_the_gallery_too(site_url: str, browser: Any) -> None:
    page, _ = open_page(browser, f"{site_url}/voici/")
    page.wait_for_url("**/voici/render/index.html", timeout=30_000)
    page.close()


def test_the_guide_shows_the_github_pages_workflow_as_it_is_and_the_site_commands() -> None:
    guide = (ROOT / "notebooks" / "guide" / "static-site.md").read_text()
    workflow = (ROOT / ".ci" / "github-pages.yml").read_text()
    assert f"```yaml\n{workflow}```" in guide
    assert "tricklab site build _site" in workflow and "actions/deploy-pages" in workflow
    assert ".venv/bin/tricklab site build site" in guide and ".venv/bin/tricklab site serve site" in guide
    readme = (ROOT / "README.md").read_text()
    assert "`tricklab site build site`" in readme and "notebooks/guide/static-site.md" in readme


def test_a_build_uses_the_tools_of_its_own_environment_when_they_are_there(built: Path) -> None:
    """``pip install 'tricklab[site]'`` puts the pinned tools beside tricklab: the build then uses
    them instead of making its own environment. The tools' own environment (made by the build
    above) is such an environment; the test environment, without them, is not."""
    tools = site.cache_dir() / f"tools-{site._pins_key(site.TOOLS)}"
    finds = (
        "import sys; sys.path.insert(0, sys.argv[1]); "
        "from tricklab.site import installed_tools; print(installed_tools())"
    )
    done = subprocess.run(
        [str(tools / "bin" / "python"), "-c", finds, str(ROOT)], capture_output=True, text=True, check=True
    )
    assert Path(done.stdout.strip()) == tools / "bin"
    assert site.installed_tools() is None
