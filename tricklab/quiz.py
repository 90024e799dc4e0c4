"""Who wins this trick? Seeded quiz questions, marked by the rules engine.

A quiz is a game, a player count, a level and a seed. The same four give the same
questions on every computer, so a teacher can share one link and the whole class
takes the same quiz:

>>> from tricklab import quiz
>>> first = quiz.questions("band-of-tricks", players=4, seed=7, level=2, count=3)[0]
>>> first.prompt
'Which card wins this trick?'
>>> result = quiz.check(first, first.answer[0])
>>> result.correct, result.reasons[0].rule_id
(True, 'bt.two-suits')

Questions are found by dealing random tricks and keeping those that fit the level.
Each level is a small test on the engine's :class:`~tricklab.games.base.TrickOutcome`
(how many suits, is there a trump, ...); it never decides who wins. Who wins, and why,
always comes from the game's ``resolve_trick``, both when a question is made and when
an answer is marked.

Feedback answers the learner's pick: :attr:`Verdict.deciding` is the engine's reason that
compares the winner with the card picked (for a podium, :attr:`Verdict.places` marks each
place and gives the reasons that place each misplaced card). A podium question counts as
right in the score only when every place is right; the places right are shown beside it.
At the end, :func:`summary` reviews the missed questions and :func:`suggested_level` says
which level to take next.

A game without tricks (Kalah, Mandala) declares position levels instead of trick levels;
its questions are made and marked by :mod:`tricklab.puzzles` (``puzzles.questions``,
``puzzles.check``), and :func:`questions` here says so. :func:`steps` lists a game's levels
of either kind, and :func:`summary` and :func:`suggested_level` work for both.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import islice, pairwise
from types import MappingProxyType
from typing import Any, Literal

from .cards import SUIT_NAME, SUIT_SYMBOL, Card
from .errors import InvalidCard, InvalidOption, InvalidTrick, describe
from .explain import Reason
from .games import GAMES, find_game, rules_for
from .games.base import CardLike, Rules, TrickOutcome, check_seed
from .games.capabilities import ContextItems, Level, PositionLevel
from .puzzles import PositionQuestion, PositionVerdict

DEFAULT_COUNT = 10
MAX_COUNT = 100
# The next level is suggested at this share of right answers or more; below BACK_SHARE, the
# level before. In between, the same level again.
UP_SHARE = 0.8
BACK_SHARE = 0.5
# Dealing tricks until one fits a level: every level fits a good share of the tricks the
# sampler deals, so this many tries without a fit would mean a mistake in a level.
MAX_TRIES = 20_000

Kind = Literal["winner", "podium"]


# --- the levels: each game declares its own (Capabilities.quiz) ------------------------------------


def levels(game: str) -> tuple[Level, ...]:
    """The trick quiz levels of ``game`` (a name or alias), easiest first (empty for a game
    whose quiz asks about positions: see :func:`steps`)."""
    return find_game(game).capabilities.quiz.levels


def steps(game: str) -> tuple[Level, ...] | tuple[PositionLevel, ...]:
    """The quiz levels of ``game`` of either kind, easiest first: its trick levels, or for a
    game without tricks its position levels (:mod:`tricklab.puzzles`)."""
    return find_game(game).capabilities.quiz.steps


def asks_positions(game: str) -> bool:
    """Whether ``game``'s quiz asks about positions (:mod:`tricklab.puzzles`) rather than tricks."""
    return bool(find_game(game).capabilities.quiz.positions)


def _level(game: str, number: object) -> Level:
    """Level ``number`` of ``game``'s trick quiz; :class:`InvalidOption` if there is none."""
    cls = find_game(game)
    if asks_positions(game):
        raise InvalidOption(
            f"{cls.title} has no tricks: its quiz asks about positions, with tricklab.puzzles.questions"
        )
    steps = cls.capabilities.quiz.levels
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(steps):
        raise InvalidOption(f"{cls.title} has quiz levels 1 to {len(steps)}, not {describe(number)}")
    return steps[number - 1]


