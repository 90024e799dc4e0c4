"""What assistive technology reads, in Python: disabled cards and why, the announced event, the next focus.

The pages themselves are scanned by axe-core in ``test_browser_a11y.py``; these tests check the
markup and the scene fields the board's front end uses.
"""

from __future__ import annotations

import re
from html import escape as html_escape
from html.parser import HTMLParser

import tricklab
from tricklab.actions import Play
from tricklab.display import cards_html
from tricklab.widgets import PlayTable, TrickStepper


class Elements(HTMLParser):
    """Every element's attributes, and the text of each element with an id."""

    def __init__(self) -> None:
        super().__init__()
        self.attrs: list[dict[str, str]] = []
        self.text: dict[str, str] = {}
        self._open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {k: v or "" for k, v in attrs}
        self.attrs.append(found)
        if "id" in found and tag not in ("input", "br", "img"):
            self._open.append(found["id"])
            self.text[found["id"]] = ""

    def handle_endtag(self, tag: str) -> None:
        if self._open and tag in ("p", "span", "div"):
            self._open.pop()

    def handle_data(self, data: str) -> None:
        for key in self._open:
            self.text[key] += data


def parse(markup: str) -> Elements:
    parser = Elements()
    parser.feed(markup)
    return parser


def hand_cards(markup: str) -> list[dict[str, str]]:
    return [a for a in parse(markup).attrs if a.get("data-intent") == "play"]


def test_cards_not_playable_are_aria_disabled_and_described_by_the_sentence_of_why() -> None:
    rules = tricklab.get_rules("tricks-and-stones", players=4)
    hand = rules.cards("7H JH KC AS")
    markup = cards_html(hand, intent="play", legal=rules.cards("7H JH"), why_id="why-1")
    cards = {a["data-value"]: a for a in hand_cards(markup)}
    for card in ("7H", "JH"):
        assert "tl-legal" in cards[card]["class"]
        assert "aria-disabled" not in cards[card] and "aria-describedby" not in cards[card]
    for card in ("KC", "AS"):
        assert "tl-not-legal" in cards[card]["class"]
        assert cards[card]["aria-disabled"] == "true" and cards[card]["aria-describedby"] == "why-1"
    # a hand that is only shown (no intent) is not a set of disabled buttons
    assert "aria-disabled" not in cards_html(hand, legal=rules.cards("7H JH"), why_id="why-1")


def learner_with_an_unplayable_card(seed: int = 11) -> PlayTable:
    table = PlayTable("tricks-and-stones", 4, seat=0, seed=seed, pace=0, hold=0)
    for _ in range(400):
        legal = table.match.legal_actions()
        plays = {a.card for a in legal if isinstance(a, Play)}
        if table.my_turn and plays and set(table.match.state.hands[0]) - plays:
            return table
        assert not table.match.is_over
        table.act(legal[0])
    raise AssertionError("the learner never held a card they could not play")


def test_the_play_table_describes_each_unplayable_card_with_the_engines_reason() -> None:
    table = learner_with_an_unplayable_card()
    markup = table.board.scene["html"]
    found = parse(markup)
    why = table.rules.explain_choice(table.match.view(0), 0).text
    barred = [a for a in hand_cards(markup) if "tl-not-legal" in a["class"]]
    assert barred
    ids = {a.get("aria-describedby") for a in barred}
    assert len(ids) == 1 and None not in ids
    (why_id,) = ids
    assert found.text[str(why_id)].strip() == why, "the visible sentence is the engine's, word for word"
    assert [a.get("id") for a in found.attrs].count(why_id) == 1
    for card in hand_cards(markup):
        if "tl-legal" in card["class"]:
            assert "aria-disabled" not in card
    # an illegal click still reaches Python and is explained
    before = table.match.to_json()
    table.board.intent("play", barred[0]["data-value"])
    assert table.match.to_json() == before
    assert table.message  # in the board's live region (role="alert")


def test_the_scene_announces_the_caption_once_outside_the_redrawn_markup() -> None:
    table = learner_with_an_unplayable_card()
    scene = table.board.scene
    caption = re.search(r'<p class="tl-caption">(.*?)</p>', scene["html"])
    assert caption and html_escape(scene["announce"]) == caption.group(1)
    assert 'class="tl-caption" aria-live' not in scene["html"], "no live region inside the redrawn markup"


def test_after_a_play_focus_goes_to_what_the_learner_does_next() -> None:
    table = learner_with_an_unplayable_card()
    assert table.board.scene["focus"] == "button.tl-card.tl-legal[data-intent='play']"
    legal = [a for a in table.match.legal_actions() if isinstance(a, Play)]
    table.board.intent("play", str(legal[0].card))
    scene = table.board.scene
    focus = scene["focus"]
    if table.paused is not None:  # a finished trick (or a round's sheet) waits: go on is next
        assert focus == "[data-intent='continue']"
        assert 'data-intent="continue"' in scene["html"]
    elif table.my_turn:
        assert focus
    # a redraw that changes nothing (an illegal click) leaves focus where the learner put it
    table.board.intent("play", "not-a-card")
    assert table.board.scene["focus"] == ""


def test_the_steppers_scene_announces_each_step() -> None:
    stepper = TrickStepper(game="tricks-and-stones", players=4, seed=7, step=3)
    scene = stepper.board.scene
    assert scene["announce"] == f"Step 3 of {len(stepper.steps) - 1}: {stepper.caption}"
    assert "aria-live" not in scene["html"]
    assert stepper.player.label == "Play" and stepper.slider.label == "Step"
