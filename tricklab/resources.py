"""Where tricklab finds its apps and its tutorials, from a clone or from an installed wheel.

In a clone they are the top-level folders ``voila_apps/`` and ``notebooks/``. A wheel carries
the same files as package data, ``tricklab/_data/voila_apps`` and ``tricklab/_data/notebooks``
(see ``[tool.hatch.build.targets.wheel.sources]`` in ``pyproject.toml``), read here through
:mod:`importlib.resources`. The clone's folders come first, so an edit there is what is served.
"""

from __future__ import annotations

import shutil
from importlib import resources
from pathlib import Path

from .errors import InvalidOption

#: the source tree of a clone (in an installed wheel this is ``site-packages``, which has neither folder)
SOURCE_TREE = Path(__file__).resolve().parent.parent
#: the package data folder of a wheel
DATA = "_data"


def _packaged(name: str) -> Path | None:
    folder = resources.files("tricklab").joinpath(DATA, name)
    # an installed wheel is unpacked on disk; a zipped import has no folder Voilà could serve
    return folder if isinstance(folder, Path) and folder.is_dir() else None


def _folder(name: str) -> Path:
    for folder in (SOURCE_TREE / name, _packaged(name)):
        if folder is not None and folder.is_dir():
            return folder
    raise FileNotFoundError(f"tricklab's {name} folder is neither in the source tree nor in the package")


def apps_dir() -> Path:
    """The app notebooks: ``voila_apps`` in the current directory, else the clone's, else the package's."""
    here = Path.cwd() / "voila_apps"
    return here if here.is_dir() else _folder("voila_apps")


def notebooks_dir() -> Path:
    """The tutorial notebooks: the clone's ``notebooks/``, else the package's copy."""
    return _folder("notebooks")


def tutorials() -> list[Path]:
    """The tutorial notebooks, in their order (their names begin with a number)."""
    return sorted(notebooks_dir().glob("[0-9]*.ipynb"))


def copy_tutorials(target: Path, *, overwrite: bool = False) -> tuple[list[Path], list[Path]]:
    """Copy the tutorials into ``target`` (made if missing): the copied files and the ones left as
    they were because a file of that name was already there (a learner's own work is never
    overwritten unless ``overwrite``)."""
    if target.exists() and not target.is_dir():
        raise InvalidOption(f"{target} is a file: give a folder to copy the tutorials into")
    target.mkdir(parents=True, exist_ok=True)
    copied: list[Path] = []
    kept: list[Path] = []
    for notebook in tutorials():
        destination = target / notebook.name
        if destination.exists() and not overwrite:
            kept.append(destination)
            continue
        shutil.copyfile(notebook, destination)
        copied.append(destination)
    return copied, kept


__all__ = ["apps_dir", "copy_tutorials", "notebooks_dir", "tutorials"]
