"""Hostile front-end messages, without a browser.

A page can send a widget anything: a board intent with any name and any text value, any
state the controls' traitlets accept (every dropdown index, slider values, toggles) and
clicks on any button, disabled or not. Whatever it sends:

- no handler raises;
- a refused input leaves the match (the bid, the quiz, the trick) as it was, and the
  widget says why;
- the markup sent back (the board's scene, HTML widgets, control descriptions) keeps
  every payload escaped and never quotes a huge value whole;
- a widget given a seat never draws a card that seat may not see (the teacher's view of
  the hands minus what the seat's own view shows), nor another seat's secret prediction,
  at any step and under any control state.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator, Mapping
from functools import cache
from typing import Any

import ipywidgets as w
import pytest
import traitlets
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tricklab
from tricklab.cards import Card
from tricklab.display import card_label
from tricklab.games.base import next_seed
from tricklab.match import Match
from tricklab.widgets import BidTrainer, Board, PlayTable, Quiz, TrickExplainer, TrickStepper
from tricklab.widgets.apps import bid_trainer_app, replay_app

MARKUP = (
    '"><img src=x onerror=alert(1)>',
    "'><svg onload=alert(1)>",
    "<script>alert(1)</script>",
    "' onmouseover='alert(1)",
    "</p><b>bold</b><p>",
)
# values no intent of any widget accepts: unicode digits, huge numbers, signs, blanks, control
# characters, near misses of the real values, and markup
JUNK = (
    "²",
    "\u0661\u0663",
    "\u0663S",
    "R\u0661\u0663",
    "Ⅻ",
    "9" * 5000,
    "1" + "0" * 4400,
    "-1",
    "1.0",
    "1e3",
    "0x1",
    "",
    " ",
    "\x00",
    "\u202e3",
    "NaN",
    "x" * 20_000,
    "+1",
    ":",
    "rock:+²",
    "rock:+1" * 500,
    "rock:+1 ",
    "metal:+1",
    "rock:+2",
    *MARKUP,
)
# every intent the widgets' markup sends, and the keys the board forwards
INTENTS = (
    "play",
    "act",
    "pick",
    "gem-mode",
    "chamber",
    "bid",
    "confirm",
    "clear",
    "predict",
    "zero",
    "answer",
    "add",
    "key",
    "jump",
    "fold",
    "md-card",
    "md-place",
    "motion",
)
KEYS = ("ArrowLeft", "ArrowRight", "Home", "End", "Shift+ArrowLeft", "Shift+ArrowRight", "PageUp", "PageDown")

VALUES = st.one_of(
    st.none(),
    st.sampled_from(JUNK),
    st.sampled_from(KEYS),
    st.text(max_size=30),
    st.text(alphabet=st.characters(categories=["Nd", "No", "Nl"]), min_size=1, max_size=6),
    st.integers(min_value=-(10**6), max_value=10**6).map(str),
    st.integers(min_value=10**20, max_value=10**80).map(str),
    st.from_regex(r"(rock|soul|pops|metal|ROCK):[+-]?[0-9²\u0661]{1,3}", fullmatch=True),
    st.from_regex(
        r"(play|predict|bid|place|move|pass|skip|announce|steal|count) [0-9A-Z²\u0661 >.]{0,12}",
        fullmatch=True,
    ),
)
NAMES = st.one_of(st.sampled_from(INTENTS), st.text(max_size=20))
MESSAGES = st.lists(st.tuples(NAMES, VALUES), max_size=4)


# --- what the page could send ---------------------------------------------------------------------


def walk(widget: Any) -> Iterator[Any]:
    """The widget and every widget inside it."""
    yield widget
    for child in getattr(widget, "children", ()):
        yield from walk(child)


def boards(widget: Any) -> list[Board]:
    return [x for x in walk(widget) if isinstance(x, Board)]


class SceneControl:
    """A control a board draws from its scene, as the page reaches it: by its name, with the
    value as text (``set_state({"value": ...})`` sends it as the page would)."""

    def __init__(self, board: Board, name: str) -> None:
        self.board, self.name = board, name

    def set_state(self, state: dict[str, Any]) -> None:
        self.board.control(self.name, state.get("value"))

    def click(self) -> None:
        self.board.control(self.name, None)


def scene_controls(widget: Any, kind: str | None = None) -> list[tuple[SceneControl, Any]]:
    """The controls drawn from the scenes of ``widget``'s boards (of one ``kind``), with each
    control's Python object."""
    return [
        (SceneControl(board, c.name), c)
        for board in boards(widget)
        if board.controls is not None
        for c in board.controls
        if kind is None or c.kind == kind
    ]


def page_sets(control: Any, state: dict[str, Any]) -> bool:
    """Set control state as a message from the page does; ``False`` if its traitlets refuse it."""
    try:
        control.set_state(state)
    except traitlets.TraitError:
        return False
    return True


