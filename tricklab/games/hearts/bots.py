"""A sensible Hearts bot.

* Passes its three most dangerous cards: the Queen of spades, the Ace and King of spades unless
  it holds enough low spades to guard them, then its highest hearts and highest cards.
* Plays to take no points: following suit it ducks under the card taking the trick with its
  highest card that stays under; when it must take the trick it does so with its highest card
  if it plays last and the trick holds no points, else with its lowest; with no card of the led
  suit it throws the Queen of spades, else its highest heart, else its highest card; leading,
  it plays its lowest card, a heart last.

It decides from the seat's compact view (:class:`~.rules.HeartsSeatView`) over action ids:
:meth:`HeuristicBot.choose_id` is what play-outs call; :meth:`HeuristicBot.choose` is the same
decision over a view and listed actions, and :meth:`HeuristicBot.decide` the same with its reasons.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...actions import Action
from ...bots import FIRST_LISTED, Decision, first_listed
from ...explain import Reason
from ..core import bits, mask_of
from .facts import HEARTS, IDS, POINT_CARDS, QUEEN_OF_SPADES, SPADES, STRENGTHS, SUIT_OF, winning_index
from .rules import PASS, PASSED, PLAY, PLAYERS, Hearts, HeartsSeatView, HeartsView, pass_table

PASS_DANGER = "bot.ht.pass"
DUCK = "bot.ht.duck"
WIN_LAST = "bot.ht.win-last"
WIN_LOW = "bot.ht.win-low"
DUMP_QUEEN = "bot.ht.dump-queen"
DUMP_HEART = "bot.ht.dump-heart"
DUMP_HIGH = "bot.ht.dump-high"
LEAD_LOW = "bot.ht.lead-low"

_KING_OF_SPADES = QUEEN_OF_SPADES + 1
_ACE_OF_SPADES = QUEEN_OF_SPADES + 2


def danger(card: int, hand: int) -> int:
    """How much the bot wants to pass ``card`` out of ``hand``: the higher, the sooner."""
    strength = card % STRENGTHS
    if card == QUEEN_OF_SPADES:
        return 100
    if card in (_KING_OF_SPADES, _ACE_OF_SPADES):
        low_spades = (hand & IDS.suit_mask[SPADES] & ((1 << QUEEN_OF_SPADES) - 1)).bit_count()
        return 90 + strength if low_spades < 4 else strength
    return strength + (6 if SUIT_OF[card] == HEARTS else 0)


def pass_choice(hand: int) -> int:
    """The mask of the three cards to pass."""
    ranked = sorted(bits(hand), key=lambda c: (-danger(c, hand), -c))
    return mask_of(ranked[:PASSED])


def play_choice(view: HeartsSeatView, legal: Sequence[int]) -> tuple[int, str]:
    """The card to play and the rule of thumb that chose it."""
    trick = view.trick
    if not trick:
        plain = [c for c in legal if SUIT_OF[c] != HEARTS] or list(legal)
        return min(plain, key=lambda c: (c % STRENGTHS, c)), LEAD_LOW
    led = SUIT_OF[trick[0]]
    following = [c for c in legal if SUIT_OF[c] == led]
    if following:
        best = trick[winning_index(trick)]
        under = [c for c in following if c < best]
        if under:
            return max(under), DUCK
        last = len(trick) == PLAYERS - 1
        if last and not mask_of(trick) & POINT_CARDS and QUEEN_OF_SPADES not in following:
            return max(following), WIN_LAST
        return min(following), WIN_LOW
    if QUEEN_OF_SPADES in legal:
        return QUEEN_OF_SPADES, DUMP_QUEEN
    hearts = [c for c in legal if SUIT_OF[c] == HEARTS]
    if hearts:
        return max(hearts), DUMP_HEART
    return max(legal, key=lambda c: (c % STRENGTHS, c)), DUMP_HIGH


class HeuristicBot:
    """The Hearts heuristic bot of one seat."""

    def __init__(self, rules: Hearts, seat: int, seed: int | str = 0) -> None:
        self.rules = rules
        self.seat = seat

    def __repr__(self) -> str:
        return f"{self.rules.name} HeuristicBot(seat={self.seat})"

    def choose_id(self, view: HeartsSeatView, legal_ids: Sequence[int]) -> int:
        return self._choice(view, legal_ids)[0]

    def _choice(self, view: HeartsSeatView, legal_ids: Sequence[int]) -> tuple[int, str]:
        if view.phase is PLAY:
            return play_choice(view, legal_ids)
        if view.phase is PASS:
            chosen = pass_table().ids[pass_choice(view.hand)]
            return (chosen, PASS_DANGER) if chosen in legal_ids else (legal_ids[0], FIRST_LISTED)
        return legal_ids[0], FIRST_LISTED

    def choose(self, view: HeartsView, legal_actions: Sequence[Action]) -> Action:
        return self._decision(view, legal_actions)[0]

    def decide(self, view: HeartsView, legal_actions: Sequence[Action]) -> Decision:
        """The action :meth:`choose` takes and why: the rule that limits the choice, then the
        bot's rule of thumb (``bot.ht.*``)."""
        action, tag = self._decision(view, legal_actions)
        limit = self.rules.explain_choice(view, self.seat)
        return Decision(action, (limit, self._why(tag)))

    def _decision(self, view: HeartsView, legal_actions: Sequence[Action]) -> tuple[Action, str]:
        self.rules.check_view(view)
        if view.core is None or view.core.seat != self.seat:  # another seat's view: the bot cannot see its hand
            return legal_actions[0], FIRST_LISTED
        ids = [self.rules.action_id(a) for a in legal_actions]
        if None in ids:  # not the game's own actions: nothing to decide by
            return legal_actions[0], FIRST_LISTED
        chosen, tag = self._choice(view.core, ids)  # type: ignore[arg-type]
        return legal_actions[ids.index(chosen)], tag

    @staticmethod
    def _why(tag: str) -> Reason:
        if tag == FIRST_LISTED:
            return first_listed()
        texts = {
            PASS_DANGER: "Pass your most dangerous cards: the Queen of spades, a high spade you cannot guard "
            "with low ones, then your highest hearts and highest cards.",
            DUCK: "Play your highest card that stays under the card taking the trick: you take nothing.",
            WIN_LAST: "You must take this trick and it holds no points: take it with your highest card, "
            "to be rid of it.",
            WIN_LOW: "Every card you may play takes the trick for now: play your lowest, a later card may beat it.",
            DUMP_QUEEN: "You cannot follow suit: throw the Queen of spades to someone else's trick.",
            DUMP_HEART: "You cannot follow suit: throw your highest heart to someone else's trick.",
            DUMP_HIGH: "You cannot follow suit: throw your highest card, which could take a trick later.",
            LEAD_LOW: "Lead your lowest card, a heart last: someone else is likely to take the trick.",
        }
        return Reason(tag, texts[tag])
