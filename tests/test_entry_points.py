"""Every public entry point refuses bad arguments with a short, typed error.

The entry points are found, not listed: the public functions and classes of the public
modules (``tricklab.__all__``, the analysis modules, the links, the widgets and the apps),
each class's constructor and public methods, and each game's rules methods, all read with
:func:`inspect.signature`. For every parameter in turn a hostile value (``None``, a wrong
type, ``True`` or ``2.0`` for a number, ``-1``, a 5,001-digit number, a megabyte of text, a
list 5,000 levels deep, an object whose ``repr`` fails) takes the place of a valid example
while the other parameters keep theirs. The call either succeeds or raises a
:class:`~tricklab.TricklabError` whose message is short and names the parameter or quotes the
value (:func:`tricklab.errors.describe`); any other exception fails the test.

The valid examples are kept here, per parameter name (:data:`BY_NAME`) and, where a name
means something else in one entry point, per entry point (:data:`EXAMPLES`). A new public
function, class or method whose parameters have no example fails
:func:`test_every_parameter_has_a_valid_example`, so nothing new escapes the corpus; a new
rules method must be sorted into :data:`RULES_API` or :data:`RULES_HOOKS`, and a new class
into :data:`RECORDS` when tricklab makes its values and callers only read them.

What the page sends a widget (intents) is text only; :func:`test_intents_from_the_page_never_raise`
sends each widget's intents (those its markup offers, and every intent any widget knows) the
hostile values as text.
"""

from __future__ import annotations

import enum
import importlib
import inspect
import itertools
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import Any

import pytest

import tricklab
import tricklab.widgets
from tricklab import advisor, hints, links, moves, puzzles, quiz, review
from tricklab.actions import Action
from tricklab.bots import heuristic_bot
from tricklab.errors import TricklabError, describe
from tricklab.games.base import Rules
from tricklab.match import Match
from tricklab.widgets import Board
from tricklab.widgets.controls import Controls, Note

MAX_MESSAGE = 500

HUGE = 10**5000
LONG_TEXT = "x" * 1_000_000


def deep(levels: int = 5_000) -> list[Any]:
    nested: list[Any] = []
    for _ in range(levels):
        nested = [nested]
    return nested


