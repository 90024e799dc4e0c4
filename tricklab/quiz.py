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
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import islice
from types import MappingProxyType
from typing import Any, Literal

from .cards import SUIT_NAME, SUIT_SYMBOL, Card
from .errors import InvalidCard, InvalidOption, InvalidTrick
from .explain import Reason
from .games import GAMES, find_game
from .games.base import CardLike, Rules, TrickOutcome, check_seed
from .games.capabilities import ContextItems, Level

DEFAULT_COUNT = 10
MAX_COUNT = 100
# Dealing tricks until one fits a level: every level fits a good share of the tricks the
# sampler deals, so this many tries without a fit would mean a mistake in a level.
MAX_TRIES = 20_000

Kind = Literal["winner", "podium"]


# --- the levels: each game declares its own (Capabilities.quiz) ------------------------------------


def levels(game: str) -> tuple[Level, ...]:
    """The quiz levels of ``game`` (a name or alias), easiest first."""
    return find_game(game).capabilities.quiz.levels


def _level(game: str, number: object) -> Level:
    """Level ``number`` of ``game``'s quiz; :class:`InvalidOption` if there is none."""
    cls = find_game(game)
    steps = cls.capabilities.quiz.levels
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(steps):
        raise InvalidOption(f"{cls.title} has quiz levels 1 to {len(steps)}, not {number!r}")
    return steps[number - 1]


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
        return _rules(self.game, self.players)

    def __repr__(self) -> str:
        cards = " ".join(str(c) for c in self.cards)
        context = "".join(f", {k}={v!r}" for k, v in self.context.items())
        return f"<Question {self.game} level {self.level} #{self.number}: {self.kind} of [{cards}]{context}>"


@dataclass(frozen=True, slots=True, repr=False)
class Verdict:
    """How an answer fared: ``correct``, the ``right`` answer and the engine's ``reasons``."""

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
    def feedback(self) -> str:
        """One sentence for the learner."""
        if self.question.kind == "winner":
            best, picked = self.right[0].pretty, self.given[0].pretty
            if self.correct:
                return f"Right! {best} wins the trick."
            return f"Not quite: {best} wins the trick, not {picked}."
        order = ", ".join(card.pretty for card in self.right)
        if self.correct:
            return f"Right! The places are {order}."
        return (
            f"Not quite: the places are {order}. You had {self.places_right} of {len(self.right)} "
            "cards in the right place."
        )

    def __repr__(self) -> str:
        given = " ".join(str(c) for c in self.given)
        right = " ".join(str(c) for c in self.right)
        return f"<Verdict {'right' if self.correct else 'wrong'}: gave [{given}], answer [{right}]>"


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
    asks for every place. ``players=None`` means 4. Bad values raise a
    :class:`~tricklab.TricklabError` that says what is allowed.
    """
    rules = _rules_for(game, players)
    step = _level(rules.name, level)
    seed = check_seed(seed)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
        raise InvalidOption(f"a quiz has 1 to {MAX_COUNT} questions, not {count!r}")
    kind = _kind(rules, step, podium)
    return tuple(islice(_stream(rules, step, seed, kind), count))


def check(question: Question, answer: CardLike | Iterable[CardLike]) -> Verdict:
    """Mark an answer with the engine: ``resolve_trick`` ranks the trick again and says why.

    ``answer`` is one card for a ``"winner"`` question, or every card of the trick from
    first place to last (a list, or text like ``"8S AH 7H KD"``) for a ``"podium"`` one.
    A card that is not in the trick raises :class:`~tricklab.InvalidCard`; a podium that
    does not hold each card of the trick once raises :class:`~tricklab.InvalidTrick`.
    """
    rules = question.rules
    outcome = rules.resolve_trick(question.cards, **question.context)
    given = _answer_cards(rules, question, answer)
    right = (outcome.winning_card,) if question.kind == "winner" else outcome.ranked_cards
    correct = all(a is b for a, b in zip(given, right, strict=True))
    return Verdict(question, given, correct, right, tuple(outcome.reasons), outcome)


# --- internals ----------------------------------------------------------------------------------


@lru_cache(maxsize=32)
def _rules(game: str, players: int) -> Rules[Any]:
    return find_game(game).create(players)


def _rules_for(game: str, players: object) -> Rules[Any]:
    cls = find_game(game)
    if players is None:
        players = 4 if 4 in cls.player_counts else cls.player_counts[-1]
    if isinstance(players, int) and not isinstance(players, bool) and players in cls.player_counts:
        return _rules(cls.name, players)
    return cls.create(players)  # raises InvalidOption, naming the player counts allowed


def _kind(rules: Rules[Any], step: Level, podium: object) -> Kind:
    if podium is None:
        return "podium" if step.podium else "winner"
    if not isinstance(podium, bool):
        raise InvalidOption(f"podium must be True, False or None, not {podium!r}")
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


def _prompt(context: Mapping[str, str | None], kind: Kind) -> str:
    ask = "Which card wins this trick?" if kind == "winner" else "Click the cards from first place to last."
    if "trump" not in context:
        return ask
    trump = context["trump"]
    if trump is None:
        return f"No suit is trump. {ask}"
    return f"Trump is {SUIT_NAME[trump].lower()} {SUIT_SYMBOL[trump]}. {ask}"


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
        raise InvalidCard(f"an answer is a card like {question.cards[0]}, not {answer!r}")
    listed = ", ".join(str(c) for c in question.cards)
    given: list[Card] = []
    for value in values:
        if not isinstance(value, str | Card):
            raise InvalidCard(f"an answer is a card like {question.cards[0]}, not {value!r}")
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