def _step(game: str, number: object) -> Level | PositionLevel:
    """Level ``number`` of ``game``'s quiz of either kind; :class:`InvalidOption` if there is none."""
    cls = find_game(game)
    found = cls.capabilities.quiz.steps
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(found):
        raise InvalidOption(f"{cls.title} has quiz levels 1 to {len(found)}, not {describe(number)}")
    return found[number - 1]


# --- questions and answers ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True, repr=False)
class Question:
    """One quiz question: a trick (cards in play order, first = led) and its context.

    ``kind`` is ``"winner"`` (click the card that wins) or ``"podium"`` (click every
    card from first place to last). ``outcome`` is the engine's ranking of the trick and
    ``answer`` the right answer it gives.
    """

    game: str
    players: int
    level: int
    number: int
    cards: tuple[Card, ...]
    context: Mapping[str, str | None] = field(hash=False)
    kind: Kind
    prompt: str
    outcome: TrickOutcome = field(compare=False)

    @property
    def answer(self) -> tuple[Card, ...]:
        """The right answer: the winning card, or every card from first place to last."""
        if self.kind == "winner":
            return (self.outcome.winning_card,)
        return self.outcome.ranked_cards

    @property
    def rules(self) -> Rules[Any]:
        return rules_for(self.game, self.players)

    @property
    def setting(self) -> str:
        """The trick's context in words, as the prompt says it ("Trump is hearts ♥."), or ``""``."""
        return _setting(self.context)

    def __repr__(self) -> str:
        cards = " ".join(str(c) for c in self.cards)
        context = "".join(f", {k}={v!r}" for k, v in self.context.items())
        return f"<Question {self.game} level {self.level} #{self.number}: {self.kind} of [{cards}]{context}>"


@dataclass(frozen=True, slots=True)
class Place:
    """One place of an answer: the card the learner put there and the card the engine does.

    ``reasons`` are, for a misplaced card, the engine's reasons that put it in its own
    place (the card just above it beats it, it beats the card just below); empty when the
    place is right.
    """

    place: int
    given: Card
    right: Card
    reasons: tuple[Reason, ...] = ()

    @property
    def correct(self) -> bool:
        return self.given is self.right


@dataclass(frozen=True, slots=True, repr=False)
class Verdict:
    """How an answer fared: ``correct``, the ``right`` answer and the engine's ``reasons``.

    ``deciding`` is the part of ``reasons`` that answers the learner's pick, ``places``
    marks each place of the answer. A podium answer is ``correct`` only when every place
    is; :attr:`places_right` counts the places that are.
    """

    question: Question
    given: tuple[Card, ...]
    correct: bool
    right: tuple[Card, ...]
    reasons: tuple[Reason, ...]
    outcome: TrickOutcome = field(compare=False)

    @property
    def places_right(self) -> int:
        """How many cards of the answer are in their right place."""
        return sum(a is b for a, b in zip(self.given, self.right, strict=True))

    @property
    def places(self) -> tuple[Place, ...]:
        """Each place of the learner's answer, marked, with the reasons for a misplaced card."""
        return tuple(
            Place(i, given, right, () if given is right else placing_reasons(self.outcome, given))
            for i, (given, right) in enumerate(zip(self.given, self.right, strict=True))
        )

    @property
    def deciding(self) -> tuple[Reason, ...]:
        """The engine's reasons that decide the learner's answer: why the winner beats the card
        picked (or, when right, why it wins); for a podium, the reasons that place the first
        misplaced card."""
        if self.correct:
            return winning_reasons(self.outcome)
        if self.question.kind == "winner":
            return beating_reasons(self.outcome, self.right[0], self.given[0])
        return next(place.reasons for place in self.places if not place.correct)

    @property
    def feedback(self) -> str:
        """What the learner reads first: the answer and the reason that decides it."""
        why = " ".join(reason.text for reason in self.deciding)
        why = f": {why}" if why else "."
        best = self.right[0].pretty
        if self.question.kind == "winner":
            if self.correct:
                return f"Right, {best} wins{why}"
            return f"You chose {self.given[0].pretty}, but {best} wins{why}"
        order = ", ".join(card.pretty for card in self.right)
        if self.correct:
            return f"Right, all {len(self.right)} places: {order}."
        return f"{self.places_right} of {len(self.right)} places right. The places are {order}."

    def __repr__(self) -> str:
        given = " ".join(str(c) for c in self.given)
        right = " ".join(str(c) for c in self.right)
        return f"<Verdict {'right' if self.correct else 'wrong'}: gave [{given}], answer [{right}]>"


