"""The class app's two widgets: the teacher's projector (:class:`ClassTeacher`) and each learner's
page (:class:`ClassLearner`), over the desks of :mod:`tricklab.classroom`.

Both keep their page up to date by reading the class store every :data:`POLL` seconds on a thread
of their own (a learner's page sees a question the moment it is sent; the projector sees the
answers come in), and redraw only when what they show has changed. Each puts in its page's
page what it needs to open again where it was, so a reload or a restarted server or kernel goes
on with the session: a learner's page its token in its address, the teacher's page its secret in
the page's own keeping (``scene.keep``: the tab's session storage, never the address, which a
projector shows the whole room; the page sends it back when asked, ``scene.recall``). Neither is
shown as a link to copy.

What a learner's page (and its kernel) holds is what :class:`~tricklab.classroom.LearnerDesk`
gives: the question as every learner is shown it, the learner's own answer, and the answer only
once the teacher has revealed it.
"""

from __future__ import annotations

import getpass
import os
import threading
from collections.abc import Callable
from typing import Protocol
from urllib.parse import parse_qs, urlencode, urlsplit

import traitlets

from .. import classwork
from ..classroom import LearnerDesk, Live, Now, TeacherDesk
from ..classwork import ClassQuestion
from ..display.classroom import (
    dashboard_html,
    from_apps_html,
    join_html,
    learner_html,
    live_html,
    reveal_html,
    saved_set_html,
)
from ..display.tables import class_tables_html
from ..errors import InvalidOption, TricklabError, describe
from ..explain import plural
from ..games import GAMES, default_players, find_game
from ..puzzles import levels as position_levels
from ..puzzles import questions as position_questions
from ..quiz import asks_positions, levels, questions
from ..store import PLAYER, ClassStore, TableSummary, open_store, tables_at
from .board import Board
from .controls import Button, Controls, Note, Picker, TextEntry

#: seconds between two reads of the class store (a learner's page reads one row each time:
#: :meth:`~tricklab.classroom.LearnerDesk.stamp`)
POLL = 0.25
#: the intent by which the page sends its own address (``read_page``)
PAGE = "page"
#: the intent by which the page sends back what it kept (``recall``, ``keep``)
RECALL = "recall"
#: what a teacher may send from the list: (value, label) for every game
ASK = (
    ("quiz-1", "Quiz: which card wins? (level 1)"),
    ("quiz-2", "Quiz: which card wins? (level 2)"),
    ("bid", "What would you predict, bid or pass?"),
    ("play", "Which card would you play?"),
)


def who_am_i() -> str:
    """The teacher's (or learner's) name where the server knows it: the hub user, else the user
    running the server."""
    return os.environ.get("JUPYTERHUB_USER") or getpass.getuser() or "teacher"


def client() -> str:
    """The client a join comes from, for the store's count of wrong join codes: the hub user, or the
    page's kernel."""
    return os.environ.get("JUPYTERHUB_USER") or os.environ.get("VOILA_KERNEL_ID") or f"process {os.getpid()}"


class _Poller:
    """Calls ``update()`` every ``every`` seconds on a daemon thread, until :meth:`stop`."""

    def __init__(self, update: Callable[[], None], every: float) -> None:
        self._update = update
        self._every = every
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tricklab-class-poll", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stopped.wait(self._every):
            try:
                self._update()
            except Exception:
                continue

    def stop(self) -> None:
        self._stopped.set()


def asks(game: str) -> list[tuple[str, str]]:
    """The questions the teacher's list offers for ``game``: ``(value, label)``."""
    cls = find_game(game)
    if asks_positions(cls.name):
        found = position_levels(cls.name)
        return [(f"quiz-{i + 1}", f"Quiz level {i + 1}: {level.title}") for i, level in enumerate(found)]
    offered = [a for a in ASK if not a[0].startswith("quiz-") or int(a[0][5:]) <= len(levels(cls.name))]
    return offered if cls.capabilities.review is not None else [a for a in offered if a[0].startswith("quiz-")]


