"""A sensible Oh Hell bot.

* Bids what its hand is worth: high trumps, and Aces and Kings of the other suits, are likely
  tricks; the dealer, barred from one bid by the hook, takes the nearest other.
* Plays toward its bid: while short of it, takes the trick as cheaply as it can; once it has
  enough, gets rid of its highest card that does not take the trick.

It decides from the seat's compact view (:class:`~.rules.OhHellSeatView`) over action ids:
:meth:`HeuristicBot.choose_id` is what play-outs call; :meth:`HeuristicBot.choose` is the same
decision over a view and listed actions, and :meth:`HeuristicBot.decide` the same with its reasons.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...actions import Action, Predict
from ...bots import FIRST_LISTED, Decision, first_listed
from ...explain import Reason, plural
from ..core import bits
from .facts import IDS, STRENGTHS, SUIT_INDEX, SUIT_OF, winning_index
from .rules import BID, BID_ID, PLAY, OhHell, OhHellSeatView, OhHellView

BID_WORTH = "bot.oh.worth"
WIN_CHEAP = "bot.oh.win-cheap"
DUCK = "bot.oh.duck"
NO_WINNER = "bot.oh.no-winner"
DUCK_FAILS = "bot.oh.duck-fails"

# what a card is worth toward a trick: a trump by its rank, a side Ace or King (by strength 0-12)
_TRUMP_WORTH = (0.15, 0.15, 0.15, 0.2, 0.2, 0.25, 0.3, 0.35, 0.45, 0.55, 0.7, 0.9, 1.0)
_SIDE_WORTH = (0.0,) * 11 + (0.35, 0.8)
_WORTH = tuple(
    tuple(_TRUMP_WORTH[c % STRENGTHS] if SUIT_OF[c] == t else _SIDE_WORTH[c % STRENGTHS] for c in range(len(IDS)))
    for t in range(4)
)
# (is a trump, strength) as one number: the order in which the bot spends its cards
_POWER = tuple(tuple((SUIT_OF[c] == t) * STRENGTHS + c % STRENGTHS for c in range(len(IDS))) for t in range(4))


def hand_worth(view: OhHellSeatView) -> float:
    """The tricks the hand is worth, scaled to the table: fewer players, more tricks per good card."""
    worth = _WORTH[view.trump]
    return sum(worth[c] for c in bits(view.hand)) * 4 / view.players


def bid_choice(view: OhHellSeatView, legal: Sequence[int]) -> int:
    """The listed bid nearest what the hand is worth (the lower one of two as near)."""
    target = hand_worth(view)
    return min(legal, key=lambda a: (abs(a - BID_ID - target), a))


def play_choice(view: OhHellSeatView, legal: Sequence[int]) -> tuple[int, str]:
    """The card to play and the rule of thumb that chose it."""
    power = _POWER[view.trump]
    bid = view.bids[view.seat] or 0
    short = view.won[view.seat] < bid
    trick = view.trick
    winning = [c for c in legal if not trick or winning_index((*trick, c), view.trump) == len(trick)]
    losing = [c for c in legal if c not in winning]
    if short:
        if not winning:
            return min(legal, key=power.__getitem__), NO_WINNER
        return min(winning, key=power.__getitem__), WIN_CHEAP
    if not losing:
        return min(legal, key=power.__getitem__), DUCK_FAILS
    return max(losing, key=power.__getitem__), DUCK


class HeuristicBot:
    """The Oh Hell heuristic bot of one seat."""

    def __init__(self, rules: OhHell, seat: int, seed: int | str = 0) -> None:
        self.rules = rules
        self.seat = seat

    def __repr__(self) -> str:
        return f"{self.rules.name} HeuristicBot(seat={self.seat})"

    def choose_id(self, view: OhHellSeatView, legal_ids: Sequence[int]) -> int:
        return self._choice(view, legal_ids)[0]

    def _choice(self, view: OhHellSeatView, legal_ids: Sequence[int]) -> tuple[int, str]:
        if view.phase is PLAY:
            return play_choice(view, legal_ids)
        if view.phase is BID:
            return bid_choice(view, legal_ids), BID_WORTH
        return legal_ids[0], FIRST_LISTED

    def choose(self, view: OhHellView, legal_actions: Sequence[Action]) -> Action:
        return self._decision(view, legal_actions)[0]

    def decide(self, view: OhHellView, legal_actions: Sequence[Action]) -> Decision:
        """The action :meth:`choose` takes and why: the rule that limits the choice, then the
        bot's rule of thumb (``bot.oh.*``)."""
        action, tag, core = self._decision(view, legal_actions)
        limit = self.rules.explain_choice(view, self.seat)
        return Decision(action, (limit, self._why(tag, core, action)))

    def _decision(self, view: OhHellView, legal_actions: Sequence[Action]) -> tuple[Action, str, OhHellSeatView]:
        self.rules.check_view(view)
        core = view.core if view.core is not None and view.core.seat == self.seat else self._core(view)
        ids = [self.rules.action_id(a) for a in legal_actions]
        if None in ids:  # not the game's own actions: nothing to decide by
            return legal_actions[0], FIRST_LISTED, core
        chosen, tag = self._choice(core, ids)  # type: ignore[arg-type]
        return legal_actions[ids.index(chosen)], tag, core

    def _why(self, tag: str, view: OhHellSeatView, action: Action) -> Reason:
        if tag == FIRST_LISTED:
            return first_listed()
        if tag == BID_WORTH:
            n = action.n if isinstance(action, Predict) else 0
            return Reason(
                tag,
                f"Your hand is worth about {hand_worth(view):.1f} tricks (high trumps, then Aces and Kings of "
                f"other suits, count most): the nearest bid you may make is {n}.",
            )
        so_far = f"You bid {view.bids[view.seat]} and have taken {plural(view.won[view.seat], 'trick')}"
        texts = {
            WIN_CHEAP: f"{so_far}: take this trick with your cheapest card that takes it.",
            NO_WINNER: f"{so_far}, but no card you may play takes this trick: give up your weakest.",
            DUCK: f"{so_far}: play your highest card that does not take the trick, to take no more.",
            DUCK_FAILS: f"{so_far}, and every card you may play would take this trick: play your weakest.",
        }
        return Reason(tag, texts[tag])

    def _core(self, view: OhHellView) -> OhHellSeatView:
        """The compact view of this bot's seat from a view made for another seat (or the teacher)."""
        seat = self.seat
        hand = view.hands[seat] if seat < len(view.hands) else None
        return OhHellSeatView(
            seat,
            self.rules.players,
            view.phase,
            SUIT_INDEX[view.trump],
            view.cards,
            IDS.mask(hand or ()),
            tuple(IDS.id[c] for c in view.trick),
            view.leader,
            view.dealer,
            view.bids,
            view.tricks_won,
            0,
        )
