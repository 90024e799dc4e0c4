"""Tables of classmates in Chromium (the ``table`` app): a whole round of each game played by two or
three classmates, each in a browser context of their own (one on a phone), with bots in the other
seats, on SQLite (the README's ``tricklab serve``; on PostgreSQL, with a server restart mid-round:
tests/test_browser_tables_postgres.py). Every websocket frame each page receives is read: at every
step none names a card hidden from that page's seat, and none holds the table's seed. Along the way
the same seat clicks two moves in two tabs at the same moment (one lands, once; in Mandala, two
places for the card each tab picked) and a page is reloaded (the same seat, the same hand)."""

from __future__ import annotations

import base64
import json
import re
import time
import zlib
from dataclasses import dataclass, field
from typing import Any

import pytest

from tricklab.match import Match
from tricklab.store import Store, TableSeat
from tricklab.widgets.board import PACKED

from .servers import PHONE, _unpack, _watch
from .test_browser_board_games import COUNTS, LEGAL, OPEN_PLACE, mandala_move, pick_card
from .test_browser_play import take_one_decision
from .test_hostile_widgets import drawn, hidden_cards, named
from .test_sharedtable import STATIC

pytestmark = pytest.mark.browser

BOARD = ".tricklab-board"
#: (game's title, players, classmates): every game, with two or three classmates
GAMES = [
    ("tricks-and-stones", "Tricks & Stones", 4, 3),
    ("band-of-tricks", "Band of Tricks", 4, 2),
    ("jewel-vault", "Jewel Vault", 4, 2),
    ("kalah", "Kalah", 2, 2),
    ("mandala", "Mandala", 2, 2),
    ("oh-hell", "Oh Hell", 4, 2),
    ("hearts", "Hearts", 4, 2),
]
NAMES = ("Ana", "Ben", "<i>Cy</i>")
CARDS = "button.tl-card.tl-legal[data-intent='play']"
#: what a seat clicks in two tabs at the same moment: a legal card, a Kalah pit; in Mandala each tab
#: picks a card of the hand first, then the two click a place (and, if asked, a number of cards) at once
RACE = {
    "tricks-and-stones": "button.tl-card.tl-legal[data-intent='play']",
    "band-of-tricks": "button.tl-card.tl-legal[data-intent='play']",
    "jewel-vault": "button.tl-card.tl-legal[data-intent='play']",
    "kalah": LEGAL["kalah"],
    "mandala": "button.tl-pick-card",
    "oh-hell": "button.tl-card.tl-legal[data-intent='play']",
    "hearts": "button.tl-card.tl-legal[data-intent='play']",
}


@dataclass
class Seat:
    """A classmate's page, and every frame it received from its kernel (decoded: the message's
    JSON, and the markup of the scene it brings), with what the frames read so far were found to
    name (each frame is read once)."""

    page: Any
    number: int
    frames: list[tuple[str, str]] = field(default_factory=list)
    read: int = 0
    found: dict[Any, bool] = field(default_factory=dict)

    def names(self, things: set[Any]) -> set[Any]:
        """Which of ``things`` (cards, or bits of text) any frame so far names."""
        new = _joined(self.frames[self.read :])
        self.read = len(self.frames)
        for thing, was in self.found.items():
            self.found[thing] = was or _names(new, thing)
        unread = things - self.found.keys()
        every = _joined(self.frames) if unread else ("", "")
        for thing in unread:
            self.found[thing] = _names(every, thing)
        return {thing for thing in things if self.found[thing]}


def _where(seat: Seat, card: str) -> list[str]:
    """Where the frames name ``card`` (its notation), for the message."""
    text = "\n".join(plain + "\n" + markup for plain, markup in seat.frames)
    return [text[max(0, m.start() - 150) : m.end() + 150] for m in re.finditer(re.escape(card), text)][:3]


def _joined(frames: list[tuple[str, str]]) -> tuple[str, str]:
    return "\n".join(text for text, _ in frames), "\n".join(drawing for _, drawing in frames)


