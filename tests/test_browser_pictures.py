"""The static pictures in Chromium: where a viewer strips every <style>, cards are still cards
of a card's size with their rank and suit in colour; where the sheet is there, it overrides
what the SVGs carry, and the minified sheet a picture carries styles exactly as the file does."""

from __future__ import annotations

import re
from typing import Any

import pytest

import tricklab
from tricklab.display import Cards, cards_html, wrap
from tricklab.display.stylesheet import MARK, css, style_tag

from .servers import ARTIFACTS

pytestmark = pytest.mark.browser

#: Chromium's colour for ``--tl-face`` (#fdfdfb) and for the dark theme's (#e9e9e4)
LIGHT_FACE, DARK_FACE = "rgb(253, 253, 251)", "rgb(233, 233, 228)"


def _pictures() -> list[str]:
    """What the tutorials show, each picture as a notebook shows it outside a kernel (with its sheet)."""
    ts = tricklab.get_rules("tricks-and-stones", players=4)
    bt = tricklab.get_rules("band-of-tricks", players=4)
    kalah = tricklab.get_rules("kalah", players=2)
    mandala = tricklab.get_rules("mandala", players=2)
    return [
        ts.card("QH")._repr_html_(),
        Cards(ts.deck()[:12], label="some cards")._repr_html_(),
        Cards(bt.cards("R13 S5 P3 M10"), label="the four suits")._repr_html_(),
        ts.resolve_trick(["7H", "AH", "8S", "KD"], trump="S")._repr_html_(),
        bt.resolve_trick(["P3", "S5", "R13", "M13"])._repr_html_(),
        ts.new_match(seed=5, first_dealer=3)._repr_html_(),
        kalah.new_match(seed=1)._repr_html_(),
        mandala.new_match(seed=1)._repr_html_(),
    ]


def _stripped(html: str) -> str:
    """What a viewer that strips styles shows: every <style> element gone (and every script)."""
    return re.sub(r"<(style|script)\b[^>]*>.*?</\1>", "", html, flags=re.S)


def _page(browser: Any, body: str, *, viewport: tuple[int, int] = (1280, 900), dark: bool = False) -> Any:
    page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
    theme = (
        ' data-jp-theme-light="false" style="background:#111;color:#ddd;--jp-layout-color1:#111;'
        '--jp-layout-color2:#222;--jp-ui-font-color1:#ddd;--jp-ui-font-color2:#aaa;--jp-border-color1:#555"'
        if dark
        else ""
    )
    page.set_content(f"<!doctype html><html><body{theme}>{body}</body></html>")
    if MARK in body:  # the carrier's script puts the sheet into the head once it is inflated
        page.wait_for_function(f"document.head.querySelector('style[{MARK}]')")
    return page


CARDS = """() => [...document.querySelectorAll("svg.tl-card-svg")].map(svg => {
  const box = svg.getBoundingClientRect();
  return {x: box.x + window.scrollX, y: box.y + window.scrollY, width: box.width, height: box.height,
          back: svg.classList.contains("tl-back"),
          suit: [...svg.classList].find(c => c.startsWith("tl-suit-") || c.startsWith("tl-band-")) || ""};
})"""


def _rgb(colour: tuple[int, ...]) -> str:
    return f"rgb({colour[0]}, {colour[1]}, {colour[2]})"


def _cards(page: Any) -> list[dict[str, Any]]:
    """Every card of the page as a person sees it: its box, and, read from a screenshot, the colour
    of its face (beside the big symbol) and its ink (the commonest colour that is neither the face
    nor a grey: the suit's symbol or number). A card's parts are ``<use>`` copies, which no script
    can read, so the pixels are what is checked."""
    from io import BytesIO

    from PIL import Image

    cards = page.evaluate(CARDS)
    shot = Image.open(BytesIO(page.screenshot(full_page=True))).convert("RGB")
    for card in cards:
        left, top = round(card["x"]), round(card["y"])
        box = shot.crop((left + 2, top + 2, left + round(card["width"]) - 2, top + round(card["height"]) - 2))
        face = shot.getpixel((left + round(card["width"] * 0.85), top + round(card["height"] * 0.5)))
        counts = box.getcolors(box.width * box.height) or []
        inks = [
            (count, colour)
            for count, colour in counts
            if max(colour) - min(colour) > 15 and sum(abs(a - b) for a, b in zip(colour, face, strict=True)) > 60
        ]
        card["face"] = _rgb(face)
        card["ink"] = _rgb(max(inks)[1]) if inks else None
    return cards


