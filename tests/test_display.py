"""The pictures: pure HTML/SVG from engine objects, with ARIA labels and no Jupyter needed."""

from __future__ import annotations

import re

import tricklab
from tricklab.display import card_html, card_label, card_svg, match_html, outcome_html, view_html


def test_card_labels_are_spoken_names() -> None:
    ts = tricklab.get_rules("tricks-and-stones", players=4)
    bt = tricklab.get_rules("band-of-tricks", players=4)
    assert card_label(ts.card("QH")) == "Queen of Hearts"
    assert card_label(ts.card("10S")) == "Ten of Spades"
    assert card_label(bt.card("R13")) == "R13, Rock 13"
    assert card_label(bt.card("M10")) == "M10, Metal 10"


def test_four_colour_option_changes_only_the_colour_class() -> None:
    jv = tricklab.get_rules("jewel-vault", players=4)
    two = card_svg(jv.card("5D"))
    four = card_svg(jv.card("5D"), four_colour=True)
    assert "tl-suit-D" in two and "tl-four" not in two and "tl-four" in four
    assert "♦" in two


def test_band_suits_have_distinct_colours_and_shapes() -> None:
    bt = tricklab.get_rules("band-of-tricks", players=4)
    pictures = [card_svg(bt.card(c)) for c in ("R7", "S7", "P7", "M10")]
    classes = {re.search(r"tl-band-[RSPM]", p).group(0) for p in pictures}  # type: ignore[union-attr]
    shapes = {re.search(r'd="([^"]+)"', p).group(1) for p in pictures}  # type: ignore[union-attr]
    assert len(classes) == 4 and len(shapes) == 4


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
    assert "<style>" in html and "<svg" in html
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
