"""What the static site's Python runs first (worker.js), before any module of tricklab.

Every dataclass writes the source of its ``__init__``, ``__repr__``, ``__eq__`` and the like and
compiles it as the class is made: hundreds of small compilations as tricklab and the widgets are
imported, a third of a page's import time in the browser. The build ran every app once and kept
the code of each source it met (``tricklab/_site_compile.py``); :func:`use_dataclass_code` makes
:mod:`dataclasses` run that code instead of compiling the same source again. A source the build
did not meet is compiled as ever: nothing changes but the time.
"""

import builtins
import dataclasses
import marshal
from typing import Any


def use_dataclass_code(path: str) -> int:
    """Give :mod:`dataclasses` the code kept in ``path`` (a marshalled ``{source: code}``);
    returns how many sources it holds."""
    with open(path, "rb") as file:
        codes = marshal.load(file)

    def exec_known(source: str, globals: dict[str, Any] | None = None, locals: Any = None) -> None:
        builtins.exec(codes.get(source, source), globals, locals)

    vars(dataclasses)["exec"] = exec_known  # the name dataclasses calls, found in its globals first
    return len(codes)