def _names(frames: tuple[str, str], thing: Any) -> bool:
    """Whether ``frames`` (their messages' text, their markup) name ``thing``: a bit of text
    anywhere; a card by its notation or name in the messages' text, or drawn in the markup (its
    label, or the value a click on it sends: the markup's SVG paths hold letters and numbers that
    are no card)."""
    plain, markup = frames
    if isinstance(thing, str):
        return thing in plain or thing in markup
    return named(plain, thing) or drawn(plain, thing) or drawn(markup, thing)


def _without_code(message: Any) -> tuple[str, str]:
    """A message as text, as the page reads it: the scene inflated (it travels deflated, in
    base64), and without the front end's code that every widget carries (script and its sheet,
    which may hold any two letters: not the table's state)."""
    state = message.get("content", {}).get("data", {}).get("state") if isinstance(message, dict) else None
    markup = ""
    if isinstance(state, dict):
        packed = state.pop("_packed", None)
        if isinstance(packed, str):
            if packed.startswith(PACKED):
                packed = zlib.decompress(base64.b64decode(packed[len(PACKED) :])).decode("utf-8")
            scene = json.loads(packed)
            markup = str(scene.pop("html", ""))  # as the page puts it in, quotes and all
            state["scene"] = scene
        for key in STATIC:
            state.pop(key, None)
    return _BLOB.sub("<base64>", json.dumps(message, ensure_ascii=False)), markup


# A long run of base64 in a message is a picture's bytes (the join code's QR code) or packed code,
# never words: a card's notation found inside one ("/4C+") is chance, not a leak. The scene's own
# packed markup is inflated above and read as text.
_BLOB = re.compile(r"[A-Za-z0-9+/]{120,}={0,2}")


def _listen(seat: Seat) -> None:
    def frame(data: Any) -> None:
        if isinstance(data, bytes):
            try:
                _, message = _unpack(data)
            except (ValueError, IndexError, UnicodeDecodeError):
                return
            seat.frames.append(_without_code(message))
        else:
            seat.frames.append(_without_code(json.loads(data)) if data.startswith("{") else (data, ""))

    seat.page.on("websocket", lambda socket: socket.on("framereceived", frame))


def _open(browser: Any, url: str, query: str, *, phone: bool = False, context: Any = None) -> Seat:
    if context is None:
        size = PHONE if phone else (1280, 900)
        context = browser.new_context(viewport={"width": size[0], "height": size[1]}, is_mobile=phone, has_touch=phone)
    seat = Seat(context.new_page(), -1)
    _listen(seat)  # from the first frame on
    _watch(seat.page, f"{url}/voila/render/table.ipynb?{query}")
    return seat


def _make(browser: Any, url: str, game: str, title: str, players: int, humans: int) -> tuple[list[Seat], str]:
    ana = _open(browser, url, f"game={game}&players={players}&pace=0")
    ana.page.get_by_label("Your name").fill(NAMES[0], timeout=90_000)
    ana.page.get_by_label("Game").select_option(label=title)
    for number in range(2, players + 1):
        kind = "A classmate" if number <= humans else ("A bot" if number % 2 else "A bot that plays at random")
        ana.page.get_by_label(f"Player {number}", exact=True).select_option(label=kind)
    ana.page.get_by_role("button", name="Make the table").click()
    code = ana.page.locator(".tl-code").inner_text(timeout=90_000)
    assert re.fullmatch(r"[A-Z0-9]{6}", code)
    assert ana.page.evaluate("location.search") == f"?join={code}", "the address holds the code, nothing else"
    ana.number = 0
    seats = [ana]
    for number in range(1, humans):
        other = _open(browser, url, f"join={code}&pace=0", phone=number == 1)
        other.page.get_by_label("Your name").fill(NAMES[number], timeout=90_000)
        other.page.get_by_role("button", name="Join the table").click()
        other.page.locator(".tl-code").wait_for(timeout=90_000)
        other.number = number
        seats.append(other)
    return seats, code


def _kept_seat(page: Any) -> TableSeat:
    """The seat the page kept on its device, as the store knows it (the test reads the store)."""
    kept = page.evaluate("localStorage.getItem('tricklab-kept:' + location.pathname)")
    assert kept and kept.startswith("seat="), kept
    return kept[len("seat=") :]  # type: ignore[no-any-return]


