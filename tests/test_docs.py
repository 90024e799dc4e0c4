"""The documentation site: built by its one command (``python -m sphinx -b html notebooks DIR``, as
the README says) once per session, then read as files and opened in Chromium with every request
beyond this machine blocked.

The build runs every tutorial in a kernel (tens of seconds); its sources are notebooks/conf.py,
notebooks/index.md, notebooks/rulebooks.md and notebooks/api/*.md.
"""

from __future__ import annotations

import html
import inspect
import json
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

import tricklab
from tricklab import site

from .servers import ARTIFACTS, ROOT, open_page, open_phone_page

NOTEBOOKS = ROOT / "notebooks"
TUTORIALS = sorted(NOTEBOOKS.glob("*.ipynb"))
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
#: the README's command, but its folder
COMMAND = ["-m", "sphinx", "-b", "html", "notebooks"]


@dataclass
class Built:
    html: Path  # the site
    warnings: list[str]  # the build's warnings, one a line
    seconds: float

    def page(self, name: str) -> str:
        return (self.html / name).read_text()


@pytest.fixture(scope="session")
def docs(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """The README's command, into a new folder (so every tutorial runs)."""
    out = tmp_path_factory.mktemp("docs") / "html"
    warnings = out.parent / "warnings.txt"
    start = time.monotonic()
    done = subprocess.run(
        [sys.executable, *COMMAND, str(out), "-q", "-w", str(warnings)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    seconds = time.monotonic() - start
    assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]
    lines = [line for line in warnings.read_text().splitlines() if line.strip()]
    return Built(out, lines, seconds)


class _Text(HTMLParser):
    """The text a reader sees in a page's article (no scripts, styles or navigation)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0
        self._article = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        if tag == "article":
            self._article += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1
        if tag == "article":
            self._article -= 1

    def handle_data(self, data: str) -> None:
        if self._article and not self._skip:
            self.parts.append(data)


def article_text(page: str) -> str:
    parser = _Text()
    parser.feed(page)
    return " ".join("".join(parser.parts).replace("\u2019", "'").split())


def _reference(found: re.Match[str]) -> str:
    role, short, target = found.groups()
    name = target.rsplit(".", 1)[-1] if short else target
    return name + ("()" if role in ("meth", "func") else "")


def docstring_text(obj: object) -> str:
    """A docstring as its page shows it: ``code`` marks and roles dropped (``:meth:`apply``` is
    ``apply()``, ``:class:`~tricklab.Match``` is ``Match``), whitespace as single spaces."""
    doc = inspect.getdoc(obj) or ""
    doc = re.sub(r":(\w+):`(~?)([^`]+)`", _reference, doc).replace("``", "")
    return " ".join(doc.split())


def title(notebook: Path) -> str:
    first = json.loads(notebook.read_text())["cells"][0]
    return "".join(first["source"]).splitlines()[0].removeprefix("# ").strip()


def widget_outputs(executed: Path) -> int:
    cells = json.loads(executed.read_text())["cells"]
    return sum(WIDGET_VIEW in output.get("data", {}) for cell in cells for output in cell.get("outputs", []))


def test_the_readme_gives_the_command_built_with_here() -> None:
    readme = (ROOT / "README.md").read_text()
    assert f"`python {' '.join(COMMAND)} build/docs`" in readme
    assert "build/" in (ROOT / ".gitignore").read_text().splitlines()


# --- what the build writes -------------------------------------------------------------------------------


def test_every_tutorial_has_its_page_with_what_it_showed_when_it_ran(docs: Built) -> None:
    assert len(TUTORIALS) >= 6
    index = docs.page("index.html")
    for notebook in TUTORIALS:
        name = f"{notebook.stem}.html"
        page = docs.page(name)
        assert f"<h1>{html.escape(title(notebook), quote=False)}" in page, name
        assert f'href="{name}"' in index, f"the index does not link to {name}"
        # run during the build: its outputs are there, the engine's pictures among them
        assert page.count('class="cell_output') >= 3, name
        assert "tl-card" in page or "tl-board" in page or "tl-rulebook" in page, name


def test_the_build_warns_of_nothing_in_the_tutorials_or_the_api_pages(docs: Built) -> None:
    sources = [*(path.name for path in TUTORIALS), "rulebooks.md", "index.md", "api/", "guide/"]
    about_ours = [line for line in docs.warnings if any(source in line for source in sources)]
    assert about_ours == [], "\n".join(about_ours)
    # a public name that is gone would leave its API page without it, with only a warning
    assert not [line for line in docs.warnings if "failed to import" in line]


def test_every_guide_has_its_page_linked_from_the_index_and_the_readme(docs: Built) -> None:
    index = docs.page("index.html")
    readme = (ROOT / "README.md").read_text()
    guides = sorted((NOTEBOOKS / "guide").glob("*.md"))
    assert len(guides) >= 8
    for guide in guides:
        first = guide.read_text().splitlines()[0].removeprefix("# ")
        assert first in article_text(docs.page(f"guide/{guide.stem}.html")), guide.name
        assert f'href="guide/{guide.stem}.html"' in index, guide.name
        assert f"(notebooks/guide/{guide.name})" in readme, guide.name


def test_the_api_pages_document_every_public_name_with_its_docstring(docs: Built) -> None:
    pages = {path.name: path.read_text() for path in (docs.html / "api").glob("*.html")}
    everything = "".join(pages.values())
    from tricklab import widgets

    public = [f"tricklab.{name}" for name in tricklab.__all__]

    public += [f"tricklab.widgets.{name}" for name in widgets.__all__]
    missing = [name for name in public if f'id="{name}"' not in everything]
    assert missing == [], f"not in the API pages: {missing}"
    rules = article_text(pages["rules.html"])
    rules_class = type(tricklab.get_rules("tricks-and-stones", players=4))
    for documented in (tricklab.get_rules, tricklab.games, tricklab.Rules.refusal, rules_class.score_round):
        assert docstring_text(documented) in rules, documented
    matches = article_text(pages["matches.html"])
    assert docstring_text(tricklab.Match.undo) in matches
    # a widget is shown as it is made, with its own parameters
    shown = article_text(pages["widgets.html"])
    assert "*args" not in shown and "TrickExplainer(game: str" in shown


def test_a_widget_is_a_note_and_nothing_is_loaded_from_elsewhere(docs: Built) -> None:
    executed = docs.html.parent / "jupyter_execute"
    shown = 0
    for notebook in TUTORIALS:
        page = docs.page(f"{notebook.stem}.html")
        widgets = widget_outputs(executed / notebook.name)
        assert page.count('class="tricklab-widget-note') == widgets, notebook.name
        shown += widgets
        # neither the widgets' views nor their saved state (large, and read by no script here)
        assert "application/vnd.jupyter.widget" not in page, notebook.name
    assert shown >= len(TUTORIALS)
    for path in docs.html.rglob("*.html"):
        tags = re.findall(r"<(?:script|link|img|iframe)\b[^>]*>", path.read_text())
        outside = [tag for tag in tags if re.search(r"""(?:src|href)=["']?(?:https?:)?//""", tag)]
        assert outside == [], (path, outside)


def test_a_rule_id_in_an_explanation_links_to_its_clause_in_the_rulebooks(docs: Built) -> None:
    rulebooks = docs.page("rulebooks.html")
    linked = 0
    for notebook in TUTORIALS:
        page = docs.page(f"{notebook.stem}.html")
        assert "rulebooks.ipynb" not in page, notebook.name
        for rule in re.findall(r'href="rulebooks\.html#([^"]+)"', page):
            assert f'id="{rule}"' in rulebooks, (notebook.name, rule)
            linked += 1
    assert linked >= 20


# --- in Chromium ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def docs_url(docs: Built) -> Iterator[str]:
    httpd = site.server(docs.html, port=0)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def _check_page(page: Any, log: Any, width: int) -> None:
    assert log.blocked == [] and log.javascript_errors() == [], (log.blocked, log.javascript_errors())
    # the page itself never scrolls sideways (wide code and pictures scroll inside their own box)
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_the_index_and_a_tutorial_read_well_offline(browser: Any, docs_url: str, phone: bool) -> None:
    """The index (its words checked for plain language after the test, as every index page is), then
    a tutorial on a page of its own: a tutorial shows code, which may spell what a learner's page
    never does ("predict 9")."""
    size = (390, 844) if phone else (1280, 900)
    kind = "phone" if phone else "desktop"
    opened = open_phone_page if phone else open_page
    page, log = opened(browser, f"{docs_url}/index.html", viewport=size)
    try:
        _check_page(page, log, size[0])
        for notebook in [*TUTORIALS, NOTEBOOKS / "rulebooks.md"]:
            assert page.locator(f'article a[href="{notebook.stem}.html"]').count() == 1, notebook.name
        page.screenshot(path=str(ARTIFACTS / f"docs-index-{kind}.png"))
    finally:
        (page.context.close if phone else page.close)()

    page, log = opened(browser, f"{docs_url}/01_tricks_and_stones.html", viewport=size)
    try:
        _check_page(page, log, size[0])
        trick = page.locator(".tricklab").filter(has=page.locator(".tl-trick")).first  # a trick and its reasons
        trick.scroll_into_view_if_needed()
        assert trick.is_visible() and trick.locator(".tl-trick .tl-card").count() == 4
        page.screenshot(path=str(ARTIFACTS / f"docs-tutorial-{kind}.png"))
        note = page.locator(".tricklab-widget-note").first
        note.scroll_into_view_if_needed()
        assert note.is_visible() and "JupyterLab" in note.inner_text()
        page.screenshot(path=str(ARTIFACTS / f"docs-widget-note-{kind}.png"))
        # a rule id in an explanation opens its clause in the rulebooks (here, in the same tab)
        link = trick.locator("a.tl-rule-id").first
        rule = link.inner_text()
        link.evaluate("a => a.removeAttribute('target')")
        link.click()
        page.wait_for_url(f"**/rulebooks.html#{rule}")
        assert page.locator(f'[id="{rule}"]').is_visible()
        _check_page(page, log, size[0])
    finally:
        (page.context.close if phone else page.close)()