def test_with_every_style_stripped_cards_are_card_sized_and_coloured(browser: Any) -> None:
    body = "".join(_stripped(html) for html in _pictures())
    assert "<style" not in body
    page = _page(browser, body)
    cards = _cards(page)
    page_width = page.evaluate("document.body.clientWidth")
    assert len(cards) > 50
    for card in cards:
        assert 40 <= card["width"] <= 80 and 60 <= card["height"] <= 110, f"not a card's size: {card}"
        assert card["face"] != "rgb(0, 0, 0)", f"a black card: {card}"
    faces = [c for c in cards if not c["back"]]
    assert all(c["face"] == LIGHT_FACE for c in faces)
    assert all(c["face"] != LIGHT_FACE for c in cards if c["back"]), "a back is not a face"
    # each suit's symbol or number in its own colour, which is neither black nor the face's
    red = {c["ink"] for c in faces if c["suit"] in ("tl-suit-H", "tl-suit-D")}
    assert red == {"rgb(200, 16, 46)"}
    bands = {c["suit"]: c["ink"] for c in faces if c["suit"].startswith("tl-band-")}
    assert len(set(bands.values())) == 4 and "rgb(0, 0, 0)" not in bands.values()
    stones = page.evaluate(
        '() => [...document.querySelectorAll("svg.tl-stones")].map(s => s.getBoundingClientRect().width)'
    )
    assert stones and max(stones) < 0.1 * page_width, "a Kalah pit's stones are a pit's size, not the page's"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "pictures-stripped.png"), full_page=True)
    page.close()
    phone = _page(browser, body, viewport=(390, 844))
    assert all(c["width"] <= 80 for c in phone.evaluate(CARDS))
    phone.screenshot(path=str(ARTIFACTS / "pictures-stripped-phone.png"), full_page=True)
    phone.close()


#: every computed property of every element of the pictures; a custom property (``--tl-*``) keeps
#: its value as written, so its white space is left out
STYLES = """() => [...document.querySelectorAll(".tricklab, .tricklab *")].map(el => {
  const style = getComputedStyle(el);
  const value = p => p.startsWith("--") ? style.getPropertyValue(p).replace(/\\s+/g, "") : style.getPropertyValue(p);
  return el.tagName + " " + [...style].sort().map(p => p + ":" + value(p)).join(";");
})"""


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_the_carried_sheet_styles_as_the_file_does_and_overrides_the_svgs(browser: Any, dark: bool) -> None:
    body = "".join(_stripped(html) for html in _pictures())
    with_file = _page(browser, f"<style>{css()}</style>{body}", dark=dark)
    carried = _page(browser, f"{style_tag()}{body}", dark=dark)
    expected, got = with_file.evaluate(STYLES), carried.evaluate(STYLES)
    assert len(got) == len(expected) > 500
    assert [i for i, (a, b) in enumerate(zip(expected, got, strict=True)) if a != b] == []
    cards = _cards(carried)
    assert {c["width"] for c in cards if not c["back"]} >= {58}, "the sheet sizes the card (58 px), not the SVG's 60"
    face = DARK_FACE if dark else LIGHT_FACE
    assert all(c["face"] == face for c in cards if not c["back"]), "the theme's face colour, not the SVG's"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    carried.screenshot(path=str(ARTIFACTS / f"pictures-{'dark' if dark else 'light'}.png"), full_page=True)
    with_file.close()
    carried.close()


def test_the_page_keeps_the_sheet_when_the_output_that_carried_it_is_gone(browser: Any) -> None:
    ts = tricklab.get_rules("tricks-and-stones", players=4)
    carrier = f'<div class="output">{style_tag()}{wrap(cards_html(ts.cards("7H 8S")), standalone=False)}</div>'
    later = f'<div class="output">{wrap(cards_html(ts.cards("QD")), standalone=False)}</div>'
    page = _page(browser, carrier + later)
    page.evaluate("""() => {  // the same output shown again (a re-run): its script finds the copy
      const again = document.createElement("div");
      again.innerHTML = document.querySelector(".output").innerHTML;
      const script = document.createElement("script");
      script.textContent = again.querySelector("script").textContent;
      again.querySelector("script").replaceWith(script);
      document.body.prepend(again);
    }""")
    page.wait_for_timeout(200)  # time for the copy run again to inflate, were it to add a second sheet
    assert page.evaluate("document.head.querySelectorAll('style[data-tricklab-css]').length") == 1
    page.evaluate("() => document.querySelectorAll('body > div').forEach((d, i) => i < 2 && d.remove())")
    assert page.evaluate(f"document.body.querySelectorAll('[{MARK}]').length") == 0, "every carrier is gone"
    widths = page.evaluate(CARDS)
    assert [c["width"] for c in widths] == [58], "the later picture is still styled by the head's copy"
    page.close()
