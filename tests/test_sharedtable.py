"""A seat at a table of classmates (tricklab.widgets.sharedtable), as its widget: two classmates'
widgets and bots play a whole game of each game through the class store's log (SQLite, then
PostgreSQL), each widget's synced state checked at every step for the other seats' hidden cards and
for the seed; the lobby makes, joins and sits again; what a solo table does and a shared one does not
is refused in words."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from tricklab.bots import table_bot
from tricklab.store import PLAYER, Store
from tricklab.widgets.sharedtable import SharedPlayTable, TableLobby

from .test_hostile_widgets import assert_seat_only, hidden_cards, named

pytestmark = pytest.mark.server


@pytest.fixture
def stores(class_store_url: str) -> Iterator[list[Store]]:
    """Two connections to one class store: one per classmate's kernel."""
    opened = [Store.open(class_store_url) for _ in range(2)]
    yield opened
    for store in opened:
        store.close()


def two_seats(stores: list[Store], game: str, players: int) -> tuple[SharedPlayTable, SharedPlayTable]:
    kinds = [PLAYER, PLAYER, "heuristic", "random"][:players]
    ana = stores[0].new_table(game, players, {}, kinds, "Ana", now=1.0)
    ben = stores[1].join_table(ana.code, "Ben", now=2.0)
    return (
        SharedPlayTable(ana, stores[0], poll=0, pace=0),
        SharedPlayTable(ben, stores[1], poll=0, pace=0),
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


@pytest.mark.parametrize(
    ("game", "players"),
    [("tricks-and-stones", 4), ("band-of-tricks", 4), ("jewel-vault", 4), ("kalah", 2), ("mandala", 2)],
)
def test_two_classmates_widgets_play_a_whole_game(stores: list[Store], game: str, players: int) -> None:
    tables = two_seats(stores, game, players)
    bound = tables[0].rules.max_decisions * 4
    for _ in range(bound):
        if all(t.match.is_over and t.paused is None for t in tables):
            break
        for table in tables:
            table.poll()
            check_only_own_seat(table)
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
