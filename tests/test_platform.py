"""The apps and widgets with Python in the browser (Pyodide), simulated in this kernel.

There the kernel cannot see the page's address, so an app asks its page for the query string
and is built once it arrives, through the same checks as a link read by Voilà; and there are
no threads, so the bid trainer's and the review's play-outs take one step per turn of the
event loop, with the progress bar following and Cancel heard. ``tricklab.platform.IN_BROWSER``
is the switch; ``threading.Thread.start`` raises here as it does under Pyodide.
"""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Callable, Coroutine, Iterator
from typing import Any

import ipywidgets as w
import pytest

import tricklab
from tricklab import platform
from tricklab.widgets import BidTrainer, Board
from tricklab.widgets.apps import (
    MAX_QUERY,
    bid_trainer_app,
    explain_trick_app,
    play_app,
    quiz_app,
    replay_app,
)
from tricklab.widgets.review import ReviewPanel, ReviewView

App = Callable[..., w.VBox]

APPS: list[tuple[App, str]] = [
    (explain_trick_app, "?game=tricks-and-stones&players=3&trump=H"),
    (replay_app, "?game=band-of-tricks&players=4&seed=7&step=3"),
    (play_app, "?game=band-of-tricks&players=4&seed=5&seat=2&pace=0"),
    (quiz_app, "?game=tricks-and-stones&players=3&seed=4&level=2"),
    (bid_trainer_app, "?game=tricks-and-stones&players=3&seed=9&seat=2"),
]


#: the real ``Thread.start``, for the test's own thread (the fixture below forbids threads)
START_THREAD = threading.Thread.start


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The kernel as under Pyodide: no address, and a thread cannot be started."""

    def no_threads(self: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(platform, "IN_BROWSER", True)
    monkeypatch.setattr(threading.Thread, "start", no_threads)
    monkeypatch.delenv("QUERY_STRING", raising=False)
    yield


def reader_of(box: w.VBox) -> Board:
    (reader,) = box.children
    assert isinstance(reader, Board) and reader.scene["read_address"] is True
    assert "Opening the link" in reader.scene["html"]
    return reader


def header_of(box: w.VBox) -> str:
    header = box.children[0]
    assert isinstance(header, w.HTML)
    return str(header.value)


# --- the address -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("app", "search"), APPS, ids=[app.__name__ for app, _ in APPS])
def test_each_app_waits_for_the_page_and_is_then_the_app_of_its_link(browser: None, app: App, search: str) -> None:
    box = app()
    reader = reader_of(box)
    reader.intent("address", search)
    assert reader not in box.children and len(box.children) == 2
    same = app(search[1:])  # the app Voilà builds from the same link
    assert header_of(box) == header_of(same)
    # the same widget class (an anywidget's instances each get a subclass of their own: compare names)
    assert type(box.children[1]).__qualname__ == type(same.children[1]).__qualname__
    assert box.children[1].board.scene["address"] == same.children[1].board.scene["address"]
    assert "tricklab-app" in box._dom_classes


def test_only_the_first_address_is_used(browser: None) -> None:
    box = replay_app()
    reader_of(box).intent("address", "?game=band-of-tricks&seed=7")
    built = box.children
    reader = Board()  # any later message of the page changes nothing
    box.children[1].board.intent("address", "?seed=8")
    reader.intent("address", "?seed=8")
    assert box.children == built and "seed 7" in header_of(box)


def test_a_page_without_a_query_gets_the_defaults(browser: None) -> None:
    box = quiz_app()
    reader_of(box).intent("address", "")
    assert header_of(box) == header_of(quiz_app(""))
    box = quiz_app()
    reader_of(box).intent("address", None)
    assert header_of(box) == header_of(quiz_app(""))


@pytest.mark.parametrize(
    ("search", "said"),
    [
        ("?seed=<script>alert(1)</script>", "The seed must be a whole number from 0 to"),
        ('?game="><img src=x onerror=alert(1)>', "There is no game"),
        ("?players=<b>9</b>", "players is not possible"),
        ("?seat=</p><svg onload=alert(1)>", "There is no player"),
        ("?" + "seed=1&" * (MAX_QUERY // 7 + 1), "settings were too long and were ignored."),
        ("?" + "a=1&" * 40, "settings could not be read and were ignored."),
    ],
)
def test_a_hostile_address_from_the_page_is_refused_like_a_hostile_link(browser: None, search: str, said: str) -> None:
    box = bid_trainer_app()
    reader_of(box).intent("address", search)
    header = header_of(box)
    assert said in header and 'role="alert"' in header
    for markup in ("<script", "<img", "<svg", "<b>", "</p><svg"):
        assert markup not in header
    assert header == header_of(bid_trainer_app(search[1:]))


def test_a_message_that_is_not_an_address_builds_nothing(browser: None) -> None:
    box = explain_trick_app()
    reader = reader_of(box)
    reader._on_message(reader, {"intent": "address", "value": 5}, [])
    reader._on_message(reader, {"intent": "address", "value": ["?game=kalah"]}, [])
    reader._on_message(reader, "?game=kalah", [])
    reader.intent("key", "?game=kalah")
    reader.intent("ping", "1")
    assert box.children == (reader,)


def test_with_voila_the_app_reads_the_address_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUERY_STRING", "game=tricks-and-stones&players=3&seed=4")
    assert not platform.in_browser()
    box = quiz_app()
    assert len(box.children) == 2 and "seed 4" in header_of(box)


# --- no threads: steps on the event loop ---------------------------------------------------------------


def run(main: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run ``main()`` on a loop of its own, in a thread of its own: the browser tests' Playwright
    keeps a loop running in the main thread for the whole session, and ``asyncio.run`` would
    leave a thread without a current loop, which the paced play table of a later test asks for."""
    failed: list[BaseException] = []

    def on_its_own_loop() -> None:
        loop = asyncio.new_event_loop()
        try:
            loop.run_until_complete(main())
        except BaseException as error:  # handed to the test's thread, which raises it
            failed.append(error)
        finally:
            loop.close()

    thread = threading.Thread(target=on_its_own_loop)
    START_THREAD(thread)
    thread.join()
    if failed:
        raise failed[0]


