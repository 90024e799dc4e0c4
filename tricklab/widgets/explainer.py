"""TrickExplainer: build any trick and see its ranking and every reason, from the engine."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import traitlets

from .. import get_rules
from ..cards import Card
from ..display import card_html, esc, outcome_html
from ..errors import InvalidOption, TricklabError, describe
from ..games import DEFAULT_GAME, find_game, games_with
from ..games.base import Rules, TrickOutcome
from ..games.capabilities import TRUMP
from .board import Board
from .controls import Button, Controls, Picker, TextEntry, look_toggles
from .inputs import MAX_TYPED, MAX_VALUE, PageValue, check_flag, clicked_card, too_long

if TYPE_CHECKING:
    from ..classwork import ClassQuestion


class TrickExplainer(Board):
    """Pick a game, enter a trick by clicking deck cards or typing notation, read why.

    ``trump`` is the trump suit's letter (``S``, ``H``, ``D``, ``C``) or ``None``, for the games
    whose tricks have a trump. Bad input (an unknown card, a card twice, too many cards) shows
    the engine's own message and keeps the previous trick.

    One anywidget (a :class:`Board`): its pickers, text box and buttons are drawn by the front
    end from the scene (``explainer.controls["trump"]``, ``explainer.controls["show"].click()``),
    and what a notebook cares about is synced traits, observable and linkable: ``game``,
    ``players``, ``trump`` (``None``: no trump), ``cards`` (the trick, a list of card codes),
    ``large``, ``four_colour`` and ``message`` (what went wrong, in words; ``""`` when nothing
    did). Setting one (``explainer.cards = ["7H", "AH"]``) is checked by the engine like typing:
    a refused value raises its :class:`~tricklab.errors.TricklabError` and changes nothing.
    """

    game = traitlets.Unicode().tag(sync=True)
    players = traitlets.Int().tag(sync=True)
    trump = traitlets.Unicode(None, allow_none=True).tag(sync=True)
    cards = traitlets.List(traitlets.Unicode()).tag(sync=True)
    large = traitlets.Bool(False).tag(sync=True)
    four_colour = traitlets.Bool(False).tag(sync=True)
    _page_traits = frozenset({"game", "players", "trump", "cards", "large", "four_colour"})

    def __init__(
        self,
        game: str = DEFAULT_GAME,
        players: int | None = None,
        trump: str | None = "S",
        cards: str | list[str] = "",
        *,
        four_colour: bool = False,
        large: bool = False,
    ) -> None:
        cls = _trick_game(game)
        players = players if players is not None else _default_players(cls)
        rules: Rules[Any] = get_rules(cls.name, players=players)
        shown = _trump_choice(trump)
        if not isinstance(cards, str) and not (
            isinstance(cards, (list, tuple)) and all(isinstance(c, str | Card) for c in cards)
        ):
            raise InvalidOption(f"cards is text like '7H AH', or a list of cards, not {describe(cards)}")
        check_flag("four_colour", four_colour)
        check_flag("large", large)
        self._ready = False  # the observers wait until the whole widget is made
        super().__init__()
        self.rules = rules
        self.outcome: TrickOutcome | None = None
        self._trick: tuple[Card, ...] = ()
        self.game = cls.name
        self.players = players
        self.trump = shown
        self.large = large
        self.four_colour = four_colour

        self.game_picker = Picker("game", "Game", [(c.title, c.name) for c in TRICK_GAMES], cls.name)
        self.players_picker = Picker("players", "Players", _counts(cls), players)
        self.trump_picker = Picker("trump", TRUMP.label, TRUMP.choices, shown)
        self.entry = TextEntry("entry", "Trick", placeholder="type cards, e.g. 7H AH 8S KD")
        self.show_button = Button("show", "Show", primary=True, tooltip="rank the typed trick")
        self.back_button = Button("back", "Remove last", tooltip="take the last card off the trick")
        self.clear_button = Button("clear", "Clear", tooltip="start an empty trick")
        self.large_toggle, self.colour_toggle = look_toggles(large, four_colour)

        self.game_picker.on_change(lambda value: self._from_control("game", value))
        self.players_picker.on_change(lambda value: self._from_control("players", value))
        self.trump_picker.on_change(lambda value: self._from_control("trump", value))
        self.large_toggle.on_change(lambda value: self._from_control("large", value))
        self.colour_toggle.on_change(lambda value: self._from_control("four_colour", value))
        self.entry.on_submit(self._typed)
        self.show_button.on_click(lambda: self.type_trick(self.entry.value))
        self.back_button.on_click(lambda: self._show(self._trick[:-1]))
        self.clear_button.on_click(lambda: self._show(()))
        self.on_intent(self._intent)
        self.use_controls(
            Controls(
                [
                    [self.game_picker, self.players_picker, self.trump_picker, self.large_toggle, self.colour_toggle],
                    [self.entry, self.show_button, self.back_button, self.clear_button],
                ]
            )
        )
        self.add_class("tricklab-explainer")
        self._ready = True
        if cards:
            self.type_trick(cards if isinstance(cards, str) else " ".join(str(c) for c in cards))
        else:
            self._show(())

    # --- what a learner does ---------------------------------------------------------------------

    def type_trick(self, text: str) -> bool:
        """Replace the trick with the typed cards; on bad input keep the old trick."""
        if not isinstance(text, str):
            raise InvalidOption(f"text is the cards typed, like '7H AH', not {describe(text)}")
        if len(text) > MAX_TYPED:
            self._say(f"That is {len(text):,} characters: a trick is a few cards, like 7H AH 8S KD.")
            return False
        try:
            cards = self.rules.cards(text)
        except TricklabError as exc:
            self._error(exc)
            return False
        return self._show(cards)

    def add_card(self, card: str | Card) -> bool:
        """Add one card to the end of the trick (what clicking a deck card does)."""
        if not isinstance(card, str | Card):
            raise InvalidOption(f"card must be a card or its text, like 'AS', not {describe(card)}")
        try:
            parsed = self.rules.card(card)
        except TricklabError as exc:
            self._error(exc)
            return False
        return self._show((*self._trick, parsed))

    def set_game(self, game: str, players: int | None = None) -> None:
        """Show another game (and player count; ``None``: the count shown if the game has it)."""
        cls = _trick_game(game)
        if players is not None:
            cls.create(players)  # the game says which player counts it is for
        with self.hold_redraw():
            self.game = cls.name
            if players is not None:
                self.players = players

    def class_question(self) -> ClassQuestion:
        """The trick shown, as a question for a class: which card wins it?"""
        from ..classwork import ClassworkError, which_wins

        if len(self.cards) < 2:
            raise ClassworkError("a trick is sent to the class once it has two cards or more")
        return which_wins(self.game, self.cards, players=self.players, four_colour=self.four_colour, **self._trump())

    def link_state(self) -> dict[str, str]:
        """What a link needs to show this trick: the game, players, trump, cards, look toggles."""
        state = {"game": self.rules.name, "players": str(self.rules.players)}
        state["trump"] = "none" if self.trump is None else self.trump
        if self.cards:
            state["cards"] = " ".join(self.cards)
        look = {"large": self.large, "four_colour": self.four_colour}
        return {**state, **{name: "1" for name, on in look.items() if on}}

    # --- the state, checked -------------------------------------------------------------------------

    @traitlets.validate("game")
    def _check_game(self, proposal: Any) -> str:
        return _trick_game(proposal["value"]).name

    @traitlets.validate("players")
    def _check_players(self, proposal: Any) -> int:
        players = proposal["value"]
        _trick_game(self.game).create(players)  # the game says which player counts it is for
        return int(players)

    @traitlets.validate("trump")
    def _check_trump(self, proposal: Any) -> str | None:
        return _trump_choice(proposal["value"])

    @traitlets.validate("cards")
    def _check_cards(self, proposal: Any) -> list[str]:
        """The trick as the engine reads it; the engine's error if it cannot be ranked."""
        value = proposal["value"][: self.rules.trick_size + 1]  # one card too many is enough to refuse
        trick = tuple(self.rules.card(_card_text(c)) for c in value)
        if trick:
            self.rules.resolve_trick(trick, **self._trump())
        return [str(c) for c in trick]

    @traitlets.observe("game")
    def _game_changed(self, change: dict[str, Any]) -> None:
        if not self._ready or change["new"] == self.rules.name:
            return
        cls = _trick_game(change["new"])
        counts = list(cls.player_counts)
        players = self.rules.players if self.rules.players in counts else counts[-1]
        self.rules = get_rules(cls.name, players=players)
        with self.hold_redraw():
            self.players = players
            self._show(())

    @traitlets.observe("players")
    def _players_changed(self, change: dict[str, Any]) -> None:
        if not self._ready or change["new"] == self.rules.players:
            return
        self.rules = get_rules(self.rules.name, players=change["new"])
        kept = self._trick[: self.rules.trick_size]
        if not self._show(kept):
            self._show(())

    @traitlets.observe("cards", "trump")
    def _trick_changed(self, _change: dict[str, Any]) -> None:
        if self._ready:
            self._refresh()

    @traitlets.observe("large", "four_colour")
    def _look_changed(self, _change: dict[str, Any]) -> None:
        if self._ready:
            self._render()

    # --- internals -----------------------------------------------------------------------------------

    def _trump(self) -> dict[str, Any]:
        if self.rules.capabilities.context_of(TRUMP.key) is None:
            return {}
        return {"trump": self.trump}

    def _show(self, cards: tuple[Card, ...]) -> bool:
        """Show ``cards`` as the trick (the message cleared), or say why not and keep the trick."""
        codes = [str(c) for c in cards]
        try:
            if codes == self.cards:
                self._refresh()  # the same trick again: its ranking and the cleared message anew
            else:
                self.cards = codes
        except TricklabError as exc:
            self._error(exc)
            return False
        return True

    def _refresh(self) -> None:
        """The trick of ``cards`` ranked under ``trump``, the message cleared, the scene redrawn."""
        trick = tuple(self.rules.card(c) for c in self.cards)
        self.outcome = self.rules.resolve_trick(trick, **self._trump()) if trick else None
        self._trick = trick
        self.message = ""
        self._render()

    def _from_control(self, name: str, value: Any) -> None:
        """A control's new value, given to the trait it shows; refused, the control shows the trait again."""
        try:
            setattr(self, name, value)
        except TricklabError:
            self._sync_controls()
            raise

    def _error(self, exc: TricklabError) -> None:
        self._say(str(exc))

    def _refused(self, exc: TricklabError) -> None:
        self._error(exc)

    def _say(self, message: str) -> None:
        self.message = message

    def _sync_controls(self) -> None:
        """The controls show the state: the game, its player counts, the trump (where the game
        has one), the trick typed out, the look toggles."""
        cls = _trick_game(self.game)
        self.game_picker.value = cls.name
        self.players_picker.set_options(_counts(cls), self.rules.players)
        self.trump_picker.value = self.trump
        self.trump_picker.hidden = self.rules.capabilities.context_of(TRUMP.key) is None
        self.entry.value = " ".join(self.cards)
        self.large_toggle.value = self.large
        self.colour_toggle.value = self.four_colour

    def _render(self) -> None:
        if self.outcome is not None:
            body = outcome_html(self.outcome, rules=self.rules, four_colour=self.four_colour, standalone=False)
        else:
            body = '<p class="tl-summary">Click cards below, or type them above, to build a trick.</p>'
        used = set(self._trick)
        deck = "".join(
            card_html(
                c,
                four_colour=self.four_colour,
                intent="add",
                disabled=c in used,
                classes=["tl-not-legal"] if c in used else [],
            )
            for c in self.rules.deck()
        )
        picker = (
            f'<section class="tl-deck" aria-label="The deck: click a card to add it to the trick">'
            f'<h4>The deck of {esc(self.rules.title)}</h4><div class="tl-cards">{deck}</div></section>'
        )
        winner = "" if self.outcome is None else str(self.outcome.winning_card)
        with self.hold_redraw():
            self._sync_controls()
            self.scene = {
                "html": body + picker,
                "label": f"{self.rules.title} trick explainer",
                "large": self.large,
                "winner": winner,
                "cards": list(self.cards),
            }

    def _typed(self, text: str) -> None:
        if text != " ".join(self.cards):
            self.type_trick(text)

    def _intent(self, intent: str, value: str | None) -> None:
        if intent != "add":
            return
        try:
            card = clicked_card(self.rules, value)
        except TricklabError as exc:
            self._error(exc)
            return
        self.add_card(card)

    def __repr__(self) -> str:
        cards = " ".join(self.cards)
        return f"TrickExplainer(game={self.rules.name!r}, players={self.rules.players}, cards={cards!r})"


