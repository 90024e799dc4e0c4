"""``tricklab site build DIR``: the Voilà apps as a static site whose Python runs in the browser.

The site is built with Voici (the apps' notebooks through JupyterLite) and the Pyodide runtime from
its npm package. Everything comes from the package registries alone, at pinned versions, into a
private cache (``$TRICKLAB_SITE_CACHE``, else ``~/.cache/tricklab-site``):

- the build tools (:data:`TOOLS`): those of the running environment when it has them at these
  versions (``pip install 'tricklab[site]'``), else a virtual environment of their own;
- Pyodide's runtime (:data:`PYODIDE`), which holds no wheels;
- the pure-Python wheels the apps need in the browser (:data:`BROWSER_WHEELS`): tricklab, ipywidgets,
  anywidget and what they and the in-browser kernel import, and neither JupyterLab nor Voilà.

The site's own Pyodide lock file lists just those wheels, all served from the site, and the kernel
loads them as it boots, with no fall-back to PyPI: opened with no network beyond its host, it works.
``tricklab site serve DIR`` serves a built site on this machine.
"""

from __future__ import annotations

import base64
import functools
import hashlib
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

#: the build tools, pinned together: newer voici-core with pyodide-kernel 0.7 finds no kernel
TOOLS = (
    "voici-core==0.9.0",
    "jupyterlite-core==0.6.4",
    "jupyterlite-pyodide-kernel==0.6.1",
    "pyodide-lock==0.1.2",
    # their front-end extensions go into the site
    "ipywidgets==8.1.9",
    "jupyterlab_widgets==3.0.17",
    "anywidget==0.11.0",
    # the site's files precompressed, for hosts that serve them (_site_compress.py)
    "brotli==1.1.0",
)
#: the Pyodide runtime (Python 3.12) that pyodide-kernel 0.6.1 is made for
PYODIDE = "0.27.6"
#: the icon font widgets use (the stepper's Play button), which Voici's pages ask a CDN for
FONT_AWESOME = "5.15.4"
#: what the browser loads beside tricklab; IPython 8 imports sqlite3 (not in Pyodide's npm package),
#: IPython 9.1 and later need a newer kernel. Not IPython's jedi (and parso): it completes code as
#: one types, which no app page does, and IPython imports it at start when it is there
BROWSER_WHEELS = (
    "micropip==0.7.2",
    "packaging==24.2",
    "ipython==9.0.2",
    "ipython_pygments_lexers==1.1.1",
    "decorator==5.3.1",
    "matplotlib-inline==0.2.2",
    "prompt_toolkit==3.0.53",
    "wcwidth==0.2.13",
    "pygments==2.19.2",
    "stack_data==0.6.3",
    "executing==2.3.0",
    "asttokens==3.0.0",
    "pure_eval==0.2.4",
    "traitlets==5.16.1",
    "comm==0.2.3",
    "ipywidgets==8.1.9",
    "jupyterlab_widgets==3.0.17",
    "anywidget==0.11.0",
    "psygnal==0.16.1",
    "typing_extensions==4.16.0",
)
#: the in-browser kernel's own wheels, shipped with jupyterlite-pyodide-kernel
KERNEL_WHEELS = ("piplite-", "pyodide_kernel-", "ipykernel-", "widgetsnbextension-4")
#: what the kernel installs at boot unless it is preloaded, and the site does without: the stdlib
#: modules that Pyodide's npm package lacks, and jedi (see :data:`BROWSER_WHEELS`); no app uses them
STAND_INS = ("ssl", "sqlite3", "jedi")
#: the kernel's settings in the site's ``jupyter-lite.json``
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
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
    return scripts if (scripts / "voici").exists() and (scripts / "python").exists() else None


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


def kernel_wheels(bin_dir: Path) -> list[Path]:
    """The in-browser kernel's wheels that jupyterlite-pyodide-kernel ships in its extension."""
    pypi = bin_dir.parent / "share/jupyter/labextensions/@jupyterlite/pyodide-kernel-extension/static/pypi"
    return sorted(wheel for wheel in pypi.glob("*.whl") if wheel.name.startswith(KERNEL_WHEELS))


