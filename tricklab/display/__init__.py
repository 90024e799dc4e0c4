"""Pictures of engine objects as HTML with inline SVG: pure functions, no Jupyter.

This is the one renderer of tricklab. Engine objects use it for their rich display
(``Card._repr_html_``, ``TrickOutcome._repr_html_``, ``Match._repr_html_``), so a trick
shows itself in any notebook, even without widgets; the widgets send the same markup
to their front end as part of their scene. Drawing lives here once, in Python, and the
front end stays a thin shell that forwards clicks and keys (see ``tricklab.widgets``).

Every function takes keyword-only display options and returns a string. Markup uses
``tl-*`` classes styled by ``static/tricklab.css`` with JupyterLab's ``--jp-*`` theme
variables, so light and dark themes both work; cards carry ARIA labels.
"""

from __future__ import annotations

import hashlib
import html
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from ..cards import SUIT_SYMBOL, Card, FrenchCard
from ..explain import Reason, Rulebook, deciding, plural
from ..games.base import Event, SeatView, Trick
from ..platform import app_link
from .stylesheet import css as css
from .stylesheet import sheet_for_picture, style_tag

if TYPE_CHECKING:
    from ..actions import Action
    from ..games.base import Rules, TrickOutcome
    from ..match import Match
    from .boards import Picking

# Okabe-Ito colours: distinguishable with the common colour-vision deficiencies.
SEAT_COLOURS = ("#E69F00", "#56B4E9", "#009E73", "#CC79A7", "#0072B2", "#D55E00")
PLACE_WORDS = ("1st", "2nd", "3rd", "4th", "5th", "6th")

# Seat positions around the table (CSS grid areas), clockwise from the bottom.
POSITIONS = {
    2: ("s", "n"),
    3: ("s", "nw", "ne"),
    4: ("s", "w", "n", "e"),
    5: ("s", "w", "nw", "ne", "e"),
    6: ("s", "w", "nw", "n", "ne", "e"),
}

_BAND_SHAPES = {
    # Rock: a mountain; Soul: a flame-like drop; Pops: a star; Metal: a bolt-like diamond.
    "R": "M12 3 L22 21 L2 21 Z",
    "S": "M12 2 C18 9 20 13 20 16 A8 8 0 0 1 4 16 C4 13 6 9 12 2 Z",
    "P": "M12 2 L14.9 8.6 L22 9.3 L16.6 14 L18.2 21 L12 17.3 L5.8 21 L7.4 14 L2 9.3 L9.1 8.6 Z",
    "M": "M12 1 L22 12 L12 23 L2 12 Z M12 6 L7 12 L12 18 L17 12 Z",
}


# --- what the display reads of a game's view and rules ----------------------------------------------
#
# A game's view is its own frozen value; the display reads it through these small protocols,
# one per picture, each naming exactly the fields that picture reads. A view is checked against
# the protocol before it is drawn, so every field the display reads is typed and a view that
# lacks one is refused by name (the panels beside the table have theirs in ``panels``).


@runtime_checkable
class TableView(SeatView, Protocol):
    """What the table reads of every game's view: each seat's hand (``None``: face down) and
    its size, and the trick so far with the seat that led it."""

    @property
    def hands(self) -> Sequence[Sequence[Card] | None]: ...

    @property
    def hand_sizes(self) -> Sequence[int]: ...

    @property
    def leader(self) -> int: ...

    @property
    def trick(self) -> Sequence[Card]: ...


@runtime_checkable
class DealerView(Protocol):
    """A view of a game with a dealer (the table marks the dealer's seat)."""

    @property
    def dealer(self) -> int: ...


@runtime_checkable
class StartPlayerView(Protocol):
    """A view of a game with a start player instead of a dealer (the table marks that seat)."""

    @property
    def start_player(self) -> int: ...


@runtime_checkable
class PlaceAllowances(Protocol):
    """Rules in which every place of a trick earns an action (Tricks & Stones' gem actions):
    a full trick shows each place's action under its card."""

    def gem_allowance(self, place: int) -> tuple[int, int]: ...

    def describe_allowance(self, place: int) -> str: ...


def unreadable(value: object, reader: type, picture: str) -> TypeError:
    """The error for a view (or rules) without a field a picture reads: ``reader`` is the
    protocol that names the fields."""
    return TypeError(f"{picture} reads a {reader.__name__}, and {type(value).__name__} is not one")


def esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def card_label(card: Card) -> str:
    """The ARIA label, the card's name in words: ``"Queen of Hearts"``, ``"Rock 13"``."""
    return card.name


def _rank_text(card: Card) -> str:
    text = str(card)
    return text[:-1] if isinstance(card, FrenchCard) else text[1:]


#: a card's picture is 60 by 84 (its viewBox); the stylesheet sizes it to the card's box
_CARD_BOX = 'viewBox="0 0 60 84" width="60" height="84"'
#: the parts cards share (a suit's face, a rank's corners, a back), by id: see :func:`with_defs`
_PARTS: dict[str, str] = {}
_USE = re.compile(r'<use href="#(tl-[0-9a-f]{10})"/>')


def _part(markup: str) -> str:
    """A ``<use>`` of ``markup``, a part many cards share, drawn once in each picture (:func:`with_defs`).

    Its id is a hash of its markup, so every picture that defines an id defines the same part:
    a page that shows many pictures may resolve a card's part from any of them."""
    key = "tl-" + hashlib.blake2s(markup.encode("utf-8"), digest_size=5).hexdigest()
    _PARTS.setdefault(key, markup)
    return f'<use href="#{key}"/>'


def with_defs(markup: str) -> str:
    """``markup`` with the parts its cards share (:func:`_part`): a part used once is drawn in its
    card, and each part used more than once is defined once, in a hidden ``<svg>`` of ``<defs>`` at
    the end.

    Every picture and every board's scene goes through here, so each stands alone; a deck of 40
    cards is then about 200 bytes a card, not 700. The stylesheet's rules for the parts name their
    class alone: a ``<use>``'s copy is matched in its own shadow tree, not where its original is.
    What varies from card to card (the suit's colour, a highlight's outline, the theme's
    variables) the copy inherits from the card's own ``<svg>``."""
    # a part this process did not draw is left as it is: its markup came whole, its parts with it
    # (a class question drawn by the teacher's kernel, shown by a learner's)
    counts = Counter(key for key in _USE.findall(markup) if key in _PARTS)
    if not counts:
        return markup
    shared = [key for key, count in counts.items() if count > 1]
    markup = _USE.sub(lambda use: _PARTS[use.group(1)] if counts[use.group(1)] == 1 else use.group(0), markup)
    if not shared:
        return markup
    parts = "".join(f'<g id="{key}">{_PARTS[key]}</g>' for key in shared)
    return (
        f'{markup}<svg class="tl-defs" width="0" height="0" aria-hidden="true" focusable="false" '
        f'style="position:absolute"><defs>{parts}</defs></svg>'
    )


def _face() -> str:
    """The card's face: a rounded rectangle with its own fill and outline (the stylesheet has it
    take the outline of the card's ``<svg>``, which a highlighted card sets)."""
    return (
        f'<rect x="1" y="1" width="58" height="82" rx="6" class="tl-face" fill="{palette("face")}" '
        f'stroke="{palette("face-line")}"/>'
    )