class Log:
    """The table's log as the store holds it, read by the test (not by any page)."""

    def __init__(self, store: Store, token: str) -> None:
        self.store = store
        self.seat = store.table_seat(token)
        self.start = store.table_start(self.seat)
        self._match = Match.from_record(self.start)

    def match(self) -> Match:
        for action in self.store.table_poll(self.seat, len(self._match.actions)).actions:
            self._match.apply(action)
        return self._match.copy()

    @property
    def seed(self) -> int:
        return int(str(self.start["seed"]))


def _check_frames(log: Log, seats: list[Seat]) -> None:
    """No page has received a card hidden from its seat (while the first deal lasts: the cards of
    the next deal were the last deal's, shown as they were played), nor the seed before the game is
    over (then the replay link opens the whole game, every choice revealed)."""
    match = log.match()
    deals = [s for s in match.timeline() if s.event.kind == "deal"]
    for seat in seats:
        seed = str(log.seed)
        assert match.is_over or not seat.names({seed}), f"the table's seed reached a page: {_where(seat, seed)}"
        if len(deals) > 1:
            continue
        held = {c for step in match.timeline(seat.number) for c in (step.state.hands[seat.number] or ())}
        leaked = sorted(str(c) for c in seat.names(hidden_cards(match.rules, match.state, seat.number) - held))
        assert leaked == [], f"{NAMES[seat.number]}'s page received hidden cards {leaked}: {_where(seat, leaked[0])}"
        teacher, own = match.rules.view(match.state, None), match.rules.view(match.state, seat.number)
        secret = {  # a prediction chosen, not yet revealed: its token on the board
            f"⚑ {other + 1}</span>"
            for other, prediction in enumerate(getattr(teacher, "predictions", ()))
            if prediction is not None and own.predictions[other] is None
        }
        assert not seat.names(secret), f"{NAMES[seat.number]}'s page received a secret prediction"


#: in the page, at one moment: click Continue, or on the page's turn its first one-click decision
#: (Skip a gem action, bid zero, a legal card, a Kalah pit, the first choice); the step it left,
#: "" for a decision made in steps (a pass's cards, a Mandala move), or null: nothing to do now
CLICK = """([cards, pit]) => {
  const board = document.querySelector('.tricklab-board');
  if (!board) return null;
  const pick = (selector) => board.querySelector(selector);
  let target = pick("[data-intent='continue']");
  if (!target && board.dataset.turn === 'true') {
    if (pick(".tl-decision [data-intent='pick'], .tl-pick-card, .tl-claim")) return "";
    target = pick(".tl-decision [data-intent='act'][data-value='skip']") || pick(".tl-decision [data-value='bid zero']")
      || pick(cards) || pick(pit) || pick(".tl-decision [data-intent='act']");
  }
  if (!target) return null;
  const step = board.dataset.step;
  target.click();
  return step;
}"""


def _act(seat: Seat, game: str) -> bool:
    """The page's next click if it has one (go on from a finished trick, or its decision): chosen
    and clicked in the page at one moment, so a page drawn again in between is no matter."""
    page = seat.page
    step = page.evaluate(CLICK, [CARDS, LEGAL["kalah"]])
    if step is None:
        return False
    if step == "":  # a decision in steps
        if game == "mandala":
            mandala_move(page, page.locator(BOARD))
        else:
            take_one_decision(page)
        return True
    page.wait_for_function("([s, n]) => document.querySelector(s)?.dataset.step !== n", arg=[BOARD, step])
    return True


def _hand(page: Any, number: int) -> list[str]:
    """The cards of seat ``number``'s hand as its page draws them (none on a board game's page)."""
    cards = page.locator(f"{BOARD} section.tl-seat[aria-label='Player {number + 1}'] .tl-card")
    return cards.evaluate_all("cards => cards.map(c => c.getAttribute('aria-label') || c.dataset.value)")


def _round_over(seat: Seat) -> bool:
    board = seat.page.locator(BOARD)
    return board.get_attribute("data-over") == "true" or board.get_attribute("data-rounds") not in (None, "", "0")


def _both_click_at_once(first: Any, second: Any, legal: str) -> None:
    """Two tabs of one seat click two different legal moves (``legal``) at the same moment."""
    at = int(time.time() * 1000) + 700
    for page, index in ((first, 0), (second, -1)):
        page.evaluate(
            """([at, index, legal]) => setTimeout(() => {
                 [...document.querySelectorAll(".tricklab-board " + legal)].at(index)?.click();
               }, at - Date.now())""",
            [at, index, legal],
        )
    first.wait_for_timeout(1500)


