"""A sensible Tricks & Stones bot.

* Predicts from the hand: high trumps and off-suit Aces and Kings are likely tricks.
* Plays toward its prediction: while short of it, wins as cheaply as it can; once it
  has enough, ducks with its highest card that does not win.
* Steers gems: values each chamber by how close it is to the number of tricks it now
  expects to finish on, and picks the gem action that leaves the best board.

It decides from the seat's compact view (:class:`TricksAndStonesSeatView`: card ids and
masks) over action ids: :meth:`HeuristicBot.choose_id` is what play-outs call, and
:meth:`HeuristicBot.choose` is the same decision over a view and listed actions.
:meth:`HeuristicBot.decide` is that decision again with its reasons: each decision function
also names the rule of thumb that chose (:func:`play_choice`), and the reasons are those
rules in words, after the game's own rule that limits the choice.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache

from ...actions import Action, Predict
from ...bots import FIRST_LISTED, Decision, first_listed
from ...explain import Reason, plural
from ..core import bits
from .rules import (
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


def hand_worth(view: TricksAndStonesSeatView) -> float:
    """What the hand is worth in tricks: each card's chance (high trumps, then side Aces and Kings)."""
    estimate = 0.0
    worth = _WORTH[view.trump]
    for c in bits(view.hand):
        estimate += worth[c]
    return estimate


def predict_id(view: TricksAndStonesSeatView) -> int:
    """The bot's prediction as an action id: the worth of the hand, scaled to the table."""
    return PREDICT_ID + max(0, min(MAX_PREDICTION, round(hand_worth(view) * 4 / view.players)))


# the rules of thumb of the card play (play_choice says which one chose)
WIN_CHEAP = "bot.ts.win-cheap"  # short of the prediction, last to play: the cheapest winner
WIN_HIGH = "bot.ts.win-high"  # short of the prediction: the strongest winner (later players follow)
LEAD_HIGH = "bot.ts.lead-high"  # short of the prediction, on lead: the strongest King or Ace
NO_WINNER = "bot.ts.no-winner"  # short of the prediction but nothing wins: the weakest card
DUCK = "bot.ts.duck"  # the prediction is made: the highest card that does not win
LEAD_LOW = "bot.ts.lead-low"  # the prediction is made, on lead: the highest card below a King
DUCK_FAILS = "bot.ts.duck-fails"  # the prediction is made but every card wins: the weakest card
PREDICT_WORTH = "bot.ts.predict"
GEMS_NEAR = "bot.ts.gems"
GEMS_SKIP = "bot.ts.gems.skip"


def play_choice(view: TricksAndStonesSeatView, legal: Sequence[int]) -> tuple[int, str]:
    """The bot's card (an id of ``legal``, the playable cards in hand order) and the rule of thumb
    that chose it (``WIN_CHEAP``, ``DUCK``, ...)."""
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
            if len(trick) == view.players - 1:
                return min(winners, key=power), WIN_CHEAP
            return max(winners, key=power), WIN_HIGH if trick else LEAD_HIGH
        return min(legal, key=power), NO_WINNER
    if trick:
        value = _VALUE[trump][trick[0] >> 3]
        best = max(map(value.__getitem__, trick))
        losers = [c for c in legal if value[c] <= best]
    else:
        losers = [c for c in legal if not _LEAD_WINS[c]]
    if losers:
        return max(losers, key=power), DUCK if trick else LEAD_LOW
    return min(legal, key=power), DUCK_FAILS


def play_id(view: TricksAndStonesSeatView, legal: Sequence[int]) -> int:
    """The bot's card (an id of ``legal``, the playable cards in hand order)."""
    return play_choice(view, legal)[0]


def gems_target(view: TricksAndStonesSeatView) -> float:
    """The number of tricks the bot now expects to finish on: those won once the prediction is
    made, else the prediction (or as many as the cards left can still win)."""
    prediction = view.prediction or 0
    won = view.won
    return float(won) if won >= prediction else float(min(prediction, won + view.hand.bit_count()))


def gems_id(view: TricksAndStonesSeatView, legal: Sequence[int]) -> int:
    """The bot's gem action (an id of ``legal``): the board nearest the tricks it expects."""
    return _best_gems(view.board, tuple(legal), gems_target(view))


@lru_cache(maxsize=1 << 16)
def _best_gems(own: tuple[int, ...], legal: tuple[int, ...], target: float) -> int:
    weights = [max(0.0, 1.0 - 0.45 * abs(c - target)) for c in range(CHAMBERS)]

    def value(action: int) -> float:
        layout = [g + d for g, d in zip(own, _GEM_DELTA[action], strict=True)]
        return sum(g * w for g, w in zip(layout, weights, strict=True))

    best = max(legal, key=value)
    return best if value(best) > value(SKIP_ID) else SKIP_ID


