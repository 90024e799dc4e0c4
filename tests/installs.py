"""tricklab as a user installs it: a wheel built from this tree, in a fresh virtual environment.

The environments see nothing of the source tree: they are made away from it, the wheel is
installed (not linked), and their commands run from an empty folder.
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from dataclasses import dataclass
from pathlib import Path

from .servers import ROOT


def build_distributions(out: Path) -> tuple[Path, Path]:
    """The wheel and the sdist of this tree, built with ``python -m build`` (no network: the
    build backend is the one the test environment has)."""
    subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(ROOT)],
        check=True,
        capture_output=True,
        text=True,
    )
    (wheel,) = out.glob("tricklab-*.whl")
    (sdist,) = out.glob("tricklab-*.tar.gz")
    return wheel, sdist


@dataclass(frozen=True)
class Install:
    """A fresh virtual environment with tricklab installed from a wheel."""

    prefix: Path
    #: an empty folder the commands run in, far from the source tree
    cwd: Path

    @property
    def python(self) -> Path:
        return self.prefix / "bin" / "python"

    @property
    def tricklab(self) -> Path:
        return self.prefix / "bin" / "tricklab"

    def environment(self) -> dict[str, str]:
        """This process's environment without what would point Python at the source tree."""
        return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}

    def run(self, *command: str | Path, check: bool = False, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(part) for part in command],
            cwd=self.cwd,
            env=self.environment(),
            capture_output=True,
            text=True,
            check=check,
            timeout=timeout,
        )


def install(wheel: Path, folder: Path, extras: str = "") -> Install:
    """``pip install 'tricklab[extras]'`` from ``wheel`` into a new environment in ``folder``
    (extras come from the package index, or pip's cache)."""
    venv.EnvBuilder(with_pip=True, clear=True).create(folder / "venv")
    cwd = folder / "work"
    cwd.mkdir()
    made = Install(folder / "venv", cwd)
    spec = f"tricklab[{extras}] @ {wheel.as_uri()}" if extras else str(wheel)
    pip = [made.python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    made.run(*pip, spec, check=True, timeout=900)
    return made
