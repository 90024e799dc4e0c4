"""A seat at a table of classmates (tricklab.widgets.sharedtable), as its widget: two classmates'
widgets and bots play a whole game of each game through the class store's log (SQLite, then
PostgreSQL), each widget's synced state checked at every step for the other seats' hidden cards and
for the seed; the lobby makes, joins and sits again; what a solo table does and a shared one does not
is refused in words."""

from __future__ import annotations

import json
import time
from html import escape as esc
from pathlib import Path

import pytest

from tricklab.bots import table_bot
from tricklab.games import GAMES, default_players
from tricklab.store import PLAYER, Session, Store
from tricklab.widgets.sharedtable import SharedPlayTable, TableLobby

from .test_hostile_widgets import assert_seat_only, drawn, hidden_cards, named

pytestmark = pytest.mark.server


def two_seats(
    stores: list[Store], game: str, players: int, *, stand_in_after: float = 20.0
) -> tuple[SharedPlayTable, SharedPlayTable]:
    kinds = [PLAYER, PLAYER, "heuristic", "random"][:players]
    ana = stores[0].new_table(game, players, {}, kinds, "Ana", now=1.0)
    ben = stores[1].join_table(ana.code, "Ben", now=2.0)
    return (
        SharedPlayTable(ana, stores[0], poll=0, pace=0, stand_in_after=stand_in_after),
        SharedPlayTable(ben, stores[1], poll=0, pace=0, stand_in_after=stand_in_after),
    )


#: the front end's code, the same for every widget: not the table's state
STATIC = ("_esm", "_packed", "_css")


def check_only_own_seat(table: SharedPlayTable) -> None:
    """What the page is given (every synced trait) shows nothing hidden from the table's seat."""
    rules, state, seat = table.rules, table.match.state, table.seat
    # what is shown of the deal before (its last trick or sheet, the learner's last move in it) holds
    # cards the new deal has dealt again: the check is of what is shown of the deal under way
    dealt = max((s.decisions for s in table.match.timeline(seat) if s.event.kind == "deal"), default=0)
    mine = [n for n, before in enumerate(table.match.states[:-1]) if before.to_play == seat]
    if table.paused is not None or (mine and mine[-1] < dealt):
        return  # a held trick or sheet is the seat's own timeline's (tests/test_hostile_widgets.py)
    assert_seat_only(table.scene["html"], rules, state, seat)
    # the cards the seat held in this deal it knows wherever they went (a pass): the rest are secret
    held = {
        card
        for step in table.match.timeline(seat)
        if step.decisions >= dealt
        for card in (step.state.hands[seat] or ())
    }
    state_sent = {k: v for k, v in table.get_state().items() if k not in STATIC}
    synced = json.dumps({k: v for k, v in state_sent.items() if k != "scene"})
    assert [str(c) for c in hidden_cards(rules, state, seat) - held if named(synced, c)] == []
    assert str(table.match.seed) not in json.dumps(state_sent), "the seed reached the page"


@pytest.mark.parametrize(("game", "players"), [(name, default_players(cls)) for name, cls in GAMES.items()])
def test_two_classmates_widgets_play_a_whole_game(stores: list[Store], game: str, players: int) -> None:
    tables = two_seats(stores, game, players)
    bound = tables[0].rules.max_decisions * 4
    for _ in range(bound):
        if all(t.match.is_over and t.paused is None for t in tables):
            break
        for table in tables:
            table.poll()
            check_only_own_seat(table)
            # what the page is told of whom the table waits for is what the table waits for
            assert table.waiting == [table.shared.seats[n].name for n in table.shared.waiting_for()]
            if table.paused is not None:
                table.continue_(animate=False)
            elif table.my_turn and not table.waiting:  # (while a classmate looks at the last trick, it waits)
                match = table.match
                choice = table_bot(table.rules, table.seat, match.seed, len(match.actions)).choose(
                    match.view(table.seat), match.legal_actions()
                )
                assert table.act(choice), table.message
    assert tables[0].match.is_over and tables[0].match.actions == tables[1].match.actions
    assert tables[0].turn is None and tables[0].scores == tables[1].scores != []
    assert "The game is over" in tables[0].scene["html"]
    # a table of classmates plays one deal: its end offers a new table, not a new deal
    tables[0].page = "http://127.0.0.1/voila/render/table.ipynb"
    tables[0]._render()
    final = tables[0].scene["html"]
    assert "New deal" not in final and f"table.ipynb?game={game}&amp;players={players}" in final