@cache
def card_svg(card: Card | None, *, four_colour: bool = False) -> str:
    """One card as an SVG picture (``None`` draws a card back): the card's ``<svg>`` with the
    parts it shares with other cards (:func:`with_defs`) — its suit's face and its rank's corners.

    Every picture carries its size (``width``, ``height``), colours (``fill``, ``stroke``) and
    its large symbols' font sizes as presentation attributes, the stylesheet's own values (:func:`palette`):
    the stylesheet overrides them where it is on the page (the theme, the card's box), and
    where a viewer strips it the card still reads as a card of a card's size."""
    if card is None:
        back = _part(
            f'<rect x="1" y="1" width="58" height="82" rx="6" class="tl-back-face" fill="{palette("back")}" '
            f'stroke="{palette("face-line")}"/>'
            '<rect x="6" y="6" width="48" height="72" rx="4" class="tl-back-pattern" fill="none" stroke="#ffffff" '
            'stroke-width="2" stroke-dasharray="4 3"/>'
        )
        return f'<svg class="tl-card-svg tl-back" {_CARD_BOX}>{back}</svg>'
    rank = esc(_rank_text(card))
    if isinstance(card, FrenchCard):
        symbol = SUIT_SYMBOL[card.suit]
        colour = f"tl-suit-{card.suit}" + (" tl-four" if four_colour else "")
        ink = palette(_SUIT_INK[card.suit][1 if four_colour else 0])
        suit = _part(
            f'{_face()}<text x="6" y="33" class="tl-pip">{symbol}</text>'
            f'<text x="30" y="60" class="tl-big" text-anchor="middle" font-size="34">{symbol}</text>'
        )
        corners = _part(
            f'<text x="6" y="19" class="tl-rank">{rank}</text>'
            f'<text x="54" y="78" class="tl-rank" text-anchor="end">{rank}</text>'
        )
        return f'<svg class="tl-card-svg {colour}" {_CARD_BOX} fill="{ink}">{suit}{corners}</svg>'
    shape = _BAND_SHAPES.get(card.suit, _BAND_SHAPES["M"])
    ink = palette(_BAND_INK.get(card.suit, "metal"))
    band = _part(
        f'{_face()}<rect x="1" y="1" width="58" height="14" rx="6" class="tl-band-stripe"/>'
        f'<text x="30" y="12" class="tl-band-name" text-anchor="middle" fill="#ffffff" font-size="9">'
        f"{esc(card.suit_name)}</text>"
        f'<g transform="translate(14 22) scale(1.35)"><path d="{shape}" class="tl-band-shape" '
        'fill-rule="evenodd"/></g>'
    )
    number = _part(f'<text x="30" y="76" class="tl-band-number" text-anchor="middle" font-size="20">{rank}</text>')
    return f'<svg class="tl-card-svg tl-band-{esc(card.suit)}" {_CARD_BOX} fill="{ink}">{band}{number}</svg>'


#: the stylesheet's colour of a suit's ink: (two-colour deck, four-colour deck)
_SUIT_INK = {"S": ("black", "black"), "C": ("black", "green"), "H": ("red", "red"), "D": ("red", "blue")}
_BAND_INK = {"R": "rock", "S": "soul", "P": "pops", "M": "metal"}


@cache
def _palette() -> dict[str, str]:
    block = css()[css().index(".tricklab {") :]
    block = block[: block.index("}")]
    # a colour, or a theme variable's fallback colour (``var(--jp-brand-color1, #1976d2)``)
    return dict(re.findall(r"--tl-([a-z0-9-]+):\s*(?:var\([^,()]+,\s*)?(#[0-9a-fA-F]{3,8})\)?\s*;", block))


def palette(name: str) -> str:
    """A colour of the stylesheet's light theme, by its variable's name without ``--tl-``
    (``palette("red")`` is ``--tl-red``): one source for the colours the pictures carry."""
    return _palette()[name]


def card_html(
    card: Card | None,
    *,
    four_colour: bool = False,
    intent: str | None = None,
    classes: Iterable[str] = (),
    note: str = "",
    disabled: bool = False,
    described_by: str = "",
) -> str:
    """A card in a wrapper: a focusable button when it has an ``intent``, else a picture.

    A ``disabled`` button stays clickable (the click reaches Python, which explains it) and is
    ``aria-disabled``; ``described_by`` is the id of the visible sentence that says why."""
    names = " ".join(("tl-card", *classes))
    label = "face-down card" if card is None else card_label(card)
    if note:
        label += f", {note}"
    inner = card_svg(card, four_colour=four_colour)
    caption = f'<span class="tl-card-note">{esc(note)}</span>' if note else ""
    if intent is not None and card is not None:
        dis = ' aria-disabled="true"' if disabled else ""
        if described_by:
            dis += f' aria-describedby="{esc(described_by)}"'
        return (
            f'<button type="button" class="{names}" data-intent="{esc(intent)}" '
            f'data-value="{esc(card)}" aria-label="{esc(label)}"{dis}>{inner}{caption}</button>'
        )
    return f'<span class="{names}" role="img" aria-label="{esc(label)}">{inner}{caption}</span>'