# --- the reasons that answer a pick: always the engine's own --------------------------------------
#
# A trick's reasons compare pairs of its cards (the winner with each card in most games, each
# card with the next one down) or say why one card is where it is (Jewel Vault: a card off the
# led suit cannot win). The quiz only chooses among them. It never ranks a smaller trick made
# of some of the cards: a smaller trick can change the rule that applies (Band of Tricks counts
# the suits in the trick, and without the led card the led suit changes), so its reasons could
# be wrong for the trick asked.


def beating_reasons(outcome: TrickOutcome, above: Card, below: Card) -> tuple[Reason, ...]:
    """The engine's reasons why ``above`` places above ``below`` in ``outcome``.

    The reason comparing the two cards if there is one; else the chain of reasons comparing
    each card with the next from ``above`` down to ``below``; else the reasons about
    ``below`` alone; else the trick's general reasons (those citing no card).
    """
    ranked = _ranked(outcome)
    if not isinstance(above, Card) or above not in ranked:
        raise InvalidCard(f"above must be a card of the trick ({_listed(ranked)}), not {describe(above)}")
    if not isinstance(below, Card) or below not in ranked:
        raise InvalidCard(f"below must be a card of the trick ({_listed(ranked)}), not {describe(below)}")
    if ranked.index(above) >= ranked.index(below):
        raise InvalidCard(f"{above} does not place above {below} in this trick ({_listed(ranked)}, first place first)")
    pairs = {r.cards: r for r in outcome.reasons if len(r.cards) == 2}
    if (above, below) in pairs:
        return (pairs[above, below],)
    steps = ranked[ranked.index(above) : ranked.index(below) + 1]
    chain = [pairs.get((a, b)) for a, b in pairwise(steps)]
    if all(chain):
        return tuple(r for r in chain if r is not None)
    alone = tuple(r for r in outcome.reasons if r.cards == (below,))
    return alone or tuple(r for r in outcome.reasons if not r.cards)


def winning_reasons(outcome: TrickOutcome) -> tuple[Reason, ...]:
    """Why the winner wins: the engine's reason about the whole trick if it names every card
    (Band of Tricks' suit count), with why it beats the card in second place where that is
    another rule; else why it beats the card in second place."""
    _ranked(outcome)
    if len(outcome.cards) < 2:
        return tuple(outcome.reasons)
    second = beating_reasons(outcome, outcome.ranked_cards[0], outcome.ranked_cards[1])
    whole = next((r for r in outcome.reasons if set(r.cards) == set(outcome.cards)), None)
    if whole is None:
        return second
    # the second place's reason too where it cites another rule (equal numbers: the later card)
    return (whole, *(r for r in second if r.rule_id != whole.rule_id))


def placing_reasons(outcome: TrickOutcome, card: Card) -> tuple[Reason, ...]:
    """Why ``card`` is in its own place: the card just above beats it, it beats the card just
    below (the engine's reasons, each once)."""
    ranked = _ranked(outcome)
    if not isinstance(card, Card) or card not in ranked:
        raise InvalidCard(f"card must be a card of the trick ({_listed(ranked)}), not {describe(card)}")
    place = ranked.index(card)
    found: list[Reason] = []
    if place > 0:
        found += beating_reasons(outcome, ranked[place - 1], card)
    if place + 1 < len(ranked):
        found += beating_reasons(outcome, card, ranked[place + 1])
    return tuple(dict.fromkeys(found))


