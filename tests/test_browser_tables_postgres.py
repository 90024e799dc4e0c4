"""Tables of classmates in Chromium on PostgreSQL (``tricklab serve --class-db postgresql://...``):
the same whole round of each game as on SQLite (tests/test_browser_tables.py), and the server
restarted mid-round: every page sits down again from its own address, and the log has lost,
repeated or reordered nothing. A file of its own, so the two halves run on two workers."""

from __future__ import annotations

from typing import Any

import pytest

from .test_browser_tables import GAMES, _play

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("game", "title", "players", "humans"), GAMES, ids=[g[0] for g in GAMES])
def test_classmates_play_a_whole_round_on_postgresql_through_a_server_restart(
    postgres_serve: Any, postgres_url: str, browser: Any, game: str, title: str, players: int, humans: int
) -> None:
    start, restart = postgres_serve
    _play(browser, start(), postgres_url, game, title, players, humans, restart)
