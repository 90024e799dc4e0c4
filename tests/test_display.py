"""The pictures: pure HTML/SVG from engine objects, with ARIA labels and no Jupyter needed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import tricklab
from tricklab.display import (
    Cards,
    DealerView,
    PlaceAllowances,
    StartPlayerView,
    TableView,
    card_html,
    card_label,
    card_svg,
    cards_html,
    match_html,
    outcome_html,
    view_html,
    with_defs,
)
from tricklab.display.boards import BOARDS, MandalasView, PitsView
from tricklab.display.panels import PodiumView
from tricklab.games import GAMES
from tricklab.games.band_of_tricks.panel import BidsAndWinsView, MetalChoiceView
from tricklab.games.capabilities import BoardKind
from tricklab.games.jewel_vault.panel import ActionsOwedView, JewelsView
from tricklab.games.tricks_and_stones.panel import ChambersView, RoundScoresView


def test_card_labels_are_spoken_names() -> None:
    ts = tricklab.get_rules("tricks-and-stones", players=4)
    bt = tricklab.get_rules("band-of-tricks", players=4)
    assert card_label(ts.card("QH")) == "Queen of Hearts"
    assert card_label(ts.card("10S")) == "Ten of Spades"
    assert card_label(bt.card("R13")) == "Rock 13"
    assert card_label(bt.card("M10")) == "Metal 10"


def test_four_colour_option_changes_only_the_colour_class() -> None:
    jv = tricklab.get_rules("jewel-vault", players=4)
    two = with_defs(card_svg(jv.card("5D")))
    four = with_defs(card_svg(jv.card("5D"), four_colour=True))
    assert "tl-suit-D" in two and "tl-four" not in two and "tl-four" in four
    assert "♦" in two


def test_band_suits_have_distinct_colours_and_shapes() -> None:
    bt = tricklab.get_rules("band-of-tricks", players=4)
    pictures = [with_defs(card_svg(bt.card(c))) for c in ("R7", "S7", "P7", "M10")]
    classes = {re.search(r"tl-band-[RSPM]", p).group(0) for p in pictures}  # type: ignore[union-attr]
    shapes = {re.search(r'd="([^"]+)"', p).group(1) for p in pictures}  # type: ignore[union-attr]
    assert len(classes) == 4 and len(shapes) == 4


def _uses(html: str) -> list[str]:
    return re.findall(r'<use href="#([^"]+)"/>', html)


def test_cards_draw_the_parts_they_share_once_and_the_others_in_place() -> None:
    """A part many cards of a picture share (a suit's face, a rank's corners) is defined once at the
    end of the picture and used by each; a part used once is drawn in its card; every use finds
    its part in the same picture, whatever else the page shows."""
    ts = tricklab.get_rules("tricks-and-stones", players=4)
    spades = Cards(ts.cards("7S 8S 9S 10S JS QS KS AS"))._repr_html_()
    defined = re.findall(r'<g id="([^"]+)">', spades)
    assert len(defined) == 1 and _uses(spades) == defined * 8, "the spade's face, once for eight cards"
    assert spades.count("♠") == 2 and spades.count('class="tl-rank"') == 16, "the ranks drawn in their cards"
    assert spades.index('<svg class="tl-defs"') > spades.rindex('<span class="tl-card"'), "the parts come last"
    trick = ts.resolve_trick(["7H", "AS", "8D", "KC"], trump="S")._repr_html_()
    assert '<svg class="tl-defs"' not in trick and not _uses(trick), "four cards that share nothing: drawn in place"
    fours = Cards(ts.cards("7S 7H 7D 7C"))._repr_html_()
    assert len(_uses(fours)) == 4 and len(set(_uses(fours))) == 1, "four sevens share their corners"
    backs = cards_html([None] * 3)
    assert with_defs(backs).count("<use") == 3 and with_defs(backs).count("tl-back-face") == 1
    for html in (spades, trick, fours, with_defs(backs)):
        assert set(_uses(html)) <= set(re.findall(r'<g id="([^"]+)">', html))
    assert with_defs("<p>no card</p>") == "<p>no card</p>"


def test_clickable_cards_are_buttons_with_intents() -> None:
    ts = tricklab.get_rules("tricks-and-stones", players=4)
    html = card_html(ts.card("AS"), intent="add")
    assert html.startswith("<button") and 'data-intent="add"' in html and 'data-value="AS"' in html
    assert 'aria-label="Ace of Spades"' in html
    assert card_html(ts.card("AS")).startswith('<span class="tl-card')


def test_outcome_picture_shows_winner_ranking_and_every_reason() -> None:
    ts = tricklab.get_rules("tricks-and-stones", players=4)
    out = ts.resolve_trick(["7H", "AH", "8S", "KD"], trump="S")
    html = out._repr_html_()
    assert "<script data-tricklab-css=" in html and "<svg" in html, "outside a kernel a picture is a page of its own"
    assert 'class="tl-card tl-in-trick tl-winner" role="img" aria-label="Eight of Spades, wins"' in html
    for reason in out.reasons:
        assert f'data-rule="{reason.rule_id}"' in html
    assert "Place 2 or Move 2" in html, "a full Tricks & Stones trick shows each place's gem action"
    assert html == outcome_html(out), "the picture is deterministic"


def test_every_engine_object_draws_itself() -> None:
    for game, players in (("tricks-and-stones", 3), ("band-of-tricks", 5), ("jewel-vault", 2), ("jewel-vault", 6)):
        rules = tricklab.get_rules(game, players=players)
        card = rules.deck()[0]
        assert "<svg" in card._repr_html_()
        match = rules.play(seed=2, bots="random")
        html = match._repr_html_()
        assert "tl-table" in html and match.timeline()[-1].event.text.split()[0] in html


def test_seat_view_draws_other_hands_face_down() -> None:
    rules = tricklab.get_rules("tricks-and-stones", players=4)
    match = rules.new_match(seed=1)
    seat_html = view_html(rules, match.view(2))
    teacher_html = view_html(rules, match.view(None))
    assert seat_html.count("face-down card") == 24
    assert "face-down card" not in teacher_html
    assert match_html(match, seat=2).count("face-down card") == 24


def test_markup_escapes_text() -> None:
    from tricklab.display import reasons_html
    from tricklab.explain import Reason

    html = reasons_html([Reason("x.y", "<script>alert(1)</script>")])
    assert "<script>" not in html and "&lt;script&gt;" in html


def test_cards_row_and_rulebook_sections_for_tutorials() -> None:
    from tricklab.display import Cards

    ts = tricklab.get_rules("tricks-and-stones", players=4)
    row = Cards(ts.cards("7H AH 8S"))
    assert repr(row) == "Cards(7H AH 8S)" and row._repr_html_().count('role="img"') == 3
    rank = ts.rulebook.section("ts.rank")
    assert list(rank) and all(i.startswith("ts.rank.") for i in rank)
    assert set(ts.rulebook.section("ts.lead", "ts.board")) == {"ts.lead.first", "ts.lead.next", "ts.board"}
    assert all(c.ruling for c in ts.rulebook.rulings().values()) and "ts.board" in ts.rulebook.rulings()


def test_counts_in_labels_agree_with_their_number() -> None:
    """A hand of one card face down reads in the singular."""
    rules = tricklab.get_rules("jewel-vault", players=4)
    match = rules.play(seed=3, bots="heuristic")
    labels: set[str] = set()
    for step in match.timeline():
        view = rules.view(step.state, 0)
        html = view_html(rules, view)
        labels.update(re.findall(r"\b1 cards?\b[^\"<]*", html))
        others = rules.view(step.state, None).hands[1:]  # seat 0 sees its own hand face up
        if any(hand is not None and len(hand) == 1 for hand in others):
            assert "1 card face down" in html
    assert labels and not any(label.startswith("1 cards") for label in labels)


# --- what the pictures read of a view -----------------------------------------------------------------

#: the protocol each panel that reads its view through one reads (by the panel's path)
PANEL_VIEWS: dict[str, type] = {
    "tricklab.games.tricks_and_stones.panel:chambers": ChambersView,
    "tricklab.games.tricks_and_stones.panel:podium": PodiumView,
    "tricklab.games.tricks_and_stones.panel:round_scores": RoundScoresView,
    "tricklab.games.band_of_tricks.panel:bids_and_wins": BidsAndWinsView,
    "tricklab.games.band_of_tricks.panel:metal_choice": MetalChoiceView,
    "tricklab.games.jewel_vault.panel:jewels": JewelsView,
    "tricklab.games.jewel_vault.panel:actions_owed": ActionsOwedView,
}


BOARD_VIEWS: dict[BoardKind, type] = {BoardKind.PITS: PitsView, BoardKind.MANDALAS: MandalasView}


def test_every_panel_reads_the_view_through_a_protocol() -> None:
    declared = {ref.path for cls in GAMES.values() for ref in cls.capabilities.panels}
    assert set(PANEL_VIEWS) <= declared, "every protocol's panel is declared by its game"
    assert set(BOARD_VIEWS) == set(BoardKind) == set(BOARDS)


@pytest.mark.parametrize(("name", "players"), [(n, p) for n in sorted(GAMES) for p in GAMES[n].player_counts])
def test_every_view_has_the_fields_its_pictures_read(name: str, players: int) -> None:
    """Each game's views, for the teacher and every seat, all through a match, are what the table
    and each panel the game declares read; a game with a podium has rules with place actions."""
    rules = tricklab.get_rules(name, players=players)
    match = rules.play(seed=4)
    for state in match.states[::3] + match.states[-1:]:
        for seat in (None, *range(players)):
            view = rules.view(state, seat)
            board = rules.capabilities.board
            if board is not None:  # drawn as its board, not at a card table
                assert isinstance(view, BOARD_VIEWS[board]), board
                continue
            assert isinstance(view, TableView)
            assert isinstance(view, DealerView) != isinstance(view, StartPlayerView), "one seat is marked"
            for ref in rules.capabilities.panels:
                if ref.path in PANEL_VIEWS:
                    assert isinstance(view, PANEL_VIEWS[ref.path]), ref
                assert isinstance(ref.load()(rules, view), str), ref  # and the panel draws it
    podium = "tricklab.games.tricks_and_stones.panel:podium"
    assert isinstance(rules, PlaceAllowances) == (podium in {ref.path for ref in rules.capabilities.panels})


def test_a_view_without_the_fields_a_picture_reads_is_refused_by_name() -> None:
    ts = tricklab.get_rules("tricks-and-stones", players=4)
    jv = tricklab.get_rules("jewel-vault", players=4)
    jv_view = jv.new_match(seed=1).view(0)
    from tricklab.games.tricks_and_stones.panel import chambers, podium

    with pytest.raises(TypeError, match="the chamber board reads a ChambersView, and JewelVaultView is not one"):
        chambers(ts, jv_view)
    with pytest.raises(TypeError, match="the podium reads a PlaceAllowances, and JewelVault is not one"):
        podium(jv, ts.new_match(seed=1).view(0))
    with pytest.raises(TypeError, match="the table reads a TableView, and object is not one"):
        view_html(ts, object())  # type: ignore[arg-type]
    kalah = tricklab.get_rules("kalah", players=2)
    with pytest.raises(TypeError, match="the Kalah board reads a PitsView, and JewelVaultView is not one"):
        view_html(kalah, jv_view)


STATIC_CHECK = """
from tricklab.display import DealerView, PlaceAllowances, StartPlayerView, TableView
from tricklab.display.panels import PodiumView
from tricklab.games.band_of_tricks.panel import BidsAndWinsView, MetalChoiceView, bids_and_wins, metal_choice
from tricklab.games.jewel_vault.panel import ActionsOwedView, JewelsView, actions_owed, jewels
from tricklab.games.tricks_and_stones.panel import ChambersView, RoundScoresView, chambers, podium, round_scores
from tricklab.games.capabilities import Panel
from tricklab.games.oh_hell import OhHellView
from tricklab.games.oh_hell.panel import bids_and_tricks
from tricklab.display.boards import BOARDS, Board, MandalasView, PitsView, mandalas, pits
from tricklab.games.band_of_tricks import BandOfTricksView
from tricklab.games.jewel_vault import JewelVaultView
from tricklab.games.kalah import KalahView
from tricklab.games.mandala import MandalaView
from tricklab.games.tricks_and_stones import TricksAndStones, TricksAndStonesView


