"""Where the kernel runs: a Jupyter kernel on a server, or Pyodide in the visitor's browser.

In the static site Python runs in a Web Worker of the page: it cannot see the page's
address, ``threading.Thread.start()`` raises, and an app's page is ``play.html`` where Voilà
has ``play.ipynb``. The apps ask this module, never ``sys.platform`` themselves, and write
their links to each other through :func:`app_link`; tests can make the kernel believe it runs
in a browser by setting :data:`IN_BROWSER`.

Long work (the advisor's play-outs, a review) is written as *steps*: a generator that
yields ``(done, total)`` whenever there is progress to report and returns its result.
:func:`finish` runs steps to the end at once (scripts, tests); :func:`in_background` runs
them in a worker thread on a server, and one step per turn of the event loop in a browser,
so the page stays live and a Cancel click is heard between steps either way.

Where the widgets are shown decides who tells a learner that Python stopped answering
(:func:`on_app_page`): on an app's own page (Voilà, the static site) the board does; in a
notebook host (JupyterLab, Notebook 7, VS Code, Colab) the host does, with its own kernel status.
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from collections.abc import Callable, Generator
from typing import TypeVar

#: ``True`` when Python runs in the browser (Pyodide): no address, no threads
IN_BROWSER: bool = sys.platform == "emscripten"

#: what Voilà puts in the environment of each kernel it starts for a page: ``VOILA_PREHEAT``
#: ("True" in a pooled kernel, "False" in one started for a request) and ``VOILA_BASE_URL``
VOILA_MARKS = ("VOILA_PREHEAT", "VOILA_BASE_URL")

T = TypeVar("T")
#: work in steps: yields ``(done, total)`` reports, returns the result
Steps = Generator[tuple[int, int], None, T]


def in_browser() -> bool:
    """Whether the kernel runs in the visitor's browser (read at each call, so tests may switch it)."""
    return IN_BROWSER


def on_app_page() -> bool:
    """Whether the widgets are shown on an app's own page, not in a notebook host.

    An app's page is Voilà's (its kernels carry :data:`VOILA_MARKS` in their environment) or
    the static site's (Python runs in the browser, :func:`in_browser`: the site is the one page
    built for that). There nobody else says that Python has stopped answering, so the board
    says it (``Board.watch_connection``). Anywhere else the kernel was started by a notebook
    host (JupyterLab, Notebook 7, VS Code, Colab), which shows the kernel's state itself, and
    where a cell that runs for long keeps every answer waiting without anything being lost.
    Read at each call, from the environment, so tests may set it.
    """
    return in_browser() or any(mark in os.environ for mark in VOILA_MARKS)


def app_link(link: str) -> str:
    """A link from one app's page to another (``play.ipynb?game=kalah``, ``rulebooks.ipynb#mk.sow``):
    Voilà serves an app at its notebook's name; the static site, at the page built from it
    (``play.html?game=kalah``). Links are written once, as notebooks, and pass through here."""
    end = min((at for at in (link.find("?"), link.find("#")) if at >= 0), default=len(link))
    page = link[:end]
    if in_browser() and page.endswith(".ipynb"):
        return page.removesuffix(".ipynb") + ".html" + link[end:]
    return link


def finish(
    steps: Steps[T], progress: Callable[[int, int], object] | None, cancelled: Callable[[int, int], Exception]
) -> T:
    """Run ``steps`` to the end at once, calling ``progress(done, total)`` at each report; when
    it returns exactly ``False`` the steps are closed and ``cancelled(done, total)`` is raised."""
    reported = steps if progress is None else reporting(steps, progress, cancelled)
    while True:
        try:
            next(reported)
        except StopIteration as stop:
            result: T = stop.value
            return result


def reporting(
    steps: Steps[T], progress: Callable[[int, int], object], cancelled: Callable[[int, int], Exception]
) -> Steps[T]:
    """``steps`` calling ``progress(done, total)`` at each report (and passing it on); when it
    returns exactly ``False`` the steps are closed and ``cancelled(done, total)`` is raised."""
    while True:
        try:
            done, total = next(steps)
        except StopIteration as stop:
            result: T = stop.value
            return result
        if progress(done, total) is False:
            steps.close()
            raise cancelled(done, total)
        yield done, total


class Background:
    """Steps running in the background: a daemon thread on a server, an asyncio task that
    takes one step per turn of the event loop in the browser."""

    def __init__(self, steps: Steps[object]) -> None:
        self._steps = steps
        self._thread: threading.Thread | None = None
        self._task: asyncio.Task[None] | None = None
        self._ended = False  # the task's steps are over (or were closed)
        if in_browser():
            self._task = _event_loop().create_task(self._step_by_step())
        else:
            self._thread = threading.Thread(target=self._all_at_once, daemon=True)
            self._thread.start()

    def _all_at_once(self) -> None:
        for _ in self._steps:
            pass

    async def _step_by_step(self) -> None:
        try:
            for _ in self._steps:
                await asyncio.sleep(0)  # the page's messages (a Cancel click) are handled here
        finally:
            self._ended = True

    @property
    def running(self) -> bool:
        if self._thread is not None:
            return self._thread.is_alive()
        return not self._ended

    def wait(self, timeout: float | None = None) -> None:
        """Wait for a thread's end (a browser's task cannot be waited for without blocking it)."""
        if self._thread is not None:
            self._thread.join(timeout)

    def stop(self) -> None:
        """End the work now: a thread is waited for (it was told to stop), a task is closed
        where it stands (its ``finally`` blocks run)."""
        if self._thread is not None:
            self._thread.join()
        elif self._task is not None and not self._ended:
            self._ended = True
            self._task.cancel()
            self._steps.close()


def in_background(steps: Steps[object]) -> Background:
    """Run ``steps`` without holding up the page (see :class:`Background`)."""
    return Background(steps)


def _event_loop() -> asyncio.AbstractEventLoop:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:  # Pyodide's loop runs the kernel without being "running" here
        return asyncio.get_event_loop()
