"""Bad input never crashes: a corpus of malformed actions, arguments and records.

Whatever a caller passes to the public API, the engine either accepts it as a canonical
value or raises a :class:`~tricklab.TricklabError` whose message is short and names the
value; a refused action leaves the match as it was. Hypothesis draws the malformed values
(wrong types, card text, ``True`` and ``2.0`` for numbers, numbers of thousands of digits,
megabyte strings, nesting, mutated records); the cases the outside review reported are
explicit tests at the end.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tricklab
from tricklab import (
    Action,
    Announce,
    AssignMetal,
    BandCard,
    Bid,
    FrenchCard,
    IllegalAction,
    InvalidAction,
    InvalidOption,
    Match,
    Move,
    Pass,
    Place,
    Play,
    Predict,
    RecordError,
    Skip,
    Steal,
    TricklabError,
)
from tricklab.actions import parse_action
from tricklab.cards import any_card
from tricklab.errors import describe
from tricklab.match import _digest

# "A few hundred characters": the longest message, a record's action that cannot be read,
# quotes the action text twice (shortened) and lists the forms actions take.
MAX_MESSAGE = 500

# TRICKLAB_CORPUS_EXAMPLES=5000 runs a longer, randomised search (the default is quick and repeatable).
EXAMPLES = int(os.environ.get("TRICKLAB_CORPUS_EXAMPLES", "0"))
CORPUS = settings(
    max_examples=EXAMPLES or 250,
    deadline=None,
    derandomize=not EXAMPLES,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

LONG_TEXT = "x" * 1_000_000
LONG_CARDS = "AS " * 300_000
HUGE = 10**5000
DEEP: list[Any] = []
for _ in range(5_000):
    DEEP = [DEEP]


def big(*names: str) -> st.SearchStrategy[Any]:
    """Values too big to print, drawn by name (hypothesis shows strategies and examples by repr)."""
    return st.sampled_from(names).map(_big)


def _big(name: str) -> Any:
    return BIG[name]


class Unprintable:
    """A value whose repr fails: a message about it must still come out."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")


BIG: dict[str, Any] = {
    "10**63": 2**63,
    "-2**63": -(2**63),
    "2**63-1": 2**63 - 1,
    "10**40": 10**40,
    "10**41": 10**41,
    "10**5000": HUGE,
    "-10**5000": -HUGE,
    "1 MB of x": LONG_TEXT,
    "300,000 aces": LONG_CARDS,
    "5,000 deep": DEEP,
    "unprintable": Unprintable(),
}


def refusal(call: Callable[[], object]) -> TricklabError | None:
    """Run ``call``: ``None`` if it succeeds, the error if it raises a TricklabError with a short
    message. Any other exception propagates, which fails the test."""
    try:
        call()
    except TricklabError as exc:
        message = str(exc)
        assert message, "an error says what is wrong"
        assert len(message) <= MAX_MESSAGE, f"{len(message)} characters: {message[:200]}…"
        return exc
    return None


@contextmanager
def unchanged(match: Match) -> Iterator[None]:
    """The block may apply or be refused; when it is refused the match is exactly as before."""
    actions, state, steps = match.actions, match.state, len(match.timeline())
    try:
        yield
    except TricklabError:
        assert match.actions == actions
        assert match.state is state
        assert len(match.timeline()) == steps
        raise


# --- values ------------------------------------------------------------------------------------

RULES = {
    "tricks-and-stones": tricklab.get_rules("tricks-and-stones", players=4),
    "band-of-tricks": tricklab.get_rules("band-of-tricks", players=4),
    "jewel-vault": tricklab.get_rules("jewel-vault", players=4),
}
ALL_CARDS = sorted({c for rules in RULES.values() for c in rules.deck()}, key=str) + [
    FrenchCard("S", 2),  # not in the Tricks & Stones deck
    BandCard("R", 99),  # in no deck
]
CARD_TEXTS = ["AS", "10H", "th", "Q♥", "kd", " 7S ", "R13", "m16", "S5", "p1", "R99", "2C", "AH"]
BAD_CARD_TEXTS = ["", "A S", "1O", "ZZ", "S", "10", "♥Q", "R", "RR13", "ACE", "AS\x00", "🂡"]