async def until(done: Callable[[], bool], turns: int = 200_000) -> int:
    """Let the event loop turn until ``done()``; how many turns it took."""
    for turn in range(turns):
        if done():
            return turn
        await asyncio.sleep(0)
    raise AssertionError("the work did not end")


def test_the_bid_trainer_plays_out_on_the_event_loop_and_the_page_stays_live(browser: None) -> None:
    async def main() -> None:
        trainer = BidTrainer("tricks-and-stones", 3, seed=8, samples=100)
        values: list[Any] = []
        trainer.progress.observe(lambda change: values.append(change["new"]), "value")
        trainer.try_button.click()
        assert trainer.try_button.disabled and not trainer.cancel_button.disabled
        assert trainer._worker is not None and trainer._worker.running and trainer.advice is None
        turns = await until(lambda: not trainer.try_button.disabled)
        assert turns > 10  # the loop ran between the steps: the page's messages are heard
        assert trainer.advice is not None and trainer.cancel_button.disabled
        assert values[-1] == trainer.progress.maximum and len(values) > 10
        same = BidTrainer("tricks-and-stones", 3, seed=8, samples=100).try_bid()
        assert same is not None and same.as_dict() == trainer.advice.as_dict()

    run(main)


def test_cancel_stops_the_bid_trainer_between_steps(browser: None) -> None:
    async def main() -> None:
        trainer = BidTrainer("tricks-and-stones", 4, seed=4, samples=400)
        trainer.try_button.click()
        await until(lambda: trainer.progress.value > 0)
        trainer.cancel_button.click()
        await until(lambda: not trainer.try_button.disabled)
        stopped = trainer.progress.value
        assert 0 < stopped < trainer.progress.maximum
        assert trainer.advice is None and "Cancelled" in trainer.message
        trainer.try_button.click()  # and it starts again
        await until(lambda: not trainer.try_button.disabled)
        assert trainer.advice is not None

    run(main)


@pytest.mark.parametrize("wait_for_progress", [True, False])
def test_a_new_deal_ends_a_trial_under_way(browser: None, wait_for_progress: bool) -> None:
    async def main() -> None:
        trainer = BidTrainer("tricks-and-stones", 4, seed=4, samples=400)
        trainer.try_button.click()
        if wait_for_progress:
            await until(lambda: trainer.progress.value > 0)
        trainer.new_deal_button.click()
        assert trainer._worker is not None and not trainer._worker.running
        assert not trainer.try_button.disabled and trainer.cancel_button.disabled
        for _ in range(20):
            await asyncio.sleep(0)
        assert trainer.seed == 5 and trainer.progress.value == 0
        assert trainer.message == "A new deal: seed 5."
        assert "Cancelled" not in trainer.board.scene["html"] and trainer.advice is None

    run(main)


