"""Tables of classmates in Chromium on PostgreSQL (``tricklab serve --class-db postgresql://...``):
the same whole round of each game as on SQLite (tests/test_browser_tables.py), on one server, which
is restarted in the middle of the Tricks & Stones round (three classmates): every page sits down
again from its own address, and the log has lost, repeated or reordered nothing. A file of its
own, so the two halves run on two workers."""

from __future__ import annotations

from typing import Any

import pytest

from .test_browser_tables import GAMES, _play

pytestmark = pytest.mark.browser

#: the game whose round goes on through a server restart (one restart is enough to catch a lost,
#: doubled or reordered action; the other rounds share the server as it is)
RESTARTED = "tricks-and-stones"


@pytest.mark.parametrize(("game", "title", "players", "humans"), GAMES, ids=[g[0] for g in GAMES])
def test_classmates_play_a_whole_round_on_postgresql(
    postgres_serve: Any, postgres_url: str, browser: Any, game: str, title: str, players: int, humans: int
) -> None:
    start, restart = postgres_serve
    _play(browser, start(), postgres_url, game, title, players, humans, restart if game == RESTARTED else None)