def make_question(game: str, ask: str, number: int) -> ClassQuestion:
    """A question from the list: ``ask`` (one of :func:`_asks`'s values) of ``game``, the
    ``number``-th sent (it seeds the question, so each one sent is a new one)."""
    cls = find_game(game)
    players = default_players(cls)
    if ask.startswith("quiz-") and ask[5:].isdigit():
        level = int(ask[5:])
        if asks_positions(cls.name):
            return classwork.from_quiz(position_questions(cls.name, players, seed=number, level=level, count=1)[0])
        return classwork.from_quiz(questions(cls.name, players, seed=number, level=level, count=1)[0])
    if ask in ("bid", "play"):
        match = cls.from_options(players, {}).play(seed=number, bots="heuristic")
        points = [
            i
            for i, state in enumerate(match.states)
            if state.to_play is not None and ((state.phase == "play") == (ask == "play"))
        ]
        if not points:
            raise InvalidOption(f"{cls.title} has no such decision in deal {number}")
        return classwork.decision(match, points[(number * 7) % len(points)] if ask == "play" else points[0])
    raise InvalidOption(f"there is no question {describe(ask)} to send")


class _AsksClass(Protocol):
    """A widget that makes a question for a class of what it shows."""

    @property
    def board(self) -> Board: ...

    def class_question(self) -> ClassQuestion: ...


def offer_to_class(widget: _AsksClass, secret: str, store: ClassStore | None = None) -> Button:
    """Add a *Send to the class* button below ``widget``'s controls: a click sends what the widget
    shows (its ``class_question()``) to the session whose teacher secret is ``secret``; a note
    beside it says what was sent, or the widget's message why nothing was. A secret that is no
    session's raises the store's error, and nothing is added."""
    desk = TeacherDesk.reopen(
        store if store is not None else open_store(), secret, who=os.environ.get("JUPYTERHUB_USER", "")
    )
    button = Button("to_class", "Send to the class", tooltip=f"to class session {desk.join_code}")
    note = Note("to_class_note", f"Class session {desk.join_code}: nothing sent from here yet.")

    def send() -> None:
        try:
            sent = desk.send(widget.class_question())
        except TricklabError as exc:
            widget.board.message = str(exc)
            return
        widget.board.message = ""
        note.label = f"Sent to class session {desk.join_code} as question {sent.number}."

    button.on_click(send)
    widget.board.add_controls([button, note])
    return button


#: the apps a teacher can send a question from (``Send to the class``): (notebook, words)
FROM_APPS = (
    ("explain_trick.ipynb", "a trick, in the explainer"),
    ("replay.ipynb", "a decision of a replayed match"),
    ("quiz.ipynb", "a quiz question"),
    ("bid_trainer.ipynb", "a hand's bid or a position's move, in the trainer"),
)