numbers = st.one_of(
    st.integers(min_value=-3, max_value=12),
    big("10**63", "-2**63", "2**63-1", "10**40", "10**41", "10**5000", "-10**5000"),
    st.booleans(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([2.0, 1.5, -0.0]),
    st.none(),
    st.sampled_from(["3", "²", "\u0661", " 1", "1_0", ""]),
)
texts = st.one_of(
    st.text(max_size=8),
    st.sampled_from(CARD_TEXTS + BAD_CARD_TEXTS),
    st.sampled_from(["rock", "ROCK", " Soul ", "pops", "metal", "zero", "line", "ring", "S", "♠", "spades"]),
    big("1 MB of x", "300,000 aces"),
    st.sampled_from(["play AS", "bid zero", "predict 3"]),
)
leaves = st.one_of(
    numbers,
    texts,
    st.sampled_from(ALL_CARDS),
    st.sampled_from([b"AS", bytearray(b"R13"), object(), Skip(), Predict(2), frozenset({1, 2})]),
    big("5,000 deep", "unprintable"),
)
junk = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.tuples(inner),
        st.tuples(inner, inner),
        st.dictionaries(st.text(max_size=4), inner, max_size=2),
    ),
    max_leaves=6,
)
cardish = st.one_of(st.sampled_from(ALL_CARDS), st.sampled_from(CARD_TEXTS + BAD_CARD_TEXTS), junk)


def _specs() -> st.SearchStrategy[tuple[type[Action], tuple[Any, ...]]]:
    """How an action might be built, right or wrong: (class, arguments)."""

    def of(cls: type[Action], *args: st.SearchStrategy[Any]) -> st.SearchStrategy[tuple[type[Action], tuple[Any, ...]]]:
        return st.tuples(st.just(cls), st.tuples(*args))

    seq = st.lists
    return st.one_of(
        of(Play, cardish),
        of(Predict, numbers | junk),
        of(Announce, numbers | junk),
        of(Steal, numbers | junk),
        of(Place, seq(numbers, max_size=3) | seq(numbers, max_size=3).map(tuple) | junk),
        of(Move, seq(st.tuples(numbers, numbers) | junk, max_size=3) | junk),
        of(Bid, numbers, numbers, numbers, st.booleans() | junk),
        of(AssignMetal, texts | junk),
        of(Pass, seq(cardish, max_size=4).map(tuple) | seq(cardish, max_size=4) | junk),
        of(Skip),
        of(Action),
    )


specs = _specs()


def _phase_matches() -> list[Match]:
    """Matches of every game standing in every phase it has (and mid-trick), from seeded play."""
    found: list[Match] = []
    for rules in RULES.values():
        match = rules.new_match(seed=0)
        rng = random.Random(0)
        seen: set[tuple[str, bool]] = set()
        while True:
            key = (match.phase, bool(getattr(match.state, "trick", ())))
            if key not in seen:
                seen.add(key)
                found.append(match.copy())
            if match.is_over:
                break
            legal = match.legal_actions()
            match.apply(legal[rng.randrange(len(legal))])
    return found


PHASES = _phase_matches()


def test_the_phase_matches_cover_every_phase() -> None:
    phases = {(m.rules.name, m.phase) for m in PHASES}
    for name, every in (
        ("tricks-and-stones", {"predict", "play", "gems", "over"}),
        ("band-of-tricks", {"bid", "play", "assign", "over"}),
        ("jewel-vault", {"announce", "pass", "play", "steal", "over"}),
    ):
        assert {p for g, p in phases if g == name} == every


# --- actions -----------------------------------------------------------------------------------


@CORPUS
@given(spec=specs)
def test_an_action_is_canonical_or_refused_when_made(spec: tuple[type[Action], tuple[Any, ...]]) -> None:
    cls, args = spec
    made: list[Action] = []
    error = refusal(lambda: made.append(cls(*args)))
    if error is not None:
        assert isinstance(error, InvalidAction)
        return
    action = made[0]
    text = str(action)
    assert len(text) < 200
    assert parse_action(text, any_card) == action, "every action reads back from its text"
    assert hash(action) == hash(parse_action(text, any_card))
    for card in action.named_cards():
        assert any_card(str(card)) is card, "cards in actions are the interned cards"