def test_a_classmate_whose_own_move_ended_a_round_is_told_when_the_table_goes_on(
    stores: list[Store], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Jewel Vault deal (its seed fixed) where Ana's own decision ends a round: the table waits
    for both classmates to go on, and once they have, Ana's page must say so and offer her cards
    (it once kept saying "Waiting for Ana and Ben", and the table hung)."""
    monkeypatch.setattr("tricklab.store.secrets.randbelow", lambda _: 460789353761569126)
    tables = two_seats(stores, "jewel-vault", 4)
    ended_own_round = False
    for _ in range(400):
        if len(tables[0].match.actions) > 60:
            break
        for table in tables:
            table.poll()
            assert table.waiting == [table.shared.seats[n].name for n in table.shared.waiting_for()]
            if table.paused is not None:
                table.continue_(animate=False)
            elif table.my_turn and not table.waiting:
                match = table.match
                choice = table_bot(table.rules, table.seat, match.seed, len(match.actions)).choose(
                    match.view(table.seat), match.legal_actions()
                )
                assert table.act(choice), table.message
                ended_own_round |= table.shared.holds() == len(match.actions) and bool(table.shared.waiting_for())
    assert ended_own_round, "the deal no longer has a round ended by a classmate's own move"
    assert len(tables[0].match.actions) > 60, [t.scene["html"][:300] for t in tables]


def test_the_table_says_whom_it_waits_for_and_refuses_what_a_solo_table_does(stores: list[Store]) -> None:
    ana, ben = two_seats(stores, "kalah", 2)
    assert ana.code == ben.code and ana.my_turn != ben.my_turn
    waiting, mover = (ana, ben) if ben.my_turn else (ben, ana)
    assert f"{mover.shared.seat.name} (" in waiting.scene["html"] and "is to play" in waiting.scene["html"]
    assert not waiting.act(waiting.match.legal_actions()[0]) if waiting.match.legal_actions() else True
    assert "turn" in waiting.message
    assert not ana.undo() and "no undo" in ana.message
    ana.new_deal()
    assert "one deal" in ana.message
    assert ana.link_state() == {"join": ana.code}
    assert ana.scene["address"] == f"join={ana.code}" and ana.scene["keep"] == f"seat={ana.shared.seat.token}"
    with pytest.raises(Exception, match="follows the match"):
        ana.code = "HACKED"


def test_a_free_seat_is_named_and_the_table_waits_for_a_classmate(stores: list[Store]) -> None:
    seat = stores[0].new_table("kalah", 2, {}, [PLAYER, PLAYER], "Ana", now=1.0, seat=1)
    table = SharedPlayTable(seat, stores[0], poll=0, pace=0)
    assert "a free seat for a classmate" in table.scene["html"]
    assert "Waiting for a classmate to join as" in table.scene["html"]


def test_the_lobby_makes_joins_and_sits_again(stores: list[Store]) -> None:
    seated: list[SharedPlayTable] = []
    lobby = TableLobby(stores[0], on_seated=seated.append, poll=0)
    lobby.game_picker.value = "band-of-tricks"
    assert [p.hidden for p in lobby.seat_pickers[:3]] == [False, False, False]
    lobby.seat_pickers[2].value = "random"
    lobby.name_entry.value = "Ana"
    lobby.make_button.click()
    assert lobby.table is not None and seated == [lobby.table], lobby.message
    assert [s.kind for s in lobby.table.shared.seats] == [PLAYER, PLAYER, "heuristic", "random"]
    code = lobby.table.code
    ben = TableLobby(stores[1], join=code.lower(), poll=0)
    assert ben.game_picker.hidden and not ben.code_entry.hidden
    ben.name_entry.value = "<b>Ben</b>"
    ben.join_button.click()
    assert ben.table is not None and ben.table.seat == 1
    assert "&lt;b&gt;Ben&lt;/b&gt;" in ben.table.scene["html"] and "<b>Ben</b>" not in ben.table.scene["html"]
    # a reload: the page sends back the seat it kept, and the same seat is taken again
    again = TableLobby(stores[1], join=code, recall=True, poll=0)
    assert "Finding your seat" in again.scene["html"]
    again._intent("recall", ben.table.scene["keep"])
    assert again.table is not None and again.table.seat == 1 and again.table.shared.seat.name == "<b>Ben</b>"
    # what another table's page kept does not seat one at this table
    other = TableLobby(stores[1], join="ZZZZZZ", recall=True, poll=0)
    other._intent("recall", ben.table.scene["keep"])
    assert other.table is None and not other.code_entry.hidden
    # a wrong code is said in words; nothing else changes
    other.name_entry.value = "Cy"
    other.join_button.click()
    assert other.table is None and "no table has the code" in other.message


def test_the_lobby_makes_a_table_with_the_games_variants(stores: list[Store]) -> None:
    lobby = TableLobby(stores[0], poll=0, game="tricks-and-stones")
    assert all(toggle.hidden for toggle in lobby.variant_toggles.values()), "Tricks & Stones has no variants"
    lobby.game_picker.value = "jewel-vault"
    assert [name for name, t in lobby.variant_toggles.items() if not t.hidden] == ["partnerships", "known_deck"]
    lobby.variant_toggles["partnerships"].value = True
    lobby.name_entry.value = "Ana"
    lobby.make_button.click()
    assert lobby.table is not None, lobby.message
    options = lobby.table.rules.options
    assert options.partnerships and not options.known_deck  # type: ignore[attr-defined]
    assert all(toggle.hidden for toggle in lobby.variant_toggles.values()), "seated: the lobby's choices go"
    # a variant the chosen game does not have is not passed on, whatever the toggle says
    other = TableLobby(stores[1], poll=0, game="kalah", variants=("partnerships",))
    other.name_entry.value = "Ben"
    other.make_button.click()
    assert other.table is not None and other.table.rules.name == "kalah", other.message


def test_the_table_app_reads_a_links_variants_and_the_play_app_passes_them_on(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from tricklab.widgets.apps import play_app, table_app

    monkeypatch.setenv("TRICKLAB_CLASS_DB", f"{tmp_path}/class.sqlite3")
    app = table_app("game=jewel-vault&players=4&known_deck=yes&partnerships=maybe")
    lobby = app.children[1]
    assert isinstance(lobby, TableLobby)
    assert lobby.variant_toggles["known_deck"].value and not lobby.variant_toggles["partnerships"].value
    assert "partnerships must be yes or no" in app.children[0].value
    lobby.name_entry.value = "Ana"
    lobby.make_button.click()
    assert "Jewel Vault with known deck, table" in app.children[0].value
    assert lobby.table is not None
    lobby.table.close()
    played = play_app("game=jewel-vault&players=4&partnerships=yes&pace=0")
    assert "table.ipynb?game=jewel-vault&amp;players=4&amp;partnerships=yes" in played.children[2].value
    played.children[1].close()


def test_a_seat_is_handed_to_a_bot_and_taken_back_and_a_bot_stands_in_for_a_missing_classmate(
    stores: list[Store],
) -> None:
    ana, ben = two_seats(stores, "kalah", 2, stand_in_after=0.3)
    mover, other = (ana, ben) if ana.my_turn else (ben, ana)
    # a classmate thinking a moment keeps nobody waiting: a bot is offered only after a while
    assert other.stand_in_button.hidden
    time.sleep(0.35)
    assert other.poll(), "the offer is drawn when the time has passed"
    # the one whose turn it is not sees who keeps the table waiting and may let a bot stand in
    assert mover.stand_in_button.hidden and not other.stand_in_button.hidden
    assert other.stand_in_button.label == f"Let a bot play for {mover.shared.seat.name}"
    before = len(other.match.actions)
    other.stand_in_button.click()
    assert other.shared.is_bot(mover.seat) and len(other.match.actions) > before, "the bot moved for them"
    mover.poll()
    assert not mover.sit_button.hidden and mover.leave_button.hidden
    assert "A bot plays your seat" in mover.scene["html"] or mover.match.to_play != mover.seat
    mover.sit_button.click()
    assert not mover.shared.is_bot(mover.seat) and mover.sit_button.hidden and not mover.leave_button.hidden
    # leaving: a bot plays one's own seat from now on
    mover.leave_button.click()
    assert mover.shared.is_bot(mover.seat) and not mover.sit_button.hidden
    # nobody is missing: the stand-in is refused in words
    other.poll()
    if other.stand_in_button.hidden:
        other._stand_in()
        assert "Nobody keeps the table waiting" in other.message


def test_a_table_holds_a_finished_trick_for_the_time_it_sets(stores: list[Store]) -> None:
    with pytest.raises(Exception, match="1 to 30 seconds"):
        stores[0].new_table("tricks-and-stones", 4, {}, [PLAYER] * 4, "Ana", now=1.0, hold=0.2)
    ana = stores[0].new_table("tricks-and-stones", 4, {}, [PLAYER, PLAYER, "heuristic", "heuristic"], "Ana", now=1.0)
    assert ana.hold is None
    timed = stores[0].new_table("band-of-tricks", 4, {}, [PLAYER, PLAYER, "random", "random"], "Ana", now=1.0, hold=5)
    ben = stores[1].join_table(timed.code, "Ben", now=2.0)
    assert timed.hold == ben.hold == stores[1].table_seat(ben.token).hold == 5.0
    assert SharedPlayTable(ben, stores[1], poll=0, pace=0).hold == 5.0, "every seat holds a trick the table's time"
    assert SharedPlayTable(ana, stores[0], poll=0, pace=0).hold is None


def test_the_lobby_makes_a_table_with_a_hold_and_seats_again_only_at_the_table_in_the_address(
    stores: list[Store],
) -> None:
    lobby = TableLobby(stores[0], poll=0, game="kalah", players=2)
    assert lobby.game_picker.value == "kalah" and lobby.players_picker.value == 2
    lobby.name_entry.value = "Ana"
    lobby.hold_picker.value = 10
    lobby.make_button.click()
    assert lobby.table is not None and lobby.table.hold == 10 and lobby.table.shared.seat.hold == 10
    assert lobby.table.scene["keep_on_device"] is True, "the seat is kept on the device, not only in the tab"
    kept = lobby.table.scene["keep"]
    # a page opened without a table's code does not sit down at the table this device kept
    plain = TableLobby(stores[0], recall=True, poll=0)
    assert "Finding your seat" not in plain.scene["html"]
    plain._intent("recall", kept)
    assert plain.table is None


def test_the_table_app_shows_the_lobby_then_the_table(stores: list[Store], monkeypatch: pytest.MonkeyPatch) -> None:
    from tricklab.widgets.apps import table_app

    monkeypatch.setenv("TRICKLAB_CLASS_DB", stores[0].where)
    app = table_app("game=mandala&players=2&pace=9&seed=77")
    header, lobby = app.children
    assert isinstance(lobby, TableLobby) and lobby.game_picker.value == "mandala"
    assert "The pace must be 0 to 3 seconds" in header.value
    lobby.name_entry.value = "Ana"
    lobby.make_button.click()
    assert lobby.table is not None and app.children == (header, lobby.table)
    assert f"table {lobby.table.code}: you are Player 1" in header.value
    assert lobby.table.match.seed != 77, "a link never chooses a table's deal"
    joined = table_app(f"join={lobby.table.code}&pace=0")
    ben = joined.children[1]
    assert isinstance(ben, TableLobby) and ben.code_entry.value == lobby.table.code and ben.table is None
    lobby.table.close()


def test_the_teacher_watches_the_class_tables_and_sees_every_hand_only_when_choosing_it(
    stores: list[Store],
) -> None:
    from tricklab.errors import TricklabError
    from tricklab.widgets.classapp import ClassTeacher
    from tricklab.widgets.sharedtable import TableWatcher

    teacher = ClassTeacher(stores[0], page="http://192.168.1.20:8866/voila/render/class.ipynb", poll=60)
    teacher.start()
    session = teacher.desk.session  # type: ignore[union-attr]
    with pytest.raises(TricklabError, match="no class session has the code"):
        stores[1].new_table("kalah", 2, {}, [PLAYER, PLAYER], "Ana", now=1.0, class_code="ZZZZZZ")
    lobby = TableLobby(
        stores[1], poll=0, pace=0, game="tricks-and-stones", players=4, class_code=teacher.join_code.lower()
    )
    lobby.seat_pickers[0].value = "random"
    lobby.name_entry.value = "<b>Ana</b>"
    lobby.make_button.click()
    assert lobby.table is not None, lobby.message
    elsewhere = stores[1].new_table("kalah", 2, {}, [PLAYER, PLAYER], "Zed", now=1.0)  # no class: not listed
    code = lobby.table.code
    summary = stores[0].class_tables(session)
    assert [t.code for t in summary] == [code] and summary[0].game == "tricks-and-stones"
    teacher._refresh(force=True)
    html = teacher.scene["html"]
    assert f"table.ipynb?class={teacher.join_code}" in html and f"Watch table {code}" in html
    assert "&lt;b&gt;Ana&lt;/b&gt;" in html and "<b>Ana</b>" not in html and "3 bots" in html
    # only the session's teacher watches, only the session's tables
    with pytest.raises(TricklabError):
        stores[1].watch_start(Session(session.id, session.join_code, "not the secret", session.teacher), code)
    with pytest.raises(TricklabError, match="no table"):
        stores[1].watch_poll(session, elsewhere.code)
    watcher = TableWatcher(session, code, stores[1], poll=0)
    ana = lobby.table
    for _ in range(12):  # the table plays on; the watcher follows its log
        ana.poll()
        if ana.paused is not None:
            ana.continue_()
        elif ana.my_turn:
            ana.act(ana.match.legal_actions()[0])
    watcher.follow()
    assert watcher.match.actions == ana.match.actions and len(watcher.match.actions) > 4
    rules, state = watcher.match.rules, watcher.match.state
    seen = hidden_cards(rules, state, 0)
    assert seen and not any(named(watcher.scene["html"], c) for c in seen), "first: one seat's view"
    # the last finished trick with why it won (what the classmates' tables hold), and the deal's steps
    last = [s for s in watcher.match.timeline(0) if s.event.kind == "trick"][-1].event
    assert 'aria-label="Last trick"' in watcher.scene["html"] and esc(last.text) in watcher.scene["html"]
    assert "What happened this deal" in watcher.scene["html"]
    watcher.show_picker.value = -1
    assert all(drawn(watcher.scene["html"], c) for c in seen), "every hand, once the teacher chose it"
    assert watcher.scene["address"] == f"watch={code}" and str(watcher.match.seed) not in watcher.scene["html"]
    watcher.close()
    ana.close()
    teacher.close()


def test_the_play_app_offers_the_same_game_with_classmates() -> None:
    from tricklab.widgets.apps import play_app

    app = play_app("game=band-of-tricks&players=5&pace=0")
    also = app.children[2].value
    assert (
        'href="table.ipynb?game=band-of-tricks&amp;players=5"' in also and "Play Band of Tricks with classmates" in also
    )
    app.children[1].close()


def test_a_seat_follows_the_log_by_itself_on_the_kernels_loop(stores: list[Store]) -> None:
    import asyncio

    from .test_platform import run

    followed: list[bool] = []

    async def play() -> None:
        ana = stores[0].new_table("kalah", 2, {}, [PLAYER, PLAYER], "Ana", now=1.0)
        ben = stores[1].join_table(ana.code, "Ben", now=2.0)
        tables = [
            SharedPlayTable(seat, store, poll=0.05, pace=0) for seat, store in ((ana, stores[0]), (ben, stores[1]))
        ]
        mover, other = tables if tables[0].my_turn else tables[::-1]
        before = len(other.match.actions)
        assert mover.act(mover.match.legal_actions()[0])
        await asyncio.sleep(0.5)  # no call to poll(): the loop looks at the log
        followed.append(len(other.match.actions) > before and other.match.actions == mover.match.actions)
        for table in tables:
            table.close()

    run(play)  # a loop of its own in a thread of its own (a browser test's loop may run in this one)
    assert followed == [True]


def test_a_kalah_sowing_shown_stone_by_stone_does_not_carry_the_seed(stores: list[Store]) -> None:
    ana = stores[0].new_table("kalah", 2, {}, [PLAYER, "heuristic"], "Ana", now=1.0)
    table = SharedPlayTable(ana, stores[0], poll=0, pace=0.5)
    if not table.my_turn:
        table.finish_bots()
    assert table.act(table.match.legal_actions()[0])
    assert "sowing" in table.scene, "the move is shown stone by stone"
    assert str(table.match.seed) not in json.dumps(table.scene)
    table.close()