class ClassTeacher(Board):
    """The teacher's page, for the projector: start a session, show how to join (the join code,
    the join link and its QR code), send a question from the list (or any :class:`ClassQuestion`
    with :meth:`send`), watch the answers come in as counts (never names), reveal the answer with
    the engine's reasons (and the judge's figures for the answers chosen most), and read the
    results: each student's answers, the questions most missed, and a CSV to download.

    Its state a notebook cares about is synced traits: ``join_code``, ``question_number``,
    ``answered``, ``students`` and ``revealed``."""

    join_code = traitlets.Unicode("", read_only=True).tag(sync=True)
    question_number = traitlets.Int(0, read_only=True).tag(sync=True)
    answered = traitlets.Int(0, read_only=True).tag(sync=True)
    students = traitlets.Int(0, read_only=True).tag(sync=True)
    revealed = traitlets.Bool(False, read_only=True).tag(sync=True)

    def __init__(
        self,
        store: ClassStore | None = None,
        *,
        secret: str | None = None,
        recall: bool = False,
        page: str = "",
        poll: float = POLL,
    ) -> None:
        """``secret`` reopens that session; else ``recall`` asks the page for the secret it kept
        (a reloaded projector's page) before offering to start one."""
        super().__init__()
        self.store = store if store is not None else open_store()
        self.desk: TeacherDesk | None = None
        self.page = ""
        self._shown: tuple[object, ...] = ()
        self._results = False
        first = next(iter(GAMES))
        self.start_button = Button("start", "Start a class session", primary=True)
        self.game_picker = Picker("game", "Game", [(cls.title, name) for name, cls in GAMES.items()], first)
        self.ask_picker = Picker("ask", "Question", [(label, value) for value, label in asks(first)], "quiz-1")
        self.send_button = Button("send", "Send to the class", primary=True)
        self.reveal_button = Button("reveal", "Reveal the answer")
        self.results_button = Button("results", "Results")
        self.save_button = Button("save_set", "Save as homework", tooltip="the questions sent so far, as a set")
        self._saved: TeacherDesk | None = None
        self.start_button.on_click(self.start)
        self.send_button.on_click(lambda: self._try(lambda: self.send()))
        self.reveal_button.on_click(lambda: self._try(self.reveal))
        self.results_button.on_click(self._toggle_results)
        self.save_button.on_click(lambda: self._try(self.save_set))
        self.game_picker.on_change(self._game_changed)
        self.use_controls(
            Controls(
                [
                    [self.start_button],
                    [self.game_picker, self.ask_picker, self.send_button],
                    [self.reveal_button, self.results_button, self.save_button],
                ]
            )
        )
        self.on_intent(self._intent)
        if page:
            self._set_page(page)
        self._recalling = recall and secret is None
        if secret is not None:
            self._reopen(secret)
        self._refresh(force=True)
        self._poller = _Poller(self._refresh, poll)

    # --- what the teacher does -------------------------------------------------------------------

    def start(self) -> None:
        """Start a new session (its join code goes on the projector)."""
        self.desk = TeacherDesk.start(self.store, who_am_i())
        self._refresh(force=True)

    def send(self, question: ClassQuestion | None = None) -> None:
        """Send ``question`` (default: the one chosen in the list) to the class."""
        desk = self._desk()
        if question is None:
            current = desk.current()
            number = 1 + (current[0].number if current else 0)
            question = make_question(str(self.game_picker.value), str(self.ask_picker.value), number)
        desk.send(question)
        self._results = False
        self._refresh(force=True)

    def reveal(self) -> None:
        """Reveal the current question's answer."""
        desk = self._desk()
        if desk.current() is None:
            raise InvalidOption("there is no question to reveal yet: send one first")
        desk.reveal()
        self._refresh(force=True)

    def save_set(self) -> TeacherDesk:
        """Save the questions sent so far as a homework set (its join code and link, and the
        link to its results, are shown): the set's desk."""
        self._saved = self._desk().save_set()
        self._refresh(force=True)
        return self._saved

    def link(self) -> str:
        """The join link: the class app's page with the join code (``""`` until both are known)."""
        if not self.page or self.desk is None:
            return ""
        return f"{self.page}?{urlencode({'join': self.desk.join_code})}"

    # --- the page -----------------------------------------------------------------------------------

    def _desk(self) -> TeacherDesk:
        if self.desk is None:
            raise InvalidOption("start a class session first")
        return self.desk

    def _try(self, action: Callable[[], object]) -> None:
        try:
            action()
        except TricklabError as exc:
            self.message = str(exc)

    def _toggle_results(self) -> None:
        self._results = not self._results
        self._refresh(force=True)

    def _game_changed(self, game: object) -> None:
        options = [(label, value) for value, label in asks(str(game))]
        self.ask_picker.set_options(options, options[0][1])
        self._refresh(force=True)  # the links to the apps are the game's

    def _reopen(self, secret: str) -> None:
        self.desk = TeacherDesk.reopen(self.store, secret, who=os.environ.get("JUPYTERHUB_USER", ""))

    def _recall(self, kept: str) -> None:
        """The page sent what it kept: the session of its secret goes on (else, start one)."""
        if not self._recalling:
            return
        self._recalling = False
        secret = parse_qs(kept[:500]).get("teacher", [""])[0]
        if secret and self.desk is None:
            try:
                self._reopen(secret)
            except TricklabError as exc:
                self.message = str(exc)
        self._refresh(force=True)

    def _intent(self, intent: str, value: str | None) -> None:
        if intent == PAGE and isinstance(value, str):
            self._set_page(value)
            self._refresh(force=True)
        elif intent == RECALL and isinstance(value, str):
            self._recall(value)

    def _from_apps(self) -> list[tuple[str, str]]:
        """The links to the apps that can send the picked game's questions to this session (none
        until the page's address is known)."""
        if not self.page or self.desk is None:
            return []
        folder = self.page.rsplit("/", 1)[0]
        game = str(self.game_picker.value)
        query = urlencode({"game": game, "teacher": self.desk.session.teacher_secret})
        tricks = find_game(game).capabilities.tricks
        return [
            (f"{folder}/{app}?{query}", words) for app, words in FROM_APPS if tricks or app != "explain_trick.ipynb"
        ]

    def _tables_html(self, tables: tuple[TableSummary, ...]) -> str:
        """The session's tables of classmates, each with a link to watch it (the teacher's secret
        goes with the link and leaves the table app's address at once, as with the apps' links)."""
        desk = self.desk
        assert desk is not None
        folder = self.page.rsplit("/", 1)[0] if self.page else ""
        make = f"{tables_at(folder + '/')}table.ipynb?{urlencode({'class': desk.join_code})}" if folder else ""
        rows = []
        for table in tables:
            people = [info.name for info in table.seats if info.kind == PLAYER and info.name]
            bots = sum(info.kind != PLAYER for info in table.seats)
            who = ", ".join(people) + (f" and {plural(bots, 'bot')}" if bots else "")
            what = f"{find_game(table.game).title}, {plural(table.actions, 'move')}"
            query = urlencode({"watch": table.code, "teacher": desk.session.teacher_secret})
            rows.append((table.code, what, who, f"{folder}/table.ipynb?{query}" if folder else ""))
        return class_tables_html(make, desk.join_code, rows)

    def _set_page(self, page: str) -> None:
        parts = urlsplit(page) if len(page) <= 500 else None
        if parts is None or parts.scheme not in ("http", "https") or not parts.netloc:
            return
        self.page = f"{parts.scheme}://{parts.netloc}{parts.path}"

    def _refresh(self, force: bool = False) -> None:
        """Read the store; redraw when what the page shows has changed."""
        desk = self.desk
        if desk is None:
            state: tuple[object, ...] = ("recalling" if self._recalling else "start",)
        else:
            live = desk.live()
            answers = len(self.store.results(desk.session)) if desk.paced else 0  # a set's dashboard grows
            saved = self._saved.session.id if self._saved else ""
            tables = tuple(self.store.class_tables(desk.session)) if not desk.paced else ()
            state = (
                "session",
                self.page,
                self._results,
                live,
                len(self.store.students(desk.session)),
                answers,
                saved,
                tables,
            )
        if not force and state == self._shown:
            return
        self._shown = state
        self._draw(state)

    def _draw(self, state: tuple[object, ...]) -> None:
        desk = self.desk
        started = desk is not None
        live_session = desk is not None and not desk.paced
        self.start_button.hidden = started
        for control in (
            self.game_picker,
            self.ask_picker,
            self.send_button,
            self.reveal_button,
            self.results_button,
            self.save_button,
        ):
            control.hidden = not live_session
        if desk is None and self._recalling:
            self.start_button.hidden = True
            html = '<p class="tl-summary" role="status">Opening the class session…</p>'
            self.scene = {"html": html, "label": "Class session", "read_page": True, "recall": True}
            return
        if desk is None:
            html = (
                '<p class="tl-summary">Start a session, then ask the class to join with its code. Questions '
                "appear on every device at once; answers come back as counts, never names.</p>"
            )
            # nothing kept any more: a reload starts afresh
            self.scene = {"html": html, "label": "Class session", "read_page": True, "keep": ""}
            return
        live, students = state[3], state[4]
        assert isinstance(students, int)
        qr = _qr_svg(self.link()) if self.link() and live is None else ""
        where = self.link() or f"the class app, join code {desk.join_code}"
        body = join_html(desk.join_code, where, qr, small=live is not None)
        if self.page and urlsplit(self.page).hostname in ("localhost", "127.0.0.1", "::1"):
            body += (
                '<p class="tricklab-message" role="alert">This page was opened as localhost: the class cannot '
                "reach that address. Open it by this computer's network address (see the classroom guide).</p>"
            )
        answered = 0
        number = 0
        revealed = False
        if self._saved is not None:
            saved = self._saved.session
            join = f"{self.page}?{urlencode({'join': saved.join_code})}" if self.page else ""
            results = f"{self.page}?{urlencode({'teacher': saved.teacher_secret})}" if self.page else ""
            body += saved_set_html(saved.join_code, join, results)
        if desk.paced:
            count = len(desk.store.questions(desk.session))
            body += (
                f'<p class="tl-class-waiting" role="status">A homework set of {count} questions: '
                f"{students} joined. Each student answers at their own pace.</p>"
            )
            body += dashboard_html(desk.dashboard(), desk.csv())
            live = None  # a set has no question of the moment
        else:
            body += from_apps_html(self._from_apps())
            tables = state[7]
            assert isinstance(tables, tuple)
            body += self._tables_html(tables)
            if self._results:
                body += dashboard_html(desk.dashboard(), desk.csv())
            elif isinstance(live, Live):
                number, answered, revealed = live.question.number, live.answered, live.question.revealed
                reveal = desk.revealed() if revealed else None
                body += live_html(live) if reveal is None else reveal_html(reveal, students=students)
            else:
                body += f'<p class="tl-class-waiting" role="status">{students} joined. Send a question when ready.</p>'
        self.reveal_button.disabled = live is None or revealed
        self.results_button.label = "Back to the question" if self._results else "Results"
        self.save_button.disabled = live is None
        self.set_trait("join_code", desk.join_code)
        self.set_trait("question_number", number)
        self.set_trait("answered", answered)
        self.set_trait("students", students)
        self.set_trait("revealed", revealed)
        self.scene = {
            "html": body,
            "label": f"{'Homework set' if desk.paced else 'Class session'} {desk.join_code}",
            "large": True,
            "read_page": True,
            "address": "teach=1",
            "keep": urlencode({"teacher": desk.session.teacher_secret}),
            "announce": f"{answered} of {students} answered" if live is not None else "",
        }

    def close(self) -> None:
        poller = getattr(self, "_poller", None)  # None: closed as it was being made
        if poller is not None:
            poller.stop()
        super().close()