class Unprintable:
    """A value whose repr fails: a message about it must still come out."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")

    __str__ = __repr__


#: the hostile values, made afresh for each call (a call may keep or change what it is given)
HOSTILE: dict[str, Callable[[], Any]] = {
    "None": lambda: None,
    "5": lambda: 5,
    "'x'": lambda: "x",
    "[]": lambda: [],
    "{}": lambda: {},
    "object()": object,
    "True": lambda: True,
    "2.0": lambda: 2.0,
    "-1": lambda: -1,
    "10**5000": lambda: HUGE,
    "1 MB of text": lambda: LONG_TEXT,
    "5,000 deep": deep,
    "unprintable": Unprintable,
}

#: the public modules whose public functions and classes are entry points
MODULES = (
    "tricklab",
    "tricklab.quiz",
    "tricklab.advisor",
    "tricklab.hints",
    "tricklab.moves",
    "tricklab.puzzles",
    "tricklab.review",
    "tricklab.links",
    "tricklab.bots",
    "tricklab.games",
    "tricklab.widgets",
    "tricklab.widgets.apps",
)

#: classes whose values tricklab makes and callers only read (results, explanations, a game's
#: declarations): their constructors are no entry point; their public methods are
RECORDS = {
    "tricklab.Clause",
    "tricklab.Event",
    "tricklab.MatchResult",
    "tricklab.Reason",
    "tricklab.Rulebook",
    "tricklab.Score",
    "tricklab.ScoreLine",
    "tricklab.Step",
    "tricklab.TrickOutcome",
    "tricklab.quiz.Place",
    "tricklab.quiz.Question",
    "tricklab.quiz.QuizSummary",
    "tricklab.quiz.Verdict",
    "tricklab.advisor.Advice",
    "tricklab.advisor.AdvisorEntry",
    "tricklab.advisor.BidEstimate",
    "tricklab.advisor.SampledDeal",
    "tricklab.bots.Decision",
    "tricklab.hints.Hint",
    "tricklab.moves.Best",
    "tricklab.moves.Effect",
    "tricklab.moves.MoveOutcome",
    "tricklab.moves.MovesEntry",
    "tricklab.moves.Tried",
    "tricklab.puzzles.Asked",
    "tricklab.puzzles.Choice",
    "tricklab.puzzles.Marking",
    "tricklab.puzzles.Position",
    "tricklab.puzzles.PositionQuestion",
    "tricklab.puzzles.PositionVerdict",
    "tricklab.puzzles.Puzzle",
    "tricklab.review.DecisionReview",
    "tricklab.review.ReviewEntry",
    "tricklab.review.RoundReview",
    "tricklab.review.TrickHindsight",
    "tricklab.widgets.apps.AppParams",
}

#: the rules methods a caller uses (the rules API of the design notes, each game's scoring
#: and helpers): entry points, checked on every game
RULES_API = {
    "action_legend",
    "apply",
    "apply_for",
    "as_legacy",
    "census",
    "from_stored_options",
    "card",
    "cards",
    "check_described",
    "check_match_options",
    "check_seat",
    "check_state",
    "check_view",
    "check_view_seat",
    "create",
    "deck",
    "describe_action",
    "explain_choice",
    "facts",
    "final_score",
    "from_options",
    "initial_state",
    "legal_actions",
    "legal_plays",
    "new_match",
    "parse_action",
    "parse_trump",
    "play",
    "position",
    "refusal",
    "resolve_trick",
    "result",
    "round_end",
    "score",
    "score_deal",
    "score_round",
    "seat_name",
    "suit_action",
    "suit_to_follow",
    "view",
    "with_options",
}
#: the rules' own hooks and helpers: the core, the narrator, the bots, the advisor and the
#: display call them with values the engine made (card ids, masks, checked states), on the hot
#: path of simulation; they are not entry points
RULES_HOOKS = {
    "action_id",
    "pieces",
    "unseen_by",
    "canonical_action",
    "core_deal",
    "core_initial",
    "core_legal",
    "core_round",
    "core_step",
    "core_view",
    "counts",
    "deal_rng",
    "decided",
    "describe_allowance",
    "describe_due",
    "explain_illegal",
    "first_chooser",
    "first_dealer",
    "gem_allowance",
    "legal_ids",
    "live_deal",
    "new_deal",
    "quick_listed_id",
    "listed_objects",
    "listed_action_id",
    "listed_id",
    "members",
    "metal_choices",
    "most_of_suits",
    "narrate",
    "no_trick_seats",
    "outcome",
    "owner",
    "partner",
    "place_name",
    "playable",
    "points_of",
    "present",
    "ranking",
    "receiver",
    "round_end_owed",
    "round_opening",
    "rulebook_prefix",
    "seat_totals",
    "set_actions",
    "side_name",
    "side_of",
    "side_points",
    "start_player",
    "steal_sides",
    "totals",
    "winning_index",
    "winning_seats",
    "with_hands",
}


# --- the games the examples are taken from ------------------------------------------------------


@dataclass
class Game:
    """A game and the valid values its entry points are called with: a match some decisions in,
    at a decision of the seat to play (a card to play, in a trick game), and what comes of it."""

    name: str
    players: int

    @cached_property
    def rules(self) -> Rules[Any]:
        return tricklab.get_rules(self.name, players=self.players)

    @cached_property
    def played(self) -> Match:
        match = self.rules.new_match(seed=3)
        rng = random.Random(3)
        cards = self.rules.capabilities.tricks
        for _ in range(200):  # to the first card played to a trick (a board game: a few moves)
            legal = match.legal_actions()
            if cards and match.phase == "play" and getattr(match.state, "trick", ()):
                break
            if not cards and len(match.actions) >= 4:
                break
            match.apply(legal[rng.randrange(len(legal))])
        return match

    def match(self) -> Match:
        return self.played.copy()

    @property
    def seat(self) -> int:
        seat = self.played.to_play
        assert seat is not None
        return seat

    @property
    def state(self) -> Any:
        return self.played.state

    @cached_property
    def view(self) -> Any:
        return self.played.view(self.seat)

    @property
    def legal(self) -> list[Action]:
        return self.played.legal_actions()

    @property
    def action(self) -> Action:
        return self.legal[0]

    @cached_property
    def hand(self) -> str:
        return " ".join(str(c) for c in self.view.hand)

    @cached_property
    def trick(self) -> str:
        """Two cards that make a trick of the game (the first two cards of the deck)."""
        return " ".join(str(c) for c in self.rules.deck()[:2])

    @cached_property
    def outcome(self) -> Any:
        return self.rules.resolve_trick(self.rules.deck()[: self.rules.trick_size], **self.context)

    @property
    def context(self) -> dict[str, Any]:
        return {"trump": "S"} if self.name == "tricks-and-stones" else {}

    # --- bidding: the advisor's and the bid trainer's moment -------------------------------

    @cached_property
    def bidding(self) -> Match:
        """A match at the seat's pre-round decision (the advisor's moment)."""
        match = self.rules.new_match(seed=2)
        phase = self.rules.capabilities.decision.phase
        rng = random.Random(2)
        while match.phase != phase:
            legal = match.legal_actions()
            match.apply(legal[rng.randrange(len(legal))])
        return match

    @cached_property
    def bid_view(self) -> Any:
        seat = self.bidding.to_play
        return self.bidding.view(seat)

    @cached_property
    def knowledge(self) -> advisor.Knowledge:
        return advisor.Knowledge.from_view(self.rules, self.bid_view)

    @cached_property
    def advice(self) -> advisor.Advice:
        return advisor.advise(self.rules, self.bid_view, samples=4, seed=1)

    @cached_property
    def bid(self) -> Action:
        return self.advice.estimates[0].bid

    def trainer(self) -> Any:
        return tricklab.widgets.BidTrainer(self.name, self.players, seed=2, samples=4)

    @cached_property
    def trainer_bid(self) -> Action:
        """A bid the bid trainer of :meth:`trainer` may try."""
        return self.trainer().match.legal_actions()[-1]

    # --- quizzes, moves, reviews ------------------------------------------------------------

    @cached_property
    def question(self) -> Any:
        if quiz.asks_positions(self.name):
            return puzzles.questions(self.name, self.players, seed=1, level=1, count=1)[0]
        return quiz.questions(self.name, self.players, seed=1, level=1, count=1)[0]

    @cached_property
    def answer(self) -> Any:
        found = self.question.answer[0]
        return found if isinstance(found, str) else str(found)

    @cached_property
    def verdict(self) -> Any:
        check = puzzles.check if quiz.asks_positions(self.name) else quiz.check
        return check(self.question, self.answer)

    @cached_property
    def outcomes(self) -> tuple[moves.MoveOutcome, ...]:
        return moves.try_moves(self.played)

    @cached_property
    def reviewed(self) -> Match:
        """A match with one whole round played (by random bots: a short review)."""
        match = self.rules.new_match(seed=4)
        bots = [tricklab.RandomBot(seat) for seat in range(self.players)]
        while not match.is_over and review.reviewable_rounds(match) == (0,) and len(match.actions) < 400:
            seat = match.to_play
            assert seat is not None
            match.apply(bots[seat].choose(match.view(seat), match.legal_actions()))
        return match

    @cached_property
    def decision(self) -> int:
        """The index of a decision of seat 0 in :attr:`reviewed` with a choice."""
        match = self.reviewed
        return next(
            i for i, s in enumerate(match.states[:-1]) if s.to_play == 0 and len(self.rules.legal_actions(s)) > 1
        )


TS, BT, JV, KALAH, MANDALA = (
    Game("tricks-and-stones", 3),
    Game("band-of-tricks", 4),
    Game("jewel-vault", 3),
    Game("kalah", 2),
    Game("mandala", 2),
)
EVERY_GAME = (TS, BT, JV, KALAH, MANDALA)
CARD_GAMES = (TS, BT, JV)
BOARD_GAMES = (KALAH, MANDALA)


# --- valid examples ---------------------------------------------------------------------------

Example = Callable[[Game], Any]

_ADDED = itertools.count()

#: a valid value by parameter name, for any entry point that has the parameter
BY_NAME: dict[str, Example] = {
    "game": lambda g: g.name,
    "players": lambda g: g.players,
    "seed": lambda g: 1,
    "rules": lambda g: g.rules,
    "match": lambda g: g.match(),
    "seat": lambda g: g.seat,
    "view": lambda g: g.view,
    "state": lambda g: g.state,
    "action": lambda g: g.action,
    "legal_actions": lambda g: g.legal,
    "four_colour": lambda g: False,
    "large": lambda g: False,
    "samples": lambda g: 4,
    "level": lambda g: 1,
    "count": lambda g: 2,
    "question": lambda g: g.question,
    "answer": lambda g: g.answer,
    "outcome": lambda g: g.outcome,
    "log": lambda g: None,
    "progress": lambda g: None,
    "query": lambda g: f"game={g.name}&players={g.players}&seed=2",
    "text": lambda g: g.played.to_json(),
    "bots": lambda g: "random",
    "row": lambda g: [Note(f"added_{next(_ADDED)}", "a note")],  # a control named like no other
}

#: valid values that differ from :data:`BY_NAME` (or are its only users), by entry point;
#: a rules method is ``Rules.<name>``, a widget's method ``tricklab.widgets.<Widget>.<name>``
EXAMPLES: dict[str, dict[str, Example]] = {
    # the engine
    "tricklab.get_rules": {"options": lambda g: {}},
    "tricklab.Bid.of": {"numbers": lambda g: {"rock": 1, "soul": 0, "pops": 2}},
    "tricklab.find_game": {"name": lambda g: g.name},
    "tricklab.Announce": {"n": lambda g: 1},
    "tricklab.AssignMetal": {"suit": lambda g: "rock"},
    "tricklab.Bid": {"rock": lambda g: 1, "soul": lambda g: 0, "pops": lambda g: 2, "zero": lambda g: False},
    "tricklab.Move": {"steps": lambda g: ((1, 2),)},
    "tricklab.Pass": {"cards": lambda g: ("AS", "KS")},
    "tricklab.Place": {"chambers": lambda g: (1, 3)},
    "tricklab.Play": {"card": lambda g: "AS"},
    "tricklab.Predict": {"n": lambda g: 2},
    "tricklab.Sow": {"pit": lambda g: 3},
    "tricklab.Steal": {"target": lambda g: 1},
    "tricklab.Card": {"suit": lambda g: "S", "rank": lambda g: 1},
    "tricklab.FrenchCard": {"suit": lambda g: "S", "rank": lambda g: 1},
    "tricklab.FrenchCard.parse": {"text": lambda g: "AS"},
    "tricklab.BandCard": {"suit": lambda g: "R", "rank": lambda g: 13},
    "tricklab.BandCard.parse": {"text": lambda g: "R13"},
    "tricklab.Match": {
        "seed": lambda g: g.played.seed,
        "match_options": lambda g: None,
        "actions": lambda g: (),
    },
    "tricklab.Match.apply": {"action": lambda g: str(g.action)},
    "tricklab.Match.timeline": {"seat": lambda g: None},
    "tricklab.Match.to_json": {"indent": lambda g: None},
    "tricklab.Match.from_record": {"record": lambda g: g.played.record()},
    "tricklab.RandomBot": {"seed": lambda g: 1},
    "tricklab.Rulebook.section": {"prefixes": lambda g: (g.rules.rulebook_prefix(),)},
    # each game's rules
    "Rules.card": {"value": lambda g: str(g.rules.deck()[0]) if g.rules.deck() else "AS"},
    "Rules.cards": {"values": lambda g: g.trick},
    "Rules.resolve_trick": {"cards": lambda g: g.trick, "trump": lambda g: "S", "context": lambda g: {}},
    "Rules.legal_plays": {
        "hand": lambda g: g.hand,
        "trick": lambda g: (),
        "trump": lambda g: "S",
        "trump_broken": lambda g: False,
        "context": lambda g: {},
    },
    "Rules.new_match": {"options": lambda g: {}},
    "Rules.play": {"options": lambda g: {}},
    "Rules.initial_state": {"match_options": lambda g: {}},
    "Rules.create": {"options": lambda g: {}},
    "Rules.from_options": {"options": lambda g: {}},
    "Rules.from_stored_options": {"options": lambda g: {}},
    "tricklab.bots.table_bot": {"decision": lambda g: 0},
    "Rules.with_options": {"options": lambda g: {}},
    "Rules.check_match_options": {"options": lambda g: {}},
    "Rules.check_view_seat": {"seat": lambda g: 0},
    "Rules.check_seat": {"seat": lambda g: 0, "what": lambda g: "seat"},
    "Rules.check_view": {"optional": lambda g: False},
    "Rules.check_described": {"action": lambda g: g.action, "view": lambda g: g.view},
    "Rules.seat_name": {"seat": lambda g: 0},
    "Rules.parse_action": {"text": lambda g: str(g.action)},
    "Rules.explain_choice": {"seat": lambda g: None},
    "Rules.score_round": {"prediction": lambda g: 2, "tricks": lambda g: 2, "gems": lambda g: (0, 0, 0, 4, 0, 0)},
    "Rules.parse_trump": {"trump": lambda g: "S"},
    "Rules.score_deal": {"bid": lambda g: {"rock": 1, "soul": 0, "pops": 2}, "won": lambda g: {"rock": 1}},
    "Rules.suit_to_follow": {"trick": lambda g: g.trick},
    "Rules.final_score": {"vault": lambda g: 12, "showroom": lambda g: 4},
    "Rules.round_end": {"won": lambda g: [{"D": 1}, {}, {}], "dealer": lambda g: 0},
    "Rules.suit_action": {
        "suit": lambda g: "D",
        "seat": lambda g: 0,
        "supply": lambda g: 10,
        "showrooms": lambda g: [3, 3, 3],
        "vaults": lambda g: None,
        "target": lambda g: None,
        "cause": lambda g: "trick",
    },
    "Rules.position": {"pits": lambda g: [4] * 6 + [0] + [4] * 6 + [0], "to_play": lambda g: 0},
    "Rules.score": {"cup": lambda g: {"red": 2}, "river": lambda g: ["red", "blue"]},
    "tricklab.games.games_with": {"offers": lambda g: lambda offers: offers.tricks},
    "tricklab.games.default_players": {"cls": lambda g: type(g.rules)},
    # the analysis modules
    "tricklab.quiz.questions": {"podium": lambda g: None},
    "tricklab.quiz.winner_prompt": {"context": lambda g: {"trump": "S"}},
    "tricklab.quiz.suggested_level": {"right": lambda g: 3, "asked": lambda g: 5},
    "tricklab.quiz.summary": {"results": lambda g: [g.verdict, None]},
    "tricklab.quiz.beating_reasons": {
        "above": lambda g: g.outcome.ranked_cards[0],
        "below": lambda g: g.outcome.ranked_cards[1],
    },
    "tricklab.quiz.placing_reasons": {"card": lambda g: g.outcome.ranked_cards[1]},
    "tricklab.advisor.advise": {
        "view": lambda g: g.bid_view,
        "bid": lambda g: None,
        "knowledge": lambda g: None,
    },
    "tricklab.advisor.advise_steps": {"view": lambda g: g.bid_view, "bid": lambda g: None, "knowledge": lambda g: None},
    "tricklab.advisor.Knowledge": {
        "seat": lambda g: g.knowledge.seat,
        "hands": lambda g: g.knowledge.hands,
        "hand_sizes": lambda g: g.knowledge.hand_sizes,
        "aside": lambda g: g.knowledge.aside,
        "played": lambda g: (),
        "voids": lambda g: (),
    },
    "tricklab.advisor.Knowledge.from_view": {"view": lambda g: g.bid_view},
    "tricklab.advisor.Knowledge.from_match": {"at": lambda g: None},
    "tricklab.advisor.DealSampler": {"knowledge": lambda g: g.knowledge},
    "tricklab.advisor.DealSampler.sample": {"rng": lambda g: random.Random(1)},
    "tricklab.advisor.DealSampler.sample_masks": {"rng": lambda g: random.Random(1)},
    "tricklab.advisor.Advice.estimate": {"bid": lambda g: g.bid},
    "tricklab.hints.hint": {"bot": lambda g: heuristic_bot(g.rules, g.seat)},
    "tricklab.moves.offers_moves": {"game": lambda g: g.rules},
    "tricklab.moves.try_moves": {"source": lambda g: g.match(), "state": lambda g: None, "seat": lambda g: None},
    "tricklab.moves.MoveOutcome.effect": {"key": lambda g: "gained"},
    "tricklab.puzzles.play_to_position": {
        "rng": lambda g: random.Random(1),
        "most": lambda g: 4,
        "keep": lambda g: None,
    },
    "tricklab.puzzles.events_of": {"action": lambda g: str(g.action)},
    "tricklab.puzzles.PositionQuestion.label": {"value": lambda g: g.answer},
    "tricklab.review.verdict_of": {"loss": lambda g: 1.5, "loss_stderr": lambda g: 0.2},
    "tricklab.hints.judged_hint": {
        "match": lambda g: g.match(),
        "bot": lambda g: heuristic_bot(g.rules, g.seat),
        "samples": lambda g: 4,
        "seed": lambda g: 1,
    },
    "tricklab.review.reviewable_rounds": {"match": lambda g: g.reviewed},
    "tricklab.review.review_round": {"match": lambda g: g.reviewed, "seat": lambda g: 0, "round": lambda g: None},
    "tricklab.review.review_steps": {"match": lambda g: g.reviewed, "seat": lambda g: 0, "round": lambda g: None},
    "tricklab.review.sampled_deals": {
        "match": lambda g: g.reviewed,
        "seat": lambda g: 0,
        "index": lambda g: g.decision,
    },
    "tricklab.links.match_from_moves": {
        "seed": lambda g: g.played.seed,
        "code": lambda g: links.moves_code(g.played),
        "match_options": lambda g: dict(g.played.match_options),
    },
    # the widgets
    "tricklab.widgets.Board": {"kwargs": lambda g: {}},
    "tricklab.widgets.Board.intent": {"intent": lambda g: "key", "value": lambda g: "ArrowRight"},
    "tricklab.widgets.Board.on_intent": {"handler": lambda g: lambda intent, value: None},
    "tricklab.widgets.Board.show_address": {"address": lambda g: lambda: "game=kalah"},
    "tricklab.widgets.Board.control": {"name": lambda g: "trump", "value": lambda g: "1"},
    "tricklab.widgets.Board.set_state": {"sync_data": lambda g: {}},
    "tricklab.widgets.Board.use_controls": {"controls": lambda g: Controls([])},
    "tricklab.widgets.Board.host": {"other": lambda g: Board(), "controls": lambda g: None},
    # the trick explainer is a Board: its page-facing methods, with the explainer's own controls
    "tricklab.widgets.TrickExplainer.intent": {"intent": lambda g: "add", "value": lambda g: str(g.rules.deck()[5])},
    "tricklab.widgets.TrickExplainer.on_intent": {"handler": lambda g: lambda intent, value: None},
    "tricklab.widgets.TrickExplainer.show_address": {"address": lambda g: lambda: "game=kalah"},
    "tricklab.widgets.TrickExplainer.control": {"name": lambda g: "trump", "value": lambda g: "1"},
    "tricklab.widgets.TrickExplainer.set_state": {"sync_data": lambda g: {"trump": "H"}},
    "tricklab.widgets.TrickExplainer.use_controls": {"controls": lambda g: Controls([])},
    "tricklab.widgets.TrickExplainer.host": {"other": lambda g: Board(), "controls": lambda g: []},
    # the quiz is a Board: its page-facing methods, with the quiz's own controls
    "tricklab.widgets.Quiz.intent": {"intent": lambda g: "key", "value": lambda g: "ArrowRight"},
    "tricklab.widgets.Quiz.on_intent": {"handler": lambda g: lambda intent, value: None},
    "tricklab.widgets.Quiz.show_address": {"address": lambda g: lambda: "game=kalah"},
    "tricklab.widgets.Quiz.control": {"name": lambda g: "level", "value": lambda g: "1"},
    "tricklab.widgets.Quiz.set_state": {"sync_data": lambda g: {"level": 2}},
    "tricklab.widgets.Quiz.use_controls": {"controls": lambda g: Controls([])},
    "tricklab.widgets.Quiz.host": {"other": lambda g: Board(), "controls": lambda g: []},
    # the trainers are Boards: their page-facing methods, with their own controls
    "tricklab.widgets.BidTrainer.intent": {"intent": lambda g: "key", "value": lambda g: "ArrowRight"},
    "tricklab.widgets.BidTrainer.on_intent": {"handler": lambda g: lambda intent, value: None},
    "tricklab.widgets.BidTrainer.show_address": {"address": lambda g: lambda: "game=kalah"},
    "tricklab.widgets.BidTrainer.control": {"name": lambda g: "four_colour", "value": lambda g: "true"},
    "tricklab.widgets.BidTrainer.set_state": {"sync_data": lambda g: {"large": True}},
    "tricklab.widgets.BidTrainer.use_controls": {"controls": lambda g: Controls([])},
    "tricklab.widgets.BidTrainer.host": {"other": lambda g: Board(), "controls": lambda g: []},
    "tricklab.widgets.MoveTrainer.intent": {"intent": lambda g: "key", "value": lambda g: "ArrowRight"},
    "tricklab.widgets.MoveTrainer.on_intent": {"handler": lambda g: lambda intent, value: None},
    "tricklab.widgets.MoveTrainer.show_address": {"address": lambda g: lambda: "game=kalah"},
    "tricklab.widgets.MoveTrainer.control": {"name": lambda g: "large", "value": lambda g: "true"},
    "tricklab.widgets.MoveTrainer.set_state": {"sync_data": lambda g: {"large": True}},
    "tricklab.widgets.MoveTrainer.use_controls": {"controls": lambda g: Controls([])},
    "tricklab.widgets.MoveTrainer.host": {"other": lambda g: Board(), "controls": lambda g: []},
    # the play table is a Board: its page-facing methods, with the table's own controls
    "tricklab.widgets.PlayTable.intent": {"intent": lambda g: "pace", "value": lambda g: "faster"},
    "tricklab.widgets.PlayTable.on_intent": {"handler": lambda g: lambda intent, value: None},
    "tricklab.widgets.PlayTable.show_address": {"address": lambda g: lambda: "game=kalah"},
    "tricklab.widgets.PlayTable.control": {"name": lambda g: "large", "value": lambda g: "true"},
    "tricklab.widgets.PlayTable.set_state": {"sync_data": lambda g: {"four_colour": True}},
    "tricklab.widgets.PlayTable.use_controls": {"controls": lambda g: Controls([])},
    "tricklab.widgets.PlayTable.host": {"other": lambda g: Board(), "controls": lambda g: []},
    "tricklab.widgets.BidTrainer": {"seat": lambda g: 1},
    "tricklab.widgets.BidTrainer.choose": {"bid": lambda g: g.trainer_bid},
    "tricklab.widgets.BidTrainer.wait": {"timeout": lambda g: 5.0},
    "tricklab.widgets.MoveTrainer": {"ply": lambda g: 2},
    "tricklab.widgets.MoveTrainer.try_move": {"move": lambda g: str(g.action)},
    "tricklab.widgets.PlayTable": {
        "seat": lambda g: 0,
        "pace": lambda g: 0,
        "hold": lambda g: 0,
        "match": lambda g: None,
        "options": lambda g: {},
    },
    "tricklab.widgets.PlayTable.act": {"action": lambda g: str(g.action)},
    "tricklab.widgets.PlayTable.continue_": {"animate": lambda g: False},
    "tricklab.widgets.PlayTable.review": {"round": lambda g: None, "background": lambda g: False},
    "tricklab.widgets.PlayTable.set_pace": {"what": lambda g: "faster"},
    "tricklab.widgets.PlayTable.set_hold": {"what": lambda g: "auto"},
    "tricklab.widgets.Quiz": {"podium": lambda g: None, "question": lambda g: 1},
    "tricklab.widgets.Quiz.pick": {"card": lambda g: g.answer},
    "tricklab.widgets.Quiz.set_level": {"level": lambda g: 2},
    "tricklab.widgets.TrickExplainer": {"trump": lambda g: "S", "cards": lambda g: g.trick},
    "tricklab.widgets.TrickExplainer.type_trick": {"text": lambda g: g.trick},
    "tricklab.widgets.TrickExplainer.add_card": {"card": lambda g: str(g.rules.deck()[5])},
    "tricklab.widgets.TrickStepper": {
        "match": lambda g: None,
        "record": lambda g: None,
        "seat": lambda g: None,
        "step": lambda g: 3,
        "interval": lambda g: 500,
    },
    "tricklab.widgets.TrickStepper.go": {"step": lambda g: 2},
    "tricklab.widgets.TrickStepper.fold": {"folded": lambda g: True},
    "tricklab.widgets.TrickStepper.intent": {"intent": lambda g: "key", "value": lambda g: "ArrowRight"},
    "tricklab.widgets.TrickStepper.on_intent": {"handler": lambda g: lambda intent, value: None},
    "tricklab.widgets.TrickStepper.show_address": {"address": lambda g: lambda: "game=kalah"},
    "tricklab.widgets.TrickStepper.control": {"name": lambda g: "step", "value": lambda g: "4"},
    "tricklab.widgets.TrickStepper.host": {"other": lambda g: Board(), "controls": lambda g: []},
    "tricklab.widgets.TrickStepper.set_state": {"sync_data": lambda g: {"step": 2}},
    "tricklab.widgets.TrickStepper.use_controls": {"controls": lambda g: Controls([])},
    "tricklab.widgets.TrickStepper.jump": {"way": lambda g: "next", "to": lambda g: "part"},
    "tricklab.widgets.apps.parse_params": {"extras": lambda g: ("seat",), "long": lambda g: ("moves",)},
}

#: the games each entry point is tried with (default: Tricks & Stones)
GAMES_OF: dict[str, tuple[Game, ...]] = {
    "tricklab.Match": EVERY_GAME,
    "tricklab.get_rules": EVERY_GAME,
    "tricklab.quiz.check": (TS, BT),
    "tricklab.quiz.summary": (TS, KALAH),
    "tricklab.advisor": CARD_GAMES,
    "tricklab.hints.hint": (TS, KALAH),
    "tricklab.moves": BOARD_GAMES,
    "tricklab.puzzles": BOARD_GAMES,
    "tricklab.review": (TS,),
    "tricklab.links": (JV, KALAH),
    "tricklab.widgets.PlayTable": (TS, KALAH),
    "tricklab.widgets.Quiz": (TS, MANDALA),
    "tricklab.widgets.TrickStepper": (JV, KALAH),
    "tricklab.widgets.TrickExplainer": (BT,),
    "tricklab.widgets.MoveTrainer": (KALAH,),
    "tricklab.widgets.BidTrainer": (TS, JV),
}

#: entry points that refuse even their valid examples, by design (a game without cards or tricks)
REFUSED = {
    "tricklab.Card",  # the common base of the card families
    "Rules.card[kalah]",
    "Rules.legal_plays[kalah]",
    "Rules.resolve_trick[kalah]",
    "Rules.legal_plays[mandala]",
    "Rules.resolve_trick[mandala]",
}

#: the objects whose methods are entry points, made fresh for each call (methods may change them)
RECEIVERS: dict[str, Callable[[Game], Any]] = {
    "tricklab.Match": lambda g: g.match(),
    "tricklab.RandomBot": lambda g: tricklab.RandomBot(1),
    "tricklab.Rulebook": lambda g: g.rules.rulebook,
    "tricklab.advisor.DealSampler": lambda g: advisor.DealSampler(g.rules, g.knowledge),
    "tricklab.advisor.Advice": lambda g: g.advice,
    "tricklab.moves.MoveOutcome": lambda g: g.outcomes[0],
    "tricklab.puzzles.PositionQuestion": lambda g: g.question,
    "tricklab.widgets.Board": lambda g: tricklab.widgets.Board(),
    "tricklab.widgets.BidTrainer": lambda g: g.trainer(),
    "tricklab.widgets.MoveTrainer": lambda g: tricklab.widgets.MoveTrainer(g.name, seed=2, ply=2),
    "tricklab.widgets.PlayTable": lambda g: tricklab.widgets.PlayTable(g.name, g.players, seed=2, pace=0, hold=0),
    "tricklab.widgets.Quiz": lambda g: tricklab.widgets.Quiz(g.name, g.players, seed=2, count=2),
    "tricklab.widgets.TrickExplainer": lambda g: tricklab.widgets.TrickExplainer(g.name, g.players, cards=g.trick),
    "tricklab.widgets.TrickStepper": lambda g: tricklab.widgets.TrickStepper(g.match()),
}


# --- finding the entry points -------------------------------------------------------------------


@dataclass(frozen=True)
class EntryPoint:
    """One public callable: ``key`` names it (``tricklab.quiz.check``, ``Rules.apply``), ``make``
    gives the callable for a game (a bound method of a fresh receiver), ``signature`` its
    parameters (without ``self``)."""

    key: str
    game: Game
    make: Callable[[Game], Callable[..., Any]] = field(compare=False)
    signature: inspect.Signature = field(compare=False)

    @property
    def id(self) -> str:
        return f"{self.key}[{self.game.name}]"

    @property
    def params(self) -> list[inspect.Parameter]:
        return list(self.signature.parameters.values())


def _public_names(module: Any) -> list[str]:
    """``__all__``, and the public functions and classes defined in the module itself."""
    names = set(getattr(module, "__all__", ()))
    for name, value in vars(module).items():
        if name.startswith("_") or not (inspect.isfunction(value) or inspect.isclass(value)):
            continue
        if value.__module__ == module.__name__:
            names.add(name)
    return sorted(names)


def _games_of(key: str) -> tuple[Game, ...]:
    for prefix in sorted(GAMES_OF, key=len, reverse=True):
        if key == prefix or key.startswith(prefix + "."):
            return GAMES_OF[prefix]
    return (TS,)


def _methods(cls: type) -> Iterator[tuple[str, Any]]:
    """The public methods (and class methods) tricklab defines on ``cls`` or its bases."""
    for name in sorted(dir(cls)):
        if name.startswith("_"):
            continue
        owner = next(base for base in cls.__mro__ if name in vars(base))
        if not owner.__module__.startswith("tricklab"):
            continue
        value = vars(owner)[name]
        if isinstance(value, (classmethod, staticmethod)):
            yield name, value.__func__
        elif inspect.isfunction(value):
            yield name, value


def _without_self(function: Any, *, method: bool = True) -> inspect.Signature:
    """The signature of a function, or of a method (or class method) without its first parameter."""
    signature = inspect.signature(function)
    params = list(signature.parameters.values())
    if method and params and params[0].name in ("self", "cls"):
        params = params[1:]
    return signature.replace(parameters=params)


def _kind(cls: type) -> str:
    if issubclass(cls, BaseException):
        return "error"
    if getattr(cls, "_is_protocol", False):
        return "protocol"
    if issubclass(cls, enum.Enum):
        return "enum"
    if cls is Rules:
        return "rules"
    return "class"


@cache
def entry_points() -> tuple[EntryPoint, ...]:
    found: list[EntryPoint] = []
    seen: set[int] = set()  # a function or class exported by two modules is found once

    def add(key: str, make: Callable[[Game], Callable[..., Any]], function: Any, *, method: bool = True) -> None:
        signature = _without_self(function, method=method)
        for game in _games_of(key):
            found.append(EntryPoint(key, game, make, signature))

    for module_name in MODULES:
        module = importlib.import_module(module_name)
        for name in _public_names(module):
            value = getattr(module, name)
            key = f"{module_name}.{name}"
            if id(value) in seen:
                continue
            seen.add(id(value))
            if inspect.isfunction(value):
                add(key, lambda g, f=value: f, value, method=False)
                continue
            if not inspect.isclass(value) or _kind(value) in ("error", "protocol", "enum"):
                continue
            if _kind(value) == "rules":
                continue  # each game's rules, below
            if key not in RECORDS:
                add(key, lambda g, c=value: c, value.__init__ if "__init__" in vars(value) else value)
            for method_name, method in _methods(value):
                method_key = f"{key}.{method_name}"
                if isinstance(inspect.getattr_static(value, method_name), (classmethod, staticmethod)):
                    add(method_key, lambda g, c=value, n=method_name: getattr(c, n), method)
                else:
                    receiver = RECEIVERS.get(key)
                    if receiver is None:
                        receiver = _no_receiver(key)
                    add(method_key, lambda g, r=receiver, n=method_name: getattr(r(g), n), method)
    for game in EVERY_GAME:
        for method_name, method in _methods(type(game.rules)):
            if method_name in RULES_API:
                found.append(
                    EntryPoint(
                        f"Rules.{method_name}",
                        game,
                        lambda g, n=method_name: getattr(g.rules, n),
                        _without_self(method),
                    )
                )
    return tuple(found)


def _no_receiver(key: str) -> Callable[[Game], Any]:
    def missing(game: Game) -> Any:
        raise LookupError(f"no example object of {key} to call its methods on: add one to RECEIVERS")

    return missing


def unsorted_rules_methods() -> list[str]:
    """Public rules methods of any game that are neither in RULES_API nor in RULES_HOOKS."""
    return sorted({name for g in EVERY_GAME for name, _ in _methods(type(g.rules))} - RULES_API - RULES_HOOKS)


# --- calling them -------------------------------------------------------------------------------


#: words by which a message may name a parameter instead of by its own name
SYNONYMS: dict[str, tuple[str, ...]] = {
    "text": ("record",),
    "code": ("moves",),
    "values": ("card",),
    "trick": ("card",),
    "cards": ("card",),
}

#: the keyword a ``**options`` parameter is given with a hostile value
BOGUS = "bogus_option"


class NoExample(LookupError):
    pass


def example(point: EntryPoint, param: inspect.Parameter) -> Any:
    """A valid value of ``param`` for ``point``; its default where it has one and no example."""
    found = EXAMPLES.get(point.key, {}).get(param.name)
    if found is not None:
        return found(point.game)
    if param.name in BY_NAME:
        return BY_NAME[param.name](point.game)
    if param.kind is param.VAR_POSITIONAL:
        return ()
    if param.default is not param.empty:
        return param.default
    raise NoExample(f"{point.key}: no valid example of parameter {param.name!r}")


def call_with(point: EntryPoint, values: dict[str, Any]) -> Any:
    """Call the entry point with these values (``**options`` take a dict, ``*args`` a tuple)."""
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    for param in point.params:
        value = values[param.name]
        if param.kind is param.POSITIONAL_ONLY:
            args.append(value)
        elif param.kind is param.VAR_POSITIONAL:
            args.extend(value)
        elif param.kind is param.VAR_KEYWORD:
            kwargs.update(value)
        else:
            kwargs[param.name] = value
    return point.make(point.game)(*args, **kwargs)


def valid_values(point: EntryPoint) -> dict[str, Any]:
    return {param.name: example(point, param) for param in point.params}


@dataclass(frozen=True)
class HostileCall:
    """One call with a hostile value: ``name`` is the parameter given ``value`` (``label`` says
    which); ``default`` is whether that value is the parameter's default, so that the call is
    the call without it and a refusal may be about the other arguments."""

    name: str
    label: str
    value: Any
    call: Callable[[], Any]
    default: bool


def hostile_calls(point: EntryPoint) -> Iterator[HostileCall]:
    """Every parameter of ``point`` given every hostile value, the others their examples."""
    for param in point.params:
        for label, make in HOSTILE.items():
            bad = make()
            values = valid_values(point)
            if param.kind is param.VAR_POSITIONAL:
                values[param.name] = (bad,)
            elif param.kind is param.VAR_KEYWORD:
                values[param.name] = {**values[param.name], BOGUS: bad}
            else:
                values[param.name] = bad
            name = BOGUS if param.kind is param.VAR_KEYWORD else param.name
            default = param.default is not param.empty and param.default is bad
            yield HostileCall(name, label, bad, lambda v=values: call_with(point, v), default)


def problem(call: Callable[[], Any], name: str, value: Any, *, named: bool = True) -> str | None:
    """What is wrong with the call's outcome, or ``None``: it must succeed or raise a
    TricklabError whose message is short and names the parameter or quotes the value."""
    try:
        call()
    except TricklabError as exc:
        message = str(exc)
        if not message or len(message) > MAX_MESSAGE:
            return f"{type(exc).__name__} of {len(message):,} characters: {message[:120]!r}"
        quoted = describe(value)
        empty = isinstance(value, (list, dict)) and not value  # a message may say what is missing instead
        names = (name, *SYNONYMS.get(name, ()))
        if named and not empty and quoted not in message and not any(n in message for n in names):
            return f"{type(exc).__name__} names neither {name!r} nor {quoted[:60]}: {message[:160]!r}"
        return None
    except Exception as exc:
        try:
            text = str(exc)[:160] if not isinstance(exc, RecursionError) else "recursion"
        except Exception:
            text = "(no message: str() fails)"
        return f"{type(exc).__name__}: {text!r}"
    return None


POINTS = entry_points()


# --- the tests ----------------------------------------------------------------------------------


def test_the_corpus_is_not_vacuous() -> None:
    keys = {p.key for p in POINTS}
    for named in (
        "tricklab.get_rules",
        "tricklab.Match",
        "tricklab.Match.apply",
        "Rules.resolve_trick",
        "Rules.apply",
        "tricklab.quiz.questions",
        "tricklab.quiz.check",
        "tricklab.quiz.summary",
        "tricklab.quiz.suggested_level",
        "tricklab.advisor.advise",
        "tricklab.advisor.Knowledge.from_match",
        "tricklab.hints.hint",
        "tricklab.moves.try_moves",
        "tricklab.puzzles.events_of",
        "tricklab.review.review_round",
        "tricklab.links.match_from_moves",
        "tricklab.widgets.Quiz",
        "tricklab.widgets.BidTrainer",
        "tricklab.widgets.PlayTable",
        "tricklab.widgets.TrickStepper",
        "tricklab.widgets.TrickExplainer",
        "tricklab.widgets.MoveTrainer",
        "tricklab.widgets.PlayTable.act",
        "tricklab.widgets.apps.replay_app",
    ):
        assert named in keys, f"{named} is not among the entry points found"
    with_params = [p for p in POINTS if p.params]
    assert len(keys) > 150 and len(with_params) > 250
    assert sum(len(p.params) for p in POINTS) > 500


def test_every_parameter_has_a_valid_example() -> None:
    missing = []
    for point in POINTS:
        try:
            valid_values(point)
        except NoExample as exc:
            missing.append(str(exc))
    assert missing == [], "give these parameters a valid example in EXAMPLES or BY_NAME:\n" + "\n".join(missing)


def test_every_rules_method_is_sorted() -> None:
    assert unsorted_rules_methods() == [], "put each in RULES_API (an entry point) or RULES_HOOKS"


def test_the_tables_name_only_what_exists() -> None:
    """No example, receiver, record or sorted rules method is left over from a name that is gone."""
    keys = {p.key for p in POINTS}
    ids = {p.id for p in POINTS}
    classes = {key.rsplit(".", 1)[0] for key in keys} | keys
    assert sorted(set(EXAMPLES) - keys) == []
    assert sorted(set(RECEIVERS) - classes) == []
    assert sorted(r for r in REFUSED if r not in keys and r not in ids) == []
    assert sorted(p for p in GAMES_OF if not any(k == p or k.startswith(p + ".") for k in keys)) == []
    for key, examples in EXAMPLES.items():
        params = {param.name for p in POINTS if p.key == key for param in p.params}
        assert sorted(set(examples) - params) == [], key
    methods = {name for g in EVERY_GAME for name, _ in _methods(type(g.rules))}
    assert sorted((RULES_API | RULES_HOOKS) - methods) == []
    found = {f"{m}.{n}" for m in MODULES for n in _public_names(importlib.import_module(m))}
    assert sorted(RECORDS - found) == []


@pytest.mark.parametrize("point", [p for p in POINTS if p.params], ids=lambda p: p.id)
def test_valid_examples_are_accepted(point: EntryPoint) -> None:
    """The valid examples are valid: the call with them does not fail (else a hostile value
    would be refused for the wrong reason)."""
    try:
        call_with(point, valid_values(point))
    except TricklabError as exc:
        if point.id in REFUSED or point.key in REFUSED:
            return
        pytest.fail(f"the valid examples are refused: {type(exc).__name__}: {exc}")


@pytest.mark.parametrize("point", [p for p in POINTS if p.params], ids=lambda p: p.id)
def test_hostile_arguments_get_a_short_typed_error(point: EntryPoint) -> None:
    found = []
    named = point.id not in REFUSED and point.key not in REFUSED
    for hostile in hostile_calls(point):
        wrong = problem(hostile.call, hostile.name, hostile.value, named=named and not hostile.default)
        if wrong is not None:
            found.append(f"{hostile.name}={hostile.label}: {wrong}")
    assert found == [], f"{point.id}:\n" + "\n".join(found)


# --- the reported cases, one by one ------------------------------------------------------------


def _refused(call: Callable[[], Any]) -> TricklabError:
    with pytest.raises(TricklabError) as info:
        call()
    assert len(str(info.value)) <= MAX_MESSAGE
    return info.value


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: quiz.questions("band-of-tricks", level=HUGE), "not a 5,001-digit number"),
        (lambda: quiz.questions("band-of-tricks", count=LONG_TEXT), "(1,000,000 characters)"),
        (lambda: quiz.check(TS.question, HUGE), "not a 5,001-digit number"),
        (lambda: quiz.suggested_level("kalah", 1, HUGE, 5), "not a 5,001-digit number"),
        (lambda: advisor.advise(TS.rules, TS.bid_view, samples=HUGE), "not a 5,001-digit number"),
        (lambda: advisor.advise(TS.rules, TS.bid_view, progress=LONG_TEXT), "(1,000,000 characters)"),
        (lambda: advisor.Knowledge.from_match(TS.match(), HUGE), "not a 5,001-digit number"),
        (lambda: tricklab.widgets.Quiz(level=HUGE), "not a 5,001-digit number"),
        (lambda: tricklab.widgets.BidTrainer(seat=HUGE, samples=4), "not a 5,001-digit number"),
        (lambda: tricklab.widgets.PlayTable(seat=LONG_TEXT), "(1,000,000 characters)"),
    ],
)
def test_huge_values_are_described_not_printed(call: Callable[[], Any], words: str) -> None:
    assert words in str(_refused(call))


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: advisor.advise(None, TS.bid_view), "needs a game's rules"),  # type: ignore[arg-type]
        (lambda: advisor.Knowledge.from_match(None, 0), "reads a Match"),  # type: ignore[arg-type]
        (lambda: quiz.check(None, "AS"), "marks a quiz question"),  # type: ignore[arg-type]
        (lambda: puzzles.events_of(KALAH.rules, 5, "sow 1"), "state must be a state of Kalah"),
        (lambda: hints.hint(TS.rules, None, TS.legal, heuristic_bot(TS.rules, TS.seat)), "view must be"),  # type: ignore[arg-type]
        (lambda: moves.try_moves(KALAH.rules, 5), "state must be a state of Kalah"),  # type: ignore[arg-type]
        (lambda: quiz.summary(None), "results are the verdicts"),  # type: ignore[arg-type]
        (lambda: tricklab.widgets.PlayTable("kalah", pace=None), "pace must be"),  # type: ignore[arg-type]
        (lambda: tricklab.widgets.Quiz("mandala", question=None), "question is the number"),  # type: ignore[arg-type]
        (lambda: tricklab.widgets.TrickStepper(step=None), "step is the number"),  # type: ignore[arg-type]
        (lambda: tricklab.widgets.TrickExplainer("band-of-tricks", cards=5), "cards is text"),  # type: ignore[arg-type]
        (lambda: tricklab.widgets.BidTrainer(samples=None), "samples must be"),  # type: ignore[arg-type]
        (lambda: tricklab.widgets.PlayTable(hold="x"), "hold must be"),  # type: ignore[arg-type]
    ],
)
def test_wrong_types_get_typed_errors_naming_the_argument(call: Callable[[], Any], words: str) -> None:
    assert words in str(_refused(call))


def test_a_stepper_without_arguments_is_the_default_game_and_a_game_gets_its_own_player_count() -> None:
    default = tricklab.widgets.TrickStepper()
    assert (default.rules.name, default.rules.players) == ("tricks-and-stones", 4)
    kalah = tricklab.widgets.TrickStepper(game="kalah", seed=1)
    assert kalah.rules.players == 2 and kalah.match.is_over
    assert tricklab.widgets.BidTrainer("jewel-vault", samples=4).rules.players == 4


def test_another_seats_turn_is_named_by_both_seats_names() -> None:
    match = KALAH.rules.new_match(seed=1)
    mover = match.to_play
    assert mover is not None
    error = _refused(lambda: moves.try_moves(match, seat=1 - mover))
    assert str(error).startswith(
        f"it is {KALAH.rules.seat_name(mover)}'s turn, not {KALAH.rules.seat_name(1 - mover)}'s (seat {1 - mover})"
    )


def test_the_check_sees_an_untyped_error() -> None:
    """The check above is not vacuous: an AttributeError, a long message or one that names
    nothing are all found."""

    def attribute(x: object) -> None:
        raise AttributeError("'NoneType' object has no attribute 'rules'")

    def long(x: object) -> None:
        raise tricklab.InvalidOption(f"not {x}")

    def vague(x: object) -> None:
        raise tricklab.InvalidOption("something is wrong")

    assert problem(lambda: attribute(None), "x", None) is not None
    assert problem(lambda: long(LONG_TEXT), "x", LONG_TEXT) is not None
    assert problem(lambda: vague(5), "x", 5) is not None
    assert problem(lambda: long(5), "x", 5) is None


# --- the widgets' intent handlers ----------------------------------------------------------------

#: the hostile values as the page can send them: text (or no value)
PAGE_TEXT: dict[str, str | None] = {
    "None": None,
    "empty": "",
    "'x'": "x",
    "5": "5",
    "-1": "-1",
    "2.0": "2.0",
    "True": "True",
    "[]": "[]",
    "{}": "{}",
    "10**5000": "1" + "0" * 5000,
    "1 MB of text": LONG_TEXT,
    "5,000 deep": "[" * 5000 + "]" * 5000,
    "control characters": "\x00\u202e\n",
}
#: every intent some widget handles (and one none does)
EVERY_INTENT = (
    "act",
    "add",
    "answer",
    "bid",
    "chamber",
    "clear",
    "confirm",
    "continue",
    "copy-link",
    "gem-mode",
    "hold",
    "key",
    "last-trick",
    "level",
    "new-deal",
    "pace",
    "pick",
    "play",
    "predict",
    "review",
    "try",
    "zero",
    "no-such-intent",
)
WIDGETS = [
    (key, game)
    for key in sorted(RECEIVERS)
    if key.startswith("tricklab.widgets.") and key != "tricklab.widgets.Board"
    for game in _games_of(key)
]


def test_every_public_widget_takes_intents() -> None:
    public = {f"tricklab.widgets.{name}" for name in tricklab.widgets.__all__} - {"tricklab.widgets.Board"}
    assert {key for key, _ in WIDGETS} == public


@pytest.mark.parametrize(("key", "game"), WIDGETS, ids=[f"{k.rsplit('.', 1)[1]}[{g.name}]" for k, g in WIDGETS])
def test_intents_from_the_page_never_raise(key: str, game: Game) -> None:
    """Whatever text the page sends with any intent, no handler raises, and what the widget
    shows back never quotes a long value whole."""
    widget = RECEIVERS[key](game)
    offered = set(re.findall(r'data-intent="([^"]*)"', str(widget.board.scene.get("html", ""))))
    for intent in sorted(offered | set(EVERY_INTENT)):
        for label, value in PAGE_TEXT.items():
            try:
                widget.board.intent(intent, value)
            except Exception as exc:
                pytest.fail(f"{key} intent {intent}={label}: {type(exc).__name__}: {str(exc)[:200]}")
            if value is not None and len(value) > 100:
                shown = str(widget.board.scene.get("html", ""))
                assert value[:100] not in shown, f"{key} intent {intent}={label} is quoted whole"
    if getattr(widget, "review", None) is not None and hasattr(widget.review, "wait"):
        widget.review.wait(30)
