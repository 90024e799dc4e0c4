"""Jewel Vault: tricks are worth nothing, the jewels they bring are worth everything.

2 to 6 players, an ordinary 52-card deck with the Ace low and no trumps. Every card
that cannot follow suit earns its suit's action at once; the winner of a trick takes
the action of the led suit; at the end of a round the player with the most cards of a
suit takes that suit's action, and every player who won no trick takes two ♦ actions.
Each action moves one jewel:

* ♦ supply → own vault, ♥ supply → own showroom,
* ♠ own showroom → own vault, ♣ another player's showroom → own showroom.

After the last round vault jewels count 2 points and showroom jewels 1.

Rulings where the source text is silent are in ``RULEBOOK`` (``ruling="JV-n"``); the
choices a teacher may change are options: ``rounds`` (JV-2), ``supply`` (JV-3),
``partnerships`` and ``known_deck`` (JV-9).

Ranking a trick (``resolve_trick``): the cards of the led suit come first, highest to
lowest (the first is the winner); then every card of another suit, in the order it was
played. Off-suit cards can never win, so their order among themselves means nothing
more than "played earlier".

The game is laid out as a package: :mod:`.rulebook` (its words, numbers and clauses),
:mod:`.rules` (the core: compact state, ``core_legal``/``core_step``, refusals, views),
:mod:`.facts` (card ids, value objects, the facts the core reports) and :mod:`.narrate`
(the facts as events). Every public name is importable from here.
"""

from .facts import (
    CARD_IDS,
    Acted,
    ActionResult,
    Announced,
    Dealt,
    DueAction,
    Ended,
    Exchanged,
    Jewels,
    Passed,
    Played,
    RoundEnd,
    RoundEnded,
    TrickWon,
)
from .narrate import narrate
from .rulebook import (
    ACTION_PATH,
    ACTION_RULE,
    AFTER_TRICK,
    ANNOUNCE,
    ANNOUNCE_CHOICES,
    CAUSES,
    DEFAULT_ROUNDS,
    DEFAULT_SUPPLY,
    IN_TRICK,
    KNOWN_DECK_TOP,
    MAX_ROUNDS,
    MOST,
    NAME,
    NO_TARGET,
    NO_TRICK,
    NO_TRICK_ACTIONS,
    OVER,
    PASS,
    PLAY,
    ROUND_END,
    ROUND_END_ORDER,
    RULEBOOK,
    SHOWROOM_EMPTY,
    SHOWROOM_POINTS,
    START_SHOWROOM,
    STEAL,
    SUIT_INDEX,
    SUITS,
    SUPPLY_EMPTY,
    TITLE,
    TRICK,
    VAULT_POINTS,
    VOID,
    Blocked,
    Cause,
    Phase,
    Stage,
)
from .rules import (
    ANNOUNCE_BASE,
    CAPABILITIES,
    PASS_BASE,
    STEAL_BASE,
    JewelVault,
    JewelVaultCoreView,
    JewelVaultOptions,
    JewelVaultState,
    JewelVaultView,
    PassIds,
    action_table,
    jv_led_suit,
    jv_off_suit,
)

__all__ = [
    "ACTION_PATH",
    "ACTION_RULE",
    "AFTER_TRICK",
    "ANNOUNCE",
    "ANNOUNCE_BASE",
    "ANNOUNCE_CHOICES",
    "CAPABILITIES",
    "CARD_IDS",
    "CAUSES",
    "DEFAULT_ROUNDS",
    "DEFAULT_SUPPLY",
    "IN_TRICK",
    "KNOWN_DECK_TOP",
    "MAX_ROUNDS",
    "MOST",
    "NAME",
    "NO_TARGET",
    "NO_TRICK",
    "NO_TRICK_ACTIONS",
    "OVER",
    "PASS",
    "PASS_BASE",
    "PLAY",
    "ROUND_END",
    "ROUND_END_ORDER",
    "RULEBOOK",
    "SHOWROOM_EMPTY",
    "SHOWROOM_POINTS",
    "START_SHOWROOM",
    "STEAL",
    "STEAL_BASE",
    "SUITS",
    "SUIT_INDEX",
    "SUPPLY_EMPTY",
    "TITLE",
    "TRICK",
    "VAULT_POINTS",
    "VOID",
    "Acted",
    "ActionResult",
    "Announced",
    "Blocked",
    "Cause",
    "Dealt",
    "DueAction",
    "Ended",
    "Exchanged",
    "JewelVault",
    "JewelVaultCoreView",
    "JewelVaultOptions",
    "JewelVaultState",
    "JewelVaultView",
    "Jewels",
    "PassIds",
    "Passed",
    "Phase",
    "Played",
    "RoundEnd",
    "RoundEnded",
    "Stage",
    "TrickWon",
    "action_table",
    "jv_led_suit",
    "jv_off_suit",
    "narrate",
]