@CORPUS
@given(index=st.integers(min_value=0, max_value=len(PHASES) - 1), spec=specs, as_text=st.booleans())
def test_applying_any_action_in_any_phase_is_checked(
    index: int, spec: tuple[type[Action], tuple[Any, ...]], as_text: bool
) -> None:
    cls, args = spec
    made: list[Action] = []
    if refusal(lambda: made.append(cls(*args))) is not None:
        return
    action = made[0]
    match = PHASES[index].copy()
    with unchanged(match):
        error = refusal(lambda: match.apply(str(action) if as_text else action))
    if error is None:
        assert match.actions[-1] == action
        assert match.timeline()[-1].state == match.state
        again = Match.from_json(match.to_json())
        assert again.state == match.state, "an applied action replays from the record"


@CORPUS
@given(index=st.integers(min_value=0, max_value=len(PHASES) - 1), value=junk)
def test_apply_and_view_refuse_what_is_not_an_action_or_a_seat(index: int, value: Any) -> None:
    match = PHASES[index].copy()
    with unchanged(match):
        refusal(lambda: match.apply(value))
    view_error = refusal(lambda: match.view(value))
    assert view_error is not None or value is None or type(value) is int


# --- arguments of the rules functions ----------------------------------------------------------

# keyword names a caller might splat in, including the names of the functions' own parameters
option_names = st.one_of(
    st.sampled_from(["players", "seed", "log", "options", "trump", "trump_broken", "first_dealer", "start_player"]),
    st.sampled_from(["chambers", "first_lead_tie", "partnerships", "known_deck", "rounds", "supply"]),
    st.sampled_from(["max_extra_deals", "cls", "match_options", "actions", "x" * 10_000]),
    st.text(max_size=6),
)
keywords = st.dictionaries(option_names, junk, max_size=2)


def _without(params: set[str], kw: dict[str, Any]) -> dict[str, Any]:
    """Drop the names that would collide at the call itself (Python's TypeError, not the engine's)."""
    return {k: v for k, v in kw.items() if k not in params}


def _calls(rules: Any, game: str, a: Any, b: Any, c: Any, kw: dict[str, Any]) -> list[Callable[[], object]]:
    calls: list[Callable[[], object]] = [
        lambda: rules.card(a),
        lambda: rules.cards(a),
        lambda: rules.resolve_trick(a, **_without({"self", "cards"}, kw)),
        lambda: rules.legal_plays(a, b, **_without({"self", "hand", "trick"}, kw)),
        lambda: rules.new_match(a, **_without({"self", "seed"}, kw)),
        lambda: rules.new_match(0, **_without({"self", "seed"}, kw)),
        lambda: rules.play(0, bots=a),
        lambda: tricklab.get_rules(a, players=4),
        lambda: tricklab.get_rules(game, players=a, **_without({"game", "players"}, kw)),
        lambda: tricklab.get_rules(game, players=4, **_without({"game", "players"}, kw)),
        lambda: Match(a),
        lambda: Match(rules, a),
        lambda: Match(rules, 0, match_options=a),
        lambda: Match(rules, 0, match_options=kw),
        lambda: Match(rules, 0, actions=a),
        lambda: Match.from_json(a),
        lambda: Match.from_record(a),
        lambda: rules.with_options(**_without({"self"}, kw)),
        lambda: rules.rulebook.section(a, b),
        lambda: tricklab.find_game(a),
    ]
    if game == "tricks-and-stones":
        calls += [
            lambda: rules.resolve_trick(["7H", "AH"], trump=a),
            lambda: rules.legal_plays(["7H", "AH"], [], trump="S", trump_broken=a),
            lambda: rules.score_round(prediction=a, tricks=b, gems=c),
            lambda: rules.score_round(prediction=1, tricks=1, gems=a),
            lambda: rules.parse_trump(a),
        ]
    elif game == "band-of-tricks":
        calls += [
            lambda: rules.score_deal(bid=a, won=b),
            lambda: rules.score_deal(bid={"rock": 1}, won=a),
            lambda: rules.score_deal(bid=a, won={"rock": 1}),
            lambda: rules.suit_to_follow(a),
        ]
    else:
        calls += [
            lambda: rules.final_score(vault=a, showroom=b),
            lambda: rules.suit_action(a, seat=b, supply=c, showrooms=[3, 3, 3, 3]),
            lambda: rules.suit_action("C", seat=0, supply=10, showrooms=a, vaults=b, target=c),
            lambda: rules.suit_action("D", seat=0, supply=10, showrooms=[3, 3, 3, 3], cause=a),
            lambda: rules.round_end(a, dealer=b),
            lambda: rules.round_end([{"D": 1}, a, {}, {}]),
        ]
    return calls


