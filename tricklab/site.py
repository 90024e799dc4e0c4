"""``tricklab site build DIR``: the apps as a static site whose Python runs in the browser.

Each app page is the app notebook's code, run by Pyodide in a Web Worker with tricklab and the
widgets' pure-Python packages only (no JupyterLab, Voici, IPython, ipykernel or pygments), and the
widgets drawn in the page by a small widget manager from the messages of a bridge that carries
their comm (:mod:`tricklab.bridge`; the page's scripts are ``tricklab/share/site/``). Everything
comes from the package registries alone, at pinned versions, into a private cache
(``$TRICKLAB_SITE_CACHE``, else ``~/.cache/tricklab-site``):

- the build tools (:data:`TOOLS`): those of the running environment when it has them at these
  versions (``pip install 'tricklab[site]'``), else a virtual environment of their own;
- Pyodide's runtime (:data:`PYODIDE`), which holds no wheels;
- the pure-Python wheels the apps need in the browser (:data:`BROWSER_WHEELS`).

The page starts its worker, and with it every download, as its first script, and shows the app's
loading screen with what is under way until the app is drawn. Opened with no network beyond its
host, the site works. ``tricklab site serve DIR`` serves a built site on this machine as a real
host does (compressed, with caching headers).

The pages keep the addresses of the site's first version (``voici/render/play.html``), so links
shared then still open their app.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import html
import http.server
import importlib.metadata
import json
import mimetypes
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import zipfile
from pathlib import Path
from typing import BinaryIO

from . import __version__

#: the build tools, pinned together
TOOLS = (
    # the lock file of the site's wheels (pyodide-lock reads them with packaging and pkginfo)
    "pyodide-lock==0.1.2",
    "packaging==24.2",
    "pkginfo==2.0",
    # the app notebooks' Markdown cells, as a notebook shows them (_site_markdown.py)
    "markdown-it-py==3.0.0",
    "mdurl==0.1.2",
    # the site's files precompressed, for hosts that serve them (_site_compress.py)
    "brotli==1.1.0",
)
#: the Pyodide runtime (Python 3.12)
PYODIDE = "0.27.6"
#: what the browser loads beside tricklab: the widgets (ipywidgets' containers, anywidget's boards)
#: and what they import, and nothing of IPython's or a kernel's (tricklab.bridge stands in for the
#: few names ipywidgets takes from IPython)
BROWSER_WHEELS = (
    "traitlets==5.16.1",
    "comm==0.2.3",
    "ipywidgets==8.1.9",
    "anywidget==0.11.0",
    "psygnal==0.16.1",
    "typing_extensions==4.16.0",
)
#: the site's own scripts and page stylesheet, in the package (tricklab/share/site)
SITE_FILES = Path(__file__).resolve().parent / "share" / "site"
#: where the site keeps them, its wheels and Pyodide's runtime
STATIC = "static/tricklab"
RUNTIME = "static/pyodide"
#: the app pages' folder, as the site's first version had it
PAGES = "voici/render"
GALLERY_REDIRECT = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>tricklab</title>
<meta http-equiv="refresh" content="0; url=voici/render/index.html"></head>
<body><a href="voici/render/index.html">The tricklab app gallery</a></body></html>
"""


def cache_dir() -> Path:
    return Path(os.environ.get("TRICKLAB_SITE_CACHE") or Path.home() / ".cache" / "tricklab-site")


def _run(command: list[str | Path], **kwargs: object) -> subprocess.CompletedProcess[str]:
    print("tricklab site:", " ".join(str(part) for part in command), flush=True)
    return subprocess.run([str(part) for part in command], check=True, text=True, **kwargs)  # type: ignore[call-overload, no-any-return]


def _pins_key(pins: tuple[str, ...]) -> str:
    return hashlib.sha256("\n".join(pins).encode()).hexdigest()[:16]