def control_states(widget: Any) -> list[tuple[Any, dict[str, Any]]]:
    """Every state of every selection and toggle control the page could set, one at a time (a
    picker drawn from a scene also one index past its options, and no index at all)."""
    states: list[tuple[Any, dict[str, Any]]] = []
    for control in walk(widget):
        if isinstance(control, w.Dropdown):
            states += [(control, {"index": i}) for i in [*range(len(control.options)), None]]
        elif isinstance(control, w.ToggleButton | w.Checkbox):
            states += [(control, {"value": not control.value}), (control, {"value": control.value})]
    for page, control in scene_controls(widget, "picker"):
        states += [(page, {"value": str(i)}) for i in range(len(control.options) + 1)] + [(page, {"value": None})]
    for page, _ in scene_controls(widget, "toggle"):
        states += [(page, {"value": "true"}), (page, {"value": "false"})]
    return states


def markup_intents(markup: str) -> set[str]:
    return set(re.findall(r'data-intent="([^"]*)"', markup))


def markup_clicks(markup: str) -> list[tuple[str, str]]:
    """The (intent, value) pairs of the buttons in the markup, as the board would send them."""
    return [
        (html.unescape(i), html.unescape(v))
        for i, v in re.findall(r'data-intent="([^"]*)" data-value="([^"]*)"', markup)
        if 'aria-disabled="true"' not in markup.split(f'data-value="{v}"', 1)[1][:40]
    ]


# --- what the page shows --------------------------------------------------------------------------


# a start tag as the widgets write it: a name, then attributes with quoted or bare values
_VALUE = r"""(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>"'`=<]+))?"""
_TAG = re.compile(rf"""<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s=/>"']+{_VALUE})*)\s*/?>""")
_ATTR = re.compile(rf"""\s+([^\s=/>"']+){_VALUE}""")
FORBIDDEN_TAGS = {"script", "img", "iframe", "object", "embed", "link", "meta", "base", "form", "style"}


@cache
def unsafe_tags(markup: str) -> list[str]:
    """Every tag in the markup that could run script or load something: a tag the widgets never
    write, an ``on*`` attribute, or a ``<`` starting something that is not a well-formed tag."""
    found = []
    for start in re.finditer(r"<[a-zA-Z]", markup):
        tag = _TAG.match(markup, start.start())
        if tag is None:
            found.append(markup[start.start() : start.start() + 60])
            continue
        names = [a.lower() for a in _ATTR.findall(tag[2])]
        if tag[1].lower() in FORBIDDEN_TAGS or any(n.startswith("on") for n in names):
            found.append(tag[0][:120])
    return found


def markups_sent(widget: Any) -> list[str]:
    """The markup the widget sends to the page: board scenes and HTML widgets."""
    out = []
    for x in walk(widget):
        if isinstance(x, Board):
            out.append(str(x.scene.get("html", "")))
        elif isinstance(x, w.HTML):
            out.append(x.value)
    return out


def texts_sent(widget: Any) -> list[str]:
    """Every piece of markup or text the widget sends to the page (but the text a learner typed
    in a text box, which the box shows back)."""
    out = markups_sent(widget)
    for _, control in scene_controls(widget):
        out += [control.label, control.tooltip, getattr(control, "placeholder", "")]
        out += [label for label, _ in getattr(control, "options", [])]
    for x in walk(widget):
        if isinstance(x, Board):
            out.append(str(x.scene.get("label", "")))
        for name in ("description", "tooltip", "placeholder"):
            value = getattr(x, name, None)
            if isinstance(value, str):
                out.append(value)
        if isinstance(x, w.Dropdown):
            out += [str(label) for label in x._options_labels]
    return out


def messages_sent(widget: Any) -> list[str]:
    """The boards' messages: plain text, which the front end shows as text (never as markup)."""
    return [board.message for board in boards(widget) if board.message]


def assert_safe(widget: Any, sent: str | None = None) -> None:
    """No markup the widget sends runs script, and a payload comes back escaped or not at all
    (in a plain-text message, not quoted whole when it is huge)."""
    for markup in markups_sent(widget):
        assert unsafe_tags(markup) == []
    for markup in texts_sent(widget):
        if sent is not None and sent in MARKUP:
            assert sent not in markup, f"unescaped payload {sent!r}"
        if sent is not None and len(sent) > 100:
            assert sent[:100] not in markup, "a huge value is quoted whole"
    for message in messages_sent(widget):
        if sent is not None and len(sent) > 100:
            assert sent[:100] not in message, "a huge value is quoted whole"


def hidden_cards(rules: Any, state: Any, seat: int) -> set[Card]:
    """The cards in other seats' hands (teacher's view) that ``seat``'s own view does not show."""
    teacher = rules.view(state, None)
    own = rules.view(state, seat)
    seen = {c for hand in own.hands if hand is not None for c in hand}
    # (a Mandala hand is colours counted, no cards: see assert_seat_only)
    return {c for s, hand in enumerate(teacher.hands) if s != seat for c in hand if isinstance(c, Card)} - seen


