"""MoveTrainer: every move of a position, what it does and why; try one and see the board after it.

The outcomes come from :func:`tricklab.moves.try_moves` (the game's own core step and narration,
as the seat to move knows the position); this widget only sets up the position, takes the
learner's pick and draws what the engine says. It is the bid trainer's counterpart for games
with no pre-round decision that declare "try a move" (``Capabilities.moves``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import traitlets

from .. import get_rules
from ..actions import Action
from ..bots import make_bots
from ..display import choice_button, esc, reasons_html, rule_id_html, view_html
from ..errors import InvalidOption, TricklabError, describe
from ..games import default_players, find_game, games_with
from ..games.base import Event, Rules, next_seed
from ..games.capabilities import Capabilities, DecisionKind
from ..match import Match
from ..moves import MoveOutcome, MovesEntry, entry_of, try_moves
from .board import Board
from .controls import Button, Controls, look_toggles
from .inputs import check_flag, quote, short

if TYPE_CHECKING:
    from ..classwork import ClassQuestion

#: how many moves the bots play before the position shown, unless asked for another number
DEFAULT_PLY = 6
#: the most moves a position may be set up with
MAX_PLY = 200
#: the intent of a move's "Try it" button, on the list and on the board's picture
TRY = "try"
#: the highest seed (a link's seed is at most this)
MAX_SEED = 2**63 - 1


def _offers(offers: Capabilities) -> bool:
    return offers.moves is not None and offers.decision.kind is DecisionKind.NONE


def trains_moves(game: type[Rules[Any]]) -> bool:
    """Whether the move trainer takes this game: one that declares "try a move" and has no
    pre-round decision (a game with one gets the bid trainer)."""
    return _offers(game.capabilities)


GAMES = tuple(cls.name for cls in games_with(_offers))  # the games the move trainer is for


class MoveTrainer(Board):
    """A position from ``seed`` after ``ply`` moves of the heuristic bots: every legal move of the
    player to move, with what it does (stones into the store, an extra turn, a capture; cards
    drawn, a Mandala completed), the rules that say so and, for Kalah, the search's value of
    each move. "Try it" on a move (in the list or on the board) shows the board after it with
    the rules' reasons; the move the game's bot picks is marked. "New position" takes the next
    seed. The same ``seed`` and ``ply`` always give the same position and the same numbers.

    One anywidget (a :class:`Board`): its buttons and toggles are drawn by the front end from
    the scene (``trainer.controls["new"].click()``), and what a notebook cares about is synced
    traits, observable and linkable: ``seed`` (setting it shows that seed's position), ``move``
    (the move tried, as the rules write it, ``""`` for none; setting it tries that move),
    ``large``, ``four_colour`` and, read only, ``best_move`` (the move the game's bot makes),
    ``verdict`` (what the trainer says of the move tried, ``""`` for none) and ``message``
    (what went wrong, in words). The page may set ``large`` and ``four_colour`` only; a refused
    value raises (or, from the page, shows) its :class:`~tricklab.errors.TricklabError` and
    changes nothing.
    """

    seed = traitlets.Int(0).tag(sync=True)
    move = traitlets.Unicode("").tag(sync=True)
    large = traitlets.Bool(False).tag(sync=True)
    four_colour = traitlets.Bool(False).tag(sync=True)
    best_move = traitlets.Unicode("", read_only=True).tag(sync=True)
    verdict = traitlets.Unicode("", read_only=True).tag(sync=True)
    _page_traits = frozenset({"large", "four_colour"})

    def __init__(
        self,
        game: str | None = None,
        players: int | None = None,
        *,
        seed: int = 0,
        ply: int = DEFAULT_PLY,
        four_colour: bool = False,
        large: bool = False,
    ) -> None:
        if not GAMES:
            raise InvalidOption("no game offers trying moves")
        cls = find_game(GAMES[0] if game is None else game)
        if not trains_moves(cls):
            raise InvalidOption(f"the move trainer is for {', '.join(GAMES)}, not {cls.name}")
        counts = cls.player_counts
        players = default_players(cls) if players is None else players
        if isinstance(players, bool) or not isinstance(players, int) or players not in counts:
            raise InvalidOption(f"{cls.title} is for {counts[0]} to {counts[-1]} players, not {describe(players)}")
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= MAX_PLY:
            raise InvalidOption(f"the moves played before the position are 0 to {MAX_PLY}, not {describe(ply)}")
        _check_seed(seed)
        check_flag("four_colour", four_colour)
        check_flag("large", large)
        self._ready = False  # the observers wait until the whole widget is made
        super().__init__()
        self.rules: Rules[Any] = get_rules(cls.name, players=players)
        self.entry: MovesEntry = entry_of(self.rules)
        self.ply = ply
        self._set_up(seed)
        self.large = large
        self.four_colour = four_colour

        self.clear_button = Button("clear", "Back to the position", tooltip="the position before your move")
        self.clear_button.on_click(self.clear)
        self.new_button = Button("new", "New position", tooltip="another position (the next seed)")
        self.new_button.on_click(self.new_position)
        self.large_toggle, self.colour_toggle = look_toggles(
            large, four_colour, suits=self.rules.capabilities.board is None
        )
        self.large_toggle.on_change(lambda value: self._from_control("large", value))
        self.colour_toggle.on_change(lambda value: self._from_control("four_colour", value))
        self.on_intent(self._intent)
        self.use_controls(Controls([[self.clear_button, self.new_button, self.large_toggle, self.colour_toggle]]))
        self.add_class("tricklab-movetrainer")
        self._ready = True
        self._render()

    # --- the position ---------------------------------------------------------------------------

    def _set_up(self, seed: int) -> None:
        """The position of ``seed``: up to ``ply`` moves of the heuristic bots, stopping before
        a move that would end the game; no move tried yet."""
        rules = self.rules
        match: Match = rules.new_match(seed)
        bots = make_bots(rules, "heuristic", seed)
        played = 0
        while played < self.ply:
            to_play = match.to_play
            assert to_play is not None
            after = match.copy()
            after.apply(bots[to_play].choose(match.view(to_play), match.legal_actions()))
            if after.is_over:
                break
            match, played = after, played + 1
        self.match = match
        self.played = played
        seat = match.to_play
        assert seat is not None
        self.seat: int = seat
        self.outcomes: tuple[MoveOutcome, ...] = try_moves(match)
        self.tried: MoveOutcome | None = None
        ready, self._ready = getattr(self, "_ready", False), False
        try:
            self.seed = seed
            self.move = ""
        finally:
            self._ready = ready

    def new_position(self) -> None:
        """Another position: the next seed, after as many moves."""
        self.seed = next_seed(self.seed)
        self.message = f"A new position: seed {self.seed}."

    def class_question(self) -> ClassQuestion:
        """This position, as a question for a class: which move would you make?"""
        from ..classwork import best_move

        return best_move(self.match)

    def link_state(self) -> dict[str, str]:
        """What a link needs to show this position again: the seed, the moves played before it
        and the look toggles."""
        look = {"large": self.large, "four_colour": self.four_colour}
        return {"seed": str(self.seed), "ply": str(self.ply), **{k: "1" for k, on in look.items() if on}}

    # --- the state, checked -----------------------------------------------------------------------

    @traitlets.validate("seed")
    def _valid_seed(self, proposal: Any) -> int:
        return _check_seed(proposal["value"])

    @traitlets.observe("seed")
    def _seed_changed(self, change: dict[str, Any]) -> None:
        if self._ready:
            self._set_up(change["new"])
            self.message = ""
            self._render()

    @traitlets.validate("move")
    def _check_move(self, proposal: Any) -> str:
        text = proposal["value"]
        if not getattr(self, "_ready", False) or text == "":
            return str(text)
        found = self._find(text)
        if isinstance(found, str):
            raise InvalidOption(found)
        return found.text

    @traitlets.observe("move")
    def _move_changed(self, change: dict[str, Any]) -> None:
        if not self._ready:
            return
        self.tried = None if change["new"] == "" else self._find(change["new"])  # type: ignore[assignment]
        self.message = ""
        self._render()

    @traitlets.observe("large", "four_colour")
    def _look_changed(self, _change: dict[str, Any]) -> None:
        if self._ready:
            self._render()

    def _from_control(self, name: str, value: Any) -> None:
        """A toggle's new value, given to the trait it shows."""
        setattr(self, name, value)

    @property
    def best(self) -> MoveOutcome:
        """The move the game's bot picks (the searching bot in Kalah)."""
        return next(o for o in self.outcomes if o.best)

    # --- trying a move --------------------------------------------------------------------------

    def try_move(self, move: object) -> MoveOutcome | None:
        """Try ``move`` (its text, like ``"sow 3"``, or the action): show the board after it and
        why. A move the rules do not allow now changes nothing and shows the engine's reason."""
        if not isinstance(move, str | Action):
            raise InvalidOption(f"move must be a move or its text, like 'sow 3', not {describe(move)}")
        found = self._find(move if isinstance(move, str) else str(move))
        if isinstance(found, str):
            self._say(found)
            return None
        self.move = found.text
        self.message = ""
        return found

    def _find(self, move: str) -> MoveOutcome | str:
        """The listed move ``move`` names, or why there is none (in words)."""
        text = short(move, 40)
        if text is None:
            return "That is not a move: press Try it beside one of the moves."
        found = next((o for o in self.outcomes if o.text == text.strip()), None)
        if found is None:
            try:
                action = self.rules.parse_action(text)
                found = next((o for o in self.outcomes if o.action == action), None)
                if found is None:
                    self.rules.apply(self.match.state, action)  # refused: the engine says why
            except TricklabError as exc:
                return f"“{quote(text)}” is not a move you can make now: {exc}"
        if found is None:  # the rules took it, yet it is not listed: never tried behind their back
            return f"“{quote(text)}” is not one of the moves listed: press Try it beside one of them."
        return found

    def clear(self) -> None:
        """Back to the position before any move was tried."""
        self.move = ""
        self.message = ""

    def _intent(self, intent: str, value: str | None) -> None:
        """The board's buttons: a move's "Try it" (on the list or on the board's picture)."""
        if intent == TRY:
            if value is None:
                self._say("That is not a move: press Try it beside one of the moves.")
                return
            self.try_move(value)

    def _say(self, message: str) -> None:
        self.message = message

    def _refused(self, exc: TricklabError) -> None:
        self._say(str(exc))

    # --- drawing --------------------------------------------------------------------------------

    def _render(self) -> None:
        rules = self.rules
        you = rules.seat_name(self.seat)
        before = f"after {self.played} moves of the bots" if self.played else "at the start of the game"
        intro = (
            f"You are {you}: it is your move, {before} (seed {self.seed}). Below is every move you can "
            "make, what it does and which rules say so. Press Try it on a move to see the board after it."
        )
        parts = [f'<p class="tl-caption">{esc(intro)}</p>']
        if self.tried is not None:
            parts.append(self._tried_html(self.tried))
        else:
            parts.append(self._board_html(self.match.view(self.seat), actions=True))
        parts.append(self._list_html())
        parts.append(self._best_html())
        tried = self.tried
        scene: dict[str, Any] = {
            "html": "".join(parts),
            "label": f"{rules.title}: try a move",
            "large": self.large,
            "data": {
                "seed": str(self.seed),
                "ply": str(self.played),
                "moves": str(len(self.outcomes)),
                "best": self.best.text,
                "tried": "" if tried is None else tried.text,
            },
        }
        if tried is not None:
            # "Try it" is pressed in the list, below the board: the board after the move is drawn
            # above it, out of sight on a phone, so the board brings the tried move into view
            scene["focus"] = ".tl-tried h4"
        with self.hold_redraw(), self.hold_trait_notifications():
            self.set_trait("best_move", self.best.text)
            self.set_trait("verdict", "" if tried is None else self._verdict(tried))
            self.clear_button.disabled = tried is None
            self.large_toggle.value = self.large
            self.colour_toggle.value = self.four_colour
            self.scene = scene

    def _board_html(self, view: Any, *, actions: bool, event: Event | None = None) -> str:
        """The game's board for ``view``: with ``actions`` the legal moves are buttons on it (a
        click tries the move); ``event`` is the step whose place the board marks."""
        legal = [o.action for o in self.outcomes] if actions else []
        four = self.four_colour
        return view_html(self.rules, view, four_colour=four, actions=legal, action_intent=TRY, event=event)

    def _effects(self, o: MoveOutcome) -> str:
        return "; ".join(e.text for e in o.effects if e.text) or "nothing more"

    def _list_html(self) -> str:
        value_title = self.entry.value_title
        head = "<th scope='col'>Move</th><th scope='col'>What it does</th>"
        if value_title:
            head += f"<th scope='col'>{esc(value_title)}</th>"
        head += "<th scope='col'>Rules</th><th scope='col'></th>"
        mark = "best" if value_title else "the bot's move"
        rows = []
        for o in self.outcomes:
            if o.best:
                marks = f' <strong class="tl-best-mark">({esc(mark)})</strong>'
            elif value_title and o.value is not None and o.value == self.best.value:
                marks = ' <span class="tl-best-mark">(just as good)</span>'
            else:
                marks = ""
            cells = f"<th scope='row'>{esc(o.description)}{marks}</th><td>{esc(self._effects(o))}</td>"
            if value_title:
                cells += f"<td>{'' if o.value is None else esc(f'{o.value:+d}')}</td>"
            cells += f"<td>{' '.join(rule_id_html(r) for r in o.rule_ids)}</td>"
            button = choice_button(
                TRY, o.text, "Try it", label=f"Try {o.description}", pressed=self.tried is not None and o is self.tried
            )
            cells += f'<td style="white-space: nowrap">{button}</td>'
            row_class = ' class="tl-verdict-best"' if o.best else ""
            rows.append(f'<tr{row_class} data-move="{esc(o.text)}">{cells}</tr>')
        note = ""
        if value_title:
            note = (
                '<p class="tl-summary">The value of a move is your store minus your opponent\'s, looking '
                "that many moves ahead with both players making their best moves.</p>"
            )
        return (
            f'<section class="tl-panel tl-move-list" aria-label="Every move you can make">'
            f"<h4>Every move you can make ({len(self.outcomes)})</h4>"
            f'<table class="tl-score-table tl-review-table"><thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table>{note}</section>"
        )

    def _best_html(self) -> str:
        best = self.best
        title = f"The move {self.entry.best_title} makes: {best.description}"
        return reasons_html(best.verdict, title=title)

    def _tried_html(self, o: MoveOutcome) -> str:
        steps = "".join(f"<li>{esc(e.text)}</li>" for e in o.events)
        marked = next((e for e in reversed(o.events) if "index" in e.data), None)  # where the move ended
        verdict = self._verdict(o)
        return (
            f'<section class="tl-panel tl-tried" aria-label="The move you tried">'
            f'<h4 tabindex="-1">You tried: {esc(o.description)}</h4>'
            f'<p class="tl-advice-sentence" role="status"><strong>{esc(self._effects(o))}</strong></p>'
            f"{self._board_html(o.view, actions=False, event=marked)}"
            f"<ol>{steps}</ol>{reasons_html(o.reasons, title='Why')}"
            f'<p class="tl-summary">{esc(verdict)}</p></section>'
        )

    def _verdict(self, o: MoveOutcome) -> str:
        """What the trainer says of the move tried: the bot's move or not, and the values."""
        if o.best:
            verdict = f"This is the move {self.entry.best_title} makes."
        else:
            verdict = f"{self.entry.best_title.capitalize()} makes a different move: {self.best.description}."
        best_value = self.best.value
        if o.value is not None and best_value is not None:
            verdict += f" Its value: {o.value:+d}; the best move's: {best_value:+d}."
        return verdict

    def __repr__(self) -> str:
        tried = "" if self.tried is None else f", tried={self.tried.text!r}"
        return f"MoveTrainer(game={self.rules.name!r}, seed={self.seed}, ply={self.ply}, seat={self.seat}{tried})"


def _check_seed(seed: object) -> int:
    """``seed`` if it is a whole number from 0 to :data:`MAX_SEED`, else :class:`InvalidOption`."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise InvalidOption(f"a seed is a whole number from 0 to {MAX_SEED}, not {describe(seed)}")
    return seed