def installed_tools() -> Path | None:
    """The running environment's scripts folder when it holds every build tool at its pinned
    version (``pip install 'tricklab[site]'``), else None."""
    for pin in TOOLS:
        name, version = pin.split("==")
        try:
            if importlib.metadata.version(name) != version:
                return None
        except importlib.metadata.PackageNotFoundError:
            return None
    scripts = Path(sysconfig.get_path("scripts"))
    return scripts if (scripts / "python").exists() else None


def tools_env(cache: Path) -> Path:
    """The build tools' ``bin`` folder: the running environment's when it has them
    (:func:`installed_tools`), else a virtual environment of their own, made and filled when missing."""
    installed = installed_tools()
    if installed is not None:
        return installed
    venv = cache / f"tools-{_pins_key(TOOLS)}"
    python = venv / "bin" / "python"
    done = venv / ".installed"
    if not done.exists():
        _run([sys.executable, "-m", "venv", "--clear", venv])
        _run([python, "-m", "pip", "install", "--quiet", *TOOLS])
        done.write_text("\n".join(TOOLS) + "\n")
    return venv / "bin"


def pyodide_runtime(cache: Path) -> Path:
    """Pyodide's runtime folder (``pyodide.js``, ``pyodide.asm.wasm``, ...), from npm when missing."""
    return npm_package(cache, "pyodide", PYODIDE)


def npm_package(cache: Path, name: str, version: str) -> Path:
    """The folder of npm package ``name@version``, unpacked into the cache when missing."""
    folder = cache / f"{name.replace('/', '+')}-{version}"
    if not (folder / "package.json").exists():
        with tempfile.TemporaryDirectory() as tmp:
            _run(["npm", "pack", "--silent", f"{name}@{version}"], cwd=tmp, stdout=subprocess.DEVNULL)
            (tarball,) = Path(tmp).glob("*.tgz")
            with tarfile.open(tarball) as archive:
                archive.extractall(tmp, filter="data")
            shutil.rmtree(folder, ignore_errors=True)
            shutil.move(Path(tmp) / "package", folder)
    return folder


def browser_wheels(cache: Path, bin_dir: Path) -> list[Path]:
    """The pinned pure-Python wheels the browser loads, downloaded when missing."""
    folder = cache / f"wheels-{_pins_key(BROWSER_WHEELS)}"
    done = folder / ".downloaded"
    if not done.exists():
        _run(
            [
                bin_dir / "python",
                "-m",
                "pip",
                "download",
                "--quiet",
                "--no-deps",
                "--only-binary=:all:",
                "--python-version=3.12",
                "--platform=any",
                "--implementation=py",
                "--abi=none",
                "--dest",
                folder,
                *BROWSER_WHEELS,
            ]
        )
        done.touch()
    return sorted(folder.glob("*.whl"))


#: what of the package the browser does without: the apps and tutorials (the site has them as
#: pages), the Voilà template (its loading screen is put into the pages at build time), bytecode
BROWSER_LEAVES_OUT = ("_data", "share", "__pycache__")