def cards_html(
    cards: Sequence[Card | None],
    *,
    four_colour: bool = False,
    intent: str | None = None,
    legal: Iterable[Card] | None = None,
    label: str = "",
    marked: Mapping[Card, str] | None = None,
    why_id: str = "",
) -> str:
    """Cards in a row; with ``legal`` each is marked playable or not, and ``marked`` cards get
    their note (shown and read out) and the ``tl-received`` look. With ``legal`` and an
    ``intent`` the cards not playable are ``aria-disabled`` and described by the element
    ``why_id`` (the engine's sentence of why, shown by the caller)."""
    allowed = set(legal) if legal is not None else None
    parts = []
    for card in cards:
        classes = []
        if allowed is not None and card is not None:
            classes.append("tl-legal" if card in allowed else "tl-not-legal")
        note = marked.get(card, "") if marked and card is not None else ""
        if note:
            classes.append("tl-received")
        barred = allowed is not None and card is not None and card not in allowed and intent is not None
        parts.append(
            card_html(
                card,
                four_colour=four_colour,
                intent=intent,
                classes=classes,
                note=note,
                disabled=barred,
                described_by=why_id if barred else "",
            )
        )
    aria = f' aria-label="{esc(label)}"' if label else ""
    return (
        f'<div class="tl-cards" role="group"{aria} style="--tl-cols:{hand_columns(len(parts))}">{"".join(parts)}</div>'
    )


#: the most cards a row of a hand holds on a phone's screen (390 px wide), each a finger (44 px) wide
ROW_OF_CARDS = 7


