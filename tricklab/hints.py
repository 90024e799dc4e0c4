"""Hints for a learner: what a bot would do in the learner's place, in words, and why.

A pure part of the engine (no widgets): a play table asks for a :class:`Hint` and shows its
``text`` and ``reasons`` as they are; every reason comes from the rules and the bot, never
from the table itself::

    from tricklab.bots import heuristic_bot
    from tricklab.hints import hint

    seat = match.to_play
    advice = hint(rules, match.view(seat), match.legal_actions(), heuristic_bot(rules, seat))
    advice.text      # "Play 7♥": the action in words (rules.describe_action)
    advice.reasons   # (Reason("ts.follow", "You must follow hearts: you hold 7♥ and J♥."),
                     #  Reason("bot.ts.duck", "You predicted 1 and have won 1 trick: ..."))
    advice.action    # Play(7♥), to apply if the learner takes the hint
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .actions import Action
from .bots import Bot, Decider
from .errors import InvalidOption, describe
from .explain import Reason
from .games.base import Rules, SeatView, check_rules
from .judge import JUDGE_SAMPLES, Evaluation, choice_reasons, evaluate
from .match import Match

__all__ = ["Hint", "hint", "judged_hint"]

RULE_OF_THUMB = "bot."
"""The rule ids of a bot's rules of thumb start so."""


@dataclass(frozen=True, slots=True)
class Hint:
    """What a bot would do now, for the learner.

    ``action`` is one of the legal actions; ``text`` is that action in words
    (``rules.describe_action(action, view)``: ``"Place gems in chambers 1 and 3"``, ``"Take a
    jewel from Player 4's showroom (3 jewels there)"``); ``reasons`` are the bot's own (its
    ``decide``): first the game's rule that limits the choice, with a rulebook clause id, then
    the bot's rule of thumb, with an id starting ``bot.``. A bot that cannot say why (it has
    only ``choose``) gives no reasons.
    """

    action: Action
    text: str
    reasons: tuple[Reason, ...]
    evaluation: Evaluation | None = None
    thumb: Action | None = None

    @property
    def rule_of_thumb(self) -> bool:
        """Whether the hint is only the bot's quick rule of thumb (no play-outs behind it)."""
        return self.evaluation is None

    def __str__(self) -> str:
        return " ".join([self.text + ".", *(r.text for r in self.reasons)])


def hint(rules: Rules[Any], view: SeatView, legal_actions: Sequence[Action], bot: Bot | Decider) -> Hint:
    """The :class:`Hint` of ``bot`` for the seat of ``view`` (the seat to play, as the bot sees
    it) among ``legal_actions`` (what ``match.legal_actions()`` lists now).

    The bot decides as it would in play (``decide``, the same choice as ``choose``); a bot
    without ``decide`` is asked ``choose`` and its hint has no reasons. Raises
    :class:`~tricklab.errors.InvalidOption` when there is nothing to choose from.
    """
    check_rules(rules, "a hint")
    rules.check_view(view)
    if not isinstance(legal_actions, (list, tuple)) or not all(isinstance(a, Action) for a in legal_actions):
        raise InvalidOption(
            f"legal_actions must be the actions allowed now (match.legal_actions()), not {describe(legal_actions)}"
        )
    if not legal_actions:
        raise InvalidOption("there is no action to hint at: nothing may be done now")
    if not callable(getattr(bot, "choose", None)):
        raise InvalidOption(f"bot must be a bot, with choose(view, legal_actions), not {describe(bot)}")
    if isinstance(bot, Decider):
        decision = bot.decide(view, legal_actions)
        action, reasons = decision.action, decision.reasons
    else:
        action, reasons = bot.choose(view, legal_actions), ()
    return Hint(action, rules.describe_action(action, view), tuple(reasons))


def judged_hint(match: Match, bot: Bot | Decider, *, samples: int = JUDGE_SAMPLES, seed: int = 0) -> Hint:
    """The hint for the seat to play in ``match``, from the one judge (:func:`tricklab.judge.evaluate`)
    where the game has one: its action is the judge's best choice, the same a review or the
    trainer names in this position with this seed, with the judge's figures and reasons; the
    bot's rule of thumb comes last, said to be one, with how its own choice fares. In a game
    without the judge, the bot's :func:`hint` (a quick rule of thumb)."""
    if not isinstance(match, Match):
        raise InvalidOption(f"match must be a Match, not {describe(match)}")
    seat = match.to_play
    if seat is None:
        raise InvalidOption("there is no action to hint at: the match is over")
    rules = match.rules
    thumb = hint(rules, match.view(seat), match.legal_actions(), bot)
    if rules.capabilities.review is None:
        return thumb
    ev = evaluate(match, tried=thumb.action, samples=samples, seed=seed)
    best = ev.best
    from .review import ReviewEntry  # the review builds on the hints' judge

    entry = rules.capabilities.review.load_as(ReviewEntry)
    limits = tuple(r for r in thumb.reasons if not r.rule_id.startswith(RULE_OF_THUMB))
    thumbs = tuple(r for r in thumb.reasons if r.rule_id.startswith(RULE_OF_THUMB))
    judged = choice_reasons(
        rules, entry.wording, ev, best, None if best.action == thumb.action else ev.figure(thumb.action)
    )
    if best.action == thumb.action:
        said = "A quick rule of thumb agrees"
    else:
        mine = ev.figure(thumb.action)
        how = "about the same" if not mine.apart else f"about {mine.loss:.1f} points less"
        said = f"A quick rule of thumb would choose “{rules.describe_action(thumb.action, match.view(seat))}” ({how})"
    thumb_reasons = tuple(Reason(r.rule_id, f"{said}. Its reason: {r.text}", r.cards) for r in thumbs[:1]) + thumbs[1:]
    if not thumbs:
        thumb_reasons = ()
    return Hint(
        best.action,
        rules.describe_action(best.action, match.view(seat)),
        (*limits, *judged, *thumb_reasons),
        ev,
        thumb.action,
    )
