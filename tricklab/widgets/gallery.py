"""The landing page of the app gallery: every app with a line, a picture and links."""

from __future__ import annotations

from dataclasses import dataclass

from ..display import esc
from ..games import DEFAULT_GAME, GAMES
from ..platform import app_link, in_browser

#: the gallery's screenshots are ``voila_apps/screenshots``, asked for as ``../files/screenshots``
#: beside the app pages (Voilà serves them there; the static site puts a copy there)


@dataclass(frozen=True)
class App:
    """One Voilà app of ``voila_apps/``: its notebook, what it is for, and example links
    (``examples_for`` gathers them from what each game declares)."""

    notebook: str
    title: str
    description: str
    picture: str
    examples: tuple[tuple[str, str], ...]
    #: the app needs a server (the class store): the static site's gallery leaves it out
    needs_server: bool = False


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
        "Quiz",
        "Who wins this trick? Where does the last stone land? May this card go here? Levels, the reason for "
        "every answer, and one seed gives a whole class the same quiz.",
        "quiz.png",
        examples_for("quiz.ipynb"),
    ),
    App(
        "bid_trainer.ipynb",
        "Try bids and moves",
        "Try a bid on a dealt hand and see how it would fare, or every move of a Kalah or Mandala position "
        "and what it brings.",
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
        "Step through a whole match played by bots, forward and back (Kalah stone by stone), with a caption "
        "and the rules for each step.",
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
    App(
        "class.ipynb",
        "A class session",
        "The teacher projects a question, every student answers on their own device, the projector counts "
        "the answers and reveals the answer with its reasons; results for the teacher, homework sets.",
        "class.png",
        (("Start a session (the teacher)", "teach=1"), ("Join with a code (a student)", "")),
        needs_server=True,
    ),
    App(
        "table.ipynb",
        "Play with classmates",
        "Two to six classmates at one table, each on their own device, bots in the empty seats: every finished "
        "trick stays with its reasons until everyone has gone on, and each sees only their own hand.",
        "table.png",
        (("Make a table", ""), ("Make a table for three", "players=3")),
        needs_server=True,
    ),
)


#: the first round a newcomer plays: the default game (its steps below are that game's), four
#: players, a simple deal, slow bots
START_HERE = f"play.ipynb?game={DEFAULT_GAME}&players=4&seed=1&pace=1.5"


def start_here_html() -> str:
    """The gallery's "Start here": a two-minute first round, in three kinds of click."""
    steps = (
        "<strong>Predict.</strong> Look at your eight cards and click how many tricks (0 to 5) you think you will win.",
        "<strong>Play a card.</strong> Click a card of your hand: the cards you may play are marked. If the "
        "rules forbid a card (you must follow the suit led when you can), the table says why and nothing changes.",
        "<strong>Read and go on.</strong> Each finished trick stays with its winner and the reason it won; "
        "click Continue. After a trick the winner places or moves gems: click a chamber, or Skip. "
        "Hint tells you what a good player would do, and why.",
    )
    items = "".join(f"<li>{step}</li>" for step in steps)
    return (
        '<section class="tricklab-start-here" aria-labelledby="tricklab-start-here"><h2 id="tricklab-start-here">'
        "Start here: your first round in two minutes</h2>"
        f"<p>New to tricklab? Play one round of {esc(GAMES[DEFAULT_GAME].title)} against three bots. "
        "You will make three "
        "kinds of click:</p>"
        f'<ol>{items}</ol><p><a class="tricklab-start-link" href="{esc(app_link(START_HERE))}">Play your first round '
        f"of {esc(GAMES[DEFAULT_GAME].title)}</a></p></section>"
    )


def landing_html(apps: tuple[App, ...] = APPS) -> str:
    """The gallery as HTML. Links are relative, so it works under any base URL (JupyterHub too).
    In the browser (the static site) the apps that need a server are left out."""
    cards = []
    for app in apps:
        if app.needs_server and in_browser():
            continue
        links = " · ".join(
            f'<a href="{esc(app_link(app.notebook + ("?" + query if query else "")))}">{esc(label)}</a>'
            for label, query in app.examples
        )
        page = esc(app_link(app.notebook))
        cards.append(
            f'<article class="tricklab-app-card"><a href="{page}" class="tricklab-app-picture">'
            f"{_picture(app)}"
            f'</a><div><h3><a href="{page}">{esc(app.title)}</a></h3><p>{esc(app.description)}</p>'
            f'<p class="tricklab-app-links">Try: {links}</p></div></article>'
        )
    style = (
        "<style>.tricklab-gallery{display:grid;grid-template-columns:repeat(auto-fill,minmax(330px,1fr));gap:16px}"
        ".tricklab-app-card{border:1px solid var(--jp-border-color1,#ccc);border-radius:8px;padding:10px;"
        "background:var(--jp-layout-color1,#fff);color:var(--jp-ui-font-color1,#222)}"
        ".tricklab-app-card img{width:100%;height:180px;object-fit:cover;object-position:top;border-radius:4px;"
        "border:1px solid var(--jp-border-color2,#ddd)}"
        ".tricklab-app-card a{color:var(--jp-content-link-color,#1565c0)}"
        ".tricklab-start-here{border:2px solid var(--jp-brand-color1,#1565c0);border-radius:8px;padding:4px 16px;"
        "margin:0 0 16px;background:var(--jp-layout-color1,#fff);color:var(--jp-ui-font-color1,#222)}"
        ".tricklab-start-here a{color:var(--jp-content-link-color,#1565c0);font-weight:700}"
        # the dark screenshots where the page is dark (Voilà's dark theme sets data-jp-theme-light="false")
        ".tricklab-picture-dark{display:none}"
        "[data-jp-theme-light='false'] .tricklab-picture-dark{display:inline}"
        "[data-jp-theme-light='false'] .tricklab-picture-light{display:none}</style>"
    )
    intro = (
        "<h1>tricklab</h1><p>Learn the rules of trick-taking card games, Kalah and Mandala. Pick an app; "
        "every link can be shared, and the same link shows everyone the same deal.</p>"
    )
    gallery = f'<div class="tricklab-gallery">{"".join(cards)}</div>'
    return f'{style}<div class="tricklab-landing">{intro}{start_here_html()}{gallery}</div>'


def _picture(app: App) -> str:
    """The app's screenshot, and its dark-theme one where there is one (CSS shows the right one)."""
    alt = esc(f"{app.title}: a screenshot")
    light = (
        f'<img class="tricklab-picture-light" src="../files/screenshots/{esc(app.picture)}" alt="{alt}" loading="lazy">'
    )
    dark_name = app.picture.replace(".png", "-dark.png")  # every app has one (a test checks)
    dark = f'<img class="tricklab-picture-dark" src="../files/screenshots/{esc(dark_name)}" alt="{alt}" loading="lazy">'
    return light + dark


class Landing:
    """The gallery page as a notebook output: plain HTML, no widget and no kernel round trip."""

    def _repr_html_(self) -> str:
        return landing_html()

    def __repr__(self) -> str:
        return f"Landing({len(APPS)} apps)"


def landing_app() -> Landing:
    """The ``index`` app: the gallery page, plain HTML (the static site's build shows it as it is,
    with no Python in the page: ``tricklab.site``)."""
    return Landing()