def hand_columns(count: int) -> int:
    """Cards a row, for ``count`` cards laid out on as few rows of at most :data:`ROW_OF_CARDS`
    as they fit, the rows as even as can be (8 cards: two rows of 4; 13: rows of 7 and 6).
    The stylesheet reads it (``--tl-cols``) where a hand is laid out in rows: on a phone."""
    rows = max(1, -(-count // ROW_OF_CARDS))
    return max(1, -(-count // rows))


class Cards:
    """Some cards drawn in a row (what a tutorial shows for a hand or a deck)."""

    def __init__(self, cards: Iterable[Card], *, four_colour: bool = False, label: str = "cards") -> None:
        self.cards = tuple(cards)
        self.four_colour = four_colour
        self.label = label

    def _repr_html_(self) -> str:
        return wrap(cards_html(self.cards, four_colour=self.four_colour, label=self.label), label=self.label)

    def __repr__(self) -> str:
        return "Cards(" + " ".join(str(c) for c in self.cards) + ")"


#: the rulebooks app, relative to the other apps' pages; each clause is an anchor of its id
RULEBOOKS = "rulebooks.ipynb"


def rule_id_html(rule_id: str) -> str:
    """A reason's rule id, linked to its clause in the rulebooks app (in a new page)."""
    target = app_link(f"{RULEBOOKS}#{rule_id}")
    return (
        f'<a class="tl-rule-id" href="{esc(target)}" target="_blank" rel="noopener" '
        f'title="the rule {esc(rule_id)} in the rulebook">{esc(rule_id)}</a>'
    )


#: the rules a rulebook's table needs, in the stylesheet too: the clause a link opened stands out,
#: and the cells read left to right (JupyterLab sets an HTML output's cells right, as for numbers:
#: ``:not(.jp-RenderedMarkdown) .jp-RenderedHTMLCommon td``; these are sentences)
RULEBOOK_STYLE = (
    "<style>.tl-rulebook tr:target{outline:3px solid currentColor;outline-offset:-3px}"
    ".jp-RenderedHTMLCommon table.tl-rulebook :is(th,td),table.tl-rulebook :is(th,td){text-align:left}</style>"
)


def rulebook_html(rulebook: Rulebook) -> str:
    """A game's rulebook as a table, each clause's row an anchor of its id (``#ts.rank.within``).

    The table only: a notebook shows it after the stylesheet when it goes with it
    (:func:`rulebook_picture`), the rulebooks app after :data:`RULEBOOK_STYLE`."""
    rows = []
    for clause in rulebook.values():
        notes = [f"ruling {esc(clause.ruling)}"] if clause.ruling else []
        if clause.option:
            notes.append(f"option <code>{esc(clause.option)}</code>")
        note = "; ".join(notes)
        rows.append(
            f'<tr id="{esc(clause.id)}" class="tl-clause"><td><code>{esc(clause.id)}</code></td>'
            f"<td><strong>{esc(clause.title)}</strong>: {esc(clause.text)}</td><td>{note}</td></tr>"
        )
    head = "<thead><tr><th>id</th><th>rule</th><th>notes</th></tr></thead>"
    return f'<table class="tl-rulebook">{head}<tbody>{"".join(rows)}</tbody></table>'


def rulebook_picture(rulebook: Rulebook) -> str:
    """A rulebook (or an excerpt) as a notebook shows it: its table, after the stylesheet where it
    goes with it, as a picture's (:func:`wrap`); a tutorial shows many excerpts, each no heavier
    than its table."""
    return sheet_for_picture() + rulebook_html(rulebook)


def heading_id(title: str) -> str:
    """The id JupyterLab gives a Markdown heading: its text, spaces as hyphens (``Tricks-&-Stones``)."""
    return title.replace(" ", "-")


def rulebooks_html(books: Sequence[tuple[str, Rulebook]]) -> str:
    """Several games' rulebooks on one page: a line of links to each, then each ``(title, rulebook)``
    under a heading whose id is :func:`heading_id` of its title, as a Markdown heading's would be.

    Plain HTML rather than Markdown: every page that shows it (Voilà, the static site, a
    notebook) shows HTML as it is."""
    links = " · ".join(f'<a href="#{esc(heading_id(title))}">{esc(title)}</a>' for title, _ in books)
    parts = [f'{RULEBOOK_STYLE}<p class="tl-rulebook-links">Rulebooks: {links}</p>']
    for title, rulebook in books:
        parts.append(f'<h2 id="{esc(heading_id(title))}">{esc(title)}</h2>{rulebook_html(rulebook)}')
    return "".join(parts)


def reasons_html(reasons: Sequence[Reason], *, title: str = "Why") -> str:
    if not reasons:
        return ""
    items = "".join(f'<li data-rule="{esc(r.rule_id)}">{rule_id_html(r.rule_id)} {esc(r.text)}</li>' for r in reasons)
    return f'<section class="tl-reasons" aria-label="{esc(title)}"><h4>{esc(title)}</h4><ul>{items}</ul></section>'


def seat_colour(seat: int) -> str:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def seat_badge(rules: Rules[Any], seat: int) -> str:
    return f'<span class="tl-seat-badge" style="--tl-seat:{seat_colour(seat)}">{esc(rules.seat_name(seat))}</span>'


def trick_html(
    rules: Rules[Any],
    cards: Sequence[Card],
    *,
    leader: int | None = None,
    ranking: Sequence[int] | None = None,
    complete: bool = False,
    four_colour: bool = False,
    place_notes: Sequence[str] | None = None,
    seats: Sequence[int] | None = None,
    arriving: int | None = None,
    viewer: int = 0,
    gather_to: int | None = None,
    you: int | None = None,
) -> str:
    """The cards of a trick in play order, each with its player and the winner marked, and each
    place where every place counts (the game declares a podium: Tricks & Stones).

    ``leader`` is the seat that led (``None``: no seats, as in a sandbox trick); ``seats``,
    when given, names the seat of each card (with two players of Jewel Vault a seat plays
    twice). ``place_notes[k]`` is shown under place ``k`` (e.g. a gem action).

    Movement, for people who have not asked for reduced motion (the stylesheet turns it off
    for those who have): card ``arriving`` slides in from its player's side of the table (seen
    from ``viewer``'s seat), and with ``gather_to`` every card slides to that seat's side, the
    trick being gathered by its winner. ``you`` marks the card of that seat as yours.
    """
    places = {index: place for place, index in enumerate(ranking or ())}
    every_place = rules.capabilities.quiz.podium is not None  # where only the winner counts, only it is marked
    n = rules.players
    parts = []
    for i, card in enumerate(cards):
        classes = ["tl-in-trick"]
        notes = []
        if leader is not None:
            seat = seats[i] if seats is not None else (leader + i) % n
            who = rules.seat_name(seat) + (" (you)" if seat == you else "")
        else:
            seat = None
            who = f"card {i + 1}"
        if i == 0:
            classes.append("tl-led")
            notes.append("led")
        place = places.get(i)
        if place == 0:
            classes.append("tl-winner")
            notes.append("winning" if not complete else "wins")
        picture = card_html(card, four_colour=four_colour, classes=classes, note=", ".join(notes))
        if place is None or (not every_place and place > 0):
            place_text = ""
        else:
            place_text = PLACE_WORDS[place] if every_place else ("wins" if complete else "winning")
        extra = ""
        if place is not None and place_notes is not None and place < len(place_notes):
            extra = f'<span class="tl-place-note">{esc(place_notes[place])}</span>'
        colour = f' style="--tl-seat:{seat_colour(seat)}"' if seat is not None else ""
        moving = ""
        if seat is not None and i == arriving:
            moving = f" tl-arrive tl-from-{POSITIONS[n][(seat - viewer) % n]}"
        parts.append(
            f'<figure class="tl-played{moving}"{colour}>{picture}<figcaption><span class="tl-who">{esc(who)}</span>'
            f'<span class="tl-place">{esc(place_text)}</span>{extra}</figcaption></figure>'
        )
    label = "trick" if complete else "trick so far"
    gather = f" tl-gather tl-to-{POSITIONS[n][(gather_to - viewer) % n]}" if gather_to is not None else ""
    return f'<div class="tl-trick{gather}" role="group" aria-label="{label}">{"".join(parts)}</div>'


def outcome_html(
    outcome: TrickOutcome, *, rules: Rules[Any] | None = None, four_colour: bool = False, standalone: bool = True
) -> str:
    """A ranked trick with its ranking and every reason (what ``TrickOutcome`` shows in a notebook)."""
    from .. import get_rules

    rules = rules or get_rules(outcome.game, players=max(_min_players(outcome.game), len(outcome.cards)))
    notes = _place_notes(rules, len(outcome.cards))
    trick = trick_html(
        rules, outcome.cards, ranking=outcome.ranking, complete=True, four_colour=four_colour, place_notes=notes
    )
    ranking = " &gt; ".join(esc(outcome.cards[i].pretty) for i in outcome.ranking)
    context = ""
    trump = outcome.context.get("trump")
    if "trump" in outcome.context:
        context = f"Trump: {esc(SUIT_SYMBOL[trump]) if isinstance(trump, str) else 'none'}. "
    body = (
        f'<p class="tl-summary">{context}Winner: <strong>{esc(outcome.winning_card.pretty)}</strong> '
        f"(card {outcome.winner + 1}). Ranking: {ranking}</p>{trick}{reasons_html(outcome.reasons)}"
    )
    return wrap(body, game=outcome.game) if standalone else body


def _min_players(game: str) -> int:
    from ..games import find_game

    return find_game(game).player_counts[0]


def _place_notes(rules: Rules[Any], count: int) -> list[str] | None:
    if not isinstance(rules, PlaceAllowances) or count != rules.players:
        return None
    return [rules.describe_allowance(i) for i in range(count)]


def wrap(
    body: str, *, game: str = "", large: bool = False, label: str = "tricklab", standalone: bool | None = None
) -> str:
    """A picture: the body in a themed container, after the stylesheet when it goes with it.

    ``standalone=True`` always puts the sheet first (a page of its own, e.g. written to a file);
    ``None``, what a notebook's rich display uses, puts it first in the first picture a kernel
    shows and leaves it out of the others, which the same page styles (see
    :mod:`tricklab.display.stylesheet`); ``False`` leaves it out."""
    classes = "tricklab" + (f" tl-game-{esc(game)}" if game else "") + (" tl-large" if large else "")
    sheet = style_tag() if standalone else sheet_for_picture() if standalone is None else ""
    return f'{sheet}<div class="{classes}" role="group" aria-label="{esc(label)}">{with_defs(body)}</div>'


def view_html(
    rules: Rules[Any],
    view: SeatView,
    *,
    four_colour: bool = False,
    legal: Iterable[Card] | None = None,
    hand_intent: str | None = None,
    board_intent: str | None = None,
    centre: str | None = None,
    arriving: bool = False,
    closed: Mapping[int, str] | None = None,
    with_panels: bool = True,
    marked: Mapping[Card, str] | None = None,
    why_id: str = "",
    actions: Sequence[Action] = (),
    action_intent: str | None = None,
    event: Event | None = None,
    picking: Picking | None = None,
) -> str:
    """A table for a seat's (or the teacher's) view: seats, hands, the trick and the game's board.

    A game played without a card table (``Capabilities.board``) is drawn as its board instead
    (see :mod:`tricklab.display.boards`): with ``action_intent``, the ``actions`` the viewer may
    make are buttons where they are made; ``event`` is the timeline step the view belongs to,
    whose place the board marks; ``picking`` has a move made on the board in steps (Mandala: a
    card, then a place, see :class:`~tricklab.display.boards.Picking`). The card table's options
    do not apply to a board.

    ``centre``, when given, is drawn in the middle of the table instead of the trick so far
    (a finished trick kept on the table, see :func:`finished_trick_html`); with ``arriving``
    the last card of the trick so far slides in from its player's side. ``closed`` places of the
    board are marked as not usable now, with the engine's reason (see ``panels.panel_html``);
    without ``with_panels`` the game's board is left for the caller to draw where it wants.
    ``marked`` cards of the seat's own hand carry a note (e.g. the cards a pass brought);
    ``why_id`` is the id of the sentence that says why the cards not ``legal`` are not
    (see :func:`cards_html`)."""
    from .boards import board_html
    from .panels import panel_html

    if rules.capabilities.board is not None:
        return board_html(rules, view, actions=actions, intent=action_intent, event=event, picking=picking)
    if not isinstance(view, TableView):
        raise unreadable(view, TableView, "the table")
    dealer = view.dealer if isinstance(view, DealerView) else None
    start_player = view.start_player if isinstance(view, StartPlayerView) else None
    n = rules.players
    viewer = view.seat if view.seat is not None else 0
    positions = POSITIONS[n]
    seats = []
    for seat in range(n):
        pos = positions[(seat - viewer) % n]
        hand = view.hands[seat]
        size = view.hand_sizes[seat]
        if hand is None:
            cards = cards_html([None] * size, label=f"{rules.seat_name(seat)}'s hand, {plural(size, 'card')} face down")
        else:
            own = view.seat == seat or view.seat is None
            intent = hand_intent if own and seat == view.to_play else None
            cards = cards_html(
                hand,
                four_colour=four_colour,
                intent=intent,
                legal=legal if intent else None,
                label=f"{rules.seat_name(seat)}'s hand",
                marked=marked if own else None,
                why_id=why_id if intent else "",
            )
        marks = []
        if view.to_play == seat:
            marks.append('<span class="tl-mark tl-turn">to play</span>')
        if dealer == seat:
            marks.append('<span class="tl-mark">dealer</span>')
        if start_player == seat:
            marks.append('<span class="tl-mark">start player</span>')
        if view.trick and view.leader == seat:
            marks.append('<span class="tl-mark">led</span>')
        # the count, for the compact strip a narrow screen or projector shows instead of the backs
        marks.append(f'<span class="tl-mark tl-count">{esc(plural(size, "card"))}</span>')
        current = " tl-current" if view.to_play == seat else ""
        seats.append(
            f'<section class="tl-seat tl-pos-{pos}{current}" style="--tl-seat:{seat_colour(seat)}" '
            f'aria-label="{esc(rules.seat_name(seat))}"><header>{seat_badge(rules, seat)}{"".join(marks)}</header>'
            f"{cards}</section>"
        )
    if centre is None:
        centre = trick_html(
            rules,
            view.trick,
            leader=view.leader,
            ranking=_partial_ranking(rules, view),
            four_colour=four_colour,
            arriving=len(view.trick) - 1 if arriving and view.trick else None,
            viewer=viewer,
        )
    centre = f'<div class="tl-centre">{centre}</div>'
    table = f'<div class="tl-table tl-seats-{n}">{"".join(seats)}{centre}</div>'
    if not with_panels:
        return table
    return table + panel_html(rules, view, four_colour=four_colour, board_intent=board_intent, closed=closed)


def _partial_ranking(rules: Rules[Any], view: TableView) -> tuple[int, ...] | None:
    if not view.trick:
        return None
    context = {c.key: getattr(view, c.key) for c in rules.capabilities.context}  # the view holds each
    ranking: tuple[int, ...] = rules.resolve_trick(view.trick, **context).ranking
    return ranking


def finished_trick_html(
    rules: Rules[Any],
    event: Event,
    *,
    four_colour: bool = False,
    viewer: int | None = None,
    gathering: bool = False,
    title: str = "",
    caption: bool = True,
    footer: str = "",
) -> str:
    """A finished trick as it lies on the table once its last card is down: every card with its
    player and place, the winner marked, the event's caption (who wins, with what) and the
    deciding reasons (:func:`~tricklab.explain.deciding`: the rule that orders the trick and
    the winner against ``viewer``'s card, or against the runner-up), every other reason folded.
    ``event`` is a trick event of a timeline (``event.data["trick"]``, a
    :class:`~tricklab.games.base.Trick`); with ``gathering`` the cards slide to the winner.
    Without ``caption`` the event's text is left out (a caption above the table says it).
    ``footer`` (markup, e.g. the button that goes on) ends the trick's group.

    A line naming the winner and their card heads it too: the projector's view shows it large,
    for the back row, where the caption's long sentence is small (the stylesheet hides it elsewhere,
    where the caption says the same)."""
    trick = event.data.get("trick")
    ranking = event.data.get("ranking")
    if not isinstance(trick, Trick) or not isinstance(ranking, tuple):
        raise TypeError(f"a finished trick is drawn from a trick event, not a {event.kind} event")
    me = viewer if viewer is not None else 0
    notes = _place_notes(rules, len(trick.cards)) if trick.places is not None else None
    cards = trick_html(
        rules,
        trick.cards,
        leader=trick.leader,
        seats=trick.seats,
        ranking=ranking,
        complete=True,
        four_colour=four_colour,
        place_notes=notes,
        viewer=me,
        gather_to=trick.winner if gathering else None,
        you=viewer,
    )
    mine = next((c for c, s in zip(trick.cards, trick.seats, strict=True) if s == viewer), None)
    other = mine if mine is not None and mine != trick.winning_card else None
    if other is None and len(ranking) > 1:
        other = trick.cards[ranking[1]]
    first = deciding(event.reasons, trick.winning_card, other)
    rest = [r for r in event.reasons if r not in first]
    why = "".join(f'<li data-rule="{esc(r.rule_id)}">{rule_id_html(r.rule_id)} {esc(r.text)}</li>' for r in first)
    folded = (
        f'<details class="tl-more-reasons"><summary>Every reason ({len(rest)} more)</summary>'
        f"{reasons_html(rest, title='More reasons')}</details>"
        if rest
        else ""
    )
    heading = f'<h4 class="tl-finished-title">{esc(title)}</h4>' if title else ""
    said = f'<p class="tl-finished-caption"><strong>{esc(event.text)}</strong></p>' if caption else ""
    winner = rules.seat_name(trick.winner) + (" (you)" if trick.winner == viewer else "")
    big = f'<p class="tl-finished-winner">{esc(winner)} wins with {esc(card_label(trick.winning_card))}</p>'
    return (
        f'<div class="tl-finished" role="group" aria-label="finished trick">{heading}{said}{big}{cards}'
        f'<ul class="tl-deciding" aria-label="Why">{why}</ul>{folded}{footer}</div>'
    )


def match_html(match: Match, *, seat: int | None = None, four_colour: bool = False) -> str:
    """A match's current state (teacher's view unless ``seat``), with the last step's caption."""
    steps = match.timeline(seat)  # the caption as that seat saw it
    last = steps[-1].event if steps else None
    caption = f'<p class="tl-caption">{esc(last.text)}</p>' if last else ""
    body = caption + view_html(match.rules, match.view(seat), four_colour=four_colour)
    return wrap(body, game=match.rules.name, label=f"{match.rules.title} match")


def choice_button(intent: str, value: str, text: str, *, label: str = "", pressed: bool | None = None) -> str:
    """A button of a decision: clicking it sends ``(intent, value)`` to the widget."""
    aria = f' aria-label="{esc(label)}"' if label else ""
    state = "" if pressed is None else f' aria-pressed="{str(pressed).lower()}"'
    return (
        f'<button type="button" class="tl-choice" data-intent="{esc(intent)}" data-value="{esc(value)}"'
        f"{aria}{state}>{esc(text)}</button>"
    )


def decision_html(prompt: str, body: str) -> str:
    """A framed decision: a heading and its choices."""
    return (
        f'<section class="tl-decision" aria-label="Your decision"><h4>{esc(prompt)}</h4>'
        f'<div class="tl-choices">{body}</div></section>'
    )


def bid_rows(bid: Mapping[str, int], *, zero: bool = False) -> str:
    """Bid steppers (Band of Tricks): a minus and a plus button around each suit's number,
    for the suits of ``bid`` in its order."""
    rows = []
    for key in bid:
        rows.append(
            f'<div class="tl-bid-row"><span class="tl-bid-suit">{key.title()}</span>'
            + choice_button("bid", f"{key}:-1", "\u2212", label=f"{key} one less")
            + f'<output aria-label="{key} bid">{0 if zero else bid[key]}</output>'
            + choice_button("bid", f"{key}:+1", "+", label=f"{key} one more")
            + "</div>"
        )
    return "".join(rows)