@CORPUS
@given(game=st.sampled_from(sorted(RULES)), data=st.data(), a=junk, b=junk, c=junk, kw=keywords)
def test_rules_functions_refuse_malformed_arguments(
    game: str, data: st.DataObject, a: Any, b: Any, c: Any, kw: dict[str, Any]
) -> None:
    rules = RULES[game]
    calls = _calls(rules, game, a, b, c, kw)
    call = data.draw(st.sampled_from(calls))
    refusal(call)


@CORPUS
@given(game=st.sampled_from(sorted(RULES)), kw=keywords, seed=numbers)
def test_what_new_match_accepts_is_a_match_that_saves_and_loads(game: str, kw: dict[str, Any], seed: Any) -> None:
    made: list[Match] = []
    if refusal(lambda: made.append(RULES[game].new_match(seed, **_without({"self", "seed"}, kw)))) is None:
        match = made[0]
        again = Match.from_json(match.to_json())
        assert (again.rules, again.seed, again.match_options) == (match.rules, match.seed, match.match_options)
        assert again.state == match.state


# --- records -----------------------------------------------------------------------------------


def _records() -> list[dict[str, Any]]:
    out = []
    for game, players, options in [
        ("tricks-and-stones", 3, {"chambers": "ring"}),
        ("band-of-tricks", 5, {"start_player": 2}),
        ("jewel-vault", 4, {"partnerships": True, "first_dealer": 1}),
    ]:
        match = tricklab.get_rules(game, players=players).new_match(seed=3, **options)
        rng = random.Random(3)
        for _ in range(12):
            legal = match.legal_actions()
            match.apply(legal[rng.randrange(len(legal))])
        out.append(match.record())
    return out


RECORDS = _records()
FIELDS = list(RECORDS[0])


def _redigest(record: dict[str, Any]) -> dict[str, Any]:
    """The record as a tamperer who recomputes the digest would save it (if it can be digested)."""
    body = {k: v for k, v in record.items() if k != "digest"}
    try:
        return {**body, "digest": _digest(body)}
    except RecordError:
        return record


def _set_at(value: Any, path: list[int], new: Any) -> Any:
    """``value`` with the element reached by ``path`` (indices into dicts and lists) replaced."""
    if not path or not isinstance(value, (dict, list)) or not value:
        return new
    keys = list(value) if isinstance(value, dict) else list(range(len(value)))
    key = keys[path[0] % len(keys)]
    copy: Any = dict(value) if isinstance(value, dict) else list(value)
    copy[key] = _set_at(value[key], path[1:], new)
    return copy


mutations = st.one_of(
    st.tuples(st.just("remove"), st.sampled_from(FIELDS), st.none()),
    st.tuples(st.just("set"), st.sampled_from(FIELDS), junk),
    st.tuples(st.just("extra"), option_names, junk),
    st.tuples(st.just("deep"), st.lists(st.integers(0, 40), min_size=1, max_size=4), junk),
    st.tuples(st.just("option"), option_names, junk),
    st.tuples(st.just("match_option"), option_names, junk),
    st.tuples(st.just("action"), st.integers(0, 40), junk | texts),
)


def _mutate(record: dict[str, Any], how: tuple[str, Any, Any]) -> dict[str, Any]:
    """One change to a record (an earlier change may have removed or replaced the field)."""
    kind, where, value = how
    out = dict(record)
    if kind == "remove":
        out.pop(where, None)
    elif kind in ("set", "extra"):
        out[where] = value
    elif kind == "deep":
        out = _set_at(out, where, value)
    elif kind in ("option", "match_option"):
        field = "options" if kind == "option" else "match_options"
        before = out.get(field)
        out[field] = {**(before if isinstance(before, dict) else {}), where: value}
    else:
        before = out.get("actions")
        actions = list(before) if isinstance(before, list) and before else ["skip"]
        actions[where % len(actions)] = value
        out["actions"] = actions
    return out


