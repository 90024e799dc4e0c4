"""Write the static site's Pyodide lock file: run by the site's build tools' interpreter, not by tricklab.

``python _site_lock.py RUNTIME_LOCK OUT WHEEL...`` reads the ``info`` of the lock file that came with
the Pyodide runtime and writes ``OUT`` listing only the given wheels (their files beside ``OUT``),
each depending on the others it requires. Requirements on anything not given (JupyterLab and Voilà,
which tricklab's wheel names for the server) are left out: the browser never loads them.

This file imports nothing from tricklab: the tools' environment (``pyodide-lock``) does not have it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    from packaging.utils import canonicalize_name
    from pyodide_lock import PyodideLockSpec
    from pyodide_lock.utils import (
        _get_marker_environment,
        _wheel_depends,
        _wheel_metadata,
        package_spec_from_wheel,
    )

    runtime_lock, out, *wheels = (Path(arg) for arg in argv)
    spec = PyodideLockSpec.from_json(runtime_lock)
    environment = _get_marker_environment(**spec.info.model_dump())
    packages = {}
    for wheel in wheels:
        package = package_spec_from_wheel(wheel, info=spec.info)
        packages[package.name] = (package, wheel)
    left_out: dict[str, list[str]] = {}
    for name, (package, wheel) in packages.items():
        depends = []
        for requirement in _wheel_depends(_wheel_metadata(wheel)):
            if requirement.marker is not None and not requirement.marker.evaluate(environment):
                continue
            wanted = canonicalize_name(requirement.name)
            if wanted in packages:
                depends.append(wanted)
            else:
                left_out.setdefault(name, []).append(str(requirement))
        package.depends = sorted(set(depends))
        package.file_name = wheel.name
    spec.packages = {name: package for name, (package, _) in packages.items()}
    spec.to_json(out, indent=1)
    print(json.dumps(left_out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