def _play(
    browser: Any, url: str, store_url: str, game: str, title: str, players: int, humans: int, restart: Any = None
) -> None:
    seats, code = _make(browser, url, game, title, players, humans)
    store = Store.open(store_url)
    log = Log(store, _kept_seat(seats[0].page))
    reloaded = raced = restarted = False
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if all(_round_over(seat) for seat in seats):
            break
        first = seats[0].page
        if (
            not raced
            and first.locator(BOARD).get_attribute("data-turn") == "true"
            and first.locator(f"{BOARD} {RACE[game]}").count() >= 2
        ):  # the same seat in a second tab (the seat this device kept): both click at once
            raced = True
            twin = _open(browser, url, f"join={code}&pace=0", context=seats[0].page.context)
            twin.page.locator(f"{BOARD} {RACE[game]}").first.wait_for(timeout=90_000)
            twin.number = 0
            before = len(log.match().actions)
            if game == "mandala":  # a card picked in each tab, then one place clicked in both at once
                for page in (seats[0].page, twin.page):
                    pick_card(page, page.locator(f"{BOARD} {RACE[game]}").first)
                _both_click_at_once(seats[0].page, twin.page, OPEN_PLACE)
                if all(page.locator(f"{BOARD} {COUNTS}").count() for page in (seats[0].page, twin.page)):
                    _both_click_at_once(seats[0].page, twin.page, COUNTS)
            else:
                _both_click_at_once(seats[0].page, twin.page, RACE[game])
            after = log.match()
            mine = [n for n in range(before, len(after.actions)) if after.states[n].to_play == 0]
            assert len(mine) == 1, f"one of the two clicks landed, once: {after.actions[before:]}"
            _check_frames(log, [twin])
            twin.page.close()  # the seat plays on in its first tab
        acted = False
        for seat in seats:
            if not _round_over(seat) or seat.page.locator(f"{BOARD} [data-intent='continue']").count():
                acted = _act(seat, game) or acted
        _check_frames(log, seats)
        count = len(log.match().actions)
        if not reloaded and count > players * 2:  # a classmate's page opened again: the same seat, the same hand
            reloaded = True
            page = seats[1].page
            hand = _hand(page, 1)
            page.reload()
            page.locator(".tl-code").wait_for(timeout=90_000)
            assert f"{NAMES[1]} (you)" in page.locator(".tl-seat-list").inner_text()
            assert _hand(page, 1) == hand
        if restart is not None and not restarted and count > players * 4:
            restarted = True
            before = log.match().actions  # (the bots may still move while the server stops)
            url = restart()  # every kernel gone: each page sits down again from its own address
            for seat in seats:
                seat.page.reload()
                seat.page.locator(".tl-code").wait_for(timeout=90_000)
            after = log.match().actions
            assert after[: len(before)] == before, "nothing lost, nothing reordered across the restart"
        if not acted:
            seats[0].page.wait_for_timeout(150)
    else:
        shown = [
            (seat.page.locator(BOARD).get_attribute("data-turn"), seat.page.locator(".tl-caption").first.inner_text())
            for seat in seats
        ]
        seen = store.table_poll(log.seat).seats
        pytest.fail(f"the round did not end: {len(log.match().actions)} actions, seats {seen}; the pages show {shown}")
    _check_frames(log, seats)
    final = log.match()
    assert raced
    assert reloaded and (restart is None or restarted)
    for seat in seats:  # every page shows the round's end, and none holds another's cards
        assert _round_over(seat)
    assert final.actions == log.match().actions
    store.close()
    for seat in seats:
        if not seat.page.is_closed():
            seat.page.context.close()


@pytest.mark.parametrize(("game", "title", "players", "humans"), GAMES, ids=[g[0] for g in GAMES])
def test_classmates_play_a_whole_round_on_sqlite(
    voila_url: str, voila_class_db: str, browser: Any, game: str, title: str, players: int, humans: int
) -> None:
    _play(browser, voila_url, voila_class_db, game, title, players, humans)
