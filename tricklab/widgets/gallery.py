"""The landing page of the app gallery: every app with a line, a picture and links."""

from __future__ import annotations

from dataclasses import dataclass

from ..display import esc
from ..games import GAMES


@dataclass(frozen=True)
class App:
    """One Voilà app of ``voila_apps/``: its notebook, what it is for, and example links
    (``examples_for`` gathers them from what each game declares)."""

    notebook: str
    title: str
    description: str
    picture: str
    examples: tuple[tuple[str, str], ...]


def examples_for(notebook: str) -> tuple[tuple[str, str], ...]:
    """The example links of an app: each game's, in registry order, as the game declares them
    (``Capabilities.examples``), each labelled with the game's title."""
    return tuple(
        (f"{cls.title}, {ex.label}" if ex.label else cls.title, f"game={cls.name}&{ex.query}")
        for cls in GAMES.values()
        for ex in cls.capabilities.examples
        if ex.app == notebook
    )


APPS: tuple[App, ...] = (
    App(
        "play.ipynb",
        "Play against bots",
        "Play a whole game against bots by clicking; a move the rules forbid is explained and changes nothing.",
        "play.png",
        examples_for("play.ipynb"),
    ),
    App(
        "quiz.ipynb",
        "Who wins this trick?",
        "A quiz with levels: click the winning card and read why; one seed gives a whole class the same quiz.",
        "quiz.png",
        examples_for("quiz.ipynb"),
    ),
    App(
        "bid_trainer.ipynb",
        "Try bids",
        "Try a bid on a dealt hand and see how it would fare: how often it comes out and the score to expect.",
        "bid_trainer.png",
        examples_for("bid_trainer.ipynb"),
    ),
    App(
        "explain_trick.ipynb",
        "Why did that card win?",
        "Build any trick by clicking or typing cards and see the full ranking with a reason for every card.",
        "explain_trick.png",
        examples_for("explain_trick.ipynb"),
    ),
    App(
        "replay.ipynb",
        "Replay a match",
        "Step through a whole match played by bots, forward and back, with a caption and the rules for each step.",
        "replay.png",
        examples_for("replay.ipynb"),
    ),
    App(
        "rulebooks.ipynb",
        "The rulebooks",
        "Every rule of every game in plain words, with the rulings where the original text was unclear.",
        "rulebooks.png",
        (("All games", ""),),
    ),
)


def landing_html(apps: tuple[App, ...] = APPS) -> str:
    """The gallery as HTML. Links are relative, so it works under any base URL (JupyterHub too)."""
    cards = []
    for app in apps:
        links = " · ".join(
            f'<a href="{esc(app.notebook)}{"?" + esc(query) if query else ""}">{esc(label)}</a>'
            for label, query in app.examples
        )
        cards.append(
            f'<article class="tricklab-app-card"><a href="{esc(app.notebook)}" class="tricklab-app-picture">'
            f'<img src="../files/screenshots/{esc(app.picture)}" alt="{esc(app.title)}: a screenshot" loading="lazy">'
            f'</a><div><h3><a href="{esc(app.notebook)}">{esc(app.title)}</a></h3><p>{esc(app.description)}</p>'
            f'<p class="tricklab-app-links">Try: {links}</p></div></article>'
        )
    style = (
        "<style>.tricklab-gallery{display:grid;grid-template-columns:repeat(auto-fill,minmax(330px,1fr));gap:16px}"
        ".tricklab-app-card{border:1px solid var(--jp-border-color1,#ccc);border-radius:8px;padding:10px;"
        "background:var(--jp-layout-color1,#fff);color:var(--jp-ui-font-color1,#222)}"
        ".tricklab-app-card img{width:100%;height:180px;object-fit:cover;object-position:top;border-radius:4px;"
        "border:1px solid var(--jp-border-color2,#ddd)}"
        ".tricklab-app-card a{color:var(--jp-content-link-color,#1565c0)}</style>"
    )
    intro = (
        "<h1>tricklab</h1><p>Learn the rules of trick-taking card games. Pick an app; every link can be shared, "
        "and the same link shows everyone the same deal.</p>"
    )
    return f'{style}<div class="tricklab-landing">{intro}<div class="tricklab-gallery">{"".join(cards)}</div></div>'


class Landing:
    """The gallery page as a notebook output: plain HTML, no widget and no kernel round trip."""

    def _repr_html_(self) -> str:
        return landing_html()

    def __repr__(self) -> str:
        return f"Landing({len(APPS)} apps)"


def landing_app() -> Landing:
    """The ``index`` app: the gallery page."""
    return Landing()