def drawn(markup: str, card: Card) -> bool:
    """Whether ``card`` is drawn in the markup: its picture's ARIA label, or the value a click on
    it sends (see :func:`tricklab.display.card_html`)."""
    label = html.escape(card_label(card), quote=True)
    return (
        f'aria-label="{label}"' in markup
        or f'aria-label="{label},' in markup
        or f'data-value="{html.escape(str(card), quote=True)}"' in markup
    )


def named(text: str, card: Card) -> bool:
    """Whether a text names ``card``: its notation, its symbol form, or a French card's name
    ("Ten of Spades"; a Band of Tricks name such as "Pops 2" also reads as a bid)."""
    forms = {str(card), card.pretty} | ({card.name} if " of " in card.name else set())
    return any(re.search(rf"(?<!\w){re.escape(form)}(?!\w)", text) for form in forms)


def assert_seat_only(markup: str, rules: Any, state: Any, seat: int) -> None:
    """The board shows nothing hidden from ``seat``: no hidden card, no secret prediction, no
    vault the seat may not see."""
    shown = sorted(str(c) for c in hidden_cards(rules, state, seat) if drawn(markup, c))
    assert shown == [], f"{rules.seat_name(seat)}'s board shows hidden cards {shown}"
    teacher = rules.view(state, None)
    own = rules.view(state, seat)
    for other, hand in enumerate(teacher.hands):
        if other != seat and isinstance(hand, dict) and rules.seat_name(other) in markup:  # Mandala's colours
            name = re.escape(html.escape(rules.seat_name(other)))
            face_down = rf'aria-label="{name}"><header>.*?</header><p class="tl-line tl-hand">.*?face down</span></p>'
            assert re.search(face_down, markup), f"{rules.seat_name(other)}'s hand is not face down"
    if hasattr(own, "predictions"):
        for other, prediction in enumerate(teacher.predictions):
            if prediction is not None and own.predictions[other] is None:
                assert f"⚑ {other + 1}</span>" not in markup, f"the prediction of {rules.seat_name(other)}"
                assert f"{html.escape(rules.seat_name(other))}&#x27;s expedition token" not in markup
    if hasattr(own, "vaults"):
        assert markup.count("<td>hidden</td>") == sum(v is None for v in own.vaults)


def alert_shown(widget: Any) -> bool:
    """A message is shown: in markup as an alert, or as a board's message (its live region)."""
    return any('role="alert"' in markup for markup in texts_sent(widget)) or bool(messages_sent(widget))


# --- the games -------------------------------------------------------------------------------------

STEPPERS = [
    ("tricks-and-stones", 4, 3, 1),
    ("tricks-and-stones", 3, 8, 2),
    ("band-of-tricks", 4, 2, 2),
    ("band-of-tricks", 5, 6, 4),
    ("jewel-vault", 4, 5, 0),
    ("jewel-vault", 3, 1, 2),
]


@cache
def bot_match(game: str, players: int, seed: int) -> Match:
    match: Match = tricklab.get_rules(game, players=players).play(seed=seed, bots="heuristic")
    return match


def stepper_for(game: str, players: int, seed: int, seat: int) -> TrickStepper:
    return TrickStepper(bot_match(game, players, seed), seat=seat)


def check_stepper(stepper: TrickStepper, seat: int, sent: str | None = None) -> None:
    assert stepper.board.scene["step"] == stepper.step
    step = stepper.steps[stepper.step]  # the seat's timeline: the step as the seat saw it
    state = stepper.match.timeline()[stepper.step].state  # the whole state at that step
    assert step.state == stepper.rules.view(state, seat)
    assert_seat_only(stepper.board.scene["html"], stepper.rules, state, seat)
    assert stepper.caption == step.event.text and not any(
        named(step.event.text, card) for card in hidden_cards(stepper.rules, state, seat)
    )
    assert_safe(stepper, sent)


# --- TrickStepper with a seat ---------------------------------------------------------------------


@pytest.mark.parametrize(("game", "players", "seed", "seat"), STEPPERS)
def test_a_seat_stepper_shows_only_that_seat_at_every_step_under_every_control_state(
    game: str, players: int, seed: int, seat: int
) -> None:
    stepper = stepper_for(game, players, seed, seat)
    states = control_states(stepper)
    for step in range(len(stepper.steps)):
        assert page_sets(stepper, {"step": step})
        assert stepper.step == step
        check_stepper(stepper, seat)
        for control, state in states:
            if page_sets(control, state):
                check_stepper(stepper, seat)
    assert f"{stepper.rules.seat_name(seat)}'s view" in " ".join(texts_sent(stepper))


