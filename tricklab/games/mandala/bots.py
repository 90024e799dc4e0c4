"""A sensible Mandala bot.

It reads only its own seat's view (:class:`~tricklab.games.mandala.MandalaView`) and chooses
among the legal actions it is given, scoring each by a rule of thumb:

* Completes a Mandala when it would then choose first (``rules.first_chooser``) and has a
  Field there (without one, its claims would be discarded); never hands the first choice to
  the other player if it can help it.
* Builds its Field in a Mandala with the colour it holds most of: the bigger Field chooses
  first when the Mandala is complete.
* Plays to a Mountain the colours it wants to claim: colours new to its River (while it has
  free spaces) or colours already high in its River (each Cup card scores its River space),
  in the Mandala where it leads on Field cards; a Mountain play also refills the hand.
* Discards when nothing else helps (its hand is stuck), the colour it can use least.
* Claims colours new to its River early (they set its River spaces), then the colour whose
  cards are worth most in its River; with no Field in the Mandala (its claims are discarded),
  it takes what the other player wants most.

It decides on the core's action ids (:meth:`HeuristicBot.choose_id`, decoded by
:data:`~tricklab.games.mandala.TABLE`); :meth:`HeuristicBot.choose` is the same decision for
the checked API's actions, and :meth:`HeuristicBot.decide` says why.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ...actions import Action
from ...bots import FIRST_LISTED, Decision, first_listed
from ...cards import COLOURS
from ...explain import Reason, plural
from . import CLAIM, PLAY, RIVER_SPACES, TABLE, Kind, Mandala, MandalaView

# the rules of thumb (each decision names the one that chose)
COMPLETE = "bot.mandala.complete"  # complete a Mandala and choose first
FIELD = "bot.mandala.field"  # build the Field with a colour held in numbers
MOUNTAIN = "bot.mandala.mountain"  # a wanted colour into a Mountain, and draw
DISCARD = "bot.mandala.discard"  # nothing else helps: discard and draw
CLAIM_NEW = "bot.mandala.claim-new"  # a colour new to the River, early
CLAIM_WORTH = "bot.mandala.claim-worth"  # the colour worth most in the River
CLAIM_DENY = "bot.mandala.claim-deny"  # no Field here: take what the other player wants most
ONLY = "bot.mandala.only"  # one action is allowed

_EARLY = 3  # a River with fewer colours than this still takes new colours first
_BAD = -100.0  # completing a Mandala for the other player to choose first


class _Scored(NamedTuple):
    score: float
    tag: str


def _counts(held: dict[str, int] | None) -> tuple[int, ...]:
    own = held or {}
    return tuple(own.get(c, 0) for c in COLOURS)


class HeuristicBot:
    """The Mandala heuristic bot of one seat: :meth:`choose` plays, :meth:`decide` says why
    (the same decision), :meth:`choose_id` is the same on the core's action ids."""

    def __init__(self, rules: Mandala, seat: int, seed: int | str = 0) -> None:
        self.rules = rules
        self.seat = seat
        self.seed = seed  # the bot draws nothing at random: equal scores go to the first listed

    def __repr__(self) -> str:
        return f"{self.rules.name} HeuristicBot(seat={self.seat})"

    # --- the three entry points -------------------------------------------------------------------

    def choose(self, view: MandalaView, legal_actions: Sequence[Action]) -> Action:
        return self._decision(view, legal_actions)[0]

    def decide(self, view: MandalaView, legal_actions: Sequence[Action]) -> Decision:
        """The action :meth:`choose` takes (the same code decides) and why: the rule that limits
        the choice (``rules.explain_choice``), then the bot's rule of thumb (``bot.mandala.*``)."""
        action, tag = self._decision(view, legal_actions)
        limit = self.rules.explain_choice(view, self.seat)
        return Decision(action, (limit, self._why(tag, view, action)))

    def choose_id(self, view: MandalaView, legal_ids: Sequence[int]) -> int:
        """The decision as an action id, from the seat's view and the ids the core lists."""
        return self._choice(view, legal_ids)[0]

    def _decision(self, view: MandalaView, legal_actions: Sequence[Action]) -> tuple[Action, str]:
        ids = [self.rules.action_id(a) for a in legal_actions]
        known = [i for i in ids if i is not None]
        if not known:
            return legal_actions[0], FIRST_LISTED
        chosen, tag = self._choice(view, known)
        return legal_actions[ids.index(chosen)], tag

    def _choice(self, view: MandalaView, legal_ids: Sequence[int]) -> tuple[int, str]:
        """The decision as an action id and the rule of thumb that made it."""
        if not legal_ids:
            raise ValueError("there is no legal action to choose from")
        if len(legal_ids) == 1:
            return legal_ids[0], ONLY
        if view.phase is CLAIM:
            return self._claim(view, legal_ids)
        if view.phase is PLAY:
            return self._turn(view, legal_ids)
        return legal_ids[0], FIRST_LISTED

    # --- what colours are worth ---------------------------------------------------------------------

    def _claim_value(self, river: Sequence[str], colour: str, n: int) -> float:
        """What taking ``n`` cards of ``colour`` is worth to a seat with ``river``: the Cup cards'
        points, and for a new colour the River space it sets (worth more the earlier)."""
        if colour in river:
            return float(n * (river.index(colour) + 1))
        if len(river) >= RIVER_SPACES:
            return 0.0
        space = len(river) + 1
        # the first card sets the space, the rest go to the Cup; a space is worth having for
        # later claims, but the last space ends the game
        future = 0.0 if space == RIVER_SPACES else 2.0 * (RIVER_SPACES - space)
        return (n - 1) * space + future

    # --- claims ------------------------------------------------------------------------------------

    def _claim(self, view: MandalaView, legal: Sequence[int]) -> tuple[int, str]:
        assert view.claiming is not None
        area = view.mandalas[view.claiming - 1]
        river, other_river = view.rivers[self.seat], view.rivers[1 - self.seat]
        claims = [a for a in legal if TABLE.decoded[a].kind == "claim"]
        if not claims:
            return legal[0], FIRST_LISTED

        def cards(a: int) -> int:
            return area.mountain.get(COLOURS[TABLE.decoded[a].colour], 0)

        def colour(a: int) -> str:
            return COLOURS[TABLE.decoded[a].colour]

        if not area.fields[self.seat]:  # with no Field here, claimed cards are discarded
            # the first of equals (max keeps the first): the order the core lists
            return max(claims, key=lambda a: self._claim_value(other_river, colour(a), cards(a))), CLAIM_DENY
        new = [a for a in claims if colour(a) not in river]
        if new and len(river) < _EARLY:
            return max(new, key=cards), CLAIM_NEW
        chosen = max(claims, key=lambda a: self._claim_value(river, colour(a), cards(a)))
        return chosen, CLAIM_NEW if colour(chosen) not in river else CLAIM_WORTH

    # --- turns -------------------------------------------------------------------------------------

    def _turn(self, view: MandalaView, legal: Sequence[int]) -> tuple[int, str]:
        hand = _counts(view.hands[self.seat])
        size = sum(hand)
        # how many ways each colour can be used other than a discard
        usable = [0] * len(COLOURS)
        for a in legal:
            k = TABLE.decoded[a]
            if k.kind != "discard":
                usable[k.colour] += 1
        best, top = legal[0], _Scored(float("-inf"), FIRST_LISTED)
        for a in legal:
            k = TABLE.decoded[a]
            if k.kind == "field":
                scored = self._field(view, k, hand)
            elif k.kind == "mountain":
                scored = self._mountain(view, k, size)
            elif k.kind == "discard":
                scored = self._discard(k, hand, usable)
            else:
                continue
            if scored.score > top.score:
                best, top = a, scored
        return best, top.tag

    def _completion(self, view: MandalaView, k: Kind) -> float | None:
        """``None`` if the action leaves Mandala ``k.mandala`` incomplete; else what completing it is
        worth to this seat (the Mountain's best claim if it then chooses first, else bad)."""
        area = view.mandalas[k.mandala]
        colour = COLOURS[k.colour]
        if len(set(area.colours) | {colour}) < len(COLOURS):
            return None
        sizes = [sum(f.values()) for f in area.fields]
        mountain = dict(area.mountain)
        if k.kind == "field":
            sizes[self.seat] += k.cards
        else:
            mountain[colour] = mountain.get(colour, 0) + 1
        first, _ = self.rules.first_chooser(tuple(sizes), self.seat)
        mine, theirs = sizes[self.seat], sizes[1 - self.seat]
        if not mine:
            return _BAD  # every claim of ours would be discarded
        if first != self.seat and theirs:
            return _BAD
        river = view.rivers[self.seat]
        return 50.0 + max(self._claim_value(river, c, n) for c, n in mountain.items())

    def _field(self, view: MandalaView, k: Kind, hand: tuple[int, ...]) -> _Scored:
        done = self._completion(view, k)
        if done is not None:
            return _Scored(done, COMPLETE if done > 0 else FIELD)
        held = hand[k.colour]
        size = sum(hand)
        if k.cards != min(held, size - 1):  # play the whole colour (or all but the kept card)
            return _Scored(-50.0 + k.cards, FIELD)
        area = view.mandalas[k.mandala]
        mine = sum(area.fields[self.seat].values())
        theirs = sum(area.fields[1 - self.seat].values())
        score = 1.0 + 2.0 * k.cards
        if not mine:
            score += 3.0  # a Field makes our claims count
        if mine <= theirs < mine + k.cards + 1:
            score += 2.0  # this play takes the lead on Field cards
        if size - k.cards <= 2:
            score -= 3.0  # no draw follows: keep a hand to play with
        if len(set(area.colours) | {COLOURS[k.colour]}) == len(COLOURS) - 1 and mine + k.cards <= theirs:
            score -= 4.0  # one colour short, and the other player would choose first
        return _Scored(score, FIELD)

    def _mountain(self, view: MandalaView, k: Kind, size: int) -> _Scored:
        done = self._completion(view, k)
        if done is not None:
            return _Scored(done, COMPLETE if done > 0 else MOUNTAIN)
        colour = COLOURS[k.colour]
        area = view.mandalas[k.mandala]
        river = view.rivers[self.seat]
        mine = sum(area.fields[self.seat].values())
        theirs = sum(area.fields[1 - self.seat].values())
        score = 0.5 * self._claim_value(river, colour, area.mountain.get(colour, 0) + 1)
        score += 1.0 if mine > theirs else -1.0 if theirs > mine else 0.0
        score += 1.0 * max(0, min(3, 8 - (size - 1)))  # the cards drawn after it
        if len(set(area.colours) | {colour}) == len(COLOURS) - 1 and mine <= theirs:
            score -= 4.0  # one colour short, and the other player would choose first
        return _Scored(score, MOUNTAIN)

    @staticmethod
    def _discard(k: Kind, hand: tuple[int, ...], usable: list[int]) -> _Scored:
        if k.cards != hand[k.colour]:
            return _Scored(-60.0 + k.cards, DISCARD)
        # a colour that can go nowhere else first, then the fewest cards
        return _Scored((0.0 if not usable[k.colour] else -3.0) - 0.1 * k.cards, DISCARD)

    # --- the reasons -------------------------------------------------------------------------------

    def _why(self, tag: str, view: MandalaView, action: Action) -> Reason:
        """The rule of thumb ``tag`` in words, for the seat's position ``view``."""
        if tag == FIRST_LISTED:
            return first_listed()
        if tag == ONLY:
            return Reason(tag, "It is the only action you may take.")
        id_ = self.rules.action_id(action)
        k = TABLE.decoded[id_] if id_ is not None else Kind("", -1, 0, 0)
        colour = COLOURS[k.colour]
        river = view.rivers[self.seat]
        if tag == COMPLETE:
            return Reason(
                tag,
                f"This completes Mandala {k.mandala + 1}, and you will choose first from its Mountain, "
                "because your Field there holds more cards (or wins the tie).",
            )
        if tag == FIELD:
            return Reason(
                tag,
                f"Build your Field of Mandala {k.mandala + 1} with your {plural(k.cards, colour + ' card')}: "
                "when a Mandala is complete, the player with more cards in their Field chooses first.",
            )
        if tag == MOUNTAIN:
            if colour in river:
                space = river.index(colour) + 1
                points = plural(space, "point")
                want = f"{colour} is at space {space} of your River, so each {colour} card you claim scores {points}"
            else:
                want = f"{colour} is not in your River yet, so claiming it would give it a River space"
            return Reason(
                tag,
                f"Put {colour} into the Mountain of Mandala {k.mandala + 1}: {want}. You also draw cards after it.",
            )
        if tag == DISCARD:
            return Reason(
                tag,
                f"Nothing else helps you now, so discard your {colour} cards and draw as many new ones.",
            )
        if tag == CLAIM_NEW:
            return Reason(
                tag,
                f"{colour.capitalize()} is new to your River: its first card takes the next River space, "
                "and the colours you claim early set where your later cards score.",
            )
        if tag == CLAIM_WORTH:
            space = river.index(colour) + 1 if colour in river else len(river) + 1
            return Reason(
                tag,
                f"{colour.capitalize()} is worth the most to you: each {colour} card in your Cup scores "
                f"{plural(space, 'point')}, its space in your River.",
            )
        if tag == CLAIM_DENY:
            return Reason(
                tag,
                f"You have no Field in this Mandala, so what you claim is discarded: take {colour}, "
                "the colour the other player would gain most from.",
            )
        return first_listed()