def _qr_svg(link: str) -> str:
    """The join link as a QR code (SVG), or ``""`` where ``segno`` is missing."""
    try:
        import segno
    except ImportError:
        return ""
    svg: str = segno.make(link, error="m").svg_inline(scale=6, dark="#000000", light="#ffffff")
    return svg


class ClassLearner(Board):
    """A learner's page: join with the code and a display name (under JupyterHub, the hub name),
    wait for the teacher, answer each question by clicking it, and see the answer once revealed,
    with one's own answer marked. ``name``, ``question_number``, ``given`` and ``right`` are synced
    traits."""

    name = traitlets.Unicode("", read_only=True).tag(sync=True)
    question_number = traitlets.Int(0, read_only=True).tag(sync=True)
    given = traitlets.Unicode(None, allow_none=True, read_only=True).tag(sync=True)
    right = traitlets.Bool(None, allow_none=True, read_only=True).tag(sync=True)

    def __init__(
        self, store: ClassStore | None = None, *, join: str = "", token: str | None = None, poll: float = POLL
    ) -> None:
        super().__init__()
        self.store = store if store is not None else open_store()
        self.desk: LearnerDesk | None = None
        self._shown: object = None
        self._stamp: object = None
        hub = os.environ.get("JUPYTERHUB_USER", "")
        self.code_entry = TextEntry("code", "Join code", value=join[:20], placeholder="6 letters and digits")
        self.name_entry = TextEntry(
            "name", "Your name", value=hub, placeholder="how the teacher will see you", max_length=40, hidden=bool(hub)
        )
        self.join_button = Button("join", "Join the class", primary=True)
        self.join_button.on_click(lambda: self._try_join())
        self.use_controls(Controls([[self.code_entry], [self.name_entry], [self.join_button]]))
        self.on_intent(self._intent)
        if token:
            try:
                self.desk = LearnerDesk.reopen(self.store, token)
            except TricklabError as exc:
                self.message = str(exc)
        self._refresh(force=True)
        self._poller = _Poller(self._refresh, poll)

    def join(self, code: str, name: str) -> None:
        """Join the session of ``code`` as ``name``."""
        self.desk = LearnerDesk.join(self.store, code, name, who=client())
        self.message = ""
        self._refresh(force=True)

    def answer(self, choice: str) -> None:
        """Answer the current question with one of its choices (as clicking it does)."""
        if self.desk is None:
            raise InvalidOption("join the class first")
        self.desk.answer(choice)
        self._refresh(force=True)

    def _try_join(self) -> None:
        try:
            self.join(str(self.code_entry.value), str(self.name_entry.value))
        except TricklabError as exc:
            self.message = str(exc)

    def next(self) -> None:
        """In a homework set: on to the next question (as the Next button does)."""
        if self.desk is None:
            raise InvalidOption("join the class first")
        self.desk.next()
        self._refresh(force=True)

    def _intent(self, intent: str, value: str | None) -> None:
        try:
            if intent == "answer" and value is not None:
                self.answer(value)
            elif intent == "next":
                self.next()
        except TricklabError as exc:
            self.message = str(exc)

    def _refresh(self, force: bool = False) -> None:
        desk = self.desk
        if desk is not None and not force:  # one cheap read; the question itself only when it changed
            stamp = desk.stamp()
            if stamp == self._stamp:
                return
            self._stamp = stamp
        elif desk is not None:
            self._stamp = desk.stamp()
        now: Now | None = None if desk is None else desk.now()
        if not force and now == self._shown:
            return
        self._shown = now
        joining = desk is None
        for control in (self.code_entry, self.name_entry, self.join_button):
            control.hidden = not joining or (control is self.name_entry and bool(os.environ.get("JUPYTERHUB_USER")))
        if desk is None or now is None:
            self.scene = {
                "html": '<p class="tl-summary">Type the join code your teacher shows, and your name.</p>',
                "label": "Join the class",
            }
            return
        self.set_trait("name", desk.name)
        self.set_trait("question_number", 0 if now.question is None else now.question.number)
        self.set_trait("given", now.given)
        self.set_trait("right", now.right)
        said = "Waiting for the teacher" if now.question is None else f"Question {now.question.number}"
        if now.question is None and now.of:
            said = "Every question answered"
        if now.answer is not None:
            said += ": " + ("right" if now.right else "the answer is shown")
        self.scene = {
            "html": learner_html(now, desk.name, desk.results() if now.of and now.question is None else ()),
            "label": f"Class: {desk.name}",
            "address": urlencode({"student": desk.student.token}),
            "announce": said,
        }

    def close(self) -> None:
        poller = getattr(self, "_poller", None)  # None: closed as it was being made
        if poller is not None:
            poller.stop()
        super().close()