#: a kind of message only some widgets get: sends it, returns the text value sent, if any
Extra = Callable[[Any, st.DataObject], str | None]


def page_message(widget: Any, data: st.DataObject, extras: Mapping[str, Extra] | None = None) -> str | None:
    """One message the page could send ``widget`` (any intent, a click its markup offers, a state
    of one of its controls, a button press, or one of ``extras``); returns the text value sent."""
    extras = extras or {}
    kind = data.draw(st.sampled_from(["intent", "click", "control", "button", *extras]))
    if kind in extras:
        return extras[kind](widget, data)
    # the widget's board, or another board of it (the stepper's move list)
    board = data.draw(st.sampled_from([widget.board, *[b for b in boards(widget) if b is not widget.board]]))
    if kind == "intent":
        name, value = data.draw(st.tuples(NAMES, VALUES))
        board.intent(name, value)
        return value
    if kind == "click":
        clicks = markup_clicks(board.scene["html"])
        if clicks:
            board.intent(*data.draw(st.sampled_from(clicks)))
    elif kind == "control":
        states = control_states(widget)
        if states:
            page_sets(*data.draw(st.sampled_from(states)))
    else:
        buttons = [x for x in walk(widget) if isinstance(x, w.Button)]
        buttons += [page for page, _ in scene_controls(widget, "button")]
        if buttons:
            data.draw(st.sampled_from(buttons)).click()
    return None


def _step(stepper: TrickStepper, data: st.DataObject) -> None:
    page_sets(stepper, {"step": data.draw(st.integers(-10, 10**7) | st.text(max_size=12) | st.none())})


def _typed(stepper: TrickStepper, data: st.DataObject) -> str | None:
    text = data.draw(st.integers(-5, 10**6).map(str) | VALUES)
    stepper.control("step", text)  # the step box, as the page sends it
    return text


def _traits(stepper: TrickStepper, data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(["playing", "view", "large", "four_colour", "seat", "scene"]))
    page_sets(stepper, {name: data.draw(st.booleans() | st.integers(-10, 10**7) | st.none() | st.text(max_size=5))})


STEPPER_MESSAGES: dict[str, Extra] = {"step": _step, "typed": _typed, "traits": _traits}


@pytest.mark.parametrize(("game", "players", "seed", "seat"), STEPPERS)
@given(data=st.data())
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_seat_stepper_under_any_sequence_of_page_messages(
    game: str, players: int, seed: int, seat: int, data: st.DataObject
) -> None:
    stepper = stepper_for(game, players, seed, seat)
    for _ in range(data.draw(st.integers(1, 12))):
        sent = page_message(stepper, data, STEPPER_MESSAGES)
        check_stepper(stepper, seat, sent)


def test_the_teachers_view_is_the_builders_choice() -> None:
    match = bot_match("jewel-vault", 4, 5)
    teacher = TrickStepper(match)  # no seat: every hand, and the teacher may pick a seat's view
    assert teacher.seat is None and "face-down card" not in teacher.board.scene["html"]
    assert teacher.view_picker is not None
    for index in range(len(teacher.view_picker.options)):
        teacher.control("view", str(index))
        assert teacher.view == teacher.view_picker.options[index][1] and not teacher.message
    teacher.control("view", None)  # a blank choice keeps the last view
    assert teacher.board.scene["html"] and teacher.seat == teacher.view_picker.options[-1][1]
    page_sets(teacher, {"view": 9})  # not a seat: refused, the view kept
    assert teacher.seat == teacher.view_picker.options[-1][1] and teacher.message
    seat = TrickStepper(match, seat=2)
    assert seat.seat == 2 and "face-down card" in seat.board.scene["html"]
    assert seat.controls is not None and "view" not in seat.controls, "a seat's stepper offers no other view"
    for other in [None, 0, 1, 3]:
        page_sets(seat, {"view": other})  # the page asks for another view: refused, the seat's kept
        assert seat.seat == 2 and seat.view == 2 and "face-down card" in seat.board.scene["html"]


@pytest.mark.parametrize(
    ("query", "seat"), [("game=jewel-vault&players=4&seed=5&seat=1", 0), ("game=band-of-tricks&seed=2&seat=3", 2)]
)
def test_the_replay_apps_seat_link_is_a_seat(query: str, seat: int) -> None:
    app = replay_app(query)
    stepper = app.children[1]
    assert isinstance(stepper, TrickStepper) and stepper.seat == seat
    states = control_states(app)
    for step in range(0, len(stepper.steps), 7):
        stepper.board.intent("key", "End" if step == 0 else "ArrowLeft")
        page_sets(stepper, {"step": step})
        for control, state in states:
            if page_sets(control, state):
                check_stepper(stepper, seat)
    assert_safe(app)


