"""Python 3.12 bytecode for the static site: run by Pyodide itself (in Node.js) at the build, not by tricklab.

Pyodide's npm package and the wheels hold source only, so a page compiled every module it
imported, the standard library's too, at each visit: seconds of a first card. Compiled here by
the very Python the page runs, the page only loads them. ``main(folder)`` rewrites in place:

- each wheel and ``python_stdlib.zip`` get each module's bytecode instead of its source
  (``name.pyc`` in ``name.py``'s place, which Python imports as it is), as Pyodide's own full
  build has them: a third fewer bytes to fetch and unpack. Tracebacks in the page show no
  source lines; no app reads a module's source.

The bytecode is "unchecked": the files are never edited in the browser, so it is used as it is.
"""

from __future__ import annotations

import importlib.util
import os
import warnings
import zipfile
from importlib._bootstrap_external import _code_to_hash_pyc  # type: ignore[attr-defined]
from pathlib import Path


def bytecode(name: str, source: bytes) -> bytes | None:
    try:
        with warnings.catch_warnings():  # old escapes in packages' own tests: not ours to mend
            warnings.simplefilter("ignore", SyntaxWarning)
            code = compile(source, name, "exec", dont_inherit=True)
    except SyntaxError:  # a file that is not meant to be imported (templates, test data)
        return None
    return bytes(_code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False))


def rewrite(path: Path) -> int:
    """Rewrite the zip at ``path`` with bytecode in its sources' place; returns how many modules
    were compiled (zipimport and an installed wheel's folder both take ``name.pyc`` as it is)."""
    done = 0
    partial = path.with_name(path.name + ".partial")
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            data = source.read(info)
            compiled = bytecode(info.filename, data) if info.filename.endswith(".py") else None
            if compiled is None:
                target.writestr(info, data)
            else:
                target.writestr(info.filename[:-3] + ".pyc", compiled)
                done += 1
    os.replace(partial, path)
    return done


def main(folder: str) -> str:
    wheels = sorted(Path(folder).glob("*.whl"))
    modules = sum(rewrite(wheel) for wheel in wheels)
    stdlib = rewrite(Path(folder) / "python_stdlib.zip")
    return f"{modules} modules of {len(wheels)} wheels and {stdlib} of the standard library compiled"
