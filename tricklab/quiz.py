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
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import islice
from types import MappingProxyType
from typing import Any, Literal

from .cards import SUIT_NAME, SUIT_SYMBOL, Card
from .errors import InvalidCard, InvalidOption, InvalidTrick
from .explain import Reason
from .games import find_game
from .games.band_of_tricks import METAL
from .games.base import CardLike, Rules, TrickOutcome, check_seed

DEFAULT_COUNT = 10
MAX_COUNT = 100
# Dealing tricks until one fits a level: every level fits a good share of the tricks the
# sampler deals, so this many tries without a fit would mean a mistake in a level.
MAX_TRIES = 20_000

Kind = Literal["winner", "podium"]
ContextItems = tuple[tuple[str, str | None], ...]


# --- the levels -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Level:
    """One step of a game's quiz.

    ``fits`` is the level's definition: a test on the engine's outcome of a trick.
    ``suits`` says from how many suits the sampler deals a trick (only to find fitting
    tricks faster: ``fits`` alone decides), ``contexts`` the game context a trick is
    played in (Tricks & Stones: the trump), and ``podium`` whether the level asks for
    every place, first to last, rather than only the winner.
    """

    number: int
    title: str
    text: str
    fits: Callable[[TrickOutcome], bool] = field(repr=False)
    suits: tuple[int, ...] = field(repr=False)
    contexts: tuple[ContextItems, ...] = field(default=((),), repr=False)
    podium: bool = False


def _suits(outcome: TrickOutcome) -> set[str]:
    return {card.suit for card in outcome.cards}


def _led(outcome: TrickOutcome) -> str:
    return outcome.cards[0].suit


def _trump(outcome: TrickOutcome) -> str | None:
    trump = outcome.context.get("trump")
    return trump if isinstance(trump, str) else None


def _off_suit(outcome: TrickOutcome) -> list[Card]:
    """The cards that are neither of the led suit nor trumps."""
    led, trump = _led(outcome), _trump(outcome)
    return [card for card in outcome.cards if card.suit not in (led, trump)]


def ts_no_trump(outcome: TrickOutcome) -> bool:
    """Tricks & Stones level 1: no trump, and at least two cards of the led suit to compare."""
    return _trump(outcome) is None and sum(card.suit == _led(outcome) for card in outcome.cards) >= 2


def ts_trump(outcome: TrickOutcome) -> bool:
    """Tricks & Stones level 2: a trump suit is set and at least one trump is in the trick."""
    trump = _trump(outcome)
    return trump is not None and any(card.suit == trump for card in outcome.cards)


def ts_off_suit_places(outcome: TrickOutcome) -> bool:
    """Tricks & Stones level 3: a trump suit is set and two or more cards of two or more
    other suits (neither trump nor led) need their places sorted out."""
    off = _off_suit(outcome)
    return _trump(outcome) is not None and len(off) >= 2 and len({card.suit for card in off}) >= 2


def bt_one_suit(outcome: TrickOutcome) -> bool:
    """Band of Tricks level 1: every card is of one suit."""
    return len(_suits(outcome)) == 1


def bt_two_suits(outcome: TrickOutcome) -> bool:
    """Band of Tricks level 2: exactly two suits (Metal counts as a suit)."""
    return len(_suits(outcome)) == 2


def bt_many_suits(outcome: TrickOutcome) -> bool:
    """Band of Tricks level 3: three or more suits, with a Metal card or the winning
    number shown on two cards (an equal-number tie)."""
    if len(_suits(outcome)) < 3:
        return False
    best = outcome.winning_card
    tie = any(card.rank == best.rank for card in outcome.cards if card is not best)
    return tie or any(card.suit == METAL for card in outcome.cards)


def jv_led_suit(outcome: TrickOutcome) -> bool:
    """Jewel Vault level 1: every card follows the led suit."""
    return all(card.suit == _led(outcome) for card in outcome.cards)


def jv_off_suit(outcome: TrickOutcome) -> bool:
    """Jewel Vault level 2: a card that did not follow suit shows a higher number than the winner."""
    best = outcome.winning_card
    return any(card.suit != best.suit and card.rank > best.rank for card in outcome.cards)


_NO_TRUMP: tuple[ContextItems, ...] = ((("trump", None),),)
_TRUMPS: tuple[ContextItems, ...] = tuple((("trump", suit),) for suit in "SHDC")

LEVELS: Mapping[str, tuple[Level, ...]] = MappingProxyType(
    {
        "tricks-and-stones": (
            Level(
                1,
                "No trump",
                "No suit is trump. The highest card of the suit that was led wins; the other suits cannot win.",
                ts_no_trump,
                (2, 3, 4),
                _NO_TRUMP,
            ),
            Level(
                2,
                "Trumps",
                "One suit is trump. A trump beats every card that is not a trump, however high.",
                ts_trump,
                (2, 3, 4),
                _TRUMPS,
            ),
            Level(
                3,
                "Every place",
                "Every card gets a place: trumps first, then the led suit, then the other suits in the "
                "order ♠ ♥ ♦ ♣, each from high to low. Put the cards in order from first place to last.",
                ts_off_suit_places,
                (3, 4),
                _TRUMPS,
                podium=True,
            ),
        ),
        "band-of-tricks": (
            Level(1, "One suit", "All the cards are of one suit: the highest number wins.", bt_one_suit, (1,)),
            Level(
                2,
                "Two suits",
                "Two suits meet: Rock beats Soul, Soul beats Pops, Pops beats Rock, and Metal loses to all three.",
                bt_two_suits,
                (2,),
            ),
            Level(
                3,
                "Three or more suits",
                "Three or more suits: only the number counts, Metal too. On equal numbers the card played later wins.",
                bt_many_suits,
                (3, 4),
            ),
        ),
        "jewel-vault": (
            Level(
                1,
                "Follow the led suit",
                "Everyone follows the led suit: the highest card wins, and the Ace is the lowest card.",
                jv_led_suit,
                (1,),
            ),
            Level(
                2,
                "Other suits never win",
                "Someone could not follow suit. A card of another suit can never win, however high it is.",
                jv_off_suit,
                (2, 3, 4),
            ),
        ),
    }
)

# Where every place of a trick counts (Tricks & Stones: each place earns its gem
# actions, ts.gems.places), a quiz may ask for the whole order, first to last.
PODIUM_GAMES = frozenset({"tricks-and-stones"})


def levels(game: str) -> tuple[Level, ...]:
    """The quiz levels of ``game`` (a name or alias), easiest first."""
    return LEVELS[find_game(game).name]


def _level(game: str, number: object) -> Level:
    """Level ``number`` of ``game``'s quiz; :class:`InvalidOption` if there is none."""
    cls = find_game(game)
    steps = LEVELS[cls.name]
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
    if podium and rules.name not in PODIUM_GAMES:
        raise InvalidOption(
            f"in {rules.title} only the winner of a trick counts, so its quiz asks who wins; "
            "questions about every place are for Tricks & Stones, where each place earns gems"
        )
    return "podium" if podium else "winner"


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
