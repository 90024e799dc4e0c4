"""TrickExplainer: build any trick and see its ranking and every reason, from the engine."""

from __future__ import annotations

from typing import Any

import ipywidgets as w

from .. import get_rules
from ..cards import Card
from ..display import card_html, esc, outcome_html
from ..errors import InvalidOption, TricklabError, describe
from ..games import DEFAULT_GAME, find_game, games_with
from ..games.base import Rules, TrickOutcome
from ..games.capabilities import TRUMP
from .board import Board, LookToggles, controls_row
from .inputs import MAX_TYPED, check_flag, clicked_card

# The trump picker offers what the trump context declares; a dropdown cannot show None, so "none".
TRUMP_CHOICES = [(text, "none" if value is None else value) for text, value in TRUMP.choices]


class TrickExplainer(w.VBox):  # type: ignore[misc]
    """Pick a game, enter a trick by clicking deck cards or typing notation, read why.

    ``trump`` is the trump suit's letter (``S``, ``H``, ``D``, ``C``) or ``None``, for the games
    whose tricks have a trump. Bad input (an unknown card, a card twice, too many cards) shows
    the engine's own message and keeps the previous trick.
    """

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
        self.rules: Rules[Any] = get_rules(cls.name, players=players)
        shown = _trump_choice(trump)
        if not isinstance(cards, str) and not (
            isinstance(cards, (list, tuple)) and all(isinstance(c, str | Card) for c in cards)
        ):
            raise InvalidOption(f"cards is text like '7H AH', or a list of cards, not {describe(cards)}")
        check_flag("four_colour", four_colour)
        check_flag("large", large)
        self.cards: tuple[Card, ...] = ()
        self.outcome: TrickOutcome | None = None

        self.game_picker = w.Dropdown(
            options=[(c.title, c.name) for c in TRICK_GAMES], value=cls.name, description="Game"
        )
        self.players_picker = w.Dropdown(options=list(cls.player_counts), value=players, description="Players")
        self.trump_picker = w.Dropdown(
            options=TRUMP_CHOICES,
            value=shown,
            description=TRUMP.label,
        )
        self.entry = w.Text(placeholder="type cards, e.g. 7H AH 8S KD", description="Trick", continuous_update=False)
        self.show_button = w.Button(description="Show", button_style="primary", tooltip="rank the typed trick")
        self.back_button = w.Button(description="Remove last", tooltip="take the last card off the trick")
        self.clear_button = w.Button(description="Clear", tooltip="start an empty trick")
        self.message = w.HTML()
        self.board = Board()
        self.look = LookToggles(large=large, four_colour=four_colour, on_change=self._render)

        self.game_picker.observe(self._game_changed, "value")
        self.players_picker.observe(self._players_changed, "value")
        self.trump_picker.observe(self._trump_changed, "value")
        self.entry.observe(self._typed, "value")  # on Enter or when the box loses the focus
        self.show_button.on_click(lambda _: self.type_trick(self.entry.value))
        self.back_button.on_click(lambda _: self._show(self.cards[:-1]))
        self.clear_button.on_click(lambda _: self._show(()))
        self.board.on_intent(self._intent)

        settings = controls_row([self.game_picker, self.players_picker, self.trump_picker, self.look])
        entry = controls_row([self.entry, self.show_button, self.back_button, self.clear_button])
        super().__init__([settings, entry, self.message, self.board])
        self.add_class("tricklab-explainer")
        self._sync_controls()
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
        return self._show((*self.cards, parsed))

    def set_game(self, game: str, players: int | None = None) -> None:
        """Show another game (and player count; ``None``: the count shown if the game has it)."""
        cls = _trick_game(game)
        if players is not None:
            cls.create(players)  # the game says which player counts it is for
        self.game_picker.value = cls.name
        if players is not None:
            self.players_picker.value = players

    # --- internals -----------------------------------------------------------------------------------

    def _trump(self) -> dict[str, Any]:
        if self.rules.capabilities.context_of(TRUMP.key) is None:
            return {}
        value = self.trump_picker.value
        return {"trump": None if value == "none" else value}

    def _show(self, cards: tuple[Card, ...]) -> bool:
        try:
            outcome = self.rules.resolve_trick(cards, **self._trump()) if cards else None
        except TricklabError as exc:
            self._error(exc)
            return False
        self.cards = tuple(cards)
        self.outcome = outcome
        self.message.value = ""
        self.entry.value = " ".join(str(c) for c in self.cards)
        self._render()
        return True

    def _error(self, exc: TricklabError) -> None:
        self._say(str(exc))

    def _say(self, message: str) -> None:
        self.message.value = f'<div class="tricklab-message" role="alert">{esc(message)}</div>'

    def link_state(self) -> dict[str, str]:
        """What a link needs to show this trick: the game, players, trump, cards, look toggles."""
        state = {"game": self.rules.name, "players": str(self.rules.players)}
        state["trump"] = str(self.trump_picker.value)
        if self.cards:
            state["cards"] = " ".join(str(c) for c in self.cards)
        return {**state, **self.look.link_state()}

    def _render(self) -> None:
        if self.outcome is not None:
            body = outcome_html(
                self.outcome, rules=self.rules, four_colour=self.look.four_colour.value, standalone=False
            )
        else:
            body = '<p class="tl-summary">Click cards below, or type them above, to build a trick.</p>'
        used = set(self.cards)
        deck = "".join(
            card_html(
                c,
                four_colour=self.look.four_colour.value,
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
        self.board.scene = {
            "html": body + picker,
            "label": f"{self.rules.title} trick explainer",
            "large": self.look.large.value,
            "winner": winner,
            "cards": [str(c) for c in self.cards],
        }

    def _typed(self, change: dict[str, Any]) -> None:
        if change["new"] != " ".join(str(c) for c in self.cards):
            self.type_trick(change["new"])

    def _intent(self, intent: str, value: str | None) -> None:
        if intent != "add":
            return
        try:
            card = clicked_card(self.rules, value)
        except TricklabError as exc:
            self._error(exc)
            return
        self.add_card(card)

    def _trump_changed(self, change: dict[str, Any]) -> None:
        if change["new"] is None:  # a blank choice from the page: the trump shown stays
            self.trump_picker.value = change["old"]
            return
        self._show(self.cards)

    def _sync_controls(self) -> None:
        offered = self.rules.capabilities.context_of(TRUMP.key) is not None
        self.trump_picker.layout.display = "" if offered else "none"

    def _game_changed(self, change: dict[str, Any]) -> None:
        if change["new"] is None:  # a blank choice from the page: the game shown stays
            self.game_picker.value = self.rules.name
            return
        if change["new"] == self.rules.name:
            return
        cls = _trick_game(change["new"])
        counts = list(cls.player_counts)
        players = self.rules.players if self.rules.players in counts else counts[-1]
        self.rules = get_rules(cls.name, players=players)
        with self.players_picker.hold_trait_notifications():
            self.players_picker.options = counts
            self.players_picker.value = players
        self._sync_controls()
        self._show(())

    def _players_changed(self, change: dict[str, Any]) -> None:
        if change["new"] is None:
            self.players_picker.value = self.rules.players
            return
        if change["new"] == self.rules.players:
            return
        self.rules = get_rules(self.rules.name, players=change["new"])
        kept = self.cards[: self.rules.trick_size]
        if not self._show(kept):
            self._show(())

    def __repr__(self) -> str:
        cards = " ".join(str(c) for c in self.cards)
        return f"TrickExplainer(game={self.rules.name!r}, players={self.rules.players}, cards={cards!r})"


def _trump_choice(trump: object) -> str:
    """The trump picker's value for ``trump``: a suit letter (either case), or "none" for ``None``."""
    values = [value for _, value in TRUMP_CHOICES]
    if trump is None:
        return "none"
    if isinstance(trump, str):
        text = trump.strip()
        choice = text.lower() if text.lower() == "none" else text.upper()
        if choice in values:
            return choice
    letters = ", ".join(value for value in values if value != "none")
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