def _counts(cls: type[Rules[Any]]) -> list[tuple[str, int]]:
    """The players picker's options: the game's player counts."""
    return [(str(n), n) for n in cls.player_counts]


def _card_text(value: str) -> str:
    """A card code as a trait holds it: refused when longer than any card's code."""
    if len(value) > MAX_VALUE:
        raise PageValue(too_long(value))
    return value


def _trump_choice(trump: object) -> str | None:
    """The trump for ``trump``: a suit letter (either case), or ``None`` for ``None`` or "none"."""
    values = [value for _, value in TRUMP.choices if value is not None]
    if trump is None:
        return None
    if isinstance(trump, str) and len(trump) <= 8:
        text = trump.strip()
        if text.lower() == "none":
            return None
        if text.upper() in values:
            return text.upper()
    letters = ", ".join(values)
    raise InvalidOption(f"trump is a suit letter ({letters}), or None for no trump, not {describe(trump)}")


def _default_players(cls: type[Rules[Any]]) -> int:
    """The player count the explainer starts with: the game's declared one, else the most."""
    players = cls.capabilities.explainer_players
    return players if players is not None else cls.player_counts[-1]


TRICK_GAMES = tuple(games_with(lambda c: c.tricks))  # the games the explainer ranks tricks of


def _trick_game(game: object) -> type[Rules[Any]]:
    """The game of that name, if it is played in tricks."""
    cls = find_game(game)
    if not cls.capabilities.tricks:
        names = ", ".join(c.name for c in TRICK_GAMES)
        raise InvalidOption(f"{cls.title} is not played in tricks: the trick explainer is for {names}")
    return cls