def tricks_and_stones(view: TricksAndStonesView, rules: TricksAndStones) -> list[object]:
    table: TableView = view
    dealer: DealerView = view
    board: ChambersView = view
    podium_view: PodiumView = view
    scores: RoundScoresView = view
    places: PlaceAllowances = rules
    return [table, dealer, board, podium_view, scores, places]


def band_of_tricks(view: BandOfTricksView) -> list[object]:
    table: TableView = view
    start: StartPlayerView = view
    bids: BidsAndWinsView = view
    metal: MetalChoiceView = view
    return [table, start, bids, metal]


def jewel_vault(view: JewelVaultView) -> list[object]:
    table: TableView = view
    dealer: DealerView = view
    jewel_table: JewelsView = view
    owed: ActionsOwedView = view
    return [table, dealer, jewel_table, owed]


def oh_hell(view: OhHellView) -> list[object]:
    table: TableView = view
    dealer: DealerView = view
    return [table, dealer]


panels: list[Panel] = [
    chambers, podium, round_scores, bids_and_wins, metal_choice, jewels, actions_owed, bids_and_tricks,
]


def kalah(view: KalahView) -> PitsView:
    return view


def mandala(view: MandalaView) -> MandalasView:
    return view


boards: list[Board] = [pits, mandalas]
"""


def test_each_games_view_class_fits_the_protocols_of_its_pictures(tmp_path: Path) -> None:
    """Statically: mypy (strict) accepts each game's view class where the display reads it, field
    types and all (the runtime check above sees only that the fields are there)."""
    api = pytest.importorskip("mypy.api")
    sample = tmp_path / "fits.py"
    sample.write_text(STATIC_CHECK)
    root = Path(tricklab.__file__).parent.parent
    out, err, status = api.run(["--strict", "--config-file", str(root / "pyproject.toml"), str(sample)])
    assert status == 0, out + err


def test_the_rulebooks_page_links_each_game_to_its_heading_and_escapes_titles() -> None:
    from tricklab.display import heading_id, rulebooks_html

    books = [
        (r.title, r.rulebook)
        for r in (tricklab.get_rules("kalah", players=2), tricklab.get_rules("mandala", players=2))
    ]
    page = rulebooks_html([*books, ("A <b> & C", books[0][1])])
    assert '<a href="#Kalah">Kalah</a> · <a href="#Mandala">Mandala</a>' in page
    assert '<h2 id="Mandala">Mandala</h2>' in page and page.count('<table class="tl-rulebook">') == 3
    assert page.index('id="mk.capture"') < page.index('<h2 id="Mandala">') < page.index('id="md.color"')
    assert "<b>" not in page and 'id="A-&lt;b&gt;-&amp;-C"' in page
    assert heading_id("Band of Tricks") == "Band-of-Tricks"


@pytest.mark.parametrize(("count", "columns"), [(0, 1), (1, 1), (5, 5), (7, 7), (8, 4), (10, 5), (13, 7), (14, 7)])
def test_a_hand_is_laid_out_in_rows_as_even_as_can_be(count: int, columns: int) -> None:
    """On a phone a row holds at most seven cards a finger wide: 8 cards are two rows of 4, 13 are
    rows of 7 and 6; the markup carries the number a row for the stylesheet."""
    from tricklab.display import ROW_OF_CARDS, cards_html, hand_columns

    assert hand_columns(count) == columns
    rows = max(1, -(-count // columns))
    assert columns <= ROW_OF_CARDS and rows == max(1, -(-count // ROW_OF_CARDS))
    assert f'style="--tl-cols:{columns}"' in cards_html([None] * count)


def test_a_rulebook_shows_as_one_table_and_reads_as_markdown_on_asking() -> None:
    """A notebook gets the rulebook once, as HTML (its rows are anchors); the Markdown table is
    there to paste into a document, with every clause in it."""
    from tricklab.display import rulebook_html, style_tag

    rulebook = tricklab.get_rules("kalah", players=2).rulebook
    assert not hasattr(rulebook, "_repr_markdown_"), "a saved notebook holds the rulebook once"
    shown = rulebook._repr_html_()
    table = rulebook_html(rulebook)
    assert table.startswith('<table class="tl-rulebook">') and "<style" not in table
    assert shown == style_tag() + table, "outside a kernel the table goes with the stylesheet, as a picture does"
    markdown = rulebook.to_markdown().splitlines()
    assert markdown[:2] == ["| id | rule | |", "| --- | --- | --- |"]
    assert [line.split("`")[1] for line in markdown[2:]] == [clause.id for clause in rulebook.values()]