def stand_in_wheel(name: str, folder: Path) -> Path:
    """An empty wheel called ``name``: the kernel's boot asks for it; nothing the apps run imports it."""
    path = folder / f"{name}-0.0.0-py3-none-any.whl"
    dist = f"{name}-0.0.0.dist-info"
    placeholder = f"_no_{name}"  # ``import ssl`` still fails as it should: nothing here is called ssl
    files = {
        f"{placeholder}.py": f'"""Stands in for {name} at the kernel\'s boot; {name} itself is not in the site."""\n',
        f"{dist}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.0.0\n",
        f"{dist}/WHEEL": "Wheel-Version: 1.0\nGenerator: tricklab\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        f"{dist}/top_level.txt": f"{placeholder}\n",
    }
    record = "".join(f"{file},,\n" for file in files) + f"{dist}/RECORD,,\n"
    with zipfile.ZipFile(path, "w") as archive:
        for file, text in files.items():
            archive.writestr(file, text)
        archive.writestr(f"{dist}/RECORD", record)
    return path


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
    """Write each wheel's hash again into the lock file (``pyodide-lock.json``) beside them, after
    compiling changed them (Pyodide checks each wheel it loads against it); returns the names of
    the packages it lists, sorted."""
    lock = json.loads(lock_file.read_text())
    packages: dict[str, dict[str, object]] = lock["packages"]
    for package in packages.values():
        package["sha256"] = hashlib.sha256((lock_file.parent / str(package["file_name"])).read_bytes()).hexdigest()
    lock_file.write_text(json.dumps(lock, indent=1))
    return sorted(packages)


def lite_config(packages: list[str]) -> dict[str, object]:
    """The ``jupyter-lite.json`` of the build: the kernel boots from the site's own Pyodide and wheels."""
    return {
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {
            "litePluginSettings": {
                KERNEL_PLUGIN: {
                    "pyodideUrl": "./static/pyodide/pyodide.js",
                    "disablePyPIFallback": True,
                    "loadPyodideOptions": {"packages": packages},
                }
            }
        },
    }


#: where the ``./`` URLs of a page's embedded config point from a page one or two folders down
#: (not ``"./static/remoteEntry...``: a federated extension's ``load`` is relative to the extension)
_RELATIVE = ('"./static/pyodide/', '"./extensions/', '"./build/', '"./voici', '"./lab/', '"./files')


#: the icon font's stylesheets as Voici's pages ask for them, and where the site keeps its copy
_FONT_CDN = "https://cdn.jsdelivr.net/npm/@fortawesome/fontawesome-free@^5/css/"
FONT_DIR = "static/fontawesome"


def fix_urls(out: Path) -> int:
    """Rewrite the URLs that voici 0.9.0 leaves in each page.

    The ``./`` URLs of the config embedded in each page are meant from the site's root, but the
    browser resolves them from the page's own folder (``voici/render/``), so the kernel asked for
    ``voici/render/static/pyodide/pyodide.js``. The icon font's stylesheets come from a CDN,
    which a site that works offline must not need: they point at the site's own copy.
    Returns how many pages were changed.
    """
    changed = 0
    for page in (out / "voici").rglob("*.html"):
        up = "../" * (len(page.relative_to(out).parts) - 1)
        text = page.read_text()
        fixed = text.replace(f'"{_FONT_CDN}', f'"{up}{FONT_DIR}/css/')
        for prefix in _RELATIVE:
            fixed = fixed.replace(prefix, '"' + up + prefix[3:])
        if fixed != text:
            page.write_text(fixed)
            changed += 1
    return changed


#: the first script of each page: before JupyterLite reads the address, of its ``theme`` values
#: only the last that is exactly ``light`` or ``dark`` stays, as ``tricklab serve`` keeps it
#: (``tricklab.serve.keep_checked_link_arguments``). Voici decodes the value a second time
#: (``?theme=%25``: URIError, a page that never shows) and asks for any other name as a theme
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
_HEAD = re.compile(r"<head(?:\s[^>]*)?>(\s*<meta charset=[^>]*>)?", re.IGNORECASE)


def guard_themes(out: Path) -> int:
    """Put :data:`THEME_GUARD` in each page, before its first script; returns how many pages changed."""
    changed = 0
    for page in (out / "voici").rglob("*.html"):
        text = page.read_text()
        head = _HEAD.search(text)
        if head is None or 'data-tricklab="theme-guard"' in text:
            continue
        page.write_text(text[: head.end()] + "\n" + THEME_GUARD + text[head.end() :])
        changed += 1
    return changed


#: the apps' loading screen, shared with the Voilà template (see its own notes)
LOADING_JS = Path(__file__).resolve().parent / "share" / "voila" / "templates" / "tricklab" / "loading.js"
_BODY = re.compile(r"<body(?:\s[^>]*)?>", re.IGNORECASE)


def loading_screen(notebook: Path) -> str:
    """The script of an app page's loading screen, with the app's name and what is coming from
    the notebook's metadata (``"tricklab": {"app": ..., "coming": ...}``), as Voilà's template has it."""
    metadata = json.loads(notebook.read_text()).get("metadata", {}).get("tricklab", {})
    words = {"app": str(metadata.get("app", "tricklab")), "coming": str(metadata.get("coming", "Getting ready…"))}
    # the words as a JSON object in a script: "<", ">" and "&" escaped, so no text ends the script
    said = json.dumps(words).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f'<script data-tricklab="loading">\nwindow.TRICKLAB_LOADING = {said};\n{LOADING_JS.read_text()}</script>\n'


