"""Python 3.12 bytecode for the static site: run by Pyodide itself (in Node.js) at the build, not by tricklab.

Pyodide's npm package and the wheels hold source only, so a page compiled every module it
imported, the standard library's too, at each visit: seconds of a first card. Compiled here by
the very Python the page runs, the page only loads them. ``main(folder)`` rewrites in place:

- each wheel gets each module's bytecode instead of its source (``name.pyc`` in ``name.py``'s
  place, which Python imports as it is), as Pyodide's own full build has them: a third fewer
  bytes to fetch, and nothing to compile in the page. Tracebacks in the page show no source
  lines; no app reads a module's source.
- ``python_stdlib.zip`` gets bytecode for the modules a page imports as it starts (found by
  running every app's cells here, as a page does: ``cells.json`` in the folder), and keeps the
  others' source, which is smaller: a module imported later is compiled then, as without this.
- what each app shows when it is markup only (the gallery, the rulebooks) goes to
  ``shown.json``: the build puts it into the app's page, which then needs no Python at all;
- the code of every source :mod:`dataclasses` compiled goes to ``dataclasses.bin``, which the
  pages run instead of compiling those sources again.

The bytecode is "unchecked": the files are never edited in the browser, so it is used as it is.
"""

from __future__ import annotations

import importlib.util
import os
import warnings
import zipfile
from importlib._bootstrap_external import _code_to_hash_pyc  # type: ignore[attr-defined]
from pathlib import Path
from types import CodeType
from typing import Any


def bytecode(name: str, source: bytes) -> bytes | None:
    try:
        with warnings.catch_warnings():  # old escapes in packages' own tests: not ours to mend
            warnings.simplefilter("ignore", SyntaxWarning)
            code = compile(source, name, "exec", dont_inherit=True)
    except SyntaxError:  # a file that is not meant to be imported (templates, test data)
        return None
    return bytes(_code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False))


def rewrite(path: Path, only: set[str] | None = None) -> int:
    """Rewrite the zip at ``path`` with bytecode in its sources' place (of the files named in
    ``only``, when given); returns how many modules were compiled (zipimport and an installed
    wheel's folder both take ``name.pyc`` as it is)."""
    done = 0
    partial = path.with_name(path.name + ".partial")
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            data = source.read(info)
            wanted = info.filename.endswith(".py") and (only is None or info.filename in only)
            compiled = bytecode(info.filename, data) if wanted else None
            if compiled is None:
                target.writestr(info, data)
            else:
                target.writestr(info.filename[:-3] + ".pyc", compiled)
                done += 1
    os.replace(partial, path)
    return done


#: where Pyodide keeps its standard library
STDLIB = "/lib/python312.zip/"


def keep_dataclass_code() -> dict[str, CodeType]:
    """From now on, keep the code of every source :mod:`dataclasses` compiles, in the dict
    returned (``{source: code}``): the pages run it instead of compiling the same sources again
    (``tricklab/share/site/boot.py``)."""
    import builtins
    import dataclasses

    kept: dict[str, CodeType] = {}

    def exec_kept(source: str, globals: dict[str, Any] | None = None, locals: Any = None) -> None:
        code = kept.setdefault(source, compile(source, "<string>", "exec"))
        builtins.exec(code, globals, locals)

    vars(dataclasses)["exec"] = exec_kept
    return kept


def run_apps(folder: Path) -> tuple[set[str], list[list[str] | None], dict[str, CodeType]]:
    """Run every app's cells once, as a page runs them (``cells.json`` in the folder: each app's
    code cells), with every module a page may run imported first (``tricklab.bridge.prepare``).

    Returns the standard library's files (names inside its zip) that the pages import as they
    start, for each app what its cells show when it is markup only (no widget: the gallery, the
    rulebooks), one HTML text per cell (``""``: the cell shows nothing), else ``None``, and the
    code of the sources :mod:`dataclasses` compiled meanwhile."""
    import json
    import sys

    sys.path[0:0] = [str(wheel) for wheel in sorted(folder.glob("*.whl"))]
    dataclass_code = keep_dataclass_code()
    from tricklab import bridge

    posted: list[dict[str, object]] = []
    bridge.install(lambda text: posted.append(json.loads(text)))
    bridge.prepare()
    cells = folder / "cells.json"
    shown: list[list[str] | None] = []
    for app in json.loads(cells.read_text()) if cells.exists() else []:
        posted.clear()
        namespace: dict[str, object] = {}
        for i, cell in enumerate(app):
            bridge.run_cell(cell, namespace, i)
        markup = [""] * len(app)
        widgets = False
        for message in posted:
            bundle = message.get("bundle")
            if message["kind"] != "show" or not isinstance(bundle, dict) or "text/html" not in bundle:
                widgets = True  # the page runs the app
                break
            markup[int(str(message["cell"]))] += str(bundle["text/html"])
        shown.append(None if widgets else markup)
    found = set()
    for module in list(sys.modules.values()):
        origin = getattr(getattr(module, "__spec__", None), "origin", None) or ""
        if origin.startswith(STDLIB):
            found.add(origin[len(STDLIB) :])
    return found, shown, dataclass_code


def main(folder: str) -> str:
    import json

    site = Path(folder)
    import marshal

    used, shown, dataclass_code = run_apps(site)
    (site / "shown.json").write_text(json.dumps(shown))
    (site / "dataclasses.bin").write_bytes(marshal.dumps(dataclass_code))
    wheels = sorted(site.glob("*.whl"))
    modules = sum(rewrite(wheel) for wheel in wheels)
    stdlib = rewrite(site / "python_stdlib.zip", only=used)
    return f"{modules} modules of {len(wheels)} wheels and {stdlib} of the standard library compiled"
