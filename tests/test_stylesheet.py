"""The stylesheet goes with the first picture a kernel shows, and again whenever the output
that carried it is replaced; every SVG carries its own size and colours."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import tricklab
from tricklab.display import Cards, card_svg, palette, with_defs, wrap
from tricklab.display.boards import _stones_svg
from tricklab.display.charts import Bar, bar_chart
from tricklab.display.stylesheet import MARK, Sender, css, minified, style_tag

SVG = ""  # the markup is HTML: its SVG names no namespace


def _without_comments(text: str) -> str:
    return re.sub(r"/\*.*?\*/", "", text, flags=re.S)


def test_the_carried_sheet_is_the_file_without_comments_and_spaces() -> None:
    sheet = minified()
    assert len(sheet) < 0.8 * len(css()), "the comments and indentation are left out"
    # nothing but white space, comments and a rule's last semicolon is dropped, and nothing is reordered
    assert re.sub(r"\s", "", sheet) == re.sub(r"\s", "", _without_comments(css())).replace(";}", "}")
    # a space that means something stays: between the parts of a selector, inside a value
    assert ".tricklab .tl-card{" in sheet and "stroke-dasharray:4 3" in sheet
    assert 'content:"★ "' in sheet, "text inside quotes is kept as written"
    assert style_tag().startswith(f"<script {MARK}=") and style_tag().count("<script") == 1


def test_a_picture_carries_the_sheet_deflated_and_whole() -> None:
    import base64
    import zlib

    found = re.search(r"atob\('([A-Za-z0-9+/=]+)'\)", style_tag())
    assert found, "the sheet is in the carrier's script, in base64"
    assert zlib.decompress(base64.b64decode(found.group(1))).decode("utf-8") == minified()
    assert len(style_tag()) < len(minified()) / 3
    assert "<style" not in style_tag(), "the script makes the page's one <style> element itself"


def test_outside_a_kernel_every_picture_is_a_page_of_its_own() -> None:
    ts = tricklab.get_rules("tricks-and-stones", players=4)
    for html in (ts.card("QH")._repr_html_(), Cards(ts.cards("7H 8S"))._repr_html_()):
        assert html.startswith(style_tag())
    assert wrap("x", standalone=True).startswith(style_tag())
    assert MARK not in wrap("x", standalone=False)


def test_a_kernel_sends_the_sheet_with_its_first_picture_only() -> None:
    sender = Sender()
    sender.cell_starts("a", "card")
    assert sender.take() is True
    assert sender.take() is False, "a second picture of the same cell"
    sender.cell_starts("b", "match")
    assert sender.take() is False, "a later cell: the page has the sheet"


def test_running_the_carrier_again_sends_the_sheet_again() -> None:
    sender = Sender()
    sender.cell_starts("a", "card")
    sender.take()
    sender.cell_starts("b", "match")
    sender.cell_starts("a", "card")  # its output, the sheet with it, is about to be replaced
    assert sender.take() is True
    sender.cell_starts("c", "trick")
    assert sender.take() is False


def test_an_edited_carrier_is_known_by_its_id_and_an_unnamed_one_by_its_source() -> None:
    named = Sender()
    named.cell_starts("a", "card")
    named.take()
    named.cell_starts("a", "card  # edited")
    assert named.take() is True, "the same cell id, though its source changed"
    other = Sender()
    other.cell_starts("a", "card")
    other.take()
    other.cell_starts("b", "card")
    assert other.take() is False, "another cell with the same source leaves the carrier in place"
    unnamed = Sender()  # a front end that sends no cell ids
    unnamed.cell_starts(None, "card")
    unnamed.take()
    unnamed.cell_starts(None, "match")
    assert unnamed.take() is False
    unnamed.cell_starts(None, "card")
    assert unnamed.take() is True


def test_a_deleted_carrier_gives_the_sheet_to_the_next_picture() -> None:
    sender = Sender()
    sender.cell_starts("a", "card")
    sender.take()
    sender.cell_starts("b", "match", deleted=("x",))
    assert sender.take() is False
    sender.cell_starts("c", "trick", deleted=("a",))
    assert sender.take() is True


def test_clearing_the_carriers_own_output_sends_the_sheet_again() -> None:
    sender = Sender()
    sender.cell_starts("a", "for step in steps: clear_output(wait=True); display(match)")
    assert sender.take() is True
    sender.output_cleared()
    assert sender.take() is True, "the next frame of the loop carries it"
    sender.cell_starts("b", "clear_output()")
    sender.output_cleared()  # another cell clears its own output, not the carrier's
    assert sender.take() is False


def test_updating_the_carriers_display_keeps_the_sheet_in_it() -> None:
    sender = Sender()
    sender.cell_starts("a", "handle = display(match, display_id=True)")
    assert sender.take()
    carried = style_tag() + '<div class="tricklab">match</div>'
    sender.shown("d1", carried)
    picture = '<div class="tricklab">match, a move later</div>'
    assert sender.updated("d2", picture) == picture, "another display is left as it is"
    assert sender.updated("d1", picture) == style_tag() + picture
    assert sender.take() is False
    assert sender.updated("d1", "<p>no picture</p>") == "<p>no picture</p>"
    assert sender.take() is True, "the carrier's display no longer holds the sheet"


def _attributes(svg: str) -> dict[str, str]:
    return dict(ET.fromstring(svg).attrib)


def test_every_card_carries_its_size_and_colours() -> None:
    ts = tricklab.get_rules("tricks-and-stones", players=4)
    bt = tricklab.get_rules("band-of-tricks", players=4)
    inks = {
        "QH": palette("red"),
        "QS": palette("black"),
        "7D": palette("red"),
        "R13": palette("rock"),
        "M10": palette("metal"),
    }
    for name, ink in inks.items():
        card = (ts if name[0] in "0123456789JQKA" else bt).card(name)
        svg = with_defs(card_svg(card))  # a card alone: its parts drawn in it
        root = _attributes(svg)
        assert (root["width"], root["height"], root["fill"]) == ("60", "84", ink)
        face = ET.fromstring(svg).find(f"{SVG}rect")
        assert face is not None and face.get("fill") == palette("face") and face.get("stroke")
    assert _attributes(card_svg(ts.card("7D"), four_colour=True))["fill"] == palette("blue")
    back = ET.fromstring(with_defs(card_svg(None)))
    assert back.get("width") == "60" and back.find(f"{SVG}rect").get("fill") == palette("back")  # type: ignore[union-attr]


def test_the_palette_is_the_stylesheets_own() -> None:
    for name in ("red", "black", "face", "face-line", "rock", "accent"):
        declared = re.search(rf"--tl-{name}:\s*(?:var\([^,]+,\s*)?(#[0-9a-f]+)", css())
        assert declared is not None and palette(name) == declared.group(1)


def test_stones_and_charts_carry_their_size_and_colours() -> None:
    stones = _attributes(_stones_svg(7))
    assert stones["width"] == "32" and stones["height"] == "32" and stones["fill"].startswith("#")
    chart = ET.fromstring(
        bar_chart([Bar("one", 0.5, marks=("best",)), Bar("two", 0.2, 0.1)], title="chance", percent=True)
    )
    svg = chart.find(f"{SVG}svg")
    assert svg is not None and svg.get("width") and svg.get("height")
    bars = [r.get("fill") for r in svg.iter(f"{SVG}rect")]
    assert bars == [palette("win"), palette("accent")]
    assert all(line.get("stroke") for line in svg.iter(f"{SVG}line"))