@pytest.mark.parametrize(("game", "players", "seed"), sorted({(g, p, s) for g, p, s, _ in STEPPERS}))
def test_no_step_names_a_card_hidden_from_any_seat(game: str, players: int, seed: int) -> None:
    """Widgets show the timeline's captions and reasons to a seat (the stepper, the table's log):
    none of them names a card some seat may not see at that step."""
    match = bot_match(game, players, seed)
    told = []
    for step in match.timeline():
        texts = [step.event.text, *(reason.text for reason in step.event.reasons)]
        for other in range(players):
            told += [
                (step.index, other, str(card))
                for card in hidden_cards(match.rules, step.state, other)
                if any(named(text, card) for text in texts)
            ]
    assert told == []


# --- PlayTable ------------------------------------------------------------------------------------

TABLES = [
    ("tricks-and-stones", 4, 1, 5),
    ("tricks-and-stones", 3, 0, 2),
    ("band-of-tricks", 4, 2, 8),
    ("jewel-vault", 4, 0, 3),
    ("jewel-vault", 3, 1, 2),
    ("mandala", 2, 0, 4),
    ("mandala", 2, 1, 7),
    ("kalah", 2, 1, 3),
]
TABLE_VALUE_INTENTS = ("play", "act", "pick", "gem-mode", "chamber", "bid", "md-card", "md-place")


def check_table(table: PlayTable, sent: str | None = None) -> None:
    pause = table.paused
    state = table.match.state
    if pause is not None and not table.live:  # the table shows that moment (a round as it was scored)
        state = table.match.timeline()[pause.step.index].state
    assert_seat_only(table.board.scene["html"], table.rules, state, table.seat)
    # the synced traits follow the match, whatever the page sent: the seat stays the one it was made for
    assert table.turn == table.match.to_play and table.board is table
    assert_safe(table, sent)


#: intents that let the bots play on (continue from a finished trick, a bot's move now, ...)
BOT_INTENTS = ("continue", "pace", "key", "hold")


def send_to_table(table: PlayTable, intent: str, value: str | None) -> None:
    """Send one intent; the record may only grow by a decision of the learner's seat (then
    the bots' moves), or, for the intents that let the bots play on, by bot moves alone; a new
    deal is a new match of the next seed that only the bots have moved in yet."""
    before, seed = table.match.actions, table.match.seed
    table.board.intent(intent, value)
    after = table.match.actions
    states = table.match.states
    if intent == "new-deal" and table.match.seed != seed:
        assert table.match.seed == next_seed(seed)
        assert all(states[i].to_play != table.seat for i in range(len(after))), (intent, value)
    elif after != before:  # a decision was taken, accepted by the checked engine
        assert after[: len(before)] == before, (intent, value)
        bots = range(len(before), len(after)) if intent in BOT_INTENTS else range(len(before) + 1, len(after))
        if intent not in BOT_INTENTS:
            assert states[len(before)].to_play == table.seat, (intent, value)
        assert all(states[i].to_play != table.seat for i in bots), (intent, value)
    check_table(table, value)


def refused_by_table(table: PlayTable, intent: str, value: str) -> None:
    record = table.match.to_json()
    table.board.intent(intent, value)
    assert table.match.to_json() == record, (intent, value)
    assert alert_shown(table), f"no message for {intent}={value[:40]!r}"
    check_table(table, value)


def decision_kind(table: PlayTable) -> str:
    if table.paused is not None:
        return f"paused:{table.paused.kind}:{table.live}"
    if not table.my_turn:
        return "over" if table.match.is_over else "waiting"
    kinds = sorted({type(a).__name__ for a in table.match.legal_actions()})
    return f"{table.match.phase}:{'/'.join(kinds)}"


@pytest.mark.parametrize(("game", "players", "seat", "seed"), TABLES)
@given(data=st.data())
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_play_table_survives_hostile_intents_through_a_whole_match(
    game: str, players: int, seat: int, seed: int, data: st.DataObject
) -> None:
    table = PlayTable(game, players, seat=seat, seed=seed, pace=0)
    swept: set[str] = set()
    for _ in range(1500):
        check_table(table)
        kind = decision_kind(table)
        if kind not in swept:  # every junk value to every value intent, once per kind of decision
            swept.add(kind)
            # (a new deal starts another match: it has a test of its own)
            for intent in sorted(set(TABLE_VALUE_INTENTS) | markup_intents(table.board.scene["html"]) - {"new-deal"}):
                if intent in TABLE_VALUE_INTENTS:
                    for junk in JUNK:
                        refused_by_table(table, intent, junk)
                else:
                    send_to_table(table, intent, data.draw(st.sampled_from(JUNK)))
            for control, state in control_states(table):
                page_sets(control, state)
                check_table(table)
        if table.match.is_over:
            break
        if table.paused is not None:  # a finished trick or a round's sheet (swept above): go on
            send_to_table(table, "continue", None)
            continue
        if not table.my_turn:  # the bots wait (paused, or paced on an event loop that does not run here)
            send_to_table(table, "pace", "step")
            continue
        for intent, value in data.draw(MESSAGES):
            send_to_table(table, intent, value)
        if table.match.is_over:
            break
        clicks = markup_clicks(table.board.scene["html"])
        if clicks and data.draw(st.integers(0, 2)) > 0:
            intent, value = data.draw(st.sampled_from(clicks))
            send_to_table(table, intent, value)  # what the table's own buttons send
            if data.draw(st.booleans()):
                send_to_table(table, "confirm", None)
        elif table.my_turn and table.live:
            table.act(data.draw(st.sampled_from(table.match.legal_actions())))
    for page, _ in scene_controls(table, "button"):  # Undo, Hint, New deal, as the page presses them
        page.click()
        check_table(table)