def show_loading(out: Path, apps: Path) -> int:
    """Put each app page's :func:`loading_screen` first in its body; returns how many pages changed."""
    changed = 0
    for page in (out / "voici" / "render").glob("*.html"):
        notebook = apps / f"{page.stem}.ipynb"
        text = page.read_text()
        body = _BODY.search(text)
        if body is None or not notebook.is_file() or 'data-tricklab="loading"' in text:
            continue
        page.write_text(text[: body.end()] + "\n" + loading_screen(notebook) + text[body.end() :])
        changed += 1
    return changed


#: what ``voici build`` writes that no page of the site uses: JupyterLite's own applications
#: (the pages use ``voici/build``), its documentation, Voici's listing of the notebooks (the
#: gallery lists the apps; ``voici/`` opens the gallery), and the wheels the kernel extension keeps
#: for ``piplite`` (the site has them in its Pyodide folder, preloaded)
UNUSED = ("doc", "lab", "notebooks", "tree", "edit", "consoles", "repl", "jupyter-lite.ipynb", "voici/tree")
KERNEL_PYPI = "extensions/@jupyterlite/pyodide-kernel-extension/static/pypi"
#: JupyterLite's application bundle, of which the pages use only the themes (``?theme=dark``)
APP_BUILD, KEPT_OF_APP_BUILD = "build", "themes"


def prune(out: Path) -> int:
    """Remove what no page loads (:data:`UNUSED`, the application bundle but its themes, source
    maps); returns the bytes saved."""
    before = site_size(out)
    app_build = out / APP_BUILD
    unused = [out / name for name in (*UNUSED, KERNEL_PYPI)]
    unused += [path for path in app_build.glob("*") if path.name != KEPT_OF_APP_BUILD]
    for path in unused:
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()
    for source_map in out.rglob("*.map"):
        source_map.unlink()
    return before - site_size(out)


def font(cache: Path, out: Path) -> None:
    """The icon font's stylesheets and web fonts (woff2, woff: what browsers of today take)."""
    package = npm_package(cache, "@fortawesome/fontawesome-free", FONT_AWESOME)
    target = out / FONT_DIR
    (target / "css").mkdir(parents=True, exist_ok=True)
    for sheet in ("all.min.css", "v4-shims.min.css"):
        shutil.copy2(package / "css" / sheet, target / "css" / sheet)
    shutil.copytree(package / "webfonts", target / "webfonts", ignore=shutil.ignore_patterns("*.eot", "*.svg", "*.ttf"))


def build(out: Path, apps: Path) -> Path:
    """Build the static site into ``out``; returns the gallery page."""
    cache = cache_dir()
    npm_package(cache, "@fortawesome/fontawesome-free", FONT_AWESOME)  # every download before ``out`` is replaced
    cache.mkdir(parents=True, exist_ok=True)
    bin_dir = tools_env(cache)
    runtime = pyodide_runtime(cache)
    wheels = browser_wheels(cache, bin_dir)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        local = work / "wheels"
        local.mkdir()
        ours = [tricklab_wheel(local), *(stand_in_wheel(name, local) for name in STAND_INS)]
        every = [*wheels, *kernel_wheels(bin_dir), *ours]
        pyodide = work / "pyodide"
        shutil.copytree(runtime, pyodide, ignore=shutil.ignore_patterns("*.map", "*.d.ts", "*.mjs", "console.html"))
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
        compile_python(runtime, pyodide)
        listed = rehash(pyodide / "pyodide-lock.json")
        # the kernel checks these names as written, before it installs what is not preloaded
        names = listed + ["pyodide_kernel"]
        names.remove("pyodide-kernel")
        lite = work / "lite"
        lite.mkdir()
        (lite / "jupyter-lite.json").write_text(json.dumps(lite_config(names), indent=2))
        contents = work / "contents"
        shutil.copytree(apps, contents, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "voila.json"))
        if out.exists():
            shutil.rmtree(out)
        _run(
            [bin_dir / "voici", "build", "--lite-dir", lite, "--contents", contents, "--output-dir", out.resolve()],
            cwd=lite,
            stdout=subprocess.DEVNULL,
        )
        shutil.rmtree(out / "static" / "pyodide", ignore_errors=True)
        shutil.copytree(pyodide, out / "static" / "pyodide")
    fix_urls(out)
    guard_themes(out)
    show_loading(out, apps)
    font(cache, out)
    prune(out)
    # the gallery's pictures are asked for beside the app pages, as under Voilà
    if (out / "files" / "screenshots").is_dir():
        shutil.copytree(out / "files" / "screenshots", out / "voici" / "files" / "screenshots", dirs_exist_ok=True)
    # the site's root opens the gallery (JupyterLite's own root page opens a file listing), and so
    # does ``voici/`` (Voici's opened the listing)
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


__all__ = ["build", "cache_dir", "fix_urls", "guard_themes", "serve", "server", "site_size"]