class HeuristicBot:
    """The Tricks & Stones heuristic bot of one seat: :meth:`choose` plays, :meth:`decide` says why
    (the same decision), :meth:`choose_id` is the same on the core's ids (the advisor's play-outs)."""

    def __init__(self, rules: TricksAndStones, seat: int, seed: int | str = 0) -> None:
        self.rules = rules
        self.seat = seat
        self._rng = random.Random(seed)

    def __repr__(self) -> str:
        return f"{self.rules.name} HeuristicBot(seat={self.seat})"

    def choose_id(self, view: TricksAndStonesSeatView, legal_ids: Sequence[int]) -> int:
        """The decision as an action id, from the seat's compact view and the listed ids
        (``rules.core_view(state, seat)`` and ``rules.core_legal(state)``)."""
        return self._choice(view, legal_ids)[0]

    def _choice(self, view: TricksAndStonesSeatView, legal_ids: Sequence[int]) -> tuple[int, str]:
        """The decision as an action id and the rule of thumb that made it."""
        phase = view.phase
        if phase is PLAY:
            return play_choice(view, legal_ids)
        if phase is GEMS:
            chosen = gems_id(view, legal_ids)
            return chosen, GEMS_SKIP if chosen == SKIP_ID else GEMS_NEAR
        if phase is PREDICT:
            guess = predict_id(view)
            return (guess, PREDICT_WORTH) if guess in legal_ids else (legal_ids[0], FIRST_LISTED)
        return legal_ids[0], FIRST_LISTED

    def choose(self, view: TricksAndStonesView, legal_actions: Sequence[Action]) -> Action:
        return self._decision(view, legal_actions)[0]

    def decide(self, view: TricksAndStonesView, legal_actions: Sequence[Action]) -> Decision:
        """The action :meth:`choose` takes (the same code decides) and why: the rule that limits
        the choice (``rules.explain_choice``), then the bot's rule of thumb (``bot.ts.*``)."""
        action, tag, core = self._decision(view, legal_actions)
        limit = self.rules.explain_choice(view, self.seat)
        return Decision(action, (limit, self._why(tag, core, action)))

    def _decision(
        self, view: TricksAndStonesView, legal_actions: Sequence[Action]
    ) -> tuple[Action, str, TricksAndStonesSeatView]:
        core = view.core if view.core is not None and view.core.seat == self.seat else self._core(view)
        ids = [self._id(a) for a in legal_actions]
        if None in ids:  # not the game's own actions: nothing to decide by
            return legal_actions[0], FIRST_LISTED, core
        chosen, tag = self._choice(core, ids)  # type: ignore[arg-type]
        return legal_actions[ids.index(chosen)], tag, core

    def _why(self, tag: str, view: TricksAndStonesSeatView, action: Action) -> Reason:
        """The rule of thumb ``tag`` in words, for the seat's position ``view``."""
        if tag == FIRST_LISTED:
            return first_listed()
        prediction = view.prediction
        won = plural(view.won, "trick")
        if tag == PREDICT_WORTH:
            worth = hand_worth(view)
            n = action.n if isinstance(action, Predict) else 0
            return Reason(
                tag,
                f"Your hand is worth about {worth:.1f} tricks (high trumps, then Aces and Kings of other suits, "
                f"count most); scaled to {view.players} players, that is {plural(n, 'trick')}.",
            )
        if tag in (GEMS_NEAR, GEMS_SKIP):
            target = round(gems_target(view))
            left = view.hand.bit_count()
            expect = (
                f"You predicted {prediction} and have won {won} with {plural(left, 'card')} left: you expect to "
                f"finish on {plural(target, 'trick')}"
            )
            if tag == GEMS_SKIP:
                return Reason(tag, f"{expect}, and no gem action brings more of your gems in or near chamber {target}.")
            return Reason(tag, f"{expect}, so this action puts the most of your gems in or near chamber {target}.")
        so_far = f"You predicted {prediction} and have won {won}"
        texts = {
            WIN_CHEAP: f"{so_far}: you play last, so win this trick with your cheapest winning card.",
            WIN_HIGH: f"{so_far}: win this trick with your strongest card, as later players may still beat a "
            "weaker one.",
            LEAD_HIGH: f"{so_far}: lead your strongest King or Ace, which tends to win the trick.",
            NO_WINNER: f"{so_far}, but no card you may play can win this trick: give up your weakest.",
            DUCK: f"{so_far}: play your highest card that does not win, so as not to win another trick.",
            LEAD_LOW: f"{so_far}: lead your highest card below a King, which tends not to win, so as not to win "
            "another trick.",
            DUCK_FAILS: f"{so_far}, and every card you may play would win this trick: play your weakest.",
        }
        return Reason(tag, texts[tag])

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