def gem_table() -> PlayTable:
    """A Tricks & Stones table at the learner's gem action, in place mode."""
    table = PlayTable("tricks-and-stones", 4, seat=0, seed=5, pace=0, hold=0)
    for _ in range(400):
        legal = table.match.legal_actions() if table.my_turn else []
        if any(type(a).__name__ == "Place" for a in legal):
            break
        assert table.act(legal[0])
    table.board.intent("gem-mode", "place")
    assert 'data-intent="chamber"' in table.board.scene["html"]
    return table


CHAMBER_JUNK = ("²", "9" * 5000, "1" + "0" * 4400, "\u0663", "-1", "", '"><img src=x onerror=alert(1)>')


@pytest.mark.parametrize("value", CHAMBER_JUNK)
def test_a_chamber_value_from_the_page_is_parsed_strictly(value: str) -> None:
    table = gem_table()
    record = table.match.to_json()
    table.board.intent("chamber", value)
    assert table.match.to_json() == record
    assert alert_shown(table)
    assert ("is not a chamber" if len(value) < 80 else "characters long") in table.message
    table.board.intent("confirm")  # nothing was picked: the engine's own refusal, still no change
    assert table.match.to_json() == record
    check_table(table, value)
    table.board.intent("chamber", "1")
    table.board.intent("confirm")
    assert table.match.to_json() != record, "a real chamber click still works"


def test_a_huge_chamber_number_in_range_of_digits_is_refused_by_the_engine() -> None:
    table = gem_table()
    record = table.match.to_json()
    table.board.intent("chamber", "99")
    table.board.intent("confirm")
    assert table.match.to_json() == record and alert_shown(table)


# --- BidTrainer -----------------------------------------------------------------------------------

TRAINERS = [("tricks-and-stones", 4, 1, 3), ("tricks-and-stones", 3, 2, 8), ("band-of-tricks", 4, 2, 3)]
TRAINER_VALUE_INTENTS = {"tricks-and-stones": "predict", "band-of-tricks": "bid"}  # the picker's intents


def trainer_state(trainer: BidTrainer) -> tuple[str, str]:
    return str(trainer.action), trainer.match.to_json()


def check_trainer(trainer: BidTrainer, sent: str | None = None) -> None:
    assert_seat_only(trainer.board.scene["html"], trainer.rules, trainer.match.state, trainer.seat)
    if trainer.stepper is not None:
        check_stepper(trainer.stepper, trainer.seat)
    assert_safe(trainer, sent)


@pytest.mark.parametrize(("game", "players", "seat", "seed"), TRAINERS)
@given(messages=MESSAGES)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_bid_trainer_survives_hostile_intents(
    game: str, players: int, seat: int, seed: int, messages: list[tuple[str, str | None]]
) -> None:
    trainer = BidTrainer(game, players, seed=seed, seat=seat, samples=10)
    for intent, value in messages:
        trainer.board.intent(intent, value)
        legal = {str(a) for a in trainer.match.legal_actions()} | {"bid 0 0 0"}
        assert str(trainer.action) in legal, "the bid shown is always one the engine allows"
        check_trainer(trainer, value)


@pytest.mark.parametrize(("game", "players", "seat", "seed"), TRAINERS)
def test_a_bid_trainer_refuses_junk_and_its_play_out_is_that_seats_view(
    game: str, players: int, seat: int, seed: int
) -> None:
    trainer = BidTrainer(game, players, seed=seed, seat=seat, samples=10)
    picker = TRAINER_VALUE_INTENTS[game]
    names = {*TRAINER_VALUE_INTENTS.values(), *markup_intents(trainer.board.scene["html"])}
    for intent in sorted(names):
        for junk in JUNK:
            before = trainer_state(trainer)
            trainer.board.intent(intent, junk)
            if intent == picker:
                assert trainer_state(trainer) == before, (intent, junk)
                assert alert_shown(trainer), (intent, junk[:40])
            check_trainer(trainer, junk)
    for control, state in control_states(trainer):
        page_sets(control, state)
        check_trainer(trainer)
    trainer.play_button.click()  # "Play it out"
    stepper = trainer.stepper
    assert isinstance(stepper, TrickStepper) and stepper.seat == seat
    states = control_states(stepper)
    for step in range(len(stepper.steps)):
        page_sets(stepper, {"step": step})
        check_stepper(stepper, seat)
        for control, state in states:
            if page_sets(control, state):
                check_stepper(stepper, seat)
    assert stepper.controls is not None and "view" not in stepper.controls
    for button in (x for x in walk(trainer) if isinstance(x, w.Button)):
        button.click()
        trainer.wait(60)
        check_trainer(trainer)