@CORPUS
@given(
    record=st.sampled_from(RECORDS),
    how=st.lists(mutations, min_size=1, max_size=3),
    redigest=st.booleans(),
    via_json=st.booleans(),
)
def test_mutated_records_load_exactly_or_are_refused(
    record: dict[str, Any], how: list[tuple[str, Any, Any]], redigest: bool, via_json: bool
) -> None:
    mutated: Any = record
    for step in how:
        mutated = _mutate(mutated, step)
    if redigest:
        mutated = _redigest(mutated)
    loaded: list[Match] = []
    if via_json:
        try:
            text = json.dumps(mutated)
        except (TypeError, ValueError, RecursionError):
            return  # not JSON at all: from_record's business, drawn with via_json=False
        error = refusal(lambda: loaded.append(Match.from_json(text)))
    else:
        error = refusal(lambda: loaded.append(Match.from_record(mutated)))
    if error is not None:
        assert isinstance(error, RecordError)
        return
    match = loaded[0]
    saved = match.to_json()
    assert Match.from_json(saved).to_json() == saved, "what loads saves and loads again exactly"


@CORPUS
@given(
    record=st.sampled_from(RECORDS),
    cut=st.integers(min_value=0, max_value=2_000),
    insert=st.sampled_from(["", "[", "]", "{", "}", ",", "1" * 5_000, "\\ud800", "\x00", "NaN", '"a":', "é"]),
    as_bytes=st.booleans(),
)
def test_damaged_record_text_is_refused(record: dict[str, Any], cut: int, insert: str, as_bytes: bool) -> None:
    text = json.dumps(record)
    cut %= len(text)
    damaged = text[:cut] + insert + text[cut + 1 :]
    payload: str | bytes = damaged.encode("utf-8", "surrogatepass") if as_bytes else damaged
    error = refusal(lambda: Match.from_json(payload))
    assert error is None or isinstance(error, RecordError)


# --- the reported cases, one by one ------------------------------------------------------------

TS, BT, JV = RULES["tricks-and-stones"], RULES["band-of-tricks"], RULES["jewel-vault"]


def _at(rules: Any, phase: str) -> Match:
    return next(m.copy() for m in PHASES if m.rules == rules and m.phase == phase)


@pytest.mark.parametrize(
    "call",
    [
        lambda: TS.resolve_trick(5, trump="S"),
        lambda: BT.resolve_trick(5),
        lambda: JV.resolve_trick(None),
        lambda: TS.legal_plays(5, trump="S"),
        lambda: BT.legal_plays(["R7"], 5),
        lambda: JV.legal_plays(5),
        lambda: TS.cards(5),
        lambda: TS.card(["AS"]),
        lambda: Match(TS, 1, actions=5),  # type: ignore[arg-type]
        lambda: Match(TS, 1, actions="predict 2"),
        lambda: Match(5, 1),  # type: ignore[arg-type]
        lambda: TS.score_round(prediction=1, tricks=1, gems=5),  # type: ignore[arg-type]
        lambda: JV.round_end(5),  # type: ignore[arg-type]
        lambda: JV.suit_action("D", seat=0, supply=1, showrooms=5),  # type: ignore[arg-type]
        lambda: BT.play(seed=1, bots=5),  # type: ignore[arg-type]
    ],
)
def test_non_iterable_or_badly_shaped_arguments(call: Callable[[], object]) -> None:
    assert refusal(call) is not None


@pytest.mark.parametrize("value", [[1], None, (None,), ((1, 2),), "1 2", 1])
def test_place_checks_its_chambers_when_made(value: Any) -> None:
    if isinstance(value, list):
        assert Place(value) == Place((1,)) and str(Place(value)) == "place 1"
        return
    with pytest.raises(InvalidAction, match="Place"):
        Place(value)


def test_a_refusal_in_the_wrong_phase_quotes_the_action_shortly() -> None:
    match = _at(TS, "predict")
    long_place = Place(tuple(range(6)) * 10_000)
    with unchanged(match), pytest.raises(IllegalAction) as info:
        match.apply(long_place)
    assert info.value.rule_id == "ts.predict"
    assert str(info.value).endswith("not 'place 0 1 2 3 4 5 0 1 2 3 4 5 0 1 2 3 4 …' (120,005 characters)")
    assert len(str(info.value)) < 200