def _ranked(outcome: object) -> tuple[Card, ...]:
    """The outcome's cards, first place first, once it is checked to be a trick's outcome."""
    if not isinstance(outcome, TrickOutcome):
        raise InvalidOption(f"outcome must be a trick's outcome (rules.resolve_trick(...)), not {describe(outcome)}")
    return outcome.ranked_cards


def _listed(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


def questions(
    game: str,
    players: int | None = None,
    seed: int = 0,
    level: int = 1,
    count: int = DEFAULT_COUNT,
    podium: bool | None = None,
) -> tuple[Question, ...]:
    """``count`` questions of ``game`` at ``level``, the same for the same game, players,
    seed and level (a longer quiz starts with the questions of a shorter one).

    ``podium=None`` asks for every place where the level is about places (Tricks &
    Stones level 3) and for the winner elsewhere; ``True`` or ``False`` always or never
    asks for every place. ``players=None`` means the game's default count (four where the
    game allows it). Bad values raise a :class:`~tricklab.TricklabError` that says what is
    allowed.
    """
    rules = rules_for(game, players)
    step = _level(rules.name, level)
    seed = check_seed(seed)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
        raise InvalidOption(f"a quiz has 1 to {MAX_COUNT} questions, not {describe(count)}")
    kind = _kind(rules, step, podium)
    return tuple(islice(_stream(rules, step, seed, kind), count))


def check(question: Question, answer: CardLike | Iterable[CardLike]) -> Verdict:
    """Mark an answer with the engine: ``resolve_trick`` ranks the trick again and says why.

    ``answer`` is one card for a ``"winner"`` question, or every card of the trick from
    first place to last (a list, or text like ``"8S AH 7H KD"``) for a ``"podium"`` one.
    A card that is not in the trick raises :class:`~tricklab.InvalidCard`; a podium that
    does not hold each card of the trick once raises :class:`~tricklab.InvalidTrick`.
    """
    if not isinstance(question, Question):
        if isinstance(question, PositionQuestion):
            raise InvalidOption("check marks a trick question; a position question is marked by tricklab.puzzles.check")
        raise InvalidOption(f"check marks a quiz question (from tricklab.quiz.questions), not {describe(question)}")
    rules = question.rules
    outcome = rules.resolve_trick(question.cards, **question.context)
    given = _answer_cards(rules, question, answer)
    right = (outcome.winning_card,) if question.kind == "winner" else outcome.ranked_cards
    correct = all(a is b for a, b in zip(given, right, strict=True))
    return Verdict(question, given, correct, right, tuple(outcome.reasons), outcome)


# --- the end of a quiz: the misses reviewed, the next level suggested -----------------------------


@dataclass(frozen=True, slots=True, repr=False)
class QuizSummary:
    """The end of a quiz: the score, the ``missed`` questions to review and the level to take next.

    ``asked`` counts every question of the quiz, answered or not; a question left open
    counts as not right, and a podium question counts as right only when every place is.
    """

    game: str
    players: int
    level: int
    asked: int
    answered: int
    right: int
    missed: tuple[Verdict | PositionVerdict, ...]
    suggested: int

    @property
    def score_text(self) -> str:
        return f"{self.right} of {self.asked} right"

    @property
    def move(self) -> Literal["up", "stay", "back"]:
        """Whether the suggested level is the next one, the same or the one before."""
        return "up" if self.suggested > self.level else "back" if self.suggested < self.level else "stay"

    @property
    def advice(self) -> str:
        """The suggestion in words, with the rule it follows."""
        top = len(steps(self.game))
        step = steps(self.game)[self.suggested - 1]
        need = _needed(UP_SHARE, self.asked)
        if self.move == "up":
            return f"{self.score_text}: ready for level {step.number}, {step.title.lower()}."
        if self.move == "back":
            return (
                f"{self.score_text}: go back to level {step.number}, {step.title.lower()}, then try level "
                f"{self.level} again."
            )
        if self.level == top and self.right >= need:
            new = "positions" if asks_positions(self.game) else "tricks"
            return f"{self.score_text}: level {self.level} is the top level. Well done; another seed deals new {new}."
        return f"{self.score_text}: try level {self.level} again; {need} of {self.asked} right moves you up."

    def __repr__(self) -> str:
        return (
            f"<QuizSummary {self.game} level {self.level}: {self.right}/{self.asked} right, "
            f"{len(self.missed)} missed, next level {self.suggested}>"
        )


def suggested_level(game: str, level: int, right: int, asked: int) -> int:
    """The level to take next after ``right`` of ``asked`` right at ``level``: the next level
    at ``UP_SHARE`` (8 of 10) or more, the level before below ``BACK_SHARE`` (5 of 10), else
    the same level; never past the first or the last level."""
    top = len(_levels_checked(game, level))
    for name, value in (("right", right), ("asked", asked)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidOption(f"{name} is a whole number of questions, not {describe(value)}")
    if not 1 <= asked <= MAX_COUNT:
        raise InvalidOption(f"asked is the number of questions of a quiz, 1 to {MAX_COUNT}, not {describe(asked)}")
    if not 0 <= right <= asked:
        raise InvalidOption(f"right must be 0 to asked ({asked}), not {describe(right)}")
    if right >= _needed(UP_SHARE, asked):
        return min(level + 1, top)
    if right < _needed(BACK_SHARE, asked):
        return max(level - 1, 1)
    return level


def summary(results: Iterable[Verdict | PositionVerdict | None]) -> QuizSummary:
    """The end of a quiz from each question's verdict, in order (``None``: left open): the
    score, the missed questions and :func:`suggested_level`. The verdicts may be the trick
    quiz's or the position quiz's (:func:`tricklab.puzzles.check`)."""
    if not isinstance(results, Iterable) or isinstance(results, (str, bytes, Mapping)):
        raise InvalidOption(f"results are the verdicts of a quiz's questions, in order, not {describe(results)}")
    results = tuple(results)
    for verdict in results:
        if verdict is not None and not isinstance(verdict, Verdict | PositionVerdict):
            raise InvalidOption(
                f"results hold verdicts (from check) or None for an open question, not {describe(verdict)}"
            )
    answered = [v for v in results if v is not None]
    if not answered:
        raise InvalidOption("a quiz summary needs at least one answered question")
    first = answered[0].question
    for verdict in answered:
        if (verdict.question.game, verdict.question.players, verdict.question.level) != (
            first.game,
            first.players,
            first.level,
        ):
            raise InvalidOption("a quiz summary is of one quiz: one game, player count and level")
    right = sum(v.correct for v in answered)
    missed = tuple(v for v in answered if not v.correct)
    suggested = suggested_level(first.game, first.level, right, len(results))
    return QuizSummary(first.game, first.players, first.level, len(results), len(answered), right, missed, suggested)


def _needed(share: float, asked: int) -> int:
    """The fewest right answers that reach ``share`` of ``asked`` (8 of 10 for 0.8)."""
    return math.ceil(share * asked - 1e-9)


def _levels_checked(game: str, level: object) -> tuple[Level, ...] | tuple[PositionLevel, ...]:
    _step(game, level)
    return steps(game)


# --- internals ----------------------------------------------------------------------------------


def _kind(rules: Rules[Any], step: Level, podium: object) -> Kind:
    if podium is None:
        return "podium" if step.podium else "winner"
    if not isinstance(podium, bool):
        raise InvalidOption(f"podium must be True, False or None, not {describe(podium)}")
    if podium and rules.capabilities.quiz.podium is None:
        where = " and ".join(f"{cls.title}, where {why}" for cls, why in _podium_games())
        raise InvalidOption(
            f"in {rules.title} only the winner of a trick counts, so its quiz asks who wins; "
            f"questions about every place are for {where}"
        )
    return "podium" if podium else "winner"


def _podium_games() -> list[tuple[type[Rules[Any]], str]]:
    """The games whose quizzes may ask for every place, with the reason each place counts."""
    return [(cls, cls.capabilities.quiz.podium) for cls in GAMES.values() if cls.capabilities.quiz.podium]


def winner_prompt(context: Mapping[str, str | None]) -> str:
    """The words that ask which card wins a trick of ``context``: the setting, then the question
    (``"Trump is hearts ♥. Which card wins this trick?"``)."""
    if not isinstance(context, Mapping) or not all(isinstance(key, str) for key in context):
        raise InvalidOption(f"a trick's context is a mapping like {{'trump': 'S'}}, not {describe(context)}")
    trump = context.get("trump")
    if trump is not None and trump not in SUIT_NAME:
        raise InvalidOption(f"a trump is one of {', '.join(SUIT_NAME)} or None, not {describe(trump)}")
    return _prompt(context, "winner")


def _prompt(context: Mapping[str, str | None], kind: Kind) -> str:
    ask = "Which card wins this trick?" if kind == "winner" else "Click the cards from first place to last."
    setting = _setting(context)
    return f"{setting} {ask}" if setting else ask


def _setting(context: Mapping[str, str | None]) -> str:
    """The trick's context in words (the trump), or ``""`` where a game has none."""
    if "trump" not in context:
        return ""
    trump = context["trump"]
    if trump is None:
        return "No suit is trump."
    return f"Trump is {SUIT_NAME[trump].lower()} {SUIT_SYMBOL[trump]}."


def _stream(rules: Rules[Any], step: Level, seed: int, kind: Kind) -> Iterator[Question]:
    """Questions forever: deal random tricks, keep those that fit the level, never one twice."""
    rng = random.Random(f"tricklab:quiz:{rules.name}:{rules.players}:{step.number}:{seed}")
    deck = rules.deck()
    suits = list(dict.fromkeys(card.suit for card in deck))  # in deck order
    size = rules.trick_size
    seen: set[tuple[frozenset[Card], ContextItems]] = set()
    number = 0
    while True:
        for _ in range(MAX_TRIES):
            chosen = rng.sample(suits, rng.choice(step.suits))
            pool = [card for card in deck if card.suit in chosen]
            if len(pool) < size:
                continue
            cards = tuple(rng.sample(pool, size))
            items = rng.choice(step.contexts)
            key = (frozenset(cards), items)
            if key in seen:
                continue
            outcome = rules.resolve_trick(cards, **dict(items))
            if step.fits(outcome):
                break
        else:  # each level fits many of the dealt tricks: this would be a mistake in a level
            raise RuntimeError(f"no trick of {rules.title} fits quiz level {step.number}")
        seen.add(key)
        number += 1
        context = MappingProxyType(dict(items))
        yield Question(
            rules.name, rules.players, step.number, number, cards, context, kind, _prompt(context, kind), outcome
        )


def _answer_cards(rules: Rules[Any], question: Question, answer: object) -> tuple[Card, ...]:
    if isinstance(answer, str):
        values: list[object] = list(answer.replace(",", " ").split())
    elif isinstance(answer, Card):
        values = [answer]
    elif isinstance(answer, Iterable):
        values = list(answer)
    else:
        raise InvalidCard(f"an answer is a card like {question.cards[0]}, not {describe(answer)}")
    listed = ", ".join(str(c) for c in question.cards)
    given: list[Card] = []
    for value in values:
        if not isinstance(value, str | Card):
            raise InvalidCard(f"an answer is a card like {question.cards[0]}, not {describe(value)}")
        card = rules.card(value)
        if card not in question.cards:
            raise InvalidCard(f"{card} is not in this trick; pick one of {listed}")
        given.append(card)
    size = len(question.cards)
    if question.kind == "winner" and len(given) != 1:
        raise InvalidTrick(f"pick one card, the one that wins: one of {listed}")
    if question.kind == "podium":
        if len(set(given)) != len(given):
            twice = next(c for c in given if given.count(c) > 1)
            raise InvalidTrick(f"{twice} is in the answer twice; put each card of the trick in one place")
        if len(given) != size:
            raise InvalidTrick(f"put all {size} cards in order from first place to last, not {len(given)}")
    return tuple(given)
