"""Python 3.12 bytecode for the static site: run by Pyodide itself (in Node.js) at the build, not by tricklab.

Pyodide's npm package and the wheels hold source only, so a page compiled every module it
imported, the standard library's too, at each visit: seconds of a first card. Compiled here by
the very Python the page runs, the page only loads them. ``main(folder)`` rewrites in place:

- each wheel keeps its sources, and gets each module's bytecode where an installed package has
  it (``__pycache__/name.cpython-312.pyc``);
- ``python_stdlib.zip`` gets bytecode instead of source, as Pyodide's own full build has it.

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


def rewrite(path: Path, beside_source: bool) -> int:
    """Rewrite the zip at ``path`` with bytecode; returns how many modules were compiled."""
    done = 0
    partial = path.with_name(path.name + ".partial")
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            data = source.read(info)
            compiled = bytecode(info.filename, data) if info.filename.endswith(".py") else None
            if compiled is None:
                target.writestr(info, data)
            elif beside_source:
                target.writestr(info, data)
                target.writestr(importlib.util.cache_from_source(info.filename), compiled)
                done += 1
            else:  # zipimport takes ``name.pyc`` in the source's place
                target.writestr(info.filename[:-3] + ".pyc", compiled)
                done += 1
    os.replace(partial, path)
    return done


def main(folder: str) -> str:
    wheels = sorted(Path(folder).glob("*.whl"))
    modules = sum(rewrite(wheel, beside_source=True) for wheel in wheels)
    stdlib = rewrite(Path(folder) / "python_stdlib.zip", beside_source=False)
    return f"{modules} modules of {len(wheels)} wheels and {stdlib} of the standard library compiled"