@pytest.mark.parametrize(
    ("rules", "phase", "action", "canonical"),
    [
        (TS, "play", lambda m: Play(str(m.legal_actions()[0].card)), lambda m: m.legal_actions()[0]),
        (TS, "play", lambda m: Play(str(m.legal_actions()[0].card).lower()), lambda m: m.legal_actions()[0]),
        (BT, "play", lambda m: Play(str(m.legal_actions()[0].card)), lambda m: m.legal_actions()[0]),
        (JV, "play", lambda m: Play(m.legal_actions()[0].card.pretty), lambda m: m.legal_actions()[0]),
        (JV, "pass", lambda m: Pass(tuple(str(c) for c in m.legal_actions()[0].cards)), lambda m: m.legal_actions()[0]),
        (JV, "pass", lambda m: Pass([str(c) for c in m.legal_actions()[0].cards]), lambda m: m.legal_actions()[0]),
    ],
)
def test_card_text_in_actions_becomes_the_card(rules: Any, phase: str, action: Any, canonical: Any) -> None:
    match = _at(rules, phase)
    built, expected = action(match), canonical(match)
    assert built == expected and hash(built) == hash(expected)
    match.apply(built)
    assert match.actions[-1] == expected


def test_card_text_that_is_no_card_or_not_of_the_game_is_refused() -> None:
    for text in ("ZZ", "", "A S", LONG_TEXT):
        with pytest.raises(InvalidAction) as info:
            Play(text)
        assert len(str(info.value)) <= MAX_MESSAGE
    with pytest.raises(InvalidAction, match="Pass"):
        Pass("10S")  # type: ignore[arg-type]
    match = _at(TS, "play")
    for wrong in (Play("2S"), Play("R13")):  # a French card outside the 32-card deck; a Band card
        with unchanged(match), pytest.raises(InvalidAction, match="is not a card of Tricks & Stones"):
            match.apply(wrong)
    band = _at(BT, "play")
    with unchanged(band), pytest.raises(InvalidAction, match="is not a card of Band of Tricks"):
        band.apply(Play("AS"))


@pytest.mark.parametrize(
    "make",
    [
        lambda: Announce(2.0),  # type: ignore[arg-type]
        lambda: Place((1.0,)),  # type: ignore[arg-type]
        lambda: Place((True,)),
        lambda: Predict(True),
        lambda: Steal(1.0),  # type: ignore[arg-type]
        lambda: Bid(1.5, 0, 0),  # type: ignore[arg-type]
        lambda: Bid(1, 0, 0, zero=1),  # type: ignore[arg-type]
        lambda: Move(((1.0, 2),)),  # type: ignore[arg-type]
        lambda: Move(((1, 2, 3),)),  # type: ignore[arg-type]
        lambda: Move((1, 2)),  # type: ignore[arg-type]
        lambda: Predict(HUGE),
        lambda: Predict(2**63),
        lambda: AssignMetal("metal"),
        lambda: AssignMetal(None),  # type: ignore[arg-type]
        lambda: Action(),
    ],
)
def test_non_canonical_values_are_refused_when_made(make: Callable[[], Action]) -> None:
    with pytest.raises(InvalidAction) as info:
        make()
    assert len(str(info.value)) <= MAX_MESSAGE


@pytest.mark.parametrize(
    ("made", "text"),
    [
        (AssignMetal("ROCK"), "count rock"),
        (AssignMetal(" Soul "), "count soul"),
        (Place([1, 4]), "place 1 4"),  # type: ignore[arg-type]
        (Move([[2, 3]]), "move 2>3"),  # type: ignore[arg-type]
        (Place(()), "place"),
        (Pass(()), "pass"),
        (Bid(1, 0, 0, zero=True), "bid zero 1 0 0"),
        (Bid(0, 0, 0), "bid 0 0 0"),
        (Predict(7), "predict 7"),
    ],
)
def test_accepted_values_are_canonical_and_read_back(made: Action, text: str) -> None:
    assert str(made) == text
    assert parse_action(text, any_card) == made