def tricklab_wheel(folder: Path) -> Path:
    """A wheel of the tricklab package as it is here (a clone or an installed wheel alike), for
    the browser: its modules and their static files, with no dependency declared (the site loads
    every wheel it has at boot)."""
    package = Path(__file__).resolve().parent
    name = f"tricklab-{__version__}"
    dist = f"{name}.dist-info"
    files: dict[str, bytes] = {}
    for path in sorted(package.rglob("*")):
        relative = path.relative_to(package)
        if path.is_file() and not set(relative.parts) & set(BROWSER_LEAVES_OUT) and path.suffix != ".pyc":
            files[f"tricklab/{relative.as_posix()}"] = path.read_bytes()
    files[f"{dist}/METADATA"] = f"Metadata-Version: 2.1\nName: tricklab\nVersion: {__version__}\n".encode()
    files[f"{dist}/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: tricklab\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    files[f"{dist}/top_level.txt"] = b"tricklab\n"
    record = "".join(f"{file},sha256={_digest(data)},{len(data)}\n" for file, data in files.items())
    files[f"{dist}/RECORD"] = (record + f"{dist}/RECORD,,\n").encode()
    path = folder / f"{name}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for file, data in files.items():
            archive.writestr(zipfile.ZipInfo(file, date_time=(2020, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)
    return path


def _digest(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


#: Node.js runs Pyodide to compile the site's Python (``_site_compile.py``): argv runtime, script, folder
_COMPILE_JS = """
const [runtime, script, folder] = process.argv.slice(1);
const fs = require("fs");
require(runtime + "/pyodide.js").loadPyodide({ indexURL: runtime + "/" }).then((py) => {
  py.FS.mkdir("/site");
  py.FS.mount(py.FS.filesystems.NODEFS, { root: folder }, "/site");
  py.runPython(fs.readFileSync(script, "utf8"));
  console.log(py.globals.get("main")("/site"));
});
"""


def compile_python(runtime: Path, folder: Path) -> None:
    """Bytecode for the wheels and the standard library in ``folder``, by Pyodide's own Python."""
    script = Path(__file__).with_name("_site_compile.py")
    _run(["node", "-e", _COMPILE_JS, runtime.resolve(), script, folder.resolve()])


def rehash(lock_file: Path) -> list[str]:
    """Name each wheel beside the lock file (``pyodide-lock.json``) with its content's hash, so a
    browser keeps it for good, and write those names and hashes into the lock file (after
    compiling changed the wheels); returns the wheels' file names, in the lock's order."""
    lock = json.loads(lock_file.read_text())
    packages: dict[str, dict[str, object]] = lock["packages"]
    names = []
    for package in packages.values():
        wheel = lock_file.parent / str(package["file_name"])
        digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
        named = wheel.with_name(f"{wheel.stem}.{digest[:12]}.whl")
        wheel.rename(named)
        package["file_name"], package["sha256"] = named.name, digest
        names.append(named.name)
    lock_file.write_text(json.dumps(lock, indent=1))
    return names


#: the first script of each page: of the address's ``theme`` values only the last that is exactly
#: ``light`` or ``dark`` stays, as ``tricklab serve`` keeps it
#: (``tricklab.serve.keep_checked_link_arguments``)
THEME_GUARD = """<script data-tricklab="theme-guard">
(() => {
  // a link chooses light or dark, nothing else: any other theme is left out of the address
  const parts = location.search.slice(1).split("&");
  const themes = parts.map((part) => {
    const [entry] = new URLSearchParams(part);
    return entry && entry[0] === "theme" ? entry[1] : null;
  });
  const last = themes.findLastIndex((theme) => theme === "light" || theme === "dark");
  const kept = parts.filter((part, i) => themes[i] === null || i === last);
  if (kept.length < parts.length) {
    const search = kept.filter(Boolean).join("&");
    history.replaceState(history.state, "", location.pathname + (search ? "?" + search : "") + location.hash);
  }
})();
</script>
"""

#: the apps' loading screen, shared with the Voilà template (see its own notes)
LOADING_JS = Path(__file__).resolve().parent / "share" / "voila" / "templates" / "tricklab" / "loading.js"


def _script_json(value: object) -> str:
    """``value`` as JSON to put in a ``<script>``: "<", ">" and "&" escaped, so no text ends the script."""
    return json.dumps(value).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def app_words(notebook: Path) -> dict[str, str]:
    """The app's name and what is coming, from the notebook's metadata (``"tricklab": {"app": ...,
    "coming": ...}``), as Voilà's template has them."""
    metadata = json.loads(notebook.read_text()).get("metadata", {}).get("tricklab", {})
    return {"app": str(metadata.get("app", "tricklab")), "coming": str(metadata.get("coming", "Getting ready…"))}


def loading_screen(notebook: Path) -> str:
    """The script of an app page's loading screen, with the app's name and what is coming."""
    said = _script_json(app_words(notebook))
    return f'<script data-tricklab="loading">\nwindow.TRICKLAB_LOADING = {said};\n{LOADING_JS.read_text()}</script>\n'


def _cells(notebook: Path) -> list[tuple[str, str]]:
    """The notebook's code and Markdown cells, in order: ``(cell_type, source)``."""
    cells = json.loads(notebook.read_text()).get("cells", [])
    return [
        (cell["cell_type"], "".join(cell["source"]) if isinstance(cell["source"], list) else str(cell["source"]))
        for cell in cells
        if cell.get("cell_type") in ("code", "markdown")
    ]


#: the apps that need a server (the class and table apps keep sessions and tables in the class
#: store): not in the site
SERVER_ONLY = frozenset({"class.ipynb", "table.ipynb"})


def site_apps(apps: Path) -> list[Path]:
    """The app notebooks of ``apps`` the static site holds: every one that runs without a server."""
    return [notebook for notebook in sorted(apps.glob("*.ipynb")) if notebook.name not in SERVER_ONLY]


def code_cells(notebook: Path) -> list[str]:
    """The notebook's code cells, as the page's Python runs them."""
    return [source for kind, source in _cells(notebook) if kind == "code"]


def markdown_cells(notebook: Path) -> list[str]:
    """The notebook's Markdown cells (the build renders them: :func:`render_markdown`)."""
    return [source for kind, source in _cells(notebook) if kind == "markdown"]


def render_markdown(bin_dir: Path, texts: list[str]) -> dict[str, str]:
    """Each Markdown text's HTML, rendered by the build tools (``_site_markdown.py``)."""
    if not texts:
        return {}
    done = _run(
        [bin_dir / "python", "-I", Path(__file__).with_name("_site_markdown.py")],
        input=json.dumps(texts),
        stdout=subprocess.PIPE,
    )
    return dict(zip(texts, json.loads(done.stdout), strict=True))


def page(
    notebook: Path,
    *,
    static: dict[str, str],
    wheels: list[str],
    prepared: str | None,
    markdown: dict[str, str] | None = None,
    shown: list[str] | None = None,
    dataclass_code: str | None = None,
) -> str:
    """The page of the app ``notebook``, one folder below the site's root's ``voici``
    (``voici/render/play.html``): ``static`` names the site's scripts and page stylesheet by their
    hashed names, ``wheels`` the wheels' files, ``prepared`` the key under which a browser keeps
    the interpreter it prepared (None: it keeps none), ``markdown`` each Markdown cell's HTML
    (:func:`render_markdown`; a cell not in it is shown as plain text), ``shown`` what each code
    cell shows when the app is markup only (the build ran it): the page then runs no Python;
    ``dataclass_code`` the file of the code the dataclasses' sources compile to (``boot.py``)."""
    up = "../" * len(Path(PAGES).parts)
    rendered = markdown or {}
    outputs = iter(shown or [])
    cells: list[dict[str, str]] = []
    for kind, source in _cells(notebook):
        if kind == "markdown":
            cells.append({"html": rendered.get(source, f"<p>{html.escape(source)}</p>")})
        elif shown is not None:
            cells.append({"html": next(outputs, ""), "ran": "at the build"})
        else:
            cells.append({"code": source})
    config = {
        "root": up,
        "worker": f"{STATIC}/{static['worker.js']}",
        "wheels": [f"{RUNTIME}/{name}" for name in wheels],
        "prepared": prepared,
        "boot": f"{STATIC}/{static['boot.py']}" if "boot.py" in static else None,
        "dataclasses": f"{RUNTIME}/{dataclass_code}" if dataclass_code else None,
        "cells": cells,
    }
    title = html.escape(app_words(notebook)["app"])
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"{THEME_GUARD}"
        f"<title>{title}{'' if title == 'tricklab' else ' · tricklab'}</title>\n"
        '<link rel="icon" href="data:,">\n'  # no icon: not asked for (a 404 each visit)
        f'<link rel="stylesheet" href="{up}{STATIC}/{static["page.css"]}">\n'
        f'<script data-tricklab="site">window.TRICKLAB_SITE = {_script_json(config)};</script>\n'
        f'<script src="{up}{STATIC}/{static["app.js"]}"></script>\n'
        "</head>\n<body>\n"
        f"{loading_screen(notebook)}"
        '<main id="tricklab-app"></main>\n'
        "</body>\n</html>\n"
    )


def _hashed_copy(source: Path, folder: Path) -> str:
    """Copy ``source`` into ``folder`` under a name with its content's hash; returns that name."""
    data = source.read_bytes()
    name = f"{source.stem}.{hashlib.sha256(data).hexdigest()[:12]}{source.suffix}"
    (folder / name).write_bytes(data)
    return name


def build(out: Path, apps: Path) -> Path:
    """Build the static site into ``out``; returns the gallery page."""
    cache = cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    bin_dir = tools_env(cache)
    runtime = pyodide_runtime(cache)
    wheels = browser_wheels(cache, bin_dir)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        pyodide = work / "pyodide"
        pyodide.mkdir()
        for name in ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip"):
            shutil.copy2(runtime / name, pyodide / name)
        every = [*wheels, tricklab_wheel(work)]
        for wheel in every:
            shutil.copy2(wheel, pyodide / wheel.name)
        # the lock file reads each wheel's modules from its sources, which compiling takes out
        left_out = _run(
            [
                bin_dir / "python",
                "-I",  # not the script's folder on sys.path: tricklab's platform.py would hide the stdlib's
                Path(__file__).with_name("_site_lock.py"),
                runtime / "pyodide-lock.json",
                pyodide / "pyodide-lock.json",
                *(pyodide / wheel.name for wheel in every),
            ],
            stdout=subprocess.PIPE,
        ).stdout
        print(f"tricklab site: requirements the browser does without: {left_out.strip()}", flush=True)
        # which of the standard library's modules are compiled: those the apps import as they start
        cells = pyodide / "cells.json"
        cells.write_text(json.dumps([code_cells(notebook) for notebook in site_apps(apps)]))
        compile_python(runtime, pyodide)
        cells.unlink()
        shown = json.loads((pyodide / "shown.json").read_text())
        (pyodide / "shown.json").unlink()
        kept = pyodide / "dataclasses.bin"  # the code the pages' dataclasses run (share/site/boot.py)
        dataclass_code = _hashed_copy(kept, pyodide)
        kept.unlink()
        names = rehash(pyodide / "pyodide-lock.json")
        if out.exists():
            shutil.rmtree(out)
        out.mkdir(parents=True)
        shutil.copytree(pyodide, out / RUNTIME)
    static = out / STATIC
    static.mkdir(parents=True)
    hashed = {source.name: _hashed_copy(source, static) for source in sorted(SITE_FILES.iterdir()) if source.is_file()}
    # a browser's prepared interpreter is of this runtime, these wheels and this worker only
    prepared = hashlib.sha256("\n".join([PYODIDE, hashed["worker.js"], *names]).encode()).hexdigest()[:16]
    notebooks = site_apps(apps)
    markdown = render_markdown(bin_dir, sorted({text for notebook in notebooks for text in markdown_cells(notebook)}))
    pages = out / PAGES
    pages.mkdir(parents=True)
    for notebook, markup in zip(notebooks, shown, strict=True):
        made = page(
            notebook,
            static=hashed,
            wheels=names,
            prepared=prepared,
            markdown=markdown,
            shown=markup,
            dataclass_code=dataclass_code,
        )
        (pages / f"{notebook.stem}.html").write_text(made)
    # the gallery's pictures are asked for beside the app pages (``../files/screenshots``), as under Voilà
    if (apps / "screenshots").is_dir():
        server_only = tuple(Path(name).stem for name in SERVER_ONLY)  # their pictures too (class.png, class-dark.png)
        shutil.copytree(
            apps / "screenshots",
            out / "voici" / "files" / "screenshots",
            ignore=lambda _, names: [n for n in names if n.split(".")[0].removesuffix("-dark") in server_only],
        )
    # the site's root and ``voici/`` open the gallery
    (out / "index.html").write_text(GALLERY_REDIRECT)
    (out / "voici" / "index.html").write_text(GALLERY_REDIRECT.replace("voici/render/", "render/"))
    (out / ".nojekyll").touch()  # a GitHub Pages branch serves the folder as it is
    _run([bin_dir / "python", "-I", Path(__file__).with_name("_site_compress.py"), out, cache / "compressed"])
    return out / "index.html"


def site_size(out: Path) -> int:
    """The bytes of the site's files (not of their compressed copies)."""
    return sum(path.stat().st_size for path in out.rglob("*") if path.is_file() and path.suffix not in ENDINGS)


mimetypes.add_type("application/wasm", ".wasm")  # streaming compilation wants this type


#: the compressed copies the build writes beside a file (``_site_compress.py``), by the name a
#: browser gives its encoding in ``Accept-Encoding``, the one to prefer first
ENDINGS = {".br": "br", ".gz": "gzip"}
#: a file name with a content hash in it (``main.3f9a1c2be7.js``): its content never changes
HASHED = re.compile(r"[.-][0-9a-f]{8,}\.[A-Za-z0-9]+$")


def accepted(header: str | None) -> set[str]:
    """The encodings an ``Accept-Encoding`` header accepts (lower case; none refused with ``q=0``)."""
    names = set()
    for part in (header or "").split(","):
        name, _, params = part.strip().partition(";")
        q = params.strip().lower().replace(" ", "")
        if name and q not in ("q=0", "q=0.0", "q=0.00", "q=0.000"):
            names.add(name.strip().lower())
    return names


def cache_control(path: str) -> str:
    """How long a browser may keep a file without asking: for ever where its name holds its
    content's hash, else it asks each time (and is told "not modified" while it is not)."""
    return "public, max-age=31536000, immutable" if HASHED.search(path) else "no-cache"


class _Host(http.server.SimpleHTTPRequestHandler):
    """Serves the site as a real host does: a file's Brotli or gzip copy to a browser that accepts
    it (with the file's own type), caching headers, and "not modified" on asking again."""

    def send_head(self) -> BinaryIO | None:
        path = self.translate_path(self.path)
        if not os.path.isfile(path):
            return super().send_head()  # directories, redirects, 404s: as the standard server does
        takes = accepted(self.headers.get("Accept-Encoding"))
        encoding, served = None, path
        for ending, name in ENDINGS.items():
            if name in takes and os.path.isfile(path + ending):
                encoding, served = name, path + ending
                break
        try:
            handle = open(served, "rb")  # noqa: SIM115 (the caller closes it, as for the standard server)
        except OSError:
            self.send_error(http.HTTPStatus.NOT_FOUND, "File not found")
            return None
        stat = os.fstat(handle.fileno())
        modified = self.date_time_string(int(stat.st_mtime))
        self.send_response(http.HTTPStatus.OK if self.headers.get("If-Modified-Since") != modified else 304)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Last-Modified", modified)
        self.send_header("Cache-Control", cache_control(path))
        self.send_header("Vary", "Accept-Encoding")
        if self.headers.get("If-Modified-Since") == modified:
            self.end_headers()
            handle.close()
            return None
        if encoding is not None:
            self.send_header("Content-Encoding", encoding)
        self.send_header("Content-Length", str(stat.st_size))
        self.end_headers()
        return handle

    def log_message(self, format: str, *args: object) -> None:
        if os.environ.get("TRICKLAB_SITE_LOG"):
            super().log_message(format, *args)


def server(out: Path, host: str = "127.0.0.1", port: int = 8000) -> http.server.ThreadingHTTPServer:
    handler = functools.partial(_Host, directory=str(out))
    return http.server.ThreadingHTTPServer((host, port), handler)


def serve(out: Path, host: str = "127.0.0.1", port: int = 8000) -> None:
    with server(out, host, port) as httpd:
        print(f"tricklab site: serving {out} at http://{host}:{httpd.server_address[1]}/", flush=True)
        httpd.serve_forever()


__all__ = ["build", "cache_dir", "page", "serve", "server", "site_size"]
