"""Shared fixtures and helpers for the test suite."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import tricklab

from .servers import CHROMIUM, NO_CHROMIUM, free_port, launch, running, voila_command


def play_to(match: tricklab.Match, phase: str, *, limit: int = 10_000) -> tricklab.Match:
    """Apply the first legal action until the match reaches ``phase``."""
    for _ in range(limit):
        if match.phase == phase:
            return match
        match.apply(match.legal_actions()[0])
    raise AssertionError(f"phase {phase} never reached")


@pytest.fixture
def ts4() -> Any:
    return tricklab.get_rules("tricks-and-stones", players=4)


@pytest.fixture
def ts3() -> Any:
    return tricklab.get_rules("tricks-and-stones", players=3)


@pytest.fixture(scope="session")
def voila_url() -> Iterator[str]:
    """The README's main command, ``tricklab serve``, on a free loopback port."""
    port = free_port()
    with running(voila_command(port), f"http://127.0.0.1:{port}/") as url:
        yield url.rstrip("/")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip(NO_CHROMIUM)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()
