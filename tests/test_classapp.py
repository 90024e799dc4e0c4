"""The class app's widgets in Python (tricklab.widgets.classapp): a teacher and learners on one
store, each page redrawn from the store by its own poll; what a learner's page is sent never holds
the answer before the reveal; bad input is shown, not raised, and changes nothing."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tricklab import classwork as cw
from tricklab.games import GAMES
from tricklab.store import Store
from tricklab.widgets.classapp import ClassLearner, ClassTeacher, asks, make_question


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store.open(str(tmp_path / "class.sqlite3"))
    yield opened
    opened.close()


def _until(check: Callable[[], bool], timeout: float = 5.0) -> None:
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, "the page was not redrawn from the store in time"
        time.sleep(0.02)


def test_a_question_reaches_every_page_and_the_answers_reach_the_projector(store: Store) -> None:
    teacher = ClassTeacher(store, page="http://192.168.1.20:8866/voila/render/class.ipynb", poll=0.05)
    assert "Start a session" in teacher.scene["html"] and teacher.controls["send"].hidden
    teacher.controls["start"].click()
    code = teacher.join_code
    assert len(code) == 6 and code in teacher.scene["html"]
    assert f"class.ipynb?join={code}" in teacher.scene["html"] and "<svg" in teacher.scene["html"], "link and QR"
    secret = teacher.desk.session.teacher_secret  # type: ignore[union-attr]
    assert teacher.scene["address"] == "teach=1", "the projected address holds no secret"
    assert teacher.scene["keep"] == f"teacher={secret}", "the page keeps it for a reload"
    learners = [ClassLearner(store, join=code, poll=0.05) for _ in range(3)]
    for learner, name in zip(learners, ("Ana", "Ben", "<b>Cy</b>"), strict=True):
        learner.control("name", name)
        learner.controls["join"].click()
        assert "Waiting for the teacher" in learner.scene["html"]
    assert "&lt;b&gt;Cy&lt;/b&gt;" in learners[2].scene["html"], "a name is text, never markup"
    _until(lambda: teacher.students == 3)

    question = cw.which_wins("tricks-and-stones", "7H AH 8S KD", players=4, trump="S")
    teacher.send(question)
    for learner in learners:
        _until(lambda learner=learner: learner.question_number == 1)
        html = learner.scene["html"]
        assert question.prompt in html and "Eight of Spades wins" not in html and "tl-feedback" not in html
    learners[0].intent("answer", "8S")
    learners[1].intent("answer", "AH")
    pressed = re.findall(r'data-value="([^"]+)" aria-pressed="true"', learners[0].scene["html"])
    assert pressed == ["8S"], "the learner's own answer is the card pressed"
    assert "aria-pressed" not in learners[2].scene["html"], "nothing is pressed before an answer"
    learners[2].intent("answer", "no such card")
    assert "not one of this question's choices" in learners[2].message and learners[2].given is None
    _until(lambda: teacher.answered == 2)
    assert 'data-value="8S" data-count="1"' in teacher.scene["html"]
    assert "Ana" not in teacher.scene["html"], "the projector shows counts, never names"

    teacher.controls["reveal"].click()
    assert teacher.revealed and "Eight of Spades wins." in teacher.scene["html"]
    _until(lambda: learners[0].right is True and learners[1].right is False)
    _until(lambda: "Eight of Spades wins." in learners[2].scene["html"])  # each page on its own poll
    assert "✓" in learners[0].scene["html"] and "You chose Ace of Hearts" in learners[1].scene["html"]
    assert "Eight of Spades wins." in learners[2].scene["html"] and "You did not answer" in learners[2].scene["html"]

    teacher.controls["results"].click()
    assert "Download the results (CSV)" in teacher.scene["html"] and "&lt;b&gt;Cy&lt;/b&gt;" in teacher.scene["html"]
    for page in (teacher, *learners):
        page.close()


def test_pages_opened_again_go_on_and_bad_links_are_shown_not_raised(store: Store) -> None:
    teacher = ClassTeacher(store, poll=0.05)
    teacher.start()
    ana = ClassLearner(store, poll=0.05)
    ana.join(teacher.join_code, "Ana")
    teacher.send(make_question("band-of-tricks", "quiz-1", 1))
    _until(lambda: ana.question_number == 1)
    token = ana.desk.student.token  # type: ignore[union-attr]
    ana.close()
    again = ClassLearner(store, token=token, poll=0.05)
    assert again.name == "Ana" and again.question_number == 1
    projector = ClassTeacher(store, secret=teacher.desk.session.teacher_secret, poll=0.05)  # type: ignore[union-attr]
    assert projector.join_code == teacher.join_code and projector.question_number == 1
    # a reloaded projector (?teach=1) asks its page for what it kept before offering to start
    reloaded = ClassTeacher(store, recall=True, poll=0.05)
    assert reloaded.scene["recall"] is True and reloaded.controls["start"].hidden and reloaded.desk is None
    reloaded.intent("recall", f"teacher={teacher.desk.session.teacher_secret}")  # type: ignore[union-attr]
    assert reloaded.join_code == teacher.join_code and reloaded.question_number == 1
    reloaded.intent("recall", "teacher=another")  # asked once: what the page sends later is not read
    assert reloaded.join_code == teacher.join_code and not reloaded.message
    for kept, said in (("", ""), ("teacher=not-a-secret", "start a new session"), ("x" * 10_000, "")):
        fresh = ClassTeacher(store, recall=True, poll=0.05)
        fresh.intent("recall", kept)
        assert fresh.desk is None and not fresh.controls["start"].hidden and fresh.scene["keep"] == ""
        assert said in fresh.message and (said or not fresh.message) and len(fresh.message) < 300
        fresh.close()
    reloaded.close()
    stranger = ClassLearner(store, token="not-a-token", poll=0.05)
    assert "join again" in stranger.message and stranger.controls["join"].hidden is False
    guesser = ClassLearner(store, poll=0.05)
    guesser.control("code", "ZZZZZZ")
    guesser.control("name", "Eve")
    guesser.controls["join"].click()
    assert "check it with your teacher" in guesser.message and guesser.desk is None
    teacher.controls["reveal"].click()
    teacher.controls["reveal"].click()  # disabled once revealed: nothing happens
    for page in (teacher, again, projector, stranger, guesser):
        page.close()


@pytest.mark.parametrize(
    ("game", "ask"),
    [
        ("tricks-and-stones", "quiz-2"),
        ("tricks-and-stones", "bid"),
        ("band-of-tricks", "play"),
        ("jewel-vault", "bid"),
        ("kalah", "quiz-1"),
        ("mandala", "quiz-2"),
    ],
)
def test_every_question_of_the_list_can_be_sent(game: str, ask: str) -> None:
    question = make_question(game, ask, 3)
    assert question.choices and question.right and set(question.right) <= {c.value for c in question.choices}
    assert make_question(game, ask, 3).shown() == question.shown(), "the same number, the same question"


def test_the_list_offers_every_game_questions_it_can_make() -> None:
    for game in GAMES:
        offered = asks(game)
        assert offered, game
        for value, label in offered:
            question = make_question(game, value, 1)
            assert question.choices and label, (game, value)


# --- Send to the class, from the other apps ----------------------------------------------------------

FROM_APPS = [
    ("explain_trick_app", "game=jewel-vault&players=4&trump=S&cards=3S,9H,KS,2S", "which-wins"),
    ("replay_app", "game=band-of-tricks&players=4&seed=7&step=12", "play"),
    ("replay_app", "game=kalah&seed=3&step=5", "move"),
    ("quiz_app", "game=jewel-vault&players=4&seed=2", "quiz"),
    ("quiz_app", "game=mandala&seed=2", "quiz"),
    ("bid_trainer_app", "game=tricks-and-stones&players=4&seed=5", "bid"),
    ("bid_trainer_app", "game=kalah&seed=5", "move"),
]


@pytest.mark.parametrize(("app", "query", "kind"), FROM_APPS)
def test_an_app_opened_with_the_teachers_secret_sends_what_it_shows(app: str, query: str, kind: str) -> None:
    from tricklab.classroom import LearnerDesk, TeacherDesk
    from tricklab.widgets import apps

    store = Store.open()  # the store the apps open: the suite's (TRICKLAB_CLASS_DB)
    desk = TeacherDesk.start(store, "teacher")
    learner = LearnerDesk.join(store, desk.join_code, "Ana")
    secret = desk.session.teacher_secret
    box = getattr(apps, app)(f"{query}&teacher={secret}")
    widget = box.children[1]
    board = widget.board
    assert "cannot send" not in box.children[0].value
    assert board.controls is not None and desk.join_code in board.controls["to_class_note"].label
    assert secret not in board.scene["address"], "the page's address (and a link copied from it) never holds the secret"
    expected = widget.class_question()
    board.control("to_class", None)  # the page's click
    assert board.message == "", board.message
    sent = learner.now().question
    assert sent is not None and sent.number == 1
    assert sent.shown == expected.shown() and desk.current()[0].kind == kind  # type: ignore[index]
    assert "question 1" in board.controls["to_class_note"].label
    assert learner.now().answer is None, "a learner gets no answer before the reveal"


def test_an_app_with_a_wrong_secret_says_so_and_offers_no_sending() -> None:
    from tricklab.widgets import apps

    box = apps.quiz_app("game=kalah&teacher=not-a-secret")
    assert "This page cannot send to a class" in box.children[1 - 1].value
    board = box.children[1].board
    assert board.controls is not None and "to_class" not in board.controls


def test_what_cannot_be_sent_is_said_and_nothing_is_sent() -> None:
    from tricklab.classroom import TeacherDesk
    from tricklab.widgets import apps

    desk = TeacherDesk.start(Store.open(), "teacher")
    secret = desk.session.teacher_secret
    one_card = apps.explain_trick_app(f"game=jewel-vault&players=4&cards=3S&teacher={secret}").children[1]
    one_card.control("to_class", None)
    assert "two cards or more" in one_card.message and desk.current() is None
    over = apps.replay_app(f"game=kalah&seed=3&step=999999&teacher={secret}").children[1]
    over.control("to_class", None)
    assert "nobody is to play" in over.message and desk.current() is None


def test_the_projector_links_the_apps_that_send_the_picked_games_questions(store: Store) -> None:
    teacher = ClassTeacher(store, page="http://192.168.1.20:8866/voila/render/class.ipynb", poll=60)
    teacher.controls["start"].click()
    secret = teacher.desk.session.teacher_secret  # type: ignore[union-attr]
    html = teacher.scene["html"]
    first = next(iter(GAMES))
    for app in ("explain_trick", "replay", "quiz", "bid_trainer"):
        assert f'href="http://192.168.1.20:8866/voila/render/{app}.ipynb?game={first}&amp;teacher={secret}"' in html
    teacher.control("game", str(list(GAMES).index("kalah")))  # the page sends the option's index
    html = teacher.scene["html"]
    assert "replay.ipynb?game=kalah&amp;teacher=" in html and "explain_trick.ipynb" not in html, "Kalah has no tricks"
    learner = ClassLearner(store, join=teacher.join_code, poll=60)
    learner.control("name", "Ana")
    learner.controls["join"].click()
    assert secret not in learner.scene["html"] and secret not in str(learner.scene)
    teacher.close()
    learner.close()


def test_a_homework_set_saved_on_the_projector_is_answered_at_a_learners_pace(store: Store) -> None:
    page = "http://192.168.1.20:8866/voila/render/class.ipynb"
    teacher = ClassTeacher(store, page=page, poll=60)
    teacher.controls["start"].click()
    assert teacher.controls["save_set"].disabled, "nothing to save before a question is sent"
    teacher.send(cw.which_wins("tricks-and-stones", "7H AH 8S KD", players=4, trump="S"))
    teacher.send(cw.which_wins("tricks-and-stones", "9C KC 7C", players=4, trump="H"))
    teacher.control("save_set", None)
    assert teacher._saved is not None
    saved = teacher._saved.session
    html = teacher.scene["html"]
    assert "Homework set saved" in html and f"{page}?join={saved.join_code}" in html
    assert f"{page}?teacher={saved.teacher_secret}" in html, "the set's results: the teacher's own link"

    learner = ClassLearner(store, join=saved.join_code, poll=60)
    learner.control("name", "Ana")
    learner.controls["join"].click()
    assert "Question 1 of 2" in learner.scene["html"] and saved.teacher_secret not in str(learner.scene)
    learner.intent("answer", "8S")
    html = learner.scene["html"]
    assert "Eight of Spades wins" in html and 'data-intent="next"' in html and "Next question" in html
    learner.intent("answer", "AH")
    assert "press Next" in learner.message, "a set's answer is given once"
    learner.intent("next")
    assert "Question 2 of 2" in learner.scene["html"]
    learner.intent("answer", "7C")
    assert "See your results" in learner.scene["html"]
    learner.intent("next")
    html = learner.scene["html"]
    assert (
        "You have answered all 2 questions: 1 right." in html and learner.scene["announce"] == "Every question answered"
    )

    results = ClassTeacher(store, secret=saved.teacher_secret, page=page, poll=60)
    html = results.scene["html"]
    assert "A homework set of 2 questions: 1 joined" in html and "Ana" in html
    assert results.controls["send"].hidden and results.controls["reveal"].hidden and results.controls["save_set"].hidden
    for widget in (teacher, learner, results):
        widget.close()
