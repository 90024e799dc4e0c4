"""Shared fixtures and helpers for the test suite."""

from __future__ import annotations

from typing import Any

import pytest

import tricklab


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