def test_numbers_too_long_for_text_are_described_by_their_length() -> None:
    with pytest.raises(InvalidOption, match="a 5,001-digit number"):
        TS.new_match(seed=HUGE)
    with pytest.raises(InvalidOption, match="a 4,401-digit number"):
        tricklab.get_rules("jewel-vault", players=4, supply=10**4400)
    with pytest.raises(InvalidAction, match="a 5,001-digit number"):
        Predict(HUGE)
    assert describe(10**39) == str(10**39)  # 40 digits still read as the number
    assert describe(10**40) == "a 41-digit number"
    assert describe(-(10**41)) == "a 42-digit negative number"


def test_long_text_is_quoted_by_its_first_40_characters_and_its_length() -> None:
    assert describe(LONG_TEXT) == "'" + "x" * 40 + "…' (1,000,000 characters)"
    for call in (
        lambda: TS.card(LONG_TEXT),
        lambda: TS.new_match().apply(LONG_TEXT),
        lambda: tricklab.get_rules(LONG_TEXT, 4),
    ):
        error = refusal(call)
        assert error is not None and "(1,000,000 characters)" in str(error)
    error = refusal(lambda: TS.cards(LONG_CARDS))
    assert error is None  # 300,000 aces of spades parse; the trick check is resolve_trick's
    assert refusal(lambda: TS.resolve_trick(LONG_CARDS, trump="S")) is not None


def test_describe_never_fails_and_stays_short() -> None:
    for value in (Unprintable(), DEEP, {1: [2, {3: LONG_TEXT}]}, b"x" * 10_000, HUGE, [HUGE] * 100):
        assert len(describe(value)) < 300


def test_record_options_that_collide_with_parameter_names_are_refused() -> None:
    record = RECORDS[0]
    for name in ("players", "game", "cls", "self"):
        bad = _redigest({**record, "options": {**record["options"], name: 3}})
        with pytest.raises(RecordError, match="no option"):
            Match.from_record(bad)


def test_match_options_are_checked_by_name_and_value() -> None:
    record = RECORDS[0]
    for options, words in (({"log": []}, "no match option 'log'"), ({"first_dealer": [1]}, "first_dealer")):
        with pytest.raises(RecordError, match=words):
            Match.from_record(_redigest({**record, "match_options": options}))
    with pytest.raises(InvalidOption, match="no match option 'log'"):
        Match(TS, 1, match_options={"log": []})
    with pytest.raises(InvalidOption, match="plain data"):
        Match(TS, 1, match_options={"first_dealer": {1, 2}})
    with pytest.raises(InvalidOption, match="no option 'log'"):
        TS.new_match(seed=1, log=[])


def test_deeply_nested_and_non_object_records_are_refused() -> None:
    for text in ("[" * 100_000 + "]" * 100_000, '{"a":' * 100_000 + "1" + "}" * 100_000, "[1, 2, 3]", '"x"', "7"):
        with pytest.raises(RecordError):
            Match.from_json(text)
    for record in (DEEP, [RECORDS[0]], None, 5, {**RECORDS[0], "options": {"chambers": DEEP}}):
        with pytest.raises(RecordError):
            Match.from_record(record)
    with pytest.raises(RecordError):
        Match.from_json(5)  # type: ignore[arg-type]
    with pytest.raises(RecordError):
        Match.from_json(b"\xff\xfe")


def test_record_fields_of_the_wrong_type_are_refused() -> None:
    record = RECORDS[1]
    for field, value in (("version", True), ("version", 1.0), ("seed", True), ("players", 5.0), ("game", ["x"])):
        with pytest.raises(RecordError):
            Match.from_record(_redigest({**record, field: value}))
    with pytest.raises(RecordError, match="unexpected"):
        Match.from_record(_redigest({**record, 1: 2, "x" * 1000: 3}))


@pytest.mark.parametrize("rules", list(RULES.values()), ids=list(RULES))
def test_undo_at_the_start_cites_its_rule(rules: Any) -> None:
    match = rules.new_match(seed=2)
    with pytest.raises(IllegalAction) as info:
        match.undo()
    assert info.value.rule_id == f"{rules.rulebook_prefix()}.undo"
    assert info.value.rule_id in rules.rulebook
