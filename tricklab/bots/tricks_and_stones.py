"""A sensible Tricks & Stones bot.

* Predicts from the hand: high trumps and off-suit Aces and Kings are likely tricks.
* Plays toward its prediction: while short of it, wins as cheaply as it can; once it
  has enough, ducks with its highest card that does not win.
* Steers gems: values each chamber by how close it is to the number of tricks it now
  expects to finish on, and picks the gem action that leaves the best board.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import Action, Move, Place, Play, Predict, Skip
from ..cards import Card
from ..games.tricks_and_stones import (
    CARDS_EACH,
    CHAMBERS,
    GEMS,
    MAX_PREDICTION,
    PLAY,
    PREDICT,
    STRENGTH,
    TricksAndStones,
    TricksAndStonesView,
    _rank,
)

_TRUMP_VALUE = {1: 1.0, 13: 0.9, 12: 0.7, 11: 0.55, 10: 0.45, 9: 0.35, 8: 0.3, 7: 0.25}
_SIDE_VALUE = {1: 0.75, 13: 0.35, 12: 0.1}


class HeuristicBot:
    def __init__(self, rules: TricksAndStones, seat: int, seed: int | str = 0) -> None:
        self.rules = rules
        self.seat = seat
        self._rng = random.Random(seed)

    def __repr__(self) -> str:
        return f"{self.rules.name} HeuristicBot(seat={self.seat})"

    def choose(self, view: TricksAndStonesView, legal_actions: Sequence[Action]) -> Action:
        if view.phase == PREDICT:
            return self._predict(view, legal_actions)
        if view.phase == PLAY:
            return self._play(view, legal_actions)
        if view.phase == GEMS:
            return self._gems(view, legal_actions)
        return legal_actions[0]

    def _predict(self, view: TricksAndStonesView, legal: Sequence[Action]) -> Action:
        estimate = 0.0
        for card in view.hand:
            if card.suit == view.trump:
                estimate += _TRUMP_VALUE[card.rank]
            else:
                estimate += _SIDE_VALUE.get(card.rank, 0.0)
        guess = max(0, min(MAX_PREDICTION, round(estimate * 4 / self.rules.players)))
        return Predict(guess) if Predict(guess) in legal else legal[0]

    def _wants_tricks(self, view: TricksAndStonesView) -> bool:
        prediction = view.predictions[self.seat]
        return prediction is not None and view.tricks_won[self.seat] < prediction

    def _play(self, view: TricksAndStonesView, legal: Sequence[Action]) -> Action:
        plays = [a for a in legal if isinstance(a, Play)]
        trick = view.trick
        full = self.rules.players

        def wins(card: Card) -> bool:
            if not trick:
                return STRENGTH[card.rank] >= 6  # leading a King or Ace tends to win
            cards = (*trick, card)
            return _rank(cards, view.trump)[0] == len(cards) - 1

        def power(card: Card) -> tuple[int, int]:
            return (card.suit == view.trump, STRENGTH[card.rank])

        winners = [a for a in plays if wins(a.card)]
        losers = [a for a in plays if not wins(a.card)]
        last = len(trick) == full - 1
        if self._wants_tricks(view):
            if winners:
                # the cheapest winner, unless later players may still beat it: then the strongest
                return min(winners, key=lambda a: power(a.card)) if last else max(winners, key=lambda a: power(a.card))
            return min(plays, key=lambda a: power(a.card))
        if losers:
            return max(losers, key=lambda a: power(a.card))
        return min(plays, key=lambda a: power(a.card))

    def _target(self, view: TricksAndStonesView) -> float:
        prediction = view.predictions[self.seat] or 0
        won = view.tricks_won[self.seat]
        played = CARDS_EACH - view.hand_sizes[self.seat]
        if won >= prediction:
            return float(won)
        left = CARDS_EACH - played
        return float(min(prediction, won + left))

    def _gems(self, view: TricksAndStonesView, legal: Sequence[Action]) -> Action:
        target = self._target(view)
        weights = [max(0.0, 1.0 - 0.45 * abs(c - target)) for c in range(CHAMBERS)]
        own = view.board[self.seat]

        def value(action: Action) -> float:
            layout = list(own)
            if isinstance(action, Place):
                for c in action.chambers:
                    layout[c] += 1
            elif isinstance(action, Move):
                for a, b in action.steps:
                    layout[a] -= 1
                    layout[b] += 1
            return sum(g * w for g, w in zip(layout, weights, strict=True))

        best = max(legal, key=value)
        return best if value(best) > value(Skip()) else Skip()
