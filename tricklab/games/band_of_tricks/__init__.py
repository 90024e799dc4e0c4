"""Band of Tricks: bid how many tricks you will win in each suit, then win exactly those.

3 to 5 players, 40 cards in four suits: Rock R7-R15, Soul S4-S14, Pops P1-P13 and
Metal M10-M16. Who wins a trick depends on how many different suits it holds: one suit,
the highest number; two suits, rock-paper-scissors (Rock beats Soul, Soul beats Pops,
Pops beats Rock, and Metal loses to all three); three or more suits, the highest number
whatever its suit, the later card winning on equal numbers. Every player bids a number of
wins for Rock, Soul and Pops (or Zero Success) and scores per suit for hitting it.

The rulings BT-1 to BT-8 of the project's rules notes are cited by the clauses of
``RULEBOOK``. One choice is the project's own: how long extra deals go on when the
totals stay tied (see :class:`BandOfTricksOptions`).

The game is laid out on the one rules core (:mod:`tricklab.games.core`):

* :mod:`.rules`: the data, the compact :class:`BandOfTricksState` (card ids, hand masks), the
  views, the facts and the one copy of each rule over ids;
* :mod:`.game`: :class:`BandOfTricks`, whose ``core_legal``/``core_step`` are the only
  implementation of the rules (the checked API, the bots and the advisor run on them), its
  ``explain_illegal``, result and views;
* :mod:`.narrate`: the facts as events, captions and reasons; :mod:`.rulebook`: the clauses.

Every name this module had before the split is still importable from it.
"""

from __future__ import annotations

from ...actions import (
    BID_SUITS,
)
from .game import (
    CAPABILITIES,
    BandOfTricks,
    bt_many_suits,
    bt_one_suit,
    bt_two_suits,
)
from .narrate import (
    Public,
    narrate,
)
from .rulebook import (
    RULEBOOK,
)
from .rules import (
    ACTIONS,
    ALL_BIDS,
    ASSIGN,
    ASSIGN0,
    ASSIGN_ACTIONS,
    ASSIGN_IDS,
    BEATS,
    BID,
    BID0,
    BID_IDS,
    BID_INDEX,
    BID_VALUES,
    CARDS_EACH,
    COUNTS_METAL,
    DECK,
    DECK_IDS,
    FOLLOWS,
    IDS,
    KEY,
    KEY_OF_SUIT,
    LABEL,
    MAX_BID,
    MAX_EXTRA_DEALS,
    MAX_EXTRA_DEALS_LIMIT,
    METAL,
    METAL_MASK,
    METAL_SUIT,
    NAME,
    NO_BID,
    NO_WINS,
    NOT_COUNTED,
    NUMBERS,
    OVER,
    PLAY,
    RANK,
    SUIT,
    SUIT_OF_KEY,
    SUIT_POINTS,
    TITLE,
    WIN_INDEX,
    WIN_KEYS,
    ZERO,
    ZERO_BID,
    ZERO_SUCCESS_POINTS,
    BandOfTricksCoreView,
    BandOfTricksOptions,
    BandOfTricksState,
    BandOfTricksView,
    BidMade,
    Counted,
    CountedTrick,
    DealScored,
    Dealt,
    Ended,
    MetalChoice,
    Phase,
    Played,
    TiedForLead,
    TrickIds,
    TrickWon,
    Wins,
)

# the game's public names (its private helpers stay in the modules of its folder)
__all__ = [
    "ACTIONS",
    "ALL_BIDS",
    "ASSIGN",
    "ASSIGN0",
    "ASSIGN_ACTIONS",
    "ASSIGN_IDS",
    "BEATS",
    "BID",
    "BID0",
    "BID_IDS",
    "BID_INDEX",
    "BID_SUITS",
    "BID_VALUES",
    "CAPABILITIES",
    "CARDS_EACH",
    "COUNTS_METAL",
    "DECK",
    "DECK_IDS",
    "FOLLOWS",
    "IDS",
    "KEY",
    "KEY_OF_SUIT",
    "LABEL",
    "MAX_BID",
    "MAX_EXTRA_DEALS",
    "MAX_EXTRA_DEALS_LIMIT",
    "METAL",
    "METAL_MASK",
    "METAL_SUIT",
    "NAME",
    "NOT_COUNTED",
    "NO_BID",
    "NO_WINS",
    "NUMBERS",
    "OVER",
    "PLAY",
    "RANK",
    "RULEBOOK",
    "SUIT",
    "SUIT_OF_KEY",
    "SUIT_POINTS",
    "TITLE",
    "WIN_INDEX",
    "WIN_KEYS",
    "ZERO",
    "ZERO_BID",
    "ZERO_SUCCESS_POINTS",
    "BandOfTricks",
    "BandOfTricksCoreView",
    "BandOfTricksOptions",
    "BandOfTricksState",
    "BandOfTricksView",
    "BidMade",
    "Counted",
    "CountedTrick",
    "DealScored",
    "Dealt",
    "Ended",
    "MetalChoice",
    "Phase",
    "Played",
    "Public",
    "TiedForLead",
    "TrickIds",
    "TrickWon",
    "Wins",
    "bt_many_suits",
    "bt_one_suit",
    "bt_two_suits",
    "narrate",
]