def test_the_review_runs_on_the_event_loop_and_honours_cancel(browser: None) -> None:
    match = tricklab.get_rules("band-of-tricks", players=4).play(seed=3)

    async def main() -> None:
        panel = ReviewPanel(match, 1, rounds=(0, 1), round=0, samples=8)
        panel.run_button.click()
        assert panel.running and panel.run_button.disabled
        await until(lambda: panel.progress.value > 0)
        panel.cancel_button.click()
        await until(lambda: not panel.running)
        assert panel.review is None and "cancelled" in panel.html.lower()
        assert not panel.run_button.disabled and panel.cancel_button.disabled
        panel.run_button.click()
        turns = await until(lambda: not panel.running)
        assert turns > 10 and panel.review is not None and panel.review.seat == 1
        assert "tl-review" in panel.html and "Why" in panel.html
        assert panel.progress.hidden

    run(main)


def test_in_the_browser_a_new_review_closes_the_one_under_way(browser: None) -> None:
    from tricklab.widgets.playtable import PlayTable

    from .test_learning import play_until

    table = PlayTable("band-of-tricks", 4, seat=1, seed=3, pace=0, hold=0)
    play_until(table, lambda: table.match.is_over or (table.paused is not None and table.paused.kind == "round"))

    async def main() -> None:
        panels: list[ReviewView] = []
        for _ in range(4):
            table.board.intent("review", "1")
            panel = table._review  # the review shown in place, in the round's sheet
            assert isinstance(panel, ReviewView) and panel.running
            assert not any(earlier.running for earlier in panels), "an earlier review's task still runs"
            panels.append(panel)
            await until(lambda: panels[-1].percent > 0)  # it has taken steps
        await until(lambda: not panels[-1].running)
        assert panels[-1].review is not None and all(earlier.review is None for earlier in panels[:-1])
        panel = ReviewPanel(table.match, 1, rounds=(0, 1), round=0, seats=True, samples=8)
        panel.run_button.click()
        first = panel.view
        await until(lambda: first is not None and first.percent > 0)
        panel.round_picker.value = 1
        assert panel.run_button.disabled  # on the page, Review waits for the one under way
        panel.run()  # a script may start another: the one under way is stopped first
        assert first is not None and not first.running and panel.view is not first and panel.running
        await until(lambda: not panel.running)
        assert panel.review is not None and panel.review.round == 1

    run(main)


# --- links between the apps: notebooks under Voilà, the pages built from them in the site ---------------


@pytest.mark.parametrize(
    ("link", "in_the_site"),
    [
        ("play.ipynb", "play.html"),
        ("replay.ipynb?game=kalah&seed=3", "replay.html?game=kalah&seed=3"),
        ("rulebooks.ipynb#mk.capture", "rulebooks.html#mk.capture"),
        ("quiz.ipynb?note=a.ipynb#x.ipynb", "quiz.html?note=a.ipynb#x.ipynb"),  # only the page's own name
        ("https://example.org/notes.html", "https://example.org/notes.html"),
    ],
)
def test_app_links_name_the_page_the_platform_serves(
    monkeypatch: pytest.MonkeyPatch, link: str, in_the_site: str
) -> None:
    assert platform.app_link(link) == link
    monkeypatch.setattr(platform, "IN_BROWSER", True)
    assert platform.app_link(link) == in_the_site


def test_every_link_the_apps_write_follows_the_platform(browser: None) -> None:
    from tricklab.display import rule_id_html
    from tricklab.widgets.gallery import landing_html
    from tricklab.widgets.playtable import PlayTable

    hrefs = re.findall(r'href="([^"#?]*)', landing_html() + rule_id_html("ts.follow"))
    table = PlayTable("tricks-and-stones", 4, seed=2, pace=0)
    hrefs.append(table.replay_link().split("?")[0])
    pages = {href for href in hrefs if href}
    assert pages >= {"play.html", "quiz.html", "bid_trainer.html", "explain_trick.html", "replay.html"}
    assert "rulebooks.html" in pages and not any(page.endswith(".ipynb") for page in pages), pages


def test_the_gallery_is_plain_html_whose_links_are_the_platform_s_pages(browser: None) -> None:
    from tricklab.widgets.gallery import Landing, landing_app

    gallery = landing_app()
    assert isinstance(gallery, Landing) and 'href="play.html?game=' in gallery._repr_html_()
    assert "class." not in gallery._repr_html_(), "the class app needs a server: not in the static site"
    platform.IN_BROWSER = False  # the fixture puts it back
    assert 'href="play.ipynb?game=' in landing_app()._repr_html_()
    assert 'href="class.ipynb?teach=1"' in landing_app()._repr_html_()