@pytest.mark.parametrize("value", ["²", "99", "6", "-1", "9" * 5000, "\u0663", ""])
def test_a_bad_prediction_from_the_page_is_refused_and_play_it_out_still_works(value: str) -> None:
    trainer = BidTrainer("tricks-and-stones", 4, seed=3, seat=1, samples=10)
    trainer.board.intent("predict", "4")
    assert str(trainer.action) == "predict 4"
    trainer.board.intent("predict", value)
    assert str(trainer.action) == "predict 4"
    assert alert_shown(trainer)
    if value.isascii() and value.lstrip("-").isdigit() and len(value) < 4:
        with pytest.raises(tricklab.TricklabError) as refusal:
            trainer.rules.apply(trainer.match.state, tricklab.actions.Predict(int(value)))
        assert str(refusal.value) in trainer.message, "the engine's own message"
    trainer.play_button.click()
    stepper = trainer.stepper
    assert stepper is not None and tricklab.actions.Predict(4) in stepper.match.actions


def test_the_play_out_hides_the_later_predictions_at_the_learners_prediction_step() -> None:
    trainer = BidTrainer("tricks-and-stones", 4, seed=5, seat=0, samples=10)
    trainer.play_button.click()
    stepper = trainer.stepper
    assert stepper is not None
    at_start = stepper.steps[stepper.step].state  # seat 0's view at that step
    others = [s for s in range(1, 4) if at_start.predictions[s] is None]
    assert others, "at the learner's prediction step the later seats' predictions are secret"
    markup = stepper.board.scene["html"]
    assert [o for o in others if f"⚑ {o + 1}</span>" in markup] == []


def test_no_other_prediction_shows_before_the_reveal_step() -> None:
    trainer = BidTrainer("tricks-and-stones", 4, seed=5, seat=0, samples=10)
    stepper = trainer.play_out()
    assert stepper is not None
    start = stepper.step
    reveal = next(i for i in range(start, len(stepper.steps)) if stepper.steps[i].event.kind == "reveal")
    shown = []
    for i in range(start, reveal):
        stepper.go(i)
        shown += [(i, o) for o in range(1, 4) if f"⚑ {o + 1}</span>" in stepper.board.scene["html"]]
    assert shown == []


def test_the_bid_trainer_app_is_a_seat() -> None:
    app = bid_trainer_app("game=band-of-tricks&players=4&seed=2&seat=3")
    trainer = app.children[1]
    assert isinstance(trainer, BidTrainer) and trainer.seat == 2
    trainer.play_button.click()
    stepper = trainer.stepper
    assert stepper is not None and stepper.seat == 2 and [x for x in walk(app) if isinstance(x, w.Dropdown)] == []


# --- Quiz -----------------------------------------------------------------------------------------

QUIZZES = [("tricks-and-stones", 4, 3), ("band-of-tricks", 5, 2), ("jewel-vault", 3, 1)]


def quiz_state(quiz: Quiz) -> tuple[Any, ...]:
    return quiz.index, quiz.picks, tuple(quiz.verdicts), quiz.questions


@pytest.mark.parametrize(("game", "players", "seed"), QUIZZES)
def test_a_quiz_refuses_junk_answers_and_takes_every_control_state(game: str, players: int, seed: int) -> None:
    quiz = Quiz(game, players, seed=seed, count=3)
    for junk in JUNK:
        before = quiz_state(quiz)
        quiz.board.intent("answer", junk)
        assert quiz_state(quiz) == before and alert_shown(quiz), junk[:40]
        assert_safe(quiz, junk)
        quiz.board.intent("key", junk)
        assert quiz_state(quiz) == before
    for control, state in control_states(quiz):
        page_sets(control, state)
        assert_safe(quiz)
        assert quiz.level == quiz.level_picker.value, "the picker shows the level being asked"
    for page, _ in scene_controls(quiz, "button"):
        page.click()
        assert_safe(quiz)


@pytest.mark.parametrize(("game", "players", "seed"), QUIZZES)
@given(data=st.data())
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_quiz_under_any_sequence_of_page_messages(game: str, players: int, seed: int, data: st.DataObject) -> None:
    quiz = Quiz(game, players, seed=seed, count=3)
    for _ in range(data.draw(st.integers(1, 10))):
        sent = page_message(quiz, data)
        assert_safe(quiz, sent)
        right, answered = quiz.score
        assert 0 <= right <= answered <= len(quiz.questions)


