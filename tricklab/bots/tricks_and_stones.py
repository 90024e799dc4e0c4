"""A sensible Tricks & Stones bot.

* Predicts from the hand: high trumps and off-suit Aces and Kings are likely tricks.
* Plays toward its prediction: while short of it, wins as cheaply as it can; once it
  has enough, ducks with its highest card that does not win.
* Steers gems: values each chamber by how close it is to the number of tricks it now
  expects to finish on, and picks the gem action that leaves the best board.

It decides from the seat's compact view (:class:`TricksAndStonesSeatView`: card ids and
masks) over action ids: :meth:`HeuristicBot.choose_id` is what play-outs call, and
:meth:`HeuristicBot.choose` is the same decision over a view and listed actions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache

from ..actions import Action
from ..games.core import bits
from ..games.tricks_and_stones import (
    _GEM_DELTA,
    _VALUE,
    ACTIONS,
    CHAMBERS,
    GEMS,
    IDS,
    MAX_PREDICTION,
    PLAY,
    PREDICT,
    PREDICT_ID,
    SKIP_ID,
    STRENGTH,
    SUIT_INDEX,
    TricksAndStones,
    TricksAndStonesSeatView,
    TricksAndStonesView,
)

_TRUMP_VALUE = {1: 1.0, 13: 0.9, 12: 0.7, 11: 0.55, 10: 0.45, 9: 0.35, 8: 0.3, 7: 0.25}
_SIDE_VALUE = {1: 0.75, 13: 0.35, 12: 0.1}

# by trump suit and card id: what a card is worth toward a trick (_TRUMP_VALUE, _SIDE_VALUE)
_WORTH = tuple(
    tuple(_TRUMP_VALUE[c.rank] if i >> 3 == t else _SIDE_VALUE.get(c.rank, 0.0) for i, c in enumerate(IDS.cards))
    for t in range(4)
)
# by trump suit and card id: (is a trump, strength) as one number, the order the bot plays by
_POWER = tuple(tuple((i >> 3 == t) * 8 + STRENGTH[c.rank] for i, c in enumerate(IDS.cards)) for t in range(4))
_LISTED = {id(a): i for i, a in enumerate(ACTIONS)}  # the listed action objects -> their ids
_LEAD_WINS = tuple(STRENGTH[c.rank] >= 6 for c in IDS.cards)  # leading a King or Ace tends to win


def predict_id(view: TricksAndStonesSeatView) -> int:
    """The bot's prediction as an action id: the worth of the hand, scaled to the table."""
    estimate = 0.0
    worth = _WORTH[view.trump]
    for c in bits(view.hand):
        estimate += worth[c]
    return PREDICT_ID + max(0, min(MAX_PREDICTION, round(estimate * 4 / view.players)))


def play_id(view: TricksAndStonesSeatView, legal: Sequence[int]) -> int:
    """The bot's card (an id of ``legal``, the playable cards in hand order)."""
    trick = view.trick
    trump = view.trump
    power = _POWER[trump].__getitem__
    prediction = view.prediction
    if prediction is not None and view.won < prediction:  # still short of the prediction
        if trick:
            value = _VALUE[trump][trick[0] >> 3]
            best = max(map(value.__getitem__, trick))
            winners = [c for c in legal if value[c] > best]
        else:
            winners = [c for c in legal if _LEAD_WINS[c]]
        if winners:
            # the cheapest winner, unless later players may still beat it: then the strongest
            return min(winners, key=power) if len(trick) == view.players - 1 else max(winners, key=power)
        return min(legal, key=power)
    if trick:
        value = _VALUE[trump][trick[0] >> 3]
        best = max(map(value.__getitem__, trick))
        losers = [c for c in legal if value[c] <= best]
    else:
        losers = [c for c in legal if not _LEAD_WINS[c]]
    if losers:
        return max(losers, key=power)
    return min(legal, key=power)


def gems_id(view: TricksAndStonesSeatView, legal: Sequence[int]) -> int:
    """The bot's gem action (an id of ``legal``): the board nearest the tricks it expects."""
    prediction = view.prediction or 0
    won = view.won
    target = float(won) if won >= prediction else float(min(prediction, won + view.hand.bit_count()))
    return _best_gems(view.board, tuple(legal), target)


@lru_cache(maxsize=1 << 16)
def _best_gems(own: tuple[int, ...], legal: tuple[int, ...], target: float) -> int:
    weights = [max(0.0, 1.0 - 0.45 * abs(c - target)) for c in range(CHAMBERS)]

    def value(action: int) -> float:
        layout = [g + d for g, d in zip(own, _GEM_DELTA[action], strict=True)]
        return sum(g * w for g, w in zip(layout, weights, strict=True))

    best = max(legal, key=value)
    return best if value(best) > value(SKIP_ID) else SKIP_ID


class HeuristicBot:
    def __init__(self, rules: TricksAndStones, seat: int, seed: int | str = 0) -> None:
        self.rules = rules
        self.seat = seat
        self._rng = random.Random(seed)

    def __repr__(self) -> str:
        return f"{self.rules.name} HeuristicBot(seat={self.seat})"

    def choose_id(self, view: TricksAndStonesSeatView, legal_ids: Sequence[int]) -> int:
        """The decision as an action id, from the seat's compact view and the listed ids
        (``rules.core_view(state, seat)`` and ``rules.core_legal(state)``)."""
        phase = view.phase
        if phase is PLAY:
            return play_id(view, legal_ids)
        if phase is GEMS:
            return gems_id(view, legal_ids)
        if phase is PREDICT:
            guess = predict_id(view)
            return guess if guess in legal_ids else legal_ids[0]
        return legal_ids[0]

    def choose(self, view: TricksAndStonesView, legal_actions: Sequence[Action]) -> Action:
        core = view.core if view.core is not None and view.core.seat == self.seat else self._core(view)
        ids = [self._id(a) for a in legal_actions]
        if None in ids:  # not the game's own actions: nothing to decide by
            return legal_actions[0]
        chosen = self.choose_id(core, ids)  # type: ignore[arg-type]
        return legal_actions[ids.index(chosen)]

    def _id(self, action: Action) -> int | None:
        """The id of a listed action: by identity for the listed objects themselves (what
        ``legal_actions`` gives), else by value."""
        found = _LISTED.get(id(action))
        if found is not None and ACTIONS[found] is action:
            return found
        return self.rules.action_id(action)

    def _core(self, view: TricksAndStonesView) -> TricksAndStonesSeatView:
        """The compact view of this bot's seat from a view made for another seat (or the teacher)."""
        seat = self.seat
        hand = view.hands[seat] if seat < len(view.hands) else None
        return TricksAndStonesSeatView(
            seat,
            self.rules.players,
            view.phase,
            SUIT_INDEX[view.trump],
            IDS.mask(hand or ()),
            tuple(IDS.id[c] for c in view.trick),
            view.predictions[seat],
            view.tricks_won[seat],
            view.board[seat] if view.board else (0,) * CHAMBERS,
        )
