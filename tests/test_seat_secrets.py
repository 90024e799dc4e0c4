"""A seat's stepper never shows another seat's secret choice before the table sees it.

Tricks & Stones predictions and Jewel Vault passes are chosen one seat at a time, in secret,
and shown together at a later step (the reveal, the exchange). Which steps are secret comes
from the engine's own narration: a seat's choice (a prediction, a bid, a pass) is secret when
the event told to another seat leaves out what the teacher's event holds. From that step
until the first step that is not a secret choice (the reveal), the board drawn for every
other seat's stepper must not hold the choice: no token or prediction of that seat, no card
it passed. Over every step of seeded bot matches of each game, with every seat, and over the
bid trainer's play-outs.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest

import tricklab
from tricklab.games.base import EventKind
from tricklab.match import Match
from tricklab.widgets import BidTrainer, TrickStepper

from .test_hostile_widgets import drawn, named

SEEDS = (0, 1, 2, 3)
SETUPS = [
    ("tricks-and-stones", 3),
    ("tricks-and-stones", 4),
    ("jewel-vault", 3),
    ("jewel-vault", 4),
    ("jewel-vault", 5),
    ("band-of-tricks", 4),
]
CHOICES = (EventKind.PREDICT, EventKind.BID, EventKind.PASS)  # the choices a seat makes before the play


@dataclass(frozen=True)
class Secret:
    """Seat ``seat``'s secret choice made at step ``made`` (the teacher's event data), shown to
    the table at step ``reveal``."""

    seat: int
    made: int
    reveal: int
    data: dict[str, Any]


def secrets(match: Match) -> Iterator[Secret]:
    """Every secret choice of the match, as the engine narrates it."""
    teacher = match.timeline()
    players = match.rules.players
    views = [match.timeline(seat) for seat in range(players)]

    def secret(i: int) -> bool:
        chooser = teacher[i].event.seat
        return (
            teacher[i].event.kind in CHOICES
            and chooser is not None
            and any(views[other][i].event.data != teacher[i].event.data for other in range(players) if other != chooser)
        )

    i = 0
    while i < len(teacher):
        if not secret(i):
            i += 1
            continue
        start = i
        while i < len(teacher) and secret(i):
            i += 1
        for made in range(start, i):
            chooser = teacher[made].event.seat
            assert chooser is not None
            yield Secret(chooser, made, i, dict(teacher[made].event.data))


def prediction_cell(markup: str, name: str) -> str | None:
    """What the score table shows in the Prediction column for the seat ``name``."""
    badge = rf'<span class="tl-seat-badge"[^>]*>{re.escape(html.escape(name))}</span></td><td>([^<]*)</td>'
    found = re.search(badge, markup)
    return found.group(1) if found else None


def shown(rules: Any, secret: Secret, markup: str, caption: str) -> list[str]:
    """What of ``secret`` the markup (and the caption read out) of a board shows."""
    out = []
    name = rules.seat_name(secret.seat)
    if secret.data.get("prediction") is not None:
        if f"⚑ {secret.seat + 1}</span>" in markup:
            out.append("the token on the chamber board")
        if f"{html.escape(name)}&#x27;s expedition token" in markup:
            out.append("the token in a chamber's label")
        if prediction_cell(markup, name) == str(secret.data["prediction"]):
            out.append("the prediction in the score table")
    for card in secret.data.get("cards") or ():
        if drawn(markup, card):
            out.append(f"the passed card {card}")
        if named(caption, card):
            out.append(f"the passed card {card} in the caption")
    return out


def leaks(stepper: TrickStepper, found: list[Secret], *, start: int = 0) -> list[tuple[int, int, str, list[str]]]:
    """The steps (from ``start``) at which the seat's stepper shows another seat's secret."""
    seat = stepper.seat
    assert seat is not None
    out = []
    for secret in found:
        if secret.seat == seat:
            continue
        for step in range(max(secret.made, start), secret.reveal):
            stepper.go(step)
            scene = stepper.board.scene
            what = shown(stepper.rules, secret, scene["html"], scene["announce"])
            if what:
                out.append((step, secret.seat, stepper.caption, what))
    return out


@cache
def bot_match(game: str, players: int, seed: int) -> Match:
    match: Match = tricklab.get_rules(game, players=players).play(seed=seed, bots="heuristic")
    return match


@pytest.mark.parametrize(("game", "players"), SETUPS, ids=[f"{g}-{n}" for g, n in SETUPS])
def test_no_seats_stepper_shows_another_seats_secret_before_the_reveal(game: str, players: int) -> None:
    total = 0
    for seed in SEEDS:
        match = bot_match(game, players, seed)
        found = list(secrets(match))
        total += len(found)
        for seat in range(players):
            assert leaks(TrickStepper(match, seat=seat), found) == [], (seed, seat)
    if game == "band-of-tricks":
        assert total == 0  # bids are public as they are made (BT-3)
    else:
        assert total >= len(SEEDS) * players  # at least a round's secret choices per match


@pytest.mark.parametrize(("game", "players"), [("tricks-and-stones", 4), ("jewel-vault", 4)])
def test_the_secrets_show_once_revealed(game: str, players: int) -> None:
    """The check above can see a secret: at the reveal step the table's predictions are in the
    score table, and each seat's passed cards are drawn in its receiver's hand."""
    match = bot_match(game, players, 1)
    found = list(secrets(match))
    for secret in found:
        reveal = match.timeline()[secret.reveal].event
        receivers = reveal.data.get("receivers")
        viewer = (secret.seat + 1) % players if receivers is None else receivers[secret.seat]
        stepper = TrickStepper(match, seat=viewer)
        stepper.go(secret.reveal)
        assert shown(match.rules, secret, stepper.board.scene["html"], "") != [], (secret, viewer)


@pytest.mark.parametrize("seed", [0, 1, 5, 12])
@pytest.mark.parametrize(("game", "players"), [("tricks-and-stones", 4), ("tricks-and-stones", 3)])
def test_the_bid_trainers_play_out_shows_no_secret_before_the_reveal(game: str, players: int, seed: int) -> None:
    """The play-out of the trainer's deal, stepped from its first step as the learner's seat."""
    for seat in range(players):
        trainer = BidTrainer(game, players, seed=seed, seat=seat, samples=10)
        stepper = trainer.play_out()
        assert stepper is not None and stepper.seat == seat
        found = list(secrets(stepper.match))
        assert len(found) == players
        assert leaks(stepper, found) == [], (seed, seat)