# --- TrickExplainer -------------------------------------------------------------------------------

TYPED_JUNK = ("²", "9" * 5000, "x" * 20_000, "7H " * 3000, "\x00", *MARKUP)


def test_an_explainer_refuses_junk_clicks_and_typing_and_keeps_its_trick() -> None:
    explainer = TrickExplainer("tricks-and-stones", 4, cards="7H AH")
    for junk in JUNK:
        explainer.board.intent("add", junk)
        assert [str(c) for c in explainer.cards] == ["7H", "AH"] and alert_shown(explainer), junk[:40]
        assert_safe(explainer, junk)
    for junk in TYPED_JUNK:
        explainer.control("entry", junk)
        assert [str(c) for c in explainer.cards] == ["7H", "AH"] and alert_shown(explainer), junk[:40]
        assert_safe(explainer, junk)


def test_an_explainer_refuses_junk_from_its_controls_and_its_traits() -> None:
    """Whatever the page sends for a control or a synced trait, the trick stays and the page is told why."""
    explainer = TrickExplainer("tricks-and-stones", 4, cards="7H AH")
    state = (explainer.game, explainer.players, explainer.trump, list(explainer.cards))
    for junk in (*JUNK, None):
        for name in ("game", "players", "trump", "large", "nowhere", junk):
            explainer.message = ""
            explainer.control(name, junk)  # type: ignore[arg-type]
            assert (explainer.game, explainer.players, explainer.trump, list(explainer.cards)) == state
            assert explainer.message, (name, junk)
            assert_safe(explainer, junk)
        for trait in ("game", "players", "trump", "cards"):
            if (trait, junk) == ("trump", None):
                continue  # None is no trump: a value the trump may take
            explainer.set_state({trait: [junk] if trait == "cards" else junk})
            assert (explainer.game, explainer.players, explainer.trump, list(explainer.cards)) == state
            assert_safe(explainer, junk)
    explainer.set_state({"scene": {"html": MARKUP[0]}, "message": MARKUP[1]})  # not the page's to set
    assert MARKUP[0] not in explainer.scene["html"] and explainer.message != MARKUP[1]


def _typed(explainer: TrickExplainer, data: st.DataObject) -> str:
    sent: str = data.draw(st.one_of(st.sampled_from(TYPED_JUNK), st.text(max_size=40)))
    explainer.control("entry", sent)
    return sent


def _scene_control(explainer: TrickExplainer, data: st.DataObject) -> str | None:
    """Any control name (one of the widget's, or not) with any value."""
    name = data.draw(st.one_of(st.sampled_from([c.name for c in explainer.controls or ()]), st.text(max_size=12)))
    value: str | None = data.draw(VALUES)
    explainer.control(name, value)
    return value


@given(data=st.data())
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_an_explainer_under_any_sequence_of_page_messages(data: st.DataObject) -> None:
    explainer = TrickExplainer("band-of-tricks", 4, cards="P3 S5")
    for _ in range(data.draw(st.integers(1, 10))):
        sent = page_message(explainer, data, {"typed": _typed, "scene-control": _scene_control})
        assert_safe(explainer, sent)
        assert explainer.game_picker.value == explainer.rules.name
        assert explainer.players_picker.value == explainer.rules.players
        assert len(explainer.cards) <= explainer.rules.trick_size


# --- the checks can fail ---------------------------------------------------------------------------


def test_the_seat_check_sees_a_teachers_board() -> None:
    """The check above is not vacuous: the teacher's board of a seat's state fails it."""
    match = bot_match("band-of-tricks", 4, 2)
    teacher = TrickStepper(match)
    teacher.go(3)
    with pytest.raises(AssertionError, match="shows hidden cards"):
        assert_seat_only(teacher.board.scene["html"], teacher.rules, teacher.steps[3].state, 1)


def test_the_seat_check_sees_a_mandala_hand_shown_to_the_other_seat() -> None:
    """For Mandala too: the teacher's board, which shows both hands, fails the check of a seat."""
    from tricklab.display import view_html

    rules = tricklab.get_rules("mandala", players=2)
    state = rules.new_match(seed=4).state
    assert_seat_only(view_html(rules, rules.view(state, 0)), rules, state, 0)
    with pytest.raises(AssertionError, match="not face down"):
        assert_seat_only(view_html(rules, rules.view(state, None)), rules, state, 0)


def test_the_safety_check_sees_an_unescaped_payload() -> None:
    board = Board()
    board.scene = {"html": f"<p>{MARKUP[0]}</p>"}
    with pytest.raises(AssertionError):
        assert_safe(board, MARKUP[0])
