"""PlayTable: play one seat of a whole match against bots, every decision by clicking.

The widget only turns clicks into actions and asks the engine: legal cards are the
engine's ``legal_actions``; an illegal click shows the engine's own reason and changes
nothing. Decisions other than playing a card are drawn from the legal actions too:
number buttons for predictions, a bid builder, card picking for a pass, the chamber
board for gem actions, and a button per choice for the rest (Metal wins, ♣ targets...).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import ipywidgets as w

from .. import get_rules
from ..actions import Action, Announce, AssignMetal, Bid, Move, Pass, Place, Play, Predict, Skip, Steal
from ..bots import Bot, heuristic_bot, make_bots
from ..cards import Card
from ..display import bid_rows, card_html, esc, reasons_html, view_html
from ..display import choice_button as _button
from ..display import decision_html as _decision
from ..display.panels import MetalChoiceView
from ..errors import InvalidOption, TricklabError
from ..games import DEFAULT_GAME, find_game
from ..games.base import SeatView
from ..match import Match, Step
from .board import Board, LookToggles
from .inputs import bid_step, clicked_card, number, quote, short, too_long

BID_KEYS = ("rock", "soul", "pops")
ROUND_END = ("score", "round-end")  # the event kinds that close a round (scores, or Jewel Vault's round actions)


class PlayTable(w.VBox):  # type: ignore[misc]
    """One learner seat against heuristic bots, in any game, player count and variant.

    ``pace`` is the pause in seconds between two bot moves (0 plays them at once).
    Rules options (e.g. ``partnerships=True``) are passed on to the game.
    """

    def __init__(
        self,
        game: str = DEFAULT_GAME,
        players: int | None = None,
        *,
        seat: int = 0,
        seed: int = 0,
        pace: float = 0.8,
        four_colour: bool = False,
        large: bool = False,
        **options: Any,
    ) -> None:
        cls = find_game(game)
        players = players if players is not None else (4 if 4 in cls.player_counts else cls.player_counts[-1])
        rules = get_rules(cls.name, players=players)
        self.match: Match = rules.new_match(seed, **options)
        self.rules = self.match.rules
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise InvalidOption(f"seat must be 0 to {players - 1}, not {quote(repr(seat))}")
        self.seat = seat
        self.pace = pace
        self.bots: list[Bot] = make_bots(self.rules, "heuristic", seed)
        self._adviser = heuristic_bot(self.rules, seat, f"{seed}:hint")
        self._seen = len(self.match.timeline(self.seat))  # steps already shown to the learner
        self._recent: list[Step] = []
        self._message = ""
        self._hint = ""
        self._picked: list[str] = []  # cards chosen for a pass, or chambers for gems
        self._gem_mode = ""
        self._bid = dict.fromkeys(BID_KEYS, 0)
        self._pending: asyncio.TimerHandle | None = None  # the next bot move, when paced

        self.board = Board()
        self.board.on_intent(self._intent)
        self.look = LookToggles(large=large, four_colour=four_colour, on_change=self._render)
        self.undo_button = w.Button(description="Undo my last move", tooltip="take back your last decision")
        self.hint_button = w.Button(description="Hint", tooltip="what the heuristic bot would do")
        self.undo_button.on_click(lambda _: self.undo())
        self.hint_button.on_click(lambda _: self.hint())
        super().__init__([w.HBox([self.undo_button, self.hint_button, self.look]), self.board])
        self.add_class("tricklab-playtable")
        self._run_bots()

    # --- what the learner does ----------------------------------------------------------------------

    @property
    def my_turn(self) -> bool:
        return self.match.to_play == self.seat

    def act(self, action: Action | str) -> bool:
        """Take a decision for the learner's seat; an illegal one shows the engine's reason."""
        if not self.my_turn:
            self._refuse(self._wait())
            return False
        try:
            self.match.apply(action)
        except TricklabError as exc:
            self._message = str(exc)
            self._render()
            return False
        self._message = ""
        self._hint = ""
        self._picked = []
        self._gem_mode = ""
        self._show_new_steps(reset=True)
        self._run_bots()
        return True

    def _wait(self) -> str:
        return "Wait for your turn: " + (
            "the game is over."
            if self.match.is_over
            else f"{self.rules.seat_name(self.match.to_play or 0)} is to play."
        )

    def undo(self) -> bool:
        """Take back the learner's last decision (and the bot moves after it)."""
        seats = [state.to_play for state in self.match.states[:-1]]
        if self.seat not in seats:
            self._message = "There is nothing of yours to undo yet."
            self._render()
            return False
        self._cancel_pending()
        while True:
            seat = self.match.states[-2].to_play
            self.match.undo()
            if seat == self.seat:
                break
        self._seen = len(self.match.timeline(self.seat))
        self._recent = []
        self._message = "Your last move was taken back."
        self._hint = ""
        self._picked = []
        self._gem_mode = ""
        self._render()
        return True

    def hint(self) -> Action | None:
        """Show (and return) what the heuristic bot would do in the learner's place."""
        if not self.my_turn:
            return None
        action = self._adviser.choose(self.match.view(self.seat), self.match.legal_actions())
        self._hint = f"The heuristic bot would: {action}"
        self._render()
        return action

    # --- bots ---------------------------------------------------------------------------------------------

    def _run_bots(self) -> None:
        """Let the bots move until it is the learner's turn, one move per ``pace`` seconds."""
        if self.match.is_over or self.my_turn:
            self._render()
            return
        if self.pace <= 0:
            while not (self.match.is_over or self.my_turn):
                self._bot_move()
            self._render()
            return
        self._render()
        self._schedule(self._bot_step)

    def _bot_step(self) -> None:
        self._pending = None
        if self.match.is_over or self.my_turn:
            return
        self._bot_move()
        self._render()
        if not (self.match.is_over or self.my_turn):
            self._schedule(self._bot_step)

    def _bot_move(self) -> None:
        seat = self.match.to_play
        assert seat is not None
        self.match.apply(self.bots[seat].choose(self.match.view(seat), self.match.legal_actions()))
        self._show_new_steps()

    def _schedule(self, fn: Callable[[], None]) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = asyncio.get_event_loop()
        self._pending = loop.call_later(self.pace, fn)

    def _cancel_pending(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None

    def finish_bots(self) -> None:
        """Play every pending bot move now (tests and impatient learners)."""
        self._cancel_pending()
        while not (self.match.is_over or self.my_turn):
            self._bot_move()
        self._render()

    def _show_new_steps(self, reset: bool = False) -> None:
        steps = self.match.timeline(self.seat)
        new = steps[self._seen :]
        self._seen = len(steps)
        self._recent = (new if reset else self._recent + new)[-12:]

    # --- clicks ----------------------------------------------------------------------------------------------

    def _intent(self, intent: str, value: str | None) -> None:
        """Clicks on the board. A value from the page is read strictly (a card as its button
        writes it, a chamber as ASCII digits) and the engine decides whether the decision is
        allowed; anything refused changes nothing and the table says why."""
        read = {
            "play": self._play_card,
            "act": self._act_text,
            "pick": self._toggle,
            "gem-mode": self._set_gem_mode,
            "chamber": self._pick_chamber,
            "bid": self._adjust_bid,
        }.get(intent)
        if read is not None:
            text = short(value)
            if text is None:
                self._refuse(too_long(value) if value else "That click carried no value.")
            else:
                read(text)
        elif intent == "confirm":
            self._confirm()
        elif intent == "clear":
            self._picked = []
            self._render()

    def _refuse(self, message: str) -> None:
        self._message = message
        self._render()

    def _card(self, text: str) -> Card | None:
        """The card a card button names (its notation exactly), or ``None`` with the reason shown."""
        try:
            return clicked_card(self.rules, text)
        except TricklabError as exc:
            self._refuse(str(exc))
            return None

    def _play_card(self, text: str) -> None:
        card = self._card(text)
        if card is not None:
            self.act(Play(card))

    def _act_text(self, text: str) -> None:
        try:
            action = self.rules.parse_action(text)
        except TricklabError as exc:
            self._refuse(str(exc))
            return
        self.act(action)

    def _offered(self) -> set[type[Action]]:
        """The kinds of decision the engine offers the learner now."""
        return {type(a) for a in self.match.legal_actions()} if self.my_turn else set()

    def _toggle(self, text: str) -> None:
        if Pass not in self._offered():
            self._refuse("There are no cards to pick now.")
            return
        card = self._card(text)
        if card is None:
            return
        if str(card) in self._picked:
            self._picked.remove(str(card))
        else:
            self._picked.append(str(card))
        self._message = ""
        self._render()

    def _set_gem_mode(self, text: str) -> None:
        modes = {"place": Place, "move": Move}
        if text not in modes or modes[text] not in self._offered():
            self._refuse(f"“{quote(text)}” is not a gem action you can take now.")
            return
        self._gem_mode = text
        self._picked = []
        self._message = ""
        self._render()

    def _pick_chamber(self, text: str) -> None:
        if not (self._gem_mode and self._offered()):
            self._refuse("Choose Place gems or Move gems first, then click the chambers.")
            return
        chamber = number(text)
        if chamber is None:
            self._refuse(f"“{quote(text)}” is not a chamber: click one on the chamber board.")
            return
        self._picked.append(str(chamber))
        self._message = ""
        self._render()

    def _adjust_bid(self, text: str) -> None:
        step = bid_step(text)
        if step is None:
            self._refuse(f"“{quote(text)}” is not a step of a bid: use the \u2212 and + buttons.")
            return
        if not self.my_turn:
            self._refuse(self._wait())
            return
        bid = dict(self._bid)
        bid[step[0]] += step[1]
        try:  # the engine says whether this seat could bid that now
            self.rules.apply(self.match.state, Bid(bid["rock"], bid["soul"], bid["pops"]))
        except TricklabError as exc:
            self._refuse(str(exc))
            return
        self._bid = bid
        self._message = ""
        self._render()

    def _confirm(self) -> None:
        legal = self.match.legal_actions()
        kinds = {type(a) for a in legal}
        try:  # building the action: the engine checks its fields
            if Bid in kinds:
                action: Action = Bid(self._bid["rock"], self._bid["soul"], self._bid["pops"])
            elif Pass in kinds:
                action = Pass(tuple(self.rules.card(c) for c in self._picked))
            elif self._gem_mode == "place":
                action = Place(tuple(int(c) for c in self._picked))
            elif self._gem_mode == "move":
                chambers = [int(c) for c in self._picked]
                if len(chambers) % 2:
                    self._refuse("A move step needs two chambers: where the gem is, then its neighbour.")
                    return
                action = Move(tuple(zip(chambers[::2], chambers[1::2], strict=True)))
            else:
                return
        except TricklabError as exc:
            self._refuse(str(exc))
            return
        self.act(action)

    # --- drawing -------------------------------------------------------------------------------------------------

    def _render(self) -> None:
        view = self.match.view(self.seat)
        legal = self.match.legal_actions() if self.my_turn else []
        plays = [a.card for a in legal if isinstance(a, Play)]
        parts = []
        if self._recent:
            items = "".join(f"<li>{esc(s.event.text)}</li>" for s in self._recent)
            parts.append(f'<ol class="tl-log" aria-label="What just happened">{items}</ol>')
        status = self._status()
        parts.append(f'<p class="tl-caption" aria-live="polite">{esc(status)}</p>')
        if self._message:
            parts.append(f'<p class="tl-message" role="alert">⚠ {esc(self._message)}</p>')
        if self._hint:
            parts.append(f'<p class="tl-hint">💡 {esc(self._hint)}</p>')
        parts.append(self._decision_html(view, legal))
        parts.append(
            view_html(
                self.rules,
                view,
                four_colour=self.look.four_colour.value,
                legal=plays,
                hand_intent="play" if plays else None,
                board_intent="chamber" if self._gem_mode and self.my_turn else None,
            )
        )
        parts.append(self._explanations())
        self.board.scene = {
            "html": "".join(parts),
            "label": f"{self.rules.title}: you are {self.rules.seat_name(self.seat)}",
            "large": self.look.large.value,
            "step": len(self.match.actions),
            "data": {"turn": self.my_turn, "over": self.match.is_over, "rounds": self._rounds_scored()},
        }

    def _rounds_scored(self) -> int:
        return sum(1 for step in self.match.timeline(self.seat) if step.event.kind in ROUND_END)

    def _status(self) -> str:
        if self.match.is_over:
            result = self.match.result
            return "The game is over. " + (result.reasons[0].text if result and result.reasons else "")
        if self.my_turn:
            return f"Your turn, {self.rules.seat_name(self.seat)}."
        return f"{self.rules.seat_name(self.match.to_play or 0)} is thinking…"

    def _explanations(self) -> str:
        """The last trick's reasons and the last score sheet among the recent steps."""
        parts = []
        sections = ((("trick",), "Why that trick went that way"), (ROUND_END, "The score sheet"), (("end",), "Final"))
        for kinds, title in sections:
            step = next((s for s in reversed(self._recent) if s.event.kind in kinds), None)
            if step is not None:
                parts.append(
                    f'<section class="tl-panel"><h4>{esc(title)}</h4><p>{esc(step.event.text)}</p>'
                    f"{reasons_html(step.event.reasons, title='Reasons')}</section>"
                )
        return f'<div class="tl-panels">{"".join(parts)}</div>' if parts else ""

    def _decision_html(self, view: SeatView, legal: list[Action]) -> str:
        if not legal or all(isinstance(a, Play) for a in legal):
            if legal:
                return '<p class="tl-summary">Click one of your cards with a green border.</p>'
            return ""
        kinds = {type(a) for a in legal}
        if Predict in kinds:
            buttons = "".join(_button("act", str(a), str(a.n)) for a in legal if isinstance(a, Predict))
            return _decision("How many tricks will you win? Your token goes into that chamber.", buttons)
        if Bid in kinds:
            return self._bid_html()
        if Pass in kinds:
            return self._pass_html(view, legal)
        if kinds & {Place, Move, Skip} and kinds <= {Place, Move, Skip}:
            return self._gems_html(legal)
        buttons = "".join(_button("act", str(a), self._describe(a, view)) for a in legal)
        return _decision("Choose:", buttons)

    def _describe(self, action: Action, view: SeatView) -> str:
        if isinstance(action, AssignMetal) and isinstance(view, MetalChoiceView):
            for choice in view.metal_choices:
                if choice.suit == action.suit:
                    return f"Count it for {choice.suit.title()}: {choice.text}"
        if isinstance(action, Steal):
            return f"Take a jewel from {self.rules.seat_name(action.target)}'s showroom"
        if isinstance(action, Announce):
            n = action.n
            return f"Everyone passes {n} card{'s' if n > 1 else ''}"
        return str(action)

    def _bid_html(self) -> str:
        rows = bid_rows(self._bid)
        zero = _button("act", "bid zero", "Zero Success: I win no trick")
        confirm = _button(
            "confirm", "bid", f"Bid Rock {self._bid['rock']}, Soul {self._bid['soul']}, Pops {self._bid['pops']}"
        )
        return _decision("Your bid: how many tricks you will win in each suit.", rows + confirm + zero)

    def _pass_html(self, view: SeatView, legal: list[Action]) -> str:
        count = len(next(a for a in legal if isinstance(a, Pass)).cards)
        cards = "".join(
            card_html(
                c,
                intent="pick",
                four_colour=self.look.four_colour.value,
                classes=["tl-picked"] if str(c) in self._picked else [],
            )
            for c in view.hand
        )
        picked = " ".join(self._picked) or "none yet"
        confirm = _button("confirm", "pass", f"Pass {picked}")
        return _decision(
            f"Pick {count} card{'s' if count > 1 else ''} to pass (picked: {picked}).",
            f'<div class="tl-cards">{cards}</div>' + confirm + _button("clear", "", "Clear"),
        )

    def _gems_html(self, legal: list[Action]) -> str:
        can_place = any(isinstance(a, Place) for a in legal)
        can_move = any(isinstance(a, Move) for a in legal)
        modes = ""
        if can_place:
            modes += _button("gem-mode", "place", "Place gems", pressed=self._gem_mode == "place")
        if can_move:
            modes += _button("gem-mode", "move", "Move gems", pressed=self._gem_mode == "move")
        modes += _button("act", "skip", "Skip (use no points)")
        chambers = ""
        if self._gem_mode:
            picked = " → ".join(self._picked) if self._gem_mode == "move" else ", ".join(self._picked)
            what = "where to place" if self._gem_mode == "place" else "a gem's chamber, then the chamber it goes to"
            chambers = (
                f"<p>Click on the chamber board below {what}: {esc(picked) or 'nothing yet'}</p>"
                + _button("confirm", self._gem_mode, "Done")
                + _button("clear", "", "Clear")
            )
        return _decision("Your gem action:", modes + chambers)

    def __repr__(self) -> str:
        return (
            f"PlayTable(game={self.rules.name!r}, players={self.rules.players}, seat={self.seat}, "
            f"seed={self.match.seed}, actions={len(self.match.actions)})"
        )
